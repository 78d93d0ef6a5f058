//! Hashing and equality for the ranked list merges (their hash chains are `union::Chain`): a
//! typed hash consistent with `Node`'s equality (Unique),
//! a folded hash consistent with PowerShell-like `-eq` (tuple values: strings
//! case-insensitively, a number equal to its decimal text), and the tuple-key helpers
//! (which keys identify an item, an item's tuple hash, knockout marker items).

use super::casefold::{eq_fold, key_str};
use crate::strategy::ranked::{MapListMode, RankedStrategy};
use crate::value::key_text;
use crate::value::{Key, Kind, Node};
use rustc_hash::FxHasher;
use std::fmt::Write as _;
use std::hash::Hasher;

/// Feeds text to a hasher, lowercased when folding.
struct HashText<'h> {
    h: &'h mut FxHasher,
    fold: bool,
}

impl std::fmt::Write for HashText<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.fold {
            for c in s.chars().flat_map(char::to_lowercase) {
                self.h.write_u32(c as u32);
            }
        } else {
            self.h.write(s.as_bytes());
        }
        Ok(())
    }
}

/// A scalar's text as a key's (`value::key_text`); `None` for null, binary data and
/// containers, which have none here.
pub(super) fn scalar_text(n: &Node) -> Option<String> {
    match &n.kind {
        Kind::Str(_)
        | Kind::Timestamp(_)
        | Kind::BigInt(_)
        | Kind::Bool(_)
        | Kind::Int(_)
        | Kind::Float(_) => Some(key_text(n)),
        _ => None,
    }
}

/// Hash consistent with `value_eq`.
pub(super) fn hash_value(n: &Node, fold: bool, h: &mut FxHasher) {
    if fold {
        match &n.kind {
            Kind::Null => h.write_u8(0),
            Kind::List(items) => {
                h.write_u8(2);
                h.write_usize(items.len());
                items.iter().for_each(|i| hash_value(i, fold, h));
            }
            Kind::Map(m) => {
                h.write_u8(3);
                h.write_usize(m.len());
                for (k, v) in m.iter() {
                    let _ = HashText { h, fold }.write_str(&key_str(k));
                    hash_value(v, fold, h);
                }
            }
            Kind::Str(_) | Kind::Timestamp(_) | Kind::BigInt(_) => {
                h.write_u8(1);
                let _ = HashText { h, fold }.write_str(n.text().unwrap_or_default());
            }
            Kind::Bool(b) => {
                h.write_u8(1);
                let _ = write!(HashText { h, fold }, "{b}");
            }
            Kind::Int(i) => {
                h.write_u8(1);
                let _ = write!(HashText { h, fold }, "{i}");
            }
            Kind::Float(f) => {
                h.write_u8(1);
                let _ = HashText { h, fold }.write_str(&crate::value::float_text(*f));
            }
            // Never equal to anything but themselves (`value_eq`): hashed by kind.
            Kind::Bytes(_) | Kind::Set(_) | Kind::Tuple(_) => h.write_u8(4),
        }
        return;
    }
    match &n.kind {
        Kind::Null => h.write_u8(0),
        Kind::Bool(b) => {
            h.write_u8(1);
            h.write_u8(u8::from(*b));
        }
        Kind::Int(i) => {
            h.write_u8(2);
            h.write_i64(*i);
        }
        Kind::Float(f) => {
            h.write_u8(3);
            let v = if f.is_nan() { f64::NAN } else { *f + 0.0 };
            h.write_u64(v.to_bits());
        }
        Kind::Str(s) => {
            h.write_u8(4);
            h.write(s.as_bytes());
        }
        Kind::BigInt(s) | Kind::Timestamp(s) => {
            h.write_u8(5);
            h.write(s.as_bytes());
        }
        Kind::List(items) => {
            h.write_u8(6);
            h.write_usize(items.len());
            items.iter().for_each(|i| hash_value(i, fold, h));
        }
        Kind::Map(m) => {
            h.write_u8(7);
            h.write_usize(m.len());
            for (k, v) in m.iter() {
                hash_value(&k.0, fold, h);
                hash_value(v, fold, h);
            }
        }
        Kind::Bytes(b) => {
            h.write_u8(8);
            h.write(b);
        }
        // Sets compare without order: hashed by size.
        Kind::Set(m) => {
            h.write_u8(9);
            h.write_usize(m.len());
        }
        Kind::Tuple(items) => {
            h.write_u8(10);
            h.write_usize(items.len());
            items.iter().for_each(|i| hash_value(i, fold, h));
        }
    }
}

/// Typed equality, or (folding) PowerShell-like: scalars by case-insensitive text.
pub(super) fn value_eq(a: &Node, b: &Node, fold: bool) -> bool {
    if !fold {
        return a == b;
    }
    match (&a.kind, &b.kind) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bytes(_) | Kind::Set(_) | Kind::Tuple(_), _) => a == b,
        (Kind::List(x), Kind::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| value_eq(p, q, fold))
        }
        (Kind::Map(x), Kind::Map(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((ka, va), (kb, vb))| {
                    eq_fold(&key_str(ka), &key_str(kb)) && value_eq(va, vb, fold)
                })
        }
        _ => match (scalar_text(a), scalar_text(b)) {
            (Some(x), Some(y)) => eq_fold(&x, &y),
            _ => false,
        },
    }
}

pub(super) fn hash_of(n: &Node, fold: bool) -> u64 {
    let mut h = FxHasher::default();
    hash_value(n, fold, &mut h);
    h.finish()
}

/// What identifies an item of a list of maps.
pub(super) enum TupleKeys {
    Keys(Vec<Box<str>>),
    /// No tuple keys: the whole item.
    Whole,
}

/// The rule's item keys; without them MergeByKeys uses the first item's keys and FirstByKeys
/// whole items.
pub(super) fn tuple_keys(s: &RankedStrategy, items: &[Node]) -> TupleKeys {
    if let Some(f) = &s.item_keys {
        return TupleKeys::Keys(f.value.clone());
    }
    match (s.map_lists.value, items.first().and_then(Node::as_map)) {
        (MapListMode::MergeByKeys, Some(first)) => {
            TupleKeys::Keys(first.keys().map(|k| key_text(&k.0).into()).collect())
        }
        _ => TupleKeys::Whole,
    }
}

pub(super) fn field<'a>(item: &'a Node, key: &str, fold: bool) -> Option<&'a Node> {
    let map = item.as_map()?;
    if fold {
        map.iter()
            .find(|(k, _)| eq_fold(&key_str(k), key))
            .map(|(_, v)| v)
    } else {
        map.get(&Key::str(key))
    }
}

/// The first tuple key the item lacks.
pub(super) fn missing_key<'k>(item: &Node, keys: &'k TupleKeys, fold: bool) -> Option<&'k str> {
    match keys {
        TupleKeys::Keys(ks) => ks
            .iter()
            .find(|k| field(item, k, fold).is_none())
            .map(|k| &**k),
        TupleKeys::Whole => None,
    }
}

/// Hash of the item's tuple values; `None` when a tuple key is missing (it matches nothing).
pub(super) fn tuple_hash(item: &Node, keys: &TupleKeys, fold: bool) -> Option<u64> {
    match keys {
        TupleKeys::Whole => Some(hash_of(item, fold)),
        TupleKeys::Keys(ks) => {
            let mut h = FxHasher::default();
            for k in ks {
                hash_value(field(item, k, fold)?, fold, &mut h);
            }
            Some(h.finish())
        }
    }
}

pub(super) fn tuple_eq(a: &Node, b: &Node, keys: &TupleKeys, fold: bool) -> bool {
    match keys {
        TupleKeys::Whole => value_eq(a, b, fold),
        TupleKeys::Keys(ks) => ks.iter().all(|k| {
            matches!((field(a, k, fold), field(b, k, fold)), (Some(x), Some(y)) if value_eq(x, y, fold))
        }),
    }
}

/// Whether an item knocks out others: a tuple value is a string starting with the prefix.
pub(super) fn is_marker_item(item: &Node, keys: &TupleKeys, prefix: &str, fold: bool) -> bool {
    match keys {
        TupleKeys::Keys(ks) => ks.iter().any(|k| {
            field(item, k, fold)
                .and_then(Node::as_str)
                .is_some_and(|t| t.starts_with(prefix))
        }),
        TupleKeys::Whole => false,
    }
}

/// The item a marker knocks out: the marker with the prefix taken off its tuple values.
pub(super) fn marker_target(
    item: &Node,
    keys: &TupleKeys,
    prefix: &str,
    fold: bool,
) -> Option<Node> {
    let TupleKeys::Keys(ks) = keys else {
        return None;
    };
    if !is_marker_item(item, keys, prefix, fold) {
        return None;
    }
    let mut target = item.clone();
    let map = target.as_map_mut()?;
    for (k, v) in map.iter_mut() {
        let text = key_str(k);
        let is_key = ks.iter().any(|t| {
            if fold {
                eq_fold(t, &text)
            } else {
                **t == *text
            }
        });
        if let (true, Some(rest)) = (is_key, v.as_str().and_then(|s| s.strip_prefix(prefix))) {
            *v = Node::str(rest, v.span);
        }
    }
    Some(target)
}
