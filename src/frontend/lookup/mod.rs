//! `strata lookup`: hierarchical lookups with Datum semantics (`--layer`, `--datum`) and Hiera 5
//! semantics (`--hiera`).

use crate::error::{Error, ErrorKind, Result};
use crate::frontend::{Input, Rendered, Settings};
use crate::value::SourceMap;
use std::path::{Path, PathBuf};

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

/// Reads a file named by the hierarchy: `Ok(None)` when it does not exist.
pub type ReadFile<'a> = dyn FnMut(&Path) -> Result<Option<Input>> + 'a;

pub fn render(
    _job: LookupJob,
    _read: &mut ReadFile<'_>,
    _sources: &mut SourceMap,
    _settings: &Settings,
) -> Result<Rendered> {
    Err(Error::new(
        ErrorKind::Usage,
        "strata lookup is not implemented yet",
    ))
}
