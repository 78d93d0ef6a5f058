//! Front-ends: each turns its format's inputs and directives into layers + a `RuleSet` and
//! runs the one merge engine. Shared here: the input and result types every front-end uses.

pub mod cloudinit;
pub mod deckhand;
pub mod heat;
pub mod hiera;
pub mod lookup;
pub mod merge;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::load::{self, LoadOptions};
use crate::merge::Trace;
use crate::value::{Node, Reload, SourceId, SourceMap, Span};

/// One input as read by the CLI: a display name, its bytes and, for a file, how to read its
/// text again after the text is released.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
    pub reload: Option<Reload>,
}

impl Input {
    /// An input held only in memory (its text is never released).
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Input {
        Input {
            name: name.into(),
            bytes: bytes.into(),
            reload: None,
        }
    }
}

/// Settings every front-end honours.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub load: LoadOptions,
    /// Record a provenance trace.
    pub explain: bool,
}

/// What a front-end produced.
#[derive(Debug)]
pub struct Rendered {
    /// The result; for a stream (`stream` is set), a list with one item per document.
    pub doc: Node,
    /// First line of YAML output (e.g. `#cloud-config`).
    pub header: Option<&'static str>,
    pub warnings: Vec<Warning>,
    pub trace: Option<Trace>,
    /// Set when the result is a stream of documents (Deckhand): YAML writes each item of
    /// `doc` as a document of its own, JSON the list as an array, `--explain` explains each
    /// document and `--explain=/N/...` addresses document N.
    pub stream: Option<Stream>,
}

/// What the explanation says about the documents of a stream, one entry per item of `doc`.
#[derive(Debug, Default)]
pub struct Stream {
    pub docs: Vec<StreamDoc>,
    /// Trace layer and name of every document that was rendered (also those not in the
    /// result, such as abstract ones), to name the document of a step.
    pub names: Vec<(u32, String)>,
}

/// One document of a stream as a whole.
#[derive(Clone, Debug)]
pub struct StreamDoc {
    /// The trace layer (`Step::layer`) of the steps that rendered this document; their paths
    /// are relative to the document (`/data/a`).
    pub layer: u32,
    /// Trace layers of the documents it inherited from, nearest first: their steps are part
    /// of a value's history.
    pub chain: Vec<u32>,
    /// How the system names the document (Deckhand: `[schema, layer] name`).
    pub title: String,
    pub at: Span,
    /// The documents it inherited from, nearest first: title and position.
    pub parents: Vec<(String, Span)>,
}

/// Checks an input's size and text encoding and adds it to the source map.
pub fn add_text_input(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
) -> Result<SourceId> {
    check_size(&input, settings)?;
    if input.bytes.is_empty() {
        return Err(
            Error::new(ErrorKind::Parse, format!("{} is empty", input.name))
                .in_file(&input.name)
                .hint("give a file with content, or leave it out"),
        );
    }
    load::check_binary(&input.bytes, &input.name)?;
    match load::decode_utf8(input.bytes) {
        Ok(text) => Ok(sources.add_reloadable(input.name, text, input.reload)),
        Err((lossy, at)) => {
            let id = sources.add(input.name, lossy);
            Err(load::utf8_error(id, at))
        }
    }
}

/// A layer's values are built from its text: without `--explain` the text is released (a
/// file's text is read again only if a message needs a position in it). Keeps W1's peak
/// memory within 3x its input (docs/PERF.md, "Memory").
pub fn built_from(id: SourceId, sources: &mut SourceMap, settings: &Settings) {
    if !settings.explain {
        sources.release(id);
    }
}

pub fn check_size(input: &Input, settings: &Settings) -> Result<()> {
    let max = settings.load.max_input_size;
    if input.bytes.len() > max {
        return Err(Error::new(
            ErrorKind::Limit,
            format!(
                "{} is {} bytes, more than the limit of {max}",
                input.name,
                input.bytes.len()
            ),
        )
        .in_file(&input.name)
        .hint("raise the limit with --max-input-size BYTES"));
    }
    Ok(())
}

/// A span covering the start of a source (for whole-file diagnostics).
pub fn file_span(id: SourceId) -> Span {
    Span::new(id, 0, 0)
}
