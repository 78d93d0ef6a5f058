//! The template of a `## template: jinja` part rendered as cloud-init 22.4 renders it
//! (`handlers/jinja_template.py`, `templater.py`): with the instance data (`instance`), by
//! minijinja configured as cloud-init configures Jinja2 (`trim_blocks`, no `lstrip_blocks`, no
//! autoescape, the first trailing newline kept, the `do` statement, Python's methods), values
//! printed as Python's `str()` prints them (`py`), an undefined lookup printed as
//! cloud-init's `CI_MISSING_JINJA_VAR/name` marker, Python's `"fmt" % args` (`printf`) and
//! mutable list literals (`pylist`) by rewriting the source (`rewrite`), and errors named as
//! Jinja2 names them.

mod json;
mod markup;
mod printf;
mod py;
mod pylist;
mod rewrite;
mod text;
mod urlize;
mod wrap;

use super::instance::InstanceData;
use minijinja::machinery::{tokenize, Token};
use minijinja::value::Value;
use minijinja::{Environment, ErrorKind, UndefinedBehavior};
use py::py_str;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// The most engine instructions one template may run (minijinja's fuel): a template that
/// loops longer stops the run as a resource limit does, where cloud-init would keep going.
pub const FUEL: u64 = 20_000_000;

/// cloud-init's marker for an undefined variable (`templater.MISSING_JINJA_PREFIX`).
pub const MISSING_PREFIX: &str = "CI_MISSING_JINJA_VAR/";

/// What cloud-init makes of a jinja part.
#[derive(Debug)]
pub enum Rendered {
    /// The rendered text (the header line removed), the undefined names it printed (as
    /// cloud-init lists them in its warning) and the template line and column of the first
    /// one, and whether each line of the text came from the template line of the same number
    /// (then its positions are the template's lines).
    Text {
        text: String,
        missing: Vec<String>,
        first_missing: Option<(usize, usize)>,
        aligned: bool,
    },
    /// The first line is not `## template: jinja` as `templater.detect_template` reads it
    /// (`NotJinjaError`): cloud-init drops the part.
    NotJinja,
    /// cloud-init drops the part: `kind` is the Python exception, `line` the template line
    /// (1 is the line after the header), `col` 1-based when known.
    Failed {
        kind: &'static str,
        message: String,
        line: Option<usize>,
        col: Option<usize>,
    },
}

/// `templater.detect_template`: the payload's first line is `##\s*template:(.*)`
/// (case-insensitive) naming `jinja`; returns the text after it.
pub fn template_body(payload: &str) -> Option<&str> {
    let (ident, rest) = payload.split_once('\n').unwrap_or((payload, ""));
    let after = ident.strip_prefix("##")?.trim_start_matches(is_py_space);
    let name = after
        .get(..9)
        .filter(|h| h.eq_ignore_ascii_case("template:"))?;
    let kind = after[name.len()..].trim_matches(is_py_space);
    kind.eq_ignore_ascii_case("jinja").then_some(rest)
}

fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// Renders a jinja part's payload (its first line included) as cloud-init's handler does.
pub fn render(payload: &str, data: &InstanceData) -> Rendered {
    let Some(body) = template_body(payload) else {
        return Rendered::NotJinja;
    };
    // Jinja2 reads every \r\n and \r as \n and drops one trailing newline; cloud-init adds
    // one back when the template text ended with one.
    let normalized = body.replace("\r\n", "\n").replace('\r', "\n");
    let Lookups {
        source,
        names,
        shifts,
    } = mark_lookups(&normalized);
    let names = Arc::new(names);
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Lenient);
    py::install(&mut env);
    text::install(&mut env);
    markup::install(&mut env);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_fuel(Some(FUEL));
    if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(false)
        .keep_trailing_newline(false)
        .build()
    {
        env.set_syntax(syntax);
    }
    env.set_formatter(|out, _state, value| {
        out.write_str(&py_str(value))
            .map_err(minijinja::Error::from)
    });
    let table = Arc::clone(&names);
    let first = Arc::new(AtomicUsize::new(usize::MAX));
    let first_seen = Arc::clone(&first);
    let marked = move |value: Value, index: usize| -> Value {
        if value.is_undefined() {
            let _ = first_seen.compare_exchange(usize::MAX, index, Relaxed, Relaxed);
            let name = table.get(index).map_or("None", |(n, _)| n.as_str());
            Value::from(format!("{MISSING_PREFIX}{name}"))
        } else {
            value
        }
    };
    let text = marked.clone();
    env.add_function("__ci_var", marked);
    // A lookup Jinja2 makes text of (`~`, a text filter): Python's `str()` of it.
    env.add_function("__ci_str", move |value: Value, index: usize| -> Value {
        let v = text(value, index);
        match v.kind() {
            minijinja::value::ValueKind::String => v,
            _ => Value::from(py_str(&v)),
        }
    });
    let result = env
        .template_from_str(&source)
        .and_then(|t| t.render_with_spans(data.vars.clone()));
    match result {
        Ok((mut text, spans)) => {
            let aligned = lines_aligned(&text, &source, &spans);
            if body.ends_with('\n') {
                text.push('\n');
            }
            let missing = missing_names(&text);
            let first_missing = names
                .get(first.load(Relaxed))
                .map(|&(_, at)| line_col(&normalized, at));
            Rendered::Text {
                text,
                missing,
                first_missing,
                aligned,
            }
        }
        Err(e) => failure(&e, &source, &shifts),
    }
}

/// Whether every line of the output starts with text the template's line of the same number
/// produced.
fn lines_aligned(text: &str, source: &str, spans: &[minijinja::OutputSpan]) -> bool {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let source_line = |at: usize| line_starts.partition_point(|&s| s <= at);
    let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
    for (n, at) in starts.enumerate() {
        if at >= text.len() {
            break;
        }
        let i = spans.partition_point(|s| s.output_range().end <= at);
        let Some(span) = spans.get(i).filter(|s| s.output_range().start <= at) else {
            return false;
        };
        let from = match span.kind() {
            minijinja::OutputSpanKind::Raw => {
                span.source_range().start + (at - span.output_range().start)
            }
            _ => span.source_range().start,
        };
        if source_line(from) != n + 1 {
            return false;
        }
    }
    true
}

/// The names cloud-init lists in its "Could not render jinja template variables" warning:
/// each marker and the text up to the next white space.
fn missing_names(text: &str) -> Vec<String> {
    text.match_indices(MISSING_PREFIX)
        .map(|(at, _)| {
            let rest = &text[at + MISSING_PREFIX.len()..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            rest[..end].replace(MISSING_PREFIX, "")
        })
        .filter(|n| !n.is_empty())
        .collect()
}

fn failure(e: &minijinja::Error, source: &str, shifts: &[(usize, usize)]) -> Rendered {
    let line = e.line();
    let col = e.range().map(|r| {
        let at = original_offset(r.start, shifts);
        let before = source.get(..r.start).unwrap_or(source);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line_start = original_offset(line_start, shifts);
        at.saturating_sub(line_start) + 1
    });
    let detail = e.detail().unwrap_or("").to_string();
    let (kind, message) = match e.kind() {
        ErrorKind::SyntaxError => ("TemplateSyntaxError", detail),
        ErrorKind::UndefinedError => (
            "UndefinedError",
            undefined_detail(&detail.replace('`', "'")),
        ),
        ErrorKind::InvalidOperation if detail.contains("undefined") && detail.contains(" - ") => (
            "TypeError",
            subtraction_hint(source, e.range()).unwrap_or(detail),
        ),
        ErrorKind::InvalidOperation if python_error(&detail).is_some() => {
            python_error(&detail).unwrap_or(("TypeError", String::new()))
        }
        ErrorKind::OutOfFuel => ("ResourceLimit", format!("more than {FUEL} template steps")),
        kind => ("TemplateError", format!("{kind}: {detail}")),
    };
    Rendered::Failed {
        kind,
        message,
        line,
        col,
    }
}

/// A Python exception raised by strata's Python helpers (`printf`, `pylist`): its name and
/// message.
fn python_error(detail: &str) -> Option<(&'static str, String)> {
    [
        "TypeError",
        "ValueError",
        "AttributeError",
        "AssertionError",
        "FilterArgumentError",
        "IndexError",
        "KeyError",
        "OverflowError",
    ]
    .into_iter()
    .find_map(|kind| {
        let rest = detail.strip_prefix(kind)?.strip_prefix(": ")?;
        Some((kind, rest.to_string()))
    })
}

fn undefined_detail(detail: &str) -> String {
    if detail.is_empty() {
        "an undefined value was used (its attribute or item looked up, or used in arithmetic)"
            .into()
    } else {
        detail.to_string()
    }
}

/// cloud-init's `UndefinedJinjaVariable.__sub__` message for `{{ a.b-c }}`.
fn subtraction_hint(source: &str, range: Option<std::ops::Range<usize>>) -> Option<String> {
    let text = source.get(range?)?;
    let (a, b) = text.split_once('-')?;
    let this = a.trim().rsplit(['.', '(', ' ', ',']).next()?.trim();
    let other = b.trim().split([')', ' ', ',', '.']).next()?.trim();
    Some(format!(
        "Undefined jinja variable: \"{this}-{other}\". Jinja tried subtraction. Perhaps you meant \"{this}_{other}\"?"
    ))
}

fn original_offset(at: usize, shifts: &[(usize, usize)]) -> usize {
    let mut removed = 0;
    for &(new_at, added) in shifts {
        if new_at + added <= at {
            removed += added;
        } else if new_at <= at {
            return new_at - removed;
        }
    }
    at.saturating_sub(removed)
}

/// Wraps each `{{ path }}` (a name followed by `.attr`, `[const]`) in `__ci_var(path, N)` so
/// that an undefined result prints cloud-init's marker with the looked-up name (Jinja2's
/// `Undefined._undefined_name`).
fn mark_lookups(source: &str) -> Lookups {
    let tokens: Vec<_> = match tokenize(source, false, Default::default()).collect() {
        Ok(t) => t,
        Err(_) => {
            return Lookups {
                source: source.to_string(),
                names: Vec::new(),
                shifts: Vec::new(),
            }
        }
    };
    let mut edits = Vec::new();
    let mut names = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !matches!(tokens[i].0, Token::VariableStart) {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while end < tokens.len() && !matches!(tokens[end].0, Token::VariableEnd) {
            end += 1;
        }
        if let Some(name) = path_name(&tokens[start..end.min(tokens.len())]) {
            let (first, last) = (&tokens[start].1, &tokens[end - 1].1);
            edits.push((
                first.start_offset as usize,
                last.end_offset as usize,
                names.len(),
            ));
            names.push((name, first.start_offset as usize));
        }
        i = end + 1;
    }
    // Every insertion, in source order (a wrapped lookup never holds a list literal or `%`).
    let python = rewrite::edits(&tokens);
    // Lookups Jinja2 turns into text where they stand (`"x-" ~ a.b`, `"%s" % a.b`,
    // `a.b | upper`): an undefined one is cloud-init's marker there too.
    let mut edits: Vec<_> = edits
        .into_iter()
        .map(|(s, e, n)| (s, e, n, "__ci_var("))
        .collect();
    for &(a, b, as_text) in &python.paths {
        if let Some(name) = path_name(&tokens[a..b]) {
            let (first, last) = (&tokens[a].1, &tokens[b - 1].1);
            edits.push((
                first.start_offset as usize,
                last.end_offset as usize,
                names.len(),
                if as_text { "__ci_str(" } else { "__ci_var(" },
            ));
            names.push((name, first.start_offset as usize));
        }
    }
    let mut inserts: Vec<(usize, String)> = Vec::with_capacity(edits.len() * 2);
    for (s, e, n, wrap) in edits {
        inserts.push((s, wrap.to_string()));
        inserts.push((e, format!(", {n})")));
    }
    inserts.extend(python.inserts.iter().map(|&(at, t)| (at, t.to_string())));
    inserts.sort_by_key(|&(at, _)| at);
    let mut out = String::with_capacity(source.len() + inserts.len() * 12);
    let mut shifts = Vec::new();
    let mut at = 0;
    for (s, text) in &inserts {
        out.push_str(&source[at..*s]);
        shifts.push((out.len(), text.len()));
        out.push_str(text);
        at = *s;
    }
    out.push_str(&source[at..]);
    // `%` made `,` in place: same length, so no shift.
    let mut out = out.into_bytes();
    for c in python.commas {
        let moved: usize = inserts
            .iter()
            .take_while(|(s, _)| *s <= c)
            .map(|(_, t)| t.len())
            .sum();
        if out.get(c + moved) == Some(&b'%') {
            out[c + moved] = b',';
        }
    }
    Lookups {
        source: String::from_utf8(out).unwrap_or_else(|_| source.to_string()),
        names,
        shifts,
    }
}

/// A template source with its lookups wrapped.
struct Lookups {
    source: String,
    /// Each wrapped lookup's name and its offset in the original source.
    names: Vec<(String, usize)>,
    /// Where text was added: offset in the new source, length.
    shifts: Vec<(usize, usize)>,
}

/// The name an undefined lookup `a.b[0]["c"]` carries in Jinja2 (its last step), when the
/// tokens are exactly such a path.
fn path_name(tokens: &[(Token<'_>, minijinja::machinery::Span)]) -> Option<String> {
    let mut it = tokens.iter().map(|(t, _)| t).peekable();
    let mut name = match it.next()? {
        Token::Ident(n) if !matches!(*n, "true" | "false" | "none" | "True" | "False" | "None") => {
            n.to_string()
        }
        _ => return None,
    };
    while let Some(t) = it.next() {
        name = match (t, it.next()?) {
            (Token::Dot, Token::Ident(n)) => n.to_string(),
            (Token::Dot, Token::Int(n)) => n.to_string(),
            (Token::BracketOpen, key) => {
                let key = match key {
                    Token::Str(s) => s.to_string(),
                    Token::String(s) => s.to_string(),
                    Token::Int(n) => n.to_string(),
                    _ => return None,
                };
                match it.next()? {
                    Token::BracketClose => key,
                    _ => return None,
                }
            }
            _ => return None,
        };
    }
    Some(name)
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}
