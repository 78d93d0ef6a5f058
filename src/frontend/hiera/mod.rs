//! `strata lookup --hiera`: Hiera 5 lookups as `puppet lookup` (Puppet 7) gives them, from a
//! `hiera.yaml`, its data files and a facts file. This file owns the job the CLI builds, the
//! scope (facts as top-scope variables, `facts`, `trusted`), the one-key and whole-document
//! modes, and the not-found message. Every YAML file is read as Puppet reads it, with Ruby's
//! Psych (`load::psych`). `config` reads hiera.yaml, `locate` the levels'
//! locations, `data` the data files (`slice`: by entry, from a kept index in `index`), `interp` interpolation and key syntax, `options` lookup_options, `behave` and
//! `deep` Puppet's merge behaviours, `state` a run's state, `lookup` the search itself,
//! `report` `--explain-levels`.

pub mod behave;
pub mod check;
pub mod config;
pub mod data;
pub mod eyaml;
pub mod facts;
pub mod index;
pub mod interp;
pub mod keyring;
pub mod locate;
pub mod lookup;
pub mod options;
pub mod pkcs7;
pub mod report;
pub mod ruby;
pub mod secrets;
pub mod slice;
pub mod state;

use crate::error::{Error, ErrorKind, Result, Warning};
use crate::frontend::{add_text_input, built_from, Input, Rendered, Run, Settings};
use crate::load;
use crate::load::psych::{Psych, Refusals};
use crate::strategy::Origin;
use crate::value::{Key, Kind, Map, Node, Seg, SourceMap, Span};
use behave::Behaviour;
pub use locate::Files;
use state::Hiera;
use std::path::PathBuf;

/// The explicit merge of the command line (`--merge` and the deep options).
#[derive(Clone, Debug, Default)]
pub struct MergeArgs {
    pub strategy: Option<String>,
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
}

/// What the CLI hands over for `strata lookup --hiera`.
#[derive(Debug)]
pub struct HieraJob {
    pub key: Option<String>,
    pub config: Input,
    /// The folder holding hiera.yaml (datadirs are relative to it).
    pub root: PathBuf,
    pub facts: Option<Input>,
    pub merge: MergeArgs,
    /// `--default VALUE`: the string returned when the key is found nowhere.
    pub default: Option<String>,
    /// Also produce the `puppet lookup --explain` style report.
    pub explain_levels: bool,
    /// `--eyaml-private-key FILE`: the key for every eyaml level, instead of its own.
    pub eyaml_private_key: Option<Input>,
    /// `--allow-encrypted`: eyaml `ENC[...]` values are left as written.
    pub allow_encrypted: bool,
    /// The environment (hiera-eyaml's `pkcs7_private_key_env_var`).
    pub env: Option<fn(&str) -> Option<String>>,
}

/// The result, plus the `--explain-levels` report when asked for.
pub struct HieraOutput {
    pub rendered: Rendered,
    pub report: Option<String>,
}

fn explicit(m: &MergeArgs) -> Result<Option<Behaviour>> {
    let deep_only = m.knockout_prefix.is_some() || m.sort_merged_arrays || m.merge_hash_arrays;
    let Some(name) = m.strategy.as_deref() else {
        if deep_only {
            return Err(usage_deep());
        }
        return Ok(None);
    };
    let at = Span::NONE;
    let value = if name == "deep" {
        let mut map = Map::new();
        map.insert(Key::str("strategy"), Node::str("deep", at));
        map.insert(
            Key::str("sort_merged_arrays"),
            Node::new(Kind::Bool(m.sort_merged_arrays), at),
        );
        map.insert(
            Key::str("merge_hash_arrays"),
            Node::new(Kind::Bool(m.merge_hash_arrays), at),
        );
        if let Some(p) = &m.knockout_prefix {
            map.insert(Key::str("knockout_prefix"), Node::str(p.as_str(), at));
        }
        Node::map(map, at)
    } else if deep_only {
        return Err(usage_deep());
    } else {
        Node::str(name, at)
    };
    Behaviour::parse(
        &value,
        "--merge".into(),
        Origin::Default("the --merge option".into()),
    )
    .map(Some)
    .map_err(|m| Error::new(ErrorKind::Usage, m).hint("--merge takes first, unique, hash or deep"))
}

fn usage_deep() -> Error {
    Error::new(
        ErrorKind::Usage,
        "The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'",
    )
    .hint("add --merge deep")
}

/// Facts as Puppet's top scope has them: each fact, `facts`, and `trusted`.
fn scope(facts: Option<Map>) -> Result<Map> {
    let facts = facts.unwrap_or_default();
    let mut scope = facts.clone();
    let trusted = match facts.get(&Key::str("trusted")) {
        Some(t) if t.as_map().is_some() => t.clone(),
        _ => {
            let mut t = Map::new();
            let certname = ["clientcert", "fqdn", "nodename"]
                .iter()
                .find_map(|k| facts.get(&Key::str(k)).cloned())
                .unwrap_or_else(|| Node::str("localhost", Span::NONE));
            // Puppet's `TrustedInformation#to_h`: the certname's first label and the rest.
            let (host, domain) = match certname.as_str().map(|c| c.split_once('.')) {
                Some(Some((h, d))) => (Node::str(h, Span::NONE), Node::str(d, Span::NONE)),
                _ => (certname.clone(), Node::null(Span::NONE)),
            };
            t.insert(Key::str("authenticated"), Node::str("local", Span::NONE));
            t.insert(Key::str("certname"), certname);
            t.insert(Key::str("extensions"), Node::empty_map(Span::NONE));
            t.insert(Key::str("hostname"), host);
            t.insert(Key::str("domain"), domain);
            t.insert(Key::str("external"), Node::empty_map(Span::NONE));
            Node::map(t, Span::NONE)
        }
    };
    if scope.get(&Key::str("environment")).is_none() {
        scope.insert(Key::str("environment"), Node::str("production", Span::NONE));
    }
    scope.insert(Key::str("facts"), Node::map(facts, Span::NONE));
    scope.insert(Key::str("trusted"), trusted);
    Ok(scope)
}

fn load_doc(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<(Option<Node>, Span)> {
    let json = load::is_json_name(&input.name);
    let id = add_text_input(input, sources, settings)?;
    let doc = load::load_document(sources.text(id), id, json, &settings.load, warnings)?;
    built_from(id, sources, settings);
    Ok((doc, Span::new(id, 0, 0)))
}

/// Runs a Hiera job; the data files are read from the run's store.
pub fn render(job: HieraJob, run: &mut Run<'_>) -> Result<HieraOutput> {
    let (sources, settings) = (&mut *run.sources, run.settings);
    let mut warnings = Vec::new();
    let merge = explicit(&job.merge)?;
    let config_name = job.config.name.clone();
    // Puppet reads every YAML file with Psych's `safe_load`: Symbols permitted in hiera.yaml
    // and the data, not in the facts.
    let noted = Refusals::default();
    let psych = |symbols| Settings {
        load: load::LoadOptions {
            dialect: load::Dialect {
                psych: Some(Psych {
                    symbols,
                    noted: noted.clone(),
                }),
                ..settings.load.dialect.clone()
            },
            ..settings.load.clone()
        },
        ..settings.clone()
    };
    let (data_settings, facts_settings) = (psych(true), psych(false));
    let (doc, at) = load_doc(job.config, sources, &data_settings, &mut warnings)?;
    if let Some(doc) = &doc {
        check::config_symbols(doc, &noted.take(), &config_name)?;
    }
    let config = config::read(doc.as_ref(), at)?;
    let facts = match job.facts {
        Some(f) => {
            let name = f.name.clone();
            let (doc, at) = load_doc(f, sources, &facts_settings, &mut warnings)?;
            Some(facts::given(doc, at, &name)?)
        }
        None => None,
    };
    let scope = scope(facts)?;
    let mut h = Hiera::new(
        config,
        config_name,
        job.root,
        scope,
        run.with_settings(&data_settings),
        job.explain_levels,
    );
    h.warnings = warnings;
    h.slicing = job.key.is_some();
    h.secrets.key_override = job.eyaml_private_key;
    h.secrets.allow_encrypted = job.allow_encrypted;
    h.secrets.env = job.env;
    // A failure keeps the warnings gathered before it (an empty interpolation explains a
    // value not found): they are printed before the error.
    let keep = |e: Error, h: &mut Hiera<'_>| {
        let _ = h.redact_all(None);
        h.redact_error(e)
            .after_warnings(std::mem::take(&mut h.warnings))
    };
    let doc = match job.key.as_deref() {
        Some(key) => match h
            .lookup(key, merge.as_ref(), Span::NONE)
            .map_err(|e| keep(e, &mut h))?
        {
            Some(v) => v,
            None => match job.default {
                Some(d) => Node::str(d, Span::NONE),
                None if h.log.is_some() => {
                    if let Some(l) = h.log.as_mut() {
                        l.line(format!(
                            "Function lookup() did not find a value for the name '{key}'"
                        ));
                    }
                    Node::null(Span::NONE)
                }
                None => {
                    let e = not_found(key, &h);
                    return Err(keep(e, &mut h));
                }
            },
        },
        None => whole(&mut h, merge.as_ref()).map_err(|e| keep(e, &mut h))?,
    };
    let report = h.log.as_ref().map(report::Log::text);
    let report = h.redact_all(report);
    Ok(HieraOutput {
        rendered: Rendered::new(doc, h.warnings, h.trace).with_psych(),
        report,
    })
}

fn not_found(key: &str, h: &Hiera<'_>) -> Error {
    if key == "lookup_options" || key.starts_with("lookup_options.") {
        return Error::new(
            ErrorKind::Merge,
            format!("Function lookup() did not find a value for the name '{key}': lookup_options is reserved, it cannot be looked up as data"),
        )
        .code("not-found")
        .hint("look up the keys it configures instead; --explain-levels shows the lookup_options in force");
    }
    let mut seen = std::collections::HashSet::new();
    let levels = h.levels.as_deref().unwrap_or_default();
    let list: Vec<String> = h
        .searched
        .iter()
        .filter_map(|&(i, j, s)| Some((levels.get(i)?.get(j)?.path.display().to_string(), s)))
        .filter(|(p, _)| seen.insert(p.clone()))
        .map(|(p, s)| format!("  {p} ({s})"))
        .collect();
    let paths = if list.is_empty() {
        "  (the hierarchy has no locations)".to_string()
    } else {
        list.join("\n")
    };
    Error::new(
        ErrorKind::Merge,
        format!("Function lookup() did not find a value for the name '{key}'; searched, in hierarchy order:\n{paths}"),
    )
    .code("not-found")
    .hint("check the key and the facts that name the data files, or give --default VALUE")
}

/// Every top-level key of every data file the hierarchy reaches (most specific level first,
/// each key once), each looked up with its own lookup_options.
fn whole(h: &mut Hiera<'_>, merge: Option<&Behaviour>) -> Result<Node> {
    let levels = h.locations()?.clone();
    let mut keys: Vec<(String, Span)> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut key_levels = rustc_hash::FxHashMap::<String, u64>::default();
    for (i, locs) in levels.iter().enumerate() {
        let format = h.config.levels[i].format;
        for loc in locs {
            if let Some(data) = h.data(&loc.path, format)? {
                for k in data
                    .as_map()
                    .map(|m| m.keys().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    if let Some(s) = k.as_str() {
                        if s != "lookup_options" && seen.insert(s.to_string()) {
                            keys.push((s.to_string(), k.span()));
                        }
                        if levels.len() <= 64 {
                            *key_levels.entry(s.to_string()).or_default() |= 1 << i;
                        }
                    }
                }
            }
        }
    }
    h.key_levels = key_levels;
    let mut out = Map::with_capacity(keys.len());
    for (key, span) in keys {
        let steps = h.trace.as_ref().map_or(0, |t| t.steps.len());
        // A key with dots or quotes is looked up as written, quoted whole.
        let lookup_key = if key.contains(['.', '"', '\'']) && !key.contains('"') {
            format!("\"{key}\"")
        } else {
            key.clone()
        };
        let value = h.lookup(&lookup_key, merge, span)?;
        if let Some(t) = h.trace.as_mut() {
            for s in t.steps.iter_mut().skip(steps) {
                s.path.0.insert(0, Seg::Key(key.as_str().into()));
            }
        }
        if let Some(v) = value {
            out.insert(Key(Node::str(key, span)), v);
        }
    }
    Ok(Node::map(out, Span::NONE))
}
