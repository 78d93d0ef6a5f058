//! Standard input as the input when a command names none, as jq and yq read it:
//! `cat a.yaml | strata merge` is `strata merge -`. Only for the subcommands whose inputs are
//! a list of documents (`cloud-init`, `merge`, `deckhand`, and `heat`'s environment files when
//! it is given nothing at all); `lookup` (a hierarchy) and `ardana` (a directory) still need
//! their files named. Standard input counts as an input only when it is a pipe or a file: a
//! terminal, or a device such as `/dev/null` (what a CI job or a service usually gets), keeps
//! the usage error, which then says how to read standard input.

use super::Command;
use crate::error::{Error, ErrorKind};
use std::io::IsTerminal;

/// What standard input is, for a command that names no input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stdin {
    /// A pipe or a file: read it as `-`.
    Data,
    /// A terminal or a device: not read unless named.
    Other,
    /// Not offered at all (`strata diff` reads every input at two revisions).
    Unavailable,
}

impl Stdin {
    /// This process's standard input.
    pub(super) fn of_process() -> Stdin {
        if data() {
            Stdin::Data
        } else {
            Stdin::Other
        }
    }
}

#[cfg(unix)]
fn data() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    let Ok(fd) = stdin.as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_file())
}

#[cfg(not(unix))]
fn data() -> bool {
    !std::io::stdin().is_terminal()
}

/// Names `-` as the input of a command that names none when standard input holds data;
/// otherwise a command that needs inputs is a usage error.
pub(super) fn default_inputs(command: &mut Command, stdin: Stdin) -> Result<(), Error> {
    let (name, inputs) = match command {
        Command::CloudInit { inputs, .. } => ("cloud-init", inputs),
        Command::Merge { inputs, .. } => ("merge", inputs),
        Command::Deckhand { inputs, .. } => ("deckhand", inputs),
        Command::Heat {
            envs,
            template: None,
            params,
            stray,
            ..
        } if params.is_empty() && stray.is_empty() => {
            if envs.is_empty() && stdin == Stdin::Data {
                envs.push("-".to_string());
            }
            return Ok(());
        }
        _ => return Ok(()),
    };
    if !inputs.is_empty() {
        return Ok(());
    }
    let what = if name == "deckhand" {
        "INPUT files or directories"
    } else {
        "INPUT files"
    };
    match stdin {
        Stdin::Data => {
            inputs.push("-".to_string());
            Ok(())
        }
        Stdin::Other => Err(Error::new(
            ErrorKind::Usage,
            format!("strata {name} needs {what}"),
        )
        .hint(format!(
            "name them, or pipe one in: cat a.yaml | strata {name}; '-' reads standard input (also a terminal: end it with Ctrl-D)"
        ))),
        Stdin::Unavailable => Err(Error::new(
            ErrorKind::Usage,
            format!("strata {name} needs {what}"),
        )
        .hint(format!("write strata diff --base REV -- {name} INPUT..."))),
    }
}
