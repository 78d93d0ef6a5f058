//! `strata ardana`'s actions on the command line (`read` renders like every other command),
//! `validate`'s summary, and `write`: the plan from `frontend::ardana::write`, printed (`--dry-run`, with a
//! unified diff of each rewritten file) or carried out so that nothing is half-written: every
//! new text is first written to a temporary file beside its target, and only when all of them
//! exist are they renamed into place, then the obsolete files deleted (targets resolved and
//! files staged as `--out` does it, `out.rs`: links written through, mode and owner kept,
//! nothing renamed over what is not a regular file). A failure while staging removes the
//! temporary files and leaves the directory as it was. A crash between two renames
//! leaves each file either old or new; running the same write again finishes the job (files
//! already renamed compare equal and are left alone).

use super::files::io_error;
use super::hiera::DiskFiles;
use super::out::{self, Staged, Target};
use crate::error::{Error, ErrorKind};
use crate::frontend::ardana::write::{plan, Change, Status};
use crate::frontend::{add_text_input, Run, Settings};
use crate::load;
use crate::value::style::StyleSink;
use crate::value::SourceMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `strata ardana` actions.
#[derive(clap::Subcommand, Debug)]
pub(super) enum ArdanaAction {
    /// Combine the model in DIR into one model (JSON by default): inputModel, fileInfo, name,
    /// version, readme, errors — as the Ardana service reads it, its rules enforced.
    Read {
        #[command(flatten)]
        common: super::Common,
        /// The model's top directory (holding cloudConfig.yml).
        dir: PathBuf,
    },
    /// Check every input-model rule and report all violations at once.
    Validate {
        #[command(flatten)]
        base: super::Base,
        /// The model's top directory (holding cloudConfig.yml).
        dir: PathBuf,
    },
    /// Write a combined model back into the model's files (unchanged files stay byte-identical;
    /// staged, so nothing is half-written).
    Write {
        #[command(flatten)]
        base: super::Base,
        /// Write changed files without the old files' comments and spellings: every value
        /// written afresh in strata's canonical form (docs/comments.md).
        #[arg(long)]
        no_comments: bool,
        /// The combined model (as `ardana read` prints it, JSON; YAML is read too).
        model: PathBuf,
        /// The model's top directory.
        dir: PathBuf,
        /// Print the plan and the diffs instead of writing.
        #[arg(long)]
        dry_run: bool,
    },
}

impl ArdanaAction {
    pub(super) fn base(&self) -> &super::Base {
        match self {
            ArdanaAction::Read { common, .. } => &common.base,
            ArdanaAction::Validate { base, .. } | ArdanaAction::Write { base, .. } => base,
        }
    }
}

/// Runs `validate` and `write`; `None` for `read`, which renders like every other command.
pub(super) fn run(action: &ArdanaAction, sources: &mut SourceMap) -> Option<Result<(), Error>> {
    match action {
        ArdanaAction::Read { .. } => None,
        ArdanaAction::Validate { base, dir } => Some(validate(base, dir, sources)),
        ArdanaAction::Write {
            base,
            no_comments,
            model,
            dir,
            dry_run,
        } => {
            let mut settings = super::base_settings(base);
            // A changed file keeps its comments and spellings where its values survive.
            settings.load.styles = (!no_comments).then(StyleSink::default);
            Some(write(model, dir, *dry_run, base, &settings, sources))
        }
    }
}

fn validate(base: &super::Base, dir: &Path, sources: &mut SourceMap) -> Result<(), Error> {
    let settings = super::base_settings(base);
    let job = crate::frontend::ardana::ArdanaJob {
        dir: dir.to_path_buf(),
    };
    let mut files = DiskFiles;
    let mut run = Run::new(sources, &settings, &mut files);
    let (summary, warnings) = crate::frontend::ardana::validate(&job, &mut run)?;
    super::report_warnings(&warnings, sources, &super::policy_of(base)?)?;
    let _ = super::print_with(|w| writeln!(w, "{summary}"));
    Ok(())
}

/// Test hook: fail the staging after this many temporary files (docs/RELIABILITY.md).
const FAIL_AFTER: &str = "STRATA_TEST_FAIL_STAGING_AFTER";

fn write(
    model: &Path,
    dir: &Path,
    dry_run: bool,
    base: &super::Base,
    settings: &Settings,
    sources: &mut SourceMap,
) -> Result<(), Error> {
    let name = model.display().to_string();
    let input = super::files::read_one(&name)?;
    let id = add_text_input(input, sources, settings)?;
    // JSON as `ardana read` prints it; YAML (`ardana read --output yaml`) from a .yaml file.
    let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
    let mut warnings = Vec::new();
    let doc = load::load_document(sources.text(id), id, !yaml, &settings.load, &mut warnings)
        .map_err(|e| match yaml {
            true => e,
            false => e.hint("ardana write reads the JSON model `ardana read` prints; a YAML model is read from a file named .yaml or .yml"),
        })?
        .ok_or_else(|| {
            Error::new(ErrorKind::Parse, format!("{name} holds no model")).in_file(&name)
        })?;
    let changes = plan(&doc, dir, &mut Run::new(sources, settings, &mut DiskFiles))?;
    // The model as it would be written must pass `ardana validate`: else nothing is written.
    let job = crate::frontend::ardana::ArdanaJob {
        dir: dir.to_path_buf(),
    };
    let mut planned = Planned {
        dir,
        changes: &changes,
    };
    match crate::frontend::ardana::validate(&job, &mut Run::new(sources, settings, &mut planned)) {
        Ok((_, more)) => warnings.extend(more),
        Err(e) => {
            let what = if dry_run {
                "would write"
            } else {
                "would write, so nothing was written"
            };
            return Err(Error::new(
                ErrorKind::Conflict,
                format!("{name}: the model it {what} breaks the input-model rules"),
            )
            .hint("fix the combined model; `strata ardana validate` on the result would report the same")
            .also(e));
        }
    }
    super::report_warnings(&warnings, sources, &super::policy_of(base)?)?;
    let mut out = String::new();
    for c in changes.iter().filter(|c| c.status != Status::Ignored) {
        out.push_str(&format!("{} {}\n", c.status.as_str(), c.rel));
        if dry_run && c.status == Status::Changed {
            let (old, new) = (
                c.old.as_deref().unwrap_or(""),
                c.text.as_deref().unwrap_or(""),
            );
            let diff = similar::TextDiff::from_lines(old, new);
            out.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{}", c.rel), &format!("b/{}", c.rel))
                    .to_string(),
            );
        }
    }
    let count = |s: Status| changes.iter().filter(|c| c.status == s).count();
    out.push_str(&format!(
        "{}{} added, {} changed, {} deleted, {} unchanged\n",
        if dry_run { "would be: " } else { "" },
        count(Status::Added),
        count(Status::Changed),
        count(Status::Deleted),
        count(Status::Ignored)
    ));
    if !dry_run {
        apply(dir, &changes)?;
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    Ok(())
}

/// The model directory as it would be after the changes: what `validate` reads before anything
/// is written.
struct Planned<'c> {
    dir: &'c Path,
    changes: &'c [Change],
}

impl Planned<'_> {
    fn change(&self, path: &Path) -> Option<&Change> {
        self.changes.iter().find(|c| self.dir.join(&c.rel) == path)
    }
}

impl crate::frontend::Files for Planned<'_> {
    fn read(&mut self, path: &Path) -> Result<Option<crate::frontend::Input>, Error> {
        match self.change(path) {
            Some(c) if c.status == Status::Deleted => Ok(None),
            Some(Change {
                text: Some(text), ..
            }) => Ok(Some(crate::frontend::Input::new(
                path.display().to_string(),
                text.as_bytes(),
            ))),
            _ => DiskFiles.read(path),
        }
    }
    fn list(&mut self, dir: &Path) -> Vec<(String, bool)> {
        let mut entries: Vec<(String, bool)> = DiskFiles
            .list(dir)
            .into_iter()
            .filter(|(n, _)| {
                self.change(&dir.join(n))
                    .is_none_or(|c| c.status != Status::Deleted)
            })
            .collect();
        for c in self.changes.iter().filter(|c| c.status == Status::Added) {
            let path = self.dir.join(&c.rel);
            let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                continue;
            };
            if path.parent() == Some(dir) && !entries.iter().any(|(n, _)| *n == name) {
                entries.push((name, false));
            }
            // A new file in a new folder: the folder is listed in its parent.
            for a in path.ancestors().skip(1) {
                if a.parent() == Some(dir) && a.starts_with(self.dir) {
                    let folder = a.file_name().map(|n| n.to_string_lossy().into_owned());
                    if let Some(f) = folder.filter(|f| !entries.iter().any(|(n, _)| n == f)) {
                        entries.push((f, true));
                    }
                }
            }
        }
        entries
    }
    fn is_link(&mut self, path: &Path) -> bool {
        DiskFiles.is_link(path)
    }
}

/// Stages every new text, then renames and deletes. A target is resolved as `--out` resolves
/// it (`out::target`): a symbolic link is written through, an existing file keeps its mode and
/// owner (or is refused), and anything but a regular file is refused before anything changes.
fn apply(dir: &Path, changes: &[Change]) -> Result<(), Error> {
    let fail_after: Option<usize> = std::env::var(FAIL_AFTER).ok().and_then(|v| v.parse().ok());
    let mut staged: Vec<Staged> = Vec::new();
    let cleanup = |staged: &[Staged]| staged.iter().for_each(Staged::discard);
    let unchanged = "nothing in the model directory was changed";
    for c in changes {
        let Some(text) = &c.text else { continue };
        if fail_after == Some(staged.len()) {
            cleanup(&staged);
            return Err(Error::new(
                ErrorKind::Io,
                "injected failure while staging (test)",
            ));
        }
        let target = dir.join(&c.rel);
        let name = target.display().to_string();
        let resolved = out::target(&target, &name).and_then(|t| match t {
            Target::Replace { path, keep } if inside(&path, dir) => Ok((path, keep)),
            Target::Replace { path, .. } => Err(Error::new(
                ErrorKind::Io,
                format!(
                    "cannot write {name}: it leads (through a symbolic link) to {}, outside the model directory",
                    path.display()
                ),
            )
            .in_file(&name)),
            Target::InPlace { what, .. } => Err(Error::new(
                ErrorKind::Io,
                format!("cannot write {name}: it is {what}, not a regular file, and ardana write replaces model files"),
            )
            .in_file(&name)),
            Target::Stdout | Target::Stderr => Err(Error::new(
                ErrorKind::Io,
                format!("cannot write {name}: it names standard output or error, not a model file"),
            )
            .in_file(&name)),
        });
        let result = resolved.and_then(|(path, keep)| {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(&name, "write", &e))?;
            }
            out::stage(&path, keep.as_ref(), &name, &mut |w| {
                w.write_all(text.as_bytes())
            })
        });
        match result {
            Ok(s) => staged.push(s),
            Err(e) => {
                cleanup(&staged);
                let hint = match &e.hint {
                    Some(h) => format!("{h}; {unchanged}"),
                    None => unchanged.to_string(),
                };
                return Err(e.hint(hint));
            }
        }
    }
    for s in staged {
        let name = s.path.display().to_string();
        s.commit().map_err(|e| {
            io_error(&name, "write", &e)
                .hint("files renamed before this one are new, the rest old: run the same write again to finish")
        })?;
    }
    for c in changes.iter().filter(|c| c.status == Status::Deleted) {
        let path = dir.join(&c.rel);
        std::fs::remove_file(&path).map_err(|e| {
            io_error(&path.display().to_string(), "delete", &e)
                .hint("every new file is in place; run the same write again to finish")
        })?;
    }
    Ok(())
}

/// Whether `path` (a file that may not exist yet) is inside `dir` once links are resolved: its
/// nearest existing folder, made canonical, is `dir` or below it.
fn inside(path: &Path, dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    path.ancestors()
        .skip(1)
        .find_map(|a| a.canonicalize().ok())
        .is_some_and(|a| a.starts_with(&dir))
}
