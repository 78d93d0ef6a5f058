//! Reading and writing through a parsed path as jsonpath-ng does: `find` (every match, in
//! order; an index into a string is that character, an index into a mapping looks up the
//! integer key or fails) and `update` (`Fields.update` writes existing keys only,
//! `Index.update` takes a written list's items one by one), with Python's `len()` and `in`.

use super::{Found, Loc, PathError, Step};
use crate::value::{Key, Kind, Node, Span};

/// The value being written and how many list items `Index.update` has taken from it.
pub(super) struct Writer {
    pub(super) val: Node,
    pub(super) taken: usize,
}

impl Writer {
    /// The value for one index write: a list gives its next item (Python's `val.pop(0)`).
    fn for_index(&mut self) -> Result<Node, PathError> {
        match &self.val.kind {
            Kind::List(items) => {
                let item = items.get(self.taken).cloned().ok_or_else(|| {
                    PathError("a list written at an index path gives its first item (jsonpath-ng's Index.update pops it), and this list has no item left (IndexError: pop from empty list)".into())
                })?;
                self.taken += 1;
                Ok(item)
            }
            _ => Ok(self.val.clone()),
        }
    }
}

pub(super) fn step_update(
    step: &Step,
    node: &mut Node,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    match step {
        Step::Root => Ok(()),
        Step::Field(f) => field_update(node, f, w, prefix, written),
        Step::AnyField => {
            if let Kind::Map(m) = &mut node.kind {
                for i in 0..m.len() {
                    if let Some((_, v)) = m.get_index_mut(i) {
                        *v = w.val.clone();
                        prefix.push(Loc::Entry(i));
                        written.push(prefix.clone());
                        prefix.pop();
                    }
                }
            }
            Ok(())
        }
        Step::Index(i) => index_update(node, *i, w, prefix, written),
        Step::All => match &node.kind {
            Kind::Null => Ok(()),
            Kind::List(items) => {
                for i in 0..items.len() {
                    index_update(node, i as i64, w, prefix, written)?;
                }
                Ok(())
            }
            // A mapping or scalar is searched as a one-item list: its "item 0" is written.
            Kind::Map(_)
            | Kind::Int(_)
            | Kind::BigInt(_)
            | Kind::Float(_)
            | Kind::Str(_)
            | Kind::Bool(_) => index_update(node, 0, w, prefix, written),
            _ => Err(no_len(node, "[*]")),
        },
    }
}

/// `Fields.update`: sets an existing key of a mapping; other values are tested with Python's
/// `in` (which fails for numbers, and finding the name in a list or string fails on the write).
fn field_update(
    node: &mut Node,
    f: &str,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    match &mut node.kind {
        Kind::Null | Kind::Bool(_) => Ok(()),
        Kind::Map(m) => {
            if let Some(i) = m.get_index_of(&Key::str(f)) {
                if let Some((_, v)) = m.get_index_mut(i) {
                    *v = w.val.clone();
                }
                prefix.push(Loc::Entry(i));
                written.push(prefix.clone());
                prefix.pop();
            }
            Ok(())
        }
        Kind::List(items) => {
            if items.iter().any(|x| x.as_str() == Some(f)) {
                Err(PathError(format!(
                    "cannot write field '{f}' into a list (TypeError: list indices must be integers or slices, not str)"
                )))
            } else {
                Ok(())
            }
        }
        Kind::Str(s) => {
            if s.contains(f) {
                Err(PathError(format!(
                    "cannot write field '{f}' into a string (TypeError: 'str' object does not support item assignment)"
                )))
            } else {
                Ok(())
            }
        }
        _ => Err(PathError(format!(
            "cannot look for field '{f}' in {} (TypeError: argument of type '{}' is not iterable)",
            node.kind_phrase(),
            node.py_type_name()
        ))),
    }
}

/// `Index.update`: `if len(data) > index: data[index] = val`, with Python's `len` and item
/// assignment (a mapping gets an integer key).
fn index_update(
    node: &mut Node,
    i: i64,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    let len = py_len(node).ok_or_else(|| no_len(node, &format!("[{i}]")))?;
    if len <= i {
        return Ok(());
    }
    match &mut node.kind {
        Kind::List(items) => {
            let at = if i < 0 { len + i } else { i };
            let at = usize::try_from(at).map_err(|_| {
                PathError(format!(
                    "index [{i}] is before the start of a list of {len} (IndexError: list assignment index out of range)"
                ))
            })?;
            let val = w.for_index()?;
            if let Some(slot) = items.get_mut(at) {
                *slot = val;
            }
            prefix.push(Loc::Item(at));
            written.push(prefix.clone());
            prefix.pop();
            Ok(())
        }
        Kind::Map(m) => {
            let val = w.for_index()?;
            let key = Key(Node::new(Kind::Int(i), Span::NONE));
            m.insert(key.clone(), val);
            if let Some(at) = m.get_index_of(&key) {
                prefix.push(Loc::Entry(at));
                written.push(prefix.clone());
                prefix.pop();
            }
            Ok(())
        }
        _ => Err(PathError(format!(
            "cannot write index [{i}] into {} (TypeError: '{}' object does not support item assignment)",
            node.kind_phrase(),
            node.py_type_name()
        ))),
    }
}

/// Python's `len()` for the values that have one.
pub(super) fn py_len(node: &Node) -> Option<i64> {
    let n = match &node.kind {
        Kind::List(l) => l.len(),
        Kind::Map(m) => m.len(),
        Kind::Str(s) => s.chars().count(),
        _ => return None,
    };
    i64::try_from(n).ok()
}

pub(super) fn no_len(node: &Node, what: &str) -> PathError {
    PathError(format!(
        "cannot index {} with {what} (TypeError: object of type '{}' has no len())",
        node.kind_phrase(),
        node.py_type_name()
    ))
}

use crate::value::py::py_truthy as truthy;

pub(super) fn find_steps(steps: &[Step], data: &Node) -> Result<Vec<Found>, PathError> {
    let mut cur = vec![Found::At(Vec::new())];
    for step in steps {
        let mut next = Vec::new();
        for f in cur {
            match f {
                Found::At(locs) => {
                    if let Some(node) = get(data, &locs) {
                        step_find(step, node, &locs, &mut next)?;
                    }
                }
                Found::Char(c) => {
                    if matches!(step, Step::Root) {
                        next.push(Found::At(Vec::new()));
                    } else {
                        // Steps into a character: only indices and [*] find anything.
                        let mut sub = Vec::new();
                        step_find(step, &c, &[], &mut sub)?;
                        for s in sub {
                            next.push(match s {
                                Found::At(_) => Found::Char(c.clone()),
                                other => other,
                            });
                        }
                    }
                }
            }
        }
        cur = next;
    }
    Ok(cur)
}

fn step_find(step: &Step, node: &Node, at: &[Loc], out: &mut Vec<Found>) -> Result<(), PathError> {
    let push = |out: &mut Vec<Found>, loc: Loc| {
        let mut v = at.to_vec();
        v.push(loc);
        out.push(Found::At(v));
    };
    match step {
        Step::Root => out.push(Found::At(Vec::new())),
        Step::Field(f) => {
            if let Kind::Map(m) = &node.kind {
                if let Some(i) = m.get_index_of(&Key::str(f)) {
                    push(out, Loc::Entry(i));
                }
            }
        }
        Step::AnyField => {
            if let Kind::Map(m) = &node.kind {
                for i in 0..m.len() {
                    push(out, Loc::Entry(i));
                }
            }
        }
        Step::Index(i) => {
            if !truthy(node) {
                return Ok(());
            }
            let len = py_len(node).ok_or_else(|| no_len(node, &format!("[{i}]")))?;
            if len <= *i {
                return Ok(());
            }
            match &node.kind {
                Kind::List(_) => push(out, Loc::Item(list_index(*i, len)?)),
                Kind::Str(s) => {
                    let at = usize::try_from(if *i < 0 { len + i } else { *i }).map_err(|_| {
                        PathError(format!("index [{i}] is before the start of a string of {len} characters (IndexError: string index out of range)"))
                    })?;
                    let c: String = s.chars().nth(at).map(String::from).unwrap_or_default();
                    out.push(Found::Char(Node::str(c, node.span)));
                }
                Kind::Map(m) => {
                    let key = Key(Node::new(Kind::Int(*i), Span::NONE));
                    match m.get_index_of(&key) {
                        Some(e) => push(out, Loc::Entry(e)),
                        None => {
                            return Err(PathError(format!(
                                "index [{i}] into a mapping without the key {i} (KeyError: {i})"
                            )))
                        }
                    }
                }
                _ => return Err(no_len(node, &format!("[{i}]"))),
            }
        }
        Step::All => match &node.kind {
            Kind::Null => {}
            Kind::List(items) => {
                for i in 0..items.len() {
                    push(out, Loc::Item(i));
                }
            }
            Kind::Map(_)
            | Kind::Int(_)
            | Kind::BigInt(_)
            | Kind::Float(_)
            | Kind::Str(_)
            | Kind::Bool(_) => out.push(Found::At(at.to_vec())),
            _ => return Err(no_len(node, "[*]")),
        },
    }
    Ok(())
}

fn list_index(i: i64, len: i64) -> Result<usize, PathError> {
    let at = if i < 0 { len + i } else { i };
    usize::try_from(at).map_err(|_| {
        PathError(format!(
            "index [{i}] is before the start of a list of {len} (IndexError: list index out of range)"
        ))
    })
}

/// The value at a location.
pub fn get<'a>(data: &'a Node, locs: &[Loc]) -> Option<&'a Node> {
    let mut cur = data;
    for loc in locs {
        cur = match (loc, &cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => m.get_index(*i)?.1,
            (Loc::Item(i), Kind::List(l)) => l.get(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The value at a location, to change it.
pub fn get_mut<'a>(data: &'a mut Node, locs: &[Loc]) -> Option<&'a mut Node> {
    let mut cur = data;
    for loc in locs {
        cur = match (loc, &mut cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => m.get_index_mut(*i)?.1,
            (Loc::Item(i), Kind::List(l)) => l.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A location as JSON Pointer segments (keys as text), for traces and messages.
pub fn pointer(data: &Node, locs: &[Loc], out: &mut crate::value::Path) {
    let mut cur = data;
    for loc in locs {
        match (loc, &cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => {
                let Some((k, v)) = m.get_index(*i) else {
                    return;
                };
                out.push_key(&crate::merge::key_cow(&k.0));
                cur = v;
            }
            (Loc::Item(i), Kind::List(l)) => {
                let Some(v) = l.get(*i) else { return };
                out.push_index(*i);
                cur = v;
            }
            _ => return,
        }
    }
}
