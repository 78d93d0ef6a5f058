//! Reading a Deckhand document set: every input is a YAML stream read as PyYAML's
//! `safe_load_all` reads it (YAML 1.1, one `Node` per document, positions on every node);
//! empty documents (a bare `---`, a trailing `...`) are dropped, as the API drops them. An
//! empty file holds no documents. Every document must then be a mapping with a string
//! `schema` (the engine reads `schema` of every document to find the LayeringPolicy). The
//! documents are then read into `Doc`s in groups on threads (`read_set`).

use super::doc::Doc;
use super::fail;
use crate::error::{Error, Result, Warning};
use crate::frontend::{parse_inputs, Input, Settings};
use crate::load::yaml;
use crate::par::Threads;
use crate::value::{Node, SourceMap, Span};
use rustc_hash::FxHashMap;

/// Every non-empty document of every input, in order.
pub(super) fn documents(
    inputs: Vec<Input>,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    // A file of only blank space holds no document (it is checked for size only).
    // One over the size limit stops the run where it stands in the inputs.
    let mut texts = Vec::with_capacity(inputs.len());
    let mut too_large = Ok(());
    let mut blank = Vec::new();
    for input in inputs {
        if !input.bytes.iter().all(u8::is_ascii_whitespace) {
            texts.push(input);
        } else if let Err(e) = crate::frontend::check_size(&input, settings) {
            too_large = Err(e);
            break;
        } else {
            blank.push(input.name);
        }
    }
    for name in blank {
        warnings.push(crate::frontend::no_document(
            &name,
            Span::NONE,
            "it adds nothing to the set",
        ));
    }
    let parsed = parse_inputs(texts, sources, settings, |_, text, id, warnings| {
        yaml::load_stream_text(text, id, &settings.load, warnings)
    });
    if let Some(all) = crate::frontend::parse_failures(&parsed) {
        return Err(all);
    }
    let mut docs = Vec::new();
    for loaded in parsed {
        let loaded = loaded?;
        warnings.extend(loaded.warnings);
        let before = docs.len();
        docs.extend(loaded.value?.into_iter().filter(|d| !d.is_null()));
        if docs.len() == before {
            warnings.push(crate::frontend::no_document(
                sources.name(loaded.id),
                crate::frontend::file_span(loaded.id),
                "it adds nothing to the set",
            ));
        }
        if docs.len() > settings.load.limits.max_documents {
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::Limit,
                format!("more than {} documents", settings.load.limits.max_documents),
            )
            .in_file(sources.name(loaded.id))
            .hint("split the site, or render fewer documents at once"));
        }
    }
    too_large?;
    Ok(docs)
}

/// The set as the engine reads it before layering: every document's shape (`check_schema`),
/// the first LayeringPolicy, each document's identity (`Doc`), and which documents Deckhand
/// could not hash (`doc::json_hashable`, by index: parent selection fails on one only when a
/// parent's labels point at it).
pub(super) struct Set {
    pub docs: Vec<Doc>,
    pub policy_at: usize,
    pub unhashable: FxHashMap<usize, (Span, String)>,
}

/// What a group of documents yields: the first shape error, the first LayeringPolicy, the
/// first document that cannot be read, and the rest as above.
struct Group {
    docs: Vec<Doc>,
    shape: Option<Error>,
    policy: Option<usize>,
    broken: Option<Error>,
    unhashable: Vec<(usize, (Span, String))>,
}

/// Reads the documents in groups on `threads` (each document is read on its own, so only
/// speed depends on the threads); the errors are those of a reading in order: the first
/// document that is not a mapping with a string `schema`, then a missing LayeringPolicy, then
/// the first document whose metadata Deckhand cannot read.
pub(super) fn read_set(nodes: Vec<Node>, threads: Threads) -> Result<Set> {
    let first = nodes.first().map_or(Span::NONE, |n| n.span);
    let count = nodes.len();
    let per = crate::par::group_len(count, threads.jobs);
    let mut groups = Vec::with_capacity(count / per + 1);
    let mut rest = nodes.into_iter();
    let mut at = 0;
    loop {
        let group: Vec<Node> = rest.by_ref().take(per).collect();
        if group.is_empty() {
            break;
        }
        let len = group.len();
        groups.push((at, group));
        at += len;
    }
    let size = |n: &Node| n.span.end.saturating_sub(n.span.start) as usize;
    let groups = crate::par::map_ordered(
        groups,
        threads,
        |(_, g)| g.iter().map(size).sum(),
        |(at, g)| read_group(at, g),
    );
    if let Some(e) = groups.iter().find_map(|g| g.shape.clone()) {
        return Err(e);
    }
    let Some(policy_at) = groups.iter().find_map(|g| g.policy) else {
        let hint = match count {
            0 => "the inputs hold no document at all; give the site's files (a LayeringPolicy and the documents it layers)",
            _ => "add a document with schema: deckhand/LayeringPolicy/v1 and data: {layerOrder: [global, site]}",
        };
        return Err(fail(
            Some("LayeringPolicyNotFound"),
            "Required LayeringPolicy was not found for layering",
            first,
        )
        .hint(hint));
    };
    let mut set = Set {
        docs: Vec::with_capacity(count),
        policy_at,
        unhashable: FxHashMap::default(),
    };
    for g in groups {
        if let Some(e) = g.broken {
            return Err(e);
        }
        set.docs.extend(g.docs);
        set.unhashable.extend(g.unhashable);
    }
    Ok(set)
}

fn read_group(at: usize, nodes: Vec<Node>) -> Group {
    let mut g = Group {
        docs: Vec::with_capacity(nodes.len()),
        shape: None,
        policy: None,
        broken: None,
        unhashable: Vec::new(),
    };
    for (i, node) in nodes.into_iter().enumerate() {
        let i = at + i;
        if let Err(e) = check_schema(i, &node) {
            g.shape = Some(e);
            break;
        }
        let policy = node
            .get("schema")
            .and_then(Node::as_str)
            .is_some_and(|s| s.starts_with("deckhand/LayeringPolicy"));
        if policy && g.policy.is_none() {
            g.policy = Some(i);
        }
        if g.broken.is_some() {
            continue;
        }
        match Doc::new(node) {
            Ok(doc) => {
                if let Err(why) = super::doc::json_hashable(&doc.node) {
                    g.unhashable.push((i, why));
                }
                g.docs.push(doc);
            }
            Err(e) => g.broken = Some(e),
        }
    }
    g
}

/// Each document is a mapping with a string `schema`: the engine calls
/// `doc.get('schema').startswith(...)` on every document (AttributeError otherwise).
fn check_schema(i: usize, d: &Node) -> Result<()> {
    if d.as_map().is_none() {
        return Err(fail(
            None,
            format!("document {} is {}, not a mapping", i + 1, d.kind_phrase()),
            d.span,
        )
        .hint("a Deckhand document is a mapping with schema, metadata and data"));
    }
    match d.get("schema") {
        None => {
            return Err(
                fail(None, format!("document {} has no schema", i + 1), d.span).hint(
                    "add schema: <namespace>/<Kind>/v1 (Deckhand reads every document's schema)",
                ),
            )
        }
        Some(s) if s.as_str().is_none() => {
            return Err(fail(
                None,
                format!(
                    "the schema of document {} is {}, not a string",
                    i + 1,
                    s.kind_phrase()
                ),
                s.span,
            )
            .hint("write schema: <namespace>/<Kind>/v1"))
        }
        Some(_) => {}
    }
    Ok(())
}
