//! jsonpath-ng's `find` (`jsonpath_ng/jsonpath.py`): every node of a parsed path turns a
//! datum — a value with the datum it was found in (its context) and the last step that found
//! it — into the list of its matches, in jsonpath-ng's order. A datum's value is a place in
//! the data, a value jsonpath-ng made (a character of a string, an integer of binary data),
//! or the one-item list `[value]` a slice wraps a non-list in. `$` climbs the contexts to the
//! top, `` `parent` `` steps to the context (Python's `None` above the top), `..` visits a
//! value, then its items or values depth first. Where Python raises, so does `find`, with
//! the exception in the message.

use super::place::{get, no_len, py_len};
use super::{Expr, Loc, PathError};
use crate::value::py::py_truthy;
use crate::value::{Key, Kind, Node, Span};
use std::rc::Rc;

/// Deepest `..` search (Python's recursion limit is about as deep).
const MAX_DEPTH: usize = 900;

/// A datum's value.
#[derive(Clone, Debug)]
pub(super) enum Val<'a> {
    /// A value of the data, and where it is.
    At(&'a Node, Vec<Loc>),
    /// A value jsonpath-ng made: a character, a byte, `None`.
    Made(Rc<Node>),
    /// `[value]`: the list a slice wraps a non-list value in.
    Wrap(Rc<Datum<'a>>),
}

/// The last step of a datum's path (`DatumInContext.path`).
#[derive(Clone, Debug)]
pub(super) enum Last {
    Root,
    This,
    Field(Key),
    Index(i64),
}

#[derive(Clone, Debug)]
pub(super) struct Datum<'a> {
    pub val: Val<'a>,
    pub ctx: Option<Rc<Datum<'a>>>,
    pub path: Last,
}

/// A match: a datum, or Python's `None` (`` `parent` `` of the top).
pub(super) type Match<'a> = Option<Rc<Datum<'a>>>;

impl<'a> Datum<'a> {
    pub(super) fn top(data: &'a Node, at: Vec<Loc>) -> Datum<'a> {
        Datum {
            val: Val::At(data, at),
            ctx: None,
            path: Last::This,
        }
    }

    fn made(node: Node, path: Last) -> Datum<'a> {
        Datum {
            val: Val::Made(Rc::new(node)),
            ctx: None,
            path,
        }
    }

    /// The value as a node, unless it is a wrapping list.
    pub(super) fn node(&self) -> Option<&Node> {
        match &self.val {
            Val::At(n, _) => Some(n),
            Val::Made(n) => Some(n),
            Val::Wrap(_) => None,
        }
    }

    /// The value, made whole (a wrapping list is built).
    pub(super) fn value(&self) -> Node {
        match &self.val {
            Val::At(n, _) => (*n).clone(),
            Val::Made(n) => (**n).clone(),
            Val::Wrap(inner) => Node::list(vec![inner.value()], Span::NONE),
        }
    }
}

/// `DatumInContext.wrap`: Python's `None` becomes a datum whose value is `None`.
fn wrap<'a>(m: &Match<'a>) -> Rc<Datum<'a>> {
    m.clone()
        .unwrap_or_else(|| Rc::new(Datum::made(Node::null(Span::NONE), Last::This)))
}

fn child<'a>(of: &Rc<Datum<'a>>, val: Val<'a>, path: Last) -> Match<'a> {
    Some(Rc::new(Datum {
        val,
        ctx: Some(of.clone()),
        path,
    }))
}

/// The value at item or entry `loc` of the datum's value (item 0 of a wrapping list is the
/// wrapped value).
fn inner<'a>(d: &Datum<'a>, loc: Loc) -> Val<'a> {
    let null = || Rc::new(Node::null(Span::NONE));
    match &d.val {
        Val::At(n, at) => match get(n, &[loc]) {
            Some(c) => {
                let mut at = at.clone();
                at.push(loc);
                Val::At(c, at)
            }
            None => Val::Made(null()),
        },
        Val::Made(n) => Val::Made(get(n, &[loc]).cloned().map_or_else(null, Rc::new)),
        Val::Wrap(w) => w.val.clone(),
    }
}

pub(super) fn find<'a>(e: &Expr, m: &Match<'a>) -> Result<Vec<Match<'a>>, PathError> {
    find_at(e, m, 0)
}

fn find_at<'a>(e: &Expr, m: &Match<'a>, depth: usize) -> Result<Vec<Match<'a>>, PathError> {
    Ok(match e {
        Expr::Root => {
            let Some(mut d) = m.clone() else {
                return Ok(vec![Some(Rc::new(Datum::made(
                    Node::null(Span::NONE),
                    Last::Root,
                )))]);
            };
            while let Some(up) = d.ctx.clone() {
                d = up;
            }
            vec![Some(Rc::new(Datum {
                val: d.val.clone(),
                ctx: None,
                path: Last::Root,
            }))]
        }
        Expr::This => vec![Some(wrap(m))],
        Expr::Parent => vec![m.as_ref().and_then(|d| d.ctx.clone())],
        Expr::Fields(names) => fields(&wrap(m), names),
        Expr::Index(idx) => {
            let d = wrap(m);
            let mut out = Vec::new();
            for i in idx {
                index(&d, i.value, &i.text, &mut out)?;
            }
            out
        }
        Expr::Slice(start, end, step) => {
            let d = wrap(m);
            let d = match d.node().map(|n| &n.kind) {
                Some(Kind::Null) => return Ok(Vec::new()),
                Some(
                    Kind::Map(_)
                    | Kind::Int(_)
                    | Kind::BigInt(_)
                    | Kind::Float(_)
                    | Kind::Str(_)
                    | Kind::Bool(_),
                ) => Rc::new(Datum {
                    val: Val::Wrap(d.clone()),
                    ctx: d.ctx.clone(),
                    path: d.path.clone(),
                }),
                _ => d,
            };
            let len = datum_len(&d, "[:]")?;
            let mut out = Vec::new();
            for i in slice_indices(len, start, end, step)? {
                item(&d, i, Last::Index(i as i64), &mut out)?;
            }
            out
        }
        Expr::Child(l, r) => {
            let mut out = Vec::new();
            for s in find_at(l, m, depth)? {
                out.extend(find_at(r, &s, depth)?);
            }
            out
        }
        Expr::Descendants(l, r) => {
            let mut out = Vec::new();
            for s in find_at(l, m, depth)? {
                descend(r, &s, depth, &mut out)?;
            }
            out
        }
        Expr::Union(l, r) => {
            let mut out = find_at(l, m, depth)?;
            out.extend(find_at(r, m, depth)?);
            out
        }
        Expr::Intersect(..) => {
            return Err(PathError::not_implemented(
                "jsonpath-ng parses '&' but cannot evaluate it (NotImplementedError)".into(),
            ))
        }
        Expr::Where(l, r) | Expr::WhereNot(l, r) => {
            let keep = matches!(e, Expr::Where(..));
            let mut out = Vec::new();
            for s in find_at(l, m, depth)? {
                if find_at(r, &s, depth)?.is_empty() != keep {
                    out.push(s);
                }
            }
            out
        }
    })
}

/// jsonpath-ng's `update` of a node that has none.
pub(super) fn not_implemented(what: &str) -> PathError {
    PathError::not_implemented(format!(
        "jsonpath-ng cannot write through {what} (NotImplementedError)"
    ))
}

/// `match_recursively`: the right side's matches here, then in each item or value.
fn descend<'a>(
    r: &Expr,
    m: &Match<'a>,
    depth: usize,
    out: &mut Vec<Match<'a>>,
) -> Result<(), PathError> {
    if depth > MAX_DEPTH {
        return Err(PathError::python(
            "RecursionError",
            "the '..' search goes deeper than Python's recursion limit".into(),
        ));
    }
    out.extend(find_at(r, m, depth + 1)?);
    let Some(d) = m else {
        return Err(none_attribute("value"));
    };
    // Lists (a wrapping one too) and dicts only: no tuple, set or made value.
    let entries: Vec<(Loc, Last)> = match (&d.val, d.node().map(|n| &n.kind)) {
        (Val::Wrap(_), _) => vec![(Loc::Item(0), Last::Index(0))],
        (Val::At(..), Some(Kind::List(items))) => (0..items.len())
            .map(|i| (Loc::Item(i), Last::Index(i as i64)))
            .collect(),
        (Val::At(..), Some(Kind::Map(map))) => map
            .keys()
            .enumerate()
            .map(|(i, k)| (Loc::Entry(i), Last::Field(k.clone())))
            .collect(),
        _ => Vec::new(),
    };
    for (loc, path) in entries {
        descend(r, &child(d, inner(d, loc), path), depth + 1, out)?;
    }
    Ok(())
}

/// `Fields.find`: names of a mapping (`*`: all its keys); anything else has none.
fn fields<'a>(d: &Rc<Datum<'a>>, names: &[String]) -> Vec<Match<'a>> {
    let Some(Kind::Map(map)) = d.node().map(|n| &n.kind) else {
        return Vec::new();
    };
    if names.iter().any(|f| f == "*") {
        return map
            .keys()
            .enumerate()
            .map(|(i, k)| child(d, inner(d, Loc::Entry(i)), Last::Field(k.clone())))
            .collect();
    }
    names
        .iter()
        .filter_map(|f| {
            let i = map.get_index_of(&Key::str(f))?;
            Some(child(d, inner(d, Loc::Entry(i)), Last::Field(Key::str(f))))
        })
        .collect()
}

/// Python's `len()` of a datum's value.
fn datum_len(d: &Datum<'_>, what: &str) -> Result<i64, PathError> {
    match d.node() {
        None => Ok(1),
        Some(n) => py_len(n).ok_or_else(|| no_len(n, what)),
    }
}

/// Where `value[i]` is: an item or entry of the value, or a value made of it.
pub(super) enum Hit {
    At(Loc),
    Made(Node),
}

/// `Index.find` on a value for one index: `if value and len(value) > i: value[i]`, with
/// Python's truth value, `len()` and `[]` (a mapping looks up the integer key).
pub(super) fn index_hit(n: &Node, i: i64, text: &str) -> Result<Option<Hit>, PathError> {
    if !py_truthy(n) {
        return Ok(None);
    }
    let len = py_len(n).ok_or_else(|| no_len(n, &format!("[{text}]")))?;
    if len <= i {
        return Ok(None);
    }
    if let Kind::Map(map) = &n.kind {
        let key = Key(Node::new(Kind::Int(i), Span::NONE));
        return match map.get_index_of(&key) {
            Some(e) => Ok(Some(Hit::At(Loc::Entry(e)))),
            None => Err(PathError::python(
                "KeyError",
                format!("index [{text}] looks up the key {text} in a mapping that has none"),
            )),
        };
    }
    let at = if i < 0 { len + i } else { i };
    if at < 0 {
        return Err(PathError::python(
            "IndexError",
            format!("index [{text}] is before the start of a value of length {len}"),
        ));
    }
    item_hit(n, at as usize).map(Some)
}

/// `value[i]` for an index in range of a value with a length.
fn item_hit(n: &Node, i: usize) -> Result<Hit, PathError> {
    Ok(match &n.kind {
        Kind::List(_) | Kind::Tuple(_) => Hit::At(Loc::Item(i)),
        Kind::Str(s) => Hit::Made(Node::str(
            s.chars().nth(i).map(String::from).unwrap_or_default(),
            n.span,
        )),
        Kind::Bytes(b) => Hit::Made(Node::new(
            Kind::Int(i64::from(b.get(i).copied().unwrap_or(0))),
            n.span,
        )),
        _ => {
            return Err(PathError::python(
                "TypeError",
                format!(
                    "cannot take item {i} of {}: '{}' object is not subscriptable",
                    n.kind_phrase(),
                    n.py_type_name()
                ),
            ))
        }
    })
}

fn hit_val<'a>(d: &Datum<'a>, h: Hit) -> Val<'a> {
    match h {
        Hit::At(loc) => inner(d, loc),
        Hit::Made(m) => Val::Made(Rc::new(m)),
    }
}

/// `Index.find` for one index on a datum (a slice's wrapping list is `[value]`).
fn index<'a>(
    d: &Rc<Datum<'a>>,
    i: i64,
    text: &str,
    out: &mut Vec<Match<'a>>,
) -> Result<(), PathError> {
    let Some(n) = d.node() else {
        if 1 <= i {
            return Ok(());
        }
        if i < -1 {
            return Err(PathError::python(
                "IndexError",
                format!("index [{text}] is before the start of a value of length 1"),
            ));
        }
        out.push(child(d, inner(d, Loc::Item(0)), Last::Index(i)));
        return Ok(());
    };
    if let Some(h) = index_hit(n, i, text)? {
        out.push(child(d, hit_val(d, h), Last::Index(i)));
    }
    Ok(())
}

/// Item `i` (in range) of a datum whose value is a sequence, as a match found in it.
fn item<'a>(
    d: &Rc<Datum<'a>>,
    i: usize,
    path: Last,
    out: &mut Vec<Match<'a>>,
) -> Result<(), PathError> {
    let val = match d.node() {
        None => inner(d, Loc::Item(0)),
        Some(n) => hit_val(d, item_hit(n, i)?),
    };
    out.push(child(d, val, path));
    Ok(())
}

/// Python's `range(0, len)[start:end:step]` (all three absent: every index).
pub(super) fn slice_indices(
    len: i64,
    start: &Option<super::lex::Num>,
    end: &Option<super::lex::Num>,
    step: &Option<super::lex::Num>,
) -> Result<Vec<usize>, PathError> {
    let step = step.as_ref().map_or(1, |s| s.value);
    if step == 0 {
        return Err(PathError::python(
            "ValueError",
            "slice step cannot be zero".into(),
        ));
    }
    let clamp = |v: Option<i64>, default: i64, lo: i64, hi: i64| match v {
        None => default,
        Some(v) if v < 0 => (v.saturating_add(len)).max(lo),
        Some(v) => v.min(hi),
    };
    let mut out = Vec::new();
    if step > 0 {
        let s = clamp(start.as_ref().map(|n| n.value), 0, 0, len);
        let e = clamp(end.as_ref().map(|n| n.value), len, 0, len);
        let mut i = s;
        while i < e {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    } else {
        let s = clamp(start.as_ref().map(|n| n.value), len - 1, -1, len - 1);
        let e = clamp(end.as_ref().map(|n| n.value), -1, -1, len - 1);
        let mut i = s;
        while i > e {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    }
    Ok(out)
}

pub(super) fn none_attribute(what: &str) -> PathError {
    PathError::python(
        "AttributeError",
        format!(
            "'NoneType' object has no attribute '{what}' (a `parent` above the top of the data)"
        ),
    )
}
