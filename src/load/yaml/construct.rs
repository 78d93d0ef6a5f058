//! Scalars as PyYAML's `SafeConstructor` builds them: the implicit types of plain scalars
//! (through `resolve.rs`, plus `<<` and `=`, which only mean something as mapping keys), and
//! every explicit standard tag — `!!str`, `!!int` (Python's `int()`), `!!float`, `!!bool`
//! (any case), `!!null`, `!!binary` (lenient base64, as `binascii` decodes it),
//! `!!timestamp` — with the errors PyYAML raises for values it cannot build, invalid dates
//! included. The non-specific tag `!` types a scalar like a plain one, as PyYAML does.

use crate::load::resolve::{self, resolve_plain, YamlVersion};
use crate::load::LoadOptions;
use crate::value::Kind;

pub(super) const PREFIX: &str = "tag:yaml.org,2002:";
pub(super) const SEQ: &str = "tag:yaml.org,2002:seq";
pub(super) const MAP: &str = "tag:yaml.org,2002:map";
pub(super) const SET: &str = "tag:yaml.org,2002:set";
pub(super) const OMAP: &str = "tag:yaml.org,2002:omap";
pub(super) const PAIRS: &str = "tag:yaml.org,2002:pairs";
const MERGE: &str = "tag:yaml.org,2002:merge";
const VALUE: &str = "tag:yaml.org,2002:value";

/// Scalars that are not values: `<<` (merge) and `=` (value) keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Special {
    None,
    Merge,
    Value,
}

impl Special {
    pub(super) fn tag(self) -> &'static str {
        match self {
            Special::Merge => MERGE,
            _ => VALUE,
        }
    }
}

/// PyYAML's message for a tag without a constructor.
pub(super) fn no_constructor(tag: &str) -> String {
    format!("could not determine a constructor for the tag '{tag}'")
}

/// The error for a collection tag on the wrong kind of node (`found` is `sequence` or
/// `mapping`), or a tag PyYAML does not know.
pub(super) fn wrong_node(tag: &str, found: &str) -> String {
    match tag {
        MAP | SET => format!("expected a mapping node, but found {found}"),
        SEQ => format!("expected a sequence node, but found {found}"),
        OMAP => {
            format!("while constructing an ordered map: expected a sequence, but found {found}")
        }
        PAIRS => format!("while constructing pairs: expected a sequence, but found {found}"),
        _ if is_scalar_tag(tag) => format!("expected a scalar node, but found {found}"),
        _ => no_constructor(tag),
    }
}

fn is_scalar_tag(tag: &str) -> bool {
    matches!(
        tag.strip_prefix(PREFIX),
        Some("str" | "null" | "bool" | "int" | "float" | "binary" | "timestamp")
    )
}

/// The value of a scalar event: `plain` says it is typed by the plain-scalar rules (PyYAML's
/// `implicit[0]`), `tag` is its explicit tag. `Err` carries PyYAML's problem text.
pub(super) fn scalar(
    text: &str,
    plain: bool,
    tag: Option<&str>,
    opts: &LoadOptions,
) -> Result<(Kind, Special), String> {
    let tag = match tag {
        None | Some("!") if plain => return implicit(text, opts),
        None | Some("!") => return Ok((Kind::Str(text.into()), Special::None)),
        Some(t) => t,
    };
    let kind = match tag.strip_prefix(PREFIX) {
        Some("str") => Kind::Str(text.into()),
        Some("python/unicode") if opts.dialect.python_unicode => Kind::Str(text.into()),
        Some("timestamp") if opts.dialect.timestamps_as_text => Kind::Str(text.into()),
        Some("null") => Kind::Null,
        Some("bool") => match text.to_lowercase().as_str() {
            "yes" | "true" | "on" => Kind::Bool(true),
            "no" | "false" | "off" => Kind::Bool(false),
            _ => {
                return Err(format!(
                    "'{text}' is not a boolean (KeyError in PyYAML's !!bool)"
                ))
            }
        },
        Some("int") => {
            int(text).ok_or_else(|| format!("invalid literal for int(): '{text}' (!!int)"))?
        }
        Some("float") => Kind::Float(
            float(text)
                .ok_or_else(|| format!("could not convert string to float: '{text}' (!!float)"))?,
        ),
        Some("binary") => Kind::Bytes(binary(text)?.into()),
        Some("timestamp") => {
            timestamp(text, false)?;
            Kind::Timestamp(text.into())
        }
        Some("merge") => return Ok((Kind::Null, Special::Merge)),
        Some("value") => return Ok((Kind::Null, Special::Value)),
        _ => return Err(wrong_node(tag, "scalar")),
    };
    Ok((kind, Special::None))
}

/// A plain scalar: the resolver's type, then the constructor's checks.
fn implicit(text: &str, opts: &LoadOptions) -> Result<(Kind, Special), String> {
    let version = opts.dialect.version;
    match text {
        "<<" => return Ok((Kind::Null, Special::Merge)),
        "=" if version == YamlVersion::V1_1 => return Ok((Kind::Null, Special::Value)),
        _ => {}
    }
    let kind = match resolve_plain(text, version) {
        Kind::Timestamp(t) if opts.dialect.timestamps_as_text => Kind::Str((&*t).into()),
        kind => kind,
    };
    if version == YamlVersion::V1_1 {
        match &kind {
            // The resolver's pattern matched; the constructor may still refuse the value.
            Kind::Timestamp(t) => timestamp(t, true)?,
            // Only underscores let the pattern match what `int()` refuses (`0x_`).
            Kind::Int(_) | Kind::BigInt(_) if text.contains('_') && int(text).is_none() => {
                return Err(format!("invalid literal for int(): '{text}'"))
            }
            _ => {}
        }
    }
    Ok((kind, Special::None))
}

/// PyYAML's `construct_yaml_int`: underscores dropped, one sign, then `0b`, `0x`, a leading
/// `0` (octal, through Python's `int(v, 8)`, which takes `0o`), sexagesimal, or decimal.
pub(super) fn int(text: &str) -> Option<Kind> {
    let value: String = text.chars().filter(|&c| c != '_').collect();
    let (neg, body) = match value.as_bytes().first()? {
        b'-' => (true, &value[1..]),
        b'+' => (false, &value[1..]),
        _ => (false, &value[..]),
    };
    if body == "0" {
        return Some(Kind::Int(0));
    }
    let apply = |k: Kind| -> Option<Kind> {
        if !neg {
            return Some(k);
        }
        Some(match k {
            Kind::Int(i) => match i.checked_neg() {
                Some(n) => Kind::Int(n),
                None => Kind::BigInt(format!("-{}", i.unsigned_abs()).into()),
            },
            Kind::BigInt(s) => match s.strip_prefix('-') {
                Some(pos) => Kind::BigInt(pos.into()),
                None if s.as_str() == "0" => Kind::Int(0),
                None => Kind::BigInt(format!("-{s}").into()),
            },
            other => other,
        })
    };
    if let Some(rest) = body.strip_prefix("0b") {
        return apply(py_int(rest, 2)?);
    }
    if let Some(rest) = body.strip_prefix("0x") {
        return apply(py_int(rest, 16)?);
    }
    if body.starts_with('0') {
        return apply(py_int(body, 8)?);
    }
    if body.contains(':') {
        let mut total: i128 = 0;
        for part in body.split(':') {
            let Kind::Int(d) = py_int(part, 10)? else {
                return None;
            };
            total = total.checked_mul(60)?.checked_add(i128::from(d))?;
        }
        let total = if neg { -total } else { total };
        return Some(match i64::try_from(total) {
            Ok(i) => Kind::Int(i),
            Err(_) => Kind::BigInt(total.to_string().into()),
        });
    }
    apply(py_int(body, 10)?)
}

/// Python's `int(text, base)` for the forms YAML can hand it: surrounding white space, an
/// optional sign, an optional prefix matching the base, digits with single underscores.
fn py_int(text: &str, base: u32) -> Option<Kind> {
    let t = text.trim_matches(|c: char| c.is_whitespace());
    let (neg, t) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let prefix = match base {
        2 => "0b",
        8 => "0o",
        16 => "0x",
        _ => "",
    };
    let t = if !prefix.is_empty() && t.len() > 2 && t[..2].eq_ignore_ascii_case(prefix) {
        t[2..].strip_prefix('_').unwrap_or(&t[2..])
    } else {
        t
    };
    if t.is_empty()
        || t.starts_with('_')
        || t.ends_with('_')
        || t.contains("__")
        || !t.chars().all(|c| c == '_' || c.is_digit(base))
    {
        return None;
    }
    let digits: String = t.chars().filter(|&c| c != '_').collect();
    Some(resolve::big_from_radix(neg, &digits, base))
}

/// PyYAML's `construct_yaml_float`: underscores dropped, lower-cased, one sign, `.inf`,
/// `.nan`, sexagesimal, else Python's `float()`.
pub(super) fn float(text: &str) -> Option<f64> {
    let value: String = text
        .chars()
        .filter(|&c| c != '_')
        .collect::<String>()
        .to_lowercase();
    let (sign, body) = match value.as_bytes().first()? {
        b'-' => (-1.0, &value[1..]),
        b'+' => (1.0, &value[1..]),
        _ => (1.0, &value[..]),
    };
    match body {
        ".inf" => return Some(sign * f64::INFINITY),
        ".nan" => return Some(f64::NAN),
        _ => {}
    }
    if body.contains(':') {
        let mut total = 0.0;
        for part in body.split(':') {
            total = total * 60.0 + py_float(part)?;
        }
        return Some(sign * total);
    }
    Some(sign * py_float(body)?)
}

/// Python's `float()` on text: white space around, a sign, `inf` / `infinity` / `nan`, or
/// a decimal number with an optional exponent.
fn py_float(text: &str) -> Option<f64> {
    let t = text.trim_matches(|c: char| c.is_whitespace());
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let special = matches!(
        body.to_ascii_lowercase().as_str(),
        "inf" | "infinity" | "nan"
    );
    let numeric = !body.is_empty()
        && body
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().any(|c| c.is_ascii_digit());
    if !(special || numeric) {
        return None;
    }
    t.parse::<f64>().ok()
}

/// `base64.decodebytes` (binascii's non-strict decoder): characters outside the alphabet
/// are skipped, decoding stops at complete padding, and a dangling character is an error.
pub(super) fn binary(text: &str) -> Result<Vec<u8>, String> {
    if !text.is_ascii() {
        return Err("failed to convert base64 data into ascii characters".into());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits, mut quad, mut pads) = (0u32, 0u32, 0usize, 0usize);
    for c in text.bytes() {
        if c == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    quad = 0;
                    break;
                }
            }
            continue;
        }
        let Some(v) = crate::value::base64_sextet(c) else {
            continue;
        };
        pads = 0;
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        quad = (quad + 1) % 4;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if quad != 0 {
        return Err(if quad == 1 {
            "failed to decode base64 data: the number of data characters cannot be 1 more than a multiple of 4".into()
        } else {
            "failed to decode base64 data: Incorrect padding".into()
        });
    }
    Ok(out)
}

/// Checks a timestamp as PyYAML's constructor builds it: its pattern (the constructor's,
/// looser than the resolver's when the tag is explicit), then Python's `date` / `datetime`
/// range checks (month 1-12, the month's days, hour < 24, ...; a zone under 24 hours).
pub(super) fn timestamp(text: &str, implicit: bool) -> Result<(), String> {
    let bad = |why: &str| Err(format!("'{text}' is not a valid timestamp: {why}"));
    let t = text.strip_suffix('\n').unwrap_or(text);
    let b = t.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize, min: usize, max: usize| -> Option<u32> {
        let start = *i;
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        (*i - start >= min).then(|| t[start..*i].parse().unwrap_or(0))
    };
    let expect = |i: &mut usize, c: u8| -> bool {
        let ok = b.get(*i) == Some(&c);
        if ok {
            *i += 1;
        }
        ok
    };
    let (Some(year), true, Some(month), true, Some(day)) = (
        digits(&mut i, 4, 4),
        expect(&mut i, b'-'),
        digits(&mut i, 1, 2),
        expect(&mut i, b'-'),
        digits(&mut i, 1, 2),
    ) else {
        return bad("expected YYYY-MM-DD");
    };
    let _ = implicit;
    if year == 0 {
        return bad("year 0 is out of range");
    }
    if !(1..=12).contains(&month) {
        return bad("month must be in 1..12");
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day == 0 || day > days {
        return bad("day is out of range for month");
    }
    if i == b.len() {
        return Ok(());
    }
    match b[i] {
        b'T' | b't' => i += 1,
        b' ' | b'\t' => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        _ => return bad("expected a date or a date and time"),
    }
    let (Some(hour), true, Some(minute), true, Some(second)) = (
        digits(&mut i, 1, 2),
        expect(&mut i, b':'),
        digits(&mut i, 2, 2),
        expect(&mut i, b':'),
        digits(&mut i, 2, 2),
    ) else {
        return bad("expected HH:MM:SS");
    };
    if hour > 23 {
        return bad("hour must be in 0..23");
    }
    if minute > 59 {
        return bad("minute must be in 0..59");
    }
    if second > 59 {
        return bad("second must be in 0..59");
    }
    if expect(&mut i, b'.') {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match b.get(i) {
        None => Ok(()),
        Some(b'Z') if i + 1 == b.len() => Ok(()),
        Some(b'-' | b'+') => {
            i += 1;
            let Some(h) = digits(&mut i, 1, 2) else {
                return bad("expected a zone offset");
            };
            let m = if expect(&mut i, b':') {
                match digits(&mut i, 2, 2) {
                    Some(m) => m,
                    None => return bad("expected a zone offset"),
                }
            } else {
                0
            };
            if i != b.len() {
                return bad("unexpected text after the zone");
            }
            if h * 60 + m >= 24 * 60 {
                return bad("the zone offset must be under 24 hours");
            }
            Ok(())
        }
        _ => bad("unexpected text after the time"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_ints_follow_python_int() {
        let k = |s| format!("{:?}", int(s));
        assert_eq!(k("0o17"), "Some(Int(15))");
        assert_eq!(k("' 12'".trim_matches('\'')), "Some(Int(12))");
        assert_eq!(k("1_000"), "Some(Int(1000))");
        assert_eq!(k("+0x1F"), "Some(Int(31))");
        assert_eq!(k("-0b11"), "Some(Int(-3))");
        assert_eq!(k("1:30"), "Some(Int(90))");
        assert_eq!(k("0x_"), "None");
        assert_eq!(k("09"), "None");
        assert_eq!(k("abc"), "None");
        assert_eq!(k("0_"), "Some(Int(0))");
    }

    #[test]
    fn explicit_floats_follow_python_float() {
        assert_eq!(float("1e3"), Some(1000.0));
        assert_eq!(float("1"), Some(1.0));
        assert_eq!(float("inf"), Some(f64::INFINITY));
        assert_eq!(float("1:30.5"), Some(90.5));
        assert!(float(".NaN").is_some_and(f64::is_nan));
        assert_eq!(float("abc"), None);
        assert_eq!(float(""), None);
    }

    #[test]
    fn base64_is_decoded_leniently_as_binascii_does() {
        assert_eq!(binary("aGVsbG8=").as_deref(), Ok(&b"hello"[..]));
        assert_eq!(binary("aGVs\n bG8=\n").as_deref(), Ok(&b"hello"[..]));
        assert_eq!(binary("aGk=trailing").as_deref(), Ok(&b"hi"[..]));
        assert!(binary("aGVsbG8").is_err());
        assert!(binary("a").is_err());
        assert!(binary("é").is_err());
    }

    #[test]
    fn timestamps_are_checked_like_python_dates() {
        assert!(timestamp("2024-02-29", true).is_ok());
        assert!(timestamp("2023-02-29", true).is_err());
        assert!(timestamp("2024-13-01", true).is_err());
        assert!(timestamp("0000-01-01", true).is_err());
        assert!(timestamp("2001-12-14t21:59:43.10-05:00", true).is_ok());
        assert!(timestamp("2001-12-14 25:00:00", true).is_err());
        assert!(timestamp("2001-12-14 21:59:43 +24:00", true).is_err());
        assert!(timestamp("2024-1-1", false).is_ok());
    }
}
