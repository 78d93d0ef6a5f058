//! User-data → the ordered list of parts cloud-init's handlers see (its `UserDataProcessor`):
//! gzip, MIME multipart flattening, content-type detection by prefix, `#cloud-config-archive`
//! explosion (extra entry keys become headers), Jinja parts (rendered by `jinja`), and the parts that
//! are skipped (`#include`, scripts, boothooks): with a note for the types cloud-init runs, a
//! warning for the others.

use super::instance::InstanceData;
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{check_size, file_span, Input, Settings};
use crate::load::{self, mime};
use crate::value::{Kind, Node, SourceId, SourceMap, Span};

/// A header as the part handler receives it, with where it was written.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub span: Span,
}

/// What a part is for the cloud-config handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    CloudConfig,
    JsonPatch,
}

/// One cloud-config (or JSON-patch) part, its text already in the source map.
#[derive(Clone, Debug)]
pub struct Part {
    pub kind: PartKind,
    pub source: SourceId,
    pub headers: Vec<Header>,
}

impl Part {
    /// `dict(part)[name]`: the key exists only for an exact raw name; its value is that of the
    /// first header matching case-insensitively.
    pub fn header(&self, name: &str) -> Option<&Header> {
        if !self.headers.iter().any(|h| h.name == name) {
            return None;
        }
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
    }
}

const DECOMP_TYPES: [&str; 7] = [
    "application/gzip",
    "application/gzip-compressed",
    "application/gzipped",
    "application/x-compress",
    "application/x-compressed",
    "application/x-gzip",
    "application/x-gzip-compressed",
];

/// cloud-init's prefix table, longest prefix first.
const PREFIXES: [(&str, &str); 9] = [
    ("#cloud-config-archive", "text/cloud-config-archive"),
    ("#cloud-config-jsonp", "text/cloud-config-jsonp"),
    ("## template: jinja", "text/jinja2"),
    ("#cloud-boothook", "text/cloud-boothook"),
    ("#include-once", "text/x-include-once-url"),
    ("#part-handler", "text/part-handler"),
    ("#cloud-config", "text/cloud-config"),
    ("#include", "text/x-include-url"),
    ("#!", "text/x-shellscript"),
];

/// `handlers.type_from_starts_with`: lower-cased, leading white space stripped, prefix match.
pub fn type_from_starts_with(text: &str) -> Option<&'static str> {
    let head: String = text
        .trim_start()
        .chars()
        .take(32)
        .collect::<String>()
        .to_lowercase();
    PREFIXES
        .iter()
        .find(|(p, _)| head.starts_with(p))
        .map(|(_, t)| *t)
}

/// A leaf of the processed message before its type is settled.
pub(super) struct Leaf {
    pub(super) label: String,
    content_type: String,
    pub(super) headers: Vec<Header>,
    body: Vec<u8>,
    /// Where to point diagnostics about the whole leaf.
    pub(super) at: Span,
    /// The file the body stands in, the lines before it there and the indentation of its
    /// lines (a MIME part without transfer encoding: 0; an archive entry's literal block:
    /// the block's indentation): its positions are then the file's own.
    pub(super) within: Option<(String, usize, usize)>,
    /// The body is this source's whole text (a file that is one part), not copied into `body`.
    whole: Option<SourceId>,
}

/// A leaf's text: its own, or a source's whole text.
pub(super) enum Text {
    Own(String),
    Source(SourceId),
}

impl Text {
    pub(super) fn as_str<'s>(&'s self, sources: &'s SourceMap) -> &'s str {
        match self {
            Text::Own(t) => t,
            Text::Source(id) => sources.text(*id),
        }
    }

    fn into_string(self, sources: &SourceMap) -> String {
        match self {
            Text::Own(t) => t,
            Text::Source(id) => sources.text(id).to_string(),
        }
    }
}

/// Expands every input into cloud-config parts, in order.
pub fn collect(
    inputs: Vec<Input>,
    sources: &mut SourceMap,
    settings: &Settings,
    jinja: Option<&InstanceData>,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Part>> {
    let mut parts = Vec::new();
    for input in inputs {
        for leaf in leaves(input, sources, settings, warnings)? {
            process_leaf(leaf, sources, (settings, jinja), warnings, &mut parts)?;
        }
    }
    Ok(parts)
}

fn leaves(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Leaf>> {
    check_size(&input, settings)?;
    let name = input.name;
    let reload = input.reload;
    if input.bytes.is_empty() {
        let id = sources.add(name.clone(), String::new());
        warnings.push(crate::frontend::no_document(
            &name,
            file_span(id),
            "cloud-init ignores empty user-data, it adds nothing",
        ));
        return Ok(Vec::new());
    }
    let gzipped = mime::is_gzip(&input.bytes);
    let bytes = if gzipped {
        mime::gunzip(&input.bytes, settings.load.limits.max_input_size)
            .map_err(|e| Error::new(ErrorKind::Parse, format!("{name}: {e}")).in_file(&name))?
    } else {
        input.bytes
    };
    if !mime::is_mime(&bytes) {
        let text = text_of(bytes, &name, sources)?;
        // Its values can be built and the text released: a message reads the file again.
        let reload = reload.filter(|_| !gzipped);
        let id = sources.add_reloadable(name.clone(), text, reload);
        return Ok(vec![Leaf {
            label: name,
            content_type: "text/x-not-multipart".into(),
            headers: Vec::new(),
            body: Vec::new(),
            at: file_span(id),
            within: None,
            whole: Some(id),
        }]);
    }
    let text = text_of(bytes, &name, sources)?;
    let id = sources.add(name.clone(), text);
    let raw = sources.text(id).as_bytes();
    let parts = mime::parse(raw).map_err(|e| {
        Error::new(
            ErrorKind::Parse,
            format!("invalid MIME user-data: {}", e.message),
        )
        .at(Span::new(id, e.offset, e.offset + 1))
        .hint("check the Content-Type boundary parameter and the --boundary lines")
    })?;
    Ok(parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let headers = p
                .headers
                .into_iter()
                .map(|h| Header {
                    name: h.name,
                    value: h.value,
                    span: Span::new(id, h.offset, h.offset + h.len),
                })
                .collect();
            // A body that stands in the file as it is gets the file's own positions; a
            // decoded one keeps positions in the part, and its name says it is decoded.
            let within = p
                .verbatim
                .filter(|_| !gzipped)
                .and_then(|at| sources.line_col_of(id, at))
                .filter(|&(_, col)| col == 1)
                .map(|(line, _)| (name.clone(), line - 1, 0));
            let label = match p.encoding {
                Some(e) => format!("{name}, part {} ({e}-decoded)", i + 1),
                None => format!("{name}, part {}", i + 1),
            };
            Leaf {
                label,
                content_type: p.content_type,
                headers,
                body: p.body,
                at: Span::new(id, p.offset, p.offset + 1),
                within,
                whole: None,
            }
        })
        .collect())
}

/// A top-level input must be text: binary or invalid UTF-8 is an error, with its position.
fn text_of(bytes: Vec<u8>, name: &str, sources: &mut SourceMap) -> Result<String> {
    load::check_binary(&bytes, name)?;
    let text = match load::decode_utf8(bytes) {
        Ok(t) => t,
        Err((lossy, at)) => {
            let id = sources.add(name.to_string(), lossy);
            return Err(load::utf8_error(id, at));
        }
    };
    if let Some(at) = text.find('\0') {
        let id = sources.add(name.to_string(), text.replace('\0', " "));
        return Err(Error::new(
            ErrorKind::Parse,
            "input contains NUL bytes: it is a binary file, not user-data",
        )
        .at(Span::new(id, at, at + 1))
        .hint("give text user-data (#cloud-config, MIME multipart) or gzip of it"));
    }
    Ok(text)
}

/// Content types cloud-init 22.4 hands to a handler that runs them (scripts, boothooks, part
/// handlers): passing one by is a fact about the user-data (a note), not a fault of it.
const RUN_TYPES: &[&str] = &[
    "text/x-shellscript",
    "text/x-shellscript-per-boot",
    "text/x-shellscript-per-instance",
    "text/x-shellscript-per-once",
    "text/cloud-boothook",
    "text/part-handler",
];

/// A part or archive entry of type `ctype` that is not merged: a note for one cloud-init runs,
/// a warning for any other.
fn not_merged(warnings: &mut Vec<Warning>, leaf: &Leaf, ctype: &str, what: &str) {
    if RUN_TYPES.contains(&ctype) {
        let why =
            format!("{ctype} {what} is run by cloud-init, not merged: it is not in this output");
        skip(warnings, leaf, WarnKind::ScriptPart, why);
    } else {
        let why = format!(
            "{ctype} {what} is not cloud-config: cloud-init has no handler for it, skipped"
        );
        skip(warnings, leaf, WarnKind::PartSkipped, why);
    }
}

pub(super) fn skip(warnings: &mut Vec<Warning>, leaf: &Leaf, kind: WarnKind, why: String) {
    // A plain file's position already names it; a MIME part or archive entry needs its label.
    // The position names the file; say which part or entry of it.
    let message = match leaf.label.rsplit_once(", ") {
        Some((_, which)) => format!("{which}: {why}"),
        None => why,
    };
    warnings.push(Warning::new(kind, message, leaf.at));
}

/// The settings and the instance data for jinja parts.
type Ctx<'a> = (&'a Settings, Option<&'a InstanceData>);

fn process_leaf(
    mut leaf: Leaf,
    sources: &mut SourceMap,
    ctx: Ctx<'_>,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) -> Result<()> {
    let mut declared = leaf.content_type.clone();
    if DECOMP_TYPES.contains(&declared.as_str()) {
        match mime::gunzip(&leaf.body, ctx.0.load.limits.max_input_size) {
            Ok(b) => {
                leaf.body = b;
                leaf.within = None;
                leaf.label = match leaf.label.strip_suffix(')') {
                    Some(l) if l.contains(" (") => format!("{l}, gunzipped)"),
                    _ => format!("{} (gunzipped)", leaf.label),
                };
            }
            Err(e) => {
                skip(
                    warnings,
                    &leaf,
                    WarnKind::PartSkipped,
                    format!("skipped by cloud-init: {e}"),
                );
                return Ok(());
            }
        }
        declared = "text/plain".into();
    }
    let text = match leaf.whole {
        Some(id) => Text::Source(id),
        None => Text::Own(match String::from_utf8(std::mem::take(&mut leaf.body)) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }),
    };
    let detected = if matches!(
        declared.as_str(),
        "text/plain" | "text/x-not-multipart" | "text/x-shellscript"
    ) {
        type_from_starts_with(text.as_str(sources))
            .map(str::to_string)
            .unwrap_or(declared)
    } else {
        declared
    };
    route(leaf, detected, text, sources, ctx, warnings, out)
}

fn route(
    leaf: Leaf,
    ctype: String,
    text: Text,
    sources: &mut SourceMap,
    ctx: Ctx<'_>,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) -> Result<()> {
    match ctype.as_str() {
        "text/cloud-config" | "text/cloud-config-jsonp" => {
            let kind = if ctype == "text/cloud-config" {
                PartKind::CloudConfig
            } else {
                PartKind::JsonPatch
            };
            let source = match (text, leaf.within) {
                (Text::Source(id), _) => id,
                (Text::Own(text), Some((file, before, indent))) => {
                    sources.add_within(file, text, (before, indent))
                }
                (Text::Own(text), None) => sources.add(leaf.label, text),
            };
            out.push(Part {
                kind,
                source,
                headers: leaf.headers,
            });
        }
        "text/cloud-config-archive" => {
            let text = text.into_string(sources);
            explode_archive(leaf, text, sources, ctx, warnings, out)?
        }
        "text/jinja2" => super::jinja_part::part(leaf, text, sources, ctx.1, warnings, out)?,
        "text/x-include-url" | "text/x-include-once-url" => {
            skip(warnings, &leaf, WarnKind::Unsupported, "#include parts are not followed: strata does not fetch URLs or files named in user-data".into());
        }
        "text/x-not-multipart" => {
            skip(warnings, &leaf, WarnKind::PartSkipped, "ignored by cloud-init: not MIME and no known first line (start it with #cloud-config)".into());
        }
        other => not_merged(warnings, &leaf, other, "part"),
    }
    Ok(())
}

/// Where an archive entry's `content` stands in the file when it is a literal block scalar
/// (`|`, `|-`, `|+`) whose lines are the file's lines after the block's indentation: the file,
/// the lines before the content and that indentation. `None` for any other spelling (a quoted
/// or folded string is not the file's text).
fn literal_block(
    sources: &SourceMap,
    id: crate::value::SourceId,
    span: Span,
    content: &str,
) -> Option<(String, usize, usize)> {
    let (src, start, _) = sources.source_of(span)?;
    let text = src.text();
    let rest = text.get(start..)?;
    let (header, body) = rest.split_once('\n')?;
    if !matches!(header.trim_end(), "|" | "|-" | "|+") {
        return None;
    }
    let indent = body.lines().find(|l| !l.trim().is_empty())?;
    let indent = indent.len() - indent.trim_start_matches(' ').len();
    if indent == 0 {
        return None;
    }
    let pad = " ".repeat(indent);
    let mut lines = Vec::new();
    for line in body.lines() {
        match line.strip_prefix(&pad) {
            Some(l) => lines.push(l),
            None if line.trim().is_empty() => lines.push(""),
            None => break,
        }
    }
    let ours = lines.join("\n");
    if ours.trim_end_matches('\n') != content.trim_end_matches('\n') {
        return None;
    }
    let body_at = start + header.len() + 1;
    let (line, _) = sources.line_col_of(id, body_at)?;
    Some((
        sources.name(id).to_string(),
        line - 1,
        indent + src.indent(),
    ))
}

const ARCHIVE_RESERVED: [&str; 7] = [
    "content",
    "filename",
    "type",
    "launch-index",
    "content-disposition",
    "number-attachments",
    "content-type",
];

fn explode_archive(
    leaf: Leaf,
    text: String,
    sources: &mut SourceMap,
    ctx: Ctx<'_>,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) -> Result<()> {
    let id = match &leaf.within {
        Some((file, before, indent)) => sources.add_within(file.clone(), text, (*before, *indent)),
        None => sources.add(leaf.label.clone(), text),
    };
    let doc = match load::yaml::load_single(sources.text(id), id, &ctx.0.load, warnings) {
        Ok(d) => d,
        Err(e) => {
            warnings.push(Warning::new(
                WarnKind::PartSkipped,
                format!(
                    "{}: archive skipped by cloud-init: {}",
                    leaf.label, e.message
                ),
                e.span.unwrap_or(leaf.at),
            ));
            return Ok(());
        }
    };
    let Some(Node {
        kind: Kind::List(entries),
        ..
    }) = doc
    else {
        warnings.push(Warning::new(
            WarnKind::PartSkipped,
            format!(
                "{}: #cloud-config-archive must be a YAML list: skipped",
                leaf.label
            ),
            file_span(id),
        ));
        return Ok(());
    };
    for (j, entry) in entries.iter().enumerate() {
        let label = format!("{}, entry {}", leaf.label, j + 1);
        let mut within = None;
        let (content, ctype, headers) = match &entry.kind {
            Kind::Str(s) => (s.to_string(), None, Vec::new()),
            Kind::Map(m) => {
                let content = match entry.get("content") {
                    None => String::new(),
                    Some(Node {
                        kind: Kind::Str(s),
                        span,
                    }) => {
                        within = literal_block(sources, id, *span, s);
                        s.to_string()
                    }
                    Some(other) => {
                        warnings.push(Warning::new(
                            WarnKind::PartSkipped,
                            format!("{label}: 'content' must be a string: entry skipped"),
                            other.span,
                        ));
                        continue;
                    }
                };
                let ctype = entry
                    .get("type")
                    .and_then(Node::as_str)
                    .filter(|t| !t.is_empty())
                    .map(str::to_string);
                let headers = m
                    .iter()
                    .filter_map(|(k, v)| {
                        let name = k.as_str()?;
                        if ARCHIVE_RESERVED.contains(&name.to_ascii_lowercase().as_str()) {
                            return None;
                        }
                        let value = match &v.kind {
                            Kind::Str(s) => s.to_string(),
                            _ => crate::value::key_text(v),
                        };
                        Some(Header {
                            name: name.to_string(),
                            value,
                            span: k.span(),
                        })
                    })
                    .collect();
                (content, ctype, headers)
            }
            _ => continue,
        };
        let ctype = ctype.unwrap_or_else(|| {
            type_from_starts_with(&content)
                .unwrap_or("text/cloud-config")
                .to_string()
        });
        let entry_leaf = Leaf {
            label,
            content_type: ctype.clone(),
            headers,
            body: Vec::new(),
            at: entry.span,
            within,
            whole: None,
        };
        match ctype.as_str() {
            "text/cloud-config" | "text/cloud-config-jsonp" | "text/jinja2" => route(
                entry_leaf,
                ctype,
                Text::Own(content),
                sources,
                ctx,
                warnings,
                out,
            )?,
            other => not_merged(warnings, &entry_leaf, other, "entry"),
        }
    }
    Ok(())
}
