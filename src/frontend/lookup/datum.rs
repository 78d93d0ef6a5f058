//! `--datum Datum.yml --node NODE.yml`: a Datum tree. `ResolutionPrecedence` entries
//! (`AllNodes\$($Node.Environment)\$($Node.NodeName)`) are expanded against the node's
//! properties (case-insensitive; a missing property collapses its segment, as in Datum); each
//! expanded prefix joined with the lookup path is walked through the tree: the first segment
//! names a store (`DatumStructure`, or a folder beside Datum.yml), then folders, then the
//! first `<segment>.yml|.yaml|.json` file found, then keys inside it. A missing file means the
//! layer has nothing. Files are read from the run's store (`Files::read_named`), once each.

use super::layers::{load_input, rules_from_doc, OptionsForm};
use super::resolve::{walk, FoldCache, LayerSource};
use super::rules::{get_ci, Fallback};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{file_span, Input, Run};
use crate::strategy::selector::PathRules;
use crate::value::key_text;
use crate::value::{Kind, Node, Span};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A Datum tree as a list of layers (one per precedence entry).
pub(crate) struct Tree<'a, 'r> {
    run: &'a mut Run<'r>,
    root: PathBuf,
    /// `DatumStructure` stores (name, folder); `None`: every folder beside Datum.yml.
    stores: Option<Vec<(String, PathBuf)>>,
    prefixes: Vec<Vec<String>>,
    cache: HashMap<PathBuf, Option<Rc<Node>>>,
    /// Folded-key indexes of the cached files' large maps (the files stay cached to the end).
    folds: FoldCache,
    psd1_warned: bool,
    pub warnings: Vec<Warning>,
}

impl LayerSource for Tree<'_, '_> {
    fn count(&self) -> usize {
        self.prefixes.len()
    }

    fn get(&mut self, i: usize, path: &[String], fold: bool) -> Result<Option<Node>> {
        let Some(prefix) = self.prefixes.get(i) else {
            return Ok(None);
        };
        let segs: Vec<String> = prefix.iter().chain(path).cloned().collect();
        let Some((first, rest)) = segs.split_first() else {
            return Ok(None);
        };
        let mut dir = match &self.stores {
            Some(stores) => match stores.iter().find(|(n, _)| n.eq_ignore_ascii_case(first)) {
                Some((_, p)) => p.clone(),
                None => return Ok(None),
            },
            None => self.root.join(first),
        };
        for (k, seg) in rest.iter().enumerate() {
            if let Some(doc) = self.file(&dir, seg)? {
                let inner = rest.get(k + 1..).unwrap_or_default();
                return Ok(walk(&doc, inner, fold, &mut self.folds).cloned());
            }
            dir = dir.join(seg);
        }
        Ok(None)
    }
}

impl Tree<'_, '_> {
    /// The data of `dir/name.yml|.yaml|.json`, if such a file exists.
    fn file(&mut self, dir: &Path, name: &str) -> Result<Option<Rc<Node>>> {
        for ext in ["yml", "yaml", "json"] {
            if let Some(doc) = self.load(&dir.join(format!("{name}.{ext}")))? {
                return Ok(Some(doc));
            }
        }
        if !self.psd1_warned {
            let psd1 = dir.join(format!("{name}.psd1"));
            if self.run.files.read_named(&psd1)?.is_some() {
                self.psd1_warned = true;
                self.warnings.push(Warning {
                    kind: WarnKind::Unsupported,
                    message: format!(
                        "{} is a PowerShell data file: strata reads only .yml, .yaml and .json, so this layer is skipped",
                        psd1.display()
                    ),
                    span: None,
                    path: None,
                });
            }
        }
        Ok(None)
    }

    fn load(&mut self, path: &Path) -> Result<Option<Rc<Node>>> {
        if let Some(hit) = self.cache.get(path) {
            return Ok(hit.clone());
        }
        let doc = match self.run.files.read_named(path)? {
            None => None,
            Some(input) if input.bytes.is_empty() => Some(Rc::new(Node::null(Span::NONE))),
            Some(input) => {
                let node = load_input(
                    input,
                    self.run.sources,
                    self.run.settings,
                    &mut self.warnings,
                )?;
                Some(Rc::new(node.unwrap_or(Node::null(Span::NONE))))
            }
        };
        self.cache.insert(path.to_path_buf(), doc.clone());
        Ok(doc)
    }
}

/// Reads Datum.yml and the node file; returns the tree, its rules and the node document.
pub(crate) fn prepare<'a, 'r>(
    datum: Input,
    node: Input,
    root: PathBuf,
    run: &'a mut Run<'r>,
    warnings: &mut Vec<Warning>,
) -> Result<(Tree<'a, 'r>, PathRules, Option<Node>)> {
    let (sources, settings) = (&mut *run.sources, run.settings);
    let datum_name = datum.name.clone();
    let def = load_input(datum, sources, settings, warnings)?;
    let Some(def) = def.filter(|d| d.as_map().is_some()) else {
        return Err(Error::new(
            ErrorKind::Directive,
            format!("{datum_name} is not a Datum definition (a mapping)"),
        )
        .in_file(&datum_name)
        .hint(
            "Datum.yml needs at least ResolutionPrecedence: [AllNodes\\$($Node.NodeName), ...]",
        ));
    };
    let rules = rules_from_doc(
        Some(&def),
        OptionsForm::Datum,
        true,
        Fallback::Datum,
        warnings,
    )?;
    let node_name = node.name.clone();
    let node_doc = load_input(node, sources, settings, warnings)?;
    if let Some(n) = node_doc.as_ref().filter(|n| n.as_map().is_none()) {
        return Err(Error::new(
            ErrorKind::Directive,
            format!(
                "the node file {node_name} must be a mapping of properties, not {}",
                n.kind_phrase()
            ),
        )
        .at(n.span)
        .hint("write the node's properties, e.g. NodeName: SRV01 and Role: WebServer"));
    }
    let empty = Node::empty_map(Span::NONE);
    let props = node_doc.as_ref().unwrap_or(&empty);
    let Some((_, precedence)) = get_ci(&def, "ResolutionPrecedence") else {
        return Err(Error::new(
            ErrorKind::Directive,
            "Invalid Datum Hierarchy Definition: Datum.yml has no ResolutionPrecedence",
        )
        .at(sources.id_of(def.span).map_or(Span::NONE, file_span))
        .hint("add ResolutionPrecedence: a list of paths, most specific first"));
    };
    let Some(entries) = precedence.as_list() else {
        return Err(Error::new(
            ErrorKind::Directive,
            "ResolutionPrecedence must be a list of paths",
        )
        .at(precedence.span)
        .hint("write ResolutionPrecedence: ['AllNodes\\$($Node.NodeName)', 'Roles\\All']"));
    };
    let mut prefixes = Vec::with_capacity(entries.len());
    for entry in entries {
        prefixes.push(expand(entry, props, warnings)?);
    }
    let stores = match get_ci(&def, "DatumStructure") {
        Some((_, s)) if !s.is_null() => Some(stores_of(s, &root, warnings)?),
        _ => None,
    };
    if let Some((k, _)) = get_ci(&def, "DatumHandlers") {
        warnings.push(Warning::new(WarnKind::Unsupported,
            "DatumHandlers are not run by strata: strings such as '[ENC=...]' are returned as written",
            k.span,
        ));
    }
    let tree = Tree {
        run,
        root,
        stores,
        prefixes,
        cache: HashMap::new(),
        folds: FoldCache::default(),
        psd1_warned: false,
        warnings: Vec::new(),
    };
    Ok((tree, rules, node_doc))
}

fn stores_of(
    value: &Node,
    root: &Path,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<(String, PathBuf)>> {
    let bad = |n: &Node| {
        Error::new(ErrorKind::Directive, "a DatumStructure store needs StoreName and StoreOptions.Path")
            .at(n.span)
            .hint("write - {StoreName: AllNodes, StoreProvider: Datum::File, StoreOptions: {Path: ./AllNodes}}")
    };
    let Some(items) = value.as_list() else {
        return Err(bad(value));
    };
    let mut stores = Vec::new();
    for item in items {
        let name = get_ci(item, "StoreName").and_then(|(_, v)| v.as_str());
        let path = get_ci(item, "StoreOptions")
            .and_then(|(_, o)| get_ci(o, "Path"))
            .and_then(|(_, v)| v.as_str());
        let (Some(name), Some(path)) = (name, path) else {
            return Err(bad(item));
        };
        if let Some((_, p)) = get_ci(item, "StoreProvider") {
            let provider = p.as_str().unwrap_or("");
            if !provider.to_ascii_lowercase().ends_with("::file") {
                warnings.push(Warning::new(WarnKind::Unsupported,
                    format!("store '{name}' uses the provider '{provider}', which strata cannot read: its layers are empty"),
                    p.span,
                ));
                continue;
            }
        }
        let rel = path.replace('\\', "/");
        let rel: PathBuf = Path::new(&rel)
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        stores.push((name.to_string(), root.join(rel)));
    }
    Ok(stores)
}

/// Expands one precedence entry against the node's properties and splits it into segments.
fn expand(entry: &Node, node: &Node, warnings: &mut Vec<Warning>) -> Result<Vec<String>> {
    let Some(text) = entry.as_str() else {
        return Err(Error::new(
            ErrorKind::Directive,
            format!(
                "a ResolutionPrecedence entry must be a path, not {}",
                entry.kind_phrase()
            ),
        )
        .at(entry.span)
        .hint("write 'Roles\\$($Node.Role)'"));
    };
    let unsupported = |what: &str| {
        Error::new(
            ErrorKind::Directive,
            format!("strata resolves only $($Node.Property) in ResolutionPrecedence, not {what}"),
        )
        .at(entry.span)
        .hint("write the entry with $($Node.Property) segments, e.g. 'AllNodes\\$($Node.Environment)\\$($Node.NodeName)'")
    };
    if text.contains("<%=") {
        return Err(unsupported("script blocks '<%= ... %>'"));
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some((head, tail)) = rest.split_once("$(") {
        out.push_str(head);
        let Some((expr, after)) = tail.split_once(')') else {
            return Err(unsupported("an unclosed '$('"));
        };
        let expr = expr.trim();
        let chain = match expr.get(..6) {
            Some(v) if v.eq_ignore_ascii_case("$node.") => expr.get(6..).unwrap_or(""),
            _ => return Err(unsupported(&format!("'$({expr})'"))),
        };
        out.push_str(&property(node, chain, text, entry, warnings)?);
        rest = after;
    }
    out.push_str(rest);
    Ok(out
        .split(['\\', '/'])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect())
}

/// `$Node.A.B` as text; a missing or null property is empty (with a warning).
fn property(
    node: &Node,
    chain: &str,
    entry_text: &str,
    entry: &Node,
    warnings: &mut Vec<Warning>,
) -> Result<String> {
    let mut cur = node;
    for name in chain.split('.') {
        match get_ci(cur, name.trim()) {
            Some((_, v)) => cur = v,
            None => {
                warnings.push(Warning::new(WarnKind::EmptyInterpolation,
                    format!("the node has no property '{chain}': '{entry_text}' loses that segment, as in Datum"),
                    entry.span,
                ));
                return Ok(String::new());
            }
        }
    }
    match &cur.kind {
        Kind::Null => {
            warnings.push(Warning::new(WarnKind::EmptyInterpolation,
                format!("the node's property '{chain}' is null: '{entry_text}' loses that segment, as in Datum"),
                entry.span,
            ));
            Ok(String::new())
        }
        Kind::List(_) | Kind::Map(_) => Err(Error::new(
            ErrorKind::Directive,
            format!(
                "the node's property '{chain}' is {}, not a name",
                cur.kind_phrase()
            ),
        )
        .at(cur.span)
        .hint("ResolutionPrecedence can only use scalar node properties")),
        _ => Ok(key_text(cur)),
    }
}
