//! YAML explanation: the rendered document with aligned provenance comments, the history
//! header of `--explain=POINTER`, and the list of values that are not in the result.

use super::{comment_into, default_rules, located, priors, rule_text, Subject, Warnings};
use crate::merge::{Outcome, Step, Trace};
use crate::render::yaml::{self, Annotator, Place};
use crate::render::yaml_scalar::push_comment_text;
use crate::rendered::{Rendered, StreamDoc};
use crate::value::key_cow;
use crate::value::{Kind, Node, Path, SourceMap, Span};
use std::fmt::Write as _;

/// Comments are aligned into one column that starts at most this far in.
const COLUMN_LIMIT: usize = 80;

pub(super) fn explain(
    rendered: &Rendered,
    subject: Subject<'_, '_>,
    sources: &SourceMap,
    options: yaml::Options<'_>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let Subject {
        root,
        path: ref root_path,
        focus,
        ref history,
    } = subject;
    let focused = focus.is_some();
    let mut head = String::new();
    if focused {
        comment_line(
            &mut head,
            &format!("# history of {} (oldest first):", shown(root_path)),
        );
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
                shown(&s.path),
                s.outcome,
                rule_text(s, sources)
            );
            priors("was", &s.overrode, sources, &mut line);
            comment_line(&mut head, &line);
        }
        if root.is_none() {
            comment_line(
                &mut head,
                &format!("# {} is not in the result", shown(root_path)),
            );
        }
    }
    // The header line (`#cloud-config`) stays first; then each built-in rule once.
    let mut header = if focused { None } else { rendered.header };
    if root.is_some() && !focused {
        let defaults = default_rules(super::trace_of(rendered));
        if !defaults.is_empty() {
            if let Some(h) = header.take() {
                let _ = writeln!(head, "{h}");
            }
            for (rule, what) in defaults {
                comment_line(&mut head, &format!("# {rule}: {what}"));
            }
        }
    }
    sink.write_all(head.as_bytes())?;
    let Some(root) = root else { return Ok(()) };
    let warnings = Warnings::new(&rendered.warnings);
    let notes = Warnings::new(&rendered.notes);
    let by_path = super::may_copy(sources);
    let stream = rendered.stream.as_ref().filter(|_| !focused);
    let mut comments = Comments {
        trace: super::trace_of(rendered),
        sources,
        // Paths are tracked only when something needs them: warnings attached to paths, and
        // the step about a value an alias or `<<` copied (its text, and so its span, stands
        // at two paths).
        path: (warnings.any_path() || notes.any_path() || by_path).then(|| root_path.clone()),
        by_path,
        anchors: sources.sources().any(|s| s.text().contains('&')),
        warnings: &warnings,
        notes: &notes,
        frames: Vec::new(),
        docs: stream.map(|s| s.docs.as_slice()),
        scope: if focused {
            super::scope_of(rendered, root_path)
        } else {
            None
        },
    };
    yaml::write_annotated(
        root,
        header,
        stream.is_some(),
        &mut comments,
        COLUMN_LIMIT,
        options,
        sink,
    )?;
    if !focused {
        let mut tail = String::new();
        removed_yaml(rendered, sources, &mut tail);
        sink.write_all(tail.as_bytes())?;
    }
    Ok(())
}

/// What a node inherits from where it sits, and its own step.
#[derive(Clone, Copy)]
struct Frame<'t> {
    /// The node's own last step, else its nearest ancestor's.
    step: Option<&'t Step>,
    own: Option<&'t Step>,
    /// The alias (`*name`) whose copy this value is part of, if any.
    via: Option<Span>,
    /// The node's own span.
    span: Span,
    /// Where the value's key was written.
    key: Option<Span>,
    leaf: bool,
    /// Whether entering pushed a segment on `path`.
    pushed: bool,
}

/// The annotator: follows the writer through the tree with a stack of frames and writes the
/// comment of each leaf, and of each container replaced or kept whole.
#[derive(Clone)]
struct Comments<'t> {
    trace: &'t Trace,
    sources: &'t SourceMap,
    warnings: &'t Warnings<'t>,
    notes: &'t Warnings<'t>,
    /// The current path, tracked only when some warning is attached to a path.
    path: Option<Path>,
    frames: Vec<Frame<'t>>,
    /// A stream's documents (the root's items).
    docs: Option<&'t [StreamDoc]>,
    /// The document being written, in a stream.
    scope: Option<&'t StreamDoc>,
    /// Find steps by path too (`may_copy`).
    by_path: bool,
    /// Some text holds a `&`, so a value may carry an anchor.
    anchors: bool,
}

impl Annotator for Comments<'_> {
    fn enter(&mut self, node: &Node, at: Place<'_>) {
        let (inherited, via) = self.frames.last().map_or((None, None), |f| (f.step, f.via));
        // Without a possible alias in the texts (`may_copy`), no value is one.
        let via = if self.by_path
            && self
                .sources
                .slice(node.span)
                .is_some_and(|t| t.starts_with('*'))
        {
            Some(node.span)
        } else if self.by_path {
            let parent = self.frames.last().map(|f| f.span);
            parent
                .and_then(|p| merged_via(p, node.span, self.sources))
                .or(via)
        } else {
            via
        };
        if let (Some(docs), Place::Index(i), 1) = (self.docs, at, self.frames.len()) {
            self.scope = docs.get(i);
        }
        let mut pushed = false;
        if let Some(p) = self.path.as_mut() {
            match at {
                Place::Key(k) => p.push_key(&key_cow(k)),
                Place::Index(i) => p.push_index(i),
                Place::Root => {}
            }
            pushed = !matches!(at, Place::Root);
        }
        let path = self.path.as_ref().filter(|_| self.by_path);
        let own = super::step_of(self.trace, node.span, self.scope, path);
        let leaf = match &node.kind {
            Kind::Map(m) => m.is_empty(),
            Kind::List(l) => l.is_empty(),
            _ => true,
        };
        self.frames.push(Frame {
            step: own.or(inherited),
            own,
            via,
            span: node.span,
            key: match at {
                Place::Key(k) => Some(k.span),
                _ => None,
            },
            leaf,
            pushed,
        });
    }

    fn leave(&mut self) {
        if let Some(f) = self.frames.pop() {
            if f.pushed {
                if let Some(p) = self.path.as_mut() {
                    p.pop();
                }
            }
        }
    }

    fn heading(&mut self, index: usize, out: &mut String) {
        let Some(d) = self.docs.and_then(|d| d.get(index)) else {
            return;
        };
        let line = format!("# {} at {}", d.title, located(self.sources, d.at));
        comment_line(out, &line);
        for (title, at) in &d.parents {
            let line = format!("#   parent {} at {}", title, located(self.sources, *at));
            comment_line(out, &line);
        }
    }

    fn fork(&self) -> Option<Box<dyn Annotator + Send + '_>> {
        Some(Box::new(self.clone()))
    }

    fn comment(&mut self, node: &Node, text: Option<&mut String>) -> bool {
        let Some(f) = self.frames.last() else {
            return false;
        };
        // A container's comment carries only its own step; a leaf inherits its ancestors'.
        let step = if f.leaf { f.step } else { f.own };
        let wanted = f.leaf
            || step.is_some_and(|s| {
                matches!(s.outcome, Outcome::Replaced | Outcome::Kept) && s.value == node.span
            });
        if !wanted {
            return false;
        }
        if let Some(out) = text {
            comment_into(out, node, step, (f.via, self.anchors), self.sources);
            let about = self
                .warnings
                .about(self.path.as_ref(), node.span, f.key, self.sources);
            let notes = self
                .notes
                .about(self.path.as_ref(), node.span, f.key, self.sources);
            for w in about.into_iter().chain(notes) {
                let _ = write!(out, "; {}: {} [{}]", w.label(), w.message, w.kind.name());
            }
        }
        true
    }
}

/// For a member of a mapping whose text stands outside the mapping's own text (in the same
/// file): the `<<: *name` alias in the mapping that brought it — the one whose anchor
/// `&name` is the last one written before the member.
fn merged_via(parent: Span, child: Span, sources: &SourceMap) -> Option<Span> {
    let (src, start, end) = sources.source_of(parent)?;
    if sources.id_of(child) != sources.id_of(parent)
        || (parent.start..parent.end.max(parent.start + 1)).contains(&child.start)
    {
        return None;
    }
    let base = parent.start as usize - start;
    let text = src.text();
    let own = text.get(start..end)?;
    let child_at = child.start as usize - base;
    let mut best: Option<(usize, Span)> = None;
    for (at, _) in own.match_indices("<<") {
        let rest = own[at + 2..].trim_start_matches([' ', '\t']);
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        // `<<: *a` or `<<: [*a, *b]`: every alias up to the end of the line.
        let line = rest.split('\n').next().unwrap_or("");
        // Where `line` starts in the source's text.
        let line_at = start + own.len() - rest.len();
        for (i, _) in line.match_indices('*') {
            let name: &str = line[i + 1..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .next()
                .unwrap_or("");
            if name.is_empty() {
                continue;
            }
            let alias_at = line_at + i;
            let anchor = text.get(..alias_at)?.rfind(&format!("&{name}"));
            if let Some(a) = anchor.filter(|&a| a <= child_at) {
                if best.is_none_or(|(b, _)| a > b) {
                    let span = Span {
                        start: u32::try_from(base + alias_at).ok()?,
                        end: u32::try_from(base + alias_at + 1 + name.len()).ok()?,
                    };
                    best = Some((a, span));
                }
            }
        }
    }
    best.map(|(_, s)| s)
}

/// A path as the comments print it: the root (the empty JSON Pointer) as `/`, never blank.
fn shown(path: &Path) -> String {
    if path.0.is_empty() {
        "/".to_string()
    } else {
        path.to_string()
    }
}

/// Steps whose value is not in the result: deletions and dropped layers.
pub(super) fn removed(rendered: &Rendered) -> Vec<&Step> {
    rendered
        .trace
        .iter()
        .flat_map(|t| t.steps.iter())
        .filter(|s| matches!(s.outcome, Outcome::Deleted | Outcome::DroppedPart))
        .collect()
}

/// In a stream, the name of the document whose rendering recorded steps of `layer`.
pub(super) fn document_name(rendered: &Rendered, layer: u32) -> Option<&str> {
    let stream = rendered.stream.as_ref()?;
    stream
        .names
        .iter()
        .find(|(l, _)| *l == layer)
        .map(|(_, n)| n.as_str())
}

/// The warning that explains a step, if one was given at the step's position.
pub(super) fn reason<'r>(rendered: &'r Rendered, step: &Step) -> Option<&'r str> {
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
                "#   {}{} {} at {}{}",
                document_name(rendered, s.layer).map_or(String::new(), |n| format!("{n} ")),
                shown(&s.path),
                s.outcome,
                located(sources, s.value),
                rule_text(s, sources)
            ),
        };
        priors("was", &s.overrode, sources, &mut line);
        if let Some(why) = reason(rendered, s) {
            let _ = write!(line, ": {why}");
        }
        comment_line(out, &line);
    }
}

/// A whole comment line (`line` starts with `#`): on one line, whatever the values, paths and
/// file names in it hold (`push_comment_text`).
fn comment_line(out: &mut String, line: &str) {
    push_comment_text(out, line);
    out.push('\n');
}
