//! jsonpath-ng 1.8's lexer (`jsonpath_ng/lexer.py`, a PLY lexer): `$ . [ ] ( ) * , : | & ~`,
//! `..`, numbers `-?\d+`, identifiers (`[a-zA-Z_@]` or a CJK ideograph / emoticon, then those,
//! digits and `-`; `where` and `wherenot` are keywords), quoted names (`'…'`, `"…"`, `\x` is
//! `x`), back-quoted named operators (`` `this` ``), blanks and tabs ignored, a line break
//! counted. Each token keeps the line, column and offset PLY gives it, so that errors read
//! like jsonpath-ng's. A lexer error is only raised when the parser asks for the token it
//! spoils, as PLY's token generator does.

use super::PathError;

/// An integer token: Python's `int`, kept as text for names and messages and saturated to
/// `i64` for indexing (every list is shorter than either bound).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Num {
    /// The value, clamped to `i64`.
    pub value: i64,
    /// Python's `str(int(...))`: no leading zeros, no `-0`.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum T {
    /// One of the literal characters `* . [ ] ( ) $ , : | & ~`.
    Lit(char),
    DoubleDot,
    Where,
    WhereNot,
    Id(String),
    Num(Num),
    Named(String),
}

#[derive(Clone, Debug)]
pub(super) struct Tok {
    pub t: T,
    pub line: usize,
    pub col: usize,
    /// PLY's `lexpos` (a quoted token's is its closing quote).
    pub pos: usize,
}

impl Tok {
    /// `value (type)` as PLY prints a token in a parse error.
    pub(super) fn describe(&self) -> String {
        match &self.t {
            T::Lit(c) => format!("{c} ({c})"),
            T::DoubleDot => ".. (DOUBLEDOT)".into(),
            T::Where => "where (WHERE)".into(),
            T::WhereNot => "wherenot (WHERENOT)".into(),
            T::Id(s) => format!("{s} (ID)"),
            T::Num(n) => format!("{} (NUMBER)", n.text),
            T::Named(s) => format!("{s} (NAMED_OPERATOR)"),
        }
    }
}

/// The tokens, and the error the lexer raises after the last of them (if any).
pub(super) fn lex(text: &str) -> (Vec<Tok>, Option<PathError>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut line_start) = (1usize, 0usize);
    let mut i = 0;
    let id_start = |c: char| {
        c.is_ascii_alphabetic()
            || c == '_'
            || c == '@'
            || ('\u{4E00}'..='\u{9FA5}').contains(&c)
            || ('\u{1F600}'..='\u{1F64F}').contains(&c)
    };
    let id_char = |c: char| id_start(c) || c.is_ascii_digit() || c == '-';
    let error = |line: usize, col: usize, what: &str, c: char| {
        PathError::parse(
            "JsonPathLexerError",
            format!("Error on line {line}, col {col}{what}: Unexpected character: {c} "),
        )
    };
    while let Some(&c) = chars.get(i) {
        let start = i;
        let tok = |t: T, pos: usize| Tok {
            t,
            line,
            col: pos - line_start,
            pos,
        };
        match c {
            ' ' | '\t' => i += 1,
            '\n' => {
                line += 1;
                line_start = i;
                i += 1;
            }
            c if id_start(c) => {
                while chars.get(i).is_some_and(|&d| id_char(d)) {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                let t = match s.as_str() {
                    "where" => T::Where,
                    "wherenot" => T::WhereNot,
                    _ => T::Id(s),
                };
                out.push(tok(t, start));
            }
            c if c == '-' && chars.get(i + 1).is_some_and(|d| d.is_numeric()) || c.is_numeric() => {
                if c == '-' {
                    i += 1;
                }
                while chars.get(i).is_some_and(|d| d.is_numeric()) {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                if !digits
                    .trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                {
                    return (
                        out,
                        Some(PathError::unsupported(format!(
                            "the path has the number '{digits}' written with digits other than 0-9, which strata does not read"
                        ))),
                    );
                }
                out.push(tok(T::Num(number(&digits)), start));
            }
            '\'' | '"' | '`' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => {
                            return (
                                out,
                                Some(PathError::parse(
                                    "JsonPathLexerError",
                                    "Unexpected EOF in string literal or identifier".into(),
                                )),
                            )
                        }
                        Some('\\') => match chars.get(i + 1) {
                            Some(&n) if n != '\n' => {
                                s.push(n);
                                i += 2;
                            }
                            _ => {
                                let what = match quote {
                                    '\'' => " while lexing singlequoted field",
                                    '"' => " while lexing doublequoted field",
                                    _ => " while lexing backquoted operator",
                                };
                                return (out, Some(error(line, i - line_start, what, '\\')));
                            }
                        },
                        Some(&q) if q == quote => break,
                        Some(&o) => {
                            s.push(o);
                            i += 1;
                        }
                    }
                }
                let t = if quote == '`' { T::Named(s) } else { T::Id(s) };
                out.push(tok(t, i));
                i += 1;
            }
            '.' if chars.get(i + 1) == Some(&'.') => {
                out.push(tok(T::DoubleDot, start));
                i += 2;
            }
            '*' | '.' | '[' | ']' | '(' | ')' | '$' | ',' | ':' | '|' | '&' | '~' => {
                out.push(tok(T::Lit(c), start));
                i += 1;
            }
            other => return (out, Some(error(line, i - line_start, "", other))),
        }
    }
    (out, None)
}

/// Python's `int()` of `-?\d+`, as text and saturated.
fn number(digits: &str) -> Num {
    let (neg, body) = match digits.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, digits),
    };
    let body = body.trim_start_matches('0');
    let text = match (neg, body.is_empty()) {
        (_, true) => "0".to_string(),
        (true, false) => format!("-{body}"),
        (false, false) => body.to_string(),
    };
    let value = text
        .parse::<i64>()
        .unwrap_or(if neg { i64::MIN } else { i64::MAX });
    Num { value, text }
}
