//! `--explain`: the rendered document with a provenance comment on every leaf and on every
//! container replaced whole (YAML), or `{"result", "explain": [...]}` with one entry per leaf
//! (JSON); with a JSON Pointer, the subtree there plus the full history of that value.

mod json;
mod yaml;

use super::Format;
use crate::error::Result;
use crate::frontend::Rendered;
use crate::merge::{key_text, Outcome, Prior, Step, Trace};
use crate::strategy::Origin;
use crate::value::{Kind, Node, Path, Seg, SourceMap, Span};
use std::fmt::Write as _;

/// What the explanation says about one value.
struct Entry<'t> {
    path: Path,
    node: &'t Node,
    step: Option<&'t Step>,
    leaf: bool,
    /// The alias (`*name`) whose copy this value is part of, if any.
    via: Option<Span>,
    /// Where the value's key was written, for warnings about the key (duplicates).
    key: Option<Span>,
}

/// Warnings about a value: attached to its path (or a parent's), its key, its own text, or
/// to the key written right before it (`key: value`, e.g. a duplicate key whose value won).
fn affecting<'r>(
    rendered: &'r Rendered,
    e: &Entry<'_>,
    sources: &SourceMap,
) -> Vec<&'r crate::error::Warning> {
    let value = e.node.span;
    let keyed_here = |w: Span| {
        w.source == value.source
            && w.end <= value.start
            && sources
                .text(value.source)
                .get(w.end as usize..value.start as usize)
                .is_some_and(|between| between.trim() == ":")
    };
    rendered
        .warnings
        .iter()
        .filter(|w| {
            w.path.as_ref().is_some_and(|p| e.path.starts_with(p))
                || w.span
                    .is_some_and(|s| Some(s) == e.key || s == value || keyed_here(s))
        })
        .collect()
}

pub fn render(
    rendered: &Rendered,
    sources: &SourceMap,
    format: Format,
    focus: Option<&Path>,
) -> Result<String> {
    let empty = Trace::default();
    let trace = rendered.trace.as_ref().unwrap_or(&empty);
    let (root, root_path) = match focus {
        Some(p) => (find(&rendered.doc, p), p.clone()),
        None => (Some(&rendered.doc), Path::root()),
    };
    let mut entries = Vec::new();
    if let Some(root) = root {
        let cx = Context::default();
        collect(root, root_path.clone(), cx, trace, sources, &mut entries);
    }
    let history: Vec<&Step> = focus.map(|p| history(trace, p)).unwrap_or_default();
    match format {
        Format::Yaml => Ok(yaml::explain(
            rendered,
            root,
            &root_path,
            focus.is_some(),
            &entries,
            &history,
            sources,
        )),
        Format::Json => json::explain(rendered, root, focus, &entries, &history, sources),
    }
}

/// The value at a pointer in the result.
fn find<'a>(doc: &'a Node, path: &Path) -> Option<&'a Node> {
    let mut cur = doc;
    for seg in &path.0 {
        let want = match seg {
            Seg::Key(k) => k.to_string(),
            Seg::Index(i) => i.to_string(),
        };
        cur = match &cur.kind {
            Kind::Map(m) => m
                .iter()
                .find(|(k, _)| key_text(&k.0) == want)
                .map(|(_, v)| v)?,
            Kind::List(l) => l.get(want.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// What a node inherits from where it sits: its ancestors' step, the alias it was copied
/// through, and where its key was written.
#[derive(Clone, Copy, Default)]
struct Context<'t> {
    step: Option<&'t Step>,
    via: Option<Span>,
    key: Option<Span>,
}

/// Walks the result; each node's step is its own last step, else its nearest ancestor's.
fn collect<'t>(
    node: &'t Node,
    path: Path,
    cx: Context<'t>,
    trace: &'t Trace,
    sources: &SourceMap,
    out: &mut Vec<Entry<'t>>,
) {
    let Context {
        step: inherited,
        via,
        key,
    } = cx;
    let via = if sources.slice(node.span).is_some_and(|t| t.starts_with('*')) {
        Some(node.span)
    } else {
        via
    };
    let own = if node.span.is_none() {
        None
    } else {
        trace.last_for(node.span)
    };
    let step = own.or(inherited);
    let container = match &node.kind {
        Kind::Map(m) => !m.is_empty(),
        Kind::List(l) => !l.is_empty(),
        _ => false,
    };
    // A container's entry carries only its own step; a leaf inherits its ancestors'.
    out.push(Entry {
        path: path.clone(),
        node,
        step: if container { own } else { step },
        leaf: !container,
        via,
        key,
    });
    match &node.kind {
        Kind::Map(m) => {
            for (k, v) in m.iter() {
                let mut p = path.clone();
                p.push_key(&key_text(&k.0));
                collect(
                    v,
                    p,
                    Context {
                        step,
                        via,
                        key: Some(k.0.span),
                    },
                    trace,
                    sources,
                    out,
                );
            }
        }
        Kind::List(l) => {
            for (i, v) in l.iter().enumerate() {
                let mut p = path.clone();
                p.push_index(i);
                collect(
                    v,
                    p,
                    Context {
                        step,
                        via,
                        key: None,
                    },
                    trace,
                    sources,
                    out,
                );
            }
        }
        _ => {}
    }
}

/// Steps about the value at `p`: at it or below it, and whole-value decisions above it, plus
/// every dropped layer.
fn history<'t>(trace: &'t Trace, p: &Path) -> Vec<&'t Step> {
    trace
        .steps
        .iter()
        .filter(|s| {
            s.path.starts_with(p)
                || s.outcome == Outcome::DroppedPart
                || (p.starts_with(&s.path)
                    && matches!(
                        s.outcome,
                        Outcome::Added | Outcome::Replaced | Outcome::Deleted | Outcome::Kept
                    ))
        })
        .collect()
}

fn located(sources: &SourceMap, span: crate::value::Span) -> String {
    sources
        .locate(span)
        .map(|l| l.to_string())
        .unwrap_or_else(|| "(built in)".into())
}

fn rule_text(step: &Step, sources: &SourceMap) -> String {
    match &step.rule {
        None => String::new(),
        Some(r) => {
            let at = match &r.origin {
                Origin::At(span) => sources
                    .locate(*span)
                    .map(|l| l.to_string())
                    .unwrap_or_default(),
                Origin::Default(text) => text.clone(),
            };
            format!(" by {} ({at})", r.text)
        }
    }
}

fn short_value(n: &Node) -> String {
    match &n.kind {
        Kind::Str(s) => {
            let one: String = s.chars().take(40).collect();
            let one = one.replace('\n', "\\n");
            if s.chars().count() > 40 {
                format!("'{one}…'")
            } else {
                format!("'{one}'")
            }
        }
        Kind::List(_) => "a list".into(),
        Kind::Map(_) => "a mapping".into(),
        _ => crate::render::yaml::to_string(n, None)
            .trim_end()
            .to_string(),
    }
}

fn priors(label: &str, list: &[Prior], sources: &SourceMap, out: &mut String) {
    for p in list {
        let at = sources
            .locate(p.span)
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        let _ = write!(out, "; {label} {}{at}", short_value(&p.value));
    }
}

/// Where an anchored or aliased value was written: `(anchor &name)` when the value's text
/// carries an anchor, `(via *name at file:line:col)` inside a copy made by an alias.
fn alias_note(node: &Node, via: Option<Span>, sources: &SourceMap) -> String {
    let mut note = String::new();
    if let Some(src) = sources.get(node.span.source) {
        let before = src.text.get(..node.span.start as usize).unwrap_or("");
        let token = before
            .trim_end()
            .rsplit([' ', '\t', '\n', '[', '{', ','])
            .next()
            .unwrap_or("");
        if let Some(name) = token.strip_prefix('&') {
            let _ = write!(note, " (anchor &{name})");
        }
    }
    if let Some(alias) = via.filter(|a| *a != node.span) {
        let name = sources.slice(alias).unwrap_or("*");
        let at = match sources.locate(alias) {
            Some(l) if alias.source == node.span.source => format!("{}:{}", l.line, l.column),
            _ => located(sources, alias),
        };
        let _ = write!(note, " (via {name} at {at})");
    }
    note
}

/// `file:line:col outcome by rule (rule's file:line); was ... at file:line`
fn comment(node: &Node, step: Option<&Step>, via: Option<Span>, sources: &SourceMap) -> String {
    let mut out = located(sources, node.span);
    out.push_str(&alias_note(node, via, sources));
    let Some(step) = step else {
        return out;
    };
    let _ = write!(out, " {}{}", step.outcome, rule_text(step, sources));
    // Details of a step only belong to the value it decided about.
    if step.value == node.span {
        priors("was", &step.overrode, sources, &mut out);
        let label = match step.outcome {
            Outcome::Concatenated => "from",
            _ => "ignored",
        };
        priors(label, &step.others, sources, &mut out);
    }
    out
}
