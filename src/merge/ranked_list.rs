//! The ranked merge's list merges, in linear time: `Union` / `Concat` for lists of scalars and
//! `Concat` / `FirstByKeys` / `MergeByKeys` for lists of maps. Items are found through hash
//! chains (FxHash of the item, or of its item-key values) and compared only within a chain,
//! never pairwise. Union compares typed and case-sensitively (PowerShell's
//! `Select-Object -Unique`); item-key values compare, when the rules fold, as PowerShell's
//! `-eq` does in the common cases: strings case-insensitively, a number equal to its decimal
//! text. Knockout markers (`--item`, `Name: --x`) of the more specific side drop equal items
//! of the less specific side. Items merged key by key go back to the ranked map merge through
//! the engine's one dispatch (`Policy::Maps`).

use super::fault::NoticeKind;
use super::rank_ctx::{Frame, RankCtx};
use super::ranked_keys::{
    hash_of, marker_target, missing_key, tuple_eq, tuple_hash, tuple_keys, TupleKeys,
};
use super::union::Chain;
use super::Outcome;
use super::{Engine, Policy};
use crate::strategy::ranked::RankedStrategy;
use crate::strategy::Merger as Spec;
use crate::value::{Kind, Node, Span};
use rustc_hash::FxHashMap;

fn into_items(n: Node) -> Vec<Node> {
    match n.kind {
        Kind::List(items) => Vec::from(items),
        _ => Vec::new(),
    }
}

fn at_index(eng: &mut Engine<'_>, i: usize, f: impl FnOnce(&mut Engine<'_>)) {
    eng.push_index(i);
    f(eng);
    eng.pop();
}

fn knockout_rule(s: &RankedStrategy) -> Option<&Spec> {
    s.knockout_prefix.as_ref().map(|f| &f.rule)
}

/// `Unique` (union, first occurrence kept) or `Sum` (concatenation) of scalar arrays, most
/// specific items first, less specific items equal to a knockout marker dropped.
pub(super) fn base_array(
    eng: &mut Engine<'_>,
    _ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    r: Node,
    d: Node,
    unique: bool,
) -> Node {
    let span = r.span;
    let rule = &s.lists.rule;
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let (r_items, d_items) = (into_items(r), into_items(d));
    let mut knocks: FxHashMap<Box<str>, Node> = FxHashMap::default();
    if let Some(p) = s.knockout_prefix.as_ref().map(|f| &*f.value) {
        for item in &r_items {
            if let Some(target) = item.as_str().and_then(|t| t.strip_prefix(p)) {
                knocks.entry(target.into()).or_insert_with(|| item.clone());
            }
        }
    }
    let mut out: Vec<Node> = Vec::with_capacity(r_items.len() + d_items.len());
    let mut seen = Chain::with_capacity(if unique { out.capacity() } else { 0 });
    // A knocked-out item is named by its place in the less specific list it was in (it has
    // none in the result).
    for (from_d, j, item) in r_items
        .into_iter()
        .map(|i| (false, 0, i))
        .chain(d_items.into_iter().enumerate().map(|(j, i)| (true, j, i)))
    {
        if from_d {
            if let Some(marker) = item.as_str().and_then(|t| knocks.get(t)) {
                at_index(eng, j, |e| {
                    e.record(
                        Outcome::Deleted,
                        knockout_rule(s),
                        marker.span,
                        &[&item],
                        &[marker],
                    )
                });
                continue;
            }
        }
        if unique {
            let h = hash_of(&item, false);
            if let Some(e) = seen.find(&out, h, &item, |a, b| a == b) {
                let kept_span = out.get(e).map_or(Span::NONE, |o| o.span);
                at_index(eng, e, |eng| {
                    eng.record(Outcome::Kept, Some(rule), kept_span, &[], &[&item])
                });
                continue;
            }
            seen.insert(h);
        }
        if from_d {
            at_index(eng, out.len(), |e| {
                e.record(Outcome::Appended, Some(rule), item.span, &[], &[])
            });
        }
        out.push(item);
    }
    Node::list(out, span)
}

/// `Sum` of hash arrays: concatenation, most specific items first.
pub(super) fn hash_sum(eng: &mut Engine<'_>, s: &RankedStrategy, r: Node, d: Node) -> Node {
    let span = r.span;
    let rule = &s.map_lists.rule;
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let mut out = into_items(r);
    for item in into_items(d) {
        at_index(eng, out.len(), |e| {
            e.record(Outcome::Appended, Some(rule), item.span, &[], &[])
        });
        out.push(item);
    }
    Node::list(out, span)
}

/// Marker targets of the more specific items, by tuple hash.
fn knock_targets(
    items: &[Node],
    keys: &TupleKeys,
    s: &RankedStrategy,
    fold: bool,
) -> (Vec<(Node, Span)>, Chain) {
    let mut targets = Vec::new();
    let mut chain = Chain::with_capacity(0);
    if let Some(p) = s.knockout_prefix.as_ref().map(|f| &*f.value) {
        for item in items {
            if let Some(t) = marker_target(item, keys, p, fold) {
                if let Some(h) = tuple_hash(&t, keys, fold) {
                    chain.insert(h);
                    targets.push((t, item.span));
                }
            }
        }
    }
    (targets, chain)
}

fn knocked<'t>(
    item: &Node,
    h: u64,
    targets: &'t [(Node, Span)],
    chain: &Chain,
    keys: &TupleKeys,
    fold: bool,
) -> Option<&'t (Node, Span)> {
    chain
        .iter(h)
        .filter_map(|e| targets.get(e))
        .find(|(t, _)| tuple_eq(t, item, keys, fold))
}

fn warn_missing(eng: &mut Engine<'_>, ctx: &RankCtx<'_>, key: &str, item: &Node) {
    let key = key.to_string();
    ctx.notice(eng, item.span, |at| NoticeKind::ItemWithoutKey { at, key });
}

/// UniqueKeyValTuples: more specific items, then less specific ones, each kept only if no item
/// kept before has the same tuple-key values; items are never merged.
pub(super) fn first_by_keys(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    r: Node,
    d: Node,
) -> Node {
    let span = r.span;
    let rule = &s.map_lists.rule;
    let fold = ctx.fold();
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let (r_items, d_items) = (into_items(r), into_items(d));
    let keys = tuple_keys(s, &r_items);
    if s.item_keys.is_none() {
        let first = r_items.first().map_or(span, |i| i.span);
        ctx.notice(eng, first, |at| NoticeKind::ItemsComparedWhole { at });
    }
    let (targets, knock_chain) = knock_targets(&r_items, &keys, s, fold);
    let mut out: Vec<Node> = Vec::with_capacity(r_items.len() + d_items.len());
    let mut chain = Chain::with_capacity(out.capacity());
    let mut slot_of: Vec<usize> = Vec::with_capacity(out.capacity());
    let mut warned = false;
    for (from_d, item) in r_items
        .into_iter()
        .map(|i| (false, i))
        .chain(d_items.into_iter().map(|i| (true, i)))
    {
        match tuple_hash(&item, &keys, fold) {
            None => {
                if let (false, Some(k)) = (warned, missing_key(&item, &keys, fold)) {
                    warn_missing(eng, ctx, k, &item);
                    warned = true;
                }
            }
            Some(h) => {
                if from_d {
                    if let Some((marker, mspan)) =
                        knocked(&item, h, &targets, &knock_chain, &keys, fold)
                    {
                        let at = out.len();
                        at_index(eng, at, |e| {
                            e.record(
                                Outcome::Deleted,
                                knockout_rule(s),
                                *mspan,
                                &[&item],
                                &[marker],
                            )
                        });
                        continue;
                    }
                }
                let dup = chain
                    .iter(h)
                    .filter_map(|e| slot_of.get(e).copied())
                    .find(|&o| out.get(o).is_some_and(|o| tuple_eq(o, &item, &keys, fold)));
                if let Some(o) = dup {
                    let kept_span = out.get(o).map_or(Span::NONE, |n| n.span);
                    at_index(eng, o, |e| {
                        e.record(Outcome::Kept, Some(rule), kept_span, &[], &[&item])
                    });
                    continue;
                }
                chain.insert(h);
                slot_of.push(out.len());
            }
        }
        if from_d {
            at_index(eng, out.len(), |e| {
                e.record(Outcome::Appended, Some(rule), item.span, &[], &[])
            });
        }
        out.push(item);
    }
    Node::list(out, span)
}

/// DeepTuple: every more specific item absorbs, key by key (recursively), each less specific
/// item with the same tuple-key values; less specific items that matched nothing follow.
pub(super) fn merge_by_keys(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    r: Node,
    d: Node,
) -> Node {
    let span = r.span;
    let rule = &s.map_lists.rule;
    let fold = ctx.fold();
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let (r_items, d_items) = (into_items(r), into_items(d));
    let keys = tuple_keys(s, &r_items);
    if let (None, TupleKeys::Keys(ks)) = (&s.item_keys, &keys) {
        let keys: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
        let first = r_items.first().map_or(span, |i| i.span);
        ctx.notice(eng, first, |at| NoticeKind::ItemKeysFromFirst { at, keys });
    }
    let (targets, knock_chain) = knock_targets(&r_items, &keys, s, fold);
    // Index the less specific items by tuple; drop the knocked-out ones.
    let mut chain = Chain::with_capacity(d_items.len());
    let mut slot_of: Vec<usize> = Vec::with_capacity(d_items.len());
    let mut gone = vec![false; d_items.len()];
    let mut warned = false;
    for (j, item) in d_items.iter().enumerate() {
        let h = tuple_hash(item, &keys, fold);
        if let Some(h) = h {
            if let Some((marker, mspan)) = knocked(item, h, &targets, &knock_chain, &keys, fold) {
                at_index(eng, j, |e| {
                    e.record(
                        Outcome::Deleted,
                        knockout_rule(s),
                        *mspan,
                        &[item],
                        &[marker],
                    )
                });
                if let Some(g) = gone.get_mut(j) {
                    *g = true;
                }
            } else {
                chain.insert(h);
                slot_of.push(j);
            }
        } else if let (false, Some(k)) = (warned, missing_key(item, &keys, fold)) {
            warn_missing(eng, ctx, k, item);
            warned = true;
        }
    }
    // Pairs (reference item, difference item), grouped by reference item, difference order.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut uses = vec![0u32; d_items.len()];
    for (i, item) in r_items.iter().enumerate() {
        let Some(h) = tuple_hash(item, &keys, fold) else {
            if let (false, Some(k)) = (warned, missing_key(item, &keys, fold)) {
                warn_missing(eng, ctx, k, item);
                warned = true;
            }
            continue;
        };
        let start = pairs.len();
        for j in chain.iter(h).filter_map(|e| slot_of.get(e).copied()) {
            if d_items
                .get(j)
                .is_some_and(|dv| tuple_eq(item, dv, &keys, fold))
            {
                pairs.push((i, j));
                if let Some(u) = uses.get_mut(j) {
                    *u += 1;
                }
            }
        }
        if let Some(group) = pairs.get_mut(start..) {
            group.sort_unstable();
        }
    }
    let mut d_slots: Vec<Option<Node>> = d_items.into_iter().map(Some).collect();
    let mut out: Vec<Node> = Vec::with_capacity(r_items.len() + d_slots.len());
    let mut next = 0;
    for (i, mut acc) in r_items.into_iter().enumerate() {
        while let Some(&(pi, j)) = pairs.get(next) {
            if pi != i {
                break;
            }
            next += 1;
            let last = uses.get_mut(j).map(|u| {
                *u -= 1;
                *u == 0
            });
            let dv = match (last, d_slots.get_mut(j)) {
                (Some(true), Some(slot)) => slot.take(),
                (_, Some(slot)) => slot.clone(),
                _ => None,
            };
            if let Some(dv) = dv {
                if let Some(g) = gone.get_mut(j) {
                    *g = true;
                }
                let at = out.len();
                eng.push_index(at);
                let frame = Frame {
                    s,
                    rule,
                    deep: true,
                };
                acc = eng.merge_as(Policy::Maps(frame), acc, dv);
                eng.pop();
            }
        }
        out.push(acc);
    }
    for (j, slot) in d_slots.into_iter().enumerate() {
        if gone.get(j).copied().unwrap_or(true) {
            continue;
        }
        if let Some(item) = slot {
            at_index(eng, out.len(), |e| {
                e.record(Outcome::Appended, Some(rule), item.span, &[], &[])
            });
            out.push(item);
        }
    }
    Node::list(out, span)
}
