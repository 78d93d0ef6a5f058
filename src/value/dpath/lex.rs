//! jsonpath-ng's lexer and the bracket forms of its grammar that Deckhand paths use.

use super::{PathError, Step};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Dollar,
    Dot,
    DoubleDot,
    Open,
    Close,
    Star,
    Id(String),
    Num(i64),
    Other(char),
}

/// jsonpath-ng's lexer: `ID` is `[a-zA-Z_@]` (or a CJK ideograph / emoticon) followed by
/// those and digits and `-`; numbers are `-?\d+`; quoted names take `\x` as `x`; blanks and
/// tabs between tokens are ignored.
pub(super) fn lex(text: &str) -> Result<Vec<Tok>, PathError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let id_start = |c: char| {
        c.is_ascii_alphabetic()
            || c == '_'
            || c == '@'
            || ('\u{4E00}'..='\u{9FA5}').contains(&c)
            || ('\u{1F600}'..='\u{1F64F}').contains(&c)
    };
    while let Some(&c) = chars.get(i) {
        match c {
            ' ' | '\t' => i += 1,
            '$' => {
                out.push(Tok::Dollar);
                i += 1
            }
            '.' if chars.get(i + 1) == Some(&'.') => {
                out.push(Tok::DoubleDot);
                i += 2
            }
            '.' => {
                out.push(Tok::Dot);
                i += 1
            }
            '[' => {
                out.push(Tok::Open);
                i += 1
            }
            ']' => {
                out.push(Tok::Close);
                i += 1
            }
            '*' => {
                out.push(Tok::Star);
                i += 1
            }
            '\'' | '"' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => {
                            return Err(PathError(format!(
                                "the path '{text}' has an unterminated quoted name (JsonPathLexerError: Unexpected EOF in string literal or identifier)"
                            )))
                        }
                        Some('\\') => {
                            match chars.get(i + 1) {
                                Some(&n) if n != '\n' => s.push(n),
                                _ => {
                                    return Err(PathError(format!(
                                        "the path '{text}' has a bad escape in a quoted name (JsonPathLexerError)"
                                    )))
                                }
                            }
                            i += 2;
                        }
                        Some(&q) if q == quote => {
                            i += 1;
                            break;
                        }
                        Some(&o) => {
                            s.push(o);
                            i += 1;
                        }
                    }
                }
                out.push(Tok::Id(s));
            }
            c if c == '-' || c.is_ascii_digit() => {
                let start = i;
                if c == '-' {
                    i += 1;
                }
                let digits = i;
                while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                if i == digits {
                    return Err(PathError(format!(
                        "the path '{text}' has an unexpected character '-' (JsonPathLexerError)"
                    )));
                }
                let s: String = chars.get(start..i).map(|c| c.iter().collect()).unwrap_or_default();
                let n = s.parse::<i64>().map_err(|_| {
                    PathError(format!("the path '{text}' has a number too large: {s}"))
                })?;
                out.push(Tok::Num(n));
            }
            c if id_start(c) => {
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|&d| id_start(d) || d.is_ascii_digit() || d == '-')
                {
                    i += 1;
                }
                let s: String = chars.get(start..i).map(|c| c.iter().collect()).unwrap_or_default();
                if s == "where" || s == "wherenot" {
                    out.push(Tok::Other('w'));
                } else {
                    out.push(Tok::Id(s));
                }
            }
            '(' | ')' | ',' | ':' | '|' | '&' | '~' | '`' => {
                out.push(Tok::Other(c));
                i += 1
            }
            other => {
                return Err(PathError(format!(
                    "the path '{text}' has a character jsonpath-ng does not accept: '{other}' (JsonPathLexerError); quote the name: .'{other}'"
                )))
            }
        }
    }
    Ok(out)
}

/// `[` idx `]` / `[` field `]` / `[*]` starting at `tokens[at]`; returns the step and the
/// number of tokens used.
pub(super) fn bracket(tokens: &[Tok], at: usize, text: &str) -> Result<(Step, usize), PathError> {
    let inner = tokens.get(at + 1);
    let close = tokens.get(at + 2);
    let step = match (inner, close) {
        (Some(Tok::Num(n)), Some(Tok::Close)) => Step::Index(*n),
        (Some(Tok::Star), Some(Tok::Close)) => Step::All,
        (Some(Tok::Id(s)), Some(Tok::Close)) => Step::Field(s.clone()),
        (None, _) | (Some(_), None) => {
            return Err(PathError(format!(
                "the path '{text}' is incomplete (jsonpath-ng: Parse error near the end of string)"
            )))
        }
        _ => {
            return Err(PathError(format!(
                "the path '{text}' uses a bracket form strata does not support (only [n], [*] and ['name'])"
            )))
        }
    };
    Ok((step, 3))
}

pub(super) fn parse_error(text: &str, tok: &Tok) -> PathError {
    let what = match tok {
        Tok::Dollar => "$".to_string(),
        Tok::Dot => ".".into(),
        Tok::DoubleDot => "..".into(),
        Tok::Open => "[".into(),
        Tok::Close => "]".into(),
        Tok::Star => "*".into(),
        Tok::Id(s) => s.clone(),
        Tok::Num(n) => n.to_string(),
        Tok::Other(c) => c.to_string(),
    };
    PathError(format!(
        "the path '{text}' does not parse near '{what}' (JsonPathParserError)"
    ))
}
