//! Substitution (`SecretsSubstitution.substitute_all` and `utils.jsonpath_replace`): each
//! entry of `metadata.substitutions`, in order, reads its source document's rendered data at
//! `src.path` (optionally narrowed by `src.pattern` / `match_group`) and writes it at each
//! `dest.path`, creating the path, or splices `str(value)` into the string there with
//! Python's `re.sub` (`dest.pattern`), recursively through a mapping or list with
//! `recurse.depth`. Values are always copied deeply (DESIGN.md §1: the engine's shallow copy
//! leaks writes between documents). Any failure inside one substitution is Deckhand's
//! `UnknownSubstitutionError`; with `--allow-missing-substitution-source` (the engine's
//! `fail_on_missing_sub_src=False`) missing sources and failures are warnings instead.

use super::dest::{write_dest, Dest, Fail};
use super::doc::{get, truthy, Doc};
use super::order::{source_key, Plan};
use super::pyre::{self, GroupRef};
use super::{fail, Cx, Slot};
use crate::error::{Result, WarnKind};
use crate::merge::{Outcome, RuleRef};
use crate::strategy::Origin;
use crate::value::dpath::{self, DPath, Loc, PathError, PathErrorKind};
use crate::value::{Key, Kind, Map, Node, Path, Span};

/// Deepest value a substitution may build (Python's recursion limit is about as deep).
const MAX_DEPTH: usize = 1000;

/// A substitution entry's source side.
struct Source<'a> {
    doc: usize,
    path: &'a str,
    pattern: Option<&'a Node>,
    group: Option<&'a Node>,
}

/// Applies `docs[d]`'s substitutions to its current data.
pub(super) fn substitute_all(
    d: usize,
    docs: &[Doc],
    plan: &Plan,
    slots: &mut [Slot],
    cx: &mut Cx<'_>,
) -> Result<()> {
    let doc = &docs[d];
    let mut redact = false;
    for (index, sub) in doc.substitutions()?.iter().enumerate() {
        let key = source_key(sub, doc)?;
        let src_map = sub.get("src").and_then(Node::as_map);
        let Some(path_node) = get(src_map, "path") else {
            return Err(fail(
                None,
                format!(
                    "a substitution of {} has no src.path (Deckhand: KeyError 'path')",
                    doc.title
                ),
                sub.span,
            )
            .hint("add src.path: . (the whole data) or .a.b"));
        };
        let Some(&s) = plan.sources.get(&key) else {
            let what = format!(
                "[{}] {}",
                super::doc::text(&key.0 .0),
                super::doc::text(&key.1 .0)
            );
            if cx.lenient {
                cx.warn.push(WarnKind::MissingSource, format!("substitution source {what} was not found; the substitution is skipped (--allow-missing-substitution-source)"), sub.span);
                continue;
            }
            return Err(fail(
                Some("SubstitutionSourceNotFound"),
                format!("Required substitution source document {what} was not found, yet is referenced by [{}] {}", super::doc::text(doc.schema()), super::doc::text(doc.name())),
                sub.get("src").map_or(sub.span, |n| n.span),
            )
            .hint("add the source document (it must be concrete: abstract documents are no sources), or pass --allow-missing-substitution-source to skip"));
        };
        let Some(src_path) = path_node.as_str() else {
            return Err(fail(
                None,
                format!(
                    "src.path of a substitution of {} is {}, not a string",
                    doc.title,
                    path_node.kind_phrase()
                ),
                path_node.span,
            )
            .hint("write the path as a string, e.g. .a.b"));
        };
        let src = Source {
            doc: s,
            path: src_path,
            pattern: get(src_map, "pattern"),
            group: get(src_map, "match_group"),
        };
        if docs[s].encrypted() {
            redact = true;
        }
        let value = read_source(doc, &docs[s], &src, sub, slots, cx)?;
        let Some(dest) = sub.get("dest") else {
            return Err(fail(
                None,
                format!(
                    "a substitution of {} has no dest (Deckhand: KeyError 'dest')",
                    doc.title
                ),
                sub.span,
            )
            .hint("add dest: {path: .a.b}"));
        };
        let dests: Vec<&Node> = match &dest.kind {
            Kind::List(items) => items.iter().collect(),
            _ => vec![dest],
        };
        let rule = RuleRef {
            text: format!("substitution of {} {}", docs[s].title, src.path).into(),
            origin: Origin::At(sub.span),
        };
        let single = dest.as_list().is_none();
        for (j, dest) in dests.into_iter().enumerate() {
            if docs[s].encrypted() {
                if let Some(slot) = slots.get_mut(d) {
                    slot.redact.push((index, (!single).then_some(j)));
                }
            }
            let result = substitute_one(d, dest, &value, &src, &rule, slots, cx);
            if let Err(Fail::Unsupported(message)) = &result {
                return Err(fail(
                    None,
                    format!("a substitution from {} into {}: {message}", docs[s].title, doc.title),
                    dest.span,
                )
                .hint("Deckhand renders this, strata does not reproduce it: write a dest.path whose matches do not lie inside each other"));
            }
            if let Err(Fail::Unknown(message) | Fail::Silent(message)) = result {
                if cx.lenient {
                    cx.warn.push(WarnKind::MissingSource, format!("this substitution failed and is skipped (--allow-missing-substitution-source): {message}"), dest.span);
                    continue;
                }
                return Err(fail(
                    Some("UnknownSubstitutionError"),
                    format!("An unknown exception occurred while substituting from {} into {}: {message}", docs[s].title, doc.title),
                    dest.span,
                )
                .hint("Deckhand reports only \"An unknown exception occurred\" here; the reason above is what strata found"));
            }
        }
    }
    if redact {
        cx.warn.push(
            WarnKind::SubstitutionQuirk, format!("{} substitutes from an encrypted document: Deckhand replaces the src.path and dest.path of those substitutions in its metadata by their SHA-256 digests and makes it storagePolicy: encrypted", doc.title),
            doc.span(),
        );
    }
    if redact && !doc.encrypted() {
        if let Some(slot) = slots.get_mut(d) {
            slot.encrypted = true;
        }
    }
    Ok(())
}

/// The value at `src.path` of the source's rendered data (its whole data when that is not a
/// mapping), checked and narrowed by `src.pattern`.
fn read_source(
    doc: &Doc,
    src_doc: &Doc,
    src: &Source<'_>,
    sub: &Node,
    slots: &[Slot],
    cx: &mut Cx<'_>,
) -> Result<Node> {
    let null = Node::null(Span::NONE);
    let data = slots.get(src.doc).and_then(Slot::data).unwrap_or(&null);
    let secret = if data.as_map().is_some() {
        let src_error = |e: PathError| {
            let hint = match e.kind {
                PathErrorKind::Parse => "Deckhand fails here too: jsonpath-ng cannot parse the path (JsonPathParserError, not a Deckhand error); fix the path",
                PathErrorKind::Python | PathErrorKind::NotImplemented => "Deckhand fails here too (a Python exception, not a Deckhand error); fix the path or the source's data",
                PathErrorKind::Unsupported => "Deckhand reads this path; strata does not: write it with digits 0-9",
            };
            fail(
                None,
                format!(
                    "src.path '{}' of a substitution of {}: {e}",
                    src.path, doc.title
                ),
                sub.get("src")
                    .and_then(|s| s.get("path"))
                    .map_or(sub.span, |n| n.span),
            )
            .hint(hint)
        };
        let p = DPath::parse(&dpath::normalize(src.path)).map_err(src_error)?;
        let found = p.first(data).map_err(src_error)?;
        found.map(std::borrow::Cow::into_owned)
    } else {
        Some(data.clone())
    };
    let secret = match secret {
        Some(v) if !v.is_null() => v,
        _ => {
            let message = format!(
                "Required substitution source secret was not found at path {} in source document {} which is referenced by destination document {} under its `metadata.substitutions`",
                src.path, src_doc.title, doc.title
            );
            if cx.lenient {
                cx.warn.push(
                    WarnKind::MissingSource,
                    format!("{message}; null is substituted (--allow-missing-substitution-source)"),
                    sub.span,
                );
                Node::null(Span::NONE)
            } else {
                return Err(fail(
                    Some("SubstitutionSourceDataNotFound"),
                    message,
                    sub.get("src").map_or(sub.span, |n| n.span),
                )
                .note(format!("the source {}", src_doc.title), src_doc.span())
                .hint("the source has nothing (or null) at src.path; fix the path or the source"));
            }
        }
    };
    if src_doc.encrypted() && super::barbican_ref(&secret) {
        // Deckhand's `secret_ref` is the value read at src.path.
        return Err(super::encryption_error(src_doc, Some(&secret), sub.span));
    }
    Ok(secret)
}

/// `src.pattern`: `re.search` on the value; the match group replaces it (no match: the whole
/// value, with a warning).
fn narrow(
    value: &Node,
    src: &Source<'_>,
    cx: &mut Cx<'_>,
    at: Span,
) -> std::result::Result<Node, String> {
    let Some(pattern) = src.pattern.filter(|p| truthy(p)) else {
        return Ok(value.clone());
    };
    let Some(text) = value.as_str() else {
        return Err(format!(
            "src.pattern needs a string value, and the source value is {}",
            value.kind_phrase()
        ));
    };
    let pattern = pattern.as_str().ok_or("src.pattern is not a string")?;
    let re = pyre::compile(pattern)?;
    let Some(caps) = re.search(text)? else {
        cx.warn.push(WarnKind::SubstitutionQuirk, format!("src.pattern '{pattern}' does not match the source value; Deckhand uses the entire value"), at);
        return Ok(value.clone());
    };
    let group = match src.group.map(|g| &g.kind) {
        None => GroupRef::Index(0),
        Some(Kind::Int(i)) => GroupRef::Index(*i),
        Some(Kind::Bool(b)) => GroupRef::Index(i64::from(*b)),
        Some(Kind::Str(s)) => GroupRef::Name(s.to_string()),
        Some(_) => {
            return Err("no such group (match_group must be an integer or a group name)".into())
        }
    };
    Ok(match re.group(&caps, &group)? {
        Some(s) => Node::str(s, value.span),
        None => Node::null(value.span),
    })
}

fn trace_path(data: &Node, locs: &[Loc]) -> Path {
    let mut p = Path::root();
    p.push_key("data");
    dpath::pointer(data, locs, &mut p);
    p
}

/// `_substitute_one` for one destination.
fn substitute_one(
    d: usize,
    dest: &Node,
    value: &Node,
    src: &Source<'_>,
    rule: &RuleRef,
    slots: &mut [Slot],
    cx: &mut Cx<'_>,
) -> std::result::Result<(), Fail> {
    let Some(dmap) = dest.as_map() else {
        return Err(format!("dest is {}, not a mapping", dest.kind_phrase()).into());
    };
    let path = dmap
        .get(&Key::str("path"))
        .ok_or("dest has no path (KeyError 'path')")?;
    let path = path.as_str().ok_or("dest.path is not a string")?;
    let pattern = dmap.get(&Key::str("pattern")).filter(|p| truthy(p));
    let recurse = dmap.get(&Key::str("recurse")).filter(|r| truthy(r));
    let value = narrow(value, src, cx, dest.span)?;
    let norm = dpath::normalize(path);
    if !(norm == "$" || norm.starts_with("$.")) {
        return Err(
            format!("The provided jsonpath {norm} does not begin with \".\" or \"$\"").into(),
        );
    }
    let target = Dest {
        path: DPath::parse(&norm)?,
        norm,
        pattern,
        recurse,
        at: dest.span,
    };
    if crate::load::yaml::tree_depth(&value) + target.path.steps() > MAX_DEPTH {
        return Err(format!("the result would nest deeper than {MAX_DEPTH} levels").into());
    }
    let Some(slot) = slots.get_mut(d) else {
        return Err("no such document".into());
    };
    let was_map = slot.data_mut().as_map().is_some();
    // Without --allow-missing-substitution-source a failure ends the render, so the data is
    // changed where it stands; with it, a failed substitution leaves the data as it was, so
    // the change is made on a copy.
    let in_place = !cx.lenient;
    let mut work = if in_place {
        std::mem::replace(slot.data_mut(), Node::null(Span::NONE))
    } else {
        slot.data_mut().clone()
    };
    // The top-level keys before: `jsonpath_replace` works on a shallow copy of the data.
    let keys: Option<Vec<Key>> = target
        .path
        .may_not_update()
        .then(|| work.as_map().map(|m| m.keys().cloned().collect()))
        .flatten();
    let (root, steps) = match write_dest(&target, &mut work, &value, cx) {
        Ok(done) => done,
        Err(Fail::Silent(why)) => {
            // What the path's creation added inside values the data had stays (it was
            // written into them); new top-level keys went into the copy only.
            if let (Some(keys), Kind::Map(m)) = (&keys, &mut work.kind) {
                m.retain(|k, _| keys.contains(k));
            }
            *slot.data_mut() = work;
            cx.warn.push(WarnKind::SubstitutionQuirk, format!("dest.path '{path}': {why}; the exception's message is empty, and Deckhand reports only a non-empty one: this substitution changes nothing"), dest.span);
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let result = match root {
        Some(v) => {
            if in_place {
                *slot.data_mut() = work;
            }
            v
        }
        None => work,
    };
    let data = slot.data_mut();
    if was_map && result.as_map().is_some() {
        if let Some(new) = root_update(data, result, path, cx, dest.span) {
            *data = new;
        }
    } else if truthy(&result) {
        *data = result;
    } else {
        return Err(format!("Failed to create JSON path \"{path}\" in the destination document. No data was substituted.").into());
    }
    slot.set = true;
    if cx.trace.is_some() {
        let data = slot.data_mut().clone();
        for (locs, outcome, span, old) in steps {
            let here = trace_path(&data, &locs);
            let overrode: Vec<&Node> = old.iter().filter(|_| outcome != Outcome::Added).collect();
            cx.record_with(here, outcome, rule, span, &overrode, &[&value]);
        }
    }
    Ok(())
}

/// `document.data.update(substituted)`: top-level keys of the result replace or join the
/// data's (when the result is the changed copy of the data, that is the copy itself).
fn root_update(data: &Node, result: Node, path: &str, cx: &mut Cx<'_>, at: Span) -> Option<Node> {
    let (Some(old), Kind::Map(new)) = (data.as_map(), &result.kind) else {
        return Some(result);
    };
    if dpath::normalize(path) != "$" {
        return Some(result);
    }
    let mut merged: Map = old.clone();
    let kept: Vec<String> = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .map(|k| crate::value::key_text(&k.0))
        .collect();
    for (k, v) in new.iter() {
        merged.insert(k.clone(), v.clone());
    }
    if !kept.is_empty() {
        cx.warn.push(
            WarnKind::PathQuirk, format!("substitution at '.' merges the value's top-level keys into the data: Deckhand keeps {} from before", kept.join(", ")),
            at,
        );
    }
    Some(Node::map(merged, data.span))
}
