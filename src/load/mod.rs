//! Loaders: bytes of one source → `Node` trees with spans. `yaml` (YAML 1.1/1.2), `json`
//! (strict JSON with positions), `mime` (multipart user-data), plus the checks and limits every
//! loader shares. Loaders never touch files: callers hand them text already in the `SourceMap`.

pub mod json;
pub mod mime;
pub mod resolve;
pub mod yaml;

pub use resolve::YamlVersion;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::value::{Node, SourceId, Span};

/// Limits and scalar rules for loading.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub version: YamlVersion,
    /// Deepest nesting of lists and maps.
    pub max_depth: usize,
    /// Nodes that aliases may create by copying anchored values, per stream.
    pub alias_budget: usize,
    /// Documents in one YAML stream.
    pub max_documents: usize,
    /// Bytes of one input (also bounds gzip and base64 decoding).
    pub max_input_size: usize,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            version: YamlVersion::V1_1,
            max_depth: 256,
            alias_budget: 1_000_000,
            max_documents: 100_000,
            max_input_size: 512 * 1024 * 1024,
        }
    }
}

/// Rejects characters YAML does not allow in a stream (PyYAML's reader check): control
/// characters other than tab and line breaks, including NUL, and U+FFFE / U+FFFF.
pub fn check_text(text: &str, source: SourceId) -> Result<()> {
    let bad = text.char_indices().find(|&(i, c)| {
        let cp = c as u32;
        !(c == '\t'
            || c == '\n'
            || c == '\r'
            || (0x20..=0x7e).contains(&cp)
            || cp == 0x85
            || (0xa0..=0xd7ff).contains(&cp)
            || (0xe000..=0xfffd).contains(&cp)
            || cp >= 0x10000)
            && !(i == 0 && c == '\u{feff}')
    });
    match bad {
        None => Ok(()),
        Some((i, c)) => Err(Error::new(
            ErrorKind::Parse,
            format!(
                "unacceptable character #x{:04x}: special characters are not allowed",
                c as u32
            ),
        )
        .at(Span::new(source, i, i + c.len_utf8()))
        .hint("is this a binary file? YAML and JSON inputs must be text")),
    }
}

/// Rejects binary data (a NUL byte near the start) before any decoding, naming the file.
pub fn check_binary(bytes: &[u8], name: &str) -> Result<()> {
    match bytes.iter().take(8192).position(|&b| b == 0) {
        None => Ok(()),
        Some(at) => Err(Error::new(
            ErrorKind::Parse,
            format!("{name} is a binary file (NUL byte at offset {at}), not text"),
        )
        .in_file(name)
        .hint("give a YAML, JSON or MIME text file (gzip'd user-data is fine)")),
    }
}

/// Turns raw bytes into text, or says where the first invalid UTF-8 byte is.
/// On failure the lossy text is returned too, so the error can show the line.
pub fn decode_utf8(bytes: Vec<u8>) -> std::result::Result<String, (String, usize)> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Err((String::from_utf8_lossy(e.as_bytes()).into_owned(), at))
        }
    }
}

/// Error for invalid UTF-8 at a byte offset of a source holding the lossy text.
pub fn utf8_error(source: SourceId, at: usize) -> Error {
    Error::new(ErrorKind::Parse, "input is not valid UTF-8")
        .at(Span::new(source, at, at + 1))
        .hint("save the file as UTF-8; is it a binary file?")
}

/// Whether a source name says JSON.
pub fn is_json_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".json")
}

/// Loads one document from text, as JSON if the name says so, else YAML (`safe_load`).
pub fn load_document(
    text: &str,
    source: SourceId,
    json: bool,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    if json {
        json::load(text, source, opts).map(Some)
    } else {
        yaml::load_single(text, source, opts, warnings)
    }
}
