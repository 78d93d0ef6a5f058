//! The job a rendering command asks for: built once from the command line (every argument
//! check of a rendering command is here, with its inputs read), then run by one match, each
//! front-end's entry taking the job and the one `Run` (sources, settings, the file store). A
//! new system adds a variant, its `build` arm and its `render` arm.

use super::hiera::hiera_job;
use super::tree::{read_inputs, read_needed, Tree};
use super::{ArdanaAction, Command};
use crate::error::{Error, ErrorKind};
use crate::frontend::cloudinit::CloudInitJob;
use crate::frontend::deckhand::DeckhandJob;
use crate::frontend::heat::HeatJob;
use crate::frontend::hiera::HieraJob;
use crate::frontend::lookup::{Hierarchy, LookupJob};
use crate::frontend::merge::MergeJob;
use crate::frontend::{self, ardana::ArdanaJob, Run, Settings};
use crate::rendered::Rendered;
use std::path::Path as FsPath;

/// What to render, with its inputs read.
pub(super) enum Job {
    CloudInit(CloudInitJob),
    Deckhand(DeckhandJob),
    Ardana(ArdanaJob),
    Merge(MergeJob),
    Heat(HeatJob),
    /// `lookup --layer` / `--datum`: files of the hierarchy are read as the lookup needs them.
    Lookup(LookupJob),
    Hiera(HieraJob),
}

/// Checks a rendering command's arguments and reads its inputs.
pub(super) fn build(
    command: Command,
    tree: &mut dyn Tree,
    settings: &Settings,
) -> Result<Job, Error> {
    let threads = settings.load.threads;
    Ok(match command {
        Command::CloudInit {
            inputs,
            instance_data,
            ..
        } => Job::CloudInit(CloudInitJob {
            inputs: read_inputs(tree, &inputs, threads)?,
            instance_data: instance_data.map(|f| read_needed(tree, &f)).transpose()?,
        }),
        Command::Deckhand {
            inputs,
            validate,
            check_schemas,
            allow_missing_substitution_source,
            ..
        } => Job::Deckhand(DeckhandJob {
            inputs: super::tree::read_tree(tree, &inputs)?,
            validate,
            check_schemas,
            lenient: allow_missing_substitution_source,
        }),
        Command::Ardana { action } => match action {
            ArdanaAction::Read { dir, .. } => Job::Ardana(ArdanaJob { dir }),
            _ => return Err(Error::new(ErrorKind::Usage, "not a rendering command")),
        },
        Command::Merge {
            inputs, how, rules, ..
        } => {
            // The rules file is read first: its error comes before an input's.
            let rules = rules.map(|r| read_needed(tree, &r)).transpose()?;
            Job::Merge(MergeJob {
                inputs: read_inputs(tree, &inputs, threads)?,
                how,
                rules,
            })
        }
        Command::Heat {
            template,
            params,
            envs,
            stray,
            ..
        } => {
            if let Some(first) = stray.first() {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("'{first}' is not an environment file argument: strata heat takes environment files with -e"),
                )
                .hint(format!("write strata heat -e {}", stray.join(" -e "))));
            }
            // Heat merges zero environment files fine (the stack's own parameters and -P);
            // with nothing at all there is nothing to render.
            if envs.is_empty() && template.is_none() && params.is_empty() {
                return Err(Error::new(
                    ErrorKind::Usage,
                    "strata heat needs environment files (-e), a template (--template) or parameters (-P)",
                )
                .hint("write strata heat [--template T] [-P NAME=VALUE] -e ENV..."));
            }
            let params = params
                .iter()
                .map(|p| match p.split_once('=') {
                    Some((n, v)) => Ok((n.to_string(), v.to_string())),
                    None => Err(Error::new(
                        ErrorKind::Usage,
                        format!("-P '{p}' is not NAME=VALUE"),
                    )
                    .hint("write -P key_name=mykey")),
                })
                .collect::<Result<Vec<_>, Error>>()?;
            Job::Heat(HeatJob {
                template: template.map(|t| tree.read(&t)).transpose()?.flatten(),
                params,
                envs: read_inputs(tree, &envs, threads)?,
            })
        }
        Command::Lookup {
            key,
            layer,
            options,
            datum,
            node,
            hiera,
            facts,
            hiera_opts,
            ..
        } => {
            if let Some(h) = hiera {
                return Ok(Job::Hiera(hiera_job(key, &h, facts, hiera_opts, tree)?));
            }
            let folder = |f: &str| {
                FsPath::new(f)
                    .parent()
                    .map(FsPath::to_path_buf)
                    .unwrap_or_default()
            };
            let hierarchy = if let Some(d) = datum {
                let node =
                    node.ok_or_else(|| Error::new(ErrorKind::Usage, "--datum needs --node"))?;
                Hierarchy::Datum {
                    root: folder(&d),
                    datum: read_needed(tree, &d)?,
                    node: read_needed(tree, &node)?,
                }
            } else if !layer.is_empty() {
                // `--layer a --layer b KEY` reads KEY as a third layer: a last "layer" that
                // does not exist and has no file extension is most likely the key.
                let looks_like_key = |l: &String| {
                    !FsPath::new(l).exists() && FsPath::new(l).extension().is_none() && l != "-"
                };
                if let Some(l) = layer.last().filter(|l| key.is_none() && looks_like_key(l)) {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!("--layer '{l}' is not a file"),
                    )
                    .hint(format!("if '{l}' is the KEY, put it before the options or after '--': strata lookup {l} --layer FILE...")));
                }
                Hierarchy::Layers {
                    layers: read_inputs(tree, &layer, threads)?,
                    options: options.map(|o| read_needed(tree, &o)).transpose()?,
                }
            } else {
                return Err(Error::new(ErrorKind::Usage, "lookup needs --layer FILE..., --datum Datum.yml --node NODE.yml, or --hiera hiera.yaml"));
            };
            Job::Lookup(LookupJob { key, hierarchy })
        }
    })
}

/// Renders a job in `run`, whose store serves the files a front-end finds itself (Datum's
/// and Hiera's hierarchy, Ardana's model).
pub(super) fn render(job: Job, run: &mut Run<'_>) -> Result<Rendered, Error> {
    match job {
        Job::CloudInit(job) => frontend::cloudinit::render(job, run),
        Job::Deckhand(job) => frontend::deckhand::render(job, run),
        Job::Ardana(job) => frontend::ardana::read(&job, run),
        Job::Merge(job) => frontend::merge::render(job, run),
        Job::Heat(job) => frontend::heat::render(job, run),
        Job::Hiera(job) => Ok(frontend::hiera::render(job, run)?.rendered),
        Job::Lookup(job) => frontend::lookup::render(job, run),
    }
}
