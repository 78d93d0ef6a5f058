//! YAML → `Node` trees with a span on every node, read exactly as PyYAML's `safe_load` /
//! `safe_load_all` read them (every system strata imitates uses PyYAML or a port of it):
//!
//! ```text
//! text ─ scanner.rs + scan.rs ─▶ tokens ─ parser.rs ─▶ events ─ compose.rs ─▶ Node
//!                                                    (tags typed by construct.rs)
//! ```
//!
//! The syntax is PyYAML's in every mode, leniencies included; `--yaml 1.2` changes only how
//! plain scalars are typed (`resolve.rs`). Limits (nesting depth, alias expansion, documents
//! per stream) are checked while composing; nothing recurses on the input's depth.

mod compose;
mod construct;
mod parser;
mod psych;
mod record;
mod scan;
mod scanner;
pub(crate) use scanner::is_indicator;
mod split;
mod split_map;
mod whole;

use super::{check_text, LoadOptions, Text};
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::value::{Kind, Node, SourceId, Span};
use compose::Composer;
use parser::{Event, Parser};
use scanner::SyntaxError;
use whole::Whole;

/// Loads every document of a YAML stream, as `safe_load_all` does (a document's constructor
/// errors are raised before the next document is read). An empty stream gives no documents.
/// A long stream is loaded on `opts.threads.jobs` threads (`split.rs`), with the same result.
pub fn load_stream(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    split::load_stream_split(Whole::Here(text), source, opts, warnings)
}

/// `load_stream` of an input's text, which it takes over when it may (`Text::spend`) and the
/// text is long enough to be cut: the text is then given back a piece at a time as the pieces
/// load (`whole::Whole`), on one thread or several.
pub fn load_stream_text(
    text: &mut Text,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    if opts.threads.long_enough_to_cut(text.as_str().len()) {
        if let Some((owned, again)) = text.spend() {
            let whole = Whole::Spend(owned, &again);
            return split::load_stream_split(whole, source, opts, warnings);
        }
    }
    load_stream(text.as_str(), source, opts, warnings)
}

/// Whether loading `text` (as a stream or as one document) is cut into pieces loaded on
/// `opts.threads.jobs` threads: such a text is best loaded alone, with every thread on it.
///
/// Only when no piece holds more than half the text: a file whose bulk sits under one key
/// (`items:` of a long list) gains nothing from its cuts, and is better parsed beside another.
pub fn splits(text: &str, opts: &LoadOptions) -> bool {
    let min_piece = opts.threads.min_piece();
    if !opts.threads.parallel() || !opts.threads.long_enough_to_cut(text.len()) {
        return false;
    }
    let styles = opts.styles.is_some();
    let mut cuts = split::cuts(text, opts.threads.jobs, min_piece, styles);
    if cuts.is_empty() {
        cuts = split_map::cuts(text, opts.threads.jobs, min_piece, styles);
    }
    let ends = cuts.iter().copied().chain([text.len()]);
    let largest = ends
        .scan(0, |at, end| {
            let len = end - *at;
            *at = end;
            Some(len)
        })
        .max()
        .unwrap_or(text.len());
    !cuts.is_empty() && largest <= text.len() / 2
}

/// One pass over a stream: its documents, and the nodes aliases added (the budget's count).
fn load_counted(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<Node>, usize)> {
    check_text(text, source)?;
    let mut parser = Parser::new(text);
    parser.scanner.libyaml = opts.dialect.psych.is_some();
    let mut composer = Composer::new(source, opts, warnings);
    start_recording(&mut parser, &mut composer, text, source);
    let mut docs = Vec::new();
    while let Some(ev) = parser
        .next_event()
        .map_err(|e| syntax_error(e, source, text))?
    {
        if let Some(doc) = composer.event(ev)? {
            if let Some(e) = doc.error {
                return Err(e);
            }
            docs.push(doc.root);
        }
    }
    let expanded = composer.expanded();
    stop_recording(parser, composer);
    Ok((docs, expanded))
}

/// When the run keeps what people wrote, the scanner notes comments and blank lines and the
/// composer spellings (`record.rs`).
fn start_recording<'a>(
    parser: &mut Parser<'a>,
    composer: &mut Composer<'a, '_>,
    text: &'a str,
    source: SourceId,
) {
    if composer.opts().styles.is_some() {
        parser.scanner.record = true;
        let opts = composer.opts();
        composer.record = Some(record::Recorder::new(
            text,
            source,
            opts.dialect.version,
            opts.continues,
        ));
    }
}

/// Hands what was recorded to the run (a text that loaded).
fn stop_recording(parser: Parser<'_>, composer: Composer<'_, '_>) {
    if let (Some(sink), Some(r)) = (composer.opts().styles.as_ref(), composer.record) {
        sink.put(r.finish(&parser.scanner.runs));
    }
}

/// Loads a stream that must hold at most one document, as `safe_load` does: a second
/// document is an error (reported before any constructor error of the first). `Ok(None)`
/// for an empty stream.
/// A long document whose root is a block mapping is loaded on `opts.threads.jobs` threads
/// (`split_map.rs`), with the same result.
pub fn load_single(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    split_map::load_single_split(text, source, opts, warnings)
}

/// `load_single` in one pass.
fn load_single_pass(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    check_text(text, source)?;
    let mut parser = Parser::new(text);
    parser.scanner.libyaml = opts.dialect.psych.is_some();
    let mut composer = Composer::new(source, opts, warnings);
    start_recording(&mut parser, &mut composer, text, source);
    let mut first = None;
    while let Some(ev) = parser
        .next_event()
        .map_err(|e| syntax_error(e, source, text))?
    {
        if first.is_some() {
            if let Event::DocumentStart = ev.event {
                return Err(Error::new(
                    ErrorKind::Parse,
                    "expected a single document in the stream, but found another document",
                )
                .at(Span::new(
                    source,
                    ev.start,
                    ev.end.max(ev.start + 1).min(text.len()),
                ))
                .hint("remove the '---' separator, or split the documents into separate files"));
            }
            continue;
        }
        if let Some(doc) = composer.event(ev)? {
            first = Some(doc);
            if opts.dialect.psych.is_some() {
                // Psych's `safe_load` reads the first document and stops.
                break;
            }
        }
    }
    stop_recording(parser, composer);
    match first {
        None => Ok(None),
        Some(doc) => match doc.error {
            Some(e) => Err(e),
            None => Ok(Some(doc.root)),
        },
    }
}

/// Runs the scanner and parser alone over a text and counts the events: the parse floor
/// the benchmarks compare whole runs with.
pub fn count_events(text: &str) -> std::result::Result<usize, String> {
    let mut parser = Parser::new(text);
    let mut n = 0;
    while parser
        .next_event()
        .map_err(|e| e.problem.clone())?
        .is_some()
    {
        n += 1;
    }
    Ok(n)
}

/// A scanner or parser error as strata reports it: PyYAML's words, the position of the
/// problem, and a hint.
fn syntax_error(e: SyntaxError, source: SourceId, text: &str) -> Error {
    let mut at = e.at.min(text.len());
    let message = match e.context {
        Some((context, _)) => format!("invalid YAML: {context}: {}", e.problem),
        None => format!("invalid YAML: {}", e.problem),
    };
    let at_end = at >= text.trim_end().len();
    // Other positions go in notes (placed by the source map, which knows where a text stands
    // in its file: a MIME part's lines are the file's).
    let mut note = None;
    if let Some((_, start)) = e.context.filter(|&(_, s)| s < at) {
        let line = |p: usize| text[..p].bytes().filter(|&b| b == b'\n').count() + 1;
        if at_end {
            // The file ends inside something left open: show where it was opened.
            note = Some(("the input ends", at));
            at = start;
        } else if line(start) != line(at) {
            note = Some(("the construct started", start));
        }
    }
    let hint = if e.problem.contains("'\\t'") {
        "YAML does not allow tabs for indentation or before a value: use spaces"
    } else if e.problem.contains("could not find expected ':'") {
        "a key must be followed by ': ' on the same line; quote the text if it is not a key"
    } else if at_end {
        "the document ends early: is the file truncated, or a quote or bracket left open?"
    } else if e.problem.contains("mapping values are not allowed") {
        "quote a value that contains ': ', or check the indentation of this line"
    } else {
        "check the indentation and quoting around this position"
    };
    let end = (at + 1).min(text.len()).max(at);
    let error = Error::new(ErrorKind::Parse, message)
        .at(Span::new(source, at, end))
        .hint(hint);
    match note {
        Some((what, p)) => error.note(what, Span::new(source, p, (p + 1).min(text.len()).max(p))),
        None => error,
    }
}

/// Deepest nesting of collections in a tree (a scalar is 0). Iterative.
pub fn tree_depth(node: &Node) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(node, 0usize)];
    while let Some((n, depth)) = todo.pop() {
        let children: Box<dyn Iterator<Item = &Node>> = match &n.kind {
            Kind::List(items) | Kind::Tuple(items) => Box::new(items.iter()),
            Kind::Map(m) | Kind::Set(m) => Box::new(m.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        todo.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

/// Number of nodes in a tree (for the alias expansion budget). Iterative.
pub fn count_nodes(node: &Node) -> usize {
    let mut count = 0usize;
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        count += 1;
        match &n.kind {
            Kind::List(items) | Kind::Tuple(items) => todo.extend(items.iter()),
            Kind::Map(m) | Kind::Set(m) => {
                count += m.len();
                todo.extend(m.values());
            }
            _ => {}
        }
    }
    count
}
