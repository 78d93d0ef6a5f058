//! Deckhand's `_execute_data_expansion`: creating the missing parts of a path from its text
//! before a write.

use super::eval::{get_mut, no_len, py_len};
use super::{Loc, PathError};
use crate::value::{Key, Kind, Node, Span};

/// Deckhand's `_execute_data_expansion`: walks the normalised path text split at every `.`
/// (quotes included, as the original does) and creates what is missing: `{}` for a name,
/// a list padded with `{}` for `name[i]`. Fails where Python would raise.
pub fn expand(data: &mut Node, text: &str) -> Result<(), PathError> {
    let pieces: Vec<&str> = text.split('.').skip(1).collect();
    // `d` as a location; `None` once it became a value that is not in the data (None).
    let mut at: Option<Vec<Loc>> = Some(Vec::new());
    for piece in pieces {
        let Some(locs) = at.clone() else {
            return Err(PathError(format!(
                "creating the path '{text}' stepped into a missing value at '{piece}' (TypeError: argument of type 'NoneType' is not iterable)"
            )));
        };
        let Some(d) = get_mut(data, &locs) else {
            return Err(PathError(format!("cannot create the path '{text}'")));
        };
        if is_array_piece(piece) {
            if let Some(next) = expand_array(d, piece, &locs, text)? {
                at = Some(next);
                continue;
            }
            // int() failed (ValueError) or the index was out of range: `d.get(piece)`.
            at = map_get(d, piece, &locs, text)?;
            continue;
        }
        let present = py_in(d, piece, text)?;
        let name = if present {
            piece.to_string()
        } else {
            let stripped = piece.trim_matches('\'').trim_matches('"').to_string();
            let Kind::Map(m) = &mut d.kind else {
                return Err(not_a_map(d, piece, text));
            };
            if m.get_index_of(&Key::str(&stripped)).is_none() {
                m.insert(Key::str(&stripped), Node::empty_map(Span::NONE));
            }
            stripped
        };
        at = map_get(d, &name, &locs, text)?;
    }
    Ok(())
}

/// `d.get(name)`: the location of the value, `None` when absent; fails for a non-mapping.
fn map_get(d: &Node, name: &str, locs: &[Loc], text: &str) -> Result<Option<Vec<Loc>>, PathError> {
    match &d.kind {
        Kind::Map(m) => Ok(m.get_index_of(&Key::str(name)).map(|i| {
            let mut v = locs.to_vec();
            v.push(Loc::Entry(i));
            v
        })),
        _ => Err(not_a_map(d, name, text)),
    }
}

fn not_a_map(d: &Node, piece: &str, text: &str) -> PathError {
    PathError(format!(
        "cannot create the path '{text}': '{piece}' would go into {}, not a mapping (AttributeError: '{}' object has no attribute 'get')",
        d.kind_phrase(),
        d.py_type_name()
    ))
}

/// Python's `piece in d` for the value `d` the expansion stands on.
fn py_in(d: &Node, piece: &str, text: &str) -> Result<bool, PathError> {
    match &d.kind {
        Kind::Map(m) => Ok(m.get_index_of(&Key::str(piece)).is_some()),
        Kind::List(l) => Ok(l.iter().any(|x| x.as_str() == Some(piece))),
        Kind::Str(s) => Ok(s.contains(piece)),
        _ => Err(PathError(format!(
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

/// The array branch: `name[i]` creates or pads list `name`. `Ok(None)` when Python's
/// `except (IndexError, ValueError)` swallowed a failure.
fn expand_array(
    d: &mut Node,
    piece: &str,
    locs: &[Loc],
    text: &str,
) -> Result<Option<Vec<Loc>>, PathError> {
    let mut parts = piece.split('[');
    let name = parts.next().unwrap_or("");
    let raw = parts.next().unwrap_or("");
    let raw = raw.get(..raw.len().saturating_sub(1)).unwrap_or("");
    let Some(index) = py_int(raw) else {
        return Ok(None);
    };
    let Kind::Map(m) = &mut d.kind else {
        return Err(not_a_map(d, name, text));
    };
    let key = Key::str(name);
    if m.get_index_of(&key).is_none() {
        m.insert(key.clone(), Node::list(Vec::new(), Span::NONE));
    }
    let Some(entry) = m.get_index_of(&key) else {
        return Ok(None);
    };
    let Some((_, list)) = m.get_index_mut(entry) else {
        return Ok(None);
    };
    let len = py_len(list).ok_or_else(|| no_len(list, &format!("[{index}]")))?;
    if len < index + 1 {
        match &mut list.kind {
            Kind::List(items) => {
                while (items.len() as i64) < index + 1 {
                    items.push(Node::empty_map(Span::NONE));
                }
            }
            _ => {
                return Err(PathError(format!(
                    "cannot create the path '{text}': '{name}' is {}, not a list (AttributeError: '{}' object has no attribute 'append')",
                    list.kind_phrase(),
                    list.py_type_name()
                )))
            }
        }
    }
    let mut at = locs.to_vec();
    at.push(Loc::Entry(entry));
    match &list.kind {
        Kind::List(items) => {
            let len = items.len() as i64;
            let i = if index < 0 { len + index } else { index };
            match usize::try_from(i) {
                Ok(i) if i < items.len() => {
                    at.push(Loc::Item(i));
                    Ok(Some(at))
                }
                // IndexError, swallowed.
                _ => Ok(None),
            }
        }
        Kind::Map(_) => Err(PathError(format!(
            "cannot create the path '{text}': '{name}' is a mapping, not a list (KeyError: {index})"
        ))),
        _ => Err(PathError(format!(
            "cannot create the path '{text}': '{name}' is {}, not a list",
            list.kind_phrase()
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
