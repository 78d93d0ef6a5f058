//! Union of lists — the items of both in order, each kept at its first occurrence — with the
//! equality the system uses, in linear time: items are found through a hash consistent with
//! that equality (`Chain`, shared with the ranked family's list merges), compared only within
//! one chain, never pairwise. `union_with` is the union by strict equality (Ruby's `Array#|`,
//! which Puppet's `unique` and the deep_merge gem's array merge use): Ruby's `eql?`
//! (`value::ruby`), so `1`, `1.0` and `true` are three values and mappings compare regardless
//! of order. The ranked family's `Unique` is the same union with PowerShell's typed equality
//! (`ranked_list::base_array`, which also drops knocked-out items on the way).

use crate::value::ruby::{eql, eql_hash};
use crate::value::Node;
use rustc_hash::FxHashMap;

/// End of a chain.
pub(super) const END: u32 = u32::MAX;

/// Hash chains: entry ids in insertion order, each hash's entries newest first.
pub(super) struct Chain {
    heads: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

impl Chain {
    pub(super) fn with_capacity(n: usize) -> Chain {
        let mut heads = FxHashMap::default();
        heads.reserve(n);
        Chain {
            heads,
            next: Vec::with_capacity(n),
        }
    }

    pub(super) fn insert(&mut self, h: u64) -> u32 {
        let id = u32::try_from(self.next.len()).unwrap_or(END);
        let prev = self.heads.insert(h, id).unwrap_or(END);
        self.next.push(prev);
        id
    }

    pub(super) fn iter(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let mut cur = self.heads.get(&h).copied().unwrap_or(END);
        std::iter::from_fn(move || {
            if cur == END {
                return None;
            }
            let id = cur;
            cur = self.next.get(id as usize).copied().unwrap_or(END);
            Some(id as usize)
        })
    }

    /// The item kept so far (`kept`, whose i-th item is entry i) equal to `item`, whose hash
    /// is `h`: the first found is the only one, as a union keeps no two equal items.
    pub(super) fn find(
        &self,
        kept: &[Node],
        h: u64,
        item: &Node,
        eq: impl Fn(&Node, &Node) -> bool,
    ) -> Option<usize> {
        self.iter(h)
            .find(|&i| kept.get(i).is_some_and(|k| eq(k, item)))
    }
}

/// The items in order, each kept at its first occurrence by `eq` (with `hash` consistent with
/// it); `dropped(kept, item)` for each item dropped as a duplicate of `kept`.
pub(crate) fn union_by(
    items: impl IntoIterator<Item = Node>,
    hash: impl Fn(&Node) -> u64,
    eq: impl Fn(&Node, &Node) -> bool,
    mut dropped: impl FnMut(&Node, &Node),
) -> Vec<Node> {
    let mut seen = Chain::with_capacity(0);
    let mut out: Vec<Node> = Vec::new();
    for item in items {
        let h = hash(&item);
        if let Some(i) = seen.find(&out, h, &item, &eq) {
            dropped(&out[i], &item);
            continue;
        }
        seen.insert(h);
        out.push(item);
    }
    out
}

/// The union by Ruby's `eql?`; `dropped(kept, item)` for each item dropped as a duplicate.
pub(crate) fn union_with(
    items: impl IntoIterator<Item = Node>,
    dropped: impl FnMut(&Node, &Node),
) -> Vec<Node> {
    union_by(items, eql_hash, eql, dropped)
}

/// [`union_with`] without the report of duplicates.
pub(crate) fn union(items: impl IntoIterator<Item = Node>) -> Vec<Node> {
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
