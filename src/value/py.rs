//! Python's `str()`, `repr()` and truth value of values as PyYAML builds them: `True`, `None`,
//! `2.0`, `1e+16`, `[1, 'a']`, `{'k': "it's"}`, dates as `datetime.date` prints them. Deckhand
//! turns a substitution's value into the text of a pattern replacement with `str()`, so the
//! rendered string depends on these exact spellings.

use super::{Kind, Node};
use std::fmt::Write as _;

/// Python's truth value (`bool(value)`): null, false, zero and empty values are false.
pub fn py_truthy(node: &Node) -> bool {
    match &node.kind {
        Kind::Null => false,
        Kind::Bool(b) => *b,
        Kind::Int(i) => *i != 0,
        Kind::BigInt(_) => true,
        Kind::Float(f) => *f != 0.0,
        Kind::Str(s) => !s.is_empty(),
        Kind::Timestamp(s) => !s.is_empty(),
        Kind::Bytes(b) => !b.is_empty(),
        Kind::List(l) | Kind::Tuple(l) => !l.is_empty(),
        Kind::Map(m) | Kind::Set(m) => !m.is_empty(),
    }
}

/// Python's `str(value)`.
pub fn py_str(node: &Node) -> String {
    match &node.kind {
        Kind::Str(s) => s.to_string(),
        Kind::Timestamp(t) => timestamp(t).map_or_else(|| t.to_string(), |ts| ts.str()),
        _ => py_repr(node),
    }
}

/// Python's `repr(value)`.
pub fn py_repr(node: &Node) -> String {
    let mut out = String::new();
    repr_into(&mut out, node);
    out
}

fn repr_into(out: &mut String, node: &Node) {
    match &node.kind {
        Kind::Null => out.push_str("None"),
        Kind::Bool(true) => out.push_str("True"),
        Kind::Bool(false) => out.push_str("False"),
        Kind::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Kind::BigInt(s) => out.push_str(s),
        Kind::Float(f) => out.push_str(&float_repr(*f)),
        Kind::Str(s) => str_repr(out, s),
        Kind::Timestamp(t) => match timestamp(t) {
            Some(ts) => out.push_str(&ts.repr()),
            None => str_repr(out, t),
        },
        Kind::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(out, item);
            }
            out.push(']');
        }
        Kind::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(out, &k.0);
                out.push_str(": ");
                repr_into(out, v);
            }
            out.push('}');
        }
        Kind::Bytes(b) => bytes_repr(out, b),
        // PyYAML builds `!!set` as a Python set: `set()` when empty. (Python prints a set in
        // hash order, which differs run to run for strings; this is the written order.)
        Kind::Set(m) if m.is_empty() => out.push_str("set()"),
        Kind::Set(m) => {
            out.push('{');
            for (i, (k, _)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(out, &k.0);
            }
            out.push('}');
        }
        // A pair of `!!pairs` / `!!omap`: a Python tuple (one item: `(x,)`).
        Kind::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(out, item);
            }
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
    }
}

/// Python's `repr(bytes)`: `b'...'` (`b"..."` when only `'` occurs), `\t` `\n` `\r`, the
/// quote and `\\` escaped, other bytes outside 0x20..0x7e as `\xhh`.
fn bytes_repr(out: &mut String, b: &[u8]) {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    out.push('b');
    out.push(quote);
    for &c in b {
        match c {
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\\' => out.push_str("\\\\"),
            c if char::from(c) == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(char::from(c)),
            c => {
                let _ = write!(out, "\\x{c:02x}");
            }
        }
    }
    out.push(quote);
}

/// Python's `repr(float)`: the shortest digits that read back, in fixed notation when the
/// decimal exponent is between -4 and 16, else `d.ddde+XX`.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "-1.2345e-5".
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let decpt = exp + 1;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if (-3..=16).contains(&decpt) {
        if decpt <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', decpt.unsigned_abs() as usize));
            out.push_str(&digits);
        } else {
            let d = decpt as usize;
            if digits.len() <= d {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', d - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..d]);
                out.push('.');
                out.push_str(&digits[d..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    out
}

/// Python's `repr(str)`: single quotes unless the text has `'` and no `"`; `\\`, `\t`,
/// `\n`, `\r` and non-printable characters escaped.
pub fn str_repr(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_ascii() || printable(c) => out.push(c),
            c => {
                let cp = c as u32;
                let _ = if cp < 0x100 {
                    write!(out, "\\x{cp:02x}")
                } else if cp < 0x10000 {
                    write!(out, "\\u{cp:04x}")
                } else {
                    write!(out, "\\U{cp:08x}")
                };
            }
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable()` for one non-ASCII character: not a control, format,
/// surrogate, private-use or unassigned character, nor a separator other than the space.
fn printable(c: char) -> bool {
    static NOT_PRINTABLE: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{C}\p{Z}]$").ok());
    let mut buf = [0u8; 4];
    !NOT_PRINTABLE
        .as_ref()
        .is_some_and(|r| r.is_match(c.encode_utf8(&mut buf)))
}

/// A YAML timestamp as PyYAML builds it: a `datetime.date`, or a `datetime.datetime` with
/// microseconds and an optional fixed offset.
struct Timestamp {
    date: (i64, u32, u32),
    time: Option<(u32, u32, u32, u32)>,
    /// Offset in minutes; `Some(0)` is `timezone.utc`.
    tz: Option<i64>,
}

fn timestamp(text: &str) -> Option<Timestamp> {
    let num = |s: &str| s.parse::<u32>().ok();
    let (date, rest) = match text.find(['T', 't', ' ', '\t']) {
        Some(i) => (
            &text[..i],
            Some(text[i..].trim_start_matches(['T', 't', ' ', '\t'])),
        ),
        None => (text, None),
    };
    let mut d = date.split('-');
    let y = d.next()?.parse::<i64>().ok()?;
    let m = num(d.next()?)?;
    let day = num(d.next()?)?;
    let Some(rest) = rest else {
        return Some(Timestamp {
            date: (y, m, day),
            time: None,
            tz: None,
        });
    };
    let tz_at = rest.find(['Z', '+', '-']).unwrap_or(rest.len());
    let (clock, tz) = rest.split_at(tz_at);
    let clock = clock.trim_end();
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, ""));
    let mut t = hms.split(':');
    let (h, mi, s) = (num(t.next()?)?, num(t.next()?)?, num(t.next()?)?);
    let mut micro = frac.chars().take(6).collect::<String>();
    while !micro.is_empty() && micro.len() < 6 {
        micro.push('0');
    }
    let us = if micro.is_empty() { 0 } else { num(&micro)? };
    let tz = match tz {
        "" => None,
        "Z" => Some(0),
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let (hh, mm) = z[1..].split_once(':').unwrap_or((&z[1..], "0"));
            Some(sign * (i64::from(num(hh)?) * 60 + i64::from(num(mm)?)))
        }
    };
    Some(Timestamp {
        date: (y, m, day),
        time: Some((h, mi, s, us)),
        tz,
    })
}

impl Timestamp {
    fn str(&self) -> String {
        let (y, m, d) = self.date;
        let mut out = format!("{y:04}-{m:02}-{d:02}");
        if let Some((h, mi, s, us)) = self.time {
            let _ = write!(out, " {h:02}:{mi:02}:{s:02}");
            if us != 0 {
                let _ = write!(out, ".{us:06}");
            }
            if let Some(tz) = self.tz {
                let _ = write!(
                    out,
                    "{}{:02}:{:02}",
                    if tz < 0 { '-' } else { '+' },
                    tz.abs() / 60,
                    tz.abs() % 60
                );
            }
        }
        out
    }

    fn repr(&self) -> String {
        let (y, m, d) = self.date;
        let Some((h, mi, s, us)) = self.time else {
            return format!("datetime.date({y}, {m}, {d})");
        };
        let mut fields = vec![
            y,
            i64::from(m),
            i64::from(d),
            i64::from(h),
            i64::from(mi),
            i64::from(s),
            i64::from(us),
        ];
        for _ in 0..2 {
            if fields.last() == Some(&0) {
                fields.pop();
            }
        }
        let list: Vec<String> = fields.iter().map(i64::to_string).collect();
        let mut out = format!("datetime.datetime({}", list.join(", "));
        match self.tz {
            None => {}
            Some(0) => out.push_str(", tzinfo=datetime.timezone.utc"),
            Some(tz) => {
                let secs = tz * 60;
                let (days, secs) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
                let delta = match (days, secs) {
                    (0, s) => format!("seconds={s}"),
                    (d, 0) => format!("days={d}"),
                    (d, s) => format!("days={d}, seconds={s}"),
                };
                let _ = write!(
                    out,
                    ", tzinfo=datetime.timezone(datetime.timedelta({delta}))"
                );
            }
        }
        out.push(')');
        out
    }
}

/// A string as Python's `json.dumps` writes it with `ensure_ascii` (its default): `"`, `\\`
/// and the short escapes, every other character outside printable ASCII (`' '..='~'`, so also
/// DEL) as `\uXXXX`, above U+FFFF as a surrogate pair.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            c if !(' '..='~').contains(&c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_str_is_python_json_dumps() {
        // /usr/bin/python3 -c 'import json; print(json.dumps("a\"\\\n\x7f\x01é😀\b\f"))'
        let mut out = String::new();
        json_str(&mut out, "a\"\\\n\x7f\x01é😀\x08\x0c");
        assert_eq!(out, r#""a\"\\\n\u007f\u0001\u00e9\ud83d\ude00\b\f""#);
    }
    use crate::load::{yaml, LoadOptions};

    fn v(text: &str) -> Node {
        let mut w = Vec::new();
        yaml::load_single(text, 0, &LoadOptions::default(), &mut w)
            .expect("parses")
            .expect("a document")
    }

    #[test]
    fn str_of_scalars_is_pythons() {
        for (yaml, want) in [
            ("true", "True"),
            ("null", "None"),
            ("2.0", "2.0"),
            ("3.2", "3.2"),
            ("1.0e+16", "1e+16"),
            ("1.0e-5", "1e-05"),
            ("0.0001", "0.0001"),
            ("1234567890123456.0", "1234567890123456.0"),
            ("-1.5e+300", "-1.5e+300"),
            (".inf", "inf"),
            ("123", "123"),
            ("abc", "abc"),
            ("2024-01-05", "2024-01-05"),
            (
                "2001-12-14t21:59:43.10-05:00",
                "2001-12-14 21:59:43.100000-05:00",
            ),
            ("2001-12-14 21:59:43Z", "2001-12-14 21:59:43+00:00"),
        ] {
            assert_eq!(py_str(&v(yaml)), want, "{yaml}");
        }
    }

    #[test]
    fn repr_of_containers_is_pythons() {
        assert_eq!(py_str(&v("[1, a, true, null]")), "[1, 'a', True, None]");
        assert_eq!(py_str(&v("{k: v, 1: 2.5}")), "{'k': 'v', 1: 2.5}");
        assert_eq!(
            py_str(&v(r#"["it's", 'say "hi"', "both ' \"", "a\\b\n"]"#)),
            r#"["it's", 'say "hi"', 'both \' "', 'a\\b\n']"#
        );
        assert_eq!(py_str(&v("[\"\\u00e9\\u200b\\x01\"]")), r"['é\u200b\x01']");
        assert_eq!(
            py_str(&v("[2024-01-05, 2001-12-14 21:59:43.5]")),
            "[datetime.date(2024, 1, 5), datetime.datetime(2001, 12, 14, 21, 59, 43, 500000)]"
        );
        // Binary data, sets and pairs as PyYAML builds them (bytes, set, list of tuples);
        // expected strings from Python 3's str() of yaml.safe_load.
        for (yaml, want) in [
            ("!!binary J2EiXG4=", r#"b'\'a"\\n'"#),
            ("!!binary J2E=", r#"b"'a""#),
            ("[!!binary AP8J]", r"[b'\x00\xff\t']"),
            ("!!set {a: null}", "{'a'}"),
            ("!!set {}", "set()"),
            ("!!pairs [a: 1, b: 2]", "[('a', 1), ('b', 2)]"),
            ("!!omap [a: 1]", "[('a', 1)]"),
        ] {
            assert_eq!(py_str(&v(yaml)), want, "{yaml}");
        }
        assert_eq!(py_str(&v("[2001-12-14t21:59:43-05:00]")),
            "[datetime.datetime(2001, 12, 14, 21, 59, 43, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))]");
    }
}
