//! `strata cloud-init`: cloud-init's `CloudConfigPartHandler`. Each part is YAML-loaded, its
//! mergers taken from its own body (`merge_how`, else `merge_type`) followed by its own
//! `Merge-Type` / `X-Merge-Type` header, and merged into the accumulated config; a part that
//! cloud-init would reject or skip leaves the config untouched and gets a warning.

pub mod how;
pub mod instance;
pub mod jinja;
mod jinja_part;
mod jsonp;
pub mod parts;

use super::{file_span, Input, Rendered, Run};
use crate::error::{ErrorKind, Result, WarnKind, Warning};
use crate::load::yaml;
use crate::merge::fold::{Fold, Rules};
use crate::merge::{MergeError, Outcome, Trace};
use crate::strategy::{Origin, RuleSet, Stack};
use crate::value::{Key, Kind, Node, Path, Span};
use how::{Failure, HowError};
use parts::{Part, PartKind};

/// What the CLI hands over for `strata cloud-init`: the user-data inputs, and the instance
/// data for jinja parts (an instance-data.json) when it is given.
#[derive(Debug, Default)]
pub struct CloudInitJob {
    pub inputs: Vec<Input>,
    pub instance_data: Option<Input>,
}

/// Renders user-data inputs into one cloud-config; `## template: jinja` parts with the
/// instance data when it is given.
pub fn render(job: CloudInitJob, run: &mut Run<'_>) -> Result<Rendered> {
    let (inputs, sources, settings) = (job.inputs, &mut *run.sources, run.settings);
    let instance = job
        .instance_data
        .map(|i| instance::load(i, sources, settings))
        .transpose()?;
    // cloud-init's loader (safeyaml._CustomSafeLoader) also reads `!!python/unicode`.
    let mut settings = settings.clone();
    settings.load.dialect.python_unicode = true;
    let settings = &settings;
    let mut warnings = Vec::new();
    let parts = parts::collect(inputs, sources, settings, instance.as_ref(), &mut warnings)?;
    let mut trace = settings.explain.then(Trace::default);
    // Until a part merges successfully the config is {} (a part that fails leaves it as it was).
    let mut fold = Fold::starting(Node::empty_map(Span::NONE));
    // The cloud-config parts' YAML, parsed by the input stage (ahead of the merge on threads:
    // a part parses the same whatever was merged before it).
    let yaml_parts = parts.iter().filter(|p| p.kind == PartKind::CloudConfig);
    let mut loads = super::parse::Ahead::new(yaml_parts.map(|p| p.source).collect());
    for (index, part) in parts.iter().enumerate() {
        Fold::layer(trace.as_mut(), index);
        let label = sources.name(part.source).to_string();
        let result = match part.kind {
            PartKind::CloudConfig => {
                let (doc, loader_warnings) = loads
                    .take(sources, settings, |_, text, id, w| {
                        yaml::load_single(text.as_str(), id, &settings.load, w)
                    })
                    // One parse per cloud-config part, taken in order: never `None` here.
                    .map_or_else(|| (Ok(None), Vec::new()), |p| (p.value, p.warnings));
                warnings.extend(loader_warnings);
                prepare_part(part, doc, &mut warnings).and_then(|(doc, rules)| {
                    fold.merge(trace.as_mut(), Rules::new(&rules), doc)
                        .map_err(skipped)
                })
            }
            PartKind::JsonPatch => fold.edit(|old| {
                jsonp::apply(part, old, sources, settings, &mut warnings, trace.as_mut())
            }),
        };
        match result {
            Ok(()) => {}
            Err(mut drop) => {
                if let Some(e) = drop.fatal.take() {
                    return Err(*e);
                }
                if let Some(t) = trace.as_mut() {
                    t.record(
                        &Path::root(),
                        Outcome::DroppedPart,
                        None,
                        drop.span,
                        &[],
                        &[],
                    );
                }
                let verb = match drop.failure {
                    Failure::Rejected => "rejected",
                    Failure::Skipped => "skipped",
                };
                let who = if sources.id_of(drop.span) == Some(part.source) {
                    "this part".to_string()
                } else {
                    label
                };
                let mut message = format!(
                    "{who} was {verb} by cloud-init and not merged: {}",
                    drop.message
                );
                for (text, span) in &drop.notes {
                    if let Some(l) = sources.locate(*span) {
                        message.push_str(&format!("; {text} at {l}"));
                    }
                }
                warnings.push(Warning::new(WarnKind::PartSkipped, message, drop.span));
            }
        }
    }
    let (config, _) = fold.finish();
    let config = config.unwrap_or_else(|| Node::empty_map(Span::NONE));
    Ok(Rendered::new(config, warnings, trace).with_header("#cloud-config"))
}

/// Why a part was dropped.
pub struct Drop {
    pub failure: Failure,
    pub message: String,
    pub span: Span,
    /// Other positions the message refers to (where the input ends, ...).
    pub notes: Vec<(String, Span)>,
    /// Set when the run must stop instead (a resource limit was hit).
    pub fatal: Option<Box<crate::error::Error>>,
}

impl From<HowError> for Drop {
    fn from(e: HowError) -> Drop {
        Drop {
            notes: Vec::new(),
            failure: e.failure,
            message: e.message,
            span: e.span,
            fatal: None,
        }
    }
}

/// A JSON patch part's result: the patched config, or why it was dropped and the config as it was.
type PartResult = std::result::Result<Node, (Drop, Node)>;

/// A cloud-config part's document (`merge_how` taken out) and the rules it merges by, or
/// why cloud-init rejects it.
fn prepare_part(
    part: &Part,
    doc: Result<Option<Node>>,
    warnings: &mut Vec<Warning>,
) -> std::result::Result<(Node, RuleSet), Drop> {
    let whole = file_span(part.source);
    let rejected = |message: String, span: Span| Drop {
        failure: Failure::Rejected,
        message,
        span,
        notes: Vec::new(),
        fatal: None,
    };
    let doc = match doc {
        Ok(Some(doc)) => doc,
        Ok(None) => return Err(rejected("empty cloud config".into(), whole)),
        Err(e) => {
            let mut drop = rejected(format!("{} (YAML)", e.message), e.span.unwrap_or(whole));
            drop.notes = e.notes().to_vec();
            // Resource limits protect strata itself: they stop the run, not just this part.
            if e.kind == ErrorKind::Limit {
                drop.fatal = Some(Box::new(e));
            }
            return Err(drop);
        }
    };
    let mut doc = match doc.kind {
        Kind::Map(_) => doc,
        Kind::Null => return Err(rejected("empty cloud config".into(), whole)),
        _ => {
            return Err(rejected(
                format!("cloud-config must be a mapping, not {}", doc.kind_phrase()),
                doc.span,
            ))
        }
    };
    let stack = part_stack(part, &mut doc)?;
    for (message, span) in how::lint(&stack) {
        let span = if span.is_none() { whole } else { span };
        warnings.push(Warning::new(WarnKind::NoEffect, message, span));
    }
    Ok((doc, RuleSet::single(stack)))
}

/// A part whose merge would fail: cloud-init skips it.
fn skipped(e: MergeError) -> Drop {
    let message = if e.path.0.is_empty() {
        e.message
    } else {
        format!("{} at {}", e.message, e.path)
    };
    Drop {
        notes: Vec::new(),
        failure: Failure::Skipped,
        message,
        span: e.span,
        fatal: None,
    }
}

/// Body mergers (merge_how, else merge_type, popped from the document) then header mergers;
/// cloud-init's per-part default when both are empty.
fn part_stack(part: &Part, doc: &mut Node) -> std::result::Result<Stack, Drop> {
    let mut mergers = Vec::new();
    if let Some(map) = doc.as_map_mut() {
        let mut raw = map.shift_remove(&Key::str("merge_how"));
        if raw.as_ref().is_none_or(Node::is_null) {
            raw = map.shift_remove(&Key::str("merge_type"));
        }
        if let Some(value) = raw.filter(|v| !v.is_null()) {
            let origin = Origin::At(value.span);
            let body = match value.as_str() {
                Some(s) => how::parse_string(s, &origin, value.span)?,
                None => how::parse_value(&value, &origin)?,
            };
            mergers.extend(body.mergers);
        }
    }
    let header = ["Merge-Type", "X-Merge-Type"]
        .iter()
        .filter_map(|n| part.header(n))
        .find(|h| !h.value.is_empty());
    if let Some(h) = header {
        let origin = Origin::At(h.span);
        mergers.extend(how::parse_string(&h.value, &origin, h.span)?.mergers);
    }
    if mergers.is_empty() {
        return Ok(how::part_default());
    }
    Ok(Stack {
        mergers,
        replace_unhandled: false,
        by_new_type: false,
    })
}
