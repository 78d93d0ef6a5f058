//! The template source rewritten where Jinja2's Python semantics need a helper minijinja
//! cannot be hooked into: a list literal becomes `__py_list([...])` (a mutable list,
//! `pylist`), and `"fmt" % args` (a string literal on the left) becomes
//! `__py_mod("fmt" , args)` (Python's printf formatting, `printf`). The right operand is
//! found as Jinja2's parser finds it (`parse_pow`: a unary expression with its attributes,
//! items, calls and filters, then `**`); anything else (`is` tests there, a `%` whose left
//! side is not a string literal) is left as it was written. Only insertions, and `%` made
//! `,` in place, so positions map back by the insertions alone. It also names the lookups
//! (`a.b`, `a["b"]`) that Jinja2 turns into text where they stand — an operand of `~`, the
//! right side of a rewritten `%` or an item of its tuple, the value of a text filter
//! (`upper`, `lower`, `capitalize`, `title`, `trim`, `replace`, `string`, `center`,
//! `wordcount`, `escape`, `forceescape`, `striptags`, `urlize`) — which `jinja.rs`
//! wraps so that an undefined one prints cloud-init's marker, as `str()` of Jinja2's
//! undefined does.

use minijinja::machinery::{Span, Token};

type Tokens<'a> = [(Token<'a>, Span)];

/// Text inserted at byte offsets, and the offsets of `%` signs to write as `,`.
#[derive(Default)]
pub(super) struct Edits {
    pub inserts: Vec<(usize, &'static str)>,
    pub commas: Vec<usize>,
    /// Token ranges `[a, b)` of lookups printed as text where they stand, and whether Jinja2
    /// takes their `str()` there (`~`, a text filter) rather than the value (`%`).
    pub paths: Vec<(usize, usize, bool)>,
}

const KEYWORDS: &[&str] = &[
    "in",
    "and",
    "or",
    "not",
    "if",
    "else",
    "elif",
    "is",
    "do",
    "return",
    "true",
    "false",
    "none",
    "True",
    "False",
    "None",
    "for",
    "set",
    "recursive",
];

/// Filters Jinja2 applies to `str()` of their value.
const TEXT_FILTERS: &[&str] = &[
    "upper",
    "lower",
    "capitalize",
    "title",
    "trim",
    "replace",
    "string",
    "center",
    "wordcount",
    "escape",
    "e",
    "forceescape",
    "striptags",
    "urlize",
];

/// The end of a lookup `name(.attr | .0 | ["key"] | [0])*` starting at `i`.
fn bare_path(t: &Tokens<'_>, i: usize) -> Option<usize> {
    match t.get(i)?.0 {
        Token::Ident(n) if !KEYWORDS.contains(&n) => {}
        _ => return None,
    }
    let mut i = i + 1;
    loop {
        match (
            t.get(i).map(|x| &x.0),
            t.get(i + 1).map(|x| &x.0),
            t.get(i + 2).map(|x| &x.0),
        ) {
            (Some(Token::Dot), Some(Token::Ident(_) | Token::Int(_)), _) => i += 2,
            (
                Some(Token::BracketOpen),
                Some(Token::Str(_) | Token::String(_) | Token::Int(_)),
                Some(Token::BracketClose),
            ) => i += 3,
            _ => return Some(i),
        }
    }
}

/// A token that ends a `~` operand on its right (nothing binding tighter follows).
fn ends_operand(t: Option<&Token<'_>>) -> bool {
    match t {
        Some(Token::Ident(w)) => matches!(*w, "if" | "else" | "and" | "or" | "in" | "not"),
        Some(tok) => matches!(
            tok,
            Token::Tilde
                | Token::VariableEnd
                | Token::BlockEnd
                | Token::ParenClose
                | Token::Comma
                | Token::BracketClose
                | Token::BraceClose
                | Token::Eq
                | Token::Ne
                | Token::Lt
                | Token::Lte
                | Token::Gt
                | Token::Gte
        ),
        None => false,
    }
}

/// A token that starts a `~` operand on its left (nothing binding tighter precedes).
fn starts_operand(t: Option<&Token<'_>>) -> bool {
    match t {
        Some(Token::Ident(w)) => KEYWORDS.contains(w) && !matches!(*w, "is"),
        Some(tok) => matches!(
            tok,
            Token::Tilde
                | Token::VariableStart
                | Token::Assign
                | Token::ParenOpen
                | Token::Comma
                | Token::BracketOpen
                | Token::BraceOpen
                | Token::Colon
                | Token::Eq
                | Token::Ne
                | Token::Lt
                | Token::Lte
                | Token::Gt
                | Token::Gte
        ),
        None => false,
    }
}

fn start(t: &Tokens<'_>, i: usize) -> usize {
    t[i].1.start_offset as usize
}

fn end(t: &Tokens<'_>, i: usize) -> usize {
    t[i].1.end_offset as usize
}

/// The index of the bracket closing the one at `i`.
fn closing(t: &Tokens<'_>, i: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, (tok, _)) in t.iter().enumerate().skip(i) {
        match tok {
            Token::ParenOpen | Token::BracketOpen | Token::BraceOpen => depth += 1,
            Token::ParenClose | Token::BracketClose | Token::BraceClose => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            Token::VariableEnd | Token::BlockEnd => return None,
            _ => {}
        }
    }
    None
}

/// A `[` that starts a list literal, not an item lookup.
fn is_literal(t: &Tokens<'_>, i: usize) -> bool {
    let Some(prev) = i.checked_sub(1).map(|p| &t[p].0) else {
        return true;
    };
    match prev {
        Token::Ident(w) => matches!(
            *w,
            "in" | "and" | "or" | "not" | "if" | "else" | "elif" | "is" | "do" | "return"
        ),
        Token::BracketClose
        | Token::ParenClose
        | Token::BraceClose
        | Token::Str(_)
        | Token::String(_)
        | Token::Int(_)
        | Token::Int128(_)
        | Token::Float(_) => false,
        _ => true,
    }
}

/// Jinja2's `parse_unary` from `i`: the index after it.
fn unary(t: &Tokens<'_>, mut i: usize) -> Option<usize> {
    while matches!(t.get(i)?.0, Token::Minus | Token::Plus) {
        i += 1;
    }
    i = match t.get(i)?.0 {
        Token::Str(_) | Token::String(_) => {
            let mut j = i + 1;
            while matches!(
                t.get(j).map(|x| &x.0),
                Some(Token::Str(_) | Token::String(_))
            ) {
                j += 1;
            }
            j
        }
        Token::Int(_) | Token::Int128(_) | Token::Float(_) => i + 1,
        Token::Ident(w) if !matches!(w, "not" | "in" | "is" | "and" | "or" | "if" | "else") => {
            i + 1
        }
        Token::ParenOpen | Token::BracketOpen | Token::BraceOpen => closing(t, i)? + 1,
        _ => return None,
    };
    loop {
        match t.get(i)?.0 {
            Token::Dot => match t.get(i + 1)?.0 {
                Token::Ident(_) | Token::Int(_) => i += 2,
                _ => return None,
            },
            Token::BracketOpen | Token::ParenOpen => i = closing(t, i)? + 1,
            Token::Pipe => {
                i += 1;
                if !matches!(t.get(i)?.0, Token::Ident(_)) {
                    return None;
                }
                i += 1;
                while matches!(t.get(i)?.0, Token::Dot)
                    && matches!(t.get(i + 1)?.0, Token::Ident(_))
                {
                    i += 2;
                }
            }
            Token::Ident("is") => return None,
            _ => return Some(i),
        }
    }
}

/// Jinja2's `parse_pow` from `i`.
fn pow(t: &Tokens<'_>, i: usize) -> Option<usize> {
    let mut i = unary(t, i)?;
    while matches!(t.get(i)?.0, Token::Pow) {
        i = unary(t, i + 1)?;
    }
    Some(i)
}

/// The edits for a whole template's tokens.
pub(super) fn edits(t: &Tokens<'_>) -> Edits {
    let mut e = Edits::default();
    let mut inside = false;
    for i in 0..t.len() {
        match t[i].0 {
            Token::VariableStart | Token::BlockStart => inside = true,
            Token::VariableEnd | Token::BlockEnd => inside = false,
            Token::BracketOpen if inside && is_literal(t, i) => {
                if let Some(j) = closing(t, i) {
                    e.inserts.push((start(t, i), "__py_list("));
                    e.inserts.push((end(t, j), ")"));
                }
            }
            Token::Mod if inside && i >= 1 => {
                let left = matches!(t[i - 1].0, Token::Str(_) | Token::String(_));
                let before = i.checked_sub(2).map(|p| &t[p].0);
                let bound = !matches!(
                    before,
                    Some(
                        Token::Dot
                            | Token::Pipe
                            | Token::Mul
                            | Token::Div
                            | Token::FloorDiv
                            | Token::Mod
                            | Token::Pow
                            | Token::Str(_)
                            | Token::String(_)
                    )
                );
                if let (true, true, Some(j)) = (left, bound, pow(t, i + 1)) {
                    e.inserts.push((start(t, i - 1), "__py_mod("));
                    e.commas.push(start(t, i));
                    e.inserts.push((end(t, j - 1), ")"));
                    format_operands(t, i + 1, j, &mut e.paths);
                }
            }
            Token::Ident(_) if inside => {
                let Some(j) = bare_path(t, i) else { continue };
                if matches!(
                    i.checked_sub(1).map(|p| &t[p].0),
                    Some(Token::Dot | Token::Pipe)
                ) {
                    continue;
                }
                // Parentheses around the lookup alone (not a call's) change nothing.
                let (mut b, mut a) = (i, j);
                while b >= 2
                    && matches!(t[b - 1].0, Token::ParenOpen)
                    && matches!(t.get(a).map(|x| &x.0), Some(Token::ParenClose))
                    && !matches!(
                        t[b - 2].0,
                        Token::Ident(_) | Token::ParenClose | Token::BracketClose
                    )
                {
                    b -= 1;
                    a += 1;
                }
                let before = b.checked_sub(1).map(|p| &t[p].0);
                let after = t.get(a).map(|x| &x.0);
                let concat = (matches!(before, Some(Token::Tilde)) && ends_operand(after))
                    || (matches!(after, Some(Token::Tilde)) && starts_operand(before));
                let filtered = matches!(after, Some(Token::Pipe))
                    && starts_operand(before)
                    && matches!(t.get(a + 1).map(|x| &x.0), Some(Token::Ident(f)) if TEXT_FILTERS.contains(f));
                if concat || filtered {
                    e.paths.push((i, j, true));
                }
            }
            _ => {}
        }
    }
    e.paths.sort_unstable();
    e.paths.dedup();
    e
}

/// The lookups `%` formats as text: the right operand `[i, j)` when it is one, or the
/// items of its tuple that are.
fn format_operands(t: &Tokens<'_>, i: usize, j: usize, paths: &mut Vec<(usize, usize, bool)>) {
    if bare_path(t, i) == Some(j) {
        paths.push((i, j, false));
        return;
    }
    if !matches!(t[i].0, Token::ParenOpen) || closing(t, i) != Some(j - 1) {
        return;
    }
    let mut k = i + 1;
    while k < j - 1 {
        match bare_path(t, k) {
            Some(end) if matches!(t[end].0, Token::Comma | Token::ParenClose) && end < j => {
                paths.push((k, end, false));
                k = end + 1;
            }
            _ => {
                // Skip this item: to the next comma at this depth.
                let mut depth = 0usize;
                while k < j - 1 {
                    match t[k].0 {
                        Token::ParenOpen | Token::BracketOpen | Token::BraceOpen => depth += 1,
                        Token::ParenClose | Token::BracketClose | Token::BraceClose => {
                            depth = depth.saturating_sub(1)
                        }
                        Token::Comma if depth == 0 => break,
                        _ => {}
                    }
                    k += 1;
                }
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::machinery::tokenize;

    fn rewritten(src: &str) -> String {
        let tokens: Vec<_> = tokenize(src, false, Default::default())
            .collect::<Result<_, _>>()
            .expect("tokens");
        let e = edits(&tokens);
        let mut out = String::new();
        for (i, c) in src.char_indices() {
            for (_, text) in e.inserts.iter().filter(|(at, _)| *at == i) {
                out.push_str(text);
            }
            out.push(if e.commas.contains(&i) { ',' } else { c });
        }
        for (_, text) in e.inserts.iter().filter(|(at, _)| *at == src.len()) {
            out.push_str(text);
        }
        out
    }

    #[test]
    fn list_literals_and_string_formats_only() {
        assert_eq!(
            rewritten("{% set a = [] %}{{ a[0] }}{{ [1, [2]] }}{% for x in [1] %}"),
            "{% set a = __py_list([]) %}{{ a[0] }}{{ __py_list([1, __py_list([2])]) }}{% for x in __py_list([1]) %}"
        );
        assert_eq!(
            rewritten(r#"{{ "x" ~ "%s-%s" % (a.b, c) ~ "y" }}"#),
            r#"{{ "x" ~ __py_mod("%s-%s" , (a.b, c)) ~ "y" }}"#
        );
        assert_eq!(
            rewritten(r#"{{ "%s" % x | length ** 2 }} {{ n % 2 }} {{ "a" "%s" % b }}"#),
            r#"{{ __py_mod("%s" , x | length ** 2) }} {{ n % 2 }} {{ "a" "%s" % b }}"#
        );
        // An `is` test after the operand: left alone.
        assert_eq!(
            rewritten(r#"{{ "%s" % x is defined }}"#),
            r#"{{ "%s" % x is defined }}"#
        );
        assert_eq!(rewritten("50% [1]"), "50% [1]");
    }

    #[test]
    fn lookups_made_text_where_they_stand() {
        let wrapped = |src: &str| -> Vec<String> {
            let tokens: Vec<_> = tokenize(src, false, Default::default())
                .collect::<Result<_, _>>()
                .expect("tokens");
            edits(&tokens)
                .paths
                .iter()
                .map(|&(a, b, _)| src[start(&tokens, a)..end(&tokens, b - 1)].to_string())
                .collect()
        };
        assert_eq!(
            wrapped(
                r#"{{ "x" ~ a.b ~ (c["d"]) }}{{ e | upper }}{{ "%s %s" % (f, g.h | length) }}"#
            ),
            ["a.b", "c[\"d\"]", "e", "f"]
        );
        // Not where Jinja2 keeps the undefined value: tests, defaults, arithmetic, calls.
        assert!(wrapped(r#"{{ "x" ~ a is defined }}{{ a | default(1) }}{{ "x" ~ a * 2 }}{{ a }}{{ "x" ~ f(a) }}"#)
            .is_empty());
    }
}
