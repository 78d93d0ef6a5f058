//! Layering actions (`DocumentLayering._apply_action`): `merge`, `replace` and `delete`
//! applied in order to a copy of the parent's rendered data, reading the child's own data.
//! `merge` of two mappings runs through the one merge engine (a `deep` stack: mappings
//! recurse, anything else replaces) with the action as its rule; every other change is
//! recorded in the same trace. Deckhand's quirks are kept and warned about: the `.data`
//! prefix is stripped by a plain text test, and `delete` removes the first value *equal* to
//! the one at the path, searching the whole data depth-first.

use super::doc::Doc;
use super::{fail, Cx};
use crate::error::{Error, Result, WarnKind};
use crate::merge::fold::{self, Rules};
use crate::merge::{Outcome, RuleRef};
use crate::strategy::{Origin, RuleSet, Stack};
use crate::value::dpath::{self, DPath, Loc, PathError, PathErrorKind};
use crate::value::{Kind, Node, Path, Span};

/// One action as written.
struct Action<'a> {
    method: &'a str,
    /// The path as written.
    raw: &'a str,
    /// After Deckhand's `.data` stripping and `.` prefixing.
    path: String,
    node: &'a Node,
}

impl Action<'_> {
    fn rule(&self) -> RuleRef {
        RuleRef {
            text: format!("{} {}", self.method, self.raw).into(),
            origin: Origin::At(self.node.span),
        }
    }
}

/// The `.data` / `$.data` prefix strip and `.` prefix of `_apply_action`.
fn action_path(raw: &str) -> String {
    let rest = if let Some(r) = raw.strip_prefix(".data") {
        r
    } else if let Some(r) = raw.strip_prefix("$.data") {
        r
    } else {
        raw
    };
    if rest.starts_with('.') || rest.starts_with("$.") {
        rest.to_string()
    } else {
        format!(".{rest}")
    }
}

fn read_action<'a>(node: &'a Node, doc: &Doc) -> Result<Action<'a>> {
    let Some(map) = node.as_map() else {
        return Err(fail(
            None,
            format!(
                "an action of {} is {}, not a mapping (Deckhand: TypeError)",
                doc.title,
                node.kind_phrase()
            ),
            node.span,
        )
        .hint("write {method: merge, path: .}"));
    };
    let method = map.get(&crate::value::Key::str("method")).ok_or_else(|| {
        fail(
            None,
            format!(
                "an action of {} has no method (Deckhand: KeyError 'method')",
                doc.title
            ),
            node.span,
        )
        .hint("add method: merge, replace or delete")
    })?;
    let method = match method.as_str() {
        Some(m @ ("merge" | "replace" | "delete")) => m,
        _ => {
            return Err(fail(
                Some("UnsupportedActionMethod"),
                format!(
                    "Method in {} is invalid for document {}",
                    crate::value::py::py_repr(node),
                    doc.title
                ),
                method.span,
            )
            .hint("the method must be merge, replace or delete"))
        }
    };
    let path = map.get(&crate::value::Key::str("path")).ok_or_else(|| {
        fail(
            None,
            format!(
                "an action of {} has no path (Deckhand: KeyError 'path')",
                doc.title
            ),
            node.span,
        )
        .hint("add path: . (the whole data) or .a.b")
    })?;
    let raw = path.as_str().ok_or_else(|| {
        fail(
            None,
            format!(
                "the path of an action of {} is {}, not a string (Deckhand: AttributeError)",
                doc.title,
                path.kind_phrase()
            ),
            path.span,
        )
        .hint("write the path as a string, e.g. .a.b")
    })?;
    Ok(Action {
        method,
        raw,
        path: action_path(raw),
        node,
    })
}

/// Applies `doc`'s actions to `parent` (a copy of its parent's rendered data; null when it
/// has none), reading `child` (the document's own data).
pub(super) fn apply(
    doc: &Doc,
    actions: &Node,
    child: &Node,
    mut data: Node,
    cx: &mut Cx<'_>,
) -> Result<Node> {
    let Some(list) = actions.as_list() else {
        return Err(fail(
            None,
            format!(
                "layeringDefinition.actions of {} is {}, not a list",
                doc.title,
                actions.kind_phrase()
            ),
            actions.span,
        )
        .hint("write actions: [{method: merge, path: .}]"));
    };
    for node in list.iter() {
        let a = read_action(node, doc)?;
        if (a.raw.starts_with(".data") || a.raw.starts_with("$.data"))
            && !matches!(
                a.raw.trim_start_matches('$').get(5..6),
                None | Some(".") | Some("[")
            )
        {
            cx.warn.push(
                WarnKind::PathQuirk, format!(
                    "Deckhand strips '.data' from the action path '{}' by a plain text test and uses '{}'",
                    a.raw, a.path
                ),
                path_span(node),
            );
        }
        data = match a.method {
            "delete" => delete(doc, &a, data, cx)?,
            "merge" => merge(doc, &a, child, data, cx)?,
            _ => replace(doc, &a, child, data, cx)?,
        };
    }
    Ok(data)
}

fn path_span(action: &Node) -> Span {
    action.get("path").map_or(action.span, |p| p.span)
}

fn path_error(doc: &Doc, a: &Action<'_>, e: PathError) -> Error {
    let hint = match e.kind {
        PathErrorKind::Parse => "Deckhand fails here too (jsonpath-ng raises it, not a Deckhand error); fix the path",
        PathErrorKind::Python | PathErrorKind::NotImplemented => {
            "Deckhand fails here too (a Python exception, not a Deckhand error); fix the path or the data"
        }
        PathErrorKind::Unsupported => {
            "Deckhand renders this; strata does not reproduce it: write the path so that one write cannot replace another match"
        }
    };
    fail(
        None,
        format!("action '{} {}' of {}: {e}", a.method, a.raw, doc.title),
        path_span(a.node),
    )
    .hint(hint)
}

fn missing_key(doc: &Doc, a: &Action<'_>, parent: Option<&Doc>, in_child: bool) -> Error {
    let whose = if in_child {
        "the child's data"
    } else {
        "the parent's data"
    };
    let parent_title = parent.map_or_else(|| "[, ] ".to_string(), |p| p.title.clone());
    fail(
        Some("MissingDocumentKey"),
        format!(
            "Missing action path in {} needed for layering from either the data section of the parent {parent_title} or child {} document",
            crate::value::py::py_repr(a.node),
            doc.title
        ),
        path_span(a.node),
    )
    .hint(format!("{whose} has nothing (or null) at {}", a.path))
}

fn parse(doc: &Doc, a: &Action<'_>) -> Result<DPath> {
    DPath::parse(&dpath::normalize(&a.path)).map_err(|e| path_error(doc, a, e))
}

/// The trace path of a location: `/data/...`.
fn trace_path(data: &Node, locs: &[Loc]) -> Path {
    let mut p = Path::root();
    p.push_key("data");
    dpath::pointer(data, locs, &mut p);
    p
}

fn delete(doc: &Doc, a: &Action<'_>, mut data: Node, cx: &mut Cx<'_>) -> Result<Node> {
    if a.path == "." {
        let old = std::mem::replace(&mut data, Node::empty_map(Span::NONE));
        cx.record(
            trace_path(&data, &[]),
            Outcome::Deleted,
            &a.rule(),
            a.node.span,
            &[&old],
        );
        return Ok(data);
    }
    let p = parse(doc, a)?;
    let target = match p.first(&data).map_err(|e| path_error(doc, a, e))? {
        Some(v) if !v.is_null() => v.into_owned(),
        _ => return Err(missing_key(doc, a, cx.parent_doc, false)),
    };
    let at = p.first_location(&data).map_err(|e| path_error(doc, a, e))?;
    let mut found = Vec::new();
    if !first_equal(&data, &target, &mut found) {
        cx.warn.push(
            WarnKind::PathQuirk, format!("'delete {}' deleted nothing: the whole data equals the value at that path, and Deckhand deletes the first value equal to it below the top", a.raw),
            path_span(a.node),
        );
        return Ok(data);
    }
    let path = trace_path(&data, &found);
    if at.as_deref() != Some(found.as_slice()) {
        let mut wanted = Path::root();
        wanted.push_key("data");
        if let Some(at) = &at {
            dpath::pointer(&data, at, &mut wanted);
        }
        cx.warn.push(
            WarnKind::PathQuirk, format!(
                "Deckhand deletes the first value equal to {}, which is {path}, not {wanted} (delete by value)",
                a.raw
            ),
            path_span(a.node),
        );
    }
    let removed = remove(&mut data, &found);
    if let Some(old) = removed {
        cx.record(path, Outcome::Deleted, &a.rule(), a.node.span, &[&old]);
    }
    Ok(data)
}

/// Deckhand's `deep_delete` search: depth first, mappings and lists in order, the first value
/// equal (Python `==`) to `target` below the top.
fn first_equal(node: &Node, target: &Node, path: &mut Vec<Loc>) -> bool {
    match &node.kind {
        Kind::List(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Loc::Item(i));
                if v.py_eq(target) || first_equal(v, target, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        Kind::Map(m) => {
            for (i, (_, v)) in m.iter().enumerate() {
                path.push(Loc::Entry(i));
                if v.py_eq(target) || first_equal(v, target, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        _ => false,
    }
}

fn remove(data: &mut Node, locs: &[Loc]) -> Option<Node> {
    let (last, init) = locs.split_last()?;
    let parent = dpath::get_mut(data, init)?;
    match (&mut parent.kind, last) {
        (Kind::List(items), Loc::Item(i)) if *i < items.len() => Some(items.remove(*i)),
        (Kind::Map(m), Loc::Entry(i)) => m.shift_remove_index(*i).map(|(_, v)| v),
        _ => None,
    }
}

/// The child's value at the action's path (missing or null: `MissingDocumentKey`).
fn child_value(doc: &Doc, a: &Action<'_>, p: &DPath, child: &Node, cx: &Cx<'_>) -> Result<Node> {
    match p.first(child).map_err(|e| path_error(doc, a, e))? {
        Some(v) if !v.is_null() => Ok(v.into_owned()),
        _ => Err(missing_key(doc, a, cx.parent_doc, true)),
    }
}

fn merge(doc: &Doc, a: &Action<'_>, child: &Node, mut data: Node, cx: &mut Cx<'_>) -> Result<Node> {
    let p = parse(doc, a)?;
    // `jsonpath_parse` of the parent's data: every match's value is taken.
    p.first(&data).map_err(|e| path_error(doc, a, e))?;
    // The first match, where it is a value of the data (a character of a string is no map).
    let at = p.first_location(&data).map_err(|e| path_error(doc, a, e))?;
    let parent_is_map = at
        .as_ref()
        .and_then(|at| dpath::get(&data, at))
        .is_some_and(|v| v.as_map().is_some());
    let from_child = child_value(doc, a, &p, child, cx)?;
    if p.ends_in_index() {
        cx.warn.push(
            WarnKind::PathQuirk, format!("'merge {}' merges into that one list item; Deckhand's documentation says an index path extends the parent's list, its code does not", a.raw),
            path_span(a.node),
        );
    }
    if !(parent_is_map && from_child.as_map().is_some()) {
        write(doc, a, &p, &mut data, from_child, cx)?;
        return Ok(data);
    }
    let at = at.unwrap_or_default();
    let rules = RuleSet::single(merge_stack(a));
    let path = trace_path(&data, &at);
    // A path without wildcards matches once: the parent's mapping is merged where it stands
    // (taken out, not copied), which is what writing the merged copy there would leave.
    let single = p.is_simple();
    let old = match dpath::get_mut(&mut data, &at) {
        Some(slot) if single => std::mem::replace(slot, Node::null(Span::NONE)),
        _ => dpath::get(&data, &at)
            .cloned()
            .unwrap_or(Node::null(Span::NONE)),
    };
    // The engine's notices (a mapping replaced by a list, ...) are not worded for Deckhand:
    // its `deep_merge` replaces a value of another kind whole, and strata says nothing there.
    let (merged, _) = fold::merge_at(
        cx.trace.as_mut(),
        Rules::new(&rules),
        &path,
        old,
        from_child,
    );
    let merged = match merged {
        Ok(v) => v,
        Err((e, _)) => return Err(fail(None, e.message, e.span)),
    };
    match dpath::get_mut(&mut data, &at) {
        Some(slot) if single => {
            *slot = merged;
            Ok(data)
        }
        _ => {
            write(doc, a, &p, &mut data, merged, cx)?;
            Ok(data)
        }
    }
}

fn replace(
    doc: &Doc,
    a: &Action<'_>,
    child: &Node,
    mut data: Node,
    cx: &mut Cx<'_>,
) -> Result<Node> {
    let p = parse(doc, a)?;
    let value = child_value(doc, a, &p, child, cx)?;
    write(doc, a, &p, &mut data, value, cx)?;
    Ok(data)
}

/// The merge stack of one action: Deckhand's `deep_merge` (mappings recurse; lists, scalars
/// and null replace), with the action as its rule.
fn merge_stack(a: &Action<'_>) -> Stack {
    Stack::deep(format!("merge {}", a.raw), Origin::At(a.node.span))
}

/// `jsonpath_replace` without a pattern: creates the path if nothing matches, then writes.
pub(super) fn write_at(
    p: &DPath,
    data: &mut Node,
    value: Node,
) -> std::result::Result<Vec<Vec<Loc>>, PathError> {
    if !p.matches(data)? {
        dpath::expand(data, &p.text)?;
        if !p.matches(data)? {
            return Err(PathError::python(
                "IndexError",
                format!(
                    "nothing is at '{}' even after creating it: list index out of range",
                    p.text
                ),
            ));
        }
    }
    match p.update(data, value)? {
        (dpath::Written::Root(v), _) => {
            *data = v;
            Ok(vec![Vec::new()])
        }
        (dpath::Written::InPlace, at) => Ok(at),
    }
}

fn write(
    doc: &Doc,
    a: &Action<'_>,
    p: &DPath,
    data: &mut Node,
    value: Node,
    cx: &mut Cx<'_>,
) -> Result<()> {
    let tracing = cx.trace.is_some();
    // The value written over, for the trace only (copied only when tracing).
    let first = p.first(data).ok().flatten();
    let before_is_map = first.as_ref().is_some_and(|b| b.as_map().is_some());
    let before = first.filter(|_| tracing).map(std::borrow::Cow::into_owned);
    // A path of several matches replaces several values: what each held, for the trace.
    let old = (tracing && !p.is_simple()).then(|| data.clone());
    if p.ends_in_index() && value.as_list().is_some() {
        cx.warn.push(
            WarnKind::PathQuirk, format!("'{} {}' writes a list at an index path: jsonpath-ng writes only the list's first item there", a.method, a.raw),
            path_span(a.node),
        );
    }
    if !p.is_simple() && !p.matches(data).unwrap_or(true) {
        cx.warn.push(
            WarnKind::PathQuirk, format!("'{} {}' matches nothing in the parent's data: Deckhand creates the missing path from its text cut at each '.' (not as jsonpath), so it makes keys named after those pieces", a.method, a.raw),
            path_span(a.node),
        );
    }
    let span = value.span;
    let merged_map = value.as_map().is_some() && before_is_map && a.method == "merge";
    let at = write_at(p, data, value).map_err(|e| path_error(doc, a, e))?;
    if at.len() > 1 {
        cx.warn.push(
            WarnKind::PathQuirk, format!("'{} {}' matches {} values in the parent's data: Deckhand writes one value, made from the first match, at every one of them", a.method, a.raw, at.len()),
            path_span(a.node),
        );
    }
    if tracing && !merged_map {
        for locs in at {
            let path = trace_path(data, &locs);
            let written = dpath::get(data, &locs).map_or(span, |n| n.span);
            let was = match &old {
                Some(o) => dpath::get(o, &locs),
                None => before.as_ref(),
            };
            match was {
                Some(b) => cx.record(path, Outcome::Replaced, &a.rule(), written, &[b]),
                None => cx.record(path, Outcome::Added, &a.rule(), written, &[]),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::action_path;

    #[test]
    fn data_prefix_is_stripped_as_text() {
        assert_eq!(action_path(".data"), ".");
        assert_eq!(action_path("$.data"), ".");
        assert_eq!(action_path(".data.a"), ".a");
        assert_eq!(action_path(".database.host"), ".base.host");
        assert_eq!(action_path("a.b"), ".a.b");
        assert_eq!(action_path("$.a"), "$.a");
        assert_eq!(action_path("$"), ".$");
    }
}
