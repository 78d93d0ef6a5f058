//! Front-ends: each turns its format's inputs and directives into layers + a `RuleSet` and
//! runs the one merge engine. Every entry is `render(job, &mut Run)` (`run.rs`: sources,
//! settings, files). Shared here: the input type, the file store and the checks every
//! front-end uses; the result type is `crate::rendered`, which the renderers read without
//! importing this layer.

pub mod ardana;
pub mod cloudinit;
pub mod deckhand;
pub mod heat;
pub mod hiera;
pub mod lookup;
pub mod merge;
mod parse;
mod run;

use crate::error::{Error, ErrorKind, Result};
use crate::load::{self, LoadOptions};
use crate::value::{Reload, SourceId, SourceMap, Span};
use std::path::Path;

pub use crate::rendered::{Rendered, Stream, StreamDoc};
pub use parse::{parse_failures, parse_inputs, Parsed};
pub use run::{NoFiles, Run};

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

/// What a front-end that finds its own files reads (Hiera's levels and globs, a Datum tree,
/// an Ardana model directory): files by path and folder listings, served by the CLI; the
/// store of a `Run`.
pub trait Files {
    /// The file at `path`, or `None` when it does not exist.
    fn read(&mut self, path: &Path) -> Result<Option<Input>>;
    /// The file at `path` as an input named on the command line is read: `None` when nothing
    /// is there, but a folder is read, and refused in the CLI's words, rather than taken for
    /// an absent file (Datum's layer files).
    fn read_named(&mut self, path: &Path) -> Result<Option<Input>> {
        self.read(path)
    }
    /// The entries of a folder as (name, is a folder); empty when it is not a folder.
    fn list(&mut self, dir: &Path) -> Vec<(String, bool)>;
    /// Whether `path` is a symbolic link (Python's `os.walk` lists a link to a folder among
    /// the folders but does not go into it).
    fn is_link(&mut self, _path: &Path) -> bool {
        false
    }
    /// Whether this store keeps indexes of data files (`hiera::slice`) between runs.
    fn keeps_indexes(&self) -> bool {
        false
    }
    /// The index an earlier run kept for the file at `path` (checked by the caller).
    fn index(&mut self, _path: &Path) -> Option<Vec<u8>> {
        None
    }
    /// Keeps an index for the file at `path`, best effort (a store that cannot, drops it).
    fn keep_index(&mut self, _path: &Path, _index: &[u8]) {}
    /// The identity of a file that has not changed for a while (size, modification and
    /// change times, inode, device): while it stays the same, so do the bytes. `None`:
    /// unknown, or changed too recently for its times to tell.
    fn identity(&mut self, _path: &Path) -> Option<[u64; 5]> {
        None
    }
    /// Bytes `start..end` of the file at `path`.
    fn read_range(&mut self, _path: &Path, _start: usize, _end: usize) -> Option<Vec<u8>> {
        None
    }
    /// How to read the file at `path` again for a message, its text not being kept.
    fn reload(&mut self, _path: &Path) -> Option<crate::value::Reload> {
        None
    }
}

/// Settings every front-end honours.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub load: LoadOptions,
    /// Record a provenance trace.
    pub explain: bool,
}

/// Checks an input's size and text encoding and adds it to the source map.
pub fn add_text_input(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
) -> Result<SourceId> {
    // An empty file is read as PyYAML reads it, as no document: each front-end treats it as
    // it treats a file of only comments (docs/warnings.md, `empty-input`).
    check_size(&input, settings)?;
    let mut input = input;
    if let Some(text) = load::transcode_utf16(&input.bytes, &input.name)? {
        // Held as UTF-8 from here on; the file cannot be re-read as it is.
        input.bytes = text.into_bytes();
        input.reload = None;
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
    let max = settings.load.limits.max_input_size;
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

/// The warning for an input that holds no document (empty, blank, only comments or empty
/// documents): one rule for every front-end (docs/warnings.md, `empty-input`).
pub fn no_document(name: &str, at: Span, effect: &str) -> crate::error::Warning {
    crate::error::Warning::new(
        crate::error::WarnKind::EmptyInput,
        format!("{name} holds no document (it is empty, blank or only comments): {effect}"),
        at,
    )
}
