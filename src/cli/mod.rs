//! The command line: clap arguments → a front-end run → rendered output on stdout or written
//! atomically to `--out`. The only module that touches files, the environment and the terminal.
//! Exit codes: 0 rendered, 1 the input is wrong, 2 the command line is wrong; broken pipe → 0.

use crate::error::warning::{Action, Policy};
use crate::error::{Error, ErrorKind, WarnKind, Warning};
use crate::frontend::{Run, Settings};
use crate::load::YamlVersion;
use crate::render::{self, Format};
use crate::rendered::Rendered;
use crate::value::style::StyleSink;
use crate::value::{Path, SourceMap, Span};
use clap::{CommandFactory, FromArgMatches, Parser};
use std::io::{IsTerminal, Write};
use std::path::Path as FsPath;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

mod ardana;
mod args;
mod cache;
mod colour;
mod completions;
mod diff;
mod docs;
mod examples;
mod files;
mod hiera;
mod job;
mod out;
mod stdin;
mod tree;
use ardana::ArdanaAction;
use args::{Base, Cli, Command, Common, OutputArg, Top, YamlArg};
use files::{write_stdout_with, MAX_INPUT_SIZE};
use hiera::run_explain_levels;
pub use out::write_out_with;
use tree::{Disk, Tree, TreeFiles};

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let clap_colour = match colour::from_args(&args) {
        Some(colour::When::Always) => clap::ColorChoice::Always,
        Some(colour::When::Never) => clap::ColorChoice::Never,
        _ => clap::ColorChoice::Auto,
    };
    let parsed = Cli::command()
        .color(clap_colour)
        .try_get_matches_from(std::env::args_os())
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            if e.kind() == clap::error::ErrorKind::DisplayHelp {
                examples::print_for(&args);
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let command = match cli.command {
        Top::Render(command) => command,
        Top::Completions { shell } => return print_with(|w| docs::completions(shell, w)),
        Top::Man => return print_with(docs::man),
        Top::Diff(args) => return diff::main(args),
    };
    colour::set(colour::enabled(
        command.base().color,
        |name| std::env::var(name).ok(),
        std::io::stderr().is_terminal(),
    ));
    let mut sources = SourceMap::new();
    let code = match run(command, &mut sources) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(colour::for_stderr(e.render(&sources)).as_bytes());
            ExitCode::from(e.exit_code())
        }
    };
    // The texts are left to the OS too (see `run`).
    std::mem::forget(sources);
    code
}

/// Writes a generated text to stdout (a closed pipe is not an error).
fn print_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match write(&mut stdout).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            let _ = writeln!(std::io::stderr(), "error: cannot write to stdout: {e}");
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    }
}

fn settings_of(common: &Common) -> Settings {
    Settings {
        explain: common.explain.is_some(),
        ..base_settings(&common.base)
    }
}

/// The settings `Base` gives (no `--explain`).
fn base_settings(common: &Base) -> Settings {
    let mut settings = Settings::default();
    settings.load.dialect.version = match common.yaml {
        YamlArg::V11 => YamlVersion::V1_1,
        YamlArg::V12 => YamlVersion::V1_2,
    };
    if let Some(max) = common.max_input_size {
        settings.load.limits.max_input_size = max;
    }
    settings.load.threads.jobs = common
        .jobs
        .map_or_else(crate::par::default_jobs, |n| n as usize);
    // For tests: parallel loading of inputs too small to be worth it (a fixture of a few
    // lines), so that `--jobs` can be checked on every fixture.
    if let Some(min) = std::env::var("STRATA_TEST_PARALLEL_MIN")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        settings.load.threads.min_bytes = min;
    }
    MAX_INPUT_SIZE.store(settings.load.limits.max_input_size, Ordering::Relaxed);
    settings
}

/// Builds the job a rendering command asks for and renders it in one `Run`, whose store
/// serves the files the front-end finds itself from `tree` (with the cache folder's indexes).
fn dispatch(
    command: Command,
    sources: &mut SourceMap,
    settings: &Settings,
    tree: &mut dyn Tree,
) -> Result<Rendered, Error> {
    let job = job::build(command, tree, settings)?;
    let mut files = TreeFiles::indexed(tree);
    job::render(job, &mut Run::new(sources, settings, &mut files))
}

/// Runs a command line (without the program name) in-process with `--explain` on, returning
/// the rendered result and its sources. For tests that check every recorded position.
pub fn explain_in_process(args: &[String]) -> Result<(Rendered, SourceMap), Error> {
    let argv = std::iter::once("strata".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| Error::new(ErrorKind::Usage, e.to_string()))?;
    let Top::Render(mut command) = cli.command else {
        return Err(Error::new(ErrorKind::Usage, "not a rendering command"));
    };
    stdin::default_inputs(&mut command, stdin::Stdin::Other)?;
    let mut settings = base_settings(command.base());
    settings.explain = true;
    let mut sources = SourceMap::new();
    let rendered = dispatch(command, &mut sources, &settings, &mut Disk::strict())?;
    Ok((rendered, sources))
}

fn run(mut command: Command, sources: &mut SourceMap) -> Result<(), Error> {
    stdin::default_inputs(&mut command, stdin::Stdin::of_process())?;
    if matches!(&command, Command::Lookup { hiera_opts, .. } if hiera_opts.explain_levels) {
        return run_explain_levels(command, sources);
    }
    if let Command::Ardana { action } = &command {
        if let Some(done) = ardana::run(action, sources) {
            return done;
        }
    }
    let Some(common) = command.common() else {
        return Err(Error::new(ErrorKind::Usage, "this command renders nothing"));
    };
    let mut settings = settings_of(common);
    // Without --output, a `-o` file named `.json` / `.yaml` / `.yml` says the format.
    let named = common
        .out
        .as_deref()
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .and_then(|e| match e.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        });
    let format = match common.output {
        Some(OutputArg::Yaml) => Format::Yaml,
        Some(OutputArg::Json) => Format::Json,
        None => named.unwrap_or_else(|| command.default_format()),
    };
    let out_warnings = out_warnings(common, format, named);
    // YAML output keeps the inputs' comments and spellings (docs/comments.md).
    let styles = (format == Format::Yaml && !common.no_comments).then(StyleSink::default);
    settings.load.styles = styles.clone();
    if common.explain.as_deref() == Some("") {
        if let Some(p) = inputs_of(&command)
            .iter()
            .find(|i| i.starts_with('/') && !FsPath::new(i).exists())
        {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("'{p}' is not a file: did you mean --explain={p}?"),
            )
            .hint("a JSON Pointer is joined to --explain with '=': --explain=/runcmd/2"));
        }
    }
    let focus = match common.explain.as_deref() {
        None | Some("") => None,
        Some(p) => Some(Path::parse_pointer(p).map_err(|e| {
            Error::new(ErrorKind::Usage, format!("invalid --explain pointer: {e}"))
                .hint("write --explain=/runcmd/2")
        })?),
    };
    // `-o -` is standard output.
    let out = common.out.clone().filter(|p| p.as_os_str() != "-");
    let policy = policy_of(&common.base)?;
    let mut rendered = match dispatch(command, sources, &settings, &mut Disk::strict()) {
        Ok(r) => r,
        Err(mut e) => {
            report_before(&mut e, sources, &policy);
            return Err(e);
        }
    };
    if let Some(p) = focus
        .as_ref()
        .filter(|p| render::explain::focus_names_nothing(&rendered, p))
    {
        let keys = rendered.doc.as_map().map(|m| {
            m.iter()
                .take(8)
                .map(|(k, _)| format!("/{}", crate::value::key_text(&k.0)))
                .collect::<Vec<_>>()
                .join(", ")
        });
        let e = Error::new(
            ErrorKind::Usage,
            format!(
                "--explain={p}: the result has no value there, and no merge decision touched it"
            ),
        );
        return Err(match keys.filter(|k| !k.is_empty()) {
            Some(k) => e.hint(format!("the result's top-level keys: {k}")),
            None => e,
        });
    }
    rendered.warnings.splice(0..0, out_warnings);
    let styles = styles.map(|s| s.book_under(rendered.header));
    if format == Format::Json {
        // Binary data and sets have no JSON type: say what they become.
        let notes = render::json::lossy(&rendered.doc);
        rendered.warnings.extend(notes);
    }
    report_warnings(&rendered.warnings, sources, &policy)?;
    let result = match format {
        // Streamed: the rendered text is never held whole.
        Format::Yaml => {
            let options = render::yaml::Options {
                styles: styles.as_ref(),
                threads: settings.load.threads,
                psych: rendered.psych,
            };
            let mut emit = |w: &mut dyn Write| {
                if settings.explain {
                    render::explain::write_yaml(&rendered, sources, focus.as_ref(), options, w)
                } else if rendered.stream.is_some() {
                    let docs = rendered.doc.as_list().unwrap_or_default();
                    render::yaml::write_stream(docs, options, w)
                } else {
                    render::yaml::write(&rendered.doc, rendered.header, options, w)
                }
            };
            match out {
                Some(path) => write_out_with(&path, &mut emit),
                None => write_stdout_with(&mut emit),
            }
        }
        Format::Json if settings.explain => {
            // The only step that can fail comes first; then the entries are streamed.
            let result = render::explain::json_result(&rendered, focus.as_ref())?;
            let mut emit = |w: &mut dyn Write| {
                render::explain::write_json(&rendered, sources, focus.as_ref(), &result, w)
            };
            match out {
                Some(path) => write_out_with(&path, &mut emit),
                None => write_stdout_with(&mut emit),
            }
        }
        Format::Json => {
            // A value with no JSON form fails before any byte is written.
            render::json::check(&rendered.doc)?;
            let mut emit = |w: &mut dyn Write| render::json::write(&rendered.doc, w);
            match out {
                Some(path) => write_out_with(&path, &mut emit),
                None => write_stdout_with(&mut emit),
            }
        }
    };
    // The process exits next: the trees, and the spellings and comments kept for them, are
    // left to the OS instead of being freed block by block (a few percent of a large render;
    // W2's 500 parts: 12 %).
    std::mem::forget(rendered);
    std::mem::forget(styles);
    result
}

/// The input files named on the command line (for messages about them).
fn inputs_of(command: &Command) -> Vec<String> {
    match command {
        Command::CloudInit { inputs, .. }
        | Command::Deckhand { inputs, .. }
        | Command::Merge { inputs, .. } => inputs.clone(),
        Command::Heat { envs, stray, .. } => envs.iter().chain(stray).cloned().collect(),
        Command::Lookup { layer, .. } => layer.clone(),
        Command::Ardana { .. } => Vec::new(),
    }
}

/// What `-o` says that the user probably did not mean: a file named like a format (`-o json`,
/// kubectl's and yq's format flag, writes a file named `json`), or a file whose name says
/// another format than `--output` writes.
fn out_warnings(common: &Common, format: Format, named: Option<Format>) -> Vec<Warning> {
    let Some(out) = common.out.as_deref() else {
        return Vec::new();
    };
    let text = out.to_string_lossy();
    let word = |f: Format| if f == Format::Json { "JSON" } else { "YAML" };
    let mut w = Vec::new();
    if matches!(text.as_ref(), "json" | "yaml" | "yml") {
        w.push(Warning::new(WarnKind::OutputName,
            format!("-o {text} writes {} into a file named '{text}' (-o is the output file); for {} on standard output write --output {}", word(format), text.to_uppercase().replace("YML", "YAML"), if text == "json" { "json" } else { "yaml" }),
            Span::NONE,
        ));
    } else if let Some(n) = named.filter(|n| *n != format) {
        w.push(Warning::new(
            WarnKind::OutputName,
            format!(
                "-o {text}: the name says {} but --output writes {}",
                word(n),
                word(format)
            ),
            Span::NONE,
        ));
    }
    w
}

/// `--strict`, `--allow` and `--deny` of a command line.
fn policy_of(common: &Base) -> Result<Policy, Error> {
    Policy::new(common.strict, common.allow.clone(), common.deny.clone())
}

/// Prints the warnings the policy shows and fails with the ones it fails.
fn report_warnings(
    warnings: &[Warning],
    sources: &SourceMap,
    policy: &Policy,
) -> Result<(), Error> {
    let mut failed: Vec<&Warning> = Vec::new();
    let mut stderr = std::io::stderr().lock();
    for w in warnings {
        match policy.action(w.kind) {
            Action::Show => show(&mut stderr, w, sources),
            Action::Quiet => {}
            Action::Fail => failed.push(w),
        }
    }
    // Each failed warning is an error; the hint (which option failed it) is said once per kind.
    let mut hinted: Vec<WarnKind> = Vec::new();
    let mut failed = failed.into_iter().map(|w| {
        let mut e = w.clone().into_error(&policy.why(w.kind));
        if hinted.contains(&w.kind) {
            e.hint = None;
        }
        hinted.push(w.kind);
        e
    });
    match failed.next() {
        Some(first) => Err(failed.fold(first, Error::also)),
        None => Ok(()),
    }
}

/// One warning on stderr, as an error is shown (position, the line, a caret; coloured).
fn show(stderr: &mut impl Write, w: &Warning, sources: &SourceMap) {
    let _ = writeln!(stderr, "{}", colour::for_stderr(w.render(sources)));
}

/// The warnings a render gathered before it failed, printed before its error (a failed
/// warning among them is shown as a warning: the error is what fails the run).
fn report_before(e: &mut Error, sources: &SourceMap, policy: &Policy) {
    let mut stderr = std::io::stderr().lock();
    for w in e.take_warnings() {
        if policy.action(w.kind) != Action::Quiet {
            show(&mut stderr, &w, sources);
        }
    }
}
