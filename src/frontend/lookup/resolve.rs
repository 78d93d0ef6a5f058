//! The lookup itself, shared by `--layer`, `--datum` and `strata merge --rules`: resolve a key
//! path inside every layer (most specific first; `null` or absent = not found), fold the found
//! values with the rule selected for the path (`result = merge(merge(L1, L2), L3)`, the running
//! result always the more specific side), then drop knockout markers. Without a key, Datum's
//! RSOP: the node document with each of its keys resolved, plus `Configurations` and every
//! configuration it lists. Trace steps and warnings are re-rooted under the key they belong to.

use crate::error::{Result, Warning};
use crate::merge::casefold::{find_key, fold_index, fold_text, key_str};
use crate::merge::fold::{Fold, Rules};
use crate::merge::knockout::{is_bare_marker, strip_markers};
use crate::merge::rank_ctx::RankCtx;
use crate::merge::{RuleRef, Trace};
use crate::strategy::selector::PathRules;
use crate::strategy::{Merger, MergerSpec, RuleSet};
use crate::value::key_text;
use crate::value::{Key, Kind, Map, Node, Seg, Span};
use rustc_hash::FxHashMap;

/// What a lookup found.
pub enum Found {
    Value(Node),
    /// No layer has a value (absent or null).
    Nothing,
    /// The most specific value is the bare knockout prefix, written here.
    KnockedOut(Span),
}

impl Found {
    pub fn value(self) -> Option<Node> {
        match self {
            Found::Value(n) => Some(n),
            _ => None,
        }
    }
}

/// Where layers come from: documents in memory or a Datum tree read on demand.
pub trait LayerSource {
    fn count(&self) -> usize;
    /// The value at `path` inside layer `i` (a copy), or `None`.
    fn get(&mut self, i: usize, path: &[String], fold: bool) -> Result<Option<Node>>;
    /// The layer number the trace reports for layer `i`.
    fn layer_id(&self, i: usize) -> usize {
        i
    }
}

/// Folded-key indexes of the large maps a source walks through, built on first use, so that a
/// lookup of every key (an RSOP) stays linear when keys compare case-insensitively.
/// Maps are told apart by address: the documents behind a source are neither changed nor
/// dropped while it is in use.
#[derive(Default)]
pub struct FoldCache(FxHashMap<usize, FxHashMap<String, usize>>);

/// Maps with at most this many keys are scanned instead of indexed.
const SCAN_UP_TO: usize = 16;

impl FoldCache {
    fn find(&mut self, map: &Map, seg: &str) -> Option<usize> {
        if map.len() <= SCAN_UP_TO {
            return find_key(map, &Key::str(seg), true);
        }
        let id = std::ptr::from_ref(map) as usize;
        let index = self.0.entry(id).or_insert_with(|| fold_index(map));
        index.get(&fold_text(seg)).copied()
    }
}

/// Walks a key path inside a value (case-insensitively when folding).
pub fn walk<'a>(
    mut cur: &'a Node,
    path: &[String],
    fold: bool,
    cache: &mut FoldCache,
) -> Option<&'a Node> {
    for seg in path {
        let map = cur.as_map()?;
        let i = if fold {
            cache.find(map, seg)?
        } else {
            map.get_index_of(&Key::str(seg))?
        };
        cur = map.get_index(i)?.1;
    }
    Some(cur)
}

/// Layers already loaded (`--layer`); `None` = an empty document.
pub struct DocLayers {
    docs: Vec<Option<Node>>,
    cache: FoldCache,
}

impl DocLayers {
    pub fn new(docs: Vec<Option<Node>>) -> DocLayers {
        DocLayers {
            docs,
            cache: FoldCache::default(),
        }
    }
}

impl LayerSource for DocLayers {
    fn count(&self) -> usize {
        self.docs.len()
    }
    fn get(&mut self, i: usize, path: &[String], fold: bool) -> Result<Option<Node>> {
        Ok(self
            .docs
            .get(i)
            .and_then(Option::as_ref)
            .and_then(|d| walk(d, path, fold, &mut self.cache))
            .cloned())
    }
}

/// One search through the layers under `rules`: the trace and warnings collected along the
/// way.
pub struct Search<'t> {
    pub rules: &'t PathRules,
    pub trace: Option<&'t mut Trace>,
    pub warnings: &'t mut Vec<Warning>,
}

impl Search<'_> {
    /// Looks `path` up through every layer; `None` when no layer has a value there.
    pub fn lookup(&mut self, src: &mut dyn LayerSource, path: &[String]) -> Result<Option<Node>> {
        Ok(self.find(src, path)?.value())
    }

    /// Like `lookup`, but says whether a value was knocked out (`Key: '--'`).
    pub fn find(&mut self, src: &mut dyn LayerSource, path: &[String]) -> Result<Found> {
        let rules = self.rules;
        let (rule, _) = rules.select(path);
        let strategy = &rule.strategy;
        let ctx = RankCtx::new(rules, path, super::names::scalar_rule());
        let set = RuleSet::one(Merger {
            spec: MergerSpec::Ranked(strategy.id),
            text: strategy.maps.rule.text.clone(),
            origin: strategy.maps.rule.origin.clone(),
        });
        let mut fold = Fold::new();
        for i in 0..src.count() {
            let Some(value) = src.get(i, path, rules.fold)? else {
                continue;
            };
            if value.is_null() {
                continue;
            }
            Fold::layer(self.trace.as_deref_mut(), src.layer_id(i));
            if fold.is_empty() {
                let rule = |v: &Node| RuleRef::from(strategy.rule_for(v));
                fold.first(self.trace.as_deref_mut(), rule, value);
            } else {
                // Two values that cannot combine keep the more specific one (the rules say
                // how; a failed check changes nothing).
                let _ = fold.merge(self.trace.as_deref_mut(), Rules::ranked(&set, &ctx), value);
            }
        }
        let (acc, notices) = fold.finish();
        self.warnings
            .extend(notices.into_iter().map(super::names::notice_warning));
        Ok(match acc {
            None => Found::Nothing,
            Some(n) if is_bare_marker(&n, strategy) => Found::KnockedOut(n.span),
            Some(n) => Found::Value(strip_markers(&ctx, strategy, n)),
        })
    }

    /// Looks up one top-level key and files its steps and warnings under `/<key>`.
    pub fn lookup_key(&mut self, src: &mut dyn LayerSource, key: &str) -> Result<Found> {
        let steps = self.trace.as_deref().map_or(0, |t| t.steps.len());
        let warned = self.warnings.len();
        let found = self.find(src, &[key.to_string()])?;
        if let Some(t) = self.trace.as_deref_mut() {
            for step in t.steps.iter_mut().skip(steps) {
                step.path.0.insert(0, Seg::Key(key.into()));
            }
        }
        for w in self.warnings.iter_mut().skip(warned) {
            let mut path = w.path.take().unwrap_or_default();
            path.0.insert(0, Seg::Key(key.into()));
            w.path = Some(path);
        }
        Ok(found)
    }

    /// Datum's RSOP: every key of the node document resolved with its own rule (a key no layer
    /// has keeps the node's value), `Configurations` resolved, and each configuration it
    /// lists resolved (`{}` when no layer has it).
    pub fn rsop(&mut self, src: &mut dyn LayerSource, node: Option<&Node>) -> Result<Node> {
        let fold = self.rules.fold;
        let mut out = Map::default();
        if let Some(map) = node.and_then(Node::as_map) {
            for (k, v) in map.iter() {
                match self.lookup_key(src, &key_text(&k.0))? {
                    Found::Value(value) => {
                        out.insert(k.clone(), value);
                    }
                    Found::Nothing => {
                        out.insert(k.clone(), v.clone());
                    }
                    Found::KnockedOut(_) => {}
                }
            }
        }
        let Some(list) = self.lookup_key(src, "Configurations")?.value() else {
            return Ok(Node::map(out, Span::NONE));
        };
        let names: Vec<(String, Span)> = list
            .as_list()
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n.as_str().map(|s| (s.to_string(), n.span)))
            .collect();
        let mut index = fold.then(|| fold_index(&out));
        set(&mut out, &mut index, Key::str("Configurations"), list);
        for (name, span) in names {
            let value = self
                .lookup_key(src, &name)?
                .value()
                .unwrap_or_else(|| Node::empty_map(Span::NONE));
            set(&mut out, &mut index, Key(Node::str(name, span)), value);
        }
        Ok(Node::map(out, Span::NONE))
    }
}

/// Sets a key, keeping the spelling and position of an existing equal key (case-insensitively
/// equal when `index`, the folded-key index of `out`, is given).
fn set(out: &mut Map, index: &mut Option<FxHashMap<String, usize>>, key: Key, value: Node) {
    let Some(ix) = index.as_mut() else {
        out.insert(key, value);
        return;
    };
    let folded = fold_text(&key_str(&key));
    match ix.get(&folded).and_then(|&i| out.get_index_mut(i)) {
        Some((_, slot)) => *slot = value,
        None => {
            ix.insert(folded, out.len());
            out.insert(key, value);
        }
    }
}

/// The top-level keys of every layer, most specific layer first, each once.
pub fn all_keys(layers: &[Option<Node>], fold: bool) -> Vec<Key> {
    let mut seen = Map::default();
    let mut folded = rustc_hash::FxHashSet::default();
    for doc in layers.iter().flatten() {
        if let Kind::Map(m) = &doc.kind {
            for k in m.keys() {
                let new = if fold {
                    folded.insert(fold_text(&key_str(k)))
                } else {
                    !seen.contains_key(k)
                };
                if new {
                    seen.insert(k.clone(), Node::null(Span::NONE));
                }
            }
        }
    }
    seen.into_keys().collect()
}
