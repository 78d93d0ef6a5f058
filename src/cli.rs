//! The command line: clap arguments → a front-end run → rendered output on stdout or written
//! atomically to `--out`. The only module that touches files, the environment and the terminal.
//! Exit codes: 0 rendered, 1 the input is wrong, 2 the command line is wrong; broken pipe → 0.

use crate::error::{Error, ErrorKind};
use crate::frontend::{self, Input, Rendered, Settings};
use crate::load::YamlVersion;
use crate::render::{self, Format};
use crate::value::{Path, SourceMap};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "strata", version, about = "Render layered configuration exactly as the owning system merges it, and explain every value.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Merge cloud-init user-data parts (#cloud-config, #cloud-config-archive, MIME multipart).
    #[command(name = "cloud-init")]
    CloudInit {
        #[command(flatten)]
        common: Common,
        /// User-data files in order; '-' reads stdin.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// Merge plain YAML / JSON files, later files over earlier ones.
    Merge {
        #[command(flatten)]
        common: Common,
        /// cloud-init merger spec applied to every layer, e.g. 'dict(recurse_list)+list(append)'.
        #[arg(long, value_name = "SPEC")]
        how: Option<String>,
        /// Files in order; '-' reads stdin.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OutputArg {
    Yaml,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum YamlArg {
    #[value(name = "1.1")]
    V11,
    #[value(name = "1.2")]
    V12,
}

#[derive(Args, Debug)]
struct Common {
    /// Output format.
    #[arg(long, value_enum, default_value = "yaml")]
    output: OutputArg,
    /// Write the result to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Say where every value came from; with =POINTER, the history of one value.
    #[arg(long, value_name = "POINTER", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    explain: Option<String>,
    /// Treat warnings as errors.
    #[arg(long)]
    strict: bool,
    /// Scalar resolution rules for YAML input.
    #[arg(long, value_enum, default_value = "1.1")]
    yaml: YamlArg,
    /// Largest input accepted, in bytes.
    #[arg(long, value_name = "BYTES")]
    max_input_size: Option<usize>,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut sources = SourceMap::new();
    match run(cli, &mut sources) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(e.render(&sources).as_bytes());
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli, sources: &mut SourceMap) -> Result<(), Error> {
    let (common, job): (&Common, Box<dyn FnOnce(Vec<Input>, &mut SourceMap, &Settings) -> Result<Rendered, Error>>) = match &cli.command {
        Command::CloudInit { common, .. } => (common, Box::new(frontend::cloudinit::render)),
        Command::Merge { common, how, .. } => {
            let how = how.clone();
            (common, Box::new(move |i, s, st| frontend::merge::render(i, how.as_deref(), s, st)))
        }
    };
    let inputs = match &cli.command {
        Command::CloudInit { inputs, .. } | Command::Merge { inputs, .. } => read_inputs(inputs)?,
    };
    let mut settings = Settings { explain: common.explain.is_some(), ..Settings::default() };
    settings.load.version = match common.yaml {
        YamlArg::V11 => YamlVersion::V1_1,
        YamlArg::V12 => YamlVersion::V1_2,
    };
    if let Some(max) = common.max_input_size {
        settings.load.max_input_size = max;
    }
    let focus = match common.explain.as_deref() {
        None | Some("") => None,
        Some(p) => Some(Path::parse_pointer(p).map_err(|e| Error::new(ErrorKind::Usage, format!("invalid --explain pointer: {e}")).hint("write --explain=/runcmd/2"))?),
    };
    let rendered = job(inputs, sources, &settings)?;
    report_warnings(&rendered, sources, common.strict)?;
    let format = match common.output {
        OutputArg::Yaml => Format::Yaml,
        OutputArg::Json => Format::Json,
    };
    let text = if settings.explain {
        render::explain::render(&rendered, sources, format, focus.as_ref())?
    } else {
        match format {
            Format::Yaml => render::yaml::to_string(&rendered.doc, rendered.header),
            Format::Json => render::json::to_string(&rendered.doc)?,
        }
    };
    match &common.out {
        Some(path) => write_atomic(path, text.as_bytes()),
        None => write_stdout(text.as_bytes()),
    }
}

fn report_warnings(rendered: &Rendered, sources: &SourceMap, strict: bool) -> Result<(), Error> {
    if strict {
        if let Some(first) = rendered.warnings.first() {
            return Err(first.clone().into_error());
        }
    }
    let mut stderr = std::io::stderr().lock();
    for w in &rendered.warnings {
        let _ = writeln!(stderr, "{}", w.render(sources));
    }
    Ok(())
}

fn read_inputs(names: &[String]) -> Result<Vec<Input>, Error> {
    let mut inputs = Vec::with_capacity(names.len());
    for name in names {
        if name == "-" {
            let mut bytes = Vec::new();
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("strata: reading user input from the terminal (end with Ctrl-D)");
            }
            stdin.lock().read_to_end(&mut bytes).map_err(|e| io_error("<stdin>", "read", &e))?;
            inputs.push(Input { name: "<stdin>".into(), bytes });
            continue;
        }
        let path = FsPath::new(name);
        if path.is_dir() {
            return Err(Error::new(ErrorKind::Io, format!("{name} is a directory, not a file")).in_file(name).hint("name the files inside it, e.g. dir/*.yaml"));
        }
        let bytes = std::fs::read(path).map_err(|e| io_error(name, "read", &e))?;
        inputs.push(Input { name: name.clone(), bytes });
    }
    Ok(inputs)
}

fn io_error(name: &str, verb: &str, e: &std::io::Error) -> Error {
    let hint = match e.kind() {
        std::io::ErrorKind::NotFound => "check the path",
        std::io::ErrorKind::PermissionDenied => "check the file's permissions",
        _ => "check the file",
    };
    Error::new(ErrorKind::Io, format!("cannot {verb} {name}: {e}")).in_file(name).hint(hint)
}

/// Writes stdout; a closed pipe (`strata ... | head`) is not an error.
fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(io_error("<stdout>", "write", &e)),
    }
}

/// Writes a temporary file beside the target, then renames it into place: readers see the old
/// file or the new one, never a half-written one.
pub fn write_atomic(path: &FsPath, bytes: &[u8]) -> Result<(), Error> {
    let name = path.display().to_string();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{file_name}.strata-{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_error(&name, "write", &e)
    })
}
