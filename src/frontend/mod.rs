//! Front-ends: each turns its format's inputs and directives into layers + a `RuleSet` and
//! runs the one merge engine. Shared here: the input and result types every front-end uses.

pub mod cloudinit;
pub mod heat;
pub mod lookup;
pub mod merge;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::load::{self, LoadOptions};
use crate::merge::Trace;
use crate::value::{Node, SourceId, SourceMap, Span};

/// One input as read by the CLI: a display name and its bytes.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
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
    pub doc: Node,
    /// First line of YAML output (e.g. `#cloud-config`).
    pub header: Option<&'static str>,
    pub warnings: Vec<Warning>,
    pub trace: Option<Trace>,
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
        Ok(text) => Ok(sources.add(input.name, text)),
        Err((lossy, at)) => {
            let id = sources.add(input.name, lossy);
            Err(load::utf8_error(id, at))
        }
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
