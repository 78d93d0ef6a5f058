//! Helpers shared by the fuzz targets: splitting one fuzz input into several named inputs,
//! settings with fuzz-friendly limits, and the tail of the CLI pipeline (render the result,
//! the warnings or the error) so every target exercises what a user would see.
//!
//! Input format of the multi-input targets: segments separated by `SEP` (`\n--8<--\n`); a
//! segment whose first line is `@NAME` takes that name (the rest is its content), else it is
//! named `in<N>.yaml`. The seed corpus in `fuzz/corpus/<target>/` is written this way.

use strata::error::Error;
use strata::frontend::{Input, Rendered, Settings};
use strata::load::{LoadOptions, Threads, YamlVersion};
use strata::render::{self, Format};
use strata::value::style::StyleSink;
use strata::value::{Node, SourceMap};

/// Files held in memory by path (`data/common.yaml`), for front-ends that find their own files;
/// folders are listed from the names.
pub struct MemFiles(pub std::collections::BTreeMap<String, Input>);

impl strata::frontend::Files for MemFiles {
    fn read(&mut self, path: &std::path::Path) -> strata::error::Result<Option<Input>> {
        Ok(self.0.get(&path.display().to_string()).cloned())
    }
    fn list(&mut self, dir: &std::path::Path) -> Vec<(String, bool)> {
        let prefix = format!("{}/", dir.display());
        let mut out: Vec<(String, bool)> = Vec::new();
        for name in self.0.keys() {
            if let Some(rest) = name.strip_prefix(&prefix) {
                let (first, is_dir) = match rest.split_once('/') {
                    Some((d, _)) => (d.to_string(), true),
                    None => (rest.to_string(), false),
                };
                if !out.iter().any(|(n, _)| *n == first) {
                    out.push((first, is_dir));
                }
            }
        }
        out
    }
}

/// Separates the inputs packed into one fuzz input.
pub const SEP: &[u8] = b"\n--8<--\n";

/// At most this many inputs per fuzz input (more are ignored).
pub const MAX_SEGMENTS: usize = 12;

/// One input cut out of the fuzz data.
pub struct Segment<'a> {
    pub name: String,
    pub bytes: &'a [u8],
}

impl Segment<'_> {
    pub fn input(&self) -> Input {
        Input::new(self.name.clone(), self.bytes.to_vec())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.bytes).into_owned()
    }
}

/// Splits fuzz data into named segments.
pub fn segments(data: &[u8]) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = data;
    loop {
        let (piece, next) = match find(rest, SEP) {
            Some(at) => (&rest[..at], Some(&rest[at + SEP.len()..])),
            None => (rest, None),
        };
        let index = out.len();
        out.push(named(piece, index));
        match next {
            Some(n) if out.len() < MAX_SEGMENTS => rest = n,
            _ => break,
        }
    }
    out
}

fn named(piece: &[u8], index: usize) -> Segment<'_> {
    if let Some(body) = piece.strip_prefix(b"@") {
        let end = body.iter().position(|&b| b == b'\n').unwrap_or(body.len());
        if let Ok(name) = std::str::from_utf8(&body[..end]) {
            let name = name.trim();
            if !name.is_empty() {
                let content = body.get(end + 1..).unwrap_or(&[]);
                return Segment {
                    name: name.to_string(),
                    bytes: content,
                };
            }
        }
    }
    Segment {
        name: format!("in{index}.yaml"),
        bytes: piece,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Options chosen by a `@flags` segment: `e` explain, `j` JSON output, `2` YAML 1.2, `s` strict.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flags {
    pub explain: bool,
    pub json: bool,
    pub yaml12: bool,
    pub strict: bool,
}

impl Flags {
    pub fn parse(bytes: &[u8]) -> Flags {
        Flags {
            explain: bytes.contains(&b'e'),
            json: bytes.contains(&b'j'),
            yaml12: bytes.contains(&b'2'),
            strict: bytes.contains(&b's'),
        }
    }
}

/// Fuzz limits: the CLI's, but a smaller alias budget and input size so one run stays fast.
pub fn load_options(yaml12: bool) -> LoadOptions {
    LoadOptions {
        dialect: strata::load::Dialect {
            version: if yaml12 {
                YamlVersion::V1_2
            } else {
                YamlVersion::V1_1
            },
            ..Default::default()
        },
        limits: strata::load::Limits {
            alias_budget: 50_000,
            max_input_size: 1 << 20,
            max_documents: 1_000,
            ..Default::default()
        },
        ..LoadOptions::default()
    }
}

/// The CLI's settings for these flags; with YAML output the inputs' comments and spellings
/// are recorded, as the CLI does.
pub fn settings(flags: Flags) -> Settings {
    let mut load = load_options(flags.yaml12);
    load.styles = (!flags.json).then(StyleSink::default);
    Settings {
        load,
        explain: flags.explain,
    }
}

/// What `cli::run` does after a front-end: warnings (or the first as an error under strict),
/// then the rendered text in the chosen format, or the error message with its snippet. YAML is
/// written keeping the inputs' spellings and comments, and must read back as the same data as
/// the canonical writing (a kept spelling that a reader types otherwise is a finding).
pub fn finish(
    result: Result<Rendered, Error>,
    sources: &SourceMap,
    flags: Flags,
    settings: &Settings,
) {
    let rendered = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = e.render(sources);
            return;
        }
    };
    for w in &rendered.warnings {
        let _ = w.render(sources);
    }
    if flags.strict {
        if let Some(first) = rendered.warnings.first() {
            let _ = first.clone().into_error("--strict").render(sources);
        }
    }
    let book = settings
        .load
        .styles
        .as_ref()
        .map(|s| s.book_under(rendered.header));
    let format = if flags.json {
        Format::Json
    } else {
        Format::Yaml
    };
    if flags.explain {
        if format == Format::Yaml {
            // Written on one thread and with the root's entries on two: the same bytes.
            let write = |jobs| {
                let mut out = Vec::new();
                let options = render::yaml::Options {
                    styles: book.as_ref(),
                    threads: Threads::for_pieces(jobs),
                    psych: rendered.psych,
                };
                let _ = render::explain::write_yaml(&rendered, sources, None, options, &mut out);
                out
            };
            let (out, split) = (write(1), write(2));
            assert!(out == split, "--explain on two threads differs");
        } else if let Err(e) = render::explain::render(&rendered, sources, format, None) {
            let _ = e.render(sources);
        }
        return;
    }
    match format {
        Format::Yaml => {
            let docs: Vec<Node> = match (&rendered.stream, rendered.doc.as_list()) {
                (Some(_), Some(list)) => list.to_vec(),
                _ => vec![rendered.doc.clone()],
            };
            let on = |threads| render::yaml::Options {
                styles: book.as_ref(),
                threads: Threads::for_pieces(threads),
                psych: false,
            };
            let (kept, plain) = if rendered.stream.is_some() {
                let mut kept = Vec::new();
                let _ = render::yaml::write_stream(&docs, on(1), &mut kept);
                // The documents written in groups on two threads: the same bytes.
                let mut split = Vec::new();
                let _ = render::yaml::write_stream(&docs, on(2), &mut split);
                assert!(kept == split, "a stream on two threads differs");
                let kept = String::from_utf8(kept).expect("UTF-8");
                (kept, render::yaml::stream_to_string(&docs))
            } else {
                let kept =
                    render::yaml::to_string_styled(&rendered.doc, rendered.header, book.as_ref());
                // The root's entries written on two threads: the same bytes.
                let mut split = Vec::new();
                let _ = render::yaml::write(&rendered.doc, rendered.header, on(2), &mut split);
                assert!(kept.as_bytes() == split, "output on two threads differs");
                (
                    kept,
                    render::yaml::to_string(&rendered.doc, rendered.header),
                )
            };
            same_data(&kept, &plain, flags);
        }
        Format::Json => {
            if let Err(e) = render::json::to_string(&rendered.doc) {
                let _ = e.render(sources);
            }
        }
    }
}

/// The output keeping what people wrote reads as the canonical output does.
fn same_data(kept: &str, plain: &str, flags: Flags) {
    let base = load_options(flags.yaml12);
    let opts = LoadOptions {
        limits: strata::load::Limits {
            alias_budget: usize::MAX,
            ..base.limits
        },
        ..base
    };
    let load = |text: &str| {
        let mut sources = SourceMap::new();
        let id = sources.add("out.yaml", text.to_string());
        let mut w = Vec::new();
        strata::load::yaml::load_stream(text, id, &opts, &mut w).map_err(|e| e.render(&sources))
    };
    let Ok(want) = load(plain) else { return };
    match load(kept) {
        Ok(got) => assert!(
            got == want,
            "the output keeping spellings reads as other data\n--- kept\n{kept}\n--- canonical\n{plain}"
        ),
        Err(e) => panic!("the output keeping spellings does not load: {e}\n--- kept\n{kept}\n--- canonical\n{plain}"),
    }
}

/// Render → load must give the same tree (YAML 1.1 writer read back with YAML 1.1 rules, JSON
/// written and read back). Panics (a fuzz finding) when it does not.
pub fn check_round_trip(doc: &Node) {
    let mut sources = SourceMap::new();
    let opts = LoadOptions {
        limits: strata::load::Limits {
            alias_budget: usize::MAX,
            ..Default::default()
        },
        ..LoadOptions::default()
    };
    let yaml = render::yaml::to_string(doc, None);
    let id = sources.add("rendered.yaml", yaml.clone());
    let mut warnings = Vec::new();
    match strata::load::yaml::load_single(&yaml, id, &opts, &mut warnings) {
        Ok(Some(back)) => assert!(
            back == *doc,
            "YAML round trip changed the tree\n--- rendered\n{yaml}\n--- original\n{doc:?}\n--- read back\n{back:?}"
        ),
        Ok(None) => assert!(doc.is_null(), "YAML round trip lost the document:\n{yaml}"),
        Err(e) => panic!(
            "rendered YAML does not load: {}\n--- rendered\n{yaml}",
            e.render(&sources)
        ),
    }
    // JSON cannot hold every tree (NaN values, keys that would repeat once written as JSON
    // text, `1` and `'1'`): the writer refuses those, so only check what it writes.
    if let Ok(json) = render::json::to_string(doc) {
        let id = sources.add("rendered.json", json.clone());
        match strata::load::json::load(&json, id, &opts) {
            Ok(back) => assert!(
                json_equal(doc, &back),
                "JSON round trip changed the tree\n--- rendered\n{json}\n--- original\n{doc:?}\n--- read back\n{back:?}"
            ),
            Err(e) => panic!(
                "rendered JSON does not load: {}\n--- rendered\n{json}",
                e.render(&sources)
            ),
        }
    }
}

/// Equality after JSON's own conversions: keys become strings, timestamps and big integers are
/// written as JSON allows, so compare JSON texts of both trees instead of the trees.
fn json_equal(a: &Node, b: &Node) -> bool {
    match (render::json::to_compact(a), render::json::to_compact(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
