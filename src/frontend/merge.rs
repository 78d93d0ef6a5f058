//! `strata merge`: plain YAML / JSON files layered in order (later over earlier). Without
//! `--how`: maps merge deeply and anything else is replaced. With `--how`: cloud-init's merger
//! grammar, with cloud-init's exact semantics, for every layer.

use super::{parse_inputs, Input, Rendered, Run};
use crate::error::{Error, ErrorKind, Result, WarnKind};
use crate::frontend::cloudinit::how;
use crate::load::{self, yaml};
use crate::merge::fold::{Fold, Rules};
use crate::merge::Trace;
use crate::strategy::{Origin, RuleSet, Stack};
use crate::value::{Node, Span};

/// What the CLI hands over for `strata merge`.
#[derive(Debug, Default)]
pub struct MergeJob {
    pub inputs: Vec<Input>,
    /// `--how`: cloud-init's merger grammar for every layer.
    pub how: Option<String>,
    /// `--rules FILE`: Datum's rule language instead.
    pub rules: Option<Input>,
}

/// Loads every input (each YAML document is a layer) and merges the layers in order.
pub fn render(job: MergeJob, run: &mut Run<'_>) -> Result<Rendered> {
    let (sources, settings) = (&mut *run.sources, run.settings);
    let MergeJob {
        inputs,
        how,
        rules: rules_file,
    } = job;
    let how_spec = how.as_deref();
    if let Some(rules) = rules_file {
        // Datum's rule language (lookup_options form), later files more specific.
        return super::lookup::plain::merge_with_rules(inputs, rules, sources, settings);
    }
    let mut warnings = Vec::new();
    let stack = match how_spec {
        None => Stack::deep_default(),
        Some(text) if text.trim().is_empty() => {
            return Err(Error::new(ErrorKind::Usage, "--how is empty").hint(
                "give cloud-init's merger list, e.g. --how 'dict(no_replace,recurse_list)+list(append)', or drop --how for the plain deep merge",
            ));
        }
        Some(text) => {
            let origin = Origin::Default(format!("--how '{text}'").into());
            how::parse_string(text, &origin, Span::NONE).map_err(|e| {
                Error::new(ErrorKind::Usage, format!("invalid --how: {}", e.message)).hint("--how takes cloud-init's merger grammar, e.g. 'dict(recurse_list)+list(append)'")
            })?
        }
    };
    let cloud_init = how_spec.is_some();
    if cloud_init {
        for (message, _) in how::lint(&stack).into_iter().chain(defaults(&stack)) {
            warnings.push(crate::error::Warning::new(
                WarnKind::NoEffect,
                format!("--how: {message}"),
                Span::NONE,
            ));
        }
    }
    let rules = RuleSet::single(stack);
    let mut layers = Vec::new();
    let parsed = parse_inputs(inputs, sources, settings, |name, text, id, warnings| {
        if load::is_json_name(name) {
            Ok(vec![load::json::load(text.as_str(), id, &settings.load)?])
        } else {
            yaml::load_stream_text(text, id, &settings.load, warnings)
        }
    });
    if let Some(all) = crate::frontend::parse_failures(&parsed) {
        return Err(all);
    }
    for loaded in parsed {
        let loaded = loaded?;
        warnings.extend(loaded.warnings);
        let docs = loaded.value?;
        if docs.len() > 1 {
            warnings.push(crate::error::Warning::new(WarnKind::MultiDocument,
                format!(
                    "{} holds {} documents: `strata merge` merges each as a layer, later over earlier, into one document; to render them one by one, give each its own file",
                    sources.name(loaded.id),
                    docs.len()
                ),
                super::file_span(loaded.id),
            ));
        }
        if docs.is_empty() {
            warnings.push(super::no_document(
                sources.name(loaded.id),
                super::file_span(loaded.id),
                "it adds nothing",
            ));
        }
        layers.extend(docs);
    }
    let mut trace = settings.explain.then(Trace::default);
    let mut fold = Fold::starting(Node::empty_map(Span::NONE));
    for (i, layer) in layers.into_iter().enumerate() {
        Fold::layer(trace.as_mut(), i);
        if cloud_init && layer.as_map().is_none() {
            return Err(Error::new(
                ErrorKind::Merge,
                format!(
                    "with --how every layer must be a mapping, not {}",
                    layer.kind_phrase()
                ),
            )
            .at(layer.span)
            .hint("cloud-init merges mappings only; drop --how to replace non-mapping documents"));
        }
        if !cloud_init && layer.is_null() {
            warnings.push(crate::error::Warning::new(WarnKind::NullDocument,
                "this document is empty (null): the plain merge replaces the whole result with it; remove it, or write {} to add nothing",
                layer.span,
            ));
        }
        fold.merge(trace.as_mut(), Rules::new(&rules), layer)
            .map_err(merge_error)?;
        for n in fold.take_notices() {
            if let crate::merge::NoticeKind::KindChanged { old, new, was } = n.what {
                let at = sources
                    .locate(was)
                    .map_or_else(String::new, |l| format!(" (from {l})"));
                warnings.push(
                    crate::error::Warning::new(WarnKind::KindChange,
                        format!("{old}{at} is replaced by {new}: the plain merge replaces a value of another kind whole"),
                        n.span,
                    )
                    .with_path(n.path),
                );
            }
        }
    }
    let (acc, _) = fold.finish();
    let acc = acc.unwrap_or_else(|| Node::empty_map(Span::NONE));
    Ok(Rendered::new(acc, warnings, trace))
}

/// cloud-init's defaults that surprise a `--how` user: `dict()` without `replace` keeps the
/// earlier value at a key both layers have (only mappings, and with `recurse_list` /
/// `recurse_str` lists and strings, are merged into), and `list()` without a method replaces
/// item by item, keeping the earlier list's length.
fn defaults(stack: &Stack) -> Vec<(String, Span)> {
    use crate::strategy::{DictMethod, ListMethod, MergerSpec};
    let mut out = Vec::new();
    for m in &stack.mergers {
        let explicit = |opt: &str| m.text.contains(opt);
        match &m.spec {
            MergerSpec::Dict(o) if o.method == DictMethod::NoReplace && !explicit("no_replace") => {
                out.push((format!("'{}' is cloud-init's no_replace: a later layer's value at a key an earlier layer set is ignored unless both are mappings{}; write dict(replace) for later values to win, or dict(no_replace,...) to say you mean it", m.text, if o.recurse_list || o.recurse_str { " (or lists / strings, which recurse)" } else { "" }), Span::NONE));
            }
            MergerSpec::List(o) if o.method == ListMethod::Replace && !explicit("replace") => {
                out.push((format!("'{}' is cloud-init's index-wise replace: a later list replaces the earlier one item by item and the earlier list's length is kept; write list(append) to add items, or list(replace) to say you mean it", m.text), Span::NONE));
            }
            _ => {}
        }
    }
    out
}

fn merge_error(e: crate::merge::MergeError) -> Error {
    Error::new(
        ErrorKind::Merge,
        format!(
            "{} (at {})",
            e.message,
            if e.path.0.is_empty() {
                "/".to_string()
            } else {
                e.path.to_string()
            }
        ),
    )
    .at(e.span)
    .with_path(e.path)
    .hint("cloud-init would drop this layer; change the layer or the --how spec")
}
