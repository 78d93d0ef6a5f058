//! Python's `re` as Deckhand uses it: `re.search(pattern, value)` for `src.pattern` and
//! `re.sub(pattern, str(value), text)` for `dest.pattern`. A Python pattern is translated to
//! the `regex` crate's syntax where both mean the same (`\Z` → `\z`, `{,n}` → `{0,n}`, a `{`
//! that is no quantifier → a literal, `[` inside a class → a literal, `\s` with Python's four
//! extra separators); what the crate cannot express (lookaround, backreferences, conditionals,
//! verbose mode) is a clear error. `sub` follows Python 3.7+: an empty match right after a
//! non-empty one counts, and the replacement is a template (`\1`, `\g<name>`, `\n`; `\d` and
//! a trailing `\` are errors) parsed before any search, as Python parses it.

use regex::{Captures, Regex};
use std::collections::HashMap;
use std::fmt::Write as _;

/// A compiled Python pattern.
#[derive(Debug)]
pub struct PyRegex {
    re: Regex,
    /// Some `$` outside multi-line mode: Python's also matches before a final line break.
    dollar: bool,
    groups: usize,
    names: HashMap<String, usize>,
}

const S_EXTRA: &str = r"\x1C-\x1F";

/// Translates and compiles a Python pattern.
pub fn compile(pattern: &str) -> Result<PyRegex, String> {
    let t = translate(pattern)?;
    let re = Regex::new(&t.text).map_err(|e| {
        let first = e.to_string();
        let last = first.lines().last().unwrap_or("").trim().to_string();
        format!("the regular expression '{pattern}' is not valid: {last}")
    })?;
    Ok(PyRegex {
        re,
        dollar: t.dollar,
        groups: t.groups,
        names: t.names,
    })
}

struct Translated {
    text: String,
    dollar: bool,
    groups: usize,
    names: HashMap<String, usize>,
}

fn unsupported(pattern: &str, what: &str) -> String {
    format!("the regular expression '{pattern}' uses {what}, which strata cannot evaluate exactly (Python's re can)")
}

fn translate(p: &str) -> Result<Translated, String> {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 8);
    let mut t = Translated {
        text: String::new(),
        dollar: false,
        groups: 0,
        names: HashMap::new(),
    };
    // Multi-line mode per open group; the last entry is the current state.
    let mut multiline = vec![false];
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => {
                i += 1;
                let e = chars.get(i).copied().ok_or("bad escape (end of pattern)")?;
                i += 1;
                match e {
                    'A' => out.push_str(r"\A"),
                    'Z' => out.push_str(r"\z"),
                    'b' | 'B' | 'd' | 'D' | 'w' | 'W' => {
                        out.push('\\');
                        out.push(e);
                    }
                    's' => {
                        let _ = write!(out, r"[\s{S_EXTRA}]");
                    }
                    'S' => {
                        let _ = write!(out, r"[^\s{S_EXTRA}]");
                    }
                    _ => i = escape_literal(&chars, i, e, &mut out, p, false)?,
                }
            }
            '(' => {
                i += 1;
                if chars.get(i) != Some(&'?') {
                    t.groups += 1;
                    out.push('(');
                    let m = *multiline.last().unwrap_or(&false);
                    multiline.push(m);
                    continue;
                }
                i += 1;
                match chars.get(i) {
                    Some(':') => {
                        i += 1;
                        out.push_str("(?:");
                        let m = *multiline.last().unwrap_or(&false);
                        multiline.push(m);
                    }
                    Some('P') if chars.get(i + 1) == Some(&'<') => {
                        let start = i + 2;
                        let end = (start..chars.len())
                            .find(|&j| chars.get(j) == Some(&'>'))
                            .ok_or("missing >, unterminated name")?;
                        let name: String = chars[start..end].iter().collect();
                        if !is_identifier(&name) {
                            return Err(format!("bad character in group name '{name}'"));
                        }
                        t.groups += 1;
                        if t.names.insert(name.clone(), t.groups).is_some() {
                            return Err(format!("redefinition of group name '{name}'"));
                        }
                        let _ = write!(out, "(?P<{name}>");
                        let m = *multiline.last().unwrap_or(&false);
                        multiline.push(m);
                        i = end + 1;
                    }
                    Some('#') => {
                        let end = (i..chars.len())
                            .find(|&j| chars.get(j) == Some(&')'))
                            .ok_or("missing ), unterminated comment")?;
                        i = end + 1;
                    }
                    Some('P') => return Err(unsupported(p, "a backreference (?P=name)")),
                    Some('=' | '!') => return Err(unsupported(p, "a lookahead assertion")),
                    Some('<') => return Err(unsupported(p, "a lookbehind assertion")),
                    Some('>') => return Err(unsupported(p, "an atomic group")),
                    Some('(') => return Err(unsupported(p, "a conditional group")),
                    _ => {
                        // Inline flags: (?imsx) at the start, or (?flags:...) / (?-flags:...).
                        let start = i;
                        while chars.get(i).is_some_and(|c| "aiLmsux-".contains(*c)) {
                            i += 1;
                        }
                        let flags: String = chars[start..i].iter().collect();
                        let (on, off) = flags.split_once('-').unwrap_or((&flags, ""));
                        if flags.contains('x') {
                            return Err(unsupported(p, "verbose mode (x)"));
                        }
                        if flags.contains('a') || flags.contains('L') {
                            return Err(unsupported(p, "ASCII or locale mode (a, L)"));
                        }
                        let keep: String = flags.chars().filter(|c| *c != 'u').collect();
                        match chars.get(i) {
                            Some(')') if start == 2 && off.is_empty() && !flags.is_empty() => {
                                // A global flag group at the start of the pattern.
                                i += 1;
                                if on.contains('m') {
                                    if let Some(m) = multiline.last_mut() {
                                        *m = true;
                                    }
                                }
                                if !keep.is_empty() {
                                    let _ = write!(out, "(?{keep})");
                                }
                            }
                            Some(')') => {
                                return Err(format!(
                                    "global flags not at the start of the expression in '{p}'"
                                ))
                            }
                            Some(':') if !flags.is_empty() => {
                                i += 1;
                                let cur = *multiline.last().unwrap_or(&false);
                                let m = if on.contains('m') {
                                    true
                                } else if off.contains('m') {
                                    false
                                } else {
                                    cur
                                };
                                multiline.push(m);
                                if keep.is_empty() || keep == "-" {
                                    out.push_str("(?:");
                                } else {
                                    let _ = write!(out, "(?{keep}:");
                                }
                            }
                            _ => return Err(format!("unknown extension in '{p}'")),
                        }
                    }
                }
            }
            ')' => {
                i += 1;
                if multiline.len() > 1 {
                    multiline.pop();
                }
                out.push(')');
            }
            '[' => i = class(&chars, i + 1, &mut out, p)?,
            '{' => {
                i += 1;
                let mut j = i;
                let lo: String = take_digits(&chars, &mut j);
                let (hi, comma) = if chars.get(j) == Some(&',') {
                    j += 1;
                    (take_digits(&chars, &mut j), true)
                } else {
                    (lo.clone(), false)
                };
                if chars.get(i) != Some(&'}') && chars.get(j) == Some(&'}') {
                    let lo = if lo.is_empty() { "0".to_string() } else { lo };
                    if comma {
                        let _ = write!(out, "{{{lo},{hi}}}");
                    } else {
                        let _ = write!(out, "{{{lo}}}");
                    }
                    i = j + 1;
                } else {
                    out.push_str(r"\{");
                }
            }
            '}' => {
                i += 1;
                out.push_str(r"\}");
            }
            '$' => {
                i += 1;
                if !*multiline.last().unwrap_or(&false) {
                    t.dollar = true;
                }
                out.push('$');
            }
            '#' | '&' | '~' | '-' => {
                i += 1;
                let _ = write!(out, r"\x{{{:X}}}", c as u32);
            }
            c => {
                i += 1;
                out.push(c);
            }
        }
    }
    t.text = out;
    Ok(t)
}

fn take_digits(chars: &[char], j: &mut usize) -> String {
    let mut s = String::new();
    while let Some(c) = chars.get(*j).filter(|c| c.is_ascii_digit()) {
        s.push(*c);
        *j += 1;
    }
    s
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && cs.all(|c| c == '_' || c.is_alphanumeric())
}

/// An escape that stands for one character (or is an error); `e` is the character after `\`.
/// Returns the index after the escape.
fn escape_literal(
    chars: &[char],
    mut i: usize,
    e: char,
    out: &mut String,
    p: &str,
    in_class: bool,
) -> Result<usize, String> {
    let hex = |i: &mut usize, n: usize| -> Result<u32, String> {
        let s: String = chars
            .get(*i..*i + n)
            .map(|c| c.iter().collect())
            .unwrap_or_default();
        if s.len() != n || !s.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("incomplete escape \\{e}{s}"));
        }
        *i += n;
        u32::from_str_radix(&s, 16).map_err(|e| e.to_string())
    };
    let cp = match e {
        'a' => 7,
        'f' => 0x0C,
        'n' => 0x0A,
        'r' => 0x0D,
        't' => 0x09,
        'v' => 0x0B,
        'b' if in_class => 0x08,
        'x' => hex(&mut i, 2)?,
        'u' => hex(&mut i, 4)?,
        'U' => {
            let v = hex(&mut i, 8)?;
            if char::from_u32(v).is_none() {
                return Err(format!("bad escape \\U{v:08x}"));
            }
            v
        }
        '0' => octal(chars, &mut i, '0'),
        '1'..='7' if in_class => octal(chars, &mut i, e),
        '8' | '9' if in_class => return Err(format!("bad escape \\{e}")),
        '1'..='9' => {
            // Three octal digits are a character; anything else is a backreference.
            let octal3 = e <= '7'
                && chars.get(i).is_some_and(|c| ('0'..='7').contains(c))
                && chars.get(i + 1).is_some_and(|c| ('0'..='7').contains(c));
            if !octal3 {
                return Err(unsupported(p, "a backreference"));
            }
            octal(chars, &mut i, e)
        }
        'N' => return Err(unsupported(p, r"a named character \N{...}")),
        c if c.is_ascii_alphanumeric() => return Err(format!("bad escape \\{c}")),
        c => c as u32,
    };
    if cp > 0x10FFFF || (0xD800..0xE000).contains(&cp) {
        return Err(format!(
            "the escape in '{p}' is no character strata can match"
        ));
    }
    let _ = write!(out, r"\x{{{cp:X}}}");
    Ok(i)
}

/// `\ooo`: up to three octal digits, the first already read.
fn octal(chars: &[char], i: &mut usize, first: char) -> u32 {
    let mut v = first.to_digit(8).unwrap_or(0);
    for _ in 0..2 {
        match chars.get(*i).and_then(|c| c.to_digit(8)) {
            Some(d) => {
                v = v * 8 + d;
                *i += 1;
            }
            None => break,
        }
    }
    v
}

/// A character class from just after `[`; returns the index after its `]`.
fn class(chars: &[char], mut i: usize, out: &mut String, p: &str) -> Result<usize, String> {
    out.push('[');
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    let first = i;
    loop {
        let c = *chars
            .get(i)
            .ok_or_else(|| format!("unterminated character set in '{p}'"))?;
        match c {
            ']' if i > first => {
                out.push(']');
                return Ok(i + 1);
            }
            '\\' => {
                let e = *chars.get(i + 1).ok_or("bad escape (end of pattern)")?;
                i += 2;
                match e {
                    'd' | 'D' | 'w' | 'W' => {
                        out.push('\\');
                        out.push(e);
                    }
                    's' => {
                        let _ = write!(out, r"\s{S_EXTRA}");
                    }
                    'S' => {
                        let _ = write!(out, r"[^\s{S_EXTRA}]");
                    }
                    'A' | 'Z' | 'B' => return Err(format!("bad escape \\{e}")),
                    _ => i = escape_literal(chars, i, e, out, p, true)?,
                }
            }
            '-' => {
                // A range when something precedes it in the class and `]` does not follow.
                let range = i > first && chars.get(i + 1).is_some_and(|n| *n != ']');
                if range {
                    out.push('-');
                } else {
                    out.push_str(r"\-");
                }
                i += 1;
            }
            '[' | '&' | '~' | ']' | '^' => {
                let _ = write!(out, r"\x{{{:X}}}", c as u32);
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
}

/// One piece of a replacement template.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Group(usize),
}

impl PyRegex {
    fn check_dollar(&self, s: &str) -> Result<(), String> {
        if self.dollar && s.ends_with('\n') {
            return Err("the pattern has a '$', which in Python also matches before the text's final line break; strata cannot evaluate that exactly (use \\Z, or drop the final line break)".into());
        }
        Ok(())
    }

    /// `re.search(pattern, s)`.
    pub fn search<'h>(&self, s: &'h str) -> Result<Option<Captures<'h>>, String> {
        self.check_dollar(s)?;
        Ok(self.re.captures(s))
    }

    /// A group of a match by Python's `match.group(g)`: an index or a name.
    pub fn group<'h>(&self, caps: &Captures<'h>, g: &GroupRef) -> Result<Option<&'h str>, String> {
        let index = match g {
            GroupRef::Index(i) => usize::try_from(*i)
                .ok()
                .filter(|i| *i <= self.groups)
                .ok_or("no such group")?,
            GroupRef::Name(n) => *self.names.get(n).ok_or("no such group")?,
        };
        Ok(caps.get(index).map(|m| m.as_str()))
    }

    /// `re.sub(pattern, template, s)` with Python 3.7+ semantics.
    pub fn sub(&self, template: &str, s: &str) -> Result<String, String> {
        let pieces = self.template(template)?;
        self.check_dollar(s)?;
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        let mut pos = 0;
        let mut empty_at: Option<usize> = None;
        while pos <= s.len() {
            let Some(caps) = self.re.captures_at(s, pos) else {
                break;
            };
            let Some(m) = caps.get(0) else { break };
            if m.is_empty() && empty_at == Some(m.start()) {
                // No second empty match at the same place: look from the next character.
                match s[pos..].chars().next() {
                    Some(c) => {
                        pos += c.len_utf8();
                        continue;
                    }
                    None => break,
                }
            }
            out.push_str(&s[last..m.start()]);
            for piece in &pieces {
                match piece {
                    Piece::Text(t) => out.push_str(t),
                    Piece::Group(g) => out.push_str(caps.get(*g).map_or("", |x| x.as_str())),
                }
            }
            last = m.end();
            empty_at = m.is_empty().then_some(m.end());
            pos = m.end();
        }
        out.push_str(&s[last..]);
        Ok(out)
    }

    /// Python's `parse_template`: the replacement text with its escapes and group references.
    fn template(&self, t: &str) -> Result<Vec<Piece>, String> {
        if !t.contains('\\') {
            return Ok(vec![Piece::Text(t.to_string())]);
        }
        let chars: Vec<char> = t.chars().collect();
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut i = 0;
        let group = |pieces: &mut Vec<Piece>, text: &mut String, g: usize| -> Result<(), String> {
            if g > self.groups {
                return Err(format!("invalid group reference {g}"));
            }
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(text)));
            }
            pieces.push(Piece::Group(g));
            Ok(())
        };
        while let Some(&c) = chars.get(i) {
            i += 1;
            if c != '\\' {
                text.push(c);
                continue;
            }
            let e = *chars.get(i).ok_or("bad escape (end of pattern)")?;
            i += 1;
            match e {
                'g' => {
                    if chars.get(i) != Some(&'<') {
                        return Err("missing <".into());
                    }
                    let start = i + 1;
                    let end = (start..chars.len())
                        .find(|&j| chars.get(j) == Some(&'>'))
                        .ok_or("missing >, unterminated name")?;
                    let name: String = chars[start..end].iter().collect();
                    i = end + 1;
                    let g = if is_identifier(&name) {
                        *self
                            .names
                            .get(&name)
                            .ok_or_else(|| format!("unknown group name '{name}'"))?
                    } else {
                        name.parse::<usize>()
                            .ok()
                            .filter(|_| name.bytes().all(|b| b.is_ascii_digit()))
                            .ok_or_else(|| format!("bad character in group name '{name}'"))?
                    };
                    group(&mut pieces, &mut text, g)?;
                }
                '0' => {
                    let v = octal(&chars, &mut i, '0') & 0xff;
                    text.push(char::from_u32(v).unwrap_or('\0'));
                }
                '1'..='9' => {
                    let mut g = e.to_digit(10).unwrap_or(0) as usize;
                    if let Some(n) = chars.get(i).and_then(|c| c.to_digit(10)) {
                        let third = chars.get(i + 1).and_then(|c| c.to_digit(8));
                        if let (true, true, Some(t)) = (e <= '7', n <= 7, third) {
                            let v = e.to_digit(8).unwrap_or(0) * 64 + n * 8 + t;
                            if v > 0o377 {
                                return Err(format!(
                                    "octal escape value \\{e}{n}{t} outside of range 0-0o377"
                                ));
                            }
                            text.push(char::from_u32(v).unwrap_or('\0'));
                            i += 2;
                            continue;
                        }
                        g = g * 10 + n as usize;
                        i += 1;
                    }
                    group(&mut pieces, &mut text, g)?;
                }
                'a' => text.push('\x07'),
                'b' => text.push('\x08'),
                'f' => text.push('\x0C'),
                'n' => text.push('\n'),
                'r' => text.push('\r'),
                't' => text.push('\t'),
                'v' => text.push('\x0B'),
                '\\' => text.push('\\'),
                c if c.is_ascii_alphabetic() => return Err(format!("bad escape \\{c}")),
                c => {
                    text.push('\\');
                    text.push(c);
                }
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(pieces)
    }
}

/// A `match_group`: Python's `match.group()` takes an index or a group name.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupRef {
    Index(i64),
    Name(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(p: &str, t: &str, s: &str) -> Result<String, String> {
        compile(p)?.sub(t, s)
    }

    #[test]
    fn sub_follows_python() {
        assert_eq!(sub("x*", "-", "abxd").unwrap(), "-a-b--d-");
        assert_eq!(sub("a", r"\g<0>\g<0>", "bab").unwrap(), "baab");
        assert_eq!(sub("(a)|(b)", r"[\2]", "ab").unwrap(), "[][b]");
        assert_eq!(sub("a", r"\.", "a").unwrap(), r"\.");
        assert_eq!(sub("a", r"\101", "a").unwrap(), "A");
        assert_eq!(sub("a", r"\0", "a").unwrap(), "\0");
        assert_eq!(sub("a{", "X", "a{").unwrap(), "X");
        assert_eq!(sub("a{,2}", "X", "aaa").unwrap(), "XXX");
        assert_eq!(sub("[a-]", "X", "-").unwrap(), "X");
        assert_eq!(
            sub(
                "INSERT_[A-Z]+_HERE",
                "pw",
                "http://u:INSERT_PASSWORD_HERE@h"
            )
            .unwrap(),
            "http://u:pw@h"
        );
        assert_eq!(sub(r"\s", "_", "a\u{1c}b c").unwrap(), "a_b_c");
        assert_eq!(sub("[[]", "X", "[").unwrap(), "X");
        assert_eq!(sub("a$", "X", "ba").unwrap(), "bX");
        assert_eq!(sub("(?i)abc", "X", "ABC").unwrap(), "X");
        for (p, t) in [
            ("a", "\\"),
            ("a", r"\d"),
            ("(a)", r"\10"),
            ("a", r"\g<1>"),
            ("a", r"C:\path"),
        ] {
            assert!(sub(p, t, "a").is_err(), "{p} {t}");
        }
        for p in [r"(a)\1", "(?=a)", "(?<=a)b", "a(?i)", "(?x)a"] {
            assert!(compile(p).is_err(), "{p}");
        }
        assert!(
            sub("a$", "X", "a\n").is_err(),
            "Python's $ before a final newline"
        );
    }

    #[test]
    fn search_and_groups() {
        let re = compile(r"(?P<repo>[^:]+):(?P<tag>.*)").unwrap();
        let caps = re.search("quay.io/x:1.2").unwrap().unwrap();
        assert_eq!(
            re.group(&caps, &GroupRef::Name("tag".into())).unwrap(),
            Some("1.2")
        );
        assert_eq!(
            re.group(&caps, &GroupRef::Index(1)).unwrap(),
            Some("quay.io/x")
        );
        assert!(re.group(&caps, &GroupRef::Index(3)).is_err());
    }
}
