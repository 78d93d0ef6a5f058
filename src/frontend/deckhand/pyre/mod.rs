//! Python's `re` as Deckhand uses it: `re.search(pattern, value)` for `src.pattern` and
//! `re.sub(pattern, str(value), text)` for `dest.pattern`. A Python pattern is translated to
//! the `regex` crate's syntax where both mean the same (`\Z` → `\z`, `{,n}` → `{0,n}`, a `{`
//! that is no quantifier → a literal, `[` inside a class → a literal, `\s` with Python's four
//! extra separators); what the crate cannot express (lookaround, backreferences, conditionals,
//! verbose mode) is a clear error. `sub` follows Python 3.7+: an empty match right after a
//! non-empty one counts, and the replacement is a template (`\1`, `\g<name>`, `\n`; `\d` and
//! a trailing `\` are errors) parsed before any search, as Python parses it.

mod translate;

use regex::{Captures, Regex};
use std::collections::HashMap;
use translate::{is_identifier, octal, translate};

/// A compiled Python pattern.
#[derive(Debug)]
pub(crate) struct PyRegex {
    re: Regex,
    /// Some `$` outside multi-line mode: Python's also matches before a final line break.
    dollar: bool,
    groups: usize,
    names: HashMap<String, usize>,
}

/// How many compiled patterns a thread keeps (Python's `re` keeps 512 as well).
const CACHE: usize = 512;

/// Translates and compiles a Python pattern, or returns it from the thread's cache: a site
/// repeats the same few patterns over thousands of substitutions (compiling was 2 % of a
/// 10 000-document render).
pub(crate) fn compile(pattern: &str) -> Result<std::rc::Rc<PyRegex>, String> {
    thread_local! {
        static SEEN: std::cell::RefCell<rustc_hash::FxHashMap<String, std::rc::Rc<PyRegex>>> =
            std::cell::RefCell::default();
    }
    if let Some(re) = SEEN.with(|s| s.borrow().get(pattern).cloned()) {
        return Ok(re);
    }
    let re = std::rc::Rc::new(compile_new(pattern)?);
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() >= CACHE {
            s.clear();
        }
        s.insert(pattern.to_string(), re.clone());
    });
    Ok(re)
}

fn compile_new(pattern: &str) -> Result<PyRegex, String> {
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
    pub(crate) fn search<'h>(&self, s: &'h str) -> Result<Option<Captures<'h>>, String> {
        self.check_dollar(s)?;
        Ok(self.re.captures(s))
    }

    /// A group of a match by Python's `match.group(g)`: an index or a name.
    pub(crate) fn group<'h>(
        &self,
        caps: &Captures<'h>,
        g: &GroupRef,
    ) -> Result<Option<&'h str>, String> {
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
    pub(crate) fn sub(&self, template: &str, s: &str) -> Result<String, String> {
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
pub(crate) enum GroupRef {
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
