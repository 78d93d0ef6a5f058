//! Datum's array merges, in linear time: `Unique` / `Sum` for arrays of scalars and `Sum` /
//! `UniqueKeyValTuples` / `DeepTuple` for arrays of maps. Items are found through hash chains
//! (FxHash of the item, or of its tuple-key values) and compared only within a chain, never
//! pairwise. Unique compares typed and case-sensitively (`Select-Object -Unique`); tuple values
//! compare as PowerShell's `-eq` does in the common cases when the rules fold (Datum): strings
//! case-insensitively, a number equal to its decimal text. Knockout markers (`--item`,
//! `Name: --x`) of the more specific side drop equal items of the less specific side.

use super::datum::{eq_fold, key_str, merge_hash, DatumCtx};
use super::{key_text, Engine, Outcome};
use crate::strategy::datum::{DatumStrategy, HashArrayMode};
use crate::strategy::Merger as Spec;
use crate::value::{Key, Kind, Node, Span};
use rustc_hash::{FxHashMap, FxHasher};
use std::fmt::Write as _;
use std::hash::Hasher;

const END: u32 = u32::MAX;

/// Hash chains: entry ids in insertion order, each hash's entries newest first.
struct Chain {
    heads: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

impl Chain {
    fn with_capacity(n: usize) -> Chain {
        let mut heads = FxHashMap::default();
        heads.reserve(n);
        Chain {
            heads,
            next: Vec::with_capacity(n),
        }
    }

    fn insert(&mut self, h: u64) -> u32 {
        let id = u32::try_from(self.next.len()).unwrap_or(END);
        let prev = self.heads.insert(h, id).unwrap_or(END);
        self.next.push(prev);
        id
    }

    fn iter(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
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
}

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

fn scalar_text(n: &Node) -> Option<String> {
    Some(match &n.kind {
        Kind::Str(s) | Kind::Timestamp(s) | Kind::BigInt(s) => s.to_string(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => crate::render::yaml::float_text(*f),
        _ => return None,
    })
}

/// Hash consistent with `value_eq`.
fn hash_value(n: &Node, fold: bool, h: &mut FxHasher) {
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
            Kind::Str(s) | Kind::Timestamp(s) | Kind::BigInt(s) => {
                h.write_u8(1);
                let _ = HashText { h, fold }.write_str(s);
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
                let _ = HashText { h, fold }.write_str(&crate::render::yaml::float_text(*f));
            }
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
    }
}

/// Typed equality, or (folding) PowerShell-like: scalars by case-insensitive text.
fn value_eq(a: &Node, b: &Node, fold: bool) -> bool {
    if !fold {
        return a == b;
    }
    match (&a.kind, &b.kind) {
        (Kind::Null, Kind::Null) => true,
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

fn hash_of(n: &Node, fold: bool) -> u64 {
    let mut h = FxHasher::default();
    hash_value(n, fold, &mut h);
    h.finish()
}

/// What identifies an item of a hash array.
pub(super) enum TupleKeys {
    Keys(Vec<Box<str>>),
    /// No tuple keys: the whole item.
    Whole,
}

/// The rule's tuple keys; without them DeepTuple uses the first item's keys (as Datum does)
/// and UniqueKeyValTuples whole items.
pub(super) fn tuple_keys(s: &DatumStrategy, items: &[Node]) -> TupleKeys {
    if let Some(f) = &s.tuple_keys {
        return TupleKeys::Keys(f.value.clone());
    }
    match (
        s.merge_hash_array.value,
        items.first().and_then(Node::as_map),
    ) {
        (HashArrayMode::DeepTuple, Some(first)) => {
            TupleKeys::Keys(first.keys().map(|k| key_text(&k.0).into()).collect())
        }
        _ => TupleKeys::Whole,
    }
}

fn field<'a>(item: &'a Node, key: &str, fold: bool) -> Option<&'a Node> {
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
fn missing_key<'k>(item: &Node, keys: &'k TupleKeys, fold: bool) -> Option<&'k str> {
    match keys {
        TupleKeys::Keys(ks) => ks
            .iter()
            .find(|k| field(item, k, fold).is_none())
            .map(|k| &**k),
        TupleKeys::Whole => None,
    }
}

/// Hash of the item's tuple values; `None` when a tuple key is missing (it matches nothing).
fn tuple_hash(item: &Node, keys: &TupleKeys, fold: bool) -> Option<u64> {
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

fn tuple_eq(a: &Node, b: &Node, keys: &TupleKeys, fold: bool) -> bool {
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
fn marker_target(item: &Node, keys: &TupleKeys, prefix: &str, fold: bool) -> Option<Node> {
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

fn into_items(n: Node) -> Vec<Node> {
    match n.kind {
        Kind::List(items) => items.into_vec(),
        _ => Vec::new(),
    }
}

fn at_index(eng: &mut Engine<'_>, i: usize, f: impl FnOnce(&mut Engine<'_>)) {
    eng.push_index(i);
    f(eng);
    eng.pop();
}

fn knockout_rule(s: &DatumStrategy) -> Option<&Spec> {
    s.knockout_prefix.as_ref().map(|f| &f.rule)
}

/// `Unique` (union, first occurrence kept) or `Sum` (concatenation) of scalar arrays, most
/// specific items first, less specific items equal to a knockout marker dropped.
pub(super) fn base_array(
    eng: &mut Engine<'_>,
    _ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    r: Node,
    d: Node,
    unique: bool,
) -> Node {
    let span = r.span;
    let rule = &s.merge_basetype_array.rule;
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
    for (from_d, item) in r_items
        .into_iter()
        .map(|i| (false, i))
        .chain(d_items.into_iter().map(|i| (true, i)))
    {
        if from_d {
            if let Some(marker) = item.as_str().and_then(|t| knocks.get(t)) {
                let at = out.len();
                at_index(eng, at, |e| {
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
            if let Some(e) = seen
                .iter(h)
                .find(|&e| out.get(e).is_some_and(|o| *o == item))
            {
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
pub(super) fn hash_sum(eng: &mut Engine<'_>, s: &DatumStrategy, r: Node, d: Node) -> Node {
    let span = r.span;
    let rule = &s.merge_hash_array.rule;
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
    s: &DatumStrategy,
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

fn warn_missing(eng: &Engine<'_>, ctx: &DatumCtx<'_>, key: &str, item: &Node) {
    ctx.warn(
        eng,
        format!(
            "an item of '{{path}}' has no tuple key '{key}': it matches no other item and is kept \
             as it is, as Datum does"
        ),
        item,
    );
}

/// UniqueKeyValTuples: more specific items, then less specific ones, each kept only if no item
/// kept before has the same tuple-key values; items are never merged.
pub(super) fn unique_tuples(
    eng: &mut Engine<'_>,
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    r: Node,
    d: Node,
) -> Node {
    let span = r.span;
    let rule = &s.merge_hash_array.rule;
    let fold = ctx.fold();
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let (r_items, d_items) = (into_items(r), into_items(d));
    let keys = tuple_keys(s, &r_items);
    if s.tuple_keys.is_none() {
        ctx.warn(
            eng,
            "UniqueKeyValTuples at '{path}' has no merge_options.tuple_keys: items are compared \
             whole"
                .into(),
            r_items.first().unwrap_or(&Node::null(span)),
        );
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
pub(super) fn deep_tuple(
    eng: &mut Engine<'_>,
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    r: Node,
    d: Node,
) -> Node {
    let span = r.span;
    let rule = &s.merge_hash_array.rule;
    let fold = ctx.fold();
    eng.record(Outcome::Merged, Some(rule), span, &[], &[]);
    let (r_items, d_items) = (into_items(r), into_items(d));
    let keys = tuple_keys(s, &r_items);
    if let (None, TupleKeys::Keys(ks)) = (&s.tuple_keys, &keys) {
        let names: Vec<&str> = ks.iter().map(|k| &**k).collect();
        ctx.warn(
            eng,
            format!(
                "DeepTuple at '{{path}}' has no merge_options.tuple_keys: items are matched on the \
                 keys of the first more specific item ({}), as Datum does",
                names.join(", ")
            ),
            r_items.first().unwrap_or(&Node::null(span)),
        );
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
                eng.record(
                    Outcome::Deleted,
                    knockout_rule(s),
                    *mspan,
                    &[item],
                    &[marker],
                );
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
                acc = merge_hash(eng, ctx, s, rule, acc, dv, true);
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
