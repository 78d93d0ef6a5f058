//! Jinja2's HTML filters as Jinja2 3.1 and markupsafe 2.1 write them: `escape` / `e` and
//! `forceescape` (markupsafe's `escape`: `&`, `<`, `>`, `'`, `"` of Python's `str()` of the
//! value; `escape` leaves an already escaped value alone, as markupsafe leaves a `Markup`),
//! `xmlattr` (`key="value"` pairs, `None` and undefined values left out, keys with white
//! space, `/`, `>` or `=` refused) and `striptags` (markupsafe's `Markup.striptags`: comments
//! and tags removed, white space collapsed, then Python's `html.unescape` with HTML5's named
//! character references from the `entities` crate). An escaped value is minijinja's safe
//! string, Jinja2's `Markup`.

use super::py::{py_repr_string, py_str, py_type_name};
use super::text::{py_error, Signature};
use minijinja::value::{Kwargs, Rest, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind};
use std::collections::HashMap;
use std::sync::LazyLock;

/// Adds the filters to a template environment.
pub(super) fn install(env: &mut Environment<'_>) {
    env.add_filter("escape", escape);
    env.add_filter("e", escape);
    env.add_filter("forceescape", forceescape);
    env.add_filter("xmlattr", xmlattr);
    env.add_filter("striptags", striptags);
    env.add_filter("urlize", super::urlize::urlize);
}

/// markupsafe's escaping of a text.
pub(super) fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&#34;"),
            c => out.push(c),
        }
    }
    out
}

/// markupsafe's `escape(value)`: a `Markup` as it is, anything else its `str()` escaped.
pub(super) fn escape_value(value: &Value) -> String {
    if value.is_safe() {
        py_str(value)
    } else {
        escape_text(&py_str(value))
    }
}

fn no_arguments(name: &'static str, args: &[Value], kwargs: &Kwargs) -> Result<(), Error> {
    Signature {
        name,
        fixed: &["value"],
        optional: &[],
    }
    .bind(args, kwargs)
    .map(drop)
}

/// markupsafe's `escape`, a C function of one argument (`_speedups`).
fn escape(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let name = "markupsafe._speedups.escape()";
    if kwargs.args().next().is_some() {
        return Err(py_error(
            "TypeError",
            format!("{name} takes no keyword arguments"),
        ));
    }
    if !args.is_empty() {
        return Err(py_error(
            "TypeError",
            format!(
                "{name} takes exactly one argument ({} given)",
                args.len() + 1
            ),
        ));
    }
    if value.is_safe() {
        return Ok(value);
    }
    Ok(Value::from_safe_string(escape_value(&value)))
}

/// `do_forceescape`: escapes a `Markup` too.
fn forceescape(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    no_arguments("do_forceescape", &args, &kwargs)?;
    Ok(Value::from_safe_string(escape_text(&py_str(&value))))
}

/// `do_xmlattr(d, autospace=True)`.
fn xmlattr(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let bound = Signature {
        name: "do_xmlattr",
        fixed: &["eval_ctx", "d"],
        optional: &["autospace"],
    }
    .bind(&args, &kwargs)?;
    let autospace = bound[0].as_ref().is_none_or(Value::is_true);
    match value.kind() {
        ValueKind::Map => {}
        ValueKind::Undefined => return Err(Error::from(ErrorKind::UndefinedError)),
        _ => {
            return Err(py_error(
                "AttributeError",
                format!("'{}' object has no attribute 'items'", py_type_name(&value)),
            ))
        }
    }
    let mut items = Vec::new();
    for key in value.try_iter()? {
        let item = value.get_item(&key).unwrap_or_default();
        if matches!(item.kind(), ValueKind::None | ValueKind::Undefined) {
            continue;
        }
        let Some(name) = key.as_str() else {
            return Err(py_error(
                "TypeError",
                format!(
                    "expected string or bytes-like object, got '{}'",
                    py_type_name(&key)
                ),
            ));
        };
        // `[\s/>=]` with `re.ASCII`.
        if name.chars().any(|c| {
            matches!(
                c,
                ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '/' | '>' | '='
            )
        }) {
            return Err(py_error(
                "ValueError",
                format!(
                    "Invalid character in attribute name: {}",
                    py_repr_string(&key)
                ),
            ));
        }
        items.push(format!(
            "{}=\"{}\"",
            escape_value(&key),
            escape_value(&item)
        ));
    }
    let rv = items.join(" ");
    Ok(Value::from(if autospace && !rv.is_empty() {
        format!(" {rv}")
    } else {
        rv
    }))
}

/// `do_striptags`: `Markup(str(value)).striptags()`.
fn striptags(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    no_arguments("do_striptags", &args, &kwargs)?;
    let s = py_str(&value);
    let s = remove_between(&s, "<!--", "-->");
    let s = remove_between(&s, "<", ">");
    let words: Vec<&str> = s
        .split(super::is_py_space)
        .filter(|w| !w.is_empty())
        .collect();
    Ok(Value::from(unescape(&words.join(" "))?))
}

/// `re.sub(open + ".*?" + close, "", s, flags=re.DOTALL)`.
fn remove_between(s: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find(open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(close) else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &after[end + close.len()..];
    }
    out.push_str(rest);
    out
}

/// HTML5's named character references, by name with its `&` (`&amp;`, `&amp`).
static NAMED: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
    entities::ENTITIES
        .iter()
        .map(|e| (e.entity, e.characters))
        .collect()
});

/// What HTML5 makes of a numeric character reference of a code point below 0xA0 (a
/// Windows-1252 byte, NUL, carriage return).
fn c1_replacement(num: u32) -> Option<char> {
    const HIGH: [char; 32] = [
        '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}',
        '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}',
        '\u{178}',
    ];
    match num {
        0 => Some('\u{fffd}'),
        0x0d => Some('\r'),
        0x80..=0x9f => HIGH.get((num - 0x80) as usize).copied(),
        _ => None,
    }
}

/// Code points a numeric reference removes (`html._invalid_codepoints`): controls, the
/// noncharacters.
fn dropped(num: u32) -> bool {
    matches!(num, 0x1..=0x8 | 0xb | 0xe..=0x1f | 0x7f..=0x9f | 0xfdd0..=0xfdef)
        || num & 0xfffe == 0xfffe
}

/// The text of a numeric reference's digits (`html._replace_charref`).
fn numeric(digits: &str, radix: u32) -> Result<String, Error> {
    if radix == 10 && digits.len() > 4300 {
        return Err(py_error(
            "ValueError",
            format!(
                "Exceeds the limit (4300 digits) for integer string conversion: value has {} \
                 digits; use sys.set_int_max_str_digits() to increase the limit",
                digits.len()
            ),
        ));
    }
    let significant = digits.trim_start_matches('0');
    let num = if significant.len() > 8 {
        None
    } else {
        u32::from_str_radix(
            if significant.is_empty() {
                "0"
            } else {
                significant
            },
            radix,
        )
        .ok()
    };
    let Some(num) = num.filter(|&n| n <= 0x10ffff) else {
        return Ok('\u{fffd}'.to_string());
    };
    if let Some(c) = c1_replacement(num) {
        return Ok(c.to_string());
    }
    if (0xd800..=0xdfff).contains(&num) {
        return Ok('\u{fffd}'.to_string());
    }
    if dropped(num) {
        return Ok(String::new());
    }
    Ok(char::from_u32(num).map(String::from).unwrap_or_default())
}

/// A named reference `s` (up to 32 name characters, maybe a `;`): the longest name of the
/// table it starts with (at least two characters), or itself.
fn named(s: &str) -> String {
    if let Some(text) = NAMED.get(format!("&{s}").as_str()) {
        return (*text).to_string();
    }
    let cuts: Vec<usize> = s.char_indices().map(|(i, _)| i).skip(2).collect();
    for &cut in cuts.iter().rev() {
        if let Some(text) = NAMED.get(format!("&{}", &s[..cut]).as_str()) {
            return format!("{text}{}", &s[cut..]);
        }
    }
    format!("&{s}")
}

/// The length of the reference after an `&` at the start of `rest` (without the `&`), and
/// whether it is numeric with its radix: `#[0-9]+;?`, `#[xX][0-9a-fA-F]+;?`,
/// `[^\t\n\f <&#;]{1,32};?`.
fn reference(rest: &str) -> Option<(usize, Option<u32>)> {
    let semicolon = |end: usize| end + usize::from(rest[end..].starts_with(';'));
    if let Some(after) = rest.strip_prefix('#') {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            return Some((semicolon(1 + digits), Some(10)));
        }
        let hex = after.strip_prefix(['x', 'X'])?;
        let digits = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
        return (digits > 0).then(|| (semicolon(2 + digits), Some(16)));
    }
    let name: usize = rest
        .chars()
        .take_while(|c| !matches!(c, '\t' | '\n' | '\x0c' | ' ' | '<' | '&' | '#' | ';'))
        .take(32)
        .map(char::len_utf8)
        .sum();
    (name > 0).then(|| (semicolon(name), None))
}

/// Python's `html.unescape`.
pub(super) fn unescape(s: &str) -> Result<String, Error> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match reference(after) {
            Some((len, radix)) => {
                let body = &after[..len];
                match radix {
                    Some(radix) => {
                        let skip = if radix == 16 { 2 } else { 1 };
                        out.push_str(&numeric(body[skip..].trim_end_matches(';'), radix)?);
                    }
                    None => out.push_str(&named(body)),
                }
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_as_python() {
        let cases = [
            ("&amp; &lt;b&gt; &copy &copyx &#65; &#x41", "& <b> © ©x A A"),
            (
                "&#0; &#128; &#xD800; &#1114112; &notit; &amp",
                "\u{fffd} € \u{fffd} \u{fffd} ¬it; &",
            ),
            ("&#1; &#x7f;x &#13; &#;&#x; &", " x \r &#;&#x; &"),
            (
                "&NotNestedLessLess; &nosuch; &ampx",
                "\u{2aa1}\u{338} &nosuch; &x",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(unescape(input).ok().as_deref(), Some(want), "{input}");
        }
    }

    #[test]
    fn entity_table_is_consistent() {
        assert_eq!(entities::ENTITIES.len(), 2231);
        for e in &entities::ENTITIES {
            let points: Vec<u32> = match e.codepoints {
                entities::Codepoints::Single(a) => vec![a],
                entities::Codepoints::Double(a, b) => vec![a, b],
            };
            let chars: Vec<u32> = e.characters.chars().map(u32::from).collect();
            assert_eq!(points, chars, "{}", e.entity);
        }
    }

    #[test]
    fn removes_comments_then_tags() {
        assert_eq!(
            remove_between("a<!-- <b> -->c<!--", "<!--", "-->"),
            "ac<!--"
        );
        assert_eq!(remove_between("a<b>c<d", "<", ">"), "ac<d");
    }
}
