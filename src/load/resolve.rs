//! Plain-scalar resolution: what type an unquoted YAML scalar has. YAML 1.1 exactly as PyYAML's
//! `safe_load` resolves and constructs it (the default), or the YAML 1.2 core schema.

use crate::value::Kind;

/// Which YAML scalar rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum YamlVersion {
    /// YAML 1.1 as PyYAML reads it (`yes` is true, `0755` octal, `1:30` sexagesimal): the
    /// default.
    #[default]
    V1_1,
    /// YAML 1.2 core schema (`--yaml 1.2`).
    V1_2,
}

/// The value of a plain (unquoted, untagged) scalar.
pub fn resolve_plain(s: &str, version: YamlVersion) -> Kind {
    match version {
        YamlVersion::V1_1 => resolve_11(s),
        YamlVersion::V1_2 => resolve_12(s),
    }
}

/// Whether a plain scalar would not be read back as this same string by a 1.1 or 1.2 reader.
/// Allocates nothing for the common case (a word that is a string in both versions).
pub fn is_ambiguous(s: &str) -> bool {
    s == "<<" || s == "=" || !is_str_11(s) || !is_str_12(s)
}

fn resolve_11(s: &str) -> Kind {
    scalar_11(s).unwrap_or_else(|| Kind::Str(s.into()))
}

/// Whether a plain scalar is a string under YAML 1.1, without building the value when it is
/// obviously one (no leading digit, sign or dot, and not a null or boolean word).
fn is_str_11(s: &str) -> bool {
    match s.as_bytes().first() {
        None => false,
        Some(b'-' | b'+' | b'.' | b'0'..=b'9' | b'~') => scalar_11(s).is_none(),
        Some(_) => !is_null_word(s) && bool_11(s).is_none(),
    }
}

fn is_null_word(s: &str) -> bool {
    matches!(s, "null" | "Null" | "NULL")
}

/// The value of a plain scalar under YAML 1.1 when it is not a string.
fn scalar_11(s: &str) -> Option<Kind> {
    let Some(&first) = s.as_bytes().first() else {
        return Some(Kind::Null);
    };
    match first {
        b'~' if s == "~" => return Some(Kind::Null),
        b'n' | b'N' if is_null_word(s) => return Some(Kind::Null),
        _ => {}
    }
    if let Some(b) = bool_11(s) {
        return Some(Kind::Bool(b));
    }
    if matches!(first, b'-' | b'+' | b'.' | b'0'..=b'9') {
        if let Some(f) = float_11(s) {
            return Some(Kind::Float(f));
        }
        if let Some(k) = int_11(s) {
            return Some(k);
        }
        if is_timestamp(s) {
            return Some(Kind::Timestamp(s.into()));
        }
    }
    None
}

fn bool_11(s: &str) -> Option<bool> {
    match s {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Some(true),
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

fn split_sign(s: &str) -> (bool, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

fn all(s: &str, f: impl Fn(u8) -> bool) -> bool {
    s.bytes().all(f)
}

/// `[0-9][0-9_]*`
fn dec_us(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && all(s, |c| c.is_ascii_digit() || c == b'_')
}

/// `(?::[0-5]?[0-9])+` after the first part: every later part is one or two digits, first 0-5.
fn sexagesimal_tail(parts: &[&str]) -> bool {
    !parts.is_empty()
        && parts.iter().all(|p| match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        })
}

/// PyYAML's int resolver and constructor.
pub(crate) fn int_11(s: &str) -> Option<Kind> {
    let (neg, body) = split_sign(s);
    let b = body.as_bytes();
    // The common spelling (`42404`): decimal digits, no underscore, no leading zero, short
    // enough for an i64, read without copying the digits out.
    if (1..=18).contains(&b.len()) && b[0] != b'0' && b.iter().all(u8::is_ascii_digit) {
        let v = b.iter().fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
        return Some(Kind::Int(if neg { -v } else { v }));
    }
    let (radix, digits): (u32, String) = if let Some(rest) = body.strip_prefix("0b") {
        if rest.is_empty() || !all(rest, |c| matches!(c, b'0' | b'1' | b'_')) {
            return None;
        }
        (2, rest.replace('_', ""))
    } else if let Some(rest) = body.strip_prefix("0x") {
        if rest.is_empty() || !all(rest, |c| c.is_ascii_hexdigit() || c == b'_') {
            return None;
        }
        (16, rest.replace('_', ""))
    } else if body == "0" {
        (10, "0".into())
    } else if b.first() == Some(&b'0') {
        if b.len() < 2 || !all(&body[1..], |c| matches!(c, b'0'..=b'7' | b'_')) {
            return None;
        }
        (8, body.replace('_', ""))
    } else if body.contains(':') {
        let parts: Vec<&str> = body.split(':').collect();
        let head = parts[0];
        let head_ok = head
            .as_bytes()
            .first()
            .is_some_and(|c| (b'1'..=b'9').contains(c))
            && dec_us(head);
        if !head_ok || !sexagesimal_tail(&parts[1..]) {
            return None;
        }
        let mut value: i128 = 0;
        for p in &parts {
            let d: i128 = p.replace('_', "").parse().ok()?;
            value = value.checked_mul(60)?.checked_add(d)?;
        }
        return Some(int_kind(if neg { -value } else { value }));
    } else {
        if !(b.first().is_some_and(|c| (b'1'..=b'9').contains(c)) && dec_us(body)) {
            return None;
        }
        (10, body.replace('_', ""))
    };
    Some(big_from_radix(neg, &digits, radix))
}

fn int_kind(v: i128) -> Kind {
    match i64::try_from(v) {
        Ok(i) => Kind::Int(i),
        Err(_) => Kind::BigInt(v.to_string().into()),
    }
}

/// Integer of any size from digits in a radix; `i64` when it fits, decimal text otherwise.
pub(crate) fn big_from_radix(neg: bool, digits: &str, radix: u32) -> Kind {
    if digits.is_empty() {
        return Kind::Int(0);
    }
    if let Ok(v) = i128::from_str_radix(digits, radix) {
        return int_kind(if neg { -v } else { v });
    }
    // Arbitrary precision: little-endian limbs in base 10^9.
    let mut limbs: Vec<u64> = vec![0];
    for c in digits.chars() {
        let mut carry = u64::from(c.to_digit(radix).unwrap_or(0));
        for limb in limbs.iter_mut() {
            let v = *limb * u64::from(radix) + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut text = String::new();
    if neg {
        text.push('-');
    }
    let mut iter = limbs.iter().rev();
    if let Some(top) = iter.next() {
        text.push_str(&top.to_string());
    }
    for limb in iter {
        text.push_str(&format!("{limb:09}"));
    }
    Kind::BigInt(text.into())
}

/// PyYAML's float resolver and constructor.
pub(crate) fn float_11(s: &str) -> Option<f64> {
    match s {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let (neg, body) = split_sign(s);
    let sign = if neg { -1.0 } else { 1.0 };
    if body.contains(':') {
        // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        let (int_part, frac) = body.split_once('.')?;
        let parts: Vec<&str> = int_part.split(':').collect();
        if !dec_us(parts[0])
            || !sexagesimal_tail(&parts[1..])
            || !all(frac, |c| c.is_ascii_digit() || c == b'_')
        {
            return None;
        }
        let mut value = 0.0;
        let last = parts.len() - 1;
        for (i, p) in parts.iter().enumerate() {
            let text = if i == last {
                format!("{}.{}", p, frac)
            } else {
                (*p).to_string()
            };
            let d: f64 = text.replace('_', "").parse().ok()?;
            value = value * 60.0 + d;
        }
        return Some(sign * value);
    }
    // [0-9][0-9_]*\.[0-9_]*(e[-+][0-9]+)?  |  (unsigned only) \.[0-9][0-9_]*(e[-+][0-9]+)?
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (ip, fp) = mantissa.split_once('.')?;
    let ok_mantissa = if ip.is_empty() {
        s.as_bytes()[0] == b'.'
            && fp.as_bytes().first().is_some_and(u8::is_ascii_digit)
            && dec_us(fp)
    } else {
        dec_us(ip) && all(fp, |c| c.is_ascii_digit() || c == b'_')
    };
    let ok_exp = exp.is_none_or(|e| {
        e.len() >= 2
            && matches!(e.as_bytes()[0], b'-' | b'+')
            && all(&e[1..], |c| c.is_ascii_digit())
    });
    if !(ok_mantissa && ok_exp) {
        return None;
    }
    // The common spelling (`801.37`, `1.5e+3`) is Rust's own float syntax: read as it is.
    if !mantissa.contains('_') && !ip.is_empty() && !fp.is_empty() {
        return body.parse::<f64>().ok().map(|v| sign * v);
    }
    let mut text = mantissa.replace('_', "");
    if text.ends_with('.') {
        text.push('0');
    }
    if text.starts_with('.') {
        text.insert(0, '0');
    }
    if let Some(e) = exp {
        text.push('e');
        text.push_str(e);
    }
    text.parse::<f64>().ok().map(|v| sign * v)
}

/// PyYAML's timestamp resolver (the value is kept as text).
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
    if b.len() == 10
        && digits(&b[0..4])
        && b[4] == b'-'
        && digits(&b[5..7])
        && b[7] == b'-'
        && digits(&b[8..10])
    {
        return true;
    }
    timestamp_long(b).unwrap_or(false)
}

fn timestamp_long(b: &[u8]) -> Option<bool> {
    let mut i = 0;
    let take_digits = |i: &mut usize, min: usize, max: usize| -> bool {
        let start = *i;
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start >= min
    };
    let expect = |i: &mut usize, c: u8| -> bool {
        if b.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    let ok = take_digits(&mut i, 4, 4)
        && expect(&mut i, b'-')
        && take_digits(&mut i, 1, 2)
        && expect(&mut i, b'-')
        && take_digits(&mut i, 1, 2);
    if !ok {
        return Some(false);
    }
    // (?:[Tt]|[ \t]+)
    match b.get(i)? {
        b'T' | b't' => i += 1,
        b' ' | b'\t' => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        _ => return Some(false),
    }
    if !(take_digits(&mut i, 1, 2)
        && expect(&mut i, b':')
        && take_digits(&mut i, 2, 2)
        && expect(&mut i, b':')
        && take_digits(&mut i, 2, 2))
    {
        return Some(false);
    }
    if expect(&mut i, b'.') {
        take_digits(&mut i, 0, usize::MAX);
    }
    if i == b.len() {
        return Some(true);
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match b.get(i)? {
        b'Z' => i += 1,
        b'-' | b'+' => {
            i += 1;
            if !take_digits(&mut i, 1, 2) {
                return Some(false);
            }
            if expect(&mut i, b':') && !take_digits(&mut i, 2, 2) {
                return Some(false);
            }
        }
        _ => return Some(false),
    }
    Some(i == b.len())
}

fn resolve_12(s: &str) -> Kind {
    scalar_12(s).unwrap_or_else(|| Kind::Str(s.into()))
}

/// Whether a plain scalar is a string under the YAML 1.2 core schema (see `is_str_11`).
fn is_str_12(s: &str) -> bool {
    match s.as_bytes().first() {
        None => false,
        Some(b'-' | b'+' | b'.' | b'0'..=b'9' | b'~') => scalar_12(s).is_none(),
        Some(_) => !matches!(
            s,
            "null" | "Null" | "NULL" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        ),
    }
}

/// The value of a plain scalar under the YAML 1.2 core schema when it is not a string.
fn scalar_12(s: &str) -> Option<Kind> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Kind::Null),
        "true" | "True" | "TRUE" => return Some(Kind::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Kind::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Some(Kind::Float(f64::INFINITY))
        }
        "-.inf" | "-.Inf" | "-.INF" => return Some(Kind::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Some(Kind::Float(f64::NAN)),
        _ => {}
    }
    if let Some(rest) = s.strip_prefix("0o") {
        if !rest.is_empty() && all(rest, |c| matches!(c, b'0'..=b'7')) {
            return Some(big_from_radix(false, rest, 8));
        }
    }
    if let Some(rest) = s.strip_prefix("0x") {
        if !rest.is_empty() && all(rest, |c| c.is_ascii_hexdigit()) {
            return Some(big_from_radix(false, rest, 16));
        }
    }
    let (neg, body) = split_sign(s);
    if !body.is_empty() && all(body, |c| c.is_ascii_digit()) {
        return Some(big_from_radix(neg, body, 10));
    }
    if is_float_12(body) {
        if let Ok(f) = s.parse::<f64>() {
            return Some(Kind::Float(f));
        }
    }
    None
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (sign already removed).
fn is_float_12(body: &str) -> bool {
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let m_ok = match mantissa.split_once('.') {
        Some(("", f)) => !f.is_empty() && all(f, |c| c.is_ascii_digit()),
        Some((i, f)) => {
            !i.is_empty() && all(i, |c| c.is_ascii_digit()) && all(f, |c| c.is_ascii_digit())
        }
        None => !mantissa.is_empty() && all(mantissa, |c| c.is_ascii_digit()),
    };
    let e_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && all(e, |c| c.is_ascii_digit())
    });
    m_ok && e_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> String {
        format!("{:?}", resolve_plain(s, YamlVersion::V1_1))
    }

    #[test]
    fn yaml_11_scalars_as_pyyaml() {
        assert_eq!(k("yes"), "Bool(true)");
        assert_eq!(k("OFF"), "Bool(false)");
        assert_eq!(k("y"), "Str(\"y\")");
        assert_eq!(k("tRue"), "Str(\"tRue\")");
        assert_eq!(k("0755"), "Int(493)");
        assert_eq!(k("08"), "Str(\"08\")");
        assert_eq!(k("0o17"), "Str(\"0o17\")");
        assert_eq!(k("0x1F"), "Int(31)");
        assert_eq!(k("0b101"), "Int(5)");
        assert_eq!(k("1_000"), "Int(1000)");
        assert_eq!(k("+12"), "Int(12)");
        assert_eq!(k("1:30"), "Int(90)");
        assert_eq!(k("1e3"), "Str(\"1e3\")");
        assert_eq!(k("1.0e+3"), "Float(1000.0)");
        assert_eq!(k("1."), "Float(1.0)");
        assert_eq!(k(".5"), "Float(0.5)");
        assert_eq!(k("-.5"), "Str(\"-.5\")");
        assert_eq!(k("1:30.5"), "Float(90.5)");
        assert_eq!(k("1.5E+2"), "Float(150.0)");
        assert_eq!(k("1_000.5"), "Float(1000.5)");
        assert_eq!(k("-42"), "Int(-42)");
        assert_eq!(k("123456789012345678"), "Int(123456789012345678)");
        assert_eq!(k("9223372036854775807"), "Int(9223372036854775807)");
        assert_eq!(k("9223372036854775808"), "BigInt(\"9223372036854775808\")");
        // The common spellings read without copying (and the others around them).
        assert_eq!(k("801.37"), "Float(801.37)");
        assert_eq!(k("-2.5e-3"), "Float(-0.0025)");
        assert_eq!(k("+1.0e+999"), "Float(inf)");
        assert_eq!(k("1_0.5"), "Float(10.5)");
        assert_eq!(k("42404"), "Int(42404)");
        assert_eq!(k("-999999999999999999"), "Int(-999999999999999999)");
        assert_eq!(k("+0"), "Int(0)");
        assert_eq!(k("007"), "Int(7)");
        assert_eq!(k("~"), "Null");
        assert_eq!(k("2024-01-02"), "Timestamp(\"2024-01-02\")");
        assert_eq!(
            k("2001-12-14t21:59:43.10-05:00"),
            "Timestamp(\"2001-12-14t21:59:43.10-05:00\")"
        );
        assert_eq!(
            k("2001-12-14 21:59:43.10 -5"),
            "Timestamp(\"2001-12-14 21:59:43.10 -5\")"
        );
        assert_eq!(
            k("99999999999999999999999"),
            "BigInt(\"99999999999999999999999\")"
        );
        assert!(matches!(resolve_plain(".NaN", YamlVersion::V1_1), Kind::Float(f) if f.is_nan()));
    }

    #[test]
    fn yaml_12_core() {
        let k12 = |s| format!("{:?}", resolve_plain(s, YamlVersion::V1_2));
        assert_eq!(k12("yes"), "Str(\"yes\")");
        assert_eq!(k12("0755"), "Int(755)");
        assert_eq!(k12("0o17"), "Int(15)");
        assert_eq!(k12("1e3"), "Float(1000.0)");
        assert_eq!(k12("1:30"), "Str(\"1:30\")");
    }
}
