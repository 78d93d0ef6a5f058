//! `#cloud-config-jsonp` parts: an RFC 6902 JSON Patch applied to the accumulated config, as
//! cloud-init does with the `jsonpatch` library (no merger logic; any failure drops the part).

use super::how::Failure;
use super::{Drop, PartResult};
use crate::error::{Error, ErrorKind, Warning};
use crate::frontend::cloudinit::parts::Part;
use crate::frontend::{file_span, Settings};
use crate::load::json;
use crate::load::yaml::tree_depth;
use crate::merge::{Outcome, Trace};
use crate::value::{Key, Kind, Node, Path, Seg, SourceMap, Span};

pub(super) fn apply(
    part: &Part,
    old: Node,
    sources: &SourceMap,
    settings: &Settings,
    _warnings: &mut [Warning],
    trace: Option<&mut Trace>,
) -> PartResult {
    let text = sources.text(part.source);
    let trimmed = text.trim_start();
    let start = text.len() - trimmed.len();
    let body_start = start
        + if trimmed
            .to_ascii_lowercase()
            .starts_with("#cloud-config-jsonp")
        {
            "#cloud-config-jsonp".len()
        } else {
            0
        };
    // Parse the body in place so positions stay exact: blank out the prefix.
    let mut padded = " ".repeat(body_start);
    padded.push_str(&text[body_start..]);
    let fail = |message: String, span: Span| Drop {
        notes: Vec::new(),
        failure: Failure::Skipped,
        message,
        span,
        fatal: None,
    };
    let ops = match json::load(&padded, part.source, &settings.load) {
        Ok(n) => n,
        Err(e) => {
            return Err((
                fail(
                    format!("JSON patch does not parse: {}", e.message),
                    e.span.unwrap_or(file_span(part.source)),
                ),
                old,
            ))
        }
    };
    let Some(list) = ops.as_list() else {
        return Err((
            fail("a JSON patch must be a list of operations".into(), ops.span),
            old,
        ));
    };
    // jsonpatch applies to a copy: a failing operation leaves the config untouched.
    let mut doc = old.clone();
    let mut steps = Vec::new();
    for op in list {
        // Each operation may put a value deeper in the config; bound the nesting as the loaders
        // do (stack overflow found in fuzzing: patches adding deep values below deep values,
        // part after part, built a tree no recursive pass could walk).
        let depth = depth_after(&doc, op);
        if depth > settings.load.limits.max_depth {
            let error = Error::new(
                ErrorKind::Limit,
                format!(
                    "this JSON patch operation nests the config {depth} levels deep, more than the limit of {}",
                    settings.load.limits.max_depth
                ),
            )
            .at(op.span)
            .hint("flatten the structure; no real configuration nests this deep");
            return Err((
                Drop {
                    fatal: Some(Box::new(error)),
                    ..fail(String::new(), op.span)
                },
                old,
            ));
        }
        if let Err(message) = apply_op(&mut doc, op, &mut steps) {
            return Err((fail(message, op.span), old));
        }
    }
    if let Some(t) = trace {
        for (path, outcome, value, prior) in steps {
            t.record_priors(&path, outcome, None, value, prior.into_iter().collect());
        }
    }
    Ok(doc)
}

type Recorded = (Path, Outcome, Span, Option<crate::merge::Prior>);

fn field<'a>(op: &'a Node, name: &str) -> Result<&'a Node, String> {
    op.get(name)
        .ok_or_else(|| format!("operation has no '{name}' member"))
}

fn pointer(op: &Node, name: &str) -> Result<Path, String> {
    let p = field(op, name)?
        .as_str()
        .ok_or_else(|| format!("'{name}' must be a string"))?;
    Path::parse_pointer(p)
}

fn apply_op(doc: &mut Node, op: &Node, steps: &mut Vec<Recorded>) -> Result<(), String> {
    let name = field(op, "op")?.as_str().ok_or("'op' must be a string")?;
    let path = pointer(op, "path")?;
    match name {
        "add" => {
            let value = field(op, "value")?.clone();
            steps.push((path.clone(), Outcome::Added, value.span, None));
            add(doc, &path, value)
        }
        "remove" => {
            let removed = remove(doc, &path)?;
            steps.push((
                path,
                Outcome::Deleted,
                op.span,
                Some(crate::merge::Prior::of(&removed)),
            ));
            Ok(())
        }
        "replace" => {
            let value = field(op, "value")?.clone();
            let removed = remove(doc, &path)?;
            steps.push((
                path.clone(),
                Outcome::Replaced,
                value.span,
                Some(crate::merge::Prior::of(&removed)),
            ));
            add(doc, &path, value)
        }
        "move" => {
            let from = pointer(op, "from")?;
            let value = remove(doc, &from)?;
            steps.push((path.clone(), Outcome::Added, value.span, None));
            add(doc, &path, value)
        }
        "copy" => {
            let from = pointer(op, "from")?;
            let value = get(doc, &from)
                .ok_or_else(|| format!("'from' path {from} does not exist"))?
                .clone();
            steps.push((path.clone(), Outcome::Added, value.span, None));
            add(doc, &path, value)
        }
        "test" => {
            let want = field(op, "value")?;
            match get(doc, &path) {
                Some(have) if have.py_eq(want) => Ok(()),
                _ => Err(format!("test failed at {path}")),
            }
        }
        other => Err(format!("unknown JSON patch operation '{other}'")),
    }
}

/// How deep the config gets where `op` puts a value: the target path's length plus the
/// value's own nesting (0 for operations that put nothing).
fn depth_after(doc: &Node, op: &Node) -> usize {
    let value = match op.get("op").and_then(Node::as_str) {
        Some("add" | "replace") => op.get("value"),
        Some("move" | "copy") => pointer(op, "from").ok().and_then(|from| get(doc, &from)),
        _ => None,
    };
    match (value, pointer(op, "path")) {
        (Some(v), Ok(path)) => path.0.len().saturating_add(tree_depth(v)),
        _ => 0,
    }
}

fn seg_key(seg: &Seg) -> String {
    match seg {
        Seg::Key(k) => k.to_string(),
        Seg::Index(i) => i.to_string(),
    }
}

fn get<'a>(doc: &'a Node, path: &Path) -> Option<&'a Node> {
    let mut cur = doc;
    for seg in &path.0 {
        let k = seg_key(seg);
        cur = match &cur.kind {
            Kind::Map(m) => m.get(&Key::str(&k))?,
            Kind::List(l) => l.get(k.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn parent<'a>(doc: &'a mut Node, path: &Path) -> Result<(&'a mut Node, String), String> {
    let Some((last, init)) = path.0.split_last() else {
        return Err("the root cannot be the target of this operation".into());
    };
    let mut cur = doc;
    for seg in init {
        let k = seg_key(seg);
        cur = match &mut cur.kind {
            Kind::Map(m) => m.get_mut(&Key::str(&k)),
            Kind::List(l) => k.parse::<usize>().ok().and_then(|i| l.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| format!("path {path} does not exist"))?;
    }
    Ok((cur, seg_key(last)))
}

fn add(doc: &mut Node, path: &Path, value: Node) -> Result<(), String> {
    if path.0.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (target, key) = parent(doc, path)?;
    match &mut target.kind {
        Kind::Map(m) => {
            m.insert(Key(Node::str(key, value.span)), value);
            Ok(())
        }
        Kind::List(items) => {
            let i = if key == "-" {
                items.len()
            } else {
                key.parse::<usize>()
                    .map_err(|_| format!("'{key}' is not a list index"))?
            };
            if i > items.len() {
                return Err(format!("index {i} is out of range"));
            }
            items.insert(i, value);
            Ok(())
        }
        _ => Err(format!("cannot add below a scalar at {path}")),
    }
}

fn remove(doc: &mut Node, path: &Path) -> Result<Node, String> {
    let (target, key) = parent(doc, path)?;
    match &mut target.kind {
        Kind::Map(m) => m
            .shift_remove(&Key::str(&key))
            .ok_or_else(|| format!("path {path} does not exist")),
        Kind::List(l) => {
            let i = key
                .parse::<usize>()
                .map_err(|_| format!("'{key}' is not a list index"))?;
            if i >= l.len() {
                return Err(format!("index {i} is out of range"));
            }
            Ok(l.remove(i))
        }
        _ => Err(format!("path {path} does not exist")),
    }
}
