//! Python `re` pattern syntax → the `regex` crate's, where both mean the same; an error for
//! what the crate cannot express.

use std::collections::HashMap;
use std::fmt::Write as _;

const S_EXTRA: &str = r"\x1C-\x1F";

pub(super) struct Translated {
    pub(super) text: String,
    pub(super) dollar: bool,
    pub(super) groups: usize,
    pub(super) names: HashMap<String, usize>,
}

fn unsupported(pattern: &str, what: &str) -> String {
    format!("the regular expression '{pattern}' uses {what}, which strata cannot evaluate exactly (Python's re can)")
}

pub(super) fn translate(p: &str) -> Result<Translated, String> {
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

pub(super) fn is_identifier(s: &str) -> bool {
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
pub(super) fn octal(chars: &[char], i: &mut usize, first: char) -> u32 {
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
