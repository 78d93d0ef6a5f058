//! Ruby's own parsing of the texts Psych's scanner has typed: `Integer()`, `Float()` (strict),
//! `String#to_i` / `String#to_f` (lenient, for sexagesimal parts), and `unpack('m')` for
//! `!!binary`, with the messages Ruby raises.

use super::{Fault, Token};
use crate::value::Kind;

/// Ruby's `Integer(text)` for the texts `INTEGER` lets through (separators removed).
pub(super) fn ruby_integer(text: &str) -> Result<Kind, Fault> {
    let (neg, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0b") {
        (2, d)
    } else if let Some(d) = body.strip_prefix("0x") {
        (16, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() {
        return Err(Fault::Raised(format!(
            "invalid value for Integer(): \"{text}\""
        )));
    }
    Ok(crate::load::resolve::big_from_radix(neg, digits, radix))
}

/// `Float(text.gsub(/[,_]|\.([Ee]|$)/, '\1'))` for a text `FLOAT` matched.
pub(super) fn ruby_float_gsubbed(s: &str) -> Result<f64, Fault> {
    // The common spelling (`1.5`, `-0.25`, `1.0e+3`): digits on both sides of the dot, no
    // separators, is Rust's own float syntax.
    if let Some((whole, frac)) = s.split_once('.') {
        let digit_at = |t: &str, first: bool| {
            let c = if first {
                t.bytes().next()
            } else {
                t.bytes().next_back()
            };
            c.is_some_and(|c| c.is_ascii_digit())
        };
        if !s.contains([',', '_']) && digit_at(whole, false) && digit_at(frac, true) {
            if let Ok(f) = s.parse::<f64>() {
                return Ok(f);
            }
        }
    }
    let mut t: String = s.chars().filter(|&c| c != ',' && c != '_').collect();
    if let Some(dot) = t.find('.') {
        if matches!(t.as_bytes().get(dot + 1), None | Some(b'e' | b'E')) {
            t.remove(dot);
        }
    }
    let mantissa = t.split(['e', 'E']).next().unwrap_or_default();
    if !mantissa.bytes().any(|c| c.is_ascii_digit()) {
        return Err(Fault::Raised(format!("invalid value for Float(): \"{t}\"")));
    }
    t.parse::<f64>()
        .map_err(|_| Fault::Raised(format!("invalid value for Float(): \"{t}\"")))
}

/// Ruby's `String#to_i` on a sexagesimal part: a sign, then digits, an underscore going on
/// only between two digits (`None` beyond an `i128`).
pub(super) fn ruby_to_i(s: &str) -> Option<i128> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (digits, _) = ruby_digits(body);
    if digits.is_empty() {
        return Some(0);
    }
    let v = digits.parse::<i128>().ok()?;
    Some(if neg { -v } else { v })
}

/// The leading digits of a text as Ruby's `to_i` / `to_f` read them (`_` only between two
/// digits), and how many bytes they took.
fn ruby_digits(s: &str) -> (String, usize) {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => out.push(char::from(c)),
            b'_' if i > 0
                && b[i - 1].is_ascii_digit()
                && b.get(i + 1).is_some_and(u8::is_ascii_digit) => {}
            _ => break,
        }
        i += 1;
    }
    (out, i)
}

/// Ruby's `String#to_f` on a sexagesimal part (`30`, `-1`, `30.5`, `30.5_5`): a sign, digits,
/// then a dot and digits (an underscore only between two digits); the rest ignored.
pub(super) fn ruby_to_f(s: &str) -> f64 {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (whole, len) = ruby_digits(body);
    let mut text = if whole.is_empty() {
        "0".to_string()
    } else {
        whole
    };
    if let Some(frac) = body[len..].strip_prefix('.') {
        let (f, _) = ruby_digits(frac);
        if !f.is_empty() {
            text.push('.');
            text.push_str(&f);
        }
    }
    let v = text.parse::<f64>().unwrap_or(0.0);
    if neg {
        -v
    } else {
        v
    }
}

/// Ruby's `Float(value)` for what `tokenize` built (a `!!float` tag): numbers as they are,
/// a string through Ruby's strict float syntax, anything else a `TypeError`.
pub(crate) fn ruby_float(token: &Token) -> Result<f64, Fault> {
    let kind = match token {
        Token::Symbol(_) => return Err(Fault::Raised("can't convert Symbol into Float".into())),
        Token::Value(k) => k,
    };
    match kind {
        Kind::Int(i) => Ok(*i as f64),
        Kind::BigInt(d) => Ok(d.parse::<f64>().unwrap_or(f64::NAN)),
        Kind::Float(f) => Ok(*f),
        Kind::Str(s) => ruby_float_str(s),
        Kind::Null => Err(Fault::Raised("can't convert nil into Float".into())),
        Kind::Bool(b) => Err(Fault::Raised(format!("can't convert {b} into Float"))),
        _ => Err(Fault::Raised("can't convert into Float".into())),
    }
}

/// `Float(string)`: white space around, a sign, decimal digits (an `_` only between two),
/// an optional fraction and exponent; or a hexadecimal integer.
fn ruby_float_str(s: &str) -> Result<f64, Fault> {
    let bad = || Fault::Raised(format!("invalid value for Float(): {}", ruby_inspect(s)));
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let digits = underscored(hex, |c| c.is_ascii_hexdigit()).ok_or_else(bad)?;
        return u128::from_str_radix(&digits, 16)
            .map(|v| sign * v as f64)
            .map_err(|_| bad());
    }
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, frac) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let mut text = String::new();
    if !whole.is_empty() {
        text.push_str(&underscored(whole, |c| c.is_ascii_digit()).ok_or_else(bad)?);
    } else if frac.is_none() {
        return Err(bad());
    }
    if let Some(f) = frac {
        text.push('.');
        text.push_str(&underscored(f, |c| c.is_ascii_digit()).ok_or_else(bad)?);
    }
    if let Some(e) = exp {
        let (esign, edigits) = match e.as_bytes().first() {
            Some(b'-') => ("-", &e[1..]),
            Some(b'+') => ("", &e[1..]),
            _ => ("", e),
        };
        text.push('e');
        text.push_str(esign);
        text.push_str(&underscored(edigits, |c| c.is_ascii_digit()).ok_or_else(bad)?);
    }
    text.parse::<f64>().map(|v| sign * v).map_err(|_| bad())
}

/// Digits with single underscores between them, the underscores removed; `None` otherwise
/// (or when empty).
fn underscored(s: &str, digit: fn(u8) -> bool) -> Option<String> {
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && digit(b[0])
        && digit(b[b.len() - 1])
        && !s.contains("__")
        && b.iter().all(|&c| c == b'_' || digit(c));
    ok.then(|| s.replace('_', ""))
}

/// Ruby's `String#inspect` for plain text (quotes and backslashes escaped).
pub(crate) fn ruby_inspect(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(super) fn int_kind(v: i128) -> Kind {
    match i64::try_from(v) {
        Ok(i) => Kind::Int(i),
        Err(_) => Kind::BigInt(v.to_string().into()),
    }
}

/// Ruby's `unpack('m')`: base64 with every character outside the alphabet skipped, up to a
/// `=` in a group's third or fourth place; a last group of two or three characters gives one or two bytes, of one none.
pub(crate) fn unpack_base64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut n) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match crate::value::base64_sextet(c) {
            Some(v) => v,
            // A `=` ends the data in a group's third or fourth place; before, it is skipped.
            None if c == b'=' && n >= 2 => break,
            None => continue,
        };
        acc = (acc << 6) | u32::from(v);
        n += 1;
        if n == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, n) = (0, 0);
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_float_of_strings() {
        let f = |s: &str| ruby_float(&Token::Value(Kind::Str(s.into())));
        assert_eq!(f("1e3"), Ok(1000.0));
        assert_eq!(f(" 1.5 "), Ok(1.5));
        assert_eq!(f("0x1A"), Ok(26.0));
        assert_eq!(f("08"), Ok(8.0));
        assert!(f("1.").is_err());
        assert!(f("1__0").is_err());
        assert!(f("abc").is_err());
        assert_eq!(
            ruby_float(&Token::Value(Kind::Null)),
            Err(Fault::Raised("can't convert nil into Float".into()))
        );
    }

    #[test]
    fn base64_as_ruby_unpacks_it() {
        assert_eq!(unpack_base64("aGVsbG8="), b"hello");
        assert_eq!(unpack_base64("aGVs\n bG8"), b"hello");
        assert_eq!(unpack_base64("aGVsbG8=x"), b"hello");
        assert_eq!(unpack_base64("a"), b"");
        assert_eq!(unpack_base64("!!!"), b"");
    }
}
