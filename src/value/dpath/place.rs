//! Places in a value: a location is a list of map-entry and list-item positions from the top
//! (`Loc`), read with [`get`], changed with [`get_mut`], named as a JSON Pointer with
//! [`pointer`]; and Python's `len()` of a value, with the `TypeError` it raises otherwise.

use super::{Loc, PathError};
use crate::value::{Kind, Node};

/// The value at a location.
pub fn get<'a>(data: &'a Node, locs: &[Loc]) -> Option<&'a Node> {
    let mut cur = data;
    for loc in locs {
        cur = match (loc, &cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => m.get_index(*i)?.1,
            (Loc::Item(i), Kind::List(l) | Kind::Tuple(l)) => l.get(*i)?,
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
            (Loc::Item(i), Kind::List(l) | Kind::Tuple(l)) => l.get_mut(*i)?,
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
                out.push_key(&crate::value::key_cow(&k.0));
                cur = v;
            }
            (Loc::Item(i), Kind::List(l) | Kind::Tuple(l)) => {
                let Some(v) = l.get(*i) else { return };
                out.push_index(*i);
                cur = v;
            }
            _ => return,
        }
    }
}

/// Python's `len()` for the values that have one.
pub(super) fn py_len(node: &Node) -> Option<i64> {
    let n = match &node.kind {
        Kind::List(l) | Kind::Tuple(l) => l.len(),
        Kind::Map(m) | Kind::Set(m) => m.len(),
        Kind::Str(s) => s.chars().count(),
        Kind::Bytes(b) => b.len(),
        _ => return None,
    };
    i64::try_from(n).ok()
}

/// The `TypeError` of `len()` on a value without one.
pub(super) fn no_len(node: &Node, what: &str) -> PathError {
    PathError::python(
        "TypeError",
        format!(
            "cannot index {} with {what}: object of type '{}' has no len()",
            node.kind_phrase(),
            node.py_type_name()
        ),
    )
}
