//! The state of one run of Hiera lookups (`Hiera`): the config, the scope, the data files read
//! so far (whole or by entry, `data`), the compiled `lookup_options` (gathered here, once, by a `hash` lookup over every
//! level), the trace and the `--explain-levels` log. The search itself is in `lookup`.

use super::behave::{Behaviour, Name};
use super::config::Config;
use super::data::Sliced;
use super::locate::{Files, Location};
use super::options::Options;
use super::report::{say, Log};
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::frontend::{Input, Run, Settings};
use crate::load::psych::{Refusal, Refusals};
use crate::merge::Trace;
use crate::value::{Kind, Map, Node, SourceMap, Span};
use rustc_hash::FxHashMap;
use std::path::PathBuf;

/// Everything one run of lookups shares.
pub struct Hiera<'a> {
    pub config: Config,
    pub config_name: String,
    pub root: PathBuf,
    pub scope: Map,
    pub files: &'a mut dyn Files,
    pub sources: &'a mut SourceMap,
    pub settings: &'a Settings,
    pub warnings: Vec<Warning>,
    pub trace: Option<Trace>,
    pub log: Option<Log>,
    /// Where each location was searched, for the not-found message: (level, location,
    /// found?).
    pub searched: Vec<(usize, usize, &'static str)>,
    pub(super) levels: Option<Vec<Vec<Location>>>,
    pub(super) data: FxHashMap<PathBuf, Option<Node>>,
    /// Data files read and parsed ahead (`prefetch`), with the loader's warnings, until the
    /// search asks for them.
    pub(super) pending: FxHashMap<PathBuf, (Result<Option<Node>>, Vec<Warning>)>,
    pub(super) options: Option<Options>,
    pub(super) stack: Vec<String>,
    /// A one-key lookup: data files with a kept index are parsed entry by entry (`data`).
    pub slicing: bool,
    /// The whole document: the levels (a bit each, the first 64) whose data holds each key.
    pub(super) key_levels: FxHashMap<String, u64>,
    pub(super) sliced: FxHashMap<PathBuf, Sliced>,
    /// Files read while looking for their index, waiting for their whole parse, with what
    /// is known of that index.
    pub(super) read_ahead: FxHashMap<PathBuf, (Input, super::data::Kept)>,
    /// Each file's identity before it was read (`Files::identity`), for its new index.
    pub(super) identities: FxHashMap<PathBuf, [u64; 5]>,
    /// Where the loaders note what Puppet refuses that the tree cannot show
    /// (`settings.load.dialect.psych`), and what was noted so far, by span (`check`).
    pub(super) noted: Refusals,
    pub(super) refused: FxHashMap<Span, Refusal>,
    /// hiera-eyaml: the keys, `--allow-encrypted`, and what was decrypted (`secrets`).
    pub secrets: super::secrets::Secrets,
}

impl<'a> Hiera<'a> {
    /// A run of lookups in `hiera.yaml`'s hierarchy (`config`, read from `config_name` in
    /// the folder `root`) with `scope`'s variables; `run`'s settings are the ones its files
    /// are read with (Psych's rules).
    pub fn new(
        config: Config,
        config_name: String,
        root: PathBuf,
        scope: Map,
        run: Run<'a>,
        explain_levels: bool,
    ) -> Hiera<'a> {
        let Run {
            sources,
            settings,
            files,
        } = run;
        Hiera {
            config,
            config_name,
            root,
            scope,
            files,
            sources,
            settings,
            warnings: Vec::new(),
            trace: settings.explain.then(Trace::default),
            log: explain_levels.then(Log::default),
            searched: Vec::new(),
            levels: None,
            data: FxHashMap::default(),
            pending: FxHashMap::default(),
            options: None,
            stack: Vec::new(),
            slicing: false,
            key_levels: FxHashMap::default(),
            sliced: FxHashMap::default(),
            read_ahead: FxHashMap::default(),
            identities: FxHashMap::default(),
            noted: settings
                .load
                .dialect
                .psych
                .as_ref()
                .map(|p| p.noted.clone())
                .unwrap_or_default(),
            refused: FxHashMap::default(),
            secrets: super::secrets::Secrets::default(),
        }
    }

    /// Looks `lookup_options` up (once) and compiles it.
    /// `module`: the namespace of the key being looked up, whose module data Puppet also
    /// searches for lookup_options (and reports as not found).
    pub fn gather_options(&mut self, module: Option<&str>) -> Result<()> {
        if self.options.is_some() {
            return Ok(());
        }
        self.options = Some(Options::default());
        say(&mut self.log, || "Searching for \"lookup_options\"".into());
        if let Some(l) = self.log.as_mut() {
            l.push();
        }
        let trace = self.trace.take();
        let hash = Behaviour {
            name: Name::Hash,
            ..Behaviour::first()
        };
        let found = self.checked("lookup_options", Span::NONE, |h| {
            h.search("lookup_options", &hash)
        });
        self.trace = trace;
        if let (Some(m), Some(l)) = (module, self.log.as_mut()) {
            l.line(format!("Module \"{m}\" not found"));
        }
        if let Some(l) = self.log.as_mut() {
            l.pop();
        }
        let Some(found) = found? else {
            return Ok(());
        };
        let Kind::Map(m) = &found.kind else {
            return Err(Error::new(
                ErrorKind::Directive,
                format!(
                    "value of lookup_options must be a hash, not {}",
                    found.kind_phrase()
                ),
            )
            .at(found.span));
        };
        self.options = Some(Options::compile(m)?);
        Ok(())
    }
}
