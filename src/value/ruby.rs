//! Ruby's view of data values, which the deep_merge gem and Puppet act on: truthiness (`nil`
//! and `false`), `eql?` with a hash consistent with it (`Array#|` keeps items by it), `<=>` and
//! `sort!` (mixed types fail as Ruby does), class names for Ruby's messages. The merge engine's
//! Ruby-like mergers (`merge::union`, `merge::gem`) and the Hiera front-end use it.

use super::{Kind, Node, Span};
use rustc_hash::FxHasher;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// Ruby truthiness: everything but `nil` and `false`.
pub fn truthy(n: &Node) -> bool {
    !matches!(n.kind, Kind::Null | Kind::Bool(false))
}

/// A string value's text (timestamps are kept as their text, as strings).
pub fn text(n: &Node) -> Option<&str> {
    match &n.kind {
        Kind::Str(s) => Some(s),
        Kind::Timestamp(t) => Some(t),
        _ => None,
    }
}

/// `eql?`: scalars are equal only with the same type and value (`1`, `1.0` and `true` are
/// three values), strings and timestamps by their text, arrays item by item in order, hashes
/// entry by entry regardless of order.
pub fn eql(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Map(x), Kind::Map(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eql(v, w)))
        }
        (Kind::List(x), Kind::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| eql(p, q))
        }
        _ => match (text(a), text(b)) {
            (Some(p), Some(q)) => p == q,
            (None, None) => a == b,
            _ => false,
        },
    }
}

/// A hash consistent with [`eql`] (order-blind for hashes).
pub(crate) fn eql_hash(n: &Node) -> u64 {
    let mut h = FxHasher::default();
    feed(n, &mut h);
    h.finish()
}

fn feed(n: &Node, h: &mut FxHasher) {
    match &n.kind {
        Kind::Null => 0u8.hash(h),
        Kind::Bool(b) => (1u8, *b).hash(h),
        Kind::Int(i) => (2u8, *i).hash(h),
        Kind::BigInt(s) => (3u8, &**s).hash(h),
        Kind::Float(f) => (4u8, f.to_bits()).hash(h),
        Kind::Str(_) | Kind::Timestamp(_) => (5u8, text(n).unwrap_or_default()).hash(h),
        Kind::List(items) | Kind::Tuple(items) => {
            (6u8, items.len()).hash(h);
            for i in items {
                feed(i, h);
            }
        }
        Kind::Map(m) | Kind::Set(m) => {
            // Entries combined with a commutative sum: key order does not matter.
            let mut sum = 0u64;
            for (k, v) in m.iter() {
                let mut e = FxHasher::default();
                feed(&k.0, &mut e);
                feed(v, &mut e);
                sum = sum.wrapping_add(e.finish());
            }
            (7u8, m.len(), sum).hash(h);
        }
        Kind::Bytes(b) => (8u8, &b[..]).hash(h),
    }
}

/// Ruby's `<=>`; `None` where Ruby returns nil (the sort then fails).
pub fn compare(a: &Node, b: &Node) -> Option<Ordering> {
    use Kind::*;
    match (&a.kind, &b.kind) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Int(x), Float(y)) => (*x as f64).partial_cmp(y),
        (Float(x), Int(y)) => x.partial_cmp(&(*y as f64)),
        (Float(x), Float(y)) => x.partial_cmp(y),
        (List(x), List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match compare(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => match (text(a), text(b)) {
            (Some(p), Some(q)) => Some(p.as_bytes().cmp(q.as_bytes())),
            // Object#<=>: 0 when equal, else nil.
            _ => (a == b || eql(a, b)).then_some(Ordering::Equal),
        },
    }
}

/// `sort!`: sorts, or says which two classes Ruby could not compare.
pub fn sort(items: &mut [Node]) -> Result<(), String> {
    let mut failed: Option<(String, String)> = None;
    items.sort_by(|a, b| match compare(a, b) {
        Some(o) => o,
        None => {
            if failed.is_none() {
                failed = Some((class_name(a).into(), class_name(b).into()));
            }
            Ordering::Equal
        }
    });
    match failed {
        None => Ok(()),
        Some((a, b)) => Err(format!("comparison of {a} with {b} failed")),
    }
}

/// The Ruby class of a value (for Ruby's own messages).
pub fn class_name(n: &Node) -> &'static str {
    match &n.kind {
        Kind::Null => "NilClass",
        Kind::Bool(true) => "TrueClass",
        Kind::Bool(false) => "FalseClass",
        Kind::Int(_) | Kind::BigInt(_) => "Integer",
        Kind::Float(_) => "Float",
        Kind::Str(_) | Kind::Timestamp(_) | Kind::Bytes(_) => "String",
        Kind::List(_) | Kind::Tuple(_) => "Array",
        Kind::Map(_) | Kind::Set(_) => "Hash",
    }
}

/// A string node at `span`.
pub fn string(s: impl Into<String>, span: Span) -> Node {
    Node::str(s.into(), span)
}
