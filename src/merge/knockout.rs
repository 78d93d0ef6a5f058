//! Knockout markers, every family's: the ranked merge's — a value that is exactly the prefix
//! (`Gateway: '--'`) knocks out what less specific layers have at its place; `--key` map keys
//! (found by `walk`) and `--item` list items block their targets while the layers are folded;
//! `strip_markers` removes every marker from the result wherever the rule in force would have
//! read it as one — and the deep_merge gem's (`gem_*`), which act on one pairwise merge: a bare
//! prefix in an array clears the other side, `--x` items remove `x` (Ruby's multi-line `^`
//! regex: the prefix at the start of any line), a `--x` string overwriting becomes `""`.

use super::rank_ctx::RankCtx;
use super::ranked_keys;
use super::{Engine, Outcome};
use crate::strategy::ranked::{shape, ListMode, MapListMode, MapMode, RankedStrategy, Shape};
use crate::strategy::Knockout;
use crate::value::ruby;
use crate::value::{Key, Kind, Node};
use std::borrow::Cow;

/// Whether a value is exactly the knockout prefix (`Gateway: '--'`): it knocks out whatever
/// less specific layers have at that place.
pub(crate) fn is_bare_marker(n: &Node, s: &RankedStrategy) -> bool {
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
pub(crate) fn strip_markers(ctx: &RankCtx<'_>, s: &RankedStrategy, node: Node) -> Node {
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

/// The gem's `knockout_prefix` removed wherever it starts a line of `s` (Ruby's `gsub(/^--/)`),
/// or `None` when it starts none.
fn gem_strip<'s>(ko: &Knockout, s: &'s str) -> Option<Cow<'s, str>> {
    let out = ko.re.replace_all(s, "");
    (out != s).then_some(out)
}

/// Whether a source array holds the bare prefix (the gem then clears the destination).
pub(super) fn gem_has_bare(ko: &Knockout, src: &[Node]) -> bool {
    src.iter().any(|n| ruby::text(n) == Some(&*ko.prefix))
}

/// Drops the bare prefix items from a source array.
pub(super) fn gem_drop_bare(ko: &Knockout, src: &mut Vec<Node>) {
    src.retain(|n| ruby::text(n) != Some(&*ko.prefix));
}

/// The gem's `clear_or_nil`: an empty array, hash or string of the same kind, else nil.
pub(super) fn gem_clear(dest: Node) -> Node {
    match dest.kind {
        Kind::List(_) => Node::list(Vec::new(), dest.span),
        Kind::Map(_) => Node::empty_map(dest.span),
        Kind::Str(_) | Kind::Timestamp(_) => ruby::string("", dest.span),
        _ => Node::null(dest.span),
    }
}

/// Knockout items of `src` (`--x`) remove the items `x` (and `--x`) from `dst` and go
/// themselves; `knocked` gets each item that removed something. The other items are returned.
pub(super) fn gem_knock_items(
    ko: &Knockout,
    src: Vec<Node>,
    dst: &mut Vec<Node>,
    mut knocked: impl FnMut(Node),
) -> Vec<Node> {
    let mut kept = Vec::with_capacity(src.len());
    for item in src {
        let Some(plain) = ruby::text(&item).and_then(|s| gem_strip(ko, s)) else {
            kept.push(item);
            continue;
        };
        let marker = ruby::text(&item).unwrap_or_default();
        let before = dst.len();
        dst.retain(|d| ruby::text(d).is_none_or(|t| t != plain.as_ref() && t != marker));
        if dst.len() != before {
            knocked(item);
        }
    }
    kept
}

/// `delete_if` on an array that is also the array it deletes from (`deep_merge!(x, x)`),
/// following Ruby 3.1's `ary_reject_bang` index walk.
pub(super) fn gem_reject_self(ko: &Knockout, ary: &mut Vec<Node>) {
    let (mut i1, mut i2) = (0usize, 0usize);
    while i1 < ary.len() {
        let v = ary[i1].clone();
        let stripped = ruby::text(&v).and_then(|s| gem_strip(ko, s).map(Cow::into_owned));
        match stripped {
            Some(plain) => {
                let marker = ruby::text(&v).unwrap_or_default().to_string();
                ary.retain(|d| ruby::text(d).is_none_or(|t| t != plain && t != marker));
            }
            None => {
                if i1 != i2 {
                    ary[i2] = v;
                }
                i2 += 1;
            }
        }
        i1 += 1;
    }
    let len = ary.len();
    if i2 < len && i2 < i1 {
        let tail = len.saturating_sub(i1);
        if tail > 0 {
            let moved: Vec<Node> = ary.drain(i1..).collect();
            ary.truncate(i2);
            ary.extend(moved);
        } else {
            ary.truncate(i2);
        }
    }
}

/// `overwrite_unmergeables` under a knockout prefix: a string that starts with it (on any
/// line) becomes `""`, an array loses its knockout items.
pub(super) fn gem_overwrite(ko: &Knockout, source: Node) -> Node {
    match &source.kind {
        Kind::Str(_) | Kind::Timestamp(_) => {
            match ruby::text(&source).and_then(|s| gem_strip(ko, s)) {
                Some(_) => ruby::string("", source.span),
                None => source,
            }
        }
        Kind::List(items) => {
            let kept: Vec<Node> = items
                .iter()
                .filter(|n| ruby::text(n).is_none_or(|t| !ko.re.is_match(t)))
                .cloned()
                .collect();
            Node::list(kept, source.span)
        }
        _ => source,
    }
}
