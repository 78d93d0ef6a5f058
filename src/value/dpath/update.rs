//! jsonpath-ng's `update` (`jsonpath_ng/jsonpath.py`): `Child` finds its left side in the
//! value it is given and updates its right side in each match; `..` updates its right side
//! in each match of its left side, then in every item or value below, looking again after
//! each write; `Fields` sets keys a mapping already has (`*`: all of them); `Index` assigns
//! `value[i]` where `len(value) > i`, a list value giving its items one by one
//! (`somelist[5,1,2] = [a, b, c]`: Python's `val.pop(0)`); a slice assigns each index it
//! finds; `where` updates the last step of each match in the value it is given; `$` and
//! `` `this` `` change nothing; `` `parent` ``, `|` and `&` cannot update
//! (`NotImplementedError`). A match that is not a place in the data (a character, a byte, a
//! slice's wrapping list) is updated as Python would update that new value: to no effect, or
//! with its error.
//!
//! jsonpath-ng updates Python objects found before the first write. When a write replaces a
//! value that holds a match still to be updated (`$..a['a']` with an `a` inside an `a`),
//! Python updates the replaced object, where nobody sees it; strata refuses that case.

use super::find::{find, none_attribute, not_implemented, Datum, Last, Match, Val};
use super::place::{get, get_mut, no_len, py_len};
use super::{Expr, Loc, PathError};
use crate::value::{Key, Kind, Node, Span};
use std::rc::Rc;

/// Deepest `..` update (Python's recursion limit is about as deep).
const MAX_DEPTH: usize = 900;

/// What an update is applied to.
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// A place in the data.
    Real(Vec<Loc>),
    /// A value jsonpath-ng made (a character, a byte): changes to it are lost.
    Scratch(Node),
    /// A slice's `[value]` around another target.
    Wrap(Box<Target>),
}

/// The value being written and how many list items `Index.update` has taken from it.
pub(super) struct Writer {
    pub val: Node,
    pub taken: usize,
}

impl Writer {
    /// What a plain assignment writes: the value (a list without the items taken so far).
    fn whole(&self) -> Node {
        match &self.val.kind {
            Kind::List(items) if self.taken > 0 => Node::list(
                items.iter().skip(self.taken).cloned().collect::<Vec<_>>(),
                self.val.span,
            ),
            _ => self.val.clone(),
        }
    }

    /// What `Index.update` writes: a list gives its next item (`val.pop(0)`).
    fn pop(&mut self) -> Result<Node, PathError> {
        match &self.val.kind {
            Kind::List(items) => {
                let item = items.get(self.taken).cloned().ok_or_else(|| {
                    PathError::python("IndexError", "a list written at an index path gives its items one by one (jsonpath-ng's Index.update pops them), and this one has none left: pop from empty list".into())
                })?;
                self.taken += 1;
                Ok(item)
            }
            _ => Ok(self.val.clone()),
        }
    }
}

/// One update: the writer and every place written, in order.
pub(super) struct Upd {
    pub w: Writer,
    pub written: Vec<Vec<Loc>>,
}

pub(super) fn update(e: &Expr, data: &mut Node, t: &Target, u: &mut Upd) -> Result<(), PathError> {
    match e {
        Expr::Root | Expr::This => Ok(()),
        Expr::Parent => Err(not_implemented("`parent`")),
        Expr::Union(..) => Err(not_implemented("'|'")),
        Expr::Intersect(..) => Err(not_implemented("'&'")),
        Expr::Fields(names) => {
            let names: Vec<Key> = names.iter().map(|n| Key::str(n)).collect();
            on_value(data, t, u, |node, u| fields_update(node, &names, &mut u.w))
        }
        Expr::Index(idx) => {
            for i in idx {
                on_value(data, t, u, |node, u| {
                    index_update(node, i.value, &i.text, &mut u.w)
                })?;
            }
            Ok(())
        }
        Expr::Slice(..) | Expr::Where(..) | Expr::WhereNot(..) => {
            // `datum.path.update(data, val)` for each match, on the value given.
            for m in found(e, data, t)? {
                let Some((_, last)) = m else {
                    return Err(none_attribute("path"));
                };
                match last {
                    Last::Root | Last::This => {}
                    Last::Field(k) => on_value(data, t, u, |node, u| {
                        fields_update(node, std::slice::from_ref(&k), &mut u.w)
                    })?,
                    Last::Index(i) => on_value(data, t, u, |node, u| {
                        index_update(node, i, &i.to_string(), &mut u.w)
                    })?,
                }
            }
            Ok(())
        }
        Expr::Child(l, r) => {
            let start = u.written.len();
            for m in found(l, data, t)? {
                let (target, _) = m.ok_or_else(|| none_attribute("value"))?;
                detached(&target, &u.written[start..])?;
                update(r, data, &target, u)?;
            }
            Ok(())
        }
        Expr::Descendants(l, r) => {
            let start = u.written.len();
            for m in found(l, data, t)? {
                let (target, _) = m.ok_or_else(|| none_attribute("value"))?;
                detached(&target, &u.written[start..])?;
                descend(r, data, &target, u, 0)?;
            }
            Ok(())
        }
    }
}

/// `update_recursively`: the right side in a list or dict, then in each item or value.
fn descend(
    r: &Expr,
    data: &mut Node,
    t: &Target,
    u: &mut Upd,
    depth: usize,
) -> Result<(), PathError> {
    if depth > MAX_DEPTH {
        return Err(PathError::python(
            "RecursionError",
            "the '..' update goes deeper than Python's recursion limit (does the value written hold what the path looks for?)".into(),
        ));
    }
    let container = |data: &Node| match t {
        Target::Real(at) => get(data, at).map(|n| match &n.kind {
            Kind::List(l) => l.len(),
            Kind::Map(m) => m.len(),
            _ => usize::MAX,
        }),
        Target::Wrap(_) => Some(1),
        Target::Scratch(_) => None,
    };
    if !matches!(container(data), Some(n) if n != usize::MAX) {
        return Ok(());
    }
    update(r, data, t, u)?;
    match t {
        Target::Real(at) => {
            let is_list = matches!(get(data, at).map(|n| &n.kind), Some(Kind::List(_)));
            let n = container(data).unwrap_or(0);
            for i in 0..n {
                let mut next = at.clone();
                next.push(if is_list { Loc::Item(i) } else { Loc::Entry(i) });
                descend(r, data, &Target::Real(next), u, depth + 1)?;
            }
            Ok(())
        }
        Target::Wrap(inner) => descend(r, data, inner, u, depth + 1),
        Target::Scratch(_) => Ok(()),
    }
}

/// A match still to be updated that an earlier write of this update replaced (or sits in a
/// value it replaced): Python would update the replaced object, invisible in the result.
fn detached(t: &Target, written: &[Vec<Loc>]) -> Result<(), PathError> {
    let at = match t {
        Target::Real(at) => at,
        Target::Wrap(inner) => return detached(inner, written),
        Target::Scratch(_) => return Ok(()),
    };
    if written.iter().any(|w| at.starts_with(w)) {
        return Err(PathError::unsupported(
            "this path matches a value inside another match that the same write replaces; jsonpath-ng then writes into the replaced value, where it has no effect, and strata does not reproduce that".into(),
        ));
    }
    Ok(())
}

/// The matches of `e` in the value of `t` (found afresh: no context above it), each as a
/// target with its last step.
fn found(e: &Expr, data: &Node, t: &Target) -> Result<Vec<Option<(Target, Last)>>, PathError> {
    let start = Some(Rc::new(datum(data, t)));
    Ok(find(e, &start)?
        .into_iter()
        .map(|m: Match<'_>| m.map(|d| (target(&d), d.path.clone())))
        .collect())
}

fn datum<'a>(data: &'a Node, t: &Target) -> Datum<'a> {
    let val = match t {
        Target::Real(at) => match get(data, at) {
            Some(n) => Val::At(n, at.clone()),
            None => Val::Made(Rc::new(Node::null(Span::NONE))),
        },
        Target::Scratch(n) => Val::Made(Rc::new(n.clone())),
        Target::Wrap(inner) => Val::Wrap(Rc::new(datum(data, inner))),
    };
    Datum {
        val,
        ctx: None,
        path: Last::This,
    }
}

fn target(d: &Datum<'_>) -> Target {
    match &d.val {
        Val::At(_, at) => Target::Real(at.clone()),
        Val::Made(n) => Target::Scratch((**n).clone()),
        Val::Wrap(w) => Target::Wrap(Box::new(target(w))),
    }
}

/// The value of a wrapping target's inside.
fn value_of(data: &Node, t: &Target) -> Node {
    match t {
        Target::Real(at) => get(data, at).cloned().unwrap_or(Node::null(Span::NONE)),
        Target::Scratch(n) => n.clone(),
        Target::Wrap(inner) => Node::list(vec![value_of(data, inner)], Span::NONE),
    }
}

/// Runs a write on the target's value: in place for a place in the data (recording where it
/// wrote), on a copy that is then dropped for anything else.
pub(super) fn on_value<F>(data: &mut Node, t: &Target, u: &mut Upd, f: F) -> Result<(), PathError>
where
    F: FnOnce(&mut Node, &mut Upd) -> Result<Vec<Loc>, PathError>,
{
    match t {
        Target::Real(at) => {
            let Some(node) = get_mut(data, at) else {
                return Ok(());
            };
            for loc in f(node, u)? {
                let mut w = at.clone();
                w.push(loc);
                u.written.push(w);
            }
            Ok(())
        }
        Target::Scratch(n) => f(&mut n.clone(), u).map(drop),
        Target::Wrap(inner) => {
            let mut list = Node::list(vec![value_of(data, inner)], Span::NONE);
            f(&mut list, u).map(drop)
        }
    }
}

/// `Fields.update`: `if data is not None: for field in fields: if type(data) is not bool and
/// field in data: data[field] = val` (`*`: the keys of a mapping).
pub(super) fn fields_update(
    node: &mut Node,
    names: &[Key],
    w: &mut Writer,
) -> Result<Vec<Loc>, PathError> {
    if node.is_null() {
        return Ok(Vec::new());
    }
    let names: Vec<Key> = if names.iter().any(|k| k.as_str() == Some("*")) {
        match &node.kind {
            Kind::Map(m) => m.keys().cloned().collect(),
            _ => return Ok(Vec::new()),
        }
    } else {
        names.to_vec()
    };
    let mut written = Vec::new();
    for k in names {
        let name = crate::value::key_text(&k.0);
        let present = match &node.kind {
            Kind::Bool(_) => false,
            Kind::Map(m) | Kind::Set(m) => m.contains_key(&k),
            Kind::List(l) | Kind::Tuple(l) => l.iter().any(|x| x.py_eq(&k.0)),
            Kind::Str(s) => match k.as_str() {
                Some(f) => s.contains(f),
                None => {
                    return Err(PathError::python(
                        "TypeError",
                        format!("'in <string>' requires string as left operand, not {}", k.0.py_type_name()),
                    ))
                }
            },
            _ => {
                return Err(PathError::python(
                    "TypeError",
                    format!(
                        "cannot look for the field '{name}' in {}: argument of type '{}' is not iterable",
                        node.kind_phrase(),
                        node.py_type_name()
                    ),
                ))
            }
        };
        if !present {
            continue;
        }
        match &mut node.kind {
            Kind::Map(m) => {
                if let Some(i) = m.get_index_of(&k) {
                    if let Some((_, v)) = m.get_index_mut(i) {
                        *v = w.whole();
                    }
                    written.push(Loc::Entry(i));
                }
            }
            _ => {
                return Err(PathError::python(
                    "TypeError",
                    format!(
                        "cannot write the field '{name}' into {}: '{}' object does not support item assignment",
                        node.kind_phrase(),
                        node.py_type_name()
                    ),
                ))
            }
        }
    }
    Ok(written)
}

/// `Index.update` for one index: `if len(data) > i: data[i] = val` (a list value: its next
/// item), with Python's `len` and item assignment (a mapping gets an integer key).
pub(super) fn index_update(
    node: &mut Node,
    i: i64,
    text: &str,
    w: &mut Writer,
) -> Result<Vec<Loc>, PathError> {
    let len = py_len(node).ok_or_else(|| no_len(node, &format!("[{text}]")))?;
    if len <= i {
        return Ok(Vec::new());
    }
    let val = w.pop()?;
    match &mut node.kind {
        Kind::List(items) => {
            let at = if i < 0 { len + i } else { i };
            let slot = usize::try_from(at)
                .ok()
                .and_then(|at| items.get_mut(at).map(|s| (at, s)));
            let Some((at, slot)) = slot else {
                return Err(PathError::python(
                    "IndexError",
                    format!("index [{text}] is before the start of a list of {len}: list assignment index out of range"),
                ));
            };
            *slot = val;
            Ok(vec![Loc::Item(at)])
        }
        Kind::Map(m) => {
            let key = Key(Node::new(Kind::Int(i), Span::NONE));
            m.insert(key.clone(), val);
            Ok(m.get_index_of(&key).map(Loc::Entry).into_iter().collect())
        }
        _ => Err(PathError::python(
            "TypeError",
            format!(
                "cannot write index [{text}] into {}: '{}' object does not support item assignment",
                node.kind_phrase(),
                node.py_type_name()
            ),
        )),
    }
}
