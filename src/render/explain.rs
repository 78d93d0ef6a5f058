//! `--explain`: the rendered document with a provenance comment on every leaf and on every
//! container replaced whole (YAML), or `{"result", "explain": [...]}` with one entry per leaf
//! (JSON); with a JSON Pointer, the subtree there plus the full history of that value.

use super::{json, yaml, Format};
use crate::error::Result;
use crate::frontend::Rendered;
use crate::merge::{key_text, Outcome, Prior, Step, Trace};
use crate::strategy::Origin;
use crate::value::{Kind, Node, Path, Seg, SourceMap, Span};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Comments are aligned into one column that starts at most this far in.
const COLUMN_LIMIT: usize = 80;

/// What the explanation says about one value.
struct Entry<'t> {
    path: Path,
    node: &'t Node,
    step: Option<&'t Step>,
    leaf: bool,
    /// The alias (`*name`) whose copy this value is part of, if any.
    via: Option<Span>,
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
        collect(
            root,
            root_path.clone(),
            None,
            None,
            trace,
            sources,
            &mut entries,
        );
    }
    let history: Vec<&Step> = focus.map(|p| history(trace, p)).unwrap_or_default();
    match format {
        Format::Yaml => Ok(yaml_explain(
            rendered,
            root,
            &root_path,
            focus.is_some(),
            &entries,
            &history,
            sources,
        )),
        Format::Json => json_explain(rendered, root, focus, &entries, &history, sources),
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

/// Walks the result; each node's step is its own last step, else its nearest ancestor's.
fn collect<'t>(
    node: &'t Node,
    path: Path,
    inherited: Option<&'t Step>,
    via: Option<Span>,
    trace: &'t Trace,
    sources: &SourceMap,
    out: &mut Vec<Entry<'t>>,
) {
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
    match &node.kind {
        Kind::Map(m) if !m.is_empty() => {
            out.push(Entry {
                path: path.clone(),
                node,
                step: own,
                leaf: false,
                via,
            });
            for (k, v) in m.iter() {
                let mut p = path.clone();
                p.push_key(&key_text(&k.0));
                collect(v, p, step, via, trace, sources, out);
            }
        }
        Kind::List(l) if !l.is_empty() => {
            out.push(Entry {
                path: path.clone(),
                node,
                step: own,
                leaf: false,
                via,
            });
            for (i, v) in l.iter().enumerate() {
                let mut p = path.clone();
                p.push_index(i);
                collect(v, p, step, via, trace, sources, out);
            }
        }
        _ => out.push(Entry {
            path,
            node,
            step,
            leaf: true,
            via,
        }),
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
        _ => yaml::to_string(n, None).trim_end().to_string(),
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

/// `file:line:col outcome by rule (rule's file:line); was ... at file:line`
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

fn yaml_explain(
    rendered: &Rendered,
    root: Option<&Node>,
    root_path: &Path,
    focused: bool,
    entries: &[Entry<'_>],
    history: &[&Step],
    sources: &SourceMap,
) -> String {
    let mut comments: HashMap<String, String> = HashMap::new();
    for e in entries {
        let wanted = e.leaf
            || e.step.is_some_and(|s| {
                matches!(s.outcome, Outcome::Replaced | Outcome::Kept) && s.value == e.node.span
            });
        if wanted {
            comments.insert(e.path.to_string(), comment(e.node, e.step, e.via, sources));
        }
    }
    let mut head = String::new();
    if focused {
        let _ = writeln!(head, "# history of {root_path} (oldest first):");
        if history.is_empty() {
            head.push_str("#   no merge decision touched this value\n");
        }
        for (i, s) in history.iter().enumerate() {
            let value = if s.value.is_none() {
                String::new()
            } else {
                format!(" {}", located(sources, s.value))
            };
            let mut line = format!(
                "#   {}. {}{value} {}{}",
                i + 1,
                s.path,
                s.outcome,
                rule_text(s, sources)
            );
            priors("was", &s.overrode, sources, &mut line);
            let _ = writeln!(head, "{line}");
        }
        if root.is_none() {
            let _ = writeln!(head, "# {root_path} is not in the result");
        }
    }
    let Some(root) = root else { return head };
    let prefix = root_path.to_string();
    let mut annotate = |_: &Node, path: &Path| -> Option<String> {
        let full = if focused {
            format!("{prefix}{path}")
        } else {
            path.to_string()
        };
        comments.get(&full).cloned()
    };
    let header = if focused { None } else { rendered.header };
    let (text, marks) = yaml::to_string_annotated(root, header, &mut annotate);
    head.push_str(&align(&text, &marks));
    if !focused {
        removed_yaml(rendered, sources, &mut head);
    }
    head
}

/// Steps whose value is not in the result: deletions and dropped layers.
fn removed(rendered: &Rendered) -> Vec<&Step> {
    rendered
        .trace
        .iter()
        .flat_map(|t| t.steps.iter())
        .filter(|s| matches!(s.outcome, Outcome::Deleted | Outcome::DroppedPart))
        .collect()
}

/// The warning that explains a step, if one was given at the step's position.
fn reason<'r>(rendered: &'r Rendered, step: &Step) -> Option<&'r str> {
    rendered
        .warnings
        .iter()
        .find(|w| w.span == Some(step.value))
        .map(|w| w.message.as_str())
}

fn removed_yaml(rendered: &Rendered, sources: &SourceMap, out: &mut String) {
    let steps = removed(rendered);
    if steps.is_empty() {
        return;
    }
    out.push_str("# not in the result:\n");
    for s in steps {
        let mut line = match s.outcome {
            Outcome::DroppedPart => format!(
                "#   layer {} dropped at {}",
                s.layer + 1,
                located(sources, s.value)
            ),
            _ => format!(
                "#   {} {} at {}{}",
                s.path,
                s.outcome,
                located(sources, s.value),
                rule_text(s, sources)
            ),
        };
        priors("was", &s.overrode, sources, &mut line);
        if let Some(why) = reason(rendered, s) {
            let _ = write!(line, ": {why}");
        }
        let _ = writeln!(out, "{line}");
    }
}

/// Inserts `  # comment` at each marked line end, aligned into a column where it fits.
fn align(text: &str, marks: &[(usize, String)]) -> String {
    let line_len = |end: usize| {
        let start = text[..end].rfind('\n').map(|i| i + 1).unwrap_or(0);
        text[start..end].chars().count()
    };
    // One column for every comment, placed after the longest line that leaves the comment
    // room to start within the width; longer lines get their comment two spaces after them.
    let column = marks
        .iter()
        .map(|(end, _)| line_len(*end))
        .filter(|len| len + 2 <= COLUMN_LIMIT)
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = String::with_capacity(text.len() + marks.len() * 60);
    let mut last = 0;
    for (end, c) in marks {
        out.push_str(&text[last..*end]);
        let len = line_len(*end);
        let pad = if len + 2 <= column { column - len } else { 2 };
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str("# ");
        out.push_str(c);
        last = *end;
    }
    out.push_str(&text[last..]);
    out
}

fn json_explain(
    rendered: &Rendered,
    root: Option<&Node>,
    focus: Option<&Path>,
    entries: &[Entry<'_>],
    history: &[&Step],
    sources: &SourceMap,
) -> Result<String> {
    let mut items = Vec::new();
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
        let warnings: Vec<serde_json::Value> = rendered
            .warnings
            .iter()
            .filter(|w| w.path.as_ref().is_some_and(|p| e.path.starts_with(p)))
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
