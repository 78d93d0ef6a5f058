//! What a closed mapping or `!!omap` / `!!pairs` sequence becomes, as PyYAML's
//! `SafeConstructor` builds it: `<<` merge keys applied as `flatten_mapping` applies them (by
//! node kind, tags ignored), then the mapping's own pairs (a repeated key: the last value
//! wins, at the first key's place, with a warning); the one-pair items of `!!omap` and
//! `!!pairs` as `(key, value)` tuples.

use super::{Composer, Frame, SeqKind};
use crate::error::{Result, WarnKind, Warning};
use crate::load::yaml::construct::Special;
use crate::load::yaml::parser::Props;
use crate::value::{Key, Kind, Map, Node, Span};

impl<'a> Composer<'a, '_> {
    /// Whether the next node is a merge source written in place: the value of a `<<` key or an
    /// item of such a value's list, without an anchor. PyYAML's `flatten_mapping` takes these
    /// as nodes and never constructs them, so their tags mean nothing (`<<: !!omap [a: 1]`
    /// merges `a`, `<<: !!set {a: 1}` merges `a: 1`). An anchored one is built as written,
    /// because an alias elsewhere must give its value.
    pub(super) fn merge_source(&self, props: &Props<'a>) -> bool {
        // Psych builds a merge key's value where it stands (`psych.rs`).
        self.opts.dialect.psych.is_none()
            && props.anchor.is_none()
            && match self.stack.last() {
                Some(Frame::Map {
                    key: Some(_),
                    key_special: Special::Merge,
                    ..
                }) => true,
                Some(Frame::Seq { kind, .. }) => *kind == SeqKind::Merge,
                _ => false,
            }
    }

    /// PyYAML's `flatten_mapping` and `construct_mapping`: merged pairs first (a list of
    /// sources is taken last to first, so earlier sources win), then the mapping's own
    /// pairs; a repeated key keeps its first place and takes the later value.
    pub(super) fn build_map(&mut self, from: usize, merges: Vec<Node>, span: Span) -> Result<Map> {
        let count = self.pairs.len().saturating_sub(from);
        let mut map = if merges.is_empty() {
            Map::default()
        } else {
            Map::with_capacity(count)
        };
        for merge in merges {
            let sources: Vec<Node> = match merge.kind {
                Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => vec![merge],
                Kind::List(items) => {
                    let mut items = Vec::from(items);
                    if let Some(bad) = items.iter().find(|n| !is_mapping_node(n)) {
                        let found = node_id(bad);
                        self.defer(
                            format!("while constructing a mapping: expected a mapping for merging, but found {found}"),
                            bad.span,
                        );
                        continue;
                    }
                    items.reverse();
                    items
                }
                _ => {
                    let found = node_id(&merge);
                    self.defer(
                        format!("while constructing a mapping: expected a mapping or list of mappings for merging, but found {found}"),
                        merge.span,
                    );
                    continue;
                }
            };
            for src in sources {
                match src.kind {
                    Kind::Map(m) | Kind::Set(m) => {
                        for (k, v) in *m {
                            map.insert(k, v);
                        }
                    }
                    // An `!!omap` / `!!pairs` item reached through an alias: the one-pair
                    // mapping it was written as.
                    Kind::Tuple(pair) => {
                        let mut pair = pair.into_iter();
                        if let (Some(k), Some(v)) = (pair.next(), pair.next()) {
                            map.insert(Key(k), v);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut own = Map::with_capacity(count);
        for (k, v) in self.pairs.drain(from..) {
            if let Some(Key(k)) = own.insert_or_return(Key(k), v) {
                self.warnings.push(Warning::new(
                    WarnKind::DuplicateKey,
                    format!(
                        "duplicate key {}: the later value wins (PyYAML keeps the last one)",
                        describe_key(&k)
                    ),
                    k.span,
                ));
            }
        }
        let _ = span;
        if map.is_empty() {
            return Ok(own);
        }
        for (k, v) in own {
            map.insert(k, v);
        }
        Ok(map)
    }

    /// An `!!omap` / `!!pairs` item: exactly one pair, as written.
    pub(super) fn pairs_item(&mut self, from: usize, span: Span) -> Node {
        let pairs: Vec<(Node, Node)> = self.pairs.drain(from..).collect();
        if pairs.len() != 1 {
            let what = match self.stack.last() {
                Some(Frame::Seq {
                    kind: SeqKind::Pairs(what),
                    ..
                }) => what,
                _ => "an ordered map",
            };
            self.defer(
                format!(
                    "while constructing {what}: expected a single mapping item, but found {} items",
                    pairs.len()
                ),
                span,
            );
        }
        match pairs.into_iter().next() {
            Some((k, v)) => Node::new(Kind::Tuple(vec![k, v].into()), span),
            None => Node::new(Kind::Tuple(Vec::new().into()), span),
        }
    }

    /// The items of an `!!omap` / `!!pairs` sequence (`what`: PyYAML's name for it in errors):
    /// each must be a mapping node of one pair. An item written in place already is that
    /// pair; an alias item is its anchor's value, which PyYAML takes as the mapping node it
    /// was (`- *a` where `a: &a {k: v}`): a mapping or set of one entry becomes the pair.
    pub(super) fn pairs_items(&mut self, items: Vec<Node>, what: &str) -> Vec<Node> {
        let mut out = Vec::with_capacity(items.len());
        let mut fault = None;
        for item in items {
            let entries = match &item.kind {
                Kind::Tuple(_) => None,
                Kind::Map(m) | Kind::Set(m) => Some(m.len()),
                _ => {
                    let problem = format!(
                        "expected a mapping of length 1, but found {}",
                        node_id(&item)
                    );
                    fault.get_or_insert((problem, item.span));
                    None
                }
            };
            match (entries, item.kind) {
                (Some(1), Kind::Map(m) | Kind::Set(m)) => {
                    let pair: Vec<Node> = m.into_iter().flat_map(|(Key(k), v)| [k, v]).collect();
                    out.push(Node::new(Kind::Tuple(pair.into()), item.span));
                }
                (Some(n), kind) => {
                    let problem = format!("expected a single mapping item, but found {n} items");
                    fault.get_or_insert((problem, item.span));
                    out.push(Node::new(kind, item.span));
                }
                (None, kind) => out.push(Node::new(kind, item.span)),
            }
        }
        if let Some((problem, span)) = fault {
            self.defer(format!("while constructing {what}: {problem}"), span);
        }
        out
    }
}

/// Whether the value was a mapping node: a mapping, a set, or an `!!omap` / `!!pairs` item.
fn is_mapping_node(n: &Node) -> bool {
    matches!(n.kind, Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_))
}

/// PyYAML's node kind names (`scalar`, `sequence`, `mapping`).
fn node_id(n: &Node) -> &'static str {
    match n.kind {
        Kind::List(_) => "sequence",
        Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => "mapping",
        _ => "scalar",
    }
}

pub(in crate::load::yaml) fn describe_key(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => format!("'{s}'"),
        _ => crate::value::key_text(k),
    }
}
