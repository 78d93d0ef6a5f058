//! `--explain`: the rendered document with a provenance comment on every leaf and on every
//! container replaced whole (YAML), or `{"result", "explain": [...]}` with one entry per leaf
//! (JSON); with a JSON Pointer, the subtree there plus the full history of that value.

mod json;
mod warnings;
mod yaml;

use warnings::Warnings;

use super::yaml::Options as YamlOptions;
use super::Format;
use crate::error::Result;
use crate::merge::{Outcome, Prior, RuleRef, Step, Trace};
use crate::rendered::{Rendered, StreamDoc};
use crate::strategy::Origin;
use crate::value::{key_cow, key_text};

use crate::value::{push_int, Kind, Node, Path, Seg, SourceMap, Span};
use std::fmt::Write as _;

/// What the JSON explanation says about one leaf of the result.
struct Leaf<'t, 'p> {
    path: &'p Path,
    node: &'t Node,
    /// The leaf's own last step, else its nearest ancestor's.
    step: Option<&'t Step>,
    /// Where the leaf's key was written, for warnings about the key (duplicates).
    key: Option<Span>,
}

/// What an explanation is about: the whole result, or with a pointer (`--explain=POINTER`,
/// `focus`) the value there (`root`, `None` when the result has none), its path and its
/// history (oldest first).
struct Subject<'r, 'p> {
    root: Option<&'r Node>,
    path: Path,
    focus: Option<&'p Path>,
    history: Vec<&'r Step>,
}

impl<'r, 'p> Subject<'r, 'p> {
    fn of(rendered: &'r Rendered, focus: Option<&'p Path>) -> Subject<'r, 'p> {
        let (root, path) = focused(rendered, focus);
        let history = focus
            .map(|p| history_of(rendered, trace_of(rendered), p))
            .unwrap_or_default();
        Subject {
            root,
            path,
            focus,
            history,
        }
    }
}

/// The explanation as one string (YAML or JSON).
pub fn render(
    rendered: &Rendered,
    sources: &SourceMap,
    format: Format,
    focus: Option<&Path>,
) -> Result<String> {
    match format {
        Format::Yaml => {
            let mut bytes = Vec::new();
            // Writing into memory does not fail.
            let options = YamlOptions {
                psych: rendered.psych,
                ..YamlOptions::default()
            };
            let _ = write_yaml(rendered, sources, focus, options, &mut bytes);
            Ok(String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
        }
        Format::Json => {
            let result = json_result(rendered, focus)?;
            let mut bytes = Vec::new();
            // Writing into memory does not fail.
            let _ = write_json(rendered, sources, focus, &result, &mut bytes);
            Ok(String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
        }
    }
}

/// The `result` member of the JSON explanation: the explained value as JSON data. Fails when
/// the value has no JSON form (then nothing is written).
pub fn json_result(rendered: &Rendered, focus: Option<&Path>) -> Result<serde_json::Value> {
    let (root, _) = focused(rendered, focus);
    json::result(root)
}

/// Writes the JSON explanation into `sink` as it is produced, one leaf entry at a time.
/// `result` comes from [`json_result`].
pub fn write_json(
    rendered: &Rendered,
    sources: &SourceMap,
    focus: Option<&Path>,
    result: &serde_json::Value,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    json::explain(
        rendered,
        Subject::of(rendered, focus),
        result,
        sources,
        sink,
    )
}

/// Writes the YAML explanation into `sink` as it is produced (the document is never held
/// whole with its comments), as `options` say (with styles, the users' comments and
/// spellings are kept beside strata's comments).
pub fn write_yaml(
    rendered: &Rendered,
    sources: &SourceMap,
    focus: Option<&Path>,
    options: YamlOptions<'_>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    yaml::explain(
        rendered,
        Subject::of(rendered, focus),
        sources,
        options,
        sink,
    )
}

/// Whether an input may hold a YAML alias (`*name`, also behind `<<:`): a copied value keeps
/// its span, so one text can stand at two paths of the result and its step must be found by
/// path too. A quick scan of the texts kept for the explanation; a `*name` inside a string
/// only costs the path tracking it turns on.
pub(crate) fn may_copy(sources: &SourceMap) -> bool {
    sources.sources().any(|src| {
        let text = src.text().as_bytes();
        src.text().match_indices('*').any(|(at, _)| {
            let before = at.checked_sub(1).and_then(|i| text.get(i));
            let after = text.get(at + 1);
            matches!(
                before,
                None | Some(b' ' | b'\t' | b'\n' | b'[' | b',' | b'{')
            ) && after.is_some_and(|c| {
                // An alias's name: any character but white space and flow indicators.
                !c.is_ascii_whitespace() && !matches!(c, b',' | b'[' | b']' | b'{' | b'}')
            })
        })
    })
}

static NO_TRACE: std::sync::LazyLock<Trace> = std::sync::LazyLock::new(Trace::default);

pub(crate) fn trace_of(rendered: &Rendered) -> &Trace {
    rendered.trace.as_ref().unwrap_or(&NO_TRACE)
}

/// For a stream, the document a path is in (its first segment).
fn scope_of<'r>(rendered: &'r Rendered, p: &Path) -> Option<&'r StreamDoc> {
    let stream = rendered.stream.as_ref()?;
    let i = match p.0.first()? {
        Seg::Index(i) => *i,
        Seg::Key(k) => k.parse().ok()?,
    };
    stream.docs.get(i)
}

/// The last step about a value: in a stream, the document's own steps first, then its
/// parents' (nearest first); elsewhere the one at the value's `path` when the trace recorded
/// the same text at several paths (aliases), which callers say when they know it.
pub(crate) fn step_of<'t>(
    trace: &'t Trace,
    span: Span,
    scope: Option<&StreamDoc>,
    path: Option<&Path>,
) -> Option<&'t Step> {
    if span.is_none() {
        return None;
    }
    match scope {
        None => match path {
            Some(p) => trace.last_at(span, p),
            None => trace.last_for(span),
        },
        Some(s) => trace
            .last_for_where(span, |st| st.layer == s.layer)
            .or_else(|| {
                s.chain
                    .iter()
                    .find_map(|&l| trace.last_for_where(span, |st| st.layer == l))
            }),
    }
}

/// The value explained (the document, or the one at `focus`) and its path.
fn focused<'r>(rendered: &'r Rendered, focus: Option<&Path>) -> (Option<&'r Node>, Path) {
    match focus {
        // `/` is the key "" to RFC 6901, and the whole document to anyone typing it.
        Some(p) if is_slash(p) && find(&rendered.doc, p).is_none() => {
            (Some(&rendered.doc), Path::root())
        }
        Some(p) => (find(&rendered.doc, p), p.clone()),
        None => (Some(&rendered.doc), Path::root()),
    }
}

fn is_slash(p: &Path) -> bool {
    matches!(&p.0[..], [Seg::Key(k)] if k.is_empty())
}

/// Whether `--explain=POINTER` names nothing: no value at the pointer in the result and no
/// step of the trace about it (a deleted value has a history and is explained). The CLI
/// refuses such a pointer, as `jq -e` fails on a missing path.
pub fn focus_names_nothing(rendered: &Rendered, focus: &Path) -> bool {
    let (root, path) = focused(rendered, Some(focus));
    root.is_none() && history_of(rendered, trace_of(rendered), &path).is_empty()
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

/// What a node inherits from where it sits: its ancestors' step, where its key was written,
/// and (in a stream) the document it is in.
#[derive(Clone, Copy, Default)]
struct Context<'t> {
    step: Option<&'t Step>,
    key: Option<Span>,
    scope: Option<&'t StreamDoc>,
    /// The node is the list of a stream's documents.
    stream_root: Option<&'t [StreamDoc]>,
    /// Find steps by path too (`may_copy`).
    by_path: bool,
}

/// Walks the result in document order and hands `each` every leaf (a scalar or an empty
/// container) with its path; each node's step is its own last step, else its nearest
/// ancestor's. One path is pushed and popped along the way, never copied.
fn leaves<'t>(
    node: &'t Node,
    path: &mut Path,
    cx: Context<'t>,
    trace: &'t Trace,
    each: &mut dyn FnMut(&Leaf<'t, '_>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let own = step_of(trace, node.span, cx.scope, cx.by_path.then_some(&*path));
    let step = own.or(cx.step);
    match &node.kind {
        Kind::Map(m) if !m.is_empty() => {
            for (k, v) in m.iter() {
                path.push_key(&key_cow(&k.0));
                let inner = Context {
                    step,
                    key: Some(k.0.span),
                    scope: cx.scope,
                    stream_root: None,
                    by_path: cx.by_path,
                };
                let done = leaves(v, path, inner, trace, each);
                path.pop();
                done?;
            }
            Ok(())
        }
        Kind::List(l) if !l.is_empty() => {
            for (i, v) in l.iter().enumerate() {
                path.push_index(i);
                let scope = cx.stream_root.and_then(|d| d.get(i)).or(cx.scope);
                let inner = Context {
                    step,
                    key: None,
                    scope,
                    stream_root: None,
                    by_path: cx.by_path,
                };
                let done = leaves(v, path, inner, trace, each);
                path.pop();
                done?;
            }
            Ok(())
        }
        _ => each(&Leaf {
            path,
            node,
            step,
            key: cx.key,
        }),
    }
}

/// `history`, or for a stream the steps of the document's own layer and its parents' at
/// the path within the document.
fn history_of<'t>(rendered: &Rendered, trace: &'t Trace, p: &Path) -> Vec<&'t Step> {
    let Some(scope) = scope_of(rendered, p) else {
        if rendered.stream.is_some() {
            return Vec::new();
        }
        return history(trace, p);
    };
    let rest = Path(p.0.iter().skip(1).cloned().collect());
    let mut layers = vec![scope.layer];
    layers.extend(scope.chain.iter().copied());
    history(trace, &rest)
        .into_iter()
        .filter(|s| layers.contains(&s.layer) && s.outcome != Outcome::DroppedPart)
        .collect()
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
    let mut out = String::new();
    located_into(&mut out, sources, span);
    out
}

fn located_into(out: &mut String, sources: &SourceMap, span: crate::value::Span) {
    match sources.locate(span) {
        Some(l) => l.push_to(out),
        None => out.push_str("(built in)"),
    }
}

fn rule_text(step: &Step, sources: &SourceMap) -> String {
    let mut out = String::new();
    rule_text_into(&mut out, step, sources);
    out
}

/// ` by <rule> (<where the rule was written>)`, or nothing.
fn rule_text_into(out: &mut String, step: &Step, sources: &SourceMap) {
    let Some(r) = &step.rule else { return };
    out.push_str(" by ");
    out.push_str(&r.text);
    out.push_str(" (");
    match &r.origin {
        Origin::At(span) => {
            if let Some(l) = sources.locate(*span) {
                l.push_to(out);
            }
        }
        Origin::Default(text) => out.push_str(text),
    }
    out.push(')');
}

/// A value in a few words: a string quoted and cut at 40 characters, a container by its kind.
pub(crate) fn short_value(n: &Node) -> String {
    let mut out = String::new();
    short_value_into(&mut out, n);
    out
}

fn short_value_into(out: &mut String, n: &Node) {
    match &n.kind {
        Kind::Str(s) => {
            out.push('\'');
            for c in s.chars().take(40) {
                match c {
                    '\n' => out.push_str("\\n"),
                    c => out.push(c),
                }
            }
            if s.chars().nth(40).is_some() {
                out.push('…');
            }
            out.push('\'');
        }
        Kind::List(_) => out.push_str("a list"),
        Kind::Map(_) => out.push_str("a mapping"),
        Kind::Set(_) => out.push_str("a set"),
        Kind::Tuple(_) => out.push_str("a pair"),
        Kind::Bytes(b) => {
            let _ = write!(out, "!!binary ({} bytes)", b.len());
        }
        Kind::Null => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Kind::Int(i) => push_int(out, *i),
        Kind::Float(f) => out.push_str(&crate::value::float_text(*f)),
        _ => out.push_str(crate::render::yaml::to_string(n, None).trim_end()),
    }
}

fn priors(label: &str, list: &[Prior], sources: &SourceMap, out: &mut String) {
    for p in list {
        out.push_str("; ");
        out.push_str(label);
        out.push(' ');
        short_value_into(out, &p.value);
        if let Some(l) = sources.locate(p.span) {
            out.push_str(" at ");
            l.push_to(out);
        }
    }
}

/// Where an anchored or aliased value was written: `(anchor &name)` when the value's text
/// carries an anchor, `(via *name at file:line:col)` inside a copy made by an alias.
/// `anchors`: some text holds a `&` (else no value can carry an anchor).
fn alias_note_into(
    out: &mut String,
    node: &Node,
    (via, anchors): (Option<Span>, bool),
    sources: &SourceMap,
) {
    if let Some(before) = sources.before(node.span).filter(|_| anchors) {
        let token = before
            .trim_end()
            .rsplit([' ', '\t', '\n', '[', '{', ','])
            .next()
            .unwrap_or("");
        if let Some(name) = token.strip_prefix('&') {
            let _ = write!(out, " (anchor &{name})");
        }
    }
    if let Some(alias) = via.filter(|a| *a != node.span) {
        // The alias token alone (`*name`): an alias used as a key has the rest of its
        // entry in its span.
        let name = sources
            .slice(alias)
            .and_then(|t| {
                t.split(|c: char| c.is_whitespace() || ",[]{}".contains(c))
                    .next()
            })
            .filter(|t| t.starts_with('*'))
            .unwrap_or("*");
        let _ = write!(out, " (via {name} at ");
        match sources.locate(alias) {
            Some(l) if sources.id_of(alias) == sources.id_of(node.span) => {
                let _ = write!(out, "{}:{}", l.line, l.column);
            }
            _ => located_into(out, sources, alias),
        }
        out.push(')');
    }
}

/// The built-in rules (not written in any input) the trace used, each once, in the order
/// first used: `(rule, what default it is)`. A value's comment names such a rule alone; the
/// explanation says once, at its top, what each one is.
fn default_rules(trace: &Trace) -> Vec<(&str, &str)> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for step in &trace.steps {
        if let Some(RuleRef {
            text,
            origin: Origin::Default(what),
        }) = &step.rule
        {
            let pair = (&**text, &**what);
            if !seen.contains(&pair) {
                seen.push(pair);
            }
        }
    }
    seen
}

/// ` by <rule> (<where the rule was written>)`, or ` by <rule>` for a built-in rule (said once
/// at the top of the explanation), or nothing.
fn rule_brief_into(out: &mut String, step: &Step, sources: &SourceMap) {
    match &step.rule {
        Some(r) if matches!(r.origin, Origin::Default(_)) => {
            out.push_str(" by ");
            out.push_str(&r.text);
        }
        _ => rule_text_into(out, step, sources),
    }
}

/// The outcome a value's explanation shows for `step`, its own or inherited from a container:
/// `merged` is about containers (both sides merged member by member), so a value that only
/// inherits a container's `merged` — it was in that container as its layer brought it, e.g. an
/// item of the more specific list in a Datum union — shows `added`.
pub(crate) fn shown_outcome(step: &Step, node: &Node) -> Outcome {
    if step.outcome == Outcome::Merged && step.value != node.span {
        Outcome::Added
    } else {
        step.outcome
    }
}

/// `file:line:col outcome by rule (rule's file:line); was ... at file:line`
fn comment_into(
    out: &mut String,
    node: &Node,
    step: Option<&Step>,
    (via, anchors): (Option<Span>, bool),
    sources: &SourceMap,
) {
    located_into(out, sources, node.span);
    alias_note_into(out, node, (via, anchors), sources);
    let Some(step) = step else {
        return;
    };
    out.push(' ');
    out.push_str(shown_outcome(step, node).as_str());
    rule_brief_into(out, step, sources);
    // Details of a step only belong to the value it decided about.
    if step.value == node.span {
        priors("was", &step.overrode, sources, out);
        let label = match step.outcome {
            Outcome::Concatenated => "from",
            Outcome::Substituted => "inserting",
            _ => "ignored",
        };
        priors(label, &step.others, sources, out);
    }
}
