//! One error type for the whole library, its exit codes, and the `file:line:col` + snippet +
//! caret rendering shared by errors and warnings.

#![warn(missing_docs)]

use crate::value::{Path, SourceMap, Span};
pub mod warning;

use std::fmt::Write as _;
pub use warning::{Kind as WarnKind, Warning};

/// What went wrong, which decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file could not be read or written.
    Io,
    /// The input does not parse (YAML, JSON, MIME).
    Parse,
    /// A resource limit was hit (size, depth, alias expansion, documents).
    Limit,
    /// A directive is invalid (merge_how, strategy, rule).
    Directive,
    /// The inputs contradict each other (conflicting strategies, uniqueness).
    Conflict,
    /// A merge could not be carried out.
    Merge,
    /// A warning promoted by `--strict`.
    Strict,
    /// The command line is wrong.
    Usage,
}

/// A library error: a message, where it happened, and what would fix it.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// What went wrong, as the exit code and the message prefix see it.
    pub kind: ErrorKind,
    /// The message, without the `error:` prefix or a position.
    pub message: String,
    /// Position in a source, when there is one.
    pub span: Option<Span>,
    /// File name for errors about a whole file (unreadable, too large) with no source text.
    pub file: Option<String>,
    /// What would fix it, printed as `hint: …` after the message.
    pub hint: Option<String>,
    /// Where in the document the error applies, for merge and rule errors.
    pub path: Option<Path>,
    /// The error's code and notes (boxed: most errors have neither).
    pub extra: Option<Box<Extra>>,
}

/// What some errors carry besides their message.
#[derive(Clone, Debug, Default)]
pub struct Extra {
    /// The imitated system's own name for the error (Deckhand's exception class, e.g.
    /// `IndeterminateDocumentParent`), printed before the message: `error: CODE: message`.
    pub code: Option<&'static str>,
    /// Further positions the message refers to (the candidates of an ambiguous parent, the
    /// documents of a cycle), each printed as `= note: TEXT at file:line:col`.
    pub notes: Vec<(String, Span)>,
    /// Further errors reported with this one (every violation of a model at once), each
    /// printed in full after it.
    pub more: Vec<Error>,
    /// Warnings gathered before the error, printed before it.
    pub warnings: Vec<Warning>,
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with `message`, at no position yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            span: None,
            file: None,
            hint: None,
            path: None,
            extra: None,
        }
    }
    /// The error at `span` (a `Span::NONE` leaves it without a position).
    pub fn at(mut self, span: Span) -> Error {
        if !span.is_none() {
            self.span = Some(span);
        }
        self
    }
    /// The error about the whole file `file` (no source text to point into).
    pub fn in_file(mut self, file: impl Into<String>) -> Error {
        self.file = Some(file.into());
        self
    }
    /// The error with a hint saying what would fix it.
    pub fn hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }
    /// The error about the value at `path` in the document.
    pub fn with_path(mut self, path: Path) -> Error {
        self.path = Some(path);
        self
    }
    /// The imitated system's name for this error (see [`Extra::code`]).
    pub fn code(mut self, code: &'static str) -> Error {
        self.extra.get_or_insert_with(Box::default).code = Some(code);
        self
    }
    /// Another position the message refers to.
    pub fn note(mut self, text: impl Into<String>, span: Span) -> Error {
        self.extra
            .get_or_insert_with(Box::default)
            .notes
            .push((text.into(), span));
        self
    }
    /// Another error reported after this one.
    pub fn also(mut self, other: Error) -> Error {
        self.extra.get_or_insert_with(Box::default).more.push(other);
        self
    }
    /// Warnings the render gathered before it failed: they are printed before the error.
    pub fn after_warnings(mut self, warnings: Vec<Warning>) -> Error {
        if !warnings.is_empty() {
            let extra = self.extra.get_or_insert_with(Box::default);
            let later = std::mem::replace(&mut extra.warnings, warnings);
            extra.warnings.extend(later);
        }
        self
    }
    /// Takes the warnings gathered before the error.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        self.extra
            .as_mut()
            .map(|e| std::mem::take(&mut e.warnings))
            .unwrap_or_default()
    }
    /// The imitated system's name for this error, if it has one.
    pub fn code_name(&self) -> Option<&'static str> {
        self.extra.as_ref().and_then(|e| e.code)
    }
    /// The other positions the message refers to.
    pub fn notes(&self) -> &[(String, Span)] {
        self.extra.as_ref().map_or(&[], |e| e.notes.as_slice())
    }

    /// The message with the code in front, as `render` prints it.
    pub fn full_message(&self) -> String {
        match self.code_name() {
            Some(code) => format!("{code}: {}", self.message),
            None => self.message.clone(),
        }
    }

    /// `1` for anything wrong with the input, `2` for a wrong command line.
    pub fn exit_code(&self) -> u8 {
        match self.kind {
            ErrorKind::Usage => 2,
            _ => 1,
        }
    }

    /// `error: ...` with position, source line, caret and hint.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = render(
            "error",
            &self.full_message(),
            self.span,
            self.file.as_deref(),
            None,
            sources,
        );
        for (text, span) in self.notes() {
            let _ = match sources.locate(*span) {
                Some(loc) => writeln!(out, "  = note: {text} at {loc}"),
                None => writeln!(out, "  = note: {text}"),
            };
        }
        if let Some(hint) = &self.hint {
            let _ = writeln!(out, "  = hint: {hint}");
        }
        for more in self.extra.iter().flat_map(|e| e.more.iter()) {
            out.push_str(&more.render(sources));
        }
        out
    }
}

fn render(
    level: &str,
    message: &str,
    span: Option<Span>,
    file: Option<&str>,
    hint: Option<&str>,
    sources: &SourceMap,
) -> String {
    let mut out = format!("{level}: {message}\n");
    let located = span.and_then(|s| Some((s, sources.locate(s)?)));
    if let Some((span, loc)) = located {
        let _ = writeln!(out, "  --> {loc}");
        snippet(&mut out, span, &loc, sources);
    } else if let Some(file) = file {
        let _ = writeln!(out, "  --> {file}");
    }
    if let Some(hint) = hint {
        let _ = writeln!(out, "  = hint: {hint}");
    }
    out
}

/// The source line a span starts on, with a caret under the span (nothing when the text is
/// no longer there).
pub(crate) fn snippet(
    out: &mut String,
    span: Span,
    loc: &crate::value::Location<'_>,
    sources: &SourceMap,
) {
    let Some((src, start, _)) = sources.source_of(span).filter(|_| loc.line > 0) else {
        return;
    };
    let line = src.line_text(loc.line);
    // Where the span starts within its line, in bytes (the line is a slice of the text).
    let line_start = (line.as_ptr() as usize).saturating_sub(src.text().as_ptr() as usize);
    let mut at = start.saturating_sub(line_start).min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    // Long lines: a window of 79 characters before the span and 120 in all, marked with '…'.
    // Bounded work per message: many warnings on one long line stay linear.
    let from = line[..at]
        .char_indices()
        .rev()
        .nth(78)
        .map_or(0, |(i, _)| i);
    let skipped = from > 0;
    let rest = &line[from..];
    let mut shown: String = rest
        .chars()
        .take(120)
        .map(|c| if c == '\t' || c.is_control() { ' ' } else { c })
        .collect();
    if skipped {
        shown.insert(0, '…');
    }
    // A text indented in its file (a literal block's content) is shown as the file shows it.
    let indent = if skipped { 0 } else { src.indent() };
    shown.insert_str(0, &" ".repeat(indent));
    if rest.chars().nth(120).is_some() {
        shown.push('…');
    }
    let gutter = loc.line.to_string();
    let pad = " ".repeat(gutter.len());
    let _ = writeln!(out, "{pad} |");
    let _ = writeln!(out, "{gutter} | {shown}");
    let caret_len = sources
        .slice(span)
        .map(|s| {
            s.chars()
                .take_while(|c| *c != '\n' && *c != '\r')
                .take(60)
                .count()
        })
        .unwrap_or(1)
        .clamp(1, 60);
    let col = (line[from..at].chars().count() + 1 + usize::from(skipped) + indent)
        .min(shown.chars().count() + 1);
    let _ = writeln!(
        out,
        "{pad} | {}{}",
        " ".repeat(col - 1),
        "^".repeat(caret_len)
    );
}

/// Levenshtein distance between two short names, for "did you mean".
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let cur = row.get(j + 1).copied().unwrap_or(0);
            let left = row.get(j).copied().unwrap_or(0);
            let best = (prev + usize::from(ca != *cb)).min(cur + 1).min(left + 1);
            if let Some(slot) = row.get_mut(j + 1) {
                *slot = best;
            }
            prev = cur;
        }
    }
    row.last().copied().unwrap_or(0)
}
