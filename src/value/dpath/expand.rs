//! Deckhand's `_execute_data_expansion`: creating the missing parts of a path from its text
//! before a write. It knows nothing of jsonpath: it splits the text at every `.` (quotes and
//! brackets included) and walks the pieces with Python's `in`, `setdefault`, `len`, `[]` and
//! `get`, so a piece like `x[1][0:1]` or `(a|b)` makes keys of those names.

use super::place::{get, get_mut, no_len, py_len};
use super::{Loc, PathError};
use crate::value::{Key, Kind, Node, Span};

/// Where the walk stands (`d` in the original).
enum Cur {
    /// A value of the data.
    At(Vec<Loc>),
    /// A value that is not in the data: a character of a string, or `None`.
    Off(Node),
}

/// Deckhand's `_execute_data_expansion`: walks the normalised path text split at every `.`
/// and creates what is missing: `{}` for a name, a list padded with `{}` for `name[i]`.
/// Fails where Python would raise.
pub fn expand(data: &mut Node, text: &str) -> Result<(), PathError> {
    let mut cur = Cur::At(Vec::new());
    for piece in text.split('.').skip(1) {
        let off;
        let d: &Node = match &cur {
            Cur::At(at) => match get(data, at) {
                Some(d) => d,
                None => return Err(PathError::crash(format!("cannot create the path '{text}'"))),
            },
            Cur::Off(n) => {
                off = n.clone();
                &off
            }
        };
        if is_array_piece(piece) {
            if let Some(next) = array(data, &cur, piece, text)? {
                cur = next;
                continue;
            }
            // int() failed, or the index was out of range (ValueError, IndexError): on to
            // `d = d.get(piece)`.
        } else if !py_in(d, piece, text)? {
            let name = piece.trim_matches('\'').trim_matches('"');
            let Cur::At(at) = &cur else {
                return Err(no_attribute(d, "setdefault", text));
            };
            match get_mut(data, at).map(|n| &mut n.kind) {
                Some(Kind::Map(m)) => {
                    if m.get_index_of(&Key::str(name)).is_none() {
                        m.insert(Key::str(name), Node::empty_map(Span::NONE));
                    }
                }
                _ => {
                    let d = get(data, at).cloned().unwrap_or(Node::null(Span::NONE));
                    return Err(no_attribute(&d, "setdefault", text));
                }
            }
            cur = dict_get(data, &cur, name, text)?;
            continue;
        }
        cur = dict_get(data, &cur, piece, text)?;
    }
    Ok(())
}

/// `d.get(name)`: the value, or `None`; fails for anything but a mapping.
fn dict_get(data: &Node, cur: &Cur, name: &str, text: &str) -> Result<Cur, PathError> {
    let null = || Cur::Off(Node::null(Span::NONE));
    match cur {
        Cur::At(at) => match get(data, at) {
            Some(Node {
                kind: Kind::Map(m), ..
            }) => Ok(m.get_index_of(&Key::str(name)).map_or_else(null, |i| {
                let mut v = at.clone();
                v.push(Loc::Entry(i));
                Cur::At(v)
            })),
            d => Err(no_attribute(
                &d.cloned().unwrap_or(Node::null(Span::NONE)),
                "get",
                text,
            )),
        },
        Cur::Off(n) => Err(no_attribute(n, "get", text)),
    }
}

fn no_attribute(d: &Node, what: &str, text: &str) -> PathError {
    PathError::crash(format!(
        "cannot create the path '{text}': it goes into {}, which is not a mapping (AttributeError: '{}' object has no attribute '{what}')",
        d.kind_phrase(),
        d.py_type_name()
    ))
}

/// Python's `piece in d`.
fn py_in(d: &Node, piece: &str, text: &str) -> Result<bool, PathError> {
    match &d.kind {
        Kind::Map(m) | Kind::Set(m) => Ok(m.get_index_of(&Key::str(piece)).is_some()),
        Kind::List(l) | Kind::Tuple(l) => Ok(l.iter().any(|x| x.as_str() == Some(piece))),
        Kind::Str(s) => Ok(s.contains(piece)),
        _ => Err(PathError::crash(format!(
            "cannot create the path '{text}': '{piece}' would go into {} (TypeError: argument of type '{}' is not iterable)",
            d.kind_phrase(),
            d.py_type_name()
        ))),
    }
}

/// `re.match(r'.*\[\d+\].*', piece)` (`.` does not match a line break).
pub(super) fn is_array_piece(piece: &str) -> bool {
    let first_line = piece.split('\n').next().unwrap_or("");
    let b = first_line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && b.get(j) == Some(&b']') {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The array branch: `d.setdefault(name, [])`, pad `d[name]` with `{}` to `index + 1`
/// items, `d = d[name][index]`. `Ok(None)` when Python's `except (IndexError, ValueError)`
/// swallowed a failure.
fn array(data: &mut Node, cur: &Cur, piece: &str, text: &str) -> Result<Option<Cur>, PathError> {
    let mut parts = piece.split('[');
    let name = parts.next().unwrap_or("");
    let raw = parts.next().unwrap_or("");
    let raw = raw.get(..raw.len().saturating_sub(1)).unwrap_or("");
    let Some(index) = py_int(raw) else {
        return Ok(None);
    };
    let at = match cur {
        Cur::At(at) => at.clone(),
        Cur::Off(n) => return Err(no_attribute(n, "setdefault", text)),
    };
    let key = Key::str(name);
    let entry = match get_mut(data, &at).map(|n| &mut n.kind) {
        Some(Kind::Map(m)) => {
            if m.get_index_of(&key).is_none() {
                m.insert(key.clone(), Node::list(Vec::new(), Span::NONE));
            }
            m.get_index_of(&key).unwrap_or(0)
        }
        _ => {
            let d = get(data, &at).cloned().unwrap_or(Node::null(Span::NONE));
            return Err(no_attribute(&d, "setdefault", text));
        }
    };
    let mut here = at;
    here.push(Loc::Entry(entry));
    let Some(list) = get_mut(data, &here) else {
        return Ok(None);
    };
    let len = py_len(list).ok_or_else(|| no_len(list, &format!("[{index}]")))?;
    if len < index.saturating_add(1) {
        match &mut list.kind {
            Kind::List(items) => {
                while (items.len() as i64) < index.saturating_add(1) {
                    items.push(Node::empty_map(Span::NONE));
                }
            }
            _ => {
                let d = list.clone();
                return Err(PathError::crash(format!(
                    "cannot create the path '{text}': '{name}' is {}, not a list (AttributeError: '{}' object has no attribute 'append')",
                    d.kind_phrase(),
                    d.py_type_name()
                )));
            }
        }
    }
    // `d[name][index]`: an item (IndexError swallowed), a key of a mapping (KeyError is not),
    // a character of a string.
    let len = py_len(list).unwrap_or(0);
    let pos = if index < 0 { len + index } else { index };
    match &list.kind {
        Kind::List(_) | Kind::Tuple(_) => Ok(usize::try_from(pos).ok().filter(|&p| (p as i64) < len).map(|p| {
            here.push(Loc::Item(p));
            Cur::At(here)
        })),
        Kind::Map(m) => match m.get_index_of(&Key(Node::new(Kind::Int(index), Span::NONE))) {
            Some(e) => {
                here.push(Loc::Entry(e));
                Ok(Some(Cur::At(here)))
            }
            None => Err(PathError::crash(format!(
                "cannot create the path '{text}': '{name}' is a mapping without the key {index} (KeyError: {index})"
            ))),
        },
        Kind::Str(s) => Ok(usize::try_from(pos)
            .ok()
            .and_then(|p| s.chars().nth(p))
            .map(|c| Cur::Off(Node::str(c.to_string(), Span::NONE)))),
        _ => Err(PathError::crash(format!(
            "cannot create the path '{text}': '{name}' is {} (TypeError: '{}' object is not subscriptable)",
            list.kind_phrase(),
            list.py_type_name()
        ))),
    }
}

/// Python's `int(text)` for the text between `[` and `]`: blanks around, an optional sign,
/// digits with single underscores between them.
pub(super) fn py_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    let n: i64 = digits.replace('_', "").parse().ok()?;
    Some(if neg { -n } else { n })
}
