//! The `strata diff` reports: the human one (changes grouped by the input line that caused
//! them, each with where its value comes from now and came from before), `--stat` (one line
//! per changed top-level key) and JSON (one entry per changed path, both provenances).

use super::{counts, At, CauseKind, Change, Kind, Provenance};
use crate::render::explain::short_value;
use crate::value::{Node, Path, Seg};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::io::Write;

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";

fn mark(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Changed => ("~", "\x1b[33m"),
        Kind::Added => ("+", "\x1b[32m"),
        Kind::Removed => ("-", "\x1b[31m"),
        Kind::Moved => (">", "\x1b[36m"),
    }
}

/// The path as a reader looks for it: in a stream, the document's title and the pointer
/// inside the document.
fn shown_path(c: &Change) -> String {
    path_text(c.document.as_deref(), &c.path.0)
}

fn path_text(document: Option<&str>, segs: &[Seg]) -> String {
    match document {
        Some(title) => {
            let inner = Path(segs.iter().skip(1).cloned().collect());
            format!(
                "{title}: {}",
                if inner.0.is_empty() {
                    "/".into()
                } else {
                    inner.to_string()
                }
            )
        }
        None if segs.is_empty() => "/".into(),
        None => Path(segs.to_vec()).to_string(),
    }
}

fn value_text(n: Option<&Node>) -> String {
    n.map(short_value).unwrap_or_default()
}

fn describe(p: &Provenance) -> String {
    let mut out = String::new();
    match &p.at {
        Some(at) => {
            let _ = write!(out, "{at}");
        }
        None => out.push_str("(made by the merge)"),
    }
    if let Some(o) = p.outcome {
        let _ = write!(out, " {o}");
    }
    if let Some(r) = &p.rule {
        let _ = write!(out, " by {r}");
        if let Some(at) = &p.rule_at {
            let _ = write!(out, " ({at})");
        }
    }
    let label = match p.outcome {
        Some("concatenated") => "from",
        Some("substituted") => "inserting",
        _ => "ignored",
    };
    for (list, label) in [(&p.overrode, "overrode"), (&p.parts, label)] {
        for (value, at) in list {
            let _ = write!(out, "; {label} {value}");
            if let Some(at) = at {
                let _ = write!(out, " at {at}");
            }
        }
    }
    out
}

/// A group's cause: its `file:line` and what that line is, when it is not the value's.
fn header(c: &Change) -> (String, &'static str) {
    let cause = &c.cause;
    let at = format!("{}:{}", cause.file, cause.line);
    match cause.by {
        CauseKind::Value => (at, ""),
        CauseKind::Rule => (at, " (rule)"),
        CauseKind::Gone => (at, " (base; its value is gone)"),
        CauseKind::Unknown => ("(no input line)".into(), ""),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The human report: changes grouped by cause, in the order each cause first shows.
pub(crate) fn write_human(
    changes: &[Change],
    colour: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let paint = |code: &str, text: &str| {
        if colour {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    };
    let mut groups: Vec<((String, &str), Vec<&Change>)> = Vec::new();
    let mut moved = Vec::new();
    for c in changes {
        if c.kind == Kind::Moved {
            moved.push(c);
            continue;
        }
        let h = header(c);
        match groups.iter_mut().find(|(k, _)| *k == h) {
            Some((_, list)) => list.push(c),
            None => groups.push((h, vec![c])),
        }
    }
    let mut text = String::new();
    for ((at, what), list) in &groups {
        let n = plural(list.len(), "change", "changes");
        let under = match common_path(list) {
            Some(p) => format!(" `{p}`"),
            None => String::new(),
        };
        let _ = writeln!(text, "{}{under}{what} → {n} in the output", paint(BOLD, at));
        for c in list {
            line_into(&mut text, c, &paint);
        }
    }
    if !moved.is_empty() {
        let _ = writeln!(
            text,
            "{}",
            paint(BOLD, "moved (the same value, now from another file)")
        );
        for c in &moved {
            line_into(&mut text, c, &paint);
        }
    }
    let [ch, add, rm, mv] = counts(changes);
    if changes.is_empty() {
        text.push_str("no changes\n");
    } else {
        let _ = writeln!(text, "{ch} changed, {add} added, {rm} removed, {mv} moved");
    }
    out.write_all(text.as_bytes())
}

/// Where a group's changes are: the longest path all of them lie under, as the report shows
/// paths (`None` when that is the whole document).
fn common_path(list: &[&Change]) -> Option<String> {
    let first = list.first()?;
    let mut len = first.path.0.len();
    for c in list {
        if c.document != first.document {
            return None;
        }
        len = len.min(
            first
                .path
                .0
                .iter()
                .zip(&c.path.0)
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    let shown = path_text(first.document.as_deref(), &first.path.0[..len]);
    (shown != "/").then_some(shown)
}

fn line_into(text: &mut String, c: &Change, paint: &dyn Fn(&str, &str) -> String) {
    let (sign, code) = mark(c.kind);
    let what = match c.kind {
        Kind::Changed => format!(
            "{} → {}",
            value_text(c.old.as_ref()),
            value_text(c.new.as_ref())
        ),
        Kind::Removed => value_text(c.old.as_ref()),
        Kind::Added | Kind::Moved => value_text(c.new.as_ref()),
    };
    let _ = writeln!(text, "  {} {}: {what}", paint(code, sign), shown_path(c));
    if let Some(h) = &c.head {
        let _ = writeln!(text, "      now {}", describe(h));
    }
    if let Some(b) = &c.base {
        let _ = writeln!(text, "      was {}", describe(b));
    }
}

/// `--stat`: one line per changed top-level key (per document in a stream).
pub(crate) fn write_stat(changes: &[Change], out: &mut dyn Write) -> std::io::Result<()> {
    let mut rows: Vec<(String, [usize; 4])> = Vec::new();
    for c in changes {
        let key = match (&c.document, c.path.0.first()) {
            (Some(t), _) => t.clone(),
            (None, Some(Seg::Key(k))) => k.to_string(),
            (None, Some(Seg::Index(i))) => i.to_string(),
            (None, None) => "/".into(),
        };
        let at = match rows.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                rows.push((key, [0; 4]));
                rows.len() - 1
            }
        };
        rows[at].1[c.kind as usize] += 1;
    }
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for (key, n) in &rows {
        let parts: Vec<String> = [Kind::Changed, Kind::Added, Kind::Removed, Kind::Moved]
            .iter()
            .filter(|k| n[**k as usize] > 0)
            .map(|k| format!("{} {}", n[*k as usize], k.as_str()))
            .collect();
        let pad = width - key.chars().count();
        let _ = writeln!(text, " {key}{} | {}", " ".repeat(pad), parts.join(", "));
    }
    let (one, many) = if changes.iter().any(|c| c.document.is_some()) {
        ("document", "documents")
    } else {
        ("top-level key", "top-level keys")
    };
    let _ = writeln!(
        text,
        " {}, {}",
        plural(rows.len(), one, many),
        plural(changes.len(), "change", "changes")
    );
    out.write_all(text.as_bytes())
}

fn at_json(at: Option<&At>) -> Value {
    at.map_or(Value::Null, |a| Value::String(a.to_string()))
}

fn value_json(n: Option<&Node>) -> Value {
    let Some(n) = n else { return Value::Null };
    crate::render::json::to_compact(n)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| Value::String(short_value(n)))
}

fn priors_json(list: &[(String, Option<At>)]) -> Value {
    list.iter()
        .map(|(v, at)| json!({"value": v, "at": at_json(at.as_ref())}))
        .collect()
}

fn provenance_json(p: Option<&Provenance>) -> Value {
    let Some(p) = p else { return Value::Null };
    json!({
        "at": at_json(p.at.as_ref()),
        "outcome": p.outcome,
        "rule": p.rule,
        "rule_at": at_json(p.rule_at.as_ref()),
        "overrode": priors_json(&p.overrode),
        "others": priors_json(&p.parts),
    })
}

/// JSON for bots: `{"changes": [...], "summary": {...}}`, one entry per changed path.
pub(crate) fn write_json(changes: &[Change], out: &mut dyn Write) -> std::io::Result<()> {
    let entries: Vec<Value> = changes
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("path".into(), Value::String(c.path.to_string()));
            if let Some(d) = &c.document {
                m.insert("document".into(), Value::String(d.clone()));
            }
            m.insert("change".into(), Value::String(c.kind.as_str().into()));
            m.insert("old".into(), value_json(c.old.as_ref()));
            m.insert("new".into(), value_json(c.new.as_ref()));
            let by = match c.cause.by {
                CauseKind::Value => "value",
                CauseKind::Rule => "rule",
                CauseKind::Gone => "gone",
                CauseKind::Unknown => "unknown",
            };
            let cause = if c.cause.by == CauseKind::Unknown {
                json!({"by": by})
            } else {
                json!({"file": c.cause.file, "line": c.cause.line, "by": by})
            };
            m.insert("cause".into(), cause);
            m.insert("base".into(), provenance_json(c.base.as_ref()));
            m.insert("head".into(), provenance_json(c.head.as_ref()));
            Value::Object(m)
        })
        .collect();
    let [ch, add, rm, mv] = counts(changes);
    let doc = json!({
        "changes": entries,
        "summary": {"changed": ch, "added": add, "removed": rm, "moved": mv},
    });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(std::io::Error::other)?;
    out.write_all(b"\n")
}
