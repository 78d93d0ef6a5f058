//! Union by strict equality, the `ListMethod::Union` merge: the items of both lists in order,
//! each kept at its first occurrence, so duplicates within either side go too (Ruby's
//! `Array#|`, which Puppet's `unique` and the deep_merge gem's array merge use). Strict
//! equality is Ruby's `eql?` (`value::ruby`): `1`, `1.0` and `true` are three values, mappings
//! compare regardless of order. Linear: items are found through a hash consistent with it,
//! compared only within one bucket.

use crate::value::ruby::{eql, eql_hash};
use crate::value::Node;
use rustc_hash::FxHashMap;

/// The items in order, each kept at its first occurrence; `dropped(kept, item)` for each item
/// dropped as a duplicate of `kept`.
pub fn union_with(
    items: impl IntoIterator<Item = Node>,
    mut dropped: impl FnMut(&Node, &Node),
) -> Vec<Node> {
    let mut seen: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    let mut out: Vec<Node> = Vec::new();
    for item in items {
        let bucket = seen.entry(eql_hash(&item)).or_default();
        if let Some(&i) = bucket.iter().find(|&&i| eql(&out[i], &item)) {
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
    use crate::strategy::{ListMethod, ListOpts, Merger, MergerSpec, Origin, RuleSet};
    use crate::value::{Kind, Span};

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
        let rules = RuleSet::one(Merger {
            spec: MergerSpec::List(ListOpts {
                method: ListMethod::Union,
                recurse_list: false,
                recurse_str: false,
                recurse_dict: false,
            }),
            text: "unique".into(),
            origin: Origin::Default("test".into()),
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
