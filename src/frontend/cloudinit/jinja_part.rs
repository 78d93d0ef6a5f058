//! A `text/jinja2` user-data part as cloud-init 22.4's `JinjaTemplatePartHandler` handles it:
//! rendered (`jinja`) with the instance data, then given to the handler of the type its text
//! starts with (cloud-config, a script, or none); without instance data, its text used as it
//! is with a warning naming `--instance-data`. Positions of rendered values are the template's
//! lines when the rendered lines are the template's, else lines of the rendered text.

use super::instance::InstanceData;
use super::jinja::{render, Rendered, MISSING_PREFIX};
use super::parts::{skip, type_from_starts_with, Leaf, Part, PartKind, Text};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::value::{SourceId, SourceMap, Span};

/// A `text/jinja2` part: rendered with the instance data and read as the part its text
/// declares (`JinjaTemplatePartHandler.handle_part`); without instance data its text after
/// the first line is used as it is, with a warning naming `--instance-data`.
pub(super) fn part(
    leaf: Leaf,
    text: Text,
    sources: &mut SourceMap,
    data: Option<&InstanceData>,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) -> Result<()> {
    let Some(data) = data else {
        unrendered(leaf, text, sources, warnings, out);
        return Ok(());
    };
    let rendered = render(text.as_str(sources), data);
    let payload = text;
    match rendered {
        Rendered::NotJinja => skip(
            warnings,
            &leaf,
            WarnKind::PartSkipped,
            "text/jinja2 part whose first line is not '## template: jinja': cloud-init drops it \
             (NotJinjaError)"
                .into(),
        ),
        Rendered::Failed {
            kind,
            message,
            line,
            col,
        } => {
            let id = payload_source(&leaf, &payload, sources);
            let at = line
                .and_then(|l| offset_at(sources.text(id), l + 1, col.unwrap_or(1)))
                .map_or(leaf.at, |o| Span::new(id, o, o + 1));
            if kind == "ResourceLimit" {
                return Err(Error::new(
                    ErrorKind::Limit,
                    format!("jinja template: {message}: the run stops"),
                )
                .at(at)
                .hint("a loop that never ends, or too large for a user-data template"));
            }
            let which = leaf.label.rsplit_once(", ").map(|(_, w)| format!("{w}: "));
            warnings.push(Warning::new(
                WarnKind::PartSkipped,
                format!(
                    "{}{kind}: {message}: cloud-init drops this jinja part",
                    which.unwrap_or_default()
                ),
                at,
            ));
        }
        Rendered::Text {
            text,
            missing,
            first_missing,
            aligned,
        } => {
            if !missing.is_empty() {
                let names: Vec<String> = missing.iter().map(|n| format!("'{n}'")).collect();
                let which = leaf.label.rsplit_once(", ").map(|(_, w)| format!("{w}: "));
                let message = format!(
                    "{}Could not render jinja template variables: {} (cloud-init writes \
                     {MISSING_PREFIX}<name> in their place)",
                    which.unwrap_or_default(),
                    names.join(", ")
                );
                let at = first_missing
                    .and_then(|(line, col)| {
                        let id = payload_source(&leaf, &payload, sources);
                        offset_at(sources.text(id), line + 1, col).map(|o| Span::new(id, o, o + 1))
                    })
                    .unwrap_or(leaf.at);
                warnings.push(Warning::new(WarnKind::MissingVariable, message, at));
            }
            let within = aligned.then(|| match (&payload, &leaf.within) {
                (Text::Source(id), _) => (sources.name(*id).to_string(), 1, 0),
                (_, Some((file, before, indent))) => (file.clone(), before + 1, *indent),
                (_, None) => (leaf.label.clone(), 1, 0),
            });
            retyped(leaf, text, within, sources, warnings, out);
        }
    }
    Ok(())
}

/// The rendered text read by the handler of the type it starts with: cloud-config (also a
/// `#cloud-config-jsonp` text, which the handler then reads as YAML: it is given the jinja
/// part's content type), a script (run, not merged), or nothing cloud-init handles.
fn retyped(
    leaf: Leaf,
    text: String,
    within: Option<(String, usize, usize)>,
    sources: &mut SourceMap,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) {
    if text.is_empty() {
        let why = "Jinja template renders to nothing: cloud-init ignores it".to_string();
        skip(warnings, &leaf, WarnKind::PartSkipped, why);
        return;
    }
    match type_from_starts_with(&text) {
        Some("text/cloud-config" | "text/cloud-config-jsonp") => {
            // Lines that came from the template's lines of the same number are shown as the
            // template's; otherwise as lines of the rendered text.
            let source = match within {
                Some((file, before, indent)) => sources.add_within(file, text, (before, indent)),
                None => sources.add(format!("{} (jinja-rendered)", leaf.label), text),
            };
            out.push(Part {
                kind: PartKind::CloudConfig,
                source,
                headers: leaf.headers,
            });
        }
        Some("text/x-shellscript") => skip(
            warnings,
            &leaf,
            WarnKind::ScriptPart,
            "Jinja template renders to a shell script, which cloud-init runs, not merges: it \
             is not in this output"
                .into(),
        ),
        other => skip(
            warnings,
            &leaf,
            WarnKind::PartSkipped,
            format!(
                "Ignoring jinja template: cloud-init could not find a supported sub-handler \
                 for type {}",
                other.unwrap_or("None")
            ),
        ),
    }
}

/// Without instance data: the text after the first line, used as it is when it is
/// cloud-config (what cloud-init's own handler tests do), else skipped.
fn unrendered(
    leaf: Leaf,
    text: Text,
    sources: &mut SourceMap,
    warnings: &mut Vec<Warning>,
    out: &mut Vec<Part>,
) {
    let body = text
        .as_str(sources)
        .split_once('\n')
        .map(|(_, rest)| rest)
        .unwrap_or("")
        .to_string();
    if type_from_starts_with(&body) == Some("text/cloud-config") {
        let why = "Jinja template not rendered (give --instance-data FILE to render it): its \
                   text is used as it is";
        skip(warnings, &leaf, WarnKind::Unsupported, why.into());
        let source = sources.add(format!("{} (jinja body)", leaf.label), body);
        out.push(Part {
            kind: PartKind::CloudConfig,
            source,
            headers: leaf.headers,
        });
    } else {
        let why = "Jinja template not rendered (give --instance-data FILE to render it) and \
                   not #cloud-config as it is: skipped";
        skip(warnings, &leaf, WarnKind::Unsupported, why.into());
    }
}

/// The part's payload as a source, for a position inside it.
fn payload_source(leaf: &Leaf, text: &Text, sources: &mut SourceMap) -> SourceId {
    match (text, &leaf.within) {
        (Text::Source(id), _) => *id,
        (Text::Own(t), Some((file, before, indent))) => {
            sources.add_within(file.clone(), t.clone(), (*before, *indent))
        }
        (Text::Own(t), None) => sources.add(leaf.label.clone(), t.clone()),
    }
}

/// The byte offset of a 1-based line and column (in characters) of a text.
fn offset_at(text: &str, line: usize, col: usize) -> Option<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let rest = text.get(start..)?;
    let within = rest
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    Some(start + within)
}
