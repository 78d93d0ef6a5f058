//! Datum's Merge-Datum as a `Merger`: the OLD value is the more specific (reference) side and
//! always wins where the two cannot be combined. Values are classified as Datum does (baseType,
//! hashtable, baseType_array, hash_array); different types never merge. Maps merge by top keys
//! (`hash`) or recursively (`deep`, which pushes its strategy down to nested maps and arrays
//! that have no rule of their own); under `hash` nested arrays follow their own path's rule or
//! the default. Knockout markers (`--key`) block keys of less specific layers while the
//! layers are folded and are removed from the result by `strip_markers`. Arrays live in
//! `datum_array`.

use super::{datum_array, datum_hash};
use super::{Engine, MergeError, Merger, Outcome};
use crate::error::Warning;
use crate::strategy::datum::{ArrayMode, DatumStrategy, HashArrayMode, HashMode, RuleId};
use crate::strategy::selector::{join, DatumRules};
use crate::strategy::{Merger as Spec, MergerSpec, Origin};
use crate::value::{Key, Kind, Map, Node, Seg};
use std::cell::RefCell;

/// What the Datum mergers of one lookup share: the rules, the lookup's own path (rules are
/// selected by `base` + the keys below it), warnings, and the rule for scalars.
pub struct DatumCtx<'r> {
    pub rules: &'r DatumRules,
    pub base: Vec<Box<str>>,
    warnings: RefCell<Vec<Warning>>,
    scalar_rule: Spec,
}

impl<'r> DatumCtx<'r> {
    pub fn new(rules: &'r DatumRules, base: &[String]) -> DatumCtx<'r> {
        DatumCtx {
            rules,
            base: base.iter().map(|s| Box::<str>::from(s.as_str())).collect(),
            warnings: RefCell::new(Vec::new()),
            scalar_rule: Spec {
                spec: MergerSpec::Datum(RuleId(0)),
                text: "MostSpecific (base types are never merged)".into(),
                origin: Origin::Default("Datum: the most specific scalar wins".into()),
            },
        }
    }

    pub fn take_warnings(&self) -> Vec<Warning> {
        std::mem::take(&mut *self.warnings.borrow_mut())
    }

    pub fn fold(&self) -> bool {
        self.rules.fold
    }

    /// The rule path at the engine's position: the lookup path, then map keys (list indexes
    /// are skipped: items of a hash array are matched under the array's own path).
    fn rule_path(&self, eng: &Engine<'_>) -> Vec<Box<str>> {
        let mut path = self.base.clone();
        path.extend(eng.path.0.iter().filter_map(|s| match s {
            Seg::Key(k) => Some(k.clone()),
            Seg::Index(_) => None,
        }));
        path
    }

    /// The exact or regex rule written for the engine's position, if any.
    fn explicit(&self, eng: &Engine<'_>) -> Option<&'r DatumStrategy> {
        self.rules
            .explicit(&self.rule_path(eng))
            .map(|r| &r.strategy)
    }

    fn default_strategy(&self) -> &'r DatumStrategy {
        &self.rules.default_rule().strategy
    }

    pub(super) fn warn(&self, eng: &Engine<'_>, message: String, at: &Node) {
        let path = join(&self.rule_path(eng));
        let message = message.replace("{path}", &path);
        self.warnings
            .borrow_mut()
            .push(Warning::new(message, at.span).with_path(eng.path.clone()));
    }
}

/// Datum's four data types (`Get-DatumType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    Base,
    Hash,
    BaseArray,
    HashArray,
}

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::Base => "baseType",
            DType::Hash => "hashtable",
            DType::BaseArray => "baseType_array",
            DType::HashArray => "hash_array",
        }
    }
}

/// A map is a hashtable; a non-empty list of maps a hash_array; any other list a
/// baseType_array; everything else (null included) a baseType.
pub fn dtype(n: &Node) -> DType {
    match &n.kind {
        Kind::Map(_) => DType::Hash,
        Kind::List(items) if !items.is_empty() && items.iter().all(|i| i.as_map().is_some()) => {
            DType::HashArray
        }
        Kind::List(_) => DType::BaseArray,
        _ => DType::Base,
    }
}

/// The Datum merger for one rule.
pub struct DatumMerger<'r> {
    ctx: &'r DatumCtx<'r>,
    strategy: &'r DatumStrategy,
}

impl<'r> DatumMerger<'r> {
    pub fn new(ctx: &'r DatumCtx<'r>, id: RuleId) -> DatumMerger<'r> {
        DatumMerger {
            ctx,
            strategy: ctx.rules.strategy(id),
        }
    }
}

impl Merger for DatumMerger<'_> {
    /// Datum merges never fail: a type mismatch keeps the more specific value (with a warning).
    fn check(&self, _eng: &mut Engine<'_>, _old: &Node, _new: &Node) -> Result<(), MergeError> {
        Ok(())
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        merge_value(eng, self.ctx, self.strategy, old, new)
    }
}

/// Merge-Datum: `r` is the more specific value, `d` the less specific one.
pub(super) fn merge_value(
    eng: &mut Engine<'_>,
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    r: Node,
    d: Node,
) -> Node {
    if is_bare_marker(&r, s) {
        return knock_out(eng, s, r, &d);
    }
    let (tr, td) = (dtype(&r), dtype(&d));
    if tr != td {
        return mismatch(eng, ctx, r, d);
    }
    match tr {
        DType::Base => kept(eng, &ctx.scalar_rule, r, &d),
        DType::Hash => match s.merge_hash.value {
            HashMode::MostSpecific => kept(eng, &s.merge_hash.rule, r, &d),
            HashMode::Hash => merge_hash(eng, ctx, s, &s.merge_hash.rule, r, d, false),
            HashMode::Deep => merge_hash(eng, ctx, s, &s.merge_hash.rule, r, d, true),
        },
        DType::BaseArray => match s.merge_basetype_array.value {
            ArrayMode::MostSpecific => kept(eng, &s.merge_basetype_array.rule, r, &d),
            ArrayMode::Unique => datum_array::base_array(eng, ctx, s, r, d, true),
            ArrayMode::Sum => datum_array::base_array(eng, ctx, s, r, d, false),
        },
        DType::HashArray => match s.merge_hash_array.value {
            HashArrayMode::MostSpecific => kept(eng, &s.merge_hash_array.rule, r, &d),
            HashArrayMode::Sum => datum_array::hash_sum(eng, s, r, d),
            HashArrayMode::UniqueKeyValTuples => datum_array::unique_tuples(eng, ctx, s, r, d),
            HashArrayMode::DeepTuple => datum_array::deep_tuple(eng, ctx, s, r, d),
        },
    }
}

/// Whether a value is exactly the knockout prefix (`Gateway: '--'`): it knocks out whatever
/// less specific layers have at that place.
pub fn is_bare_marker(n: &Node, s: &DatumStrategy) -> bool {
    match (&s.knockout_prefix, n.as_str()) {
        (Some(p), Some(t)) => *p.value == *t,
        _ => false,
    }
}

/// Keeps the marker (it goes on blocking lower layers) and records what it knocked out.
fn knock_out(eng: &mut Engine<'_>, s: &DatumStrategy, marker: Node, d: &Node) -> Node {
    let rule = s.knockout_prefix.as_ref().map(|f| &f.rule);
    eng.record(Outcome::Deleted, rule, marker.span, &[d], &[&marker]);
    marker
}

fn kept(eng: &mut Engine<'_>, rule: &Spec, r: Node, d: &Node) -> Node {
    eng.record(Outcome::Kept, Some(rule), r.span, &[], &[d]);
    r
}

fn mismatch(eng: &mut Engine<'_>, ctx: &DatumCtx<'_>, r: Node, d: Node) -> Node {
    let message = format!(
        "cannot merge different types in path '{{path}}': the more specific value is a {} and a \
         less specific layer has a {}; the most specific value is returned, as Datum does",
        dtype(&r).name(),
        dtype(&d).name()
    );
    ctx.warn(eng, message, &d);
    kept(eng, &ctx.scalar_rule, r, &d)
}

/// Case-insensitive string equality (Datum's keys).
pub fn eq_fold(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        a.chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase))
    }
}

/// A key text folded the way `eq_fold` compares: `eq_fold(a, b)` exactly when
/// `fold_text(a) == fold_text(b)`.
pub fn fold_text(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.chars().flat_map(char::to_lowercase).collect()
    }
}

/// The position of each folded key text in a map (the first of keys that fold alike, as
/// `find_key` finds), so that many case-insensitive lookups cost linear time in all.
pub fn fold_index(map: &Map) -> rustc_hash::FxHashMap<String, usize> {
    let mut index = rustc_hash::FxHashMap::default();
    index.reserve(map.len());
    for (i, k) in map.keys().enumerate() {
        index.entry(fold_text(&key_str(k))).or_insert(i);
    }
    index
}

/// A key's text without allocating for string keys.
pub fn key_str(k: &Key) -> std::borrow::Cow<'_, str> {
    super::key_cow(&k.0)
}

/// Finds a key in a map the way the rules compare keys.
pub fn find_key(map: &Map, key: &Key, fold: bool) -> Option<usize> {
    if !fold {
        return map.get_index_of(key);
    }
    let text = key_str(key);
    map.keys().position(|k| eq_fold(&key_str(k), &text))
}

/// The index of the knockout marker `<prefix><key>` in a map, if there is one.
fn find_marker(map: &Map, prefix: &str, key: &str, fold: bool) -> Option<usize> {
    map.keys().position(|k| {
        k.as_str()
            .and_then(|t| t.strip_prefix(prefix))
            .is_some_and(|rest| {
                if fold {
                    eq_fold(rest, key)
                } else {
                    rest == key
                }
            })
    })
}

/// Merge-Hashtable: keys of `r` stay (in order); keys only in `d` are appended whole; keys in
/// both are merged by `merge_child`.
/// `rule` is the setting that asked for this merge (for the trace): `merge_hash`, or
/// `merge_hash_array` for DeepTuple items.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_hash(
    eng: &mut Engine<'_>,
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    rule: &Spec,
    r: Node,
    d: Node,
    deep: bool,
) -> Node {
    let r_span = r.span;
    let mut rm = match r.kind {
        Kind::Map(m) => m,
        other => return Node::new(other, r_span),
    };
    let dm = match d.kind {
        Kind::Map(m) => m,
        _ => return Node::map(*rm, r_span),
    };
    eng.record(Outcome::Merged, Some(rule), r_span, &[], &[]);
    let fold = ctx.fold();
    let prefix = s.knockout_prefix.as_ref().map(|f| &*f.value);
    // Large maps get an index of folded key texts; small ones are scanned.
    let mut index = (fold && rm.len() > 16).then(|| fold_index(&rm));
    for (k, dv) in dm.into_iter() {
        eng.push_key(&k);
        let text = key_str(&k);
        if let Some(p) = prefix {
            let marker = match &index {
                Some(ix) => ix.get(&fold_text(&format!("{p}{text}"))).copied(),
                None => find_marker(&rm, p, &text, fold),
            };
            if let Some((mk, _)) = marker.and_then(|i| rm.get_index(i)) {
                let rule = s.knockout_prefix.as_ref().map(|f| &f.rule);
                eng.record(Outcome::Deleted, rule, mk.span(), &[&dv], &[&mk.0]);
                eng.pop();
                continue;
            }
        }
        let found = match &index {
            Some(ix) => ix.get(&fold_text(&text)).copied(),
            None => find_key(&rm, &k, fold),
        };
        match found {
            None => {
                eng.record(Outcome::Added, Some(rule), dv.span, &[], &[]);
                if let Some(ix) = index.as_mut() {
                    ix.entry(fold_text(&text)).or_insert(rm.len());
                }
                rm.insert(k, dv);
            }
            Some(i) => {
                if let Some((_, slot)) = rm.get_index_mut(i) {
                    let rv = slot.take();
                    let merged = merge_child(eng, ctx, s, rule, deep, rv, dv);
                    if let Some((_, slot)) = rm.get_index_mut(i) {
                        *slot = merged;
                    }
                }
            }
        }
        eng.pop();
    }
    Node::new(Kind::Map(rm), r_span)
}

/// A key both sides have. Maps: under `deep`, merged with the key's own rule if it has one,
/// else recursively with the parent's strategy; under `hash`, the more specific map whole.
/// Arrays: the key's own rule, else (deep) the parent's strategy or (hash) the default.
#[allow(clippy::too_many_arguments)]
fn merge_child(
    eng: &mut Engine<'_>,
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    rule: &Spec,
    deep: bool,
    rv: Node,
    dv: Node,
) -> Node {
    if is_bare_marker(&rv, s) {
        return knock_out(eng, s, rv, &dv);
    }
    let (tr, td) = (dtype(&rv), dtype(&dv));
    if tr != td {
        return mismatch(eng, ctx, rv, dv);
    }
    match tr {
        DType::Base => kept(eng, &ctx.scalar_rule, rv, &dv),
        DType::Hash if !deep => kept(eng, rule, rv, &dv),
        DType::Hash => match ctx.explicit(eng) {
            Some(own) => merge_value(eng, ctx, own, rv, dv),
            None => merge_hash(eng, ctx, s, rule, rv, dv, true),
        },
        DType::BaseArray | DType::HashArray => {
            let own = ctx
                .explicit(eng)
                .unwrap_or(if deep { s } else { ctx.default_strategy() });
            merge_value(eng, ctx, own, rv, dv)
        }
    }
}

/// Whether a key is a knockout marker under `prefix`.
fn is_marker_key(k: &Key, prefix: &str) -> bool {
    k.as_str().is_some_and(|t| t.starts_with(prefix))
}

/// Removes knockout markers from a lookup's result, wherever the rule in force would have
/// read them as markers (so they never reach the output, even from a single layer).
pub fn strip_markers(ctx: &DatumCtx<'_>, s: &DatumStrategy, node: Node) -> Node {
    if !ctx.rules.any_knockout() {
        return node;
    }
    let mut path = ctx.base.clone();
    strip(ctx, s, node, false, &mut path)
}

fn strip(
    ctx: &DatumCtx<'_>,
    s: &DatumStrategy,
    mut node: Node,
    deep: bool,
    path: &mut Vec<Box<str>>,
) -> Node {
    let prefix = s.knockout_prefix.as_ref().map(|f| &*f.value);
    match dtype(&node) {
        DType::Base => {}
        DType::Hash => {
            if !deep && s.merge_hash.value == HashMode::MostSpecific {
                return node;
            }
            let deep_here = deep || s.merge_hash.value == HashMode::Deep;
            let Some(map) = node.as_map_mut() else {
                return node;
            };
            if let Some(p) = prefix {
                map.retain(|k, v| !is_marker_key(k, p) && v.as_str() != Some(p));
            }
            for (k, v) in map.iter_mut() {
                let child = dtype(v);
                if child == DType::Base || (child == DType::Hash && !deep_here) {
                    continue;
                }
                path.push(super::key_cow(&k.0).into());
                let own = ctx.rules.explicit(path).map(|r| &r.strategy);
                let taken = v.take();
                *v = match (child, own) {
                    (_, Some(own)) => strip(ctx, own, taken, false, path),
                    (DType::Hash, None) => strip(ctx, s, taken, true, path),
                    (_, None) if deep_here => strip(ctx, s, taken, false, path),
                    (_, None) => strip(ctx, ctx.default_strategy(), taken, false, path),
                };
                path.pop();
            }
        }
        DType::BaseArray => {
            let knocks = matches!(
                s.merge_basetype_array.value,
                ArrayMode::Unique | ArrayMode::Sum
            );
            if let (true, Some(p)) = (knocks, prefix) {
                let span = node.span;
                if let Kind::List(mut items) = node.kind {
                    items.retain(|i| !i.as_str().is_some_and(|t| t.starts_with(p)));
                    node = Node::new(Kind::List(items), span);
                }
            }
        }
        DType::HashArray => {
            let mode = s.merge_hash_array.value;
            let tuples = matches!(
                mode,
                HashArrayMode::UniqueKeyValTuples | HashArrayMode::DeepTuple
            );
            if !tuples {
                return node;
            }
            let span = node.span;
            if let Kind::List(items) = node.kind {
                let keys = datum_hash::tuple_keys(s, &items);
                let mut kept = Vec::with_capacity(items.len());
                for item in items {
                    if prefix
                        .is_some_and(|p| datum_hash::is_marker_item(&item, &keys, p, ctx.fold()))
                    {
                        continue;
                    }
                    if mode == HashArrayMode::DeepTuple {
                        kept.push(strip(ctx, s, item, true, path));
                    } else {
                        kept.push(item);
                    }
                }
                node = Node::list(kept, span);
            }
        }
    }
    node
}
