//! The `-P NAME=VALUE` values, as python-heatclient's `format_parameters` builds them: a single
//! `-P` is split at `;` into several, a name given twice collects its values into a list, and
//! every value is a string. They become the `parameters` Heat starts from, so every
//! environment file has a higher precedence. The command line is a source of its own
//! (`<command line>`), so the values keep positions for errors and `--explain`.

use crate::error::{Error, ErrorKind, Result};
use crate::merge::{RuleRef, Trace};
use crate::strategy::Origin;
use crate::value::{Key, Kind, List, Map, Node, Path, SourceId, SourceMap, Span};

/// Builds the starting `parameters` mapping from the `-P` pairs.
pub(super) fn parameters(pairs: Vec<(String, String)>, sources: &mut SourceMap) -> Result<Node> {
    if pairs.is_empty() {
        return Ok(Node::empty_map(Span::NONE));
    }
    // The command line as text: "-P a=1 -P b=2"; (name, value) byte ranges into it.
    let mut text = String::new();
    let mut items: Vec<(Range, Range)> = Vec::new();
    let single = pairs.len() == 1;
    for (name, value) in &pairs {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str("-P ");
        let start = text.len();
        text.push_str(name);
        text.push('=');
        text.push_str(value);
        let whole = (start, text.len());
        if single {
            // format_parameters: one -P is split at ';' (then each piece at its first '=').
            items.extend(split_pieces(&text, whole)?);
        } else {
            let n = (start, start + name.len());
            items.push((n, (n.1 + 1, text.len())));
        }
    }
    let id = sources.add("<command line>", text);
    let text = sources.text(id);
    let mut map = Map::default();
    for ((ns, ne), (vs, ve)) in items {
        let name = Node::str(text.get(ns..ne).unwrap_or(""), Span::new(id, ns, ne));
        let value = Node::str(text.get(vs..ve).unwrap_or(""), Span::new(id, vs, ve));
        let key = Key(name);
        match map.get_mut(&key) {
            None => {
                map.insert(key, value);
            }
            Some(prev) => {
                // A repeated name: its values become a list.
                let span = prev.span;
                let first = prev.take();
                let mut list = match first.kind {
                    Kind::List(items) => items,
                    _ => List::from(vec![first]),
                };
                list.push(value);
                *prev = Node::list(list, span);
            }
        }
    }
    Ok(Node::map(map, whole_span(id, sources)))
}

/// A byte range in the command-line text.
type Range = (usize, usize);

/// Splits `name=value` at `;` into pieces, each split at its first `=`.
fn split_pieces(text: &str, (start, end): (usize, usize)) -> Result<Vec<(Range, Range)>> {
    let mut out = Vec::new();
    let mut at = start;
    let body = text.get(start..end).unwrap_or("");
    for piece in body.split(';') {
        let (s, e) = (at, at + piece.len());
        at = e + 1;
        match piece.find('=') {
            Some(eq) => out.push(((s, s + eq), (s + eq + 1, e))),
            None => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("Malformed parameter({piece}). Use the key=value format."),
                )
                .hint("a single -P is split at ';' (as the heat client does): give each parameter its own -P NAME=VALUE"))
            }
        }
    }
    Ok(out)
}

fn whole_span(id: SourceId, sources: &SourceMap) -> Span {
    Span::new(id, 0, sources.text(id).len())
}

/// Records the `-P` values as added (before any file).
pub(super) fn trace(trace: &mut Option<Trace>, params: &Node) {
    let rule = RuleRef {
        text: "-P".into(),
        origin: Origin::Default(
            "command-line parameters come first: every environment file overrides them".into(),
        ),
    };
    let mut at = Path::root();
    at.push_key("parameters");
    super::specs::added_entries(trace, &at, params, &mut |_| Some(rule.clone()));
}
