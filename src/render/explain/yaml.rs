//! YAML explanation: the rendered document with aligned provenance comments, the history
//! header of `--explain=POINTER`, and the list of values that are not in the result.

use super::{affecting, comment, located, priors, rule_text, Entry};
use crate::frontend::Rendered;
use crate::merge::{Outcome, Step};
use crate::render::yaml;
use crate::value::{Node, Path, SourceMap};
use std::fmt::Write as _;

/// Comments are aligned into one column that starts at most this far in.
const COLUMN_LIMIT: usize = 80;

pub(super) fn explain(
    rendered: &Rendered,
    root: Option<&Node>,
    root_path: &Path,
    focused: bool,
    entries: &[Entry<'_>],
    history: &[&Step],
    sources: &SourceMap,
) -> String {
    // The comment of an entry, or None when the entry gets none.
    let text_for = |e: &Entry<'_>| -> Option<String> {
        let wanted = e.leaf
            || e.step.is_some_and(|s| {
                matches!(s.outcome, Outcome::Replaced | Outcome::Kept) && s.value == e.node.span
            });
        if !wanted {
            return None;
        }
        let mut text = comment(e.node, e.step, e.via, sources);
        for w in affecting(rendered, e, sources) {
            text.push_str("; warning: ");
            text.push_str(&w.message);
        }
        Some(text)
    };
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
    // The writer asks for nodes in document order, as the entries were collected: walk both
    // together (nodes it never asks about, like list items that open a block, are skipped).
    let mut cursor = 0usize;
    let mut annotate = |node: &Node| -> Option<String> {
        while let Some(e) = entries.get(cursor) {
            cursor += 1;
            if std::ptr::eq(e.node, node) {
                return text_for(e);
            }
        }
        None
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
pub(super) fn removed(rendered: &Rendered) -> Vec<&Step> {
    rendered
        .trace
        .iter()
        .flat_map(|t| t.steps.iter())
        .filter(|s| matches!(s.outcome, Outcome::Deleted | Outcome::DroppedPart))
        .collect()
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
