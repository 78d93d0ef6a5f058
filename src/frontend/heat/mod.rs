//! `strata heat`: Heat's server-side environment merging (`merge_environments` in
//! `heat/common/environment_util.py`) with `parameter_merge_strategies`, driven by the
//! template's parameter types.
//!
//! Flow: the `-P` values form the starting `parameters` (`base`); the template gives the types
//! (`types`; without one they are inferred, with a warning); each `-e` file is loaded and checked
//! (`env`), its strategies read (`strategy`, plus the blueprint's `merge_strategy` form in
//! `seed`), and merged section by section (`params`, Json parsing in `json`): each value merge
//! compiled into the engine's specs (`specs`), Heat's crashes worded in `crash`. The result has
//! the five sections in the order Heat's API creates them.

mod base;
mod crash;
mod env;
mod json;
mod params;
mod seed;
mod specs;
mod strategy;
mod types;

use crate::error::{Result, WarnKind, Warning};
use crate::frontend::{add_text_input, Input, Rendered, Run, Settings};
use crate::load;
use crate::merge::fold::Fold;
use crate::merge::Trace;
use crate::value::{Key, Map, Node, Path, SourceMap, Span};
use env::{EnvFile, Section};
use strategy::{FileStrategies, Registry};
use types::Schema;

/// What the CLI hands over for `strata heat`.
#[derive(Debug)]
pub struct HeatJob {
    /// `--template T`: HOT template giving parameter types.
    pub template: Option<Input>,
    /// `-P NAME=VALUE` in command-line order.
    pub params: Vec<(String, String)>,
    /// `-e ENV` files in order.
    pub envs: Vec<Input>,
}

/// The state of one merge: Heat's `params` (five sections) and `available_strategies`.
pub struct Heat<'a> {
    pub sources: &'a mut SourceMap,
    pub settings: &'a Settings,
    pub warnings: Vec<Warning>,
    /// The `--explain` trace (only with `--explain`).
    pub trace: Option<Trace>,
    /// Where the merge is in the output document (errors and warnings name it).
    pub path: Path,
    pub schema: Schema,
    pub registry: Registry,
    /// Indexed by `Section::index`.
    pub sections: Vec<Node>,
}

/// An environment file, loaded now or when its turn comes.
enum Pending {
    Loaded(EnvFile),
    Raw(Input),
}

/// Merges the environment files of `job` into one environment.
pub fn render(job: HeatJob, run: &mut Run<'_>) -> Result<Rendered> {
    let sources = &mut *run.sources;
    // Heat's loader (template_format.yaml_loader) builds timestamps as strings.
    let mut settings = run.settings.clone();
    settings.load.dialect.timestamps_as_text = true;
    let settings = &settings;
    let mut warnings = Vec::new();
    let base = base::parameters(job.params, sources)?;
    let (schema, pending) = match job.template {
        Some(t) => {
            let schema = load_template(t, sources, settings, &mut warnings)?;
            for (k, _) in base.as_map().into_iter().flat_map(|m| m.iter()) {
                if schema.get(k).is_none() {
                    warnings.push(Warning::new(WarnKind::UndeclaredParameter,
                        format!("-P {}: the template declares no parameter of that name: Heat refuses it when it validates the stack (strata passes it through)", crate::value::key_text(&k.0)),
                        k.span(),
                    ));
                }
            }
            (
                schema,
                job.envs.into_iter().map(Pending::Raw).collect::<Vec<_>>(),
            )
        }
        None => {
            // Inference needs every file first.
            let mut files = Vec::new();
            for input in job.envs {
                files.push(env::load(input, sources, settings, &mut warnings)?);
            }
            let schema = Schema::infer(&files, &base);
            warnings.push(Warning::new(WarnKind::InferredTypes,
                "no --template: parameter types are inferred from the values (list → CommaDelimitedList, mapping → Json, number → Number, boolean → Boolean, anything else → String); give the stack's template for Heat's exact merge",
                Span::NONE,
            ));
            (schema, files.into_iter().map(Pending::Loaded).collect())
        }
    };
    let mut heat = Heat {
        sources,
        settings,
        warnings,
        trace: settings.explain.then(Trace::default),
        path: Path::root(),
        schema,
        registry: Registry::default(),
        sections: Section::ALL
            .iter()
            .map(|s| {
                if s.is_list() {
                    Node::list(Vec::new(), Span::NONE)
                } else {
                    Node::empty_map(Span::NONE)
                }
            })
            .collect(),
    };
    base::trace(&mut heat.trace, &base);
    if let Some(p) = heat.sections.get_mut(Section::Parameters.index()) {
        *p = base;
    }
    for (index, file) in pending.into_iter().enumerate() {
        let file = match file {
            Pending::Loaded(f) => f,
            Pending::Raw(input) => env::load(input, heat.sources, settings, &mut heat.warnings)?,
        };
        Fold::layer(heat.trace.as_mut(), index);
        let mut strategies = FileStrategies::read(file.strategies.as_ref(), &mut heat.warnings);
        seed::apply(&file, &heat.schema, &mut strategies, &mut heat.warnings)?;
        heat.merge_file(file, &strategies)?;
    }
    let notes = if settings.explain {
        shadowed_defaults(&heat.sections, heat.sources)
    } else {
        Vec::new()
    };
    let mut doc = Map::default();
    for (section, node) in Section::ALL.iter().zip(heat.sections) {
        doc.insert(Key::str(section.name()), node);
    }
    Ok(Rendered::new(Node::map(doc, Span::NONE), heat.warnings, heat.trace).with_notes(notes))
}

/// For `--explain`: each `parameter_defaults` entry whose parameter also has a value in
/// `parameters` (a file's or `-P`'s). Heat gives the stack the `parameters` value; the default
/// still applies to nested stacks (they get `parameter_defaults`, not `parameters`).
fn shadowed_defaults(sections: &[Node], sources: &SourceMap) -> Vec<Warning> {
    let section = |s: Section| sections.get(s.index()).and_then(Node::as_map);
    let (Some(params), Some(defaults)) = (
        section(Section::Parameters),
        section(Section::ParameterDefaults),
    ) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for (k, v) in defaults.iter() {
        let Some(p) = params.get(k) else { continue };
        let name = crate::value::key_text(&k.0);
        let at = match sources.locate(p.span) {
            Some(l) => format!(" at {l}"),
            None => String::new(),
        };
        let span = if v.span.is_none() { k.0.span } else { v.span };
        notes.push(Warning::new(WarnKind::Overridden,
            format!("the stack uses parameters: {name}{at} (Heat's parameters override parameter_defaults for the stack itself; the default still applies to nested stacks)"),
            span,
        ));
    }
    notes
}

/// Loads the template (YAML, or JSON by name) and reads its parameter types.
fn load_template(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<Schema> {
    let json = load::is_json_name(&input.name);
    let id = add_text_input(input, sources, settings)?;
    let doc = load::load_document(sources.text(id), id, json, &settings.load, warnings)?;
    match doc {
        Some(doc) => Schema::from_template(&doc),
        None => Ok(Schema::default()),
    }
}
