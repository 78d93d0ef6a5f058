//! JSON explanation: `{"result", "explain": [one entry per leaf], "removed", "history"}`.

use super::yaml::{reason, removed};
use super::{Entry, Warnings};
use crate::error::Result;
use crate::frontend::Rendered;
use crate::merge::{Outcome, Prior, Step};
use crate::render::json;
use crate::strategy::Origin;
use crate::value::{Node, Path, SourceMap};

pub(super) fn explain(
    rendered: &Rendered,
    root: Option<&Node>,
    focus: Option<&Path>,
    entries: &[Entry<'_>],
    history: &[&Step],
    sources: &SourceMap,
) -> Result<String> {
    let mut items = Vec::new();
    let index = Warnings::new(rendered);
    for e in entries.iter().filter(|e| e.leaf) {
        let mut entry = serde_json::Map::new();
        entry.insert("path".into(), e.path.to_string().into());
        entry.insert("source".into(), position(sources, e.node.span));
        if let Some(s) = e.step {
            entry.insert("outcome".into(), s.outcome.as_str().into());
            entry.insert("rule".into(), rule_json(s, sources));
            if s.value == e.node.span {
                entry.insert("overrode".into(), priors_json(&s.overrode, sources)?);
                if !s.others.is_empty() {
                    let key = if s.outcome == Outcome::Concatenated {
                        "joined"
                    } else {
                        "ignored"
                    };
                    entry.insert(key.into(), priors_json(&s.others, sources)?);
                }
            } else {
                entry.insert("overrode".into(), serde_json::Value::Array(Vec::new()));
            }
        }
        let warnings: Vec<serde_json::Value> = index
            .about(Some(&e.path), e.node.span, e.key, sources)
            .into_iter()
            .map(|w| w.render(sources).into())
            .collect();
        if !warnings.is_empty() {
            entry.insert("warnings".into(), warnings.into());
        }
        items.push(serde_json::Value::Object(entry));
    }
    let result = match root {
        Some(r) => serde_json::from_str::<serde_json::Value>(&json::to_compact(r)?)
            .unwrap_or(serde_json::Value::Null),
        None => serde_json::Value::Null,
    };
    let mut top = serde_json::Map::new();
    if let Some(p) = focus {
        top.insert("path".into(), p.to_string().into());
    }
    top.insert("result".into(), result);
    top.insert("explain".into(), items.into());
    if focus.is_none() {
        let gone: Vec<serde_json::Value> = removed(rendered)
            .into_iter()
            .map(|s| {
                let mut m = serde_json::Map::new();
                m.insert("layer".into(), s.layer.into());
                m.insert("path".into(), s.path.to_string().into());
                m.insert("outcome".into(), s.outcome.as_str().into());
                m.insert("at".into(), position(sources, s.value));
                m.insert("rule".into(), rule_json(s, sources));
                m.insert(
                    "overrode".into(),
                    priors_json(&s.overrode, sources).unwrap_or_default(),
                );
                if let Some(why) = reason(rendered, s) {
                    m.insert("reason".into(), why.into());
                }
                serde_json::Value::Object(m)
            })
            .collect();
        if !gone.is_empty() {
            top.insert("removed".into(), gone.into());
        }
    }
    if focus.is_some() {
        let hist: Vec<serde_json::Value> = history
            .iter()
            .map(|s| {
                let mut m = serde_json::Map::new();
                m.insert("layer".into(), s.layer.into());
                m.insert("path".into(), s.path.to_string().into());
                m.insert("outcome".into(), s.outcome.as_str().into());
                m.insert("value".into(), position(sources, s.value));
                m.insert("rule".into(), rule_json(s, sources));
                m.insert(
                    "overrode".into(),
                    priors_json(&s.overrode, sources).unwrap_or_default(),
                );
                serde_json::Value::Object(m)
            })
            .collect();
        top.insert("history".into(), hist.into());
    }
    let mut text =
        serde_json::to_string_pretty(&serde_json::Value::Object(top)).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

fn position(sources: &SourceMap, span: crate::value::Span) -> serde_json::Value {
    match sources.locate(span) {
        Some(l) => serde_json::json!({"file": l.file, "line": l.line, "column": l.column}),
        None => serde_json::Value::Null,
    }
}

fn rule_json(step: &Step, sources: &SourceMap) -> serde_json::Value {
    match &step.rule {
        None => serde_json::Value::Null,
        Some(r) => match &r.origin {
            Origin::At(span) => match sources.locate(*span) {
                Some(l) => serde_json::json!({"text": r.text, "file": l.file, "line": l.line}),
                None => serde_json::json!({"text": r.text, "file": null, "line": null}),
            },
            Origin::Default(d) => {
                serde_json::json!({"text": r.text, "file": null, "line": null, "default": d})
            }
        },
    }
}

fn priors_json(list: &[Prior], sources: &SourceMap) -> Result<serde_json::Value> {
    let mut out = Vec::new();
    for p in list {
        let value: serde_json::Value =
            serde_json::from_str(&json::to_compact(&p.value).unwrap_or_else(|_| "null".into()))
                .unwrap_or(serde_json::Value::Null);
        let mut m = serde_json::Map::new();
        m.insert("value".into(), value);
        if let Some(l) = sources.locate(p.span) {
            m.insert("file".into(), l.file.into());
            m.insert("line".into(), l.line.into());
            m.insert("column".into(), l.column.into());
        }
        out.push(serde_json::Value::Object(m));
    }
    Ok(out.into())
}
