//! Knockout markers of the ranked merge: a value that is exactly the prefix (`Gateway: '--'`)
//! knocks out what less specific layers have at its place; `--key` map keys and `--item` list
//! items block their targets while the layers are folded; `strip_markers` removes every marker
//! from the result wherever the rule in force would have read it as one.

use super::rank_ctx::RankCtx;
use super::ranked_keys;
use super::{Engine, Outcome};
use crate::strategy::ranked::{shape, ListMode, MapListMode, MapMode, RankedStrategy, Shape};
use crate::value::{Key, Kind, Node};

/// Whether a value is exactly the knockout prefix (`Gateway: '--'`): it knocks out whatever
/// less specific layers have at that place.
pub fn is_bare_marker(n: &Node, s: &RankedStrategy) -> bool {
    match (&s.knockout_prefix, n.as_str()) {
        (Some(p), Some(t)) => *p.value == *t,
        _ => false,
    }
}

/// Keeps the marker (it goes on blocking lower layers) and records what it knocked out.
pub(super) fn knock_out(eng: &mut Engine<'_>, s: &RankedStrategy, marker: Node, d: &Node) -> Node {
    let rule = s.knockout_prefix.as_ref().map(|f| &f.rule);
    eng.record(Outcome::Deleted, rule, marker.span, &[d], &[&marker]);
    marker
}

/// Whether a key is a knockout marker under `prefix`.
fn is_marker_key(k: &Key, prefix: &str) -> bool {
    k.as_str().is_some_and(|t| t.starts_with(prefix))
}

/// Removes knockout markers from a lookup's result, wherever the rule in force would have
/// read them as markers (so they never reach the output, even from a single layer).
pub fn strip_markers(ctx: &RankCtx<'_>, s: &RankedStrategy, node: Node) -> Node {
    if !ctx.rules.any_knockout() {
        return node;
    }
    let mut path = ctx.base.clone();
    strip(ctx, s, node, false, &mut path)
}

fn strip(
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    mut node: Node,
    deep: bool,
    path: &mut Vec<Box<str>>,
) -> Node {
    let prefix = s.knockout_prefix.as_ref().map(|f| &*f.value);
    match shape(&node) {
        Shape::Scalar => {}
        Shape::Map => {
            if !deep && s.maps.value == MapMode::KeepFirst {
                return node;
            }
            let deep_here = deep || s.maps.value == MapMode::Deep;
            let Some(map) = node.as_map_mut() else {
                return node;
            };
            if let Some(p) = prefix {
                map.retain(|k, v| !is_marker_key(k, p) && v.as_str() != Some(p));
            }
            for (k, v) in map.iter_mut() {
                let child = shape(v);
                if child == Shape::Scalar || (child == Shape::Map && !deep_here) {
                    continue;
                }
                path.push(crate::value::key_cow(&k.0).into());
                let own = ctx.rules.explicit(path).map(|r| &r.strategy);
                let taken = v.take();
                *v = match (child, own) {
                    (_, Some(own)) => strip(ctx, own, taken, false, path),
                    (Shape::Map, None) => strip(ctx, s, taken, true, path),
                    (_, None) if deep_here => strip(ctx, s, taken, false, path),
                    (_, None) => strip(ctx, ctx.default_strategy(), taken, false, path),
                };
                path.pop();
            }
        }
        Shape::ScalarList => {
            let knocks = matches!(s.lists.value, ListMode::Union | ListMode::Concat);
            if let (true, Some(p)) = (knocks, prefix) {
                let span = node.span;
                if let Kind::List(mut items) = node.kind {
                    items.retain(|i| !i.as_str().is_some_and(|t| t.starts_with(p)));
                    node = Node::new(Kind::List(items), span);
                }
            }
        }
        Shape::MapList => {
            let mode = s.map_lists.value;
            let tuples = matches!(mode, MapListMode::FirstByKeys | MapListMode::MergeByKeys);
            if !tuples {
                return node;
            }
            let span = node.span;
            if let Kind::List(items) = node.kind {
                let keys = ranked_keys::tuple_keys(s, &items);
                let mut kept = Vec::with_capacity(items.len());
                for item in items {
                    if prefix
                        .is_some_and(|p| ranked_keys::is_marker_item(&item, &keys, p, ctx.fold()))
                    {
                        continue;
                    }
                    if mode == MapListMode::MergeByKeys {
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
