//! `strata merge --rules FILE INPUT...`: Datum's rule language for plain YAML / JSON files.
//! Every document is a layer; later files are more specific. Each top-level key is looked up
//! through the layers with its own rule (exactly like `strata lookup` without a key, over every
//! key of every file); keys, paths and tuple values compare exactly (plain files are
//! case-sensitive). Without `default_lookup_options` maps merge recursively and arrays come
//! from the most specific file, as `strata merge` does without `--rules`.

use super::layers::{load_input, rules_from_doc, OptionsForm};
use super::resolve::{all_keys, Found, LayerSource, Search};
use super::rules::Fallback;
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{parse_inputs, Input, Rendered, Settings};
use crate::load::{self, yaml};
use crate::merge::Trace;
use crate::value::key_text;
use crate::value::{Key, Map, Node, SourceMap, Span};

/// The loaded files, most specific first, reporting their position in command-line order to
/// the trace. Each top-level key is looked up once, so a value is moved out of its document
/// instead of copied (a null with the value's span stays behind, which `first_null` reads).
struct Owned(Vec<Option<Node>>);

impl LayerSource for Owned {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn get(&mut self, i: usize, path: &[String], _fold: bool) -> Result<Option<Node>> {
        let mut cur = match self.0.get_mut(i) {
            Some(Some(doc)) => doc,
            _ => return Ok(None),
        };
        for seg in path {
            let Some(next) = cur.as_map_mut().and_then(|m| m.get_mut(&Key::str(seg))) else {
                return Ok(None);
            };
            cur = next;
        }
        Ok(Some(cur.take()))
    }
    fn layer_id(&self, i: usize) -> usize {
        self.0.len().saturating_sub(i + 1)
    }
}

pub(crate) fn merge_with_rules(
    inputs: Vec<Input>,
    rules_file: Input,
    sources: &mut SourceMap,
    settings: &Settings,
) -> Result<Rendered> {
    let mut warnings = Vec::new();
    let rules_name = rules_file.name.clone();
    let rules_doc = load_input(rules_file, sources, settings, &mut warnings)?;
    if rules_doc.is_none() {
        warnings.push(crate::frontend::no_document(
            &format!("--rules {rules_name}"),
            Span::NONE,
            "no rule, the plain deep merge",
        ));
    }
    let rules = rules_from_doc(
        rules_doc.as_ref(),
        OptionsForm::Bare,
        false,
        Fallback::PlainMerge,
        &mut warnings,
    )?;
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
        for doc in loaded.value? {
            match doc.kind {
                crate::value::Kind::Map(_) => layers.push(Some(doc)),
                crate::value::Kind::Null => {}
                _ => {
                    return Err(Error::new(
                        ErrorKind::Merge,
                        format!(
                            "with --rules every document must be a mapping, not {}",
                            doc.kind_phrase()
                        ),
                    )
                    .at(doc.span)
                    .hint("rules select values by key path; drop --rules to replace non-mapping documents"))
                }
            }
        }
    }
    let mut order = Map::default();
    for layer in layers.iter().flatten() {
        key_order(&mut order, layer);
    }
    layers.reverse();
    let keys = all_keys(&layers, false);
    let mut trace = settings.explain.then(Trace::default);
    let mut src = Owned(layers);
    let mut search = Search {
        rules: &rules,
        trace: trace.as_mut(),
        warnings: &mut warnings,
    };
    let mut out = Map::default();
    for key in keys {
        let name = key_text(&key.0);
        match search.lookup_key(&mut src, &name)? {
            Found::Value(v) => {
                out.insert(key, v);
            }
            // Null in every file: the most specific null stays.
            Found::Nothing => {
                out.insert(key, first_null(&mut src, &name)?);
            }
            Found::KnockedOut(_) => {}
        }
    }
    if let Some(t) = trace.as_mut() {
        later_replaces(t);
    }
    for rule in rules.unselected() {
        warnings.push(Warning::new(
            WarnKind::UnusedRule,
            format!("rule '{}' matches no path of the layers: it changes nothing (paths are written 'a\\b', '/a/b' or as a regex '^a\\\\.*', and compare exactly)", rule.name),
            rule.span,
        ));
    }
    let mut doc = Node::map(out, Span::NONE);
    reorder(&mut doc, &order);
    Ok(Rendered::new(doc, warnings, trace))
}

/// Says what plain `strata merge` says for the same event. The lookup walks the files most
/// specific (latest) first, so the later file's value is "kept" and the earlier ones
/// "ignored"; in a merge of files in order that is the later value replacing the earlier:
/// `replaced` with the earlier values as `was`. (Files take the offset space in command-line
/// order, so an earlier file's value has the lower span.) An item of a list keeps `kept`: a
/// union keeps one of two equal items, which no plain merge does.
fn later_replaces(trace: &mut Trace) {
    use crate::merge::Outcome;
    for step in &mut trace.steps {
        let earlier = |p: &crate::merge::Prior| p.span.start < step.value.start;
        let in_list = matches!(step.path.0.last(), Some(crate::value::Seg::Index(_)));
        if step.outcome == Outcome::Kept
            && !in_list
            && !step.value.is_none()
            && !step.others.is_empty()
            && step.others.iter().all(earlier)
        {
            step.outcome = Outcome::Replaced;
            step.overrode = std::mem::take(&mut step.others);
        }
    }
}

fn first_null(src: &mut Owned, name: &str) -> Result<Node> {
    let path = [name.to_string()];
    for i in 0..src.count() {
        if let Some(v) = src.get(i, &path, false)? {
            return Ok(v);
        }
    }
    Ok(Node::null(Span::NONE))
}

/// Adds the keys of `node`'s maps (and of the maps nested in them, not inside lists) to
/// `order`, a skeleton of nested maps whose keys stand in first-appearance order.
fn key_order(order: &mut Map, node: &Node) {
    let Some(map) = node.as_map() else {
        return;
    };
    for (k, v) in map.iter() {
        if !order.contains_key(k) {
            order.insert(
                Key(Node::new(k.0.kind.clone(), Span::NONE)),
                Node::null(Span::NONE),
            );
        }
        if v.as_map().is_some() {
            let slot = order.get_mut(k).expect("inserted above");
            if slot.as_map().is_none() {
                *slot = Node::empty_map(Span::NONE);
            }
            if let Some(inner) = slot.as_map_mut() {
                key_order(inner, v);
            }
        }
    }
}

/// Orders every map of the result as `strata merge` does: keys in the order they first appear
/// in the files, in command-line order (Datum itself puts the most specific file's keys first).
fn reorder(node: &mut Node, order: &Map) {
    let Some(map) = node.as_map_mut() else {
        return;
    };
    map.sort_by_cached_key(|k, _| order.get_index_of(k).unwrap_or(usize::MAX));
    for (k, v) in map.iter_mut() {
        if let Some(inner) = order.get(k).and_then(Node::as_map) {
            reorder(v, inner);
        }
    }
}
