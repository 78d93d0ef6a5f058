//! One render's context, `Run`: what every front-end's entry takes beside its job — the source
//! map its inputs go into, the settings, and the store of the files it finds itself. The CLI
//! builds it once per render (`cli::job`); a test, bench or fuzz target builds it the same way.
//!
//! What a render gives back (the document, its warnings, its trace) is not here: it is the
//! front-end's result, `Rendered`, or the error that stopped it (with the warnings gathered
//! before, `Error::after_warnings`).

use super::{Files, Input, Settings};
use crate::error::Result;
use crate::value::SourceMap;
use std::path::Path;

/// What a front-end renders with: built once by the caller, lent to the front-end's entry
/// (`render(job, &mut run)`).
pub struct Run<'r> {
    /// Every text read: the front-end adds its inputs; the caller reads positions in it for
    /// messages after the render (a file's text may be released and read again, `built_from`).
    pub sources: &'r mut SourceMap,
    pub settings: &'r Settings,
    /// The files a front-end finds itself (Hiera's data files, Datum's tree, an Ardana model);
    /// [`NoFiles`] for a job that holds all its inputs.
    pub files: &'r mut dyn Files,
}

impl<'r> Run<'r> {
    /// A run whose front-end adds its inputs to `sources` and finds its files in `files`.
    pub fn new(
        sources: &'r mut SourceMap,
        settings: &'r Settings,
        files: &'r mut dyn Files,
    ) -> Run<'r> {
        Run {
            sources,
            settings,
            files,
        }
    }

    /// The same run read with other settings (Hiera reads every file with Psych's rules).
    pub fn with_settings<'s>(&'s mut self, settings: &'s Settings) -> Run<'s> {
        Run {
            sources: self.sources,
            settings,
            files: self.files,
        }
    }
}

/// The store of a run whose job holds every input (cloud-init, Heat, Deckhand, `strata
/// merge`, `lookup --layer`): it has no files.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&mut self, _path: &Path) -> Result<Option<Input>> {
        Ok(None)
    }
    fn list(&mut self, _dir: &Path) -> Vec<(String, bool)> {
        Vec::new()
    }
}
