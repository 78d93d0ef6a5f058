//! What happens between parent selection and rendering: the replacement rules
//! (`_replacement.py`), the substitution-source map (`(schema, name)` → document, a replaced
//! document's replacement in its place), and the processing order: the dependency graph
//! (child → parent, document → substitution source), any cycle as
//! `SubstitutionDependencyCycle`, and networkx's `topological_sort` reversed (Kahn by
//! generations: nodes in insertion order, successors in edge order), then every document
//! outside the graph in input order. Linear in documents + edges.

use super::doc::{Doc, SchemaName};
use super::fail;
use super::select::Site;
use crate::error::{Error, Result};
use crate::value::{Key, Node};
use rustc_hash::{FxHashMap, FxHashSet};

/// The rendering plan.
pub(super) struct Plan {
    /// Documents in processing order (first documents of each meta).
    pub sorted: Vec<usize>,
    /// Replaced document → its replacement.
    pub replaced_by: FxHashMap<usize, usize>,
    /// `(schema, name)` → the document substitutions read.
    pub sources: FxHashMap<SchemaName, usize>,
}

fn replacement_error(doc: &Doc, reason: &str) -> Error {
    fail(
        Some("InvalidDocumentReplacement"),
        format!(
            "Replacement document [{}, {}] {} is invalid. Reason: {reason}",
            super::doc::text(doc.schema()),
            super::doc::text(doc.layer()),
            super::doc::text(doc.name())
        ),
        doc.span(),
    )
}

/// The replacement checks, in Deckhand's order, and the substitution sources.
pub(super) fn plan(site: &Site<'_>) -> Result<Plan> {
    let docs = site.docs;
    let mut replaced_by: FxHashMap<usize, usize> = FxHashMap::default();
    let mut seen: FxHashSet<(Key, Key)> = FxHashSet::default();
    let mut seen_at: FxHashMap<(Key, Key), usize> = FxHashMap::default();
    for &d in &site.index {
        let doc = &docs[d];
        let parent = site.parent.get(&d).copied();
        if doc.is_replacement() {
            let Some(p) = parent else {
                return Err(replacement_error(doc, "Document replacement requires that the document with `replacement: true` have a parent.")
                    .hint("give the replacement a parentSelector that selects the document it replaces"));
            };
            let pd = &docs[p];
            if !(doc.schema().py_eq(pd.schema()) && doc.name().py_eq(pd.name())) {
                return Err(replacement_error(doc, "Document replacement requires that both documents have the same `schema` and `metadata.name`.")
                    .note(format!("its parent {}", pd.title), pd.span())
                    .hint("a replacement must have its parent's schema and metadata.name"));
            }
            replaced_by.insert(p, d);
        } else {
            if let Some(p) = parent {
                let pd = &docs[p];
                if doc.schema().py_eq(pd.schema()) && doc.name().py_eq(pd.name()) {
                    return Err(replacement_error(doc, "Non-replacement documents cannot have the same `schema` and `metadata.name` as their parent. Either add `replacement: true` to the document or give the document a different name.")
                        .note(format!("its parent {}", pd.title), pd.span())
                        .hint("add `replacement: true` to the document, or rename it"));
                }
            }
            if !doc.is_control()? {
                let name = raw_name(doc)?;
                let id = (
                    Key(name),
                    Key(doc
                        .node
                        .get("schema")
                        .cloned()
                        .unwrap_or(Node::null(doc.span()))),
                );
                if !seen.insert(id.clone()) {
                    let mut e = replacement_error(doc, "More than one document with the same name and schema was found, but none has `replacement: true`. Ensure that only 2 documents exist for each replacement and that one has `replacement: true` and the other `replacement: false`.");
                    if let Some(&other) = seen_at.get(&id) {
                        e = e.note(
                            format!("the other document {}", docs[other].title),
                            docs[other].span(),
                        );
                    }
                    return Err(e.hint("rename one of them, or make one replace the other (replacement: true, selecting it as parent)"));
                }
                seen_at.insert(id, d);
            }
        }
    }
    let mut sources: FxHashMap<SchemaName, usize> = FxHashMap::default();
    for &d in &site.index {
        let doc = &docs[d];
        if doc.is_abstract() {
            continue;
        }
        let mut src = d;
        if let Some(&r) = replaced_by.get(&d) {
            if doc.is_replacement() {
                return Err(replacement_error(
                    doc,
                    "A replacement document cannot itself be replaced by another document.",
                )
                .note(format!("its replacement {}", docs[r].title), docs[r].span())
                .hint("replace the original document only once"));
            }
            src = r;
        }
        sources.insert(docs[src].schema_name(), src);
    }
    let sorted = sort(site, &replaced_by, &sources)?;
    Ok(Plan {
        sorted,
        replaced_by,
        sources,
    })
}

/// `document['metadata']['name']` (Deckhand reads it raw for the uniqueness check).
fn raw_name(doc: &Doc) -> Result<Node> {
    doc.metadata()
        .and_then(|m| m.get(&Key::str("name")))
        .cloned()
        .filter(Node::is_scalar)
        .ok_or_else(|| {
            fail(
                None,
                format!(
                    "{} has no metadata.name (Deckhand: KeyError 'name')",
                    doc.title
                ),
                doc.span(),
            )
            .hint("give every document a metadata.name")
        })
}

/// `(src.schema, src.name)` of a substitution entry.
pub(super) fn source_key(sub: &Node, doc: &Doc) -> Result<SchemaName> {
    let src = sub.get("src").filter(|s| s.as_map().is_some());
    let field = |k: &str| src.and_then(|s| s.get(k)).cloned();
    match (field("schema"), field("name")) {
        (Some(s), Some(n)) if s.is_scalar() && n.is_scalar() => Ok(SchemaName(Key(s), Key(n))),
        _ => Err(fail(
            None,
            format!(
                "a substitution of {} has no src.schema and src.name (Deckhand: KeyError)",
                doc.title
            ),
            sub.span,
        )
        .hint("write src: {schema: ..., name: ..., path: ...}")),
    }
}

/// The dependency graph in insertion order, its cycles, and networkx's order reversed.
fn sort(
    site: &Site<'_>,
    replaced_by: &FxHashMap<usize, usize>,
    sources: &FxHashMap<SchemaName, usize>,
) -> Result<Vec<usize>> {
    let docs = site.docs;
    let mut node_of: FxHashMap<usize, usize> = FxHashMap::default();
    let mut nodes: Vec<usize> = Vec::new();
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut edge_seen: FxHashSet<(usize, usize)> = FxHashSet::default();
    let mut add_node = |d: usize, nodes: &mut Vec<usize>, succ: &mut Vec<Vec<usize>>| -> usize {
        *node_of.entry(d).or_insert_with(|| {
            nodes.push(d);
            succ.push(Vec::new());
            nodes.len() - 1
        })
    };
    for &d in &site.index {
        let doc = &docs[d];
        if doc.has_selector()? {
            if let Some(&p) = site.parent.get(&d) {
                let anc = match replaced_by.get(&p) {
                    Some(&r) if r != d => r,
                    _ => p,
                };
                let (a, b) = (
                    add_node(d, &mut nodes, &mut succ),
                    add_node(anc, &mut nodes, &mut succ),
                );
                if edge_seen.insert((a, b)) {
                    if let Some(s) = succ.get_mut(a) {
                        s.push(b);
                    }
                }
            }
        }
        for sub in doc.substitutions()? {
            let key = source_key(sub, doc)?;
            if let Some(&s) = sources.get(&key) {
                let (a, b) = (
                    add_node(d, &mut nodes, &mut succ),
                    add_node(s, &mut nodes, &mut succ),
                );
                if edge_seen.insert((a, b)) {
                    if let Some(v) = succ.get_mut(a) {
                        v.push(b);
                    }
                }
            }
        }
    }
    let mut indeg = vec![0usize; nodes.len()];
    for s in &succ {
        for &b in s {
            indeg[b] += 1;
        }
    }
    let mut zero: Vec<usize> = (0..nodes.len()).filter(|&n| indeg[n] == 0).collect();
    let mut order = Vec::with_capacity(nodes.len());
    while !zero.is_empty() {
        let generation = std::mem::take(&mut zero);
        for &n in &generation {
            for &c in &succ[n] {
                indeg[c] -= 1;
                if indeg[c] == 0 {
                    zero.push(c);
                }
            }
        }
        order.extend(generation);
    }
    if order.len() < nodes.len() {
        return Err(cycle_error(site, &nodes, &succ, &indeg));
    }
    let mut sorted: Vec<usize> = order.iter().rev().map(|&n| nodes[n]).collect();
    let in_graph: FxHashSet<usize> = nodes.iter().copied().collect();
    sorted.extend(site.index.iter().copied().filter(|d| !in_graph.contains(d)));
    Ok(sorted)
}

/// Names one cycle among the nodes Kahn's pass could not release.
fn cycle_error(site: &Site<'_>, nodes: &[usize], succ: &[Vec<usize>], indeg: &[usize]) -> Error {
    let docs = site.docs;
    let stuck: Vec<bool> = indeg.iter().map(|&d| d > 0).collect();
    // Every node Kahn's pass left has a predecessor it left too: walking stuck predecessors
    // from any of them must come back to a node already seen, and that loop is a cycle.
    let mut pred: Vec<Option<usize>> = vec![None; nodes.len()];
    for (a, s) in succ.iter().enumerate() {
        if stuck.get(a).copied().unwrap_or(false) {
            for &b in s {
                if let Some(p) = pred.get_mut(b) {
                    p.get_or_insert(a);
                }
            }
        }
    }
    let start = stuck.iter().position(|&s| s).unwrap_or(0);
    let mut pos: FxHashMap<usize, usize> = FxHashMap::default();
    let mut path = vec![start];
    let mut cur = start;
    loop {
        pos.insert(cur, path.len() - 1);
        let Some(n) = pred.get(cur).copied().flatten() else {
            break;
        };
        if let Some(&at) = pos.get(&n) {
            path = path.split_off(at);
            break;
        }
        path.push(n);
        cur = n;
    }
    // The walk went against the edges: reverse it so each document depends on the next.
    path.reverse();
    let cycle: Vec<usize> = path.iter().map(|&n| nodes[n]).collect();
    let names: Vec<String> = cycle.iter().map(|&d| docs[d].title.clone()).collect();
    let first = cycle.first().copied().unwrap_or(0);
    let mut e = fail(
        Some("SubstitutionDependencyCycle"),
        format!(
            "Cannot determine substitution order as a dependency cycle exists for the following documents: {}",
            names.join(" -> ")
        ),
        docs.get(first).map_or(crate::value::Span::NONE, Doc::span),
    );
    for &d in &cycle {
        e = e.note(docs[d].title.clone(), docs[d].span());
    }
    e.hint(
        "each document depends on the next (its parent or a substitution source); break the cycle",
    )
}
