//! Hiera's interpolation (`Puppet::Pops::Lookup::Interpolation`) and key syntax
//! (`SubLookup`): dotted keys with quoted and numeric segments, digging into a value, and
//! `%{...}` in strings: `%{facts.x}`, `%{::x}`, `%{x}` (scope), and in data values also
//! `%{lookup('k')}` / `%{hiera('k')}`, `%{alias('k')}` (the whole string, keeps the type),
//! `%{literal('x')}`, `%{scope('x')}`. Hash keys are interpolated too. The lookups and the
//! recursion check are supplied by the caller ([`Interp`]).

use super::ruby;
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Key, Kind, Map, Node, Span};

/// One segment of a dotted key after the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(i64),
}

impl std::fmt::Display for Seg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seg::Key(k) => f.write_str(k),
            Seg::Index(i) => write!(f, "{i}"),
        }
    }
}

/// `split_key`: the root key and the segments after it. `Err` is Puppet's problem text.
pub fn split_key(key: &str) -> std::result::Result<(String, Vec<Seg>), String> {
    if !key.contains(['\'', '"', '.']) {
        return Ok((key.to_string(), Vec::new()));
    }
    let b = key.as_bytes();
    let mut i = 0;
    let mut segs: Vec<(String, bool)> = Vec::new();
    loop {
        // One segment: optional spaces, a quoted run, optional spaces; or a plain run.
        let start = i;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
            let q = b[i];
            let open = i + 1;
            let close = key[open..].find(q as char).map(|p| open + p);
            match close {
                Some(c) if c > open => {
                    segs.push((key[open..c].to_string(), true));
                    i = c + 1;
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                }
                _ => return Err("Syntax error".into()),
            }
        } else {
            i = start;
            while i < b.len() && !matches!(b[i], b'.' | b'"' | b'\'') {
                i += 1;
            }
            if i == start {
                return Err("Syntax error".into());
            }
            segs.push((key[start..i].trim().to_string(), false));
        }
        if i == b.len() {
            break;
        }
        if b[i] != b'.' {
            return Err("Syntax error".into());
        }
        i += 1;
    }
    let mut it = segs.into_iter();
    let root = it.next().map(|(s, _)| s).unwrap_or_default();
    let rest = it
        .map(|(s, quoted)| {
            let numeric = !quoted && {
                let d = s.strip_prefix(['+', '-']).unwrap_or(&s);
                !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())
            };
            match numeric.then(|| s.parse::<i64>().ok()).flatten() {
                Some(n) => Seg::Index(n),
                None => Seg::Key(s),
            }
        })
        .collect();
    Ok((root, rest))
}

/// `sub_lookup`: digs `segs` into `value`. `Ok(None)`: a segment is not there.
pub fn dig(mut value: Node, segs: &[Seg], key: &str) -> std::result::Result<Option<Node>, String> {
    for seg in segs {
        if value.is_null() {
            return Ok(None);
        }
        let span = value.span;
        value = match (seg, value.kind) {
            (Seg::Index(i), Kind::List(items)) => {
                match usize::try_from(*i).ok().filter(|&i| i < items.len()) {
                    Some(i) => items.into_iter().nth(i).unwrap_or(Node::null(span)),
                    None => return Ok(None),
                }
            }
            (seg, Kind::Map(mut m)) => {
                let k = match seg {
                    Seg::Key(k) => Key::str(k),
                    Seg::Index(i) => Key(Node::new(Kind::Int(*i), Span::NONE)),
                };
                match m.shift_remove(&k) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            }
            (seg, kind) => {
                let n = Node::new(kind, span);
                return Err(format!(
                    "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{seg}' from key '{key}'",
                    ruby::class_name(&n)
                ));
            }
        };
    }
    Ok(Some(value))
}

/// What interpolation needs from the lookup that runs it.
pub trait Interp {
    /// A scope variable (facts, `facts`, `trusted`, mapped_paths' local): `None` if unset.
    fn variable(&mut self, name: &str) -> Option<Node>;
    /// `lookup('k')`: the value, or `None` when not found (interpolated as "").
    fn lookup(&mut self, key: &str, at: Span) -> Result<Option<Node>>;
    /// Runs `f` with `name` on the recursion stack (`Recursive lookup detected`).
    fn enter(&mut self, name: &str, at: Span) -> Result<()>;
    fn leave(&mut self);
}

fn fail(msg: String, at: Span) -> Error {
    Error::new(ErrorKind::Directive, msg).at(at)
}

/// `%{x}` / `scope('x')`: a variable, dug into with the key's segments.
pub fn scope_value(
    cx: &mut dyn Interp,
    key: &str,
    subject: &str,
    at: Span,
) -> Result<Option<Node>> {
    let (root, segs) = split_key(key).map_err(|p| fail(format!("{p} in string: {subject}"), at))?;
    let root = root.strip_prefix("::").unwrap_or(&root);
    let Some(value) = cx.variable(root) else {
        return Ok(None);
    };
    if segs.is_empty() {
        return Ok(Some(value));
    }
    dig(value, &segs, key).map_err(|m| fail(m, at))
}

/// Interpolates every string (and hash key) inside a value.
pub fn interpolate(value: Node, methods: bool, cx: &mut dyn Interp) -> Result<Node> {
    match value.kind {
        Kind::Str(ref s) if s.contains("%{") => {
            let s = s.to_string();
            string(&s, value.span, methods, cx)
        }
        Kind::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(interpolate(i, methods, cx)?);
            }
            Ok(Node::list(out, value.span))
        }
        Kind::Map(m) => {
            if !m.iter().any(|(k, v)| needs(&k.0) || needs_deep(v)) {
                return Ok(Node::new(Kind::Map(m), value.span));
            }
            let mut out = Map::with_capacity(m.len());
            for (k, v) in m.into_iter() {
                let k = Key(interpolate(k.0, methods, cx)?);
                out.insert(k, interpolate(v, methods, cx)?);
            }
            Ok(Node::map(out, value.span))
        }
        kind => Ok(Node::new(kind, value.span)),
    }
}

fn needs(n: &Node) -> bool {
    matches!(&n.kind, Kind::Str(s) if s.contains("%{"))
}

fn needs_deep(n: &Node) -> bool {
    match &n.kind {
        Kind::Str(s) => s.contains("%{"),
        Kind::List(items) => items.iter().any(needs_deep),
        Kind::Map(m) => m.iter().any(|(k, v)| needs(&k.0) || needs_deep(v)),
        _ => false,
    }
}

const EMPTY: &[&str] = &["", "::", "\"\"", "''", "\"::\"", "'::'"];

/// `method('arg')` / `method("arg")`.
fn method_call(expr: &str) -> Option<(&str, &str)> {
    let open = expr.find('(')?;
    let name = &expr[..open];
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    let inner = expr[open + 1..].strip_suffix(')')?;
    let q = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let arg = inner[1..].strip_suffix(q)?;
    (!arg.is_empty() && !arg.contains(q)).then_some((name, arg))
}

/// One string: each `%{...}` replaced (`gsub`).
fn string(subject: &str, span: Span, methods: bool, cx: &mut dyn Interp) -> Result<Node> {
    let mut out = String::with_capacity(subject.len());
    let mut rest = subject;
    while let Some(p) = rest.find("%{") {
        let Some(close) = rest[p + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..p]);
        let whole = &rest[p..p + 2 + close + 1];
        let expr = rest[p + 2..p + 2 + close].trim();
        rest = &rest[p + 2 + close + 1..];
        if EMPTY.contains(&expr) {
            continue;
        }
        let (method, key) = match method_call(expr) {
            Some((m, k)) => {
                if !methods {
                    return Err(fail(
                        "Interpolation using method syntax is not allowed in this context".into(),
                        span,
                    ));
                }
                (m, k)
            }
            None => ("scope", expr),
        };
        let value = match method {
            "lookup" | "hiera" | "alias" => {
                if method == "alias" && whole != subject {
                    return Err(fail(
                        "'alias' interpolation is only permitted if the expression is equal to the entire string".into(),
                        span,
                    ));
                }
                let v = cx.lookup(key, span)?;
                if method == "alias" {
                    return Ok(v.unwrap_or_else(|| Node::str("", span)));
                }
                v
            }
            "scope" => scope_value(cx, key, subject, span)?,
            "literal" => Some(Node::str(key, span)),
            other => {
                return Err(fail(
                    format!("Unknown interpolation method '{other}'"),
                    span,
                ))
            }
        };
        let name = if method == "scope" {
            format!("scope:{key}")
        } else {
            key.to_string()
        };
        let value = match value {
            None => None,
            Some(v) => {
                cx.enter(&name, span)?;
                let r = interpolate(v, methods, cx);
                cx.leave();
                Some(r?)
            }
        };
        if let Some(v) = value {
            out.push_str(&ruby::to_s(&v));
        }
    }
    out.push_str(rest);
    Ok(Node::str(out, span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_split_as_puppet_splits_them() {
        assert_eq!(split_key("a").unwrap(), ("a".into(), vec![]));
        assert_eq!(
            split_key("a.b.0").unwrap(),
            ("a".into(), vec![Seg::Key("b".into()), Seg::Index(0)])
        );
        assert_eq!(
            split_key("a.'b.c'").unwrap(),
            ("a".into(), vec![Seg::Key("b.c".into())])
        );
        assert!(split_key("a..b").is_err());
        assert!(split_key("a.").is_err());
        assert_eq!(method_call("lookup('x')"), Some(("lookup", "x")));
        assert_eq!(method_call("facts.x"), None);
    }
}
