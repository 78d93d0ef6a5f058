//! JSON explanation: `{"result", "explain": [one entry per leaf], "removed", "history"}`,
//! pretty-printed as serde_json prints it, but written a piece at a time: each member and each
//! leaf entry is serialized on its own and indented to its depth (JSON strings hold no raw line
//! breaks, so indenting after every line break is exact), and the leaves come from a walk of
//! the result, so no entry list or whole-document `Value` of the explanation is ever built.

use super::yaml::{reason, removed};
use super::{leaves, Context, Leaf, Subject, Warnings};
use crate::error::Result;
use crate::merge::{Outcome, Prior, Step};
use crate::render::json;
use crate::rendered::Rendered;
use crate::strategy::Origin;
use crate::value::{Node, SourceMap};
use serde_json::Value;
use std::io::Write;

/// The `result` member: the explained value as JSON data (`null` when there is none).
pub(super) fn result(root: Option<&Node>) -> Result<Value> {
    Ok(match root {
        Some(r) => serde_json::from_str::<Value>(&json::to_compact(r)?).unwrap_or(Value::Null),
        None => Value::Null,
    })
}

/// Copies everything through, adding `pad` after every line break.
struct Indented<'w> {
    to: &'w mut dyn Write,
    pad: &'static [u8],
}

impl Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let pad = self.pad;
        indent_lines(buf, pad, |piece| self.to.write_all(piece))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.to.flush()
    }
}

/// Writes `value` pretty-printed as it would appear `pad` deep in a larger document.
fn nested(out: &mut dyn Write, pad: &'static [u8], value: &Value) -> std::io::Result<()> {
    let mut w = Indented { to: out, pad };
    serde_json::to_writer_pretty(&mut w, value).map_err(std::io::Error::other)
}

/// `nested` for a small value (one leaf's entry): serialized whole into `scratch.0`, then
/// indented into `scratch.1` and handed on in one piece (serde_json writes a token at a time:
/// through `Indented`, each token was a call on to the sink).
fn nested_small(
    out: &mut dyn Write,
    pad: &'static [u8],
    value: &Value,
    (raw, padded): &mut (Vec<u8>, Vec<u8>),
) -> std::io::Result<()> {
    raw.clear();
    padded.clear();
    serde_json::to_writer_pretty(&mut *raw, value).map_err(std::io::Error::other)?;
    indent_lines(raw, pad, |piece| {
        padded.extend_from_slice(piece);
        Ok(())
    })?;
    out.write_all(padded)
}

/// Hands on `text` in pieces with `pad` after each line break: the one indenting loop of
/// `Indented` and `nested_small`.
fn indent_lines(
    text: &[u8],
    pad: &[u8],
    mut emit: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut rest = text;
    while let Some(at) = memchr::memchr(b'\n', rest) {
        let (line, tail) = rest.split_at(at + 1);
        emit(line)?;
        emit(pad)?;
        rest = tail;
    }
    emit(rest)
}

/// Starts a member of the top-level object: `{\n  "name": ` or `,\n  "name": `.
fn member(out: &mut dyn Write, first: &mut bool, name: &str) -> std::io::Result<()> {
    let sep: &[u8] = if std::mem::take(first) {
        b"{\n  "
    } else {
        b",\n  "
    };
    out.write_all(sep)?;
    out.write_all(serde_json::to_string(name).unwrap_or_default().as_bytes())?;
    out.write_all(b": ")
}

pub(super) fn explain(
    rendered: &Rendered,
    subject: Subject<'_, '_>,
    result: &Value,
    sources: &SourceMap,
    sink: &mut dyn Write,
) -> std::io::Result<()> {
    let Subject {
        root,
        path: mut root_path,
        focus,
        history,
    } = subject;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, sink);
    let mut scratch = (Vec::new(), Vec::new());
    let mut first = true;
    if let Some(p) = focus {
        member(&mut out, &mut first, "path")?;
        nested(&mut out, b"  ", &Value::from(p.to_string()))?;
    }
    member(&mut out, &mut first, "result")?;
    nested(&mut out, b"  ", result)?;
    member(&mut out, &mut first, "explain")?;
    let warnings = Warnings::new(&rendered.warnings);
    let notes = Warnings::new(&rendered.notes);
    let mut count = 0usize;
    if let Some(root) = root {
        let trace = super::trace_of(rendered);
        let mut each = |leaf: &Leaf<'_, '_>| -> std::io::Result<()> {
            out.write_all(if count == 0 { b"[\n    " } else { b",\n    " })?;
            count += 1;
            nested_small(
                &mut out,
                b"    ",
                &entry(leaf, [&warnings, &notes], sources),
                &mut scratch,
            )
        };
        let cx = match (&rendered.stream, focus) {
            (Some(stream), None) => Context {
                stream_root: Some(&stream.docs),
                ..Context::default()
            },
            (Some(_), Some(p)) => Context {
                scope: super::scope_of(rendered, p),
                ..Context::default()
            },
            (None, _) => Context::default(),
        };
        let cx = Context {
            by_path: super::may_copy(sources),
            ..cx
        };
        leaves(root, &mut root_path, cx, trace, &mut each)?;
    }
    out.write_all(if count == 0 { b"[]" } else { b"\n  ]" })?;
    if let (Some(stream), None) = (&rendered.stream, focus) {
        let docs: Vec<Value> = stream
            .docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let parents: Vec<Value> = d
                    .parents
                    .iter()
                    .map(|(t, at)| serde_json::json!({"title": t, "at": position(sources, *at)}))
                    .collect();
                serde_json::json!({"index": i, "title": d.title, "at": position(sources, d.at), "parents": parents})
            })
            .collect();
        member(&mut out, &mut first, "documents")?;
        nested(&mut out, b"  ", &Value::Array(docs))?;
    }
    if focus.is_none() {
        let gone: Vec<Value> = removed(rendered)
            .into_iter()
            .map(|s| {
                let mut m = serde_json::Map::new();
                m.insert("layer".into(), s.layer.into());
                if let Some(name) = super::yaml::document_name(rendered, s.layer) {
                    m.insert("document".into(), name.into());
                }
                m.insert("path".into(), s.path.to_string().into());
                m.insert("outcome".into(), s.outcome.as_str().into());
                m.insert("at".into(), position(sources, s.value));
                m.insert("rule".into(), rule_json(s, sources));
                m.insert("overrode".into(), priors_json(&s.overrode, sources));
                if let Some(why) = reason(rendered, s) {
                    m.insert("reason".into(), why.into());
                }
                Value::Object(m)
            })
            .collect();
        if !gone.is_empty() {
            member(&mut out, &mut first, "removed")?;
            nested(&mut out, b"  ", &Value::Array(gone))?;
        }
    }
    if focus.is_some() {
        let hist: Vec<Value> = history
            .iter()
            .map(|s| {
                let mut m = serde_json::Map::new();
                m.insert("layer".into(), s.layer.into());
                m.insert("path".into(), s.path.to_string().into());
                m.insert("outcome".into(), s.outcome.as_str().into());
                m.insert("value".into(), position(sources, s.value));
                m.insert("rule".into(), rule_json(s, sources));
                m.insert("overrode".into(), priors_json(&s.overrode, sources));
                Value::Object(m)
            })
            .collect();
        member(&mut out, &mut first, "history")?;
        nested(&mut out, b"  ", &Value::Array(hist))?;
    }
    out.write_all(b"\n}\n")?;
    out.flush()
}

/// One leaf's entry: its path, where it was written, the decision that put it there.
fn entry(leaf: &Leaf<'_, '_>, said: [&Warnings<'_>; 2], sources: &SourceMap) -> Value {
    let mut entry = serde_json::Map::new();
    entry.insert("path".into(), leaf.path.to_string().into());
    entry.insert("source".into(), position(sources, leaf.node.span));
    if let Some(s) = leaf.step {
        let outcome = super::shown_outcome(s, leaf.node);
        entry.insert("outcome".into(), outcome.as_str().into());
        entry.insert("rule".into(), rule_json(s, sources));
        if s.value == leaf.node.span {
            entry.insert("overrode".into(), priors_json(&s.overrode, sources));
            if !s.others.is_empty() {
                let key = match s.outcome {
                    Outcome::Concatenated => "joined",
                    Outcome::Substituted => "inserted",
                    _ => "ignored",
                };
                entry.insert(key.into(), priors_json(&s.others, sources));
            }
        } else {
            entry.insert("overrode".into(), Value::Array(Vec::new()));
        }
    }
    for (list, name) in said.into_iter().zip(["warnings", "notes"]) {
        let about: Vec<Value> = list
            .about(Some(leaf.path), leaf.node.span, leaf.key, sources)
            .into_iter()
            .map(|w| w.line(sources).into())
            .collect();
        if !about.is_empty() {
            entry.insert(name.into(), about.into());
        }
    }
    Value::Object(entry)
}

fn position(sources: &SourceMap, span: crate::value::Span) -> Value {
    match sources.locate(span) {
        Some(l) => serde_json::json!({"file": l.file, "line": l.line, "column": l.column}),
        None => Value::Null,
    }
}

fn rule_json(step: &Step, sources: &SourceMap) -> Value {
    match &step.rule {
        None => Value::Null,
        Some(r) => match &r.origin {
            Origin::At(span) => match sources.locate(*span) {
                Some(l) => serde_json::json!({"text": &*r.text, "file": l.file, "line": l.line}),
                None => serde_json::json!({"text": &*r.text, "file": null, "line": null}),
            },
            Origin::Default(d) => {
                serde_json::json!({"text": &*r.text, "file": null, "line": null, "default": &**d})
            }
        },
    }
}

fn priors_json(list: &[Prior], sources: &SourceMap) -> Value {
    let mut out = Vec::new();
    for p in list {
        let mut m = serde_json::Map::new();
        // The trace keeps a replaced container's kind, not its content (a `{}` would say it
        // was empty); a value with no JSON form (binary data, a set) is named, not nulled.
        let value = match &p.value.kind {
            crate::value::Kind::List(_) | crate::value::Kind::Map(_) => None,
            _ => json::to_compact(&p.value)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok()),
        };
        match value {
            Some(v) => m.insert("value".into(), v),
            None => m.insert("kind".into(), p.value.kind_phrase().into()),
        };
        if let Some(l) = sources.locate(p.span) {
            m.insert("file".into(), l.file.into());
            m.insert("line".into(), l.line.into());
            m.insert("column".into(), l.column.into());
        }
        out.push(Value::Object(m));
    }
    out.into()
}
