//! `--layer FILE... [--options FILE]`: every layer file loaded whole (YAML or JSON by name,
//! most specific first), and the options file read for `default_lookup_options` and
//! `lookup_options` (the same keys Datum.yml holds; other keys are ignored). Also the loading
//! helpers the other lookup sources share.

use super::resolve::DocLayers;
use super::rules::{compile, get_ci, Fallback};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{add_text_input, built_from, parse_inputs, Input, Settings};
use crate::load;
use crate::strategy::selector::PathRules;
use crate::value::{Node, SourceMap};

/// Loads one YAML (single document) or JSON input; `None` for a YAML file with no document.
pub fn load_input(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    let json = load::is_json_name(&input.name);
    let id = add_text_input(input, sources, settings)?;
    let doc = load::load_document(sources.text(id), id, json, &settings.load, warnings)?;
    built_from(id, sources, settings);
    Ok(doc)
}

/// How an options document may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionsForm {
    /// `default_lookup_options` and `lookup_options` keys (Datum.yml, `--options`).
    Datum,
    /// Those keys, or else the whole mapping is `lookup_options` (`strata merge --rules`).
    Bare,
}

/// Compiles the rules an options document holds (`None`: no options, only the fallback).
pub fn rules_from_doc(
    doc: Option<&Node>,
    form: OptionsForm,
    fold: bool,
    fallback: Fallback,
    warnings: &mut Vec<Warning>,
) -> Result<PathRules> {
    let Some(doc) = doc.filter(|d| !d.is_null()) else {
        return compile(None, None, fold, fallback, warnings);
    };
    if doc.as_map().is_none() {
        return Err(Error::new(
            ErrorKind::Directive,
            format!("the options must be a mapping, not {}", doc.kind_phrase()),
        )
        .at(doc.span)
        .hint("write default_lookup_options: MostSpecific and lookup_options: {Key: hash}"));
    }
    let default = get_ci(doc, "default_lookup_options").map(|(_, v)| v);
    let options = get_ci(doc, "lookup_options").map(|(_, v)| v);
    let options = match (form, default, options) {
        (OptionsForm::Bare, None, None) => Some(doc),
        _ => options,
    };
    compile(default, options, fold, fallback, warnings)
}

/// Loads `--layer` files and `--options`; the node document (for a lookup without a key) is
/// the most specific layer.
pub fn prepare(
    layers: Vec<Input>,
    options: Option<Input>,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<(DocLayers, PathRules, Option<Node>)> {
    let parsed = parse_inputs(layers, sources, settings, |name, text, id, warnings| {
        load::load_document(
            text.as_str(),
            id,
            load::is_json_name(name),
            &settings.load,
            warnings,
        )
    });
    if let Some(all) = crate::frontend::parse_failures(&parsed) {
        return Err(all);
    }
    let mut docs = Vec::with_capacity(parsed.len());
    for loaded in parsed {
        let loaded = loaded?;
        warnings.extend(loaded.warnings);
        let doc = loaded.value?;
        if doc.is_none() {
            warnings.push(crate::frontend::no_document(
                sources.name(loaded.id),
                crate::frontend::file_span(loaded.id),
                "the layer adds nothing",
            ));
        }
        docs.push(doc);
    }
    let options_doc = match options {
        Some(input) => load_input(input, sources, settings, warnings)?,
        None => None,
    };
    let rules = rules_from_doc(
        options_doc.as_ref(),
        OptionsForm::Datum,
        true,
        Fallback::Datum,
        warnings,
    )?;
    let node = docs.first().cloned().flatten();
    if let Some(n) = node.as_ref().filter(|n| n.as_map().is_none()) {
        warnings.push(Warning::new(
            WarnKind::NotAMapping,
            format!(
                "the most specific layer is {}, not a mapping: no key can be found in it",
                n.kind_phrase()
            ),
            n.span,
        ));
    }
    Ok((DocLayers::new(docs), rules, node))
}
