//! Strict JSON (RFC 8259) → `Node` with byte spans. Numbers follow JSON, not YAML: `1e3` is a
//! float here. Depth is bounded by `LoadOptions::max_depth`.

use super::{check_text, LoadOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Key, Kind, Map, Node, SourceId, Span};

/// Parses one JSON value filling the whole text (surrounding white space allowed).
pub fn load(text: &str, source: SourceId, opts: &LoadOptions) -> Result<Node> {
    check_text(text, source)?;
    let mut p = JsonParser {
        b: text.as_bytes(),
        text,
        i: 0,
        source,
        max_depth: opts.limits.max_depth,
    };
    if p.b.starts_with("\u{feff}".as_bytes()) {
        p.i = 3;
    }
    p.ws();
    let node = p.value(0)?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err(
            "unexpected text after the JSON value",
            "a JSON file holds exactly one value",
        ));
    }
    Ok(node)
}

struct JsonParser<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    source: SourceId,
    max_depth: usize,
}

impl JsonParser<'_> {
    fn err(&self, msg: &str, hint: &str) -> Error {
        let at = self.i.min(self.b.len());
        let msg = if at >= self.b.len() {
            format!("invalid JSON: {msg} (the input ends early)")
        } else {
            format!("invalid JSON: {msg}")
        };
        Error::new(ErrorKind::Parse, msg)
            .at(Span::new(self.source, at, at + 1))
            .hint(hint)
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node> {
        let start = self.i;
        match self.b.get(self.i) {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let s = self.string()?;
                Ok(Node::str(s, Span::new(self.source, start, self.i)))
            }
            Some(b't') => self.word("true", Kind::Bool(true)),
            Some(b'f') => self.word("false", Kind::Bool(false)),
            Some(b'n') => self.word("null", Kind::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.err(
                "expected a value",
                "a JSON value is an object, array, string, number, true, false or null",
            )),
        }
    }

    fn word(&mut self, w: &str, kind: Kind) -> Result<Node> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            let start = self.i;
            self.i += w.len();
            Ok(Node::new(kind, Span::new(self.source, start, self.i)))
        } else {
            Err(self.err(
                "expected a value",
                "JSON literals are lower-case true, false and null",
            ))
        }
    }

    fn number(&mut self) -> Result<Node> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.b.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i - s
        };
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        if digits(self) == 0 || (self.b[int_start] == b'0' && self.i - int_start > 1) {
            self.i = int_start;
            return Err(self.err(
                "invalid number",
                "JSON numbers have no leading zeros and at least one digit",
            ));
        }
        let mut float = false;
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            float = true;
            if digits(self) == 0 {
                return Err(self.err("expected digits after '.'", "write 1.0, not 1."));
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            float = true;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("expected digits in the exponent", "write 1e5 or 1e-5"));
            }
        }
        let text = &self.text[start..self.i];
        let span = Span::new(self.source, start, self.i);
        let kind = if float {
            Kind::Float(text.parse().unwrap_or(f64::NAN))
        } else {
            let neg = text.starts_with('-');
            super::resolve::big_from_radix(neg, text.trim_start_matches('-'), 10)
        };
        Ok(Node::new(kind, span))
    }

    fn string(&mut self) -> Result<String> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let run_start = self.i;
            while let Some(&c) = self.b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[run_start..self.i]);
            match self.b.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self.b.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            let hi = self.hex4()?;
                            let cp = if (0xd800..0xdc00).contains(&hi)
                                && self.b[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                                } else {
                                    0xfffd
                                }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                            continue;
                        }
                        _ => {
                            return Err(self.err(
                                "invalid escape in string",
                                "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                            ))
                        }
                    };
                    self.i += 1;
                    out.push(c);
                }
                Some(_) => {
                    return Err(self.err(
                        "control character in string",
                        "escape control characters (\\n, \\t, \\u0000)",
                    ))
                }
                None => return Err(self.err("unterminated string", "close the string with '\"'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32> {
        let h = self
            .text
            .get(self.i..self.i + 4)
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match h {
            Some(v) => {
                self.i += 4;
                Ok(v)
            }
            None => Err(self.err("invalid \\u escape", "\\u takes four hex digits")),
        }
    }

    fn enter(&self, depth: usize) -> Result<()> {
        if depth >= self.max_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("nesting deeper than {} levels", self.max_depth),
            )
            .at(Span::new(self.source, self.i, self.i + 1))
            .hint("flatten the structure; no real configuration nests this deep"));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Node> {
        self.enter(depth)?;
        let start = self.i;
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(Node::list(items, Span::new(self.source, start, self.i)));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Node::list(items, Span::new(self.source, start, self.i)));
                }
                _ => {
                    return Err(self.err(
                        "expected ',' or ']'",
                        "separate array items with commas; no trailing comma",
                    ))
                }
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node> {
        self.enter(depth)?;
        let start = self.i;
        self.i += 1;
        let mut map = Map::default();
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Node::map(map, Span::new(self.source, start, self.i)));
        }
        loop {
            self.ws();
            if self.b.get(self.i) != Some(&b'"') {
                return Err(self.err(
                    "expected a string key",
                    "JSON object keys are double-quoted strings; no trailing comma",
                ));
            }
            let key_start = self.i;
            let key = self.string()?;
            let key = Node::str(key, Span::new(self.source, key_start, self.i));
            self.ws();
            if self.b.get(self.i) != Some(&b':') {
                return Err(self.err("expected ':' after the key", "write \"key\": value"));
            }
            self.i += 1;
            self.ws();
            let value = self.value(depth + 1)?;
            // Python's json keeps the last duplicate; the key keeps its first position.
            map.insert(Key(key), value);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Node::map(map, Span::new(self.source, start, self.i)));
                }
                _ => {
                    return Err(self.err(
                        "expected ',' or '}'",
                        "separate members with commas; no trailing comma",
                    ))
                }
            }
        }
    }
}
