//! Union by strict equality, the `ListMethod::Union` merge: the items of both lists in order,
//! each kept at its first occurrence, so duplicates within either side go too (Ruby's
//! `Array#|`, which Puppet's `unique` and the deep_merge gem's array merge use). Strict
//! equality: scalars are equal only with the same type and value (`1`, `1.0` and `true` are
//! three values), strings and timestamps by their text, lists item by item in order, mappings
//! entry by entry regardless of order. Linear: items are found through a hash consistent with
//! it, compared only within one bucket.

use crate::value::{Kind, Node};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// A string's or a timestamp's text.
fn text(n: &Node) -> Option<&str> {
    match &n.kind {
        Kind::Str(s) => Some(s),
        Kind::Timestamp(t) => Some(t),
        _ => None,
    }
}

/// Strict equality (see the module's comment).
pub fn strict_eq(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Map(x), Kind::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| strict_eq(v, w)))
        }
        (Kind::List(x), Kind::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| strict_eq(p, q))
        }
        _ => match (text(a), text(b)) {
            (Some(p), Some(q)) => p == q,
            (None, None) => a == b,
            _ => false,
        },
    }
}

/// A hash consistent with [`strict_eq`] (order-blind for mappings).
pub fn strict_hash(n: &Node) -> u64 {
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

/// The items in order, each kept at its first occurrence; `dropped(kept, item)` for each item
/// dropped as a duplicate of `kept`.
pub fn union_with(
    items: impl IntoIterator<Item = Node>,
    mut dropped: impl FnMut(&Node, &Node),
) -> Vec<Node> {
    let mut seen: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    let mut out: Vec<Node> = Vec::new();
    for item in items {
        let bucket = seen.entry(strict_hash(&item)).or_default();
        if let Some(&i) = bucket.iter().find(|&&i| strict_eq(&out[i], &item)) {
            dropped(&out[i], &item);
            continue;
        }
        bucket.push(out.len());
        out.push(item);
    }
    out
}

/// [`union_with`] without the report of duplicates.
pub fn union(items: impl IntoIterator<Item = Node>) -> Vec<Node> {
    union_with(items, |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::{Engine, Outcome, Trace};
    use crate::strategy::{ListMethod, ListOpts, Merger, MergerSpec, Origin, RuleSet, Stack};
    use crate::value::Span;

    /// Integers, the `i`-th written at `base + i`.
    fn ints(values: &[i64], base: u32) -> Node {
        let items = values.iter().zip(base..).map(|(&v, at)| {
            Node::new(
                Kind::Int(v),
                Span {
                    start: at,
                    end: at + 1,
                },
            )
        });
        Node::list(
            items.collect::<Vec<Node>>(),
            Span {
                start: base,
                end: base + 1,
            },
        )
    }

    #[test]
    fn union_merge_appends_new_items_and_records_duplicates() {
        let rules = RuleSet::single(Stack {
            mergers: vec![Merger {
                spec: MergerSpec::List(ListOpts {
                    method: ListMethod::Union,
                    recurse_list: false,
                    recurse_str: false,
                    recurse_dict: false,
                }),
                text: "unique".into(),
                origin: Origin::Default("test".into()),
            }],
            replace_unhandled: false,
            by_new_type: false,
        });
        let mut trace = Trace::default();
        let merged = Engine::new(&rules, Some(&mut trace))
            .merge_layer(ints(&[1, 2, 1], 0), ints(&[2, 3, 3], 100))
            .unwrap_or_else(|(e, _)| panic!("merges: {}", e.message));
        let values: Vec<i64> = merged
            .as_list()
            .expect("a list")
            .iter()
            .filter_map(|n| match n.kind {
                Kind::Int(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(values, [1, 2, 3]);
        let steps: Vec<(String, Outcome, u32)> = trace
            .steps
            .iter()
            .map(|s| (s.path.to_string(), s.outcome, s.value.start))
            .collect();
        assert_eq!(
            steps,
            [
                ("/2".to_string(), Outcome::Appended, 101),
                (String::new(), Outcome::Kept, 1),
                (String::new(), Outcome::Kept, 101),
            ]
        );
    }

    fn n(kind: Kind) -> Node {
        Node::new(kind, Span::NONE)
    }

    #[test]
    fn strict_equality_keeps_types_apart() {
        let items = vec![
            n(Kind::Int(1)),
            n(Kind::Float(1.0)),
            n(Kind::Bool(true)),
            n(Kind::Int(1)),
            Node::str("a".to_string(), Span::NONE),
            n(Kind::Timestamp("a".into())),
        ];
        let kinds: Vec<&str> = union(items).iter().map(Node::py_type_name).collect();
        assert_eq!(kinds, ["int", "float", "bool", "str"]);
    }
}
