//! The site: documents indexed by `(schema, layer, name)` (first wins), by layer and by
//! parent-selector label, the effective layer order (empty layers skipped), and parent
//! selection exactly as `DocumentLayering._calc_all_document_children` does it: each parent
//! candidate is found through the label index (never a scan of every document), the closest
//! layer wins, and a candidate count that takeovers do not bring down to one is an
//! `IndeterminateDocumentParent`.

use super::doc::{Doc, Meta};
use super::{fail, Warn};
use crate::error::{Result, WarnKind};
use crate::value::{Key, Node, Span};
use rustc_hash::FxHashMap;

/// The documents with their indexes and chosen parents.
pub(super) struct Site<'d> {
    pub docs: &'d [Doc],
    /// The first document of each `(schema, layer, name)`, in input order.
    pub index: Vec<usize>,
    pub by_meta: FxHashMap<Meta, usize>,
    /// `layerOrder` without its empty layers.
    pub order: Vec<Node>,
    /// The chosen parent of each document (by the first document of the child's meta).
    pub parent: FxHashMap<usize, usize>,
}

/// `data.layerOrder` of the LayeringPolicy.
pub(super) fn layer_order(policy: &Doc, data: Option<&Node>) -> Result<Vec<Node>> {
    let data = data.filter(|d| !d.is_null());
    let Some(map) = data.and_then(Node::as_map) else {
        return Err(fail(
            None,
            format!(
                "the LayeringPolicy {} has no mapping in its data (Deckhand: AttributeError)",
                policy.title
            ),
            data.map_or(policy.span(), |d| d.span),
        )
        .hint("write data: {layerOrder: [global, site]}"));
    };
    match map.get(&Key::str("layerOrder")) {
        None => Ok(Vec::new()),
        Some(n) => match n.as_list() {
            Some(items) => Ok(items.to_vec()),
            None => Err(fail(
                None,
                format!(
                    "layerOrder of the LayeringPolicy {} is {}, not a list",
                    policy.title,
                    n.kind_phrase()
                ),
                n.span,
            )
            .hint("write layerOrder: [global, region, site]")),
        },
    }
}

fn position(order: &[Node], layer: &Node) -> Option<usize> {
    order.iter().position(|l| l.py_eq(layer))
}

impl<'d> Site<'d> {
    /// Indexes the documents, checks their layers and selects parents.
    pub(super) fn build(
        docs: &'d [Doc],
        data: &[Option<Node>],
        layer_order: &[Node],
        policy: &Doc,
        unhashable: &FxHashMap<usize, (Span, String)>,
        warn: &mut Warn,
    ) -> Result<Site<'d>> {
        let mut by_meta: FxHashMap<Meta, usize> =
            FxHashMap::with_capacity_and_hasher(docs.len(), Default::default());
        let mut index = Vec::with_capacity(docs.len());
        // Layers in the order they first appear, with their documents (duplicates included).
        let mut by_layer: Vec<(Node, Vec<usize>)> = Vec::new();
        let mut layer_at: FxHashMap<Key, usize> = FxHashMap::default();
        let mut by_label: FxHashMap<(Key, Key), Vec<usize>> = FxHashMap::default();
        for (i, doc) in docs.iter().enumerate() {
            match by_meta.get(&doc.meta) {
                Some(&first) => warn.push(
                    WarnKind::DuplicateDocument, format!(
                        "{} is given twice; Deckhand renders only the first (at {}) and ignores this one",
                        doc.title,
                        warn.at(docs[first].span())
                    ),
                    doc.span(),
                ),
                None => {
                    by_meta.insert(doc.meta.clone(), i);
                    index.push(i);
                }
            }
            if doc.has_layer() {
                if position(layer_order, doc.layer()).is_none() {
                    let names: Vec<String> = layer_order.iter().map(super::doc::text).collect();
                    let layer_node = super::doc::get(doc.metadata(), "layeringDefinition")
                        .and_then(|ld| ld.get("layer"))
                        .map_or(doc.span(), |n| n.span);
                    return Err(fail(
                        Some("InvalidDocumentLayer"),
                        format!(
                            "Invalid layer '{}' for document [{}] {} was not found in layerOrder: {} for provided LayeringPolicy: {}",
                            super::doc::text(doc.layer()),
                            super::doc::text(doc.schema()),
                            super::doc::text(doc.name()),
                            names.join(", "),
                            super::doc::text(policy.name())
                        ),
                        layer_node,
                    )
                    .note(format!("the LayeringPolicy {}", policy.title), policy.span())
                    .hint("use a layer of the LayeringPolicy's layerOrder, or add the layer there"));
                }
                let key = Key(doc.layer().clone());
                let at = *layer_at.entry(key).or_insert_with(|| {
                    by_layer.push((doc.layer().clone(), Vec::new()));
                    by_layer.len() - 1
                });
                if let Some((_, list)) = by_layer.get_mut(at) {
                    list.push(i);
                }
            }
            if let Some(sel) = doc.selector()? {
                for (k, v) in sel.iter() {
                    hashable(v, doc, "parentSelector")?;
                    by_label
                        .entry((k.clone(), Key(v.clone())))
                        .or_default()
                        .push(i);
                }
            }
        }
        let order: Vec<Node> = layer_order
            .iter()
            .filter(|l| {
                layer_at
                    .get(&Key((*l).clone()))
                    .is_some_and(|&i| by_layer.get(i).is_some_and(|(_, d)| !d.is_empty()))
            })
            .cloned()
            .collect();
        let mut site = Site {
            docs,
            index,
            by_meta,
            order,
            parent: FxHashMap::default(),
        };
        site.select_parents(&by_layer, &layer_at, &by_label, unhashable, data)?;
        Ok(site)
    }

    /// The first document of a document's meta.
    pub(super) fn first(&self, i: usize) -> usize {
        self.docs
            .get(i)
            .and_then(|d| self.by_meta.get(&d.meta))
            .copied()
            .unwrap_or(i)
    }

    fn layer_index(&self, doc: &Doc) -> Result<usize> {
        position(&self.order, doc.layer()).ok_or_else(|| {
            fail(
                None,
                format!(
                    "{} has a parentSelector that matches a layered document, but no layer of its own; Deckhand cannot place it (ValueError)",
                    doc.title
                ),
                doc.span(),
            )
            .hint("give the document a metadata.layeringDefinition.layer")
        })
    }

    fn select_parents(
        &mut self,
        by_layer: &[(Node, Vec<usize>)],
        layer_at: &FxHashMap<Key, usize>,
        by_label: &FxHashMap<(Key, Key), Vec<usize>>,
        unhashable: &FxHashMap<usize, (Span, String)>,
        data: &[Option<Node>],
    ) -> Result<()> {
        let docs = self.docs;
        let mut count: Vec<i64> = vec![0; docs.len()];
        let mut candidates: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        let order = self.order.clone();
        for layer in &order {
            let Some(list) = layer_at
                .get(&Key(layer.clone()))
                .and_then(|&i| by_layer.get(i))
            else {
                continue;
            };
            for &p in &list.1 {
                let parent = &docs[p];
                let Some(labels) = parent.labels()? else {
                    continue;
                };
                let mut potential: Vec<usize> = Vec::new();
                for (k, v) in labels.iter() {
                    hashable(v, parent, "metadata.labels")?;
                    if let Some(found) = by_label.get(&(k.clone(), Key(v.clone()))) {
                        potential.extend(found.iter().copied());
                    }
                }
                potential.sort_unstable();
                potential.dedup();
                // Deckhand hashes each candidate (`load::read_set` found which it cannot).
                for &c in &potential {
                    if let Some((at, why)) = unhashable.get(&c) {
                        let at = *at;
                        return Err(fail(
                            None,
                            format!("{} has a mapping with {why}; Deckhand fails hashing the document when {} looks for its children (TypeError)", docs[c].title, parent.title),
                            if at.is_none() { docs[c].span() } else { at },
                        )
                        .hint("use keys of one type in each mapping (quote numeric keys)"));
                    }
                }
                let mut children = Vec::new();
                for c in potential {
                    if self.is_child(p, c, data)? {
                        children.push(c);
                    }
                }
                for &c in &children {
                    if let Some(n) = count.get_mut(c) {
                        *n += 1;
                    }
                    candidates.entry(c).or_default().push(p);
                }
                for c in children {
                    let cm = self.first(c);
                    let pm = self.first(p);
                    match self.parent.get(&cm).copied() {
                        Some(cur) => {
                            if self.layer_index(parent)? > self.layer_index(&docs[cur])? {
                                self.parent.insert(cm, pm);
                                if let Some(n) = count.get_mut(c) {
                                    *n -= 1;
                                }
                            }
                        }
                        None => {
                            self.parent.insert(cm, pm);
                        }
                    }
                }
            }
        }
        let top = order.first();
        for (layer, list) in by_layer {
            if top.is_none_or(|t| t.py_eq(layer)) {
                continue;
            }
            for &d in list {
                let n = count.get(d).copied().unwrap_or(0);
                if n > 1 {
                    let doc = &docs[d];
                    let mut e = fail(
                        Some("IndeterminateDocumentParent"),
                        format!(
                            "Too many parent documents found for document [{}, {}] {}. Found: {n}. Expected: 1",
                            super::doc::text(doc.schema()),
                            super::doc::text(doc.layer()),
                            super::doc::text(doc.name())
                        ),
                        selector_span(doc),
                    );
                    for &p in candidates.get(&d).into_iter().flatten() {
                        e = e.note(
                            format!("candidate parent {}", docs[p].title),
                            docs[p].span(),
                        );
                    }
                    return Err(e.hint(
                        "make the parentSelector match one document in the closest layer (Deckhand counts every candidate and lets a closer layer take over only once per layer)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// `_is_actual_child_document(parent, child)`, with its two `InvalidDocumentParent` errors.
    fn is_child(&self, p: usize, c: usize, data: &[Option<Node>]) -> Result<bool> {
        let (parent, child) = (&self.docs[p], &self.docs[c]);
        // Equal documents: equal without their data (taken out, a null in its place) and
        // equal data.
        let same = || {
            parent.node.py_eq(&child.node)
                && match (&data[p], &data[c]) {
                    (Some(a), Some(b)) => a.py_eq(b),
                    (a, b) => a.is_none() && b.is_none(),
                }
        };
        if p == c || (parent.meta == child.meta && same()) {
            return Ok(false);
        }
        let p_at = self.layer_index(parent)?;
        let c_at = self.layer_index(child)?;
        let labels = parent.labels()?;
        let Some(sel) = child.selector()? else {
            return Ok(false);
        };
        let matches = sel.iter().all(|(k, v)| {
            let have = labels.and_then(|l| l.get(k));
            match have {
                Some(h) => h.py_eq(v),
                None => v.is_null(),
            }
        });
        if !matches {
            return Ok(false);
        }
        let bad = |reason: String| {
            fail(
                Some("InvalidDocumentParent"),
                format!(
                    "The document parent [{}] {} is invalid for document [{}] {}. Reason: {reason}",
                    super::doc::text(parent.schema()),
                    super::doc::text(parent.name()),
                    super::doc::text(child.schema()),
                    super::doc::text(child.name())
                ),
                selector_span(child),
            )
            .note(
                format!("the parentSelector matches the labels of {}", parent.title),
                parent.span(),
            )
        };
        if !child.schema().py_eq(parent.schema()) {
            return Err(bad("Child has parentSelector which references parent, but their `schema`s do not match.".into())
                .hint("documents of different schemas are never layered: change the labels or the parentSelector"));
        }
        if p_at >= c_at {
            let names: Vec<String> = self.order.iter().map(super::doc::text).collect();
            return Err(bad(format!(
                "Child has parentSelector which references parent, but the child layer {} must be lower than the parent layer {} for layerOrder {}.",
                super::doc::text(child.layer()),
                super::doc::text(parent.layer()),
                names.join(", ")
            ))
            .hint("a parent must sit in a layer above its child's layer in layerOrder"));
        }
        Ok(true)
    }
}

/// Where a document's parentSelector is written (else the document).
pub(super) fn selector_span(doc: &Doc) -> crate::value::Span {
    super::doc::get(doc.metadata(), "layeringDefinition")
        .and_then(|ld| ld.get("parentSelector"))
        .map_or(doc.span(), |n| n.span)
}

fn hashable(v: &Node, doc: &Doc, what: &str) -> Result<()> {
    if v.is_scalar() {
        return Ok(());
    }
    Err(fail(
        None,
        format!(
            "a value of {what} in {} is {}; Deckhand needs a scalar (TypeError: unhashable type)",
            doc.title,
            v.kind_phrase()
        ),
        v.span,
    )
    .hint("write a string"))
}
