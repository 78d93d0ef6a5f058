//! `strata lookup`: hierarchical lookups with Datum semantics (`--layer`, `--datum`) and Hiera 5
//! semantics (`--hiera`, not implemented yet). This file owns the job types the CLI builds and
//! the dispatch; `layers` and `datum` load the hierarchy, `rules` compiles lookup_options,
//! `resolve` runs the lookup (or the whole-document RSOP) on the shared merge engine.

pub(crate) mod datum;
pub mod layers;
pub(crate) mod names;
pub(crate) mod plain;
pub mod resolve;
pub mod rules;

use crate::error::{Error, ErrorKind, Result};
use crate::frontend::{Input, Rendered, Run};
use crate::merge::Trace;
use crate::strategy::selector::split_path;
use resolve::{Found, LayerSource, Search};
use std::path::PathBuf;

/// Where the hierarchy comes from.
#[derive(Debug)]
pub enum Hierarchy {
    /// `--layer FILE...` (most specific first) and `--options FILE`.
    Layers {
        layers: Vec<Input>,
        options: Option<Input>,
    },
    /// `--datum Datum.yml --node NODE.yml`; `root` is the folder holding Datum.yml.
    Datum {
        datum: Input,
        node: Input,
        root: PathBuf,
    },
    /// `--hiera hiera.yaml [--facts FACTS.yaml]`; `root` is the folder holding hiera.yaml.
    Hiera {
        config: Input,
        facts: Option<Input>,
        root: PathBuf,
    },
}

/// What the CLI hands over for `strata lookup`.
#[derive(Debug)]
pub struct LookupJob {
    /// The key path (`a\b` or `a/b`); `None` resolves every top-level key.
    pub key: Option<String>,
    pub hierarchy: Hierarchy,
}

/// Runs a lookup; a Datum tree's files are read from the run's store.
pub fn render(job: LookupJob, run: &mut Run<'_>) -> Result<Rendered> {
    let key = match job.key.as_deref() {
        None => None,
        Some(k) => {
            let path = split_path(k);
            if path.is_empty() {
                return Err(Error::new(ErrorKind::Usage, format!("'{k}' names no key"))
                    .hint("give a key path such as 'NetworkConfig' or 'SoftwareBaseline\\Packages', or no KEY for the whole document"));
            }
            Some((k.to_string(), path))
        }
    };
    let mut warnings = Vec::new();
    let mut trace = run.settings.explain.then(Trace::default);
    let doc = match job.hierarchy {
        Hierarchy::Layers { layers, options } => {
            let (mut src, rules, node) =
                layers::prepare(layers, options, run.sources, run.settings, &mut warnings)?;
            let mut search = Search {
                rules: &rules,
                trace: trace.as_mut(),
                warnings: &mut warnings,
            };
            run_job(&mut search, &mut src, key, node.as_ref())?
        }
        Hierarchy::Datum { datum, node, root } => {
            let (mut tree, rules, node) = datum::prepare(datum, node, root, run, &mut warnings)?;
            let mut search = Search {
                rules: &rules,
                trace: trace.as_mut(),
                warnings: &mut warnings,
            };
            let doc = run_job(&mut search, &mut tree, key, node.as_ref());
            warnings.append(&mut tree.warnings);
            doc?
        }
        Hierarchy::Hiera { .. } => {
            return Err(Error::new(
                ErrorKind::Usage,
                "strata lookup --hiera is not implemented yet",
            )
            .hint("use --layer FILE... (Datum semantics) or --datum Datum.yml --node NODE.yml"))
        }
    };
    Ok(Rendered::new(doc, warnings, trace))
}

fn run_job(
    search: &mut Search<'_>,
    src: &mut dyn LayerSource,
    key: Option<(String, Vec<String>)>,
    node: Option<&crate::value::Node>,
) -> Result<crate::value::Node> {
    match key {
        None => search.rsop(src, node),
        Some((text, path)) => match search.find(src, &path)? {
            Found::Value(v) => Ok(v),
            Found::Nothing => Err(Error::new(
                ErrorKind::Merge,
                format!("no layer has a value for '{text}' (null counts as no value)"),
            )
            .hint("check the key path (segments separated by '\\' or '/', compared case-insensitively) and the layers; Datum throws 'returned a Null value' here")),
            Found::KnockedOut(at) => Err(Error::new(
                ErrorKind::Merge,
                format!("the value of '{text}' is knocked out: the most specific layer sets it to the knockout prefix"),
            )
            .at(at)
            .hint("remove the knockout marker to see the less specific value")),
        },
    }
}
