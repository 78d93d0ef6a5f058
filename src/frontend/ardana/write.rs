//! `strata ardana write`: the plan of writing a combined model back into a model directory, as
//! the service's `write_model` decides it (reference §3): every file of `fileSectionMap` gets
//! back its sections (`product` everywhere, whole dictionaries and single-file lists,
//! its own entries of a split list by key field, its dotted pass-through keys), whatever is
//! left goes to new files (`data/<section>.yml`, `data/<list>_<key>.yml`, one
//! `data/pass_through_<8 hex>.yml`), and model files no longer needed are deleted. A file whose
//! content equals what it holds (Python equality of the parsed data) is left byte-identical.
//! This file only plans; the CLI stages and renames (nothing half-written).
//!
//! Where strata differs: the pass-through file name is 8 hex digits of a hash of its content
//! (reproducible) instead of random; a new section whose value is `false`, `0` or `""` is
//! written (the service drops it); a file whose sections are all empty lists absent from the
//! model is kept as it is (the service deletes it); only model files are ever deleted (the
//! service deletes every `.yml`, e.g. a nested `cloudConfig.yml`); a file name that is absolute
//! or climbs out with `..` (from the model JSON or a key value) is an error, as is a new file
//! that would overwrite one written for another section.

use super::graft::graft;
use super::walk::{self, Entry};
use crate::error::{Error, ErrorKind, Result};
use crate::frontend::{add_text_input, Run};
use crate::load;
use crate::value::key_text;
use crate::value::py::py_str;
use crate::value::style::StyleSink;
use crate::value::{Key, Kind, Map, Node, Span};
use std::path::Path;

/// What happens to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Its content is what it holds: left byte-identical.
    Ignored,
    Changed,
    Added,
    Deleted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ignored => "ignored",
            Status::Changed => "changed",
            Status::Added => "added",
            Status::Deleted => "deleted",
        }
    }
}

/// One file of the plan: its path relative to the model directory, what happens, the text to
/// write (changed, added) and the text it held (changed, deleted).
#[derive(Clone, Debug)]
pub struct Change {
    pub rel: String,
    pub status: Status,
    pub text: Option<String>,
    pub old: Option<String>,
}

fn bad(message: String, span: Span) -> Error {
    Error::new(ErrorKind::Conflict, message).at(span)
}

/// A relative path strata may write: no absolute path, no `..`, no empty part.
fn safe_rel(rel: &str, span: Span) -> Result<()> {
    let parts: Vec<&str> = rel.split('/').collect();
    if rel.starts_with('/')
        || rel.contains('\\')
        || parts.iter().any(|p| p.is_empty() || *p == "..")
    {
        return Err(bad(
            format!("'{rel}' is not a path inside the model directory: strata writes only below it"),
            span,
        )
        .hint("file names come from the model's fileSectionMap and from key values: use names without '..', '\\\\' or a leading '/'"));
    }
    Ok(())
}

fn map_of<'a>(node: Option<&'a Node>, what: &str, at: Span) -> Result<&'a Map> {
    node.and_then(Node::as_map)
        .ok_or_else(|| bad(format!("the model has no {what} mapping"), at))
}

/// Plans writing `model` (a combined model, as `ardana read` prints it) into `dir`, whose
/// files are read from the run's store.
pub fn plan(model: &Node, dir: &Path, run: &mut Run<'_>) -> Result<Vec<Change>> {
    let input = map_of(model.get("inputModel"), "inputModel", model.span)?;
    let info = model.get("fileInfo");
    let fsm = map_of(
        info.and_then(|i| i.get("fileSectionMap")),
        "fileInfo.fileSectionMap",
        model.span,
    )?;
    let sections = map_of(
        info.and_then(|i| i.get("sections")),
        "fileInfo.sections",
        model.span,
    )?;
    let mut work = input.clone();
    let product = input.get(&Key::str("product")).cloned();
    let mut out: Vec<(String, Map, Span)> = Vec::new();
    // Phase 1: the files the model came from.
    for (file_key, entries) in fsm.iter() {
        let rel = key_text(&file_key.0);
        safe_rel(&rel, file_key.span())?;
        let mut content = Map::new();
        for entry in entries.as_list().unwrap_or_default() {
            match &entry.kind {
                Kind::Str(s) if &**s == "product" => {
                    if let Some(p) = &product {
                        content.insert(Key::str("product"), p.clone());
                    }
                }
                Kind::Str(s) => {
                    if let Some(v) = work.shift_remove(&Key::str(s)) {
                        content.insert(Key::str(s), v);
                    }
                }
                Kind::Map(m) => place_entry(m, entry.span, sections, &mut work, &mut content)?,
                _ => {}
            }
        }
        if content.keys().any(|k| k.as_str() != Some("product")) {
            out.push((rel, content, file_key.span()));
        }
    }
    // Phase 2: what no existing file took.
    let leftovers: Vec<(Key, Node)> = work
        .iter()
        .filter(|(k, v)| k.as_str() != Some("product") && !empty(v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (k, contents) in leftovers {
        let section = key_text(&k.0);
        let base = format!("data/{}", section.replace('-', "_"));
        let data = |value: Node| {
            let mut m = Map::new();
            if let Some(p) = &product {
                m.insert(Key::str("product"), p.clone());
            }
            m.insert(k.clone(), value);
            m
        };
        if !sections.contains_key(&k) {
            out.push((format!("{base}.yml"), data(contents), k.span()));
        } else if let Some(items) = contents.as_list() {
            let key_field = key_field_of(fsm, &section).ok_or_else(|| {
                bad(
                    format!("no file of the model names a key field for list '{section}'"),
                    k.span(),
                )
            })?;
            let name = |item: &Node| -> Result<String> {
                let id = item.get(&key_field).ok_or_else(|| {
                    bad(
                        format!("a new entry of '{section}' has no '{key_field}'"),
                        item.span,
                    )
                })?;
                Ok(format!("{base}_{}.yml", py_str(id)))
            };
            if one_per_file(fsm, &section) {
                for item in items {
                    out.push((
                        name(item)?,
                        data(Node::list(vec![item.clone()], item.span)),
                        item.span,
                    ));
                }
            } else if let Some(first) = items.first() {
                out.push((name(first)?, data(contents.clone()), first.span));
            }
        } else {
            let text = crate::render::yaml::to_string(&contents, None);
            let hash = rustc_hash::FxHasher::default();
            let h = {
                use std::hash::{Hash, Hasher};
                let mut h = hash;
                text.hash(&mut h);
                h.finish()
            };
            out.push((
                format!("{base}_{:08x}.yml", h as u32),
                data(contents),
                k.span(),
            ));
        }
    }
    finish(out, dir, run)
}

/// One `{S: ids, keyField: K, type: array}` or `{pass-through: [dotted], type: object}` entry.
fn place_entry(
    m: &Map,
    span: Span,
    sections: &Map,
    work: &mut Map,
    content: &mut Map,
) -> Result<()> {
    let Some((sk, ids)) = m
        .iter()
        .find(|(k, _)| !matches!(k.as_str(), Some("type" | "keyField")))
    else {
        return Ok(());
    };
    let section = key_text(&sk.0);
    if !work.contains_key(sk) {
        return Ok(());
    }
    let ids = ids.as_list().unwrap_or_default();
    if m.get(&Key::str("type")).and_then(Node::as_str) == Some("array") {
        let files = sections
            .get(sk)
            .and_then(Node::as_list)
            .map_or(0, <[Node]>::len);
        if files == 1 {
            if let Some(v) = work.shift_remove(sk) {
                content.insert(sk.clone(), v);
            }
            return Ok(());
        }
        let key_field = m
            .get(&Key::str("keyField"))
            .and_then(Node::as_str)
            .unwrap_or("");
        // Python's `id in our_ids`: string ids (nearly all) by hash, others by Python's ==.
        let strings: rustc_hash::FxHashSet<&str> = ids.iter().filter_map(Node::as_str).collect();
        let ours = |item: &Node| {
            item.get(key_field).is_some_and(|id| match id.as_str() {
                Some(t) => strings.contains(t),
                None => ids.iter().any(|i| i.py_eq(id)),
            })
        };
        let Some(list) = work.get_mut(sk).and_then(|n| match &mut n.kind {
            Kind::List(l) => Some(l),
            _ => None,
        }) else {
            return Ok(());
        };
        if let Some(item) = list.iter().find(|i| i.get(key_field).is_none()) {
            return Err(bad(format!("an entry of '{section}' has no '{key_field}' (the key field of a file that holds '{section}')"), item.span));
        }
        let taken: Vec<Node> = list.iter().filter(|i| ours(i)).cloned().collect();
        list.retain(|i| !ours(i));
        if !taken.is_empty() {
            content.insert(sk.clone(), Node::list(taken, span));
        }
        return Ok(());
    }
    // Pass-through spread over files: this file's dotted keys.
    let Some(Kind::Map(pt)) = work.get_mut(sk).map(|n| &mut n.kind) else {
        return Ok(());
    };
    let mut mine = Map::new();
    for dotted in ids.iter().filter_map(Node::as_str) {
        match dotted.split_once('.') {
            None => {
                // The service reuses a stale value for a deleted key: a deleted key is dropped.
                if let Some(v) = pt.shift_remove(&Key::str(dotted)) {
                    mine.insert(Key::str(dotted), v);
                }
            }
            Some((first, second)) => {
                let fk = Key::str(first);
                let Some(Kind::Map(inner)) = pt.get_mut(&fk).map(|n| &mut n.kind) else {
                    continue;
                };
                if let Some(v) = inner.shift_remove(&Key::str(second)) {
                    if !mine.contains_key(&fk) {
                        mine.insert(fk.clone(), Node::empty_map(span));
                    }
                    if let Some(Kind::Map(sm)) = mine.get_mut(&fk).map(|n| &mut n.kind) {
                        sm.insert(Key::str(second), v);
                    }
                }
                if pt
                    .get(&fk)
                    .and_then(Node::as_map)
                    .is_some_and(Map::is_empty)
                {
                    pt.shift_remove(&fk);
                }
            }
        }
    }
    if !mine.is_empty() {
        content.insert(sk.clone(), Node::map(mine, span));
    }
    Ok(())
}

/// Empty containers and null are not written as new sections (`false`, `0`, `""` are).
fn empty(v: &Node) -> bool {
    match &v.kind {
        Kind::Null => true,
        Kind::List(l) => l.is_empty(),
        Kind::Map(m) => m.is_empty(),
        _ => false,
    }
}

/// The key field of the first fileSectionMap entry that mentions `section`.
fn key_field_of(fsm: &Map, section: &str) -> Option<String> {
    fsm.values()
        .flat_map(|v| v.as_list().unwrap_or_default().iter())
        .filter_map(Node::as_map)
        .find(|m| m.contains_key(&Key::str(section)))
        .and_then(|m| m.get(&Key::str("keyField")))
        .and_then(Node::as_str)
        .map(str::to_string)
}

/// Whether every file holding a part of `section` holds exactly one entry.
fn one_per_file(fsm: &Map, section: &str) -> bool {
    fsm.values()
        .flat_map(|v| v.as_list().unwrap_or_default().iter())
        .filter_map(Node::as_map)
        .filter_map(|m| m.get(&Key::str(section)))
        .all(|ids| ids.as_list().is_some_and(|l| l.len() == 1))
}

/// Compares each planned file with what the directory holds, and adds the deletions.
fn finish(out: Vec<(String, Map, Span)>, dir: &Path, run: &mut Run<'_>) -> Result<Vec<Change>> {
    let mut changes: Vec<Change> = Vec::new();
    let mut planned: Vec<(String, Node, Status, Option<String>)> = Vec::with_capacity(out.len());
    for (rel, content, span) in out {
        safe_rel(&rel, span)?;
        if planned.iter().any(|(r, ..)| *r == rel) {
            return Err(bad(
                format!("two parts of the model would be written to {rel}"),
                span,
            )
            .hint("rename the new section or entry so that its file name differs"));
        }
        let node = Node::map(content, Span::NONE);
        let (old_text, old) = read(run, &dir.join(&rel))?;
        let (status, node) = match &old {
            Some(o) if o.py_eq(&node) => (Status::Ignored, node),
            // What the file already holds is written with its comments and spellings.
            Some(o) => (Status::Changed, graft(&node, o)),
            None if old_text.is_some() => (Status::Changed, node),
            None => (Status::Added, node),
        };
        planned.push((rel, node, status, old_text));
    }
    let styles = run.settings.load.styles.as_ref().map(StyleSink::book);
    for (rel, node, status, old) in planned {
        // Only a file that changes is written out (a large model has few of them).
        let text = (status != Status::Ignored)
            .then(|| crate::render::yaml::to_string_styled(&node, None, styles.as_ref()));
        changes.push(Change {
            rel,
            status,
            text,
            old,
        });
    }
    // Model files nobody took: deleted, unless all they hold is empty lists the model lacks.
    let mut model_files = vec!["cloudConfig.yml".to_string()];
    model_files.extend(
        walk::walk(run.files, dir)
            .into_iter()
            .filter_map(|e| match e {
                Entry::Yaml { rel, .. } => Some(rel),
                Entry::Readme { .. } | Entry::LinkedDir { .. } => None,
            }),
    );
    for rel in model_files {
        if changes.iter().any(|c| c.rel == rel) {
            continue;
        }
        let (old_text, old) = read(run, &dir.join(&rel))?;
        let Some(old_text) = old_text else { continue };
        let only_empty = old.as_ref().and_then(Node::as_map).is_some_and(|m| {
            m.iter()
                .all(|(k, v)| k.as_str() == Some("product") || empty(v))
        });
        let status = if only_empty {
            Status::Ignored
        } else {
            Status::Deleted
        };
        changes.push(Change {
            rel,
            status,
            text: None,
            old: Some(old_text),
        });
    }
    Ok(changes)
}

/// A file's text and parsed content (`None`, `None` when it does not exist).
fn read(run: &mut Run<'_>, path: &Path) -> Result<(Option<String>, Option<Node>)> {
    let (sources, settings) = (&mut *run.sources, run.settings);
    let Some(input) = run.files.read(path)? else {
        return Ok((None, None));
    };
    let text = String::from_utf8_lossy(&input.bytes).into_owned();
    let id = add_text_input(input, sources, settings)?;
    let mut warnings = Vec::new();
    let doc = load::load_document(sources.text(id), id, false, &settings.load, &mut warnings)
        .map_err(|e| e.hint("a model file that does not parse is not overwritten or deleted: fix it or remove it first"))?;
    Ok((Some(text), doc))
}
