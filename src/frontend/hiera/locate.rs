//! A hierarchy level's locations, as Puppet's `LocationResolver` makes them: the datadir
//! (relative to hiera.yaml's folder) joined with each interpolated `path` / `paths` entry,
//! each `glob` / `globs` match (in Ruby's `Dir.glob` order, directories left out; `*`, `?`,
//! `[...]`, `{a,b}`, `**`), or one path per value of a `mapped_paths` variable. Interpolation here allows
//! variables only (`%{facts.x}`, `%{::x}`, `%{x}`), no methods.

use super::config::{Level, Locations};
use super::interp::{self, Interp};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::value::{Kind, Map, Node, Span};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use crate::frontend::Files;

/// One place a level looks.
#[derive(Clone, Debug)]
pub struct Location {
    /// As written (`nodes/%{facts.nodename}.yaml`; for a glob, the interpolated pattern).
    pub original: String,
    /// Shared: the search hands it around once per key and level.
    pub path: Rc<Path>,
}

/// Interpolation against the scope only (facts, `facts`, `trusted`, a mapped_paths key).
pub struct ScopeOnly<'a> {
    pub scope: &'a Map,
    pub local: Option<(String, Node)>,
}

impl Interp for ScopeOnly<'_> {
    fn variable(&mut self, name: &str) -> Option<Node> {
        if let Some((k, v)) = &self.local {
            if k == name {
                return Some(v.clone());
            }
        }
        self.scope.get(&crate::value::Key::str(name)).cloned()
    }
    fn lookup(&mut self, _key: &str, at: Span) -> Result<Option<Node>> {
        Err(Error::new(
            ErrorKind::Directive,
            "Interpolation using method syntax is not allowed in this context",
        )
        .at(at))
    }
    fn enter(&mut self, _name: &str, _at: Span) -> Result<()> {
        Ok(())
    }
    fn leave(&mut self) {}
}

fn text(template: &str, span: Span, cx: &mut ScopeOnly<'_>) -> Result<String> {
    let n = interp::interpolate(Node::str(template, span), false, cx)?;
    Ok(n.as_str().unwrap_or_default().to_string())
}

/// `text`, with a warning for each `%{...}` in it that interpolates to nothing (Puppet writes
/// an empty string there: `data/%{facts.env}.yaml` becomes `data/.yaml`).
fn text_warned(
    template: &str,
    level: &Level,
    cx: &mut ScopeOnly<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<String> {
    let out = text(template, level.span, cx)?;
    let mut rest = template;
    while let Some(at) = rest.find("%{") {
        let Some(len) = rest[at..].find('}') else {
            break;
        };
        let expr = &rest[at..at + len + 1];
        rest = &rest[at + len + 1..];
        // `%{}` and `%{::}` are Puppet's way to write an empty string on purpose.
        if matches!(expr, "%{}" | "%{::}" | "%{''}" | "%{\"\"}") {
            continue;
        }
        if text(expr, level.span, cx)?.is_empty() {
            warnings.push(Warning::new(
                WarnKind::EmptyInterpolation,
                format!(
                    "hierarchy level '{}': {expr} in '{template}' is empty (no such fact or variable; without --facts the node is 'localhost' with no facts): the path is '{out}'",
                    level.name
                ),
                level.span,
            ));
        }
    }
    Ok(out)
}

/// Every location of `level`, in order.
pub fn locations(
    level: &Level,
    root: &Path,
    scope: &Map,
    files: &mut dyn Files,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Location>> {
    let mut cx = ScopeOnly { scope, local: None };
    let datadir = root.join(text(&level.datadir, level.span, &mut cx)?);
    let mut out = Vec::new();
    match &level.locations {
        Locations::Paths(paths) => {
            for p in paths {
                let rel = text_warned(p, level, &mut cx, warnings)?;
                out.push(Location {
                    original: p.clone(),
                    path: datadir.join(rel).into(),
                });
            }
        }
        Locations::Globs(globs) => {
            for g in globs {
                let pattern = text_warned(g, level, &mut cx, warnings)?;
                let original = datadir.join(&pattern).display().to_string();
                let mut found = Vec::new();
                for alt in braces(&pattern) {
                    let segs: Vec<&str> = alt.split('/').filter(|s| !s.is_empty()).collect();
                    let base = if alt.starts_with('/') {
                        PathBuf::from("/")
                    } else {
                        datadir.clone()
                    };
                    walk(&base, &segs, files, &mut found);
                }
                out.extend(found.into_iter().map(|path| Location {
                    original: original.clone(),
                    path: path.into(),
                }));
            }
        }
        Locations::Mapped([var, key, template]) => {
            let values = interp::scope_value(&mut cx, var, "mapped_path[0]", level.span)?;
            let values: Vec<Node> = match values {
                None => Vec::new(),
                Some(v) => match v.kind {
                    Kind::List(items) => items.into_iter().collect(),
                    Kind::Str(ref s) if s.is_empty() => Vec::new(),
                    Kind::Map(ref m) if m.is_empty() => Vec::new(),
                    _ => vec![v],
                },
            };
            for v in values {
                cx.local = Some((key.clone(), v));
                let rel = text_warned(template, level, &mut cx, warnings)?;
                out.push(Location {
                    original: template.clone(),
                    path: datadir.join(rel).into(),
                });
            }
        }
    }
    Ok(out)
}

/// `{a,b}` alternatives, expanded left to right (nested braces included).
fn braces(p: &str) -> Vec<String> {
    let b = p.as_bytes();
    let Some(open) = p.find('{') else {
        return vec![p.to_string()];
    };
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut start = open + 1;
    for i in open..b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    parts.push(&p[start..i]);
                    let (head, tail) = (&p[..open], &p[i + 1..]);
                    return parts
                        .into_iter()
                        .flat_map(|alt| braces(&format!("{head}{alt}{tail}")))
                        .collect();
                }
            }
            b',' if depth == 1 => {
                parts.push(&p[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    vec![p.to_string()]
}

/// Ruby's `Dir.glob` (through `Pathname.glob`): each folder's entries in sorted order, an
/// entry a pattern ends at listed before what lies inside it, every pattern still open (`**`
/// going deeper, and what follows it) carried into a sub-folder together: `a/**/*.yaml` lists
/// `a/b/x.yaml` before `a/c.yaml`. `**` skips hidden folders; `*` does not match a leading dot.
fn walk(dir: &Path, segs: &[&str], files: &mut dyn Files, out: &mut Vec<PathBuf>) {
    walk_states(dir, &[segs], files, out);
}

fn walk_states<'p>(
    dir: &Path,
    states: &[&'p [&'p str]],
    files: &mut dyn Files,
    out: &mut Vec<PathBuf>,
) {
    let mut entries = files.list(dir);
    entries.sort();
    for (name, is_dir) in entries {
        let mut next: Vec<&'p [&'p str]> = Vec::new();
        let push = |s: &'p [&'p str], next: &mut Vec<&'p [&'p str]>| {
            if !next.contains(&s) {
                next.push(s);
            }
        };
        for &state in states {
            let Some((&first, rest)) = state.split_first() else {
                continue;
            };
            if first == "**" {
                if is_dir && !name.starts_with('.') {
                    push(state, &mut next);
                }
                // `**` as no folder at all: what follows it, on this entry.
                if let Some((&after, tail)) = rest.split_first() {
                    if segment_matches(after, &name) {
                        push(tail, &mut next);
                    }
                }
            } else if segment_matches(first, &name) {
                push(rest, &mut next);
            }
        }
        let path = dir.join(&name);
        if next.iter().any(|s| s.is_empty()) && !is_dir {
            out.push(path.clone());
        }
        next.retain(|s| !s.is_empty());
        if is_dir && !next.is_empty() {
            walk_states(&path, &next, files, out);
        }
    }
}

/// A pattern segment against an entry's name; a leading dot only by a leading dot.
fn segment_matches(pattern: &str, name: &str) -> bool {
    matches(pattern.as_bytes(), name.as_bytes())
        && (!name.starts_with('.') || pattern.starts_with('.'))
}

/// One path segment against `*`, `?`, `[set]` (`[!set]`, `[^set]`, ranges), `\x`.
fn matches(p: &[u8], s: &[u8]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(b'*') => (0..=s.len()).any(|i| matches(&p[1..], &s[i..])),
        Some(b'?') => !s.is_empty() && matches(&p[1..], &s[1..]),
        Some(b'[') => {
            let Some(c) = s.first() else { return false };
            let Some(close) = p.iter().skip(2).position(|&x| x == b']').map(|i| i + 2) else {
                return p[0] == *c && matches(&p[1..], &s[1..]);
            };
            let mut set = &p[1..close];
            let negate = matches!(set.first(), Some(b'!' | b'^'));
            if negate {
                set = &set[1..];
            }
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == b'-' {
                    hit |= (set[i]..=set[i + 2]).contains(c);
                    i += 3;
                } else {
                    hit |= set[i] == *c;
                    i += 1;
                }
            }
            hit != negate && matches(&p[close + 1..], &s[1..])
        }
        Some(b'\\') if p.len() > 1 => s.first() == Some(&p[1]) && matches(&p[2..], &s[1..]),
        Some(x) => s.first() == Some(x) && matches(&p[1..], &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_and_braces() {
        assert!(matches(b"*.yaml", b"a.yaml"));
        assert!(!matches(b"*.yaml", b"a.json"));
        assert!(matches(b"[a-c]?.y*", b"bx.yml"));
        assert_eq!(braces("a{b,c}d"), vec!["abd", "acd"]);
    }
}
