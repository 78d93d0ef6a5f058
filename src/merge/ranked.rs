//! The ranked merge as a `Merger`: the OLD value is the more specific (first-ranked) side and
//! always wins where the two cannot be combined. Values are told apart by `Shape` (scalar,
//! map, list of scalars, list of maps); different shapes never merge. Maps merge by top keys
//! (`TopKeys`) or recursively (`Deep`, which pushes its strategy down to nested maps and lists
//! that have no rule of their own); under `TopKeys` nested lists follow their own path's rule
//! or the default. Knockout markers live in `knockout`, lists in `ranked_list`.

use super::casefold::{eq_fold, find_key, fold_index, fold_text, key_str};
use super::fault::NoticeKind;
use super::knockout::{is_bare_marker, knock_out};
use super::rank_ctx::RankCtx;
use super::ranked_list;
use super::{Engine, MergeError, Merger, Outcome};
use crate::strategy::ranked::{
    shape, ListMode, MapListMode, MapMode, RankedStrategy, RuleId, Shape,
};
use crate::strategy::Merger as Spec;
use crate::value::{Kind, Map, Node};

/// The ranked merger for one rule.
pub struct RankedMerger<'r> {
    ctx: &'r RankCtx<'r>,
    strategy: &'r RankedStrategy,
}

impl<'r> RankedMerger<'r> {
    pub fn new(ctx: &'r RankCtx<'r>, id: RuleId) -> RankedMerger<'r> {
        RankedMerger {
            ctx,
            strategy: ctx.rules.strategy(id),
        }
    }
}

impl Merger for RankedMerger<'_> {
    /// Ranked merges never fail: a shape mismatch keeps the more specific value (with a notice).
    fn check(&self, _eng: &mut Engine<'_>, _old: &Node, _new: &Node) -> Result<(), MergeError> {
        Ok(())
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        merge_value(eng, self.ctx, self.strategy, old, new)
    }
}

/// The ranked merge of two values: `r` is the more specific value, `d` the less specific one.
pub(super) fn merge_value(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    r: Node,
    d: Node,
) -> Node {
    if is_bare_marker(&r, s) {
        return knock_out(eng, s, r, &d);
    }
    let (tr, td) = (shape(&r), shape(&d));
    if tr != td {
        return mismatch(eng, ctx, r, d);
    }
    match tr {
        Shape::Scalar => kept(eng, &ctx.scalar_rule, r, &d),
        Shape::Map => match s.maps.value {
            MapMode::KeepFirst => kept(eng, &s.maps.rule, r, &d),
            MapMode::TopKeys => merge_maps(eng, ctx, s, &s.maps.rule, r, d, false),
            MapMode::Deep => merge_maps(eng, ctx, s, &s.maps.rule, r, d, true),
        },
        Shape::ScalarList => match s.lists.value {
            ListMode::KeepFirst => kept(eng, &s.lists.rule, r, &d),
            ListMode::Union => ranked_list::base_array(eng, ctx, s, r, d, true),
            ListMode::Concat => ranked_list::base_array(eng, ctx, s, r, d, false),
        },
        Shape::MapList => match s.map_lists.value {
            MapListMode::KeepFirst => kept(eng, &s.map_lists.rule, r, &d),
            MapListMode::Concat => ranked_list::hash_sum(eng, s, r, d),
            MapListMode::FirstByKeys => ranked_list::first_by_keys(eng, ctx, s, r, d),
            MapListMode::MergeByKeys => ranked_list::merge_by_keys(eng, ctx, s, (r, d), merge_maps),
        },
    }
}

fn kept(eng: &mut Engine<'_>, rule: &Spec, r: Node, d: &Node) -> Node {
    eng.record(Outcome::Kept, Some(rule), r.span, &[], &[d]);
    r
}

fn mismatch(eng: &mut Engine<'_>, ctx: &RankCtx<'_>, r: Node, d: Node) -> Node {
    let (first, other) = (shape(&r), shape(&d));
    ctx.notice(eng, d.span, |at| NoticeKind::ShapeMismatch {
        at,
        first,
        other,
    });
    kept(eng, &ctx.scalar_rule, r, &d)
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

/// Two maps: keys of `r` stay (in order); keys only in `d` are appended whole; keys in both
/// are merged by `merge_child`. `rule` is the setting that asked for this merge (for the
/// trace): the map rule, or the list-of-maps rule for items merged by keys.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_maps(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
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
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    rule: &Spec,
    deep: bool,
    rv: Node,
    dv: Node,
) -> Node {
    if is_bare_marker(&rv, s) {
        return knock_out(eng, s, rv, &dv);
    }
    let (tr, td) = (shape(&rv), shape(&dv));
    if tr != td {
        return mismatch(eng, ctx, rv, dv);
    }
    match tr {
        Shape::Scalar => kept(eng, &ctx.scalar_rule, rv, &dv),
        Shape::Map if !deep => kept(eng, rule, rv, &dv),
        Shape::Map => match ctx.explicit(eng) {
            Some(own) => merge_value(eng, ctx, own, rv, dv),
            None => merge_maps(eng, ctx, s, rule, rv, dv, true),
        },
        Shape::ScalarList | Shape::MapList => {
            let own = ctx
                .explicit(eng)
                .unwrap_or(if deep { s } else { ctx.default_strategy() });
            merge_value(eng, ctx, own, rv, dv)
        }
    }
}
