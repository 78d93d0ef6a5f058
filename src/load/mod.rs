//! Loaders: bytes of one source → `Node` trees with spans. `yaml` (YAML 1.1/1.2), `json`
//! (strict JSON with positions), `mime` (multipart user-data), plus the checks and limits every
//! loader shares. Loaders never touch files: callers hand them text already in the `SourceMap`.

#![warn(missing_docs)]

pub(crate) mod canon;
pub mod json;
pub mod mime;
pub(crate) mod psych;
pub mod resolve;
pub mod yaml;

pub use resolve::YamlVersion;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::value::{Node, Reload, SourceId, Span};

/// An input's text as a front-end's parse step gets it (`frontend::parse_inputs`): the run's
/// copy, which a loader may take over (`spend`) when the text can be read again for a
/// message. A long YAML text taken over is given back a piece at a time as it loads
/// (`yaml::load_stream_text`), so it is not held beside its whole tree (issue 19: W1's two
/// 20 MB texts were a third of its peak).
pub struct Text {
    text: Option<String>,
    again: Option<Reload>,
}

impl Text {
    /// `again`: how to read the text again once it is given back; `None` keeps it.
    pub fn new(text: String, again: Option<Reload>) -> Text {
        Text {
            text: Some(text),
            again,
        }
    }

    /// The text (empty once spent).
    pub fn as_str(&self) -> &str {
        self.text.as_deref().unwrap_or_default()
    }

    /// The text and how to read it again, taken over by a loader; `None` when it must be kept.
    pub fn spend(&mut self) -> Option<(String, Reload)> {
        let again = self.again.take()?;
        Some((self.text.take()?, again))
    }

    /// The text, unless a loader took it over.
    pub fn into_kept(self) -> Option<String> {
        self.text
    }
}

/// How inputs are read: the dialect, the limits and the threads of a run, set once by the CLI
/// and the front-end, plus two settings of one call (`styles`, `continues`).
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Which loader strata imitates: the system's YAML rules.
    pub dialect: Dialect,
    /// Bounds on what one input may make.
    pub limits: Limits,
    /// Threads that parse and the least work worth them.
    pub threads: Threads,
    /// Where to record what people wrote besides the values (comments, spellings) for the
    /// YAML writer; `None`: not recorded (JSON output, `--no-comments`, no output at all).
    pub styles: Option<crate::value::style::StyleSink>,
    /// Bytes of the same source after the text being loaded (a Hiera data file's entry read
    /// alone): comments at the text's end are then not the source's closing comments.
    pub continues: usize,
}

/// The YAML rules of the system whose loader strata imitates (a front-end sets its own).
#[derive(Clone, Debug, Default)]
pub struct Dialect {
    /// Which YAML scalar rules apply (`--yaml`).
    pub version: YamlVersion,
    /// `!!python/unicode` builds a string (cloud-init's loader adds this to `SafeLoader`).
    pub python_unicode: bool,
    /// Timestamps, implicit or `!!timestamp`, are built as their text, unchecked (Heat's
    /// loader constructs them with its string constructor).
    pub timestamps_as_text: bool,
    /// Read YAML as Ruby's Psych does (`psych.rs`, `yaml/psych.rs`: Puppet's reader of
    /// Hiera data) instead of PyYAML; `version` then does not apply.
    pub psych: Option<psych::Psych>,
}

/// Bounds on what one input may make: the defence against hostile or broken inputs.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest nesting of lists and maps.
    pub max_depth: usize,
    /// Nodes that aliases may create by copying anchored values, per stream.
    pub alias_budget: usize,
    /// Documents in one YAML stream.
    pub max_documents: usize,
    /// Bytes of one input (also bounds gzip and base64 decoding).
    pub max_input_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 256,
            alias_budget: 1_000_000,
            max_documents: 100_000,
            max_input_size: 512 * 1024 * 1024,
        }
    }
}

pub use crate::par::Threads;

/// Rejects characters YAML does not allow in a stream (PyYAML's reader check): control
/// characters other than tab and line breaks, including NUL and DEL, C1 controls other than
/// NEL, and U+FFFE / U+FFFF. Works on the UTF-8 bytes, 32 plain ASCII bytes at a time:
/// the only characters refused above ASCII are U+0080..U+009F (`C2 80`..`C2 9F`, but not NEL
/// `C2 85`) and U+FFFE / U+FFFF (`EF BF BE`, `EF BF BF`).
pub fn check_text(text: &str, source: SourceId) -> Result<()> {
    let bytes = text.as_bytes();
    // A byte of printable ASCII or a line feed, without a branch: a block of them is checked
    // in a few vector instructions.
    let plain = |b: u8| (b.wrapping_sub(0x20) < 0x5f) | (b == b'\n');
    let mut i = 0;
    while i < bytes.len() {
        if let Some(chunk) = bytes
            .get(i..i + 32)
            .and_then(|c| <&[u8; 32]>::try_from(c).ok())
        {
            if chunk.iter().fold(true, |all, &b| all & plain(b)) {
                i += 32;
                continue;
            }
        }
        let bad = match bytes[i] {
            b'\t' | b'\n' | b'\r' | 0x20..=0x7e => false,
            0xc2 => bytes
                .get(i + 1)
                .is_some_and(|&n| (0x80..=0x9f).contains(&n) && n != 0x85),
            0xef => {
                bytes.get(i + 1) == Some(&0xbf) && matches!(bytes.get(i + 2), Some(0xbe | 0xbf))
            }
            0x80..=0xff => false,
            _ => true,
        };
        if bad {
            let c = text.get(i..).and_then(|t| t.chars().next()).unwrap_or('\0');
            return Err(Error::new(
                ErrorKind::Parse,
                format!(
                    "unacceptable character #x{:04x}: special characters are not allowed",
                    c as u32
                ),
            )
            .at(Span::new(source, i, i + c.len_utf8()))
            .hint("is this a binary file? YAML and JSON inputs must be text"));
        }
        i += 1;
    }
    Ok(())
}

/// Rejects binary data (a NUL byte near the start) before any decoding, naming the file.
/// A text with a UTF-16 byte-order mark, as UTF-8 (PyYAML reads UTF-16 too); `None` for any
/// other text. UTF-32 (which PyYAML refuses) and broken UTF-16 are errors.
pub fn transcode_utf16(bytes: &[u8], name: &str) -> Result<Option<String>> {
    let fail = |m: String| {
        Err(Error::new(ErrorKind::Parse, m)
            .in_file(name)
            .hint("save the file as UTF-8"))
    };
    if bytes.starts_with(&[0, 0, 0xFE, 0xFF]) || bytes.starts_with(&[0xFF, 0xFE, 0, 0]) {
        return fail(format!(
            "{name} is UTF-32 text, which the systems strata imitates do not read (PyYAML reads UTF-8 and UTF-16)"
        ));
    }
    let big = match bytes {
        [0xFE, 0xFF, ..] => true,
        [0xFF, 0xFE, ..] => false,
        _ => return Ok(None),
    };
    let body = &bytes[2..];
    if body.len() % 2 == 1 {
        return fail(format!("{name} is UTF-16 text with an odd number of bytes"));
    }
    let units = body.chunks_exact(2).map(|p| {
        if big {
            u16::from_be_bytes([p[0], p[1]])
        } else {
            u16::from_le_bytes([p[0], p[1]])
        }
    });
    let mut text = String::with_capacity(body.len() / 2);
    for (i, c) in char::decode_utf16(units).enumerate() {
        match c {
            Ok(c) => text.push(c),
            Err(_) => {
                return fail(format!(
                    "{name} is not valid UTF-16: a lone surrogate at byte {}",
                    2 + 2 * i
                ))
            }
        }
    }
    Ok(Some(text))
}

/// Refuses bytes that are not text (a NUL in the first 8 KiB; UTF-16 without its byte-order
/// mark is named as such), naming the input `name`.
pub fn check_binary(bytes: &[u8], name: &str) -> Result<()> {
    let head = &bytes[..bytes.len().min(8192)];
    // `contains` on bytes is a memchr; the position is only needed for the message.
    let nul = if head.contains(&0) {
        head.iter().position(|&b| b == 0)
    } else {
        None
    };
    // Every other byte NUL: UTF-16 that lacks its byte-order mark.
    let pairs = &head[..head.len().min(64) & !1];
    let utf16 = pairs.len() >= 4
        && (pairs.chunks(2).all(|p| p[1] == 0 && p[0] != 0)
            || pairs.chunks(2).all(|p| p[0] == 0 && p[1] != 0));
    if nul.is_some() && utf16 {
        return Err(Error::new(
            ErrorKind::Parse,
            format!("{name} looks like UTF-16 text without a byte-order mark"),
        )
        .in_file(name)
        .hint("save it as UTF-8, or as UTF-16 with a byte-order mark (both are read)"));
    }
    match nul {
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

#[cfg(test)]
mod tests {
    use super::check_text;

    /// PyYAML's rule, one character at a time.
    fn refused(c: char) -> bool {
        let cp = c as u32;
        !(c == '\t'
            || c == '\n'
            || c == '\r'
            || (0x20..=0x7e).contains(&cp)
            || cp == 0x85
            || (0xa0..=0xd7ff).contains(&cp)
            || (0xe000..=0xfffd).contains(&cp)
            || cp >= 0x10000)
    }

    #[test]
    fn byte_scan_refuses_exactly_what_the_character_rule_refuses() {
        let probes = [
            '\0',
            '\u{1}',
            '\t',
            '\n',
            '\r',
            '\u{1f}',
            ' ',
            '~',
            '\u{7f}',
            '\u{80}',
            '\u{84}',
            '\u{85}',
            '\u{86}',
            '\u{9f}',
            '\u{a0}',
            'é',
            '\u{7ff}',
            '\u{800}',
            '\u{d7ff}',
            '\u{e000}',
            '\u{feff}',
            '\u{fffd}',
            '\u{fffe}',
            '\u{ffff}',
            '\u{10000}',
            '😀',
        ];
        for c in probes {
            // Alone, after plain runs ending on either side of a 32-byte block, in a block of
            // line feeds, and inside other text.
            let mut texts = vec![c.to_string(), format!("key: 'é{c}ü'\n")];
            for n in [31, 32, 33, 37, 63, 64, 65] {
                texts.push(format!("{}{c}", "a".repeat(n)));
                texts.push(format!("{}{c}tail", "\n".repeat(n)));
            }
            for text in texts {
                let result = check_text(&text, 0);
                assert_eq!(result.is_err(), refused(c), "{c:?} in {text:?}");
                if let Err(e) = result {
                    let at = e.span.map(|s| s.start as usize);
                    assert_eq!(at, text.find(c), "{c:?} in {text:?}");
                }
            }
        }
    }
}
