//! The spellings the YAML writer uses when it writes a value afresh: which strings may be
//! written plain (every YAML 1.1 and 1.2 reader takes them back as the same string) and how a
//! float is written. Shared by the writer (`render::yaml`) and the loader, which records a
//! scalar's own spelling only when it differs from these (`yaml/record.rs`). Also the one
//! rule for where a kept plain spelling may stand in the output ([`plain_fits`]).

use super::resolve::is_ambiguous;
use super::yaml::is_indicator;

pub(crate) use crate::value::float_text;

/// The header of the literal block the writer writes a multi-line string as (`|`, `|-`, `|+`,
/// with the indentation indicator `2` when the text starts with a space), or `None` when it
/// writes the string otherwise (one line, a first line break, a character a block cannot hold).
pub(crate) fn literal_header(s: &str) -> Option<&'static str> {
    let b = s.as_bytes();
    if b.first() == Some(&b'\n') || memchr::memchr(b'\n', b).is_none() {
        return None;
    }
    // Printable ASCII, tabs and line breaks (the common case) checked bytewise first, a block
    // at a time without a branch per byte.
    let ok = |x: u8| (x.wrapping_sub(b' ') < 0x5f) | (x == b'\n') | (x == b'\t');
    let ascii = b
        .chunks(64)
        .all(|c| c.iter().fold(true, |all, &x| all & ok(x)));
    if !ascii
        && !s
            .chars()
            .all(|c| c == '\n' || c == '\t' || (printable(c) && c != '\u{2028}' && c != '\u{2029}'))
    {
        return None;
    }
    let trailing = b.iter().rev().take_while(|&&x| x == b'\n').count();
    Some(match (b[0] == b' ', trailing) {
        (false, 0) => "|-",
        (false, 1) => "|",
        (false, _) => "|+",
        (true, 0) => "|2-",
        (true, 1) => "|2",
        (true, _) => "|2+",
    })
}

/// Where the writer puts a scalar in its block output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A mapping key, followed by `:`.
    Key,
    /// After `key: ` or `- `, the rest of the line.
    Value,
    /// A whole document, alone at the start of its line.
    Document,
}

/// Whether the text of a plain scalar as it was written — in flow or block context, as a key
/// or a value — is read as that same one plain scalar when written at `slot` in the block
/// output (docs/comments.md, "Spelling"). Its value under the output's rules is the loader's
/// concern (`yaml/record.rs` keeps a plain spelling only when it reads back as its value);
/// this is the syntax, which changes with the place: `-`, `?` and `:` start a plain scalar in
/// block context only before a character that is not blank (`[-]` holds the string `-`, `-`
/// at the start of a block value is a sequence entry); a text ending in `:` is a key's text
/// (`a:: 1` has the key `a:`) that, as a value, would read as a mapping; a document's line
/// must not start with a document marker.
pub(crate) fn plain_fits(text: &str, slot: Slot) -> bool {
    let b = text.as_bytes();
    let Some(&first) = b.first() else {
        // An empty value (`key:`) is null; an empty key or document is written afresh.
        return slot == Slot::Value;
    };
    let blank_after = matches!(b.get(1), None | Some(b' ' | b'\t'));
    if matches!(first, b'-' | b'?' | b':') && blank_after {
        return false;
    }
    if is_indicator(first) && !matches!(first, b'-' | b'?' | b':') {
        return false;
    }
    match slot {
        Slot::Key => true,
        Slot::Value => last_not_colon(b),
        Slot::Document => {
            last_not_colon(b)
                && !((b.starts_with(b"---") || b.starts_with(b"..."))
                    && matches!(b.get(3), None | Some(b' ' | b'\t')))
        }
    }
}

fn last_not_colon(b: &[u8]) -> bool {
    b.last() != Some(&b':')
}

pub(crate) fn printable(c: char) -> bool {
    let cp = c as u32;
    (0x20..=0x7e).contains(&cp)
        || (0xa0..=0xd7ff).contains(&cp)
        || ((0xe000..=0xfffd).contains(&cp) && cp != 0xfeff)
        || cp >= 0x10000
}

/// `plain_ok` for the common case, in one pass over the bytes: printable ASCII, a first
/// character that starts no YAML indicator, no `: `, ` #`, `:\t`, and no surrounding spaces.
/// `None` when the string needs the full check (non-ASCII, control characters).
pub(crate) fn plain_ok_ascii(s: &str) -> Option<bool> {
    let b = s.as_bytes();
    let (&first, &last) = (b.first()?, b.last()?);
    let indicator = is_indicator(first) || first == b' ';
    if indicator || last == b' ' || last == b':' {
        return Some(false);
    }
    // Without a branch per byte (a block of bytes in a few vector instructions). A `: ` or
    // ` #` before a control character answers `false` where a loop stopping at the first
    // would; `None` here leads `plain_ok` to the same answer.
    if !b
        .iter()
        .fold(true, |all, &c| all & (c.wrapping_sub(0x20) < 0x5f))
    {
        return None;
    }
    let pair = |(&x, &y): (&u8, &u8)| ((x == b':') & (y == b' ')) | ((x == b' ') & (y == b'#'));
    if b.iter().zip(&b[1..]).fold(false, |any, xy| any | pair(xy)) {
        return Some(false);
    }
    Some(!s.starts_with("...") && !is_ambiguous(s))
}

pub(crate) fn plain_ok(s: &str) -> bool {
    if let Some(ok) = plain_ok_ascii(s) {
        return ok;
    }
    let Some(first) = s.chars().next() else {
        return false;
    };
    let last = s.chars().next_back().unwrap_or(first);
    if is_ambiguous(s)
        || "-?:,[]{}#&*!|>'\"%@`".contains(first)
        || first.is_whitespace()
        || last.is_whitespace()
        || last == ':'
        || s.starts_with("...")
        || s.contains(": ")
        || s.contains(" #")
        || s.contains(":\t")
    {
        return false;
    }
    s.chars()
        .all(|c| printable(c) && c != '\u{2028}' && c != '\u{2029}' && c != '\u{85}')
}

#[cfg(test)]
mod tests {
    use super::plain_ok_ascii;

    /// The rule one byte at a time, stopping at the first byte that decides.
    fn by_bytes(s: &str) -> Option<bool> {
        let b = s.as_bytes();
        let (&first, &last) = (b.first()?, b.last()?);
        if b"-?:,[]{}#&*!|>'\"%@` ".contains(&first) || last == b' ' || last == b':' {
            return Some(false);
        }
        let mut prev = 0u8;
        for &c in b {
            if !(0x20..0x7f).contains(&c) {
                return None;
            }
            if (prev == b':' && c == b' ') || (prev == b' ' && c == b'#') {
                return Some(false);
            }
            prev = c;
        }
        Some(!s.starts_with("...") && !super::is_ambiguous(s))
    }

    #[test]
    fn the_block_check_answers_as_the_byte_loop() {
        let alphabet = ["a", ":", " ", "#", "-", ".", "1", "\t", "\u{1}", "é", "~"];
        let mut words = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = words
                .iter()
                .flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}")))
                .collect();
            words.extend(longer);
        }
        words.sort();
        words.dedup();
        for w in &words {
            for s in [
                w.clone(),
                format!("x{w}y"),
                format!("{}{w}", "b".repeat(40)),
            ] {
                match (plain_ok_ascii(&s), by_bytes(&s)) {
                    (Some(a), Some(b)) => assert_eq!(a, b, "{s:?}"),
                    // A pair before a control character: `false` one way, the full check
                    // (which refuses the pair) the other.
                    (None, Some(false)) => assert!(!super::plain_ok(&s), "{s:?}"),
                    (None, None) => {}
                    (a, b) => panic!("{s:?}: {a:?} against {b:?}"),
                }
            }
        }
    }
}
