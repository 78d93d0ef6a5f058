//! `strata lookup --hiera` on the command line: its options, the job it builds, the files it
//! reads from disk (`DiskFiles`, shared with `strata ardana`), and the `--explain-levels`
//! report written instead of the value.

use super::files::write_stdout_with;
use super::out::write_out_with;
use super::tree::read_needed;
use super::tree::Tree;
use super::Command;
use crate::error::Error;
use crate::frontend::Input;
use crate::value::SourceMap;
use std::io::Write;
use std::path::Path as FsPath;

/// `lookup --hiera` options: the explicit merge, a default, and Puppet's explain layout.
#[derive(clap::Args, Debug, Default)]
pub(super) struct HieraOpts {
    /// Hiera merge behaviour; replaces the key's lookup_options entry.
    #[arg(long, value_name = "first|unique|hash|deep", requires = "hiera", value_parser = ["first", "unique", "hash", "deep"])]
    pub(super) merge: Option<String>,
    /// Knockout prefix of a deep merge (with --merge deep).
    #[arg(long = "knock-out-prefix", value_name = "P", requires = "hiera")]
    pub(super) knock_out_prefix: Option<String>,
    /// Sort every merged array (with --merge deep).
    #[arg(long, requires = "hiera")]
    pub(super) sort_merged_arrays: bool,
    /// Merge arrays of hashes item by item (with --merge deep).
    #[arg(long, requires = "hiera")]
    pub(super) merge_hash_arrays: bool,
    /// Value (a string) returned when the key is found nowhere.
    #[arg(long, value_name = "VALUE", requires = "hiera")]
    pub(super) default: Option<String>,
    /// Print a report laid out like `puppet lookup --explain` instead of the value.
    #[arg(long, requires = "hiera")]
    pub(super) explain_levels: bool,
    /// Private key (PEM) for every eyaml level, instead of its pkcs7_private_key (for CI).
    #[arg(long, value_name = "FILE", requires = "hiera")]
    pub(super) eyaml_private_key: Option<String>,
    /// Leave eyaml ENC[...] values as written: nothing is decrypted, no key is needed.
    #[arg(long, requires = "hiera")]
    pub(super) allow_encrypted: bool,
}

/// The `--hiera` job of a `lookup` command line.
pub(super) fn hiera_job(
    key: Option<String>,
    config: &str,
    facts: Option<String>,
    o: HieraOpts,
    tree: &mut dyn Tree,
) -> Result<crate::frontend::hiera::HieraJob, Error> {
    Ok(crate::frontend::hiera::HieraJob {
        key,
        root: FsPath::new(config)
            .parent()
            .map(FsPath::to_path_buf)
            .unwrap_or_default(),
        config: read_needed(tree, config)?,
        facts: facts.map(|f| read_needed(tree, &f)).transpose()?,
        merge: crate::frontend::hiera::MergeArgs {
            strategy: o.merge,
            knockout_prefix: o.knock_out_prefix,
            sort_merged_arrays: o.sort_merged_arrays,
            merge_hash_arrays: o.merge_hash_arrays,
        },
        default: o.default,
        explain_levels: o.explain_levels,
        // The key is read from disk even when the data comes from a git revision (`diff`).
        eyaml_private_key: o
            .eyaml_private_key
            .map(|k| read_needed(&mut super::tree::Disk::strict(), &k))
            .transpose()?,
        allow_encrypted: o.allow_encrypted,
        env: Some(|k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned())),
    })
}

/// Files a front-end finds itself (Hiera's data files and globs, an Ardana model), from disk.
pub(crate) struct DiskFiles;

impl crate::frontend::Files for DiskFiles {
    fn read(&mut self, p: &FsPath) -> Result<Option<Input>, Error> {
        let mut disk = super::tree::Disk::strict();
        super::tree::TreeFiles::new(&mut disk).read(p)
    }
    fn list(&mut self, dir: &FsPath) -> Vec<(String, bool)> {
        super::tree::Disk::strict().list(dir)
    }
    fn is_link(&mut self, path: &FsPath) -> bool {
        super::tree::Disk::strict().is_link(path)
    }
}

/// `lookup --hiera --explain-levels`: the report instead of the value (exit 0 when the key
/// is not found, as `puppet lookup --explain`).
pub(super) fn run_explain_levels(command: Command, sources: &mut SourceMap) -> Result<(), Error> {
    let Command::Lookup {
        common,
        key,
        hiera: Some(h),
        facts,
        hiera_opts,
        ..
    } = command
    else {
        return Ok(());
    };
    let settings = super::settings_of(&common);
    let mut disk = super::tree::Disk::strict();
    let job = hiera_job(key, &h, facts, hiera_opts, &mut disk)?;
    let mut files = super::tree::TreeFiles::indexed(&mut disk);
    let mut run = crate::frontend::Run::new(sources, &settings, &mut files);
    let out = crate::frontend::hiera::render(job, &mut run)?;
    super::report_warnings(
        &out.rendered.warnings,
        sources,
        &super::policy_of(&common.base)?,
    )?;
    let text = out.report.unwrap_or_default();
    let mut emit = |w: &mut dyn Write| w.write_all(text.as_bytes());
    match common.out {
        Some(path) => write_out_with(&path, &mut emit),
        None => write_stdout_with(&mut emit),
    }
}
