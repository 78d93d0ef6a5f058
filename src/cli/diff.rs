//! `strata diff` on the command line: `--base REV [--head REV] -- SUBCOMMAND ARGS...` renders
//! the same command with every input read at the base revision and at the head (the working
//! tree by default), both explained, and reports what changed and why; `strata diff OLD NEW`
//! compares two renders already on disk. Exit 0, or with `--exit-code` 3 when something
//! changed (1 and 2 stay the contract's: bad input, bad command line).

use super::files::write_stdout_with;
use super::out::write_out_with;
use super::tree::{Disk, GitTree, Tree};
use super::{colour, dispatch, report_warnings, Cli, Command, Top};
use crate::error::{Error, ErrorKind, Warning};
use crate::frontend::{add_text_input, Settings};
use crate::load;
use crate::render::diff::{self, Kind, Side};
use crate::rendered::{Rendered, Stream};
use crate::value::{Node, SourceMap, Span};
use clap::{Parser, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit code of `--exit-code` when the renders differ.
pub(super) const CHANGED: u8 = 3;

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub(super) enum DiffOutput {
    /// A report for people: changes grouped by the input line that caused them.
    #[default]
    Text,
    /// One entry per changed path, with both provenances (for bots).
    Json,
}

/// `strata diff` arguments.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 (also when the renders differ, unless --exit-code), 1 an input is wrong, 2 the command line is wrong, 3 the renders differ (with --exit-code)."
)]
pub(super) struct DiffArgs {
    /// Git revision whose files the base render reads (then the render command follows '--').
    #[arg(long, value_name = "REV")]
    base: Option<String>,
    /// Git revision whose files the head render reads [default: the working tree].
    #[arg(long, value_name = "REV", requires = "base")]
    head: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    output: DiffOutput,
    /// One line per changed top-level key (per document in a stream).
    #[arg(long, conflicts_with = "output")]
    stat: bool,
    /// Leave out values that only moved (the same value, now written in another file).
    #[arg(long)]
    ignore_moves: bool,
    /// Exit with 3 when the renders differ (0 when they do not).
    #[arg(long)]
    exit_code: bool,
    /// Write the report to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Colour the report: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    color: colour::When,
    /// OLD NEW (two rendered files), or after '--' the render command: SUBCOMMAND ARGS...
    #[arg(
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    args: Vec<String>,
}

/// Runs `strata diff`; prints its own errors (each side's with that side's sources).
pub(super) fn main(a: DiffArgs) -> ExitCode {
    colour::set(colour::enabled(
        a.color,
        |name| std::env::var(name).ok(),
        std::io::stderr().is_terminal(),
    ));
    match run(&a) {
        Ok(changed) if changed && a.exit_code => ExitCode::from(CHANGED),
        Ok(_) => ExitCode::SUCCESS,
        Err(failed) => {
            let (e, sources) = *failed;
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(colour::for_stderr(e.render(&sources)).as_bytes());
            ExitCode::from(e.exit_code())
        }
    }
}

/// An error and the sources its positions point into (boxed: errors are rare).
type Failed = Box<(Error, SourceMap)>;

fn plain(e: Error) -> Failed {
    Box::new((e, SourceMap::new()))
}

/// Both renders, the changes, the report; whether anything changed.
fn run(a: &DiffArgs) -> Result<bool, Failed> {
    let (base, head) = match &a.base {
        Some(rev) => renders(rev, a.head.as_deref(), &a.args)?,
        None => files(&a.args)?,
    };
    // Two rendered files are two names: a value in both has not moved.
    let moves = a.base.is_some();
    let mut changes = diff::compare(
        &Side {
            rendered: &base.0,
            sources: &base.1,
        },
        &Side {
            rendered: &head.0,
            sources: &head.1,
        },
        moves,
    );
    if a.ignore_moves {
        changes.retain(|c| c.kind != Kind::Moved);
    }
    let colour = a.out.is_none()
        && colour::enabled(
            a.color,
            |name| std::env::var(name).ok(),
            std::io::stdout().is_terminal(),
        );
    let mut emit = |w: &mut dyn Write| -> std::io::Result<()> {
        if a.stat {
            diff::write_stat(&changes, w)
        } else {
            match a.output {
                DiffOutput::Text => diff::write_human(&changes, colour, w),
                DiffOutput::Json => diff::write_json(&changes, w),
            }
        }
    };
    match &a.out {
        Some(path) => write_out_with(path, &mut emit),
        None => write_stdout_with(&mut emit),
    }
    .map_err(plain)?;
    Ok(!changes.is_empty())
}

type Render = (Rendered, SourceMap);

/// The render command after `--`, parsed as the top-level command line parses it.
fn command_of(args: &[String]) -> Result<Command, Failed> {
    let argv = std::iter::once("strata".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("").trim_start_matches("error: ");
        plain(
            Error::new(ErrorKind::Usage, format!("the render command after '--': {first}"))
                .hint("write strata diff --base REV -- SUBCOMMAND ARGS..., e.g. strata diff --base main -- merge a.yaml b.yaml"),
        )
    })?;
    let mut command = match cli.command {
        Top::Render(c) => c,
        _ => {
            return Err(plain(
                Error::new(
                    ErrorKind::Usage,
                    "strata diff compares renders: give a render command after '--'",
                )
                .hint("cloud-init, heat, deckhand, lookup, ardana read or merge"),
            ))
        }
    };
    super::stdin::default_inputs(&mut command, super::stdin::Stdin::Unavailable).map_err(plain)?;
    if let Command::Ardana { action } = &command {
        if !matches!(action, super::ardana::ArdanaAction::Read { .. }) {
            return Err(plain(Error::new(
                ErrorKind::Usage,
                "of the ardana commands, strata diff compares 'ardana read' (the combined model)",
            )));
        }
    }
    if let Command::Lookup { hiera_opts, .. } = &command {
        if hiera_opts.explain_levels {
            return Err(plain(Error::new(
                ErrorKind::Usage,
                "--explain-levels prints a report, not a render: leave it out of strata diff",
            )));
        }
    }
    if command.common().is_none_or(|c| c.out.is_some()) {
        return Err(plain(
            Error::new(
                ErrorKind::Usage,
                "the render command's --out has no use in strata diff",
            )
            .hint("give --out to strata diff itself, before '--'"),
        ));
    }
    Ok(command)
}

fn render_in(args: &[String], tree: &mut dyn Tree, head: bool) -> Result<Render, Failed> {
    let command = command_of(args)?;
    let policy = super::policy_of(command.base()).map_err(|e| Box::new((e, SourceMap::new())))?;
    let mut settings: Settings = super::base_settings(command.base());
    settings.explain = true;
    let mut sources = SourceMap::new();
    match dispatch(command, &mut sources, &settings, tree) {
        Ok(rendered) => {
            // The head's warnings are the ones a user acts on; the base's were seen before.
            if head {
                if let Err(e) = report_warnings(&rendered.warnings, &sources, &policy) {
                    return Err(Box::new((e, sources)));
                }
            }
            Ok((rendered, sources))
        }
        Err(e) => Err(Box::new((e, sources))),
    }
}

/// Renders the command at the two revisions.
fn renders(base: &str, head: Option<&str>, args: &[String]) -> Result<(Render, Render), Failed> {
    if args.is_empty() {
        return Err(plain(
            Error::new(
                ErrorKind::Usage,
                "strata diff --base needs the render command after '--'",
            )
            .hint("write strata diff --base REV -- SUBCOMMAND ARGS..."),
        ));
    }
    command_of(args)?;
    let mut base_tree = GitTree::open(base).map_err(plain)?;
    let mut head_git = head.map(GitTree::open).transpose().map_err(plain)?;
    let mut disk = Disk {
        absent_ok: true,
        missing: Vec::new(),
    };
    let head_name = head.map_or("the working tree".to_string(), |h| {
        format!("revision '{h}'")
    });
    // Which render an error comes from.
    let side = |which: String| {
        move |f: Failed| -> Failed {
            let (e, sources) = *f;
            Box::new((e.note(which.clone(), Span::NONE), sources))
        }
    };
    let at_base = side(format!("in the base render (revision '{base}')"));
    let at_head = side(format!("in the head render ({head_name})"));
    let (b, h) = std::thread::scope(|s| {
        let b = s.spawn(|| render_in(args, &mut base_tree, false));
        let h = match head_git.as_mut() {
            Some(t) => render_in(args, t, true),
            None => render_in(args, &mut disk, true),
        };
        (b.join(), h)
    });
    let b = b.map_err(|_| plain(Error::new(ErrorKind::Io, "the base render failed")))?;
    let b = b.map_err(at_base)?;
    let h = h.map_err(at_head)?;
    let head_missing = match &head_git {
        Some(t) => t.missing(),
        None => &disk.missing[..],
    };
    if let Some(name) = base_tree
        .missing()
        .iter()
        .find(|n| head_missing.contains(n))
    {
        let head_where = head.map_or("in the working tree".to_string(), |h| format!("at '{h}'"));
        return Err(plain(
            Error::new(
                ErrorKind::Io,
                format!("{name} exists neither at '{base}' nor {head_where}"),
            )
            .in_file(name.clone())
            .hint("check the path: a file that exists on one side only is compared as added or deleted"),
        ));
    }
    Ok((b, h))
}

/// Two renders on disk (YAML, JSON, or a stream of YAML documents).
fn files(args: &[String]) -> Result<(Render, Render), Failed> {
    let [old, new] = args else {
        return Err(plain(
            Error::new(
                ErrorKind::Usage,
                format!(
                    "strata diff takes two rendered files, OLD NEW (got {})",
                    args.len()
                ),
            )
            .hint("or render both sides from git: strata diff --base REV -- SUBCOMMAND ARGS..."),
        ));
    };
    let one = |name: &String| -> Result<(Vec<Node>, SourceMap), Failed> {
        let input = super::files::read_one(name).map_err(plain)?;
        let mut sources = SourceMap::new();
        let settings = Settings::default();
        let json = load::is_json_name(&input.name);
        let docs = (|| {
            let id = add_text_input(input, &mut sources, &settings)?;
            let text = sources.text(id).to_string();
            let mut warnings: Vec<Warning> = Vec::new();
            if json {
                load::json::load(&text, id, &settings.load).map(|d| vec![d])
            } else {
                load::yaml::load_stream(&text, id, &settings.load, &mut warnings)
            }
        })();
        match docs {
            Ok(d) => Ok((d, sources)),
            Err(e) => Err(Box::new((e, sources))),
        }
    };
    let (od, os) = one(old)?;
    let (nd, ns) = one(new)?;
    let stream = od.len() > 1 || nd.len() > 1;
    let render = |docs: Vec<Node>| -> Rendered {
        let doc = if stream {
            Node::list(docs, Span::NONE)
        } else {
            docs.into_iter()
                .next()
                .unwrap_or_else(|| Node::null(Span::NONE))
        };
        let rendered = Rendered::new(doc, Vec::new(), None);
        match stream {
            true => rendered.with_stream(Stream::default()),
            false => rendered,
        }
    };
    Ok(((render(od), os), (render(nd), ns)))
}
