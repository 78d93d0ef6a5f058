//! Recording what people wrote besides the values (issue 17), while a text is loaded and still
//! at hand: the spelling of every scalar the writer would spell otherwise (`0755`, `'quoted'`,
//! `~`, a `|` block, an empty value), single-line flow collections, the comments and blank
//! lines between tokens (the scanner notes where they are), and whether a block sequence under
//! a key is indented. Only done when the run asked for it (`LoadOptions::styles`); the result
//! is plain data (`value::style`) keyed by offsets.

use crate::load::canon::{float_text, literal_header, plain_ok, printable};
use crate::load::resolve::is_ambiguous;
use crate::load::resolve::{is_timestamp, resolve_plain, YamlVersion};
use crate::value::style::{Form, Spelling, Styles, Trivia};
use crate::value::{Kind, Node, SourceId, Span, Thin};
use thin_vec::ThinVec;

/// An open collection, as far as spellings care.
#[derive(Clone, Copy)]
enum Open {
    Block,
    /// The outermost flow collection, from this offset; `false` once it holds a plain scalar
    /// a reader of the output would type otherwise (then it is written afresh).
    Flow(usize, bool),
    /// A flow collection inside another.
    Inner,
}

pub(super) struct Recorder<'a> {
    text: &'a str,
    /// Where the source ends: the text's end, or beyond it (`LoadOptions::continues`).
    end: usize,
    source: SourceId,
    version: YamlVersion,
    spellings: Vec<Spelling>,
    seq_indent: Option<bool>,
    open: Vec<Open>,
}

impl<'a> Recorder<'a> {
    pub(super) fn new(
        text: &'a str,
        source: SourceId,
        version: YamlVersion,
        continues: usize,
    ) -> Self {
        Recorder {
            text,
            end: text.len().saturating_add(continues),
            source,
            version,
            spellings: Vec::new(),
            seq_indent: None,
            open: Vec::new(),
        }
    }

    fn abs(&self, local: usize) -> u32 {
        Span::new(self.source, local, local).start
    }

    fn line_start(&self, at: usize) -> usize {
        self.text.as_bytes()[..at.min(self.text.len())]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1)
    }

    /// A scalar event's text `start..end` (from its tag or its token) and the node built.
    /// A plain spelling is kept only where a reader of the output types it as the loader did
    /// (Heat reads `2024-05-23` as a string; every other reader as a date).
    pub(super) fn scalar(
        &mut self,
        start: usize,
        end: usize,
        plain: bool,
        tagged: bool,
        node: &Node,
    ) {
        let Some(slice) = self.text.get(start..end) else {
            return;
        };
        let reads_back = || plain && !tagged && reads_as(slice, node, self.version);
        if matches!(self.open.last(), Some(Open::Flow(..) | Open::Inner)) {
            let poison = tagged || plain && !reads_back();
            let outer = self
                .open
                .iter_mut()
                .rev()
                .find(|o| matches!(o, Open::Flow(..)));
            if let (true, Some(Open::Flow(_, keep))) = (poison, outer) {
                *keep = false;
            }
        }
        if tagged {
            return;
        }
        // One pass over the bytes: line breaks, and anything but ASCII or a CR.
        let (mut breaks, mut other) = (false, false);
        for &c in slice.as_bytes() {
            breaks |= c == b'\n';
            other |= c == b'\r' || c >= 0x80;
        }
        if other && odd_breaks(slice) {
            // NEL, LS, PS or a lone CR: left to the writer.
            return;
        }
        let one_line = !breaks;
        match slice.as_bytes().first() {
            Some(b'|' | b'>') => self.block(start, slice, node),
            Some(b'\'' | b'"') if one_line => self.push_inline(start, slice, node),
            Some(b'\'' | b'"') => self.push_lines(start, slice, node),
            _ if plain
                && one_line
                && !canonical_plain(slice, &node.kind, !other)
                && reads_back()
                && slice.chars().all(|c| printable(c) || c == '\t') =>
            {
                self.push_inline(start, slice, node)
            }
            // A folded plain string: typed by its folded text, which must stay a string.
            _ if plain && !one_line => {
                if let Kind::Str(s) = &node.kind {
                    if reads_as(s, node, self.version) {
                        self.push_lines(start, slice, node);
                    }
                }
            }
            _ => {}
        }
    }

    /// A flow scalar over several lines: its lines without their indentation.
    fn push_lines(&mut self, start: usize, slice: &str, node: &Node) {
        let mut lines = slice
            .split('\n')
            .map(|l| l.trim_end_matches('\r'))
            .map(|l| l.trim_start_matches([' ', '\t']));
        let first = lines.next().unwrap_or("");
        self.spellings.push(Spelling {
            at: self.abs(start),
            value: node.clone(),
            form: Form::Lines,
            text: first.into(),
            lines: lines.map(Into::into).collect(),
            comment: None,
        });
    }

    fn push_inline(&mut self, start: usize, slice: &str, node: &Node) {
        // `"text"` or `'text'` around exactly the value: only the quote is kept.
        let quoted = match (&node.kind, slice.as_bytes().first()) {
            (Kind::Str(v), Some(&q @ (b'"' | b'\''))) => {
                slice.len() == v.len() + 2
                    && slice.as_bytes().last() == Some(&q)
                    && slice.get(1..slice.len() - 1) == Some(v.as_str())
            }
            _ => false,
        };
        let (form, text) = if quoted {
            (Form::Quoted, &slice[..1])
        } else {
            (Form::Inline, slice)
        };
        self.spellings.push(Spelling {
            at: self.abs(start),
            value: node.clone(),
            form,
            text: text.into(),
            lines: ThinVec::new(),
            comment: None,
        });
    }

    /// `|` / `>` blocks: the header and the lines without their indentation. Blocks with an
    /// indentation indicator are left to the writer (their indentation is relative to the
    /// parent's, which the output may change).
    fn block(&mut self, start: usize, slice: &str, node: &Node) {
        let (header, rest) = slice.split_once('\n').unwrap_or((slice, ""));
        let header = header.trim_end_matches('\r');
        let n = 1 + header[1..]
            .bytes()
            .take_while(|b| matches!(b, b'+' | b'-' | b'0'..=b'9'))
            .count();
        let (indicators, after) = header.split_at(n);
        if indicators.bytes().any(|b| b.is_ascii_digit()) {
            return;
        }
        // A block ending the text without a line break has none in its value either (unless
        // stripped anyway): written with one, it would read otherwise.
        if !slice.ends_with('\n') && !indicators.contains('-') {
            return;
        }
        let comment = after
            .trim_start()
            .starts_with('#')
            .then(|| spaced::<Thin>(after.trim_end()));
        let indent = raw_lines(rest)
            .find(|l| l.bytes().any(|b| b != b' '))
            .map_or(0, |l| l.bytes().take_while(|&b| b == b' ').count());
        // A literal block whose lines are its value's (nearly all) is not kept line by line;
        // and not kept at all when the writer would write it so anyway (same header, no
        // comment): most blocks, whose value would otherwise be copied into the book.
        let literal = match &node.kind {
            Kind::Str(v) if indicators.starts_with('|') => {
                let same = lines_are(rest, indent, v);
                if same && comment.is_none() && literal_header(v) == Some(indicators) {
                    return;
                }
                same
            }
            _ => false,
        };
        let (form, lines) = if literal {
            (Form::Literal, ThinVec::new())
        } else {
            (
                Form::Block,
                raw_lines(rest)
                    .map(|l| block_body(l, indent).into())
                    .collect(),
            )
        };
        self.spellings.push(Spelling {
            at: self.abs(start),
            value: node.clone(),
            form,
            text: indicators.into(),
            lines,
            comment,
        });
    }

    /// A collection starts at `start`; `key` is its key's start when it is a mapping value.
    /// A tagged flow collection (`!!pairs [a: 1]`) is left to the writer.
    pub(super) fn open(&mut self, start: usize, seq: bool, key: Option<usize>, tagged: bool) {
        let flow = matches!(self.text.as_bytes().get(start), Some(b'[' | b'{'));
        let inside =
            tagged && flow || matches!(self.open.last(), Some(Open::Flow(..) | Open::Inner));
        if seq && !flow && self.seq_indent.is_none() {
            if let Some(k) = key {
                let col = |at: usize| at - self.line_start(at);
                self.seq_indent = Some(col(start) > col(k));
            }
        }
        self.open.push(match (flow, inside) {
            (_, true) => Open::Inner,
            (true, false) => Open::Flow(start, true),
            (false, false) => Open::Block,
        });
    }

    /// The collection opened last ends at `end`, as `node`.
    pub(super) fn close(&mut self, end: usize, node: &Node) {
        if let Some(Open::Flow(start, true)) = self.open.pop() {
            let Some(slice) = self.text.get(start..end) else {
                return;
            };
            let empty = match &node.kind {
                Kind::List(l) => l.is_empty(),
                Kind::Map(m) => m.is_empty(),
                _ => true,
            };
            if !empty && !slice.contains(['\n', '\r', '#', '&', '*', '!']) {
                self.push_inline(start, slice, node);
            }
        }
    }

    /// The styles of the text: these spellings, and the gaps the scanner noted.
    pub(super) fn finish(self, runs: &[(usize, usize)]) -> Styles {
        let trivia = self
            .across_markers(runs)
            .into_iter()
            .filter_map(|r| self.trivia(r))
            .collect();
        Styles {
            source: self.source,
            len: u32::try_from(self.end).unwrap_or(u32::MAX),
            spellings: self.spellings,
            trivia,
            seq_indent: self.seq_indent,
        }
    }

    /// A document's comments are often written above its `---`: the comment lines directly
    /// above a bare `---` line (each starting at column 0, no blank line between) are joined
    /// with what follows the marker, so they stay with the document's first entry (the marker
    /// itself is the writer's to write). The same lines start the piece a long stream is cut
    /// into (`split.rs`), so the result is the same for any `--jobs`.
    fn across_markers(&self, runs: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let b = self.text.as_bytes();
        let mut out: Vec<(usize, usize)> = Vec::with_capacity(runs.len());
        let mut i = 0;
        while i < runs.len() {
            let (from, to) = runs[i];
            i += 1;
            let rest = &self.text[to.min(self.text.len())..];
            let line_end = rest.find('\n').map_or(rest.len(), |k| k + 1);
            let bare = rest.starts_with("---") && rest[3..line_end].trim().is_empty();
            if !bare || self.line_start(to) != to {
                out.push((from, to));
                continue;
            }
            let block = comments_above(self.text, to).max(from);
            if from < block {
                out.push((from, block));
            }
            // The first token after the marker line.
            let mut next = to + line_end;
            while next < b.len() && matches!(b[next], b' ' | b'\n' | b'\r') {
                next += 1;
            }
            match runs.get(i) {
                // The comments after the marker: one run from the block to after them.
                Some(&(f2, t2)) if f2 == to + 3 => {
                    out.push((block, t2));
                    i += 1;
                }
                _ if next < b.len() && b[next] != b'#' => out.push((block, next)),
                _ => out.push((block, to)),
            }
        }
        out
    }

    fn trivia(&self, (from, to): (usize, usize)) -> Option<Trivia> {
        if odd_breaks(self.text.get(from..to)?) {
            return None;
        }
        let from_line = self.line_start(from);
        // Whole lines start at `from`'s line when only indentation stands before it.
        let mid_line = self.text[from_line..from].bytes().any(|b| b != b' ');
        let start = if mid_line { from } else { from_line };
        let mut pieces = self.text[start..to]
            .split('\n')
            .map(|l| l.trim_end_matches('\r'));
        let mut trailing = None;
        if mid_line {
            // The rest of the line the token before ends.
            let rest = pieces.next().unwrap_or("");
            if rest.trim_start().starts_with('#') {
                trailing = Some(spaced::<Box<str>>(rest.trim_end()));
            }
        }
        // The whole lines: every piece but the last (the next token's indentation).
        let mut lines = Vec::new();
        let mut pieces = pieces.peekable();
        while let Some(line) = pieces.next() {
            if pieces.peek().is_none() && to != self.end {
                break;
            }
            let body = line.trim_start_matches(' ');
            if body.starts_with('#') {
                let col = line[..line.len() - body.len()].chars().count();
                lines.push(Some((col as u32, body.trim_end().into())));
            } else if body.trim_end().is_empty() {
                lines.push(None);
            }
            // Else a `---` line joined by `across_markers`: not written.
        }
        if self.end == to && lines.last() == Some(&None) {
            // The text's final line break.
            lines.pop();
        }
        let to_line = self.line_start(to);
        let to_line_end = self.text[to..]
            .find(['\n', '\r'])
            .map_or(self.text.len(), |i| to + i);
        Some(Trivia {
            from: self.abs(from),
            from_line: self.abs(from_line),
            trailing,
            to: self.abs(to),
            to_line_end: self.abs(to_line_end),
            to_col: self.text[to_line..to].chars().count() as u32,
            lines,
            at_end: to == self.end,
        })
    }
}

/// Whether a reader of the output reads the plain `text` as `node`: under `version`'s rules,
/// and under the other version's too where the writer promises every reader the same value —
/// for a string always (the writer quotes `1e3`, a float to YAML 1.2, and `yes`), and for any
/// value under `--yaml 1.2` (whose output a YAML 1.1 reader reads the same: `0755`, `yes` and
/// `2024-01-02` are written afresh there). Under YAML 1.1, `no`, `0755` and `~` keep their
/// spelling: that is what they mean to the systems strata renders for.
fn reads_as(text: &str, node: &Node, version: YamlVersion) -> bool {
    let under = |v| Node::new(resolve_plain(text, v), node.span) == *node;
    if !under(version) {
        return false;
    }
    let (both, other) = match version {
        YamlVersion::V1_1 => (matches!(node.kind, Kind::Str(_)), YamlVersion::V1_2),
        YamlVersion::V1_2 => (true, YamlVersion::V1_1),
    };
    !both || under(other)
}

/// Whether the writer writes this plain scalar's value as it is spelled (`ascii`: the slice is
/// all ASCII; a one-line plain scalar's value is its slice).
fn canonical_plain(slice: &str, kind: &Kind, ascii: bool) -> bool {
    match kind {
        // A plain scalar read as a string: the writer writes it as it is unless it starts
        // with an indicator it may start with when plain, is a word another reader types
        // (`1e3` in YAML 1.2), or holds characters only `plain_ok`'s full check knows.
        Kind::Str(s) => {
            !matches!(
                s.as_bytes().first(),
                Some(b'-' | b'?' | b':' | b'.' | b'=' | b'<')
            ) && !is_ambiguous(s)
                && (ascii || plain_ok(s))
        }
        Kind::Int(_) => {
            let digits = slice.strip_prefix('-').unwrap_or(slice);
            !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" && slice == "0" || !digits.starts_with('0'))
        }
        Kind::Bool(b) => slice == if *b { "true" } else { "false" },
        Kind::Null => slice == "null",
        Kind::Float(f) => float_is(*f, slice),
        Kind::BigInt(s) => slice == &**s,
        Kind::Timestamp(s) => slice == &**s && is_timestamp(s),
        _ => true,
    }
}

/// Whether `float_text(f)` is `slice`, formatting into a stack buffer for the common case.
fn float_is(f: f64, slice: &str) -> bool {
    use std::io::Write as _;
    let mut buf = [0u8; 40];
    let mut cur = std::io::Cursor::new(&mut buf[..]);
    if !f.is_finite() || write!(cur, "{f:?}").is_err() {
        return slice == float_text(f);
    }
    let n = cur.position() as usize;
    let text = &buf[..n];
    if text.contains(&b'e') {
        return slice == float_text(f);
    }
    text == slice.as_bytes()
}

/// Line breaks other than `\n` and `\r\n` (NEL, LS, PS, a lone CR): text holding them is
/// left to the writer, which escapes them.
fn odd_breaks(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.iter().any(|&c| c == b'\r' || c >= 0xc2) {
        return false;
    }
    s.contains(['\u{85}', '\u{2028}', '\u{2029}'])
        || b.iter()
            .enumerate()
            .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'))
}

/// Where the comment lines directly above the line at `line` start: lines starting with `#`
/// at column 0, none blank (`line` itself when there are none).
pub(super) fn comments_above(text: &str, line: usize) -> usize {
    let mut at = line;
    while at > 0 {
        let before = &text[..at - 1];
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        if !text[start..].starts_with('#') {
            break;
        }
        at = start;
    }
    at
}

/// A comment after a token, with a space before its `#` (PyYAML also reads `[a]#note` as a
/// comment; written after `key:` it would not be one).
fn spaced<T: for<'s> From<&'s str>>(comment: &str) -> T {
    if comment.starts_with([' ', '\t']) {
        T::from(comment)
    } else {
        T::from(&*format!(" {comment}"))
    }
}

/// A block scalar's line without the block's indentation (a line with less is blank).
/// The lines of a block scalar's body as written (after its header line), without the line
/// break ending the last.
fn raw_lines(rest: &str) -> impl Iterator<Item = &str> {
    let body = (!rest.is_empty()).then(|| rest.strip_suffix('\n').unwrap_or(rest));
    body.into_iter()
        .flat_map(|b| b.split('\n'))
        .map(|l| l.trim_end_matches('\r'))
}

/// Whether a block's lines after its header (`raw_lines`), without their first `indent`
/// columns (`block_body`), are `literal_lines(value)`: in one pass over both texts (a block's
/// lines hold no line break, so the lines are equal when the lines joined are).
fn lines_are(rest: &str, indent: usize, value: &str) -> bool {
    if rest.is_empty() {
        return false;
    }
    let body = rest.strip_suffix('\n').unwrap_or(rest).as_bytes();
    let want = value.strip_suffix('\n').unwrap_or(value).as_bytes();
    let (mut at, mut start) = (0, 0);
    loop {
        let end = memchr::memchr(b'\n', &body[start..]).map_or(body.len(), |i| start + i);
        let mut line = &body[start..end];
        while let [before @ .., b'\r'] = line {
            line = before;
        }
        let text = match line.get(indent..) {
            Some(text) if line[..indent].iter().all(|&b| b == b' ') => text,
            _ => &[],
        };
        if want.get(at..at + text.len()) != Some(text) {
            return false;
        }
        at += text.len();
        if end == body.len() {
            return at == want.len();
        }
        if want.get(at) != Some(&b'\n') {
            return false;
        }
        at += 1;
        start = end + 1;
    }
}

fn block_body(line: &str, indent: usize) -> &str {
    match line.get(indent..) {
        Some(body) if line.as_bytes()[..indent].iter().all(|&b| b == b' ') => body,
        _ => "",
    }
}
