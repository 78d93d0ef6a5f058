//! The YAML scanner: UTF-8 text → tokens with byte positions, following PyYAML's scanner
//! (YAML 1.1) decision for decision, because every system strata imitates reads YAML with it:
//! the same simple-key rules (one line, at most 1024 characters), the same indentation and
//! `BLOCK-END` bookkeeping, the same leniencies (quoted scalars and flow collections ignore
//! indentation, `?`/`:` always act as indicators in flow context, anchors end at the first
//! character outside `[0-9A-Za-z_-]`) and the same strictness (tabs never start a token).
//! Scalars, tags, anchors and directives are scanned in `scan.rs`.
//!
//! The text is walked as bytes: every indicator is ASCII, and the only non-ASCII characters
//! the rules care about are the line breaks NEL, LS and PS (`C2 85`, `E2 80 A8`,
//! `E2 80 A9`), which never collide with continuation bytes. Columns and the simple-key
//! length are counted in characters, as PyYAML counts them (a BOM takes no column).

use std::borrow::Cow;
use std::collections::VecDeque;

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A `%` directive.
#[derive(Debug)]
pub(super) enum Directive<'a> {
    /// `%YAML major.minor`: only the major version is checked (it must be 1), as PyYAML
    /// checks it; the number saturates.
    Yaml(u64),
    /// `%TAG handle prefix`.
    Tag(&'a str, Cow<'a, str>),
    /// Any other directive: ignored, as PyYAML ignores it.
    Other,
}

/// What a token is.
#[derive(Debug)]
pub(super) enum Tok<'a> {
    StreamStart,
    StreamEnd,
    Directive(Directive<'a>),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(&'a str),
    Anchor(&'a str),
    /// `handle` is `None` for a verbatim tag (`!<...>`) and for the lone `!`.
    Tag {
        handle: Option<&'a str>,
        suffix: Cow<'a, str>,
    },
    Scalar {
        value: Cow<'a, str>,
        style: Style,
    },
}

impl Tok<'_> {
    /// PyYAML's name for the token, as its messages quote it.
    pub(super) fn id(&self) -> &'static str {
        match self {
            Tok::StreamStart => "<stream start>",
            Tok::StreamEnd => "<stream end>",
            Tok::Directive(_) => "<directive>",
            Tok::DocumentStart => "<document start>",
            Tok::DocumentEnd => "<document end>",
            Tok::BlockSequenceStart => "<block sequence start>",
            Tok::BlockMappingStart => "<block mapping start>",
            Tok::BlockEnd => "<block end>",
            Tok::FlowSequenceStart => "[",
            Tok::FlowMappingStart => "{",
            Tok::FlowSequenceEnd => "]",
            Tok::FlowMappingEnd => "}",
            Tok::BlockEntry => "-",
            Tok::FlowEntry => ",",
            Tok::Key => "?",
            Tok::Value => ":",
            Tok::Alias(_) => "<alias>",
            Tok::Anchor(_) => "<anchor>",
            Tok::Tag { .. } => "<tag>",
            Tok::Scalar { .. } => "<scalar>",
        }
    }
}

/// A token and the bytes it covers.
#[derive(Debug)]
pub(super) struct Token<'a> {
    pub tok: Tok<'a>,
    pub start: usize,
    pub end: usize,
}

/// A syntax error as PyYAML reports it: what was being read (and where it started), what
/// was found, and where.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SyntaxError {
    pub context: Option<(&'static str, usize)>,
    pub problem: String,
    pub at: usize,
}

impl SyntaxError {
    pub(super) fn new(
        context: Option<(&'static str, usize)>,
        problem: impl Into<String>,
        at: usize,
    ) -> Self {
        SyntaxError {
            context,
            problem: problem.into(),
            at,
        }
    }
}

pub(super) type Result<T> = std::result::Result<T, SyntaxError>;

/// Where a `:` could turn what was scanned into a key.
#[derive(Clone, Copy, Debug)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    column: usize,
    at: usize,
}

/// The scanner's state: a cursor over the text plus PyYAML's bookkeeping.
pub(super) struct Scanner<'a> {
    pub(super) text: &'a str,
    pub(super) b: &'a [u8],
    /// Byte offset of the next character.
    pub(super) pos: usize,
    pub(super) line: usize,
    /// Column of the next character, in characters.
    pub(super) column: usize,
    /// Characters read so far.
    pub(super) index: usize,
    done: bool,
    pub(super) flow_level: usize,
    tokens: VecDeque<Token<'a>>,
    tokens_taken: usize,
    pub(super) indent: isize,
    indents: Vec<isize>,
    pub(super) allow_simple_key: bool,
    /// One possible simple key per flow level.
    possible: Vec<Option<SimpleKey>>,
    /// Byte ranges of the comments passed so far.
    pub comments: Vec<(usize, usize)>,
    /// Whether to note where comments and blank lines lie between tokens (`runs`).
    pub record: bool,
    /// `(from, to)`: the gaps between tokens that hold a comment or a blank line.
    pub runs: Vec<(usize, usize)>,
    /// Where the token fetched last ends (while recording): a plain scalar's scan moves on
    /// over the spaces and line breaks after it, which belong to the gap.
    last_end: usize,
    /// libyaml's rules where PyYAML's differ (Psych reads YAML through libyaml): a tab before
    /// a token is skipped like a space in a flow collection and where no simple key may start
    /// (after `key:`), not in indentation; a tag (`!!str`) ends before `,`, `[` and `]`, and
    /// a `,` may follow it in a flow collection.
    pub(super) libyaml: bool,
}

/// Whether the byte at `p` starts a line break (`\r`, `\n`, NEL, LS, PS).
#[inline]
pub(super) fn is_break(b: &[u8], p: usize) -> bool {
    match b.get(p) {
        Some(b'\n' | b'\r') => true,
        Some(0xc2) => b.get(p + 1) == Some(&0x85),
        Some(0xe2) => b.get(p + 1) == Some(&0x80) && matches!(b.get(p + 2), Some(0xa8 | 0xa9)),
        _ => false,
    }
}

/// A line break or the end of the text.
#[inline]
pub(super) fn is_breakz(b: &[u8], p: usize) -> bool {
    p >= b.len() || is_break(b, p)
}

/// A space, a tab, a line break or the end of the text (PyYAML's `'\0 \t\r\n\x85\u2028\u2029'`).
#[inline]
pub(super) fn is_blankz(b: &[u8], p: usize) -> bool {
    match b.get(p) {
        None | Some(b' ' | b'\t') => true,
        _ => is_break(b, p),
    }
}

/// Bytes of the character whose first byte is `lead`.
#[inline]
pub(super) fn char_len(lead: u8) -> usize {
    match lead {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

impl<'a> Scanner<'a> {
    pub(super) fn new(text: &'a str) -> Scanner<'a> {
        let mut s = Scanner {
            text,
            b: text.as_bytes(),
            pos: 0,
            line: 0,
            column: 0,
            index: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible: Vec::new(),
            comments: Vec::new(),
            record: false,
            runs: Vec::new(),
            last_end: 0,
            libyaml: false,
        };
        s.tokens.push_back(Token {
            tok: Tok::StreamStart,
            start: 0,
            end: 0,
        });
        s
    }

    // ------------------------------------------------------------------ the cursor

    /// The byte `k` bytes ahead (0 past the end: PyYAML's `'\0'` sentinel).
    #[inline]
    pub(super) fn at(&self, k: usize) -> u8 {
        self.b.get(self.pos + k).copied().unwrap_or(0)
    }

    #[inline]
    pub(super) fn peek(&self) -> u8 {
        self.at(0)
    }

    /// Moves over one character, counting lines and columns as PyYAML's reader does.
    pub(super) fn forward(&mut self) {
        let Some(&c) = self.b.get(self.pos) else {
            return;
        };
        let len = char_len(c);
        if c == b'\n'
            || (c == b'\r' && self.b.get(self.pos + 1) != Some(&b'\n'))
            || (len > 1 && is_break(self.b, self.pos))
        {
            self.line += 1;
            self.column = 0;
        } else if !(c == 0xef && self.b.get(self.pos + 1..self.pos + 3) == Some(&[0xbb, 0xbf])) {
            self.column += 1;
        }
        self.index += 1;
        self.pos = (self.pos + len).min(self.b.len());
    }

    /// Moves over a run of spaces (one step, however long the run).
    #[inline]
    pub(super) fn skip_spaces(&mut self) {
        let run = self.b[self.pos..]
            .iter()
            .take_while(|&&c| c == b' ')
            .count();
        self.pos += run;
        self.column += run;
        self.index += run;
    }

    /// Moves over `n` bytes that hold no line break.
    pub(super) fn forward_bytes(&mut self, n: usize) {
        let end = (self.pos + n).min(self.b.len());
        let run = &self.b[self.pos..end];
        let chars = if run.is_ascii() {
            run.len()
        } else {
            run.iter().filter(|&&c| (c & 0xc0) != 0x80).count()
        };
        let boms = if run.is_ascii() {
            0
        } else {
            run.windows(3).filter(|w| *w == [0xef, 0xbb, 0xbf]).count()
        };
        self.index += chars;
        self.column += chars - boms;
        self.pos = end;
    }

    /// PyYAML's `scan_line_break`: consumes one line break and says what it reads as
    /// (`"\n"` for CR LF, CR, LF and NEL; LS and PS as themselves), or `""` for none.
    pub(super) fn scan_line_break(&mut self) -> &'static str {
        match self.peek() {
            b'\r' | b'\n' => {
                if self.peek() == b'\r' && self.at(1) == b'\n' {
                    self.forward();
                }
                self.forward();
                "\n"
            }
            0xc2 if is_break(self.b, self.pos) => {
                self.forward();
                "\n"
            }
            0xe2 if is_break(self.b, self.pos) => {
                let ls = self.at(2) == 0xa8;
                self.forward();
                if ls {
                    "\u{2028}"
                } else {
                    "\u{2029}"
                }
            }
            _ => "",
        }
    }

    /// Whether the next three characters are `---` or `...` followed by a blank.
    pub(super) fn at_document_separator(&self) -> bool {
        let p = self.b.get(self.pos..self.pos + 3);
        matches!(p, Some(b"---" | b"...")) && is_blankz(self.b, self.pos + 3)
    }

    // --------------------------------------------------------------- the token queue

    fn need_more_tokens(&mut self) -> Result<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        // The next token may be a simple key: look further.
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fill(&mut self) -> Result<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    /// The next token, left in the queue.
    pub(super) fn peek_token(&mut self) -> Result<Option<&Token<'a>>> {
        self.fill()?;
        Ok(self.tokens.front())
    }

    /// The next token, taken out of the queue.
    pub(super) fn next_token(&mut self) -> Result<Option<Token<'a>>> {
        self.fill()?;
        let t = self.tokens.pop_front();
        if t.is_some() {
            self.tokens_taken += 1;
        }
        Ok(t)
    }

    fn push(&mut self, tok: Tok<'a>, start: usize, end: usize) {
        self.tokens.push_back(Token { tok, start, end });
    }

    fn fetch_more_tokens(&mut self) -> Result<()> {
        self.fetch_token()?;
        if self.record {
            if let Some(t) = self.tokens.back() {
                self.last_end = t.end;
            }
        }
        Ok(())
    }

    fn fetch_token(&mut self) -> Result<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column as isize);
        let ch = self.peek();
        if self.pos >= self.b.len() {
            return self.fetch_stream_end();
        }
        match ch {
            b'%' if self.column == 0 => return self.fetch_directive(),
            b'-' if self.column == 0 && self.at_document_separator() => {
                return self.fetch_document_indicator(Tok::DocumentStart)
            }
            b'.' if self.column == 0 && self.at_document_separator() => {
                return self.fetch_document_indicator(Tok::DocumentEnd)
            }
            b'[' => return self.fetch_flow_collection_start(Tok::FlowSequenceStart),
            b'{' => return self.fetch_flow_collection_start(Tok::FlowMappingStart),
            b']' => return self.fetch_flow_collection_end(Tok::FlowSequenceEnd),
            b'}' => return self.fetch_flow_collection_end(Tok::FlowMappingEnd),
            b',' => return self.fetch_flow_entry(),
            b'-' if is_blankz(self.b, self.pos + 1) => return self.fetch_block_entry(),
            b'?' if self.flow_level > 0 || is_blankz(self.b, self.pos + 1) => {
                return self.fetch_key()
            }
            b':' if self.flow_level > 0 || is_blankz(self.b, self.pos + 1) => {
                return self.fetch_value()
            }
            b'*' => return self.fetch_anchor(true),
            b'&' => return self.fetch_anchor(false),
            b'!' => return self.fetch_tag(),
            b'|' if self.flow_level == 0 => return self.fetch_block_scalar(Style::Literal),
            b'>' if self.flow_level == 0 => return self.fetch_block_scalar(Style::Folded),
            b'\'' => return self.fetch_flow_scalar(Style::Single),
            b'"' => return self.fetch_flow_scalar(Style::Double),
            _ => {}
        }
        if self.check_plain() {
            return self.fetch_plain();
        }
        let c = self.text[self.pos..].chars().next().unwrap_or('\0');
        Err(SyntaxError::new(
            Some(("while scanning for the next token", self.pos)),
            format!(
                "found character {} that cannot start any token",
                py_repr_char(c)
            ),
            self.pos,
        ))
    }

    // -------------------------------------------------------------------- simple keys

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible.iter().flatten().map(|k| k.token_number).min()
    }

    /// Drops possible keys that can no longer be keys: a simple key is one line and at most
    /// 1024 characters long. A required one that is dropped is an error.
    fn stale_possible_simple_keys(&mut self) -> Result<()> {
        let (line, index, pos) = (self.line, self.index, self.pos);
        for slot in self.possible.iter_mut() {
            if let Some(key) = slot {
                if key.line != line || index - key.index > 1024 {
                    if key.required {
                        return Err(SyntaxError::new(
                            Some(("while scanning a simple key", key.at)),
                            "could not find expected ':'",
                            pos,
                        ));
                    }
                    *slot = None;
                }
            }
        }
        Ok(())
    }

    pub(super) fn save_possible_simple_key(&mut self) -> Result<()> {
        let required = self.flow_level == 0 && self.indent == self.column as isize;
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let key = SimpleKey {
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.index,
                line: self.line,
                column: self.column,
                at: self.pos,
            };
            let level = self.flow_level;
            if self.possible.len() <= level {
                self.possible.resize(level + 1, None);
            }
            self.possible[level] = Some(key);
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Result<()> {
        if let Some(slot) = self.possible.get_mut(self.flow_level) {
            if let Some(key) = slot.take() {
                if key.required {
                    return Err(SyntaxError::new(
                        Some(("while scanning a simple key", key.at)),
                        "could not find expected ':'",
                        self.pos,
                    ));
                }
            }
        }
        Ok(())
    }

    // -------------------------------------------------------------------- indentation

    fn unwind_indent(&mut self, column: isize) {
        // In flow context indentation is ignored (PyYAML is laxer than the specification).
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            self.indent = self.indents.pop().unwrap_or(-1);
            self.push(Tok::BlockEnd, self.pos, self.pos);
        }
    }

    fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            return true;
        }
        false
    }

    // ----------------------------------------------------------------------- fetchers

    fn fetch_stream_end(&mut self) -> Result<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible.clear();
        self.push(Tok::StreamEnd, self.pos, self.pos);
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Result<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, tok: Tok<'a>) -> Result<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.pos;
        self.forward_bytes(3);
        self.push(tok, start, self.pos);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, tok: Tok<'a>) -> Result<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        self.allow_simple_key = true;
        let start = self.pos;
        self.forward_bytes(1);
        self.push(tok, start, self.pos);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, tok: Tok<'a>) -> Result<()> {
        self.remove_possible_simple_key()?;
        // PyYAML lets the level go below zero here; the parser reports the stray bracket.
        self.flow_level = self.flow_level.saturating_sub(1);
        self.allow_simple_key = false;
        let start = self.pos;
        self.forward_bytes(1);
        self.push(tok, start, self.pos);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Result<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let start = self.pos;
        self.forward_bytes(1);
        self.push(Tok::FlowEntry, start, self.pos);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(SyntaxError::new(
                    None,
                    "sequence entries are not allowed here",
                    self.pos,
                ));
            }
            if self.add_indent(self.column as isize) {
                self.push(Tok::BlockSequenceStart, self.pos, self.pos);
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let start = self.pos;
        self.forward_bytes(1);
        self.push(Tok::BlockEntry, start, self.pos);
        Ok(())
    }

    fn fetch_key(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(SyntaxError::new(
                    None,
                    "mapping keys are not allowed here",
                    self.pos,
                ));
            }
            if self.add_indent(self.column as isize) {
                self.push(Tok::BlockMappingStart, self.pos, self.pos);
            }
        }
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        let start = self.pos;
        self.forward_bytes(1);
        self.push(Tok::Key, start, self.pos);
        Ok(())
    }

    fn fetch_value(&mut self) -> Result<()> {
        let level = self.flow_level;
        if let Some(key) = self.possible.get_mut(level).and_then(Option::take) {
            // The saved position was a simple key: insert KEY (and maybe the block mapping's
            // start) before the tokens scanned since.
            let at = key.token_number - self.tokens_taken;
            self.tokens.insert(
                at,
                Token {
                    tok: Tok::Key,
                    start: key.at,
                    end: key.at,
                },
            );
            if self.flow_level == 0 && self.add_indent(key.column as isize) {
                self.tokens.insert(
                    at,
                    Token {
                        tok: Tok::BlockMappingStart,
                        start: key.at,
                        end: key.at,
                    },
                );
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 {
                if !self.allow_simple_key {
                    return Err(SyntaxError::new(
                        None,
                        "mapping values are not allowed here",
                        self.pos,
                    ));
                }
                if self.add_indent(self.column as isize) {
                    self.push(Tok::BlockMappingStart, self.pos, self.pos);
                }
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        let start = self.pos;
        self.forward_bytes(1);
        self.push(Tok::Value, start, self.pos);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Result<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Result<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, style: Style) -> Result<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(style)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, style: Style) -> Result<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(style)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Result<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain()?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// A plain scalar starts with any non-blank character but the indicators; `-`, `?`,
    /// `:` may start one when a non-blank follows (`?` and `:` only in block context).
    fn check_plain(&self) -> bool {
        let ch = self.peek();
        let indicator = is_indicator(ch);
        if !is_blankz(self.b, self.pos) && !indicator {
            return true;
        }
        !is_blankz(self.b, self.pos + 1)
            && (ch == b'-' || (self.flow_level == 0 && (ch == b'?' || ch == b':')))
    }

    /// Skips spaces, comments and line breaks (not tabs: PyYAML lets no token start after
    /// one). A line break in block context allows a simple key again.
    fn scan_to_next_token(&mut self) {
        if self.index == 0 && self.b.starts_with(&[0xef, 0xbb, 0xbf]) {
            self.forward();
        }
        let comments = self.comments.len();
        loop {
            self.skip_spaces();
            if self.libyaml && (self.flow_level > 0 || !self.allow_simple_key) {
                while matches!(self.peek(), b' ' | b'\t') {
                    self.forward_bytes(1);
                }
            }
            if self.peek() == b'#' {
                let start = self.pos;
                let mut p = self.pos;
                while !is_breakz(self.b, p) {
                    p += 1;
                }
                self.forward_bytes(p - self.pos);
                self.comments.push((start, self.pos));
            }
            if self.scan_line_break().is_empty() {
                break;
            }
            if self.flow_level == 0 {
                self.allow_simple_key = true;
            }
        }
        if self.record {
            self.note_run(comments);
        }
    }

    /// Notes the gap since the last token when it holds a comment or a blank line.
    fn note_run(&mut self, comments: usize) {
        let from = self.last_end.min(self.pos);
        let gap = &self.b[from..self.pos];
        let breaks = gap.iter().filter(|&&b| b == b'\n').count();
        // A line break ends the token's line; more make blank lines (at the start, one does).
        if breaks > usize::from(from > 0) || self.comments.len() > comments {
            self.runs.push((from, self.pos));
        }
    }
}

/// A character as Python's `repr` shows it in PyYAML's messages (`'\t'`, `'@'`).
pub(super) fn py_repr_char(c: char) -> String {
    match c {
        '\t' => "'\\t'".into(),
        '\n' => "'\\n'".into(),
        '\r' => "'\\r'".into(),
        '\0' => "'\\x00'".into(),
        '\'' => "\"'\"".into(),
        '\\' => "'\\\\'".into(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("'\\x{:02x}'", c as u32),
        c => format!("'{c}'"),
    }
}

/// YAML's indicator characters (`c-indicator`): a plain scalar does not start with one (`-`,
/// `?`, `:` only when followed by a space). A `match`, not a search of a list: this runs for
/// every plain scalar the scanner reads and every string the writer writes.
pub(crate) fn is_indicator(c: u8) -> bool {
    matches!(
        c,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}
