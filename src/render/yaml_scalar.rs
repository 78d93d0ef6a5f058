//! How the YAML writer spells scalars: plain when every YAML 1.1 and 1.2 reader takes the text
//! back as the same string, else single- or double-quoted; multi-line strings as literal
//! blocks; floats and integers in the forms PyYAML reads back; indentation from a static
//! buffer. Everything writes into a `String` without building intermediate values.

use crate::load::canon::{plain_ok, printable};
pub use crate::value::float_text;
use crate::value::{base64, push_int, Kind, Node};

pub(super) fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > 0 {
        let k = left.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        left -= k;
    }
}

/// A key as `key_string` writes it, straight into the output (`psych`: see [`push_string`]).
pub(super) fn write_key(out: &mut String, k: &Node, psych: bool) {
    match &k.kind {
        Kind::Str(s) => push_string(out, s, psych),
        Kind::Int(i) => push_int(out, *i),
        _ => out.push_str(&key_string(k)),
    }
}

pub(super) fn key_string(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => scalar_string(s),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => float_text(*f),
        Kind::BigInt(s) => s.to_string(),
        Kind::Timestamp(s) => {
            let mut out = String::new();
            push_timestamp(&mut out, s);
            out
        }
        Kind::Bytes(b) => format!("!!binary {}", base64(b)),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => "null".into(),
    }
}

/// A timestamp's text, tagged `!!timestamp` when a reader would not take it for one
/// (an explicitly tagged `2024-1-1`).
pub(super) fn push_timestamp(out: &mut String, text: &str) {
    if !crate::load::resolve::is_timestamp(text) {
        out.push_str("!!timestamp ");
        push_scalar_string(out, text);
    } else {
        out.push_str(text);
    }
}

/// `!!binary` data as PyYAML writes it: a literal block of base64 in 76-character lines.
pub(super) fn binary_block(bytes: &[u8], indent: usize) -> Block {
    let text = base64(bytes);
    let indent = indent.max(2);
    let mut body = String::with_capacity(text.len() + text.len() / 76 * (indent + 1) + indent + 1);
    for line in text.as_bytes().chunks(76) {
        body.extend(std::iter::repeat_n(' ', indent));
        body.push_str(std::str::from_utf8(line).unwrap_or(""));
        body.push('\n');
    }
    Block { header: "|", body }
}

/// A string on one line: plain when that reads back as the same string, else quoted.
pub fn scalar_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_scalar_string(&mut out, s);
    out
}

pub(super) fn push_scalar_string(out: &mut String, s: &str) {
    push_string(out, s, false)
}

/// A string on one line, plain when every YAML 1.1 and 1.2 reader takes it back as the same
/// string and, with `psych`, Ruby's Psych too (output Puppet reads: `yEs`, `1,000`, `:x`,
/// `0:30` are quoted), else quoted.
pub(super) fn push_string(out: &mut String, s: &str, psych: bool) {
    if plain_ok(s) && (!psych || crate::load::psych::is_plain_str(s)) {
        out.push_str(s);
    } else if s
        .chars()
        .all(|c| printable(c) && c != '\u{2028}' && c != '\u{2029}')
    {
        out.push('\'');
        for (i, part) in s.split('\'').enumerate() {
            if i > 0 {
                out.push_str("''");
            }
            out.push_str(part);
        }
        out.push('\'');
    } else {
        out.push_str(&double_quoted(s));
    }
}

pub(super) fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    out.push('"');
    out
}

pub(super) struct Block {
    pub(super) header: &'static str,
    pub(super) body: String,
}

/// The lines of the literal block a string is written as (`literal_header`), each indented
/// `indent` columns (at least two: content sits two columns in from its parent in our layout),
/// a blank line empty.
pub(super) fn push_literal_body(out: &mut String, s: &str, indent: usize) {
    let indent = indent.max(2);
    // `literal_lines(s)`, split with memchr (the text of a long block is most of its cost).
    let content = s.strip_suffix('\n').unwrap_or(s);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', content.as_bytes()).chain([content.len()]) {
        let line = &content[start..end];
        if !line.is_empty() {
            push_spaces(out, indent);
            out.push_str(line);
        }
        out.push('\n');
        start = end + 1;
    }
}

/// Appends `text` as the text of a comment: on one line, and only characters a YAML reader
/// accepts in a comment. A line break or a character PyYAML's reader refuses (a control
/// character, NEL, U+2028, U+2029, a BOM) is written as an escape (`\n`, `\x01`, `\u2028`),
/// so a comment can neither end early (the rest would be read as data) nor make the output
/// unreadable. A tab stays.
pub(crate) fn push_comment_text(out: &mut String, text: &str) {
    let plain = |b: u8| (b.wrapping_sub(b' ') < 0x5f) | (b == b'\t');
    if text.bytes().fold(true, |all, b| all & plain(b)) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push('\t'),
            c if crate::load::canon::printable(c) && !matches!(c, '\u{2028}' | '\u{2029}') => {
                out.push(c)
            }
            c if (c as u32) < 0x100 => {
                let _ = std::fmt::Write::write_fmt(out, format_args!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x10000 => {
                let _ = std::fmt::Write::write_fmt(out, format_args!("\\u{:04x}", c as u32));
            }
            c => {
                let _ = std::fmt::Write::write_fmt(out, format_args!("\\U{:08x}", c as u32));
            }
        }
    }
}
