//! The command line's arguments as clap reads them: the subcommands (`Command`, the fixed
//! contract of docs/DESIGN.md §2), the options every rendering command shares (`Common`) and
//! those of every command that reads inputs (`Base`). What they mean is decided in `cli`
//! (settings, warning policy) and `cli::job` (each command's checks and inputs).

use super::ardana::ArdanaAction;
use super::hiera::HieraOpts;
use super::{colour, diff};
use crate::error::WarnKind;
use crate::render::Format;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "strata",
    version = env!("STRATA_VERSION"),
    about = "Render layered configuration exactly as the owning system merges it, and explain every value."
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Top,
}

/// Every subcommand: the renders, and the two that describe the command line itself.
// Parsed once per run: the size of the rendering variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub(super) enum Top {
    #[command(flatten)]
    Render(Command),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// What a change to the layers does to the rendered output, value by value, and which
    /// input line caused each change: renders a command at two git revisions (--base REV
    /// [--head REV] -- SUBCOMMAND ARGS...), or compares two rendered files (OLD NEW).
    Diff(diff::DiffArgs),
    /// Print the man page, strata(1), in roff.
    Man,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Merge cloud-init user-data parts (#cloud-config, #cloud-config-archive, MIME multipart).
    #[command(name = "cloud-init")]
    CloudInit {
        #[command(flatten)]
        common: Common,
        /// User-data files in order; '-' reads stdin (so does no INPUT when stdin is a pipe or a
        /// file).
        inputs: Vec<String>,
        /// instance-data.json that `## template: jinja` parts are rendered with (as `cloud-init
        /// devel render --instance-data FILE` does); without it such a part is a warning.
        #[arg(long, value_name = "FILE")]
        instance_data: Option<String>,
    },
    /// Merge Heat environment files as Heat does (parameter_merge_strategies; by default a later
    /// file's value overwrites an earlier one).
    Heat {
        #[command(flatten)]
        common: Common,
        /// HOT template whose 'parameters' give the parameter types.
        #[arg(long, value_name = "T")]
        template: Option<String>,
        /// A parameter value (lowest precedence), repeatable.
        #[arg(short = 'P', long = "parameter", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Environment files in order, repeatable; '-' reads stdin (so does no option at all
        /// when stdin is a pipe or a file).
        #[arg(short = 'e', long = "environment", value_name = "ENV", num_args = 1..)]
        envs: Vec<String>,
        /// Files given without -e (an error that says how to give them).
        #[arg(hide = true)]
        stray: Vec<String>,
    },
    /// Look up a key (or every key) through a hierarchy: Datum layers, a Datum tree, or Hiera 5
    /// (by default the most specific value wins; lookup_options choose merges).
    Lookup {
        #[command(flatten)]
        common: Common,
        /// Key path, segments separated by '\' or '/'; without it every key is resolved.
        key: Option<String>,
        /// Layer files, most specific first.
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["datum", "hiera", "facts", "merge", "knock_out_prefix", "sort_merged_arrays", "merge_hash_arrays", "default", "explain_levels"])]
        layer: Vec<String>,
        /// File with default_lookup_options and lookup_options (with --layer).
        #[arg(long, value_name = "FILE", requires = "layer", conflicts_with_all = ["hiera", "datum"])]
        options: Option<String>,
        /// Datum.yml of a Datum tree.
        #[arg(
            long,
            value_name = "Datum.yml",
            requires = "node",
            conflicts_with_all = ["hiera", "facts", "merge", "knock_out_prefix", "sort_merged_arrays", "merge_hash_arrays", "default", "explain_levels"]
        )]
        datum: Option<String>,
        /// Node file whose properties resolve the Datum precedence.
        #[arg(long, value_name = "NODE.yml", requires = "datum")]
        node: Option<String>,
        /// hiera.yaml (Hiera 5). A one-key lookup reuses the indexes of data files kept in
        /// the cache folder ($STRATA_CACHE_DIR, else ~/.cache/strata; empty: off).
        #[arg(long, value_name = "hiera.yaml")]
        hiera: Option<String>,
        /// Facts for Hiera interpolation.
        #[arg(long, value_name = "FACTS.yaml", requires = "hiera")]
        facts: Option<String>,
        #[command(flatten)]
        hiera_opts: HieraOpts,
    },
    /// Render Airship Deckhand documents: layering, substitution, replacement (a child's merge
    /// action deep-merges mappings; lists and scalars replace).
    Deckhand {
        #[command(flatten)]
        common: Common,
        /// Run Deckhand's pre-validation (document and metadata schemas, duplicates).
        #[arg(long)]
        validate: bool,
        /// After rendering, validate each document's data against its DataSchema in the set.
        #[arg(long)]
        check_schemas: bool,
        /// Skip substitutions whose source is missing (warning) instead of failing.
        #[arg(long)]
        allow_missing_substitution_source: bool,
        /// Files or directories (walked recursively, sorted, *.yaml / *.yml); '-' reads stdin
        /// (so does no INPUT when stdin is a pipe or a file).
        inputs: Vec<String>,
    },
    /// Read, validate or write back an Ardana input model (a directory of YAML files).
    Ardana {
        #[command(subcommand)]
        action: ArdanaAction,
    },
    /// Merge plain YAML / JSON files in order; every document of a file is a layer (a warning
    /// says so when a file holds several). Without --how: maps merge deeply, a later scalar or
    /// list replaces an earlier one. With --how: cloud-init's mergers, whose defaults keep
    /// earlier values (dict() is no_replace; dict(replace) takes later values whole, without
    /// recursing).
    Merge {
        #[command(flatten)]
        common: Common,
        /// cloud-init merger spec applied to every layer, e.g. 'dict(no_replace,recurse_list)+list(append)'
        /// (nested mappings merged, lists appended, earlier scalars kept).
        /// Defaults as cloud-init's: dict() keeps earlier values (no_replace), list() replaces
        /// index-wise, str() replaces; a type without a merger keeps its earlier value.
        #[arg(long, value_name = "SPEC")]
        how: Option<String>,
        /// Per-path rules in lookup_options form.
        #[arg(long, value_name = "FILE", conflicts_with = "how")]
        rules: Option<String>,
        /// Files in order; '-' reads stdin (so does no INPUT when stdin is a pipe or a file).
        inputs: Vec<String>,
    },
}

impl Command {
    /// The rendering options; `None` for `ardana validate` and `write`, which render nothing.
    pub(super) fn common(&self) -> Option<&Common> {
        match self {
            Command::CloudInit { common, .. }
            | Command::Heat { common, .. }
            | Command::Lookup { common, .. }
            | Command::Deckhand { common, .. }
            | Command::Merge { common, .. }
            | Command::Ardana {
                action: ArdanaAction::Read { common, .. },
            } => Some(common),
            Command::Ardana { .. } => None,
        }
    }

    pub(super) fn base(&self) -> &Base {
        match self {
            Command::CloudInit { common, .. }
            | Command::Heat { common, .. }
            | Command::Lookup { common, .. }
            | Command::Deckhand { common, .. }
            | Command::Merge { common, .. } => &common.base,
            Command::Ardana { action } => action.base(),
        }
    }

    /// The output format when `--output` is not given: JSON for the combined Ardana model
    /// (the service's format, and what `ardana write` reads), else YAML.
    pub(super) fn default_format(&self) -> Format {
        match self {
            Command::Ardana { .. } => Format::Json,
            _ => Format::Yaml,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum OutputArg {
    Yaml,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum YamlArg {
    #[value(name = "1.1")]
    V11,
    #[value(name = "1.2")]
    V12,
}

/// The options of every rendering command: what to write and where, then `Base`.
#[derive(Args, Debug)]
pub(super) struct Common {
    /// Output format [default: yaml; json for ardana read].
    #[arg(long, value_enum)]
    pub(super) output: Option<OutputArg>,
    /// Write the result to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
    /// Say where every value came from; with =POINTER, the history of one value.
    #[arg(long, value_name = "POINTER", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    pub(super) explain: Option<String>,
    /// YAML output without the inputs' comments and spellings: every value written afresh in
    /// strata's canonical form (docs/comments.md).
    #[arg(long)]
    pub(super) no_comments: bool,
    #[command(flatten)]
    pub(super) base: Base,
}

/// The options of every command that reads inputs (also `ardana validate` and `write`, which
/// render nothing): warnings, YAML rules, limits, threads, colour.
#[derive(Args, Debug)]
pub(super) struct Base {
    /// Treat warnings as errors (notes stay notes).
    #[arg(long, env = "STRATA_STRICT", value_parser = clap::builder::BoolishValueParser::new())]
    pub(super) strict: bool,
    /// Accept warnings of KIND: not shown, never an error (repeatable, or comma-separated;
    /// kinds: docs/warnings.md).
    #[arg(long, value_name = "KIND", env = "STRATA_ALLOW", value_delimiter = ',', value_parser = WarnKind::parse)]
    pub(super) allow: Vec<WarnKind>,
    /// Make warnings (and notes) of KIND errors, with or without --strict (repeatable, or
    /// comma-separated).
    #[arg(long, value_name = "KIND", env = "STRATA_DENY", value_delimiter = ',', value_parser = WarnKind::parse)]
    pub(super) deny: Vec<WarnKind>,
    /// Scalar resolution rules for YAML input.
    #[arg(long, value_enum, default_value = "1.1")]
    pub(super) yaml: YamlArg,
    /// Largest input accepted, in bytes.
    #[arg(long, value_name = "BYTES")]
    pub(super) max_input_size: Option<usize>,
    /// Threads that read, parse and write [default: the cores available]; 1 = one after another.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) jobs: Option<u32>,
    /// Colour messages on stderr: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub(super) color: colour::When,
}
