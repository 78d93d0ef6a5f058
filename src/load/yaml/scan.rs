//! The scanner's readers of token bodies, as PyYAML reads them: plain scalars (folded across
//! lines, ended by `: `, ` #`, a less indented line or a document separator; `,?[]{}` end them
//! in flow context), single- and double-quoted scalars (escapes, line folding, no indentation
//! rules, only document separators are refused inside), literal and folded block scalars
//! (indentation indicator, chomping), anchors and aliases, tags (`!`, `!!x`, `!h!x`,
//! `!<uri>`, `%xx` escapes) and directives. A scalar that is one unbroken slice of the text is
//! borrowed, anything folded or unescaped is built.

use super::scanner::{
    is_blankz, is_break, is_breakz, py_repr_char, Directive, Result, Scanner, Style, SyntaxError,
    Tok, Token,
};
use std::borrow::Cow;

/// Bytes that may end a plain scalar or start a line break: blanks, `:`, the flow
/// indicators `,?[]{}`, and the first bytes of NEL, LS and PS.
static PLAIN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b" \t\r\n:,?[]{}";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t[0xc2] = true;
    t[0xe2] = true;
    t
};

/// Whitespace met between two pieces of a plain scalar.
enum Gap {
    /// Nothing.
    None,
    /// Spaces on the same line, kept as written (a byte range).
    Raw(usize, usize),
    /// Line breaks folded into this text.
    Folded(String),
}

impl<'a> Scanner<'a> {
    fn error(&self, context: &'static str, start: usize, problem: String) -> SyntaxError {
        SyntaxError::new(Some((context, start)), problem, self.pos)
    }

    fn found(&self) -> String {
        let c = self.text[self.pos..].chars().next().unwrap_or('\0');
        py_repr_char(c)
    }

    // ------------------------------------------------------------------- directives

    pub(super) fn scan_directive(&mut self) -> Result<Token<'a>> {
        const CX: &str = "while scanning a directive";
        let start = self.pos;
        self.forward_bytes(1);
        let name = self.scan_name(CX, start)?;
        if !is_blankz(self.b, self.pos) || self.peek() == b'\t' {
            let found = self.found();
            return Err(self.error(
                CX,
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        let directive = match name {
            "YAML" => {
                self.skip_spaces();
                let major = self.scan_version_number(start)?;
                if self.peek() != b'.' {
                    let found = self.found();
                    return Err(self.error(
                        CX,
                        start,
                        format!("expected a digit or '.', but found {found}"),
                    ));
                }
                self.forward_bytes(1);
                self.scan_version_number(start)?;
                if !is_blankz(self.b, self.pos) || self.peek() == b'\t' {
                    let found = self.found();
                    return Err(self.error(
                        CX,
                        start,
                        format!("expected a digit or ' ', but found {found}"),
                    ));
                }
                Directive::Yaml(major)
            }
            "TAG" => {
                self.skip_spaces();
                let handle = self.scan_tag_handle("directive", start)?;
                if self.peek() != b' ' {
                    let found = self.found();
                    return Err(self.error(CX, start, format!("expected ' ', but found {found}")));
                }
                self.skip_spaces();
                let prefix = self.scan_tag_uri("directive", start)?;
                if !is_blankz(self.b, self.pos) || self.peek() == b'\t' {
                    let found = self.found();
                    return Err(self.error(CX, start, format!("expected ' ', but found {found}")));
                }
                Directive::Tag(handle, prefix)
            }
            _ => {
                let mut p = self.pos;
                while !is_breakz(self.b, p) {
                    p += 1;
                }
                self.forward_bytes(p - self.pos);
                Directive::Other
            }
        };
        let end = self.pos;
        // The rest of the line: spaces and a comment only.
        self.skip_spaces();
        if self.peek() == b'#' {
            self.skip_comment();
        }
        if !is_breakz(self.b, self.pos) {
            let found = self.found();
            return Err(self.error(
                CX,
                start,
                format!("expected a comment or a line break, but found {found}"),
            ));
        }
        self.scan_line_break();
        Ok(Token {
            tok: Tok::Directive(directive),
            start,
            end,
        })
    }

    fn skip_comment(&mut self) {
        let start = self.pos;
        let mut p = self.pos;
        while !is_breakz(self.b, p) {
            p += 1;
        }
        self.forward_bytes(p - self.pos);
        self.comments.push((start, self.pos));
    }

    /// `[0-9A-Za-z_-]+` (directive names, anchors).
    fn scan_name(&mut self, context: &'static str, start: usize) -> Result<&'a str> {
        let from = self.pos;
        let mut p = self.pos;
        while matches!(self.b.get(p), Some(c) if c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
        {
            p += 1;
        }
        if p == from {
            let found = self.found();
            return Err(self.error(
                context,
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        self.forward_bytes(p - from);
        Ok(&self.text[from..p])
    }

    fn scan_version_number(&mut self, start: usize) -> Result<u64> {
        if !self.peek().is_ascii_digit() {
            let found = self.found();
            return Err(self.error(
                "while scanning a directive",
                start,
                format!("expected a digit, but found {found}"),
            ));
        }
        let mut value: u64 = 0;
        while self.peek().is_ascii_digit() {
            value = value
                .saturating_mul(10)
                .saturating_add(u64::from(self.peek() - b'0'));
            self.forward_bytes(1);
        }
        Ok(value)
    }

    // ------------------------------------------------------------- anchors and tags

    pub(super) fn scan_anchor(&mut self, alias: bool) -> Result<Token<'a>> {
        let context = if alias {
            "while scanning an alias"
        } else {
            "while scanning an anchor"
        };
        let start = self.pos;
        self.forward_bytes(1);
        let name = self.scan_name(context, start)?;
        let next = self.peek();
        if !(is_blankz(self.b, self.pos)
            || matches!(next, b'?' | b':' | b',' | b']' | b'}' | b'%' | b'@' | b'`'))
        {
            let found = self.found();
            return Err(self.error(
                context,
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        let tok = if alias {
            Tok::Alias(name)
        } else {
            Tok::Anchor(name)
        };
        Ok(Token {
            tok,
            start,
            end: self.pos,
        })
    }

    pub(super) fn scan_tag(&mut self) -> Result<Token<'a>> {
        const CX: &str = "while scanning a tag";
        let start = self.pos;
        let next = self.at(1);
        let (handle, suffix) = if next == b'<' {
            self.forward_bytes(2);
            let suffix = self.scan_tag_uri("tag", start)?;
            if self.peek() != b'>' {
                let found = self.found();
                return Err(SyntaxError::new(
                    Some(("while parsing a tag", start)),
                    format!("expected '>', but found {found}"),
                    self.pos,
                ));
            }
            self.forward_bytes(1);
            (None, suffix)
        } else if is_blankz(self.b, self.pos + 1) {
            self.forward_bytes(1);
            (None, Cow::Borrowed("!"))
        } else {
            // A second '!' before the next blank means a named handle.
            let mut p = self.pos + 1;
            let mut use_handle = false;
            while !is_blankz(self.b, p) || self.b.get(p) == Some(&b'\t') {
                if self.b[p] == b'!' {
                    use_handle = true;
                    break;
                }
                p += 1;
            }
            let handle = if use_handle {
                self.scan_tag_handle("tag", start)?
            } else {
                self.forward_bytes(1);
                "!"
            };
            (Some(handle), self.scan_tag_uri("tag", start)?)
        };
        let libyaml_comma = self.libyaml && self.flow_level > 0 && self.peek() == b',';
        if (!is_blankz(self.b, self.pos) || self.peek() == b'\t') && !libyaml_comma {
            let found = self.found();
            return Err(self.error(CX, start, format!("expected ' ', but found {found}")));
        }
        Ok(Token {
            tok: Tok::Tag { handle, suffix },
            start,
            end: self.pos,
        })
    }

    /// `!`, `!!` or `!name!`.
    pub(super) fn scan_tag_handle(&mut self, name: &'static str, start: usize) -> Result<&'a str> {
        let context = if name == "tag" {
            "while scanning a tag"
        } else {
            "while scanning a directive"
        };
        if self.peek() != b'!' {
            let found = self.found();
            return Err(self.error(context, start, format!("expected '!', but found {found}")));
        }
        let from = self.pos;
        let mut p = self.pos + 1;
        if self.b.get(p) != Some(&b' ') {
            while matches!(self.b.get(p), Some(c) if c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
            {
                p += 1;
            }
            if self.b.get(p) != Some(&b'!') {
                self.forward_bytes(p - from);
                let found = self.found();
                return Err(self.error(context, start, format!("expected '!', but found {found}")));
            }
            p += 1;
        }
        self.forward_bytes(p - from);
        Ok(&self.text[from..p])
    }

    /// The URI characters PyYAML accepts in a tag, with `%xx` escapes decoded (as UTF-8).
    pub(super) fn scan_tag_uri(
        &mut self,
        name: &'static str,
        start: usize,
    ) -> Result<Cow<'a, str>> {
        let context = if name == "tag" {
            "while parsing a tag"
        } else {
            "while parsing a directive"
        };
        // libyaml keeps `,`, `[` and `]` out of a tag that is not verbatim (`!<...>`).
        let verbatim = self.pos >= 2 && self.b.get(self.pos - 2..self.pos) == Some(b"!<");
        let flow_chars = !self.libyaml || name != "tag" || verbatim;
        let uri_char = |c: u8| {
            c.is_ascii_alphanumeric()
                || b"-;/?:@&=+$_.!~*'()%".contains(&c)
                || (flow_chars && b",[]".contains(&c))
        };
        let from = self.pos;
        let mut owned: Option<String> = None;
        let mut run = self.pos;
        while uri_char(self.peek()) {
            if self.peek() == b'%' {
                let text = owned.get_or_insert_with(String::new);
                text.push_str(&self.text[run..self.pos]);
                let decoded = self.scan_uri_escapes(name, start)?;
                owned.get_or_insert_with(String::new).push_str(&decoded);
                run = self.pos;
            } else {
                self.forward_bytes(1);
            }
        }
        if self.pos == from {
            let found = self.found();
            return Err(self.error(context, start, format!("expected URI, but found {found}")));
        }
        Ok(match owned {
            None => Cow::Borrowed(&self.text[from..self.pos]),
            Some(mut text) => {
                text.push_str(&self.text[run..self.pos]);
                Cow::Owned(text)
            }
        })
    }

    fn scan_uri_escapes(&mut self, name: &'static str, start: usize) -> Result<String> {
        let context = if name == "tag" {
            "while scanning a tag"
        } else {
            "while scanning a directive"
        };
        let mark = self.pos;
        let mut bytes = Vec::new();
        while self.peek() == b'%' {
            self.forward_bytes(1);
            for k in 0..2 {
                if !self.at(k).is_ascii_hexdigit() {
                    let c = self.text[self.pos + k..].chars().next().unwrap_or('\0');
                    return Err(SyntaxError::new(
                        Some((context, start)),
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            py_repr_char(c)
                        ),
                        self.pos,
                    ));
                }
            }
            let hex = &self.text[self.pos..self.pos + 2];
            bytes.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            self.forward_bytes(2);
        }
        String::from_utf8(bytes).map_err(|_| {
            SyntaxError::new(
                Some((context, start)),
                "'utf-8' codec can't decode the %-escaped bytes",
                mark,
            )
        })
    }

    // ---------------------------------------------------------------- block scalars

    pub(super) fn scan_block_scalar(&mut self, style: Style) -> Result<Token<'a>> {
        const CX: &str = "while scanning a block scalar";
        let folded = style == Style::Folded;
        let start = self.pos;
        self.forward_bytes(1);
        // Header: chomping and indentation indicators in either order.
        let mut chomping: Option<bool> = None;
        let mut increment: Option<usize> = None;
        let chomp = |c: u8| match c {
            b'+' => Some(true),
            b'-' => Some(false),
            _ => None,
        };
        let zero = |s: &Self| {
            s.error(
                CX,
                start,
                "expected indentation indicator in the range 1-9, but found 0".into(),
            )
        };
        if let Some(c) = chomp(self.peek()) {
            chomping = Some(c);
            self.forward_bytes(1);
            if self.peek().is_ascii_digit() {
                if self.peek() == b'0' {
                    return Err(zero(self));
                }
                increment = Some(usize::from(self.peek() - b'0'));
                self.forward_bytes(1);
            }
        } else if self.peek().is_ascii_digit() {
            if self.peek() == b'0' {
                return Err(zero(self));
            }
            increment = Some(usize::from(self.peek() - b'0'));
            self.forward_bytes(1);
            if let Some(c) = chomp(self.peek()) {
                chomping = Some(c);
                self.forward_bytes(1);
            }
        }
        if !is_blankz(self.b, self.pos) || self.peek() == b'\t' {
            let found = self.found();
            return Err(self.error(
                CX,
                start,
                format!("expected chomping or indentation indicators, but found {found}"),
            ));
        }
        // The rest of the header line.
        self.skip_spaces();
        if self.peek() == b'#' {
            self.skip_comment();
        }
        if !is_breakz(self.b, self.pos) {
            let found = self.found();
            return Err(self.error(
                CX,
                start,
                format!("expected a comment or a line break, but found {found}"),
            ));
        }
        self.scan_line_break();

        let min_indent = (self.indent + 1).max(1) as usize;
        let (mut breaks, mut end, indent) = match increment {
            None => {
                let (breaks, max_indent, end) = self.block_indentation();
                (breaks, end, min_indent.max(max_indent))
            }
            Some(inc) => {
                let indent = min_indent + inc - 1;
                let (breaks, end) = self.block_breaks(indent);
                (breaks, end, indent)
            }
        };
        let mut out = String::new();
        let mut line_break = "";
        while self.column == indent && self.pos < self.b.len() {
            out.push_str(&breaks);
            let leading_non_space = !matches!(self.peek(), b' ' | b'\t');
            let from = self.pos;
            let mut p = self.pos;
            while !is_breakz(self.b, p) {
                p += 1;
            }
            out.push_str(&self.text[from..p]);
            self.forward_bytes(p - from);
            line_break = self.scan_line_break();
            let (b, e) = self.block_breaks(indent);
            breaks = b;
            end = e;
            if self.column == indent && self.pos < self.b.len() {
                if folded
                    && line_break == "\n"
                    && leading_non_space
                    && !matches!(self.peek(), b' ' | b'\t')
                {
                    if breaks.is_empty() {
                        out.push(' ');
                    }
                } else {
                    out.push_str(line_break);
                }
            } else {
                break;
            }
        }
        if chomping != Some(false) {
            out.push_str(line_break);
        }
        if chomping == Some(true) {
            out.push_str(&breaks);
        }
        Ok(Token {
            tok: Tok::Scalar {
                value: Cow::Owned(out),
                style,
            },
            start,
            end,
        })
    }

    /// Leading empty lines of a block scalar and the deepest indentation among them.
    fn block_indentation(&mut self) -> (String, usize, usize) {
        let mut breaks = String::new();
        let mut max_indent = 0;
        let mut end = self.pos;
        while self.peek() == b' ' || is_break(self.b, self.pos) {
            if self.peek() == b' ' {
                self.forward_bytes(1);
                max_indent = max_indent.max(self.column);
            } else {
                breaks.push_str(self.scan_line_break());
                end = self.pos;
            }
        }
        (breaks, max_indent, end)
    }

    /// Moves over spaces up to column `indent`.
    fn skip_spaces_to(&mut self, indent: usize) {
        let want = indent.saturating_sub(self.column);
        let run = self.b[self.pos..]
            .iter()
            .take(want)
            .take_while(|&&c| c == b' ')
            .count();
        self.pos += run;
        self.column += run;
        self.index += run;
    }

    /// Empty lines inside a block scalar, each indented at most to `indent`.
    fn block_breaks(&mut self, indent: usize) -> (String, usize) {
        let mut breaks = String::new();
        let mut end = self.pos;
        self.skip_spaces_to(indent);
        while is_break(self.b, self.pos) {
            breaks.push_str(self.scan_line_break());
            end = self.pos;
            self.skip_spaces_to(indent);
        }
        (breaks, end)
    }

    // --------------------------------------------------------------- quoted scalars

    pub(super) fn scan_flow_scalar(&mut self, style: Style) -> Result<Token<'a>> {
        let double = style == Style::Double;
        let quote = if double { b'"' } else { b'\'' };
        let start = self.pos;
        // One line without escapes: the text itself.
        let mut p = self.pos + 1;
        while let Some(&c) = self.b.get(p) {
            if c == quote || (double && c == b'\\') || is_break(self.b, p) {
                break;
            }
            p += 1;
        }
        if self.b.get(p) == Some(&quote) && (double || self.b.get(p + 1) != Some(&b'\'')) {
            let value = &self.text[start + 1..p];
            self.forward_bytes(p + 1 - start);
            return Ok(Token {
                tok: Tok::Scalar {
                    value: Cow::Borrowed(value),
                    style,
                },
                start,
                end: self.pos,
            });
        }
        self.forward_bytes(1);
        let mut out = String::new();
        self.quoted_non_spaces(double, start, &mut out)?;
        while self.peek() != quote {
            self.quoted_spaces(double, start, &mut out)?;
            self.quoted_non_spaces(double, start, &mut out)?;
        }
        self.forward_bytes(1);
        Ok(Token {
            tok: Tok::Scalar {
                value: Cow::Owned(out),
                style,
            },
            start,
            end: self.pos,
        })
    }

    fn quoted_non_spaces(&mut self, double: bool, start: usize, out: &mut String) -> Result<()> {
        const CX: &str = "while scanning a double-quoted scalar";
        loop {
            let from = self.pos;
            let mut p = self.pos;
            while !(is_blankz(self.b, p) || matches!(self.b[p], b'\'' | b'"' | b'\\')) {
                p += 1;
            }
            if p > from {
                out.push_str(&self.text[from..p]);
                self.forward_bytes(p - from);
            }
            let ch = self.peek();
            if !double && ch == b'\'' && self.at(1) == b'\'' {
                out.push('\'');
                self.forward_bytes(2);
            } else if (double && ch == b'\'') || (!double && (ch == b'"' || ch == b'\\')) {
                out.push(ch as char);
                self.forward_bytes(1);
            } else if double && ch == b'\\' {
                self.forward_bytes(1);
                let e = self.peek();
                let simple = match e {
                    b'0' => Some('\0'),
                    b'a' => Some('\x07'),
                    b'b' => Some('\x08'),
                    b't' | b'\t' => Some('\t'),
                    b'n' => Some('\n'),
                    b'v' => Some('\x0b'),
                    b'f' => Some('\x0c'),
                    b'r' => Some('\r'),
                    b'e' => Some('\x1b'),
                    b' ' => Some(' '),
                    b'"' => Some('"'),
                    b'\\' => Some('\\'),
                    b'/' => Some('/'),
                    b'N' => Some('\u{85}'),
                    b'_' => Some('\u{a0}'),
                    b'L' => Some('\u{2028}'),
                    b'P' => Some('\u{2029}'),
                    _ => None,
                };
                if let Some(c) = simple {
                    out.push(c);
                    self.forward_bytes(1);
                } else if let Some(len) = match e {
                    b'x' => Some(2),
                    b'u' => Some(4),
                    b'U' => Some(8),
                    _ => None,
                } {
                    self.forward_bytes(1);
                    for k in 0..len {
                        if !self.at(k).is_ascii_hexdigit() {
                            let c = self.text[self.pos + k..].chars().next().unwrap_or('\0');
                            return Err(self.error(
                                CX,
                                start,
                                format!(
                                    "expected escape sequence of {len} hexadecimal numbers, but found {}",
                                    py_repr_char(c)
                                ),
                            ));
                        }
                    }
                    let code = u32::from_str_radix(&self.text[self.pos..self.pos + len], 16)
                        .unwrap_or(u32::MAX);
                    let Some(c) = char::from_u32(code) else {
                        return Err(self.error(
                            CX,
                            start,
                            format!(
                                "the escape \\{}{} is not a character strata can hold (a surrogate or past U+10FFFF)",
                                e as char,
                                &self.text[self.pos..self.pos + len]
                            ),
                        ));
                    };
                    out.push(c);
                    self.forward_bytes(len);
                } else if is_break(self.b, self.pos) {
                    self.scan_line_break();
                    self.quoted_breaks(double, start, out)?;
                } else {
                    let c = self.text[self.pos..].chars().next().unwrap_or('\0');
                    return Err(self.error(
                        CX,
                        start,
                        format!("found unknown escape character {}", py_repr_char(c)),
                    ));
                }
            } else {
                return Ok(());
            }
        }
    }

    fn quoted_spaces(&mut self, double: bool, start: usize, out: &mut String) -> Result<()> {
        let from = self.pos;
        while matches!(self.peek(), b' ' | b'\t') {
            self.forward_bytes(1);
        }
        let spaces = from..self.pos;
        if self.pos >= self.b.len() {
            return Err(self.error(
                "while scanning a quoted scalar",
                start,
                "found unexpected end of stream".into(),
            ));
        }
        if is_break(self.b, self.pos) {
            let line_break = self.scan_line_break();
            let mut breaks = String::new();
            self.quoted_breaks(double, start, &mut breaks)?;
            if line_break != "\n" {
                out.push_str(line_break);
            } else if breaks.is_empty() {
                out.push(' ');
            }
            out.push_str(&breaks);
        } else {
            out.push_str(&self.text[spaces]);
        }
        Ok(())
    }

    /// Line breaks inside a quoted scalar (leading blanks of each line dropped); a document
    /// separator at the start of a line is an error.
    fn quoted_breaks(&mut self, _double: bool, start: usize, out: &mut String) -> Result<()> {
        loop {
            if self.at_document_separator() {
                return Err(self.error(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected document separator".into(),
                ));
            }
            while matches!(self.peek(), b' ' | b'\t') {
                self.forward_bytes(1);
            }
            if is_break(self.b, self.pos) {
                out.push_str(self.scan_line_break());
            } else {
                return Ok(());
            }
        }
    }

    // ---------------------------------------------------------------- plain scalars

    pub(super) fn scan_plain(&mut self) -> Result<Token<'a>> {
        let flow = self.flow_level > 0;
        let start = self.pos;
        let mut end = start;
        let indent = self.indent + 1;
        // `None` while the value is exactly the text from `start` to `end`.
        let mut owned: Option<String> = None;
        let mut gap = Gap::None;
        loop {
            if self.peek() == b'#' {
                break;
            }
            let from = self.pos;
            let mut p = self.pos;
            loop {
                // Most bytes are none of the few that can end a plain scalar.
                while self.b.get(p).is_some_and(|&c| !PLAIN_STOP[usize::from(c)]) {
                    p += 1;
                }
                if is_blankz(self.b, p) {
                    break;
                }
                let c = self.b[p];
                if c == b':'
                    && (is_blankz(self.b, p + 1)
                        || (flow
                            && matches!(self.b.get(p + 1), Some(b',' | b'[' | b']' | b'{' | b'}'))))
                {
                    break;
                }
                if flow && matches!(c, b',' | b'?' | b'[' | b']' | b'{' | b'}') {
                    break;
                }
                // Continuation bytes never equal an indicator or a line break's first byte.
                p += 1;
            }
            if p == from {
                break;
            }
            self.allow_simple_key = false;
            match (&mut owned, std::mem::replace(&mut gap, Gap::None)) {
                (None, Gap::None) if from == end || end == start => {}
                (None, Gap::Raw(s, e)) if s == end && e == from => {}
                (slot, g) => {
                    let text = slot.get_or_insert_with(|| self.text[start..end].to_string());
                    match g {
                        Gap::None => {}
                        Gap::Raw(s, e) => text.push_str(&self.text[s..e]),
                        Gap::Folded(f) => text.push_str(&f),
                    }
                    text.push_str(&self.text[from..p]);
                }
            }
            self.forward_bytes(p - from);
            end = self.pos;
            match self.plain_spaces()? {
                None => break,
                Some(Gap::None) => break,
                Some(g) => gap = g,
            }
            if self.peek() == b'#' || (!flow && (self.column as isize) < indent) {
                break;
            }
        }
        let value = match owned {
            None => Cow::Borrowed(&self.text[start..end]),
            Some(text) => Cow::Owned(text),
        };
        Ok(Token {
            tok: Tok::Scalar {
                value,
                style: Style::Plain,
            },
            start,
            end,
        })
    }

    /// Spaces after a piece of a plain scalar: same-line spaces are kept, line breaks fold.
    /// `None` when a document separator follows a line break (the scalar ends there).
    fn plain_spaces(&mut self) -> Result<Option<Gap>> {
        let from = self.pos;
        self.skip_spaces();
        let spaces = (from, self.pos);
        if is_break(self.b, self.pos) {
            let line_break = self.scan_line_break();
            self.allow_simple_key = true;
            if self.at_document_separator() {
                return Ok(None);
            }
            let mut breaks = String::new();
            while self.peek() == b' ' || is_break(self.b, self.pos) {
                if self.peek() == b' ' {
                    self.skip_spaces();
                } else {
                    breaks.push_str(self.scan_line_break());
                    if self.at_document_separator() {
                        return Ok(None);
                    }
                }
            }
            let mut folded = String::new();
            if line_break != "\n" {
                folded.push_str(line_break);
            } else if breaks.is_empty() {
                folded.push(' ');
            }
            folded.push_str(&breaks);
            Ok(Some(Gap::Folded(folded)))
        } else if spaces.1 > spaces.0 {
            Ok(Some(Gap::Raw(spaces.0, spaces.1)))
        } else {
            Ok(Some(Gap::None))
        }
    }
}
