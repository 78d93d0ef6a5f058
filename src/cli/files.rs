//! The CLI's files: reading inputs (a file or stdin, bounded by `--max-input-size` before a
//! byte is read), writing stdout (a closed pipe is not an error), and the I/O error messages.
//! `--out` is `out.rs`.

use crate::error::{Error, ErrorKind};
use crate::frontend::Input;
use crate::value::Reload;
use std::io::{IsTerminal, Read, Write};
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Standard input can be read once: a second `-` is an error naming it.
pub(super) fn check_stdin_once(names: &[String]) -> Result<(), Error> {
    let mut dashes = names.iter().enumerate().filter(|(_, n)| *n == "-");
    if let (Some(_), Some((i, _))) = (dashes.next(), dashes.next()) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("'-' (standard input) is given twice: input {} is the second one; stdin can be read only once", i + 1),
        )
        .hint("give '-' once, and the other inputs as files"));
    }
    Ok(())
}

/// The largest input `read_one` reads (`--max-input-size`), set by `settings_of`: a larger
/// file is refused from its metadata before any byte is read, and stdin is read only up to
/// one byte past it, so memory stays bounded whatever the input.
pub(super) static MAX_INPUT_SIZE: AtomicUsize = AtomicUsize::new(usize::MAX);

pub(super) fn too_large(name: &str, size: Option<u64>, max: usize) -> Error {
    let size = match size {
        Some(n) => format!("{n} bytes, "),
        None => String::new(),
    };
    Error::new(
        ErrorKind::Limit,
        format!("{name} is {size}more than the limit of {max}"),
    )
    .in_file(name)
    .hint("raise the limit with --max-input-size BYTES")
}

/// Reads at most `max + 1` bytes, so an input over the limit is noticed without holding it.
pub(super) fn read_bounded(reader: impl Read, max: usize, hint: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(hint.min(max).saturating_add(1));
    reader
        .take(u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How to read a regular file's text again after it is released: as Python's `linecache`
/// does, only if its size and modification time are still those of the first read.
pub(super) fn reload(path: &FsPath, first: &std::fs::Metadata) -> Option<Reload> {
    if !first.is_file() {
        return None;
    }
    let (path, len, modified) = (path.to_path_buf(), first.len(), first.modified().ok()?);
    Some(Reload(Arc::new(move || {
        let file = std::fs::File::open(&path).ok()?;
        let now = file.metadata().ok()?;
        if now.len() != len || now.modified().ok()? != modified {
            return None;
        }
        let len = usize::try_from(len).ok()?;
        let bytes = read_bounded(file, len, len).ok()?;
        String::from_utf8(bytes).ok()
    })))
}

/// Reads one input: a file, or stdin for '-'.
pub(super) fn read_one(name: &str) -> Result<Input, Error> {
    let max = MAX_INPUT_SIZE.load(Ordering::Relaxed);
    {
        if name == "-" {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("strata: reading user input from the terminal (end with Ctrl-D)");
            }
            let bytes =
                read_bounded(stdin.lock(), max, 0).map_err(|e| io_error("<stdin>", "read", &e))?;
            if bytes.len() > max {
                return Err(too_large("<stdin>", None, max));
            }
            return Ok(Input {
                name: "<stdin>".into(),
                bytes,
                reload: None,
            });
        }
        let path = FsPath::new(name);
        if path.is_dir() {
            return Err(
                Error::new(ErrorKind::Io, format!("{name} is a directory, not a file"))
                    .in_file(name)
                    .hint("name the files inside it, e.g. dir/*.yaml"),
            );
        }
        let file = std::fs::File::open(path).map_err(|e| io_error(name, "read", &e))?;
        let meta = file.metadata().ok();
        let len = meta.as_ref().map_or(0, |m| m.len());
        if len > u64::try_from(max).unwrap_or(u64::MAX) {
            return Err(too_large(name, Some(len), max));
        }
        // A file that grows after the check is still cut at the limit (and refused later).
        let hint = usize::try_from(len).unwrap_or(usize::MAX);
        let bytes = read_bounded(file, max, hint).map_err(|e| io_error(name, "read", &e))?;
        let reload = meta.and_then(|m| reload(path, &m));
        Ok(Input {
            name: name.to_string(),
            bytes,
            reload,
        })
    }
}

pub(super) fn io_error(name: &str, verb: &str, e: &std::io::Error) -> Error {
    let hint = match e.kind() {
        std::io::ErrorKind::NotFound => "check the path",
        std::io::ErrorKind::PermissionDenied => "check the file's permissions",
        _ => "check the file",
    };
    Error::new(ErrorKind::Io, format!("cannot {verb} {name}: {e}"))
        .in_file(name)
        .hint(hint)
}

/// Writes stdout through `emit`; a closed pipe (`strata ... | head`) is not an error.
pub(super) fn write_stdout_with(
    emit: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match emit(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(io_error("<stdout>", "write", &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_again_only_while_unchanged() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("layer.yaml");
        std::fs::write(&path, "a: 1\n").expect("write");
        let meta = std::fs::metadata(&path).expect("metadata");
        let again = reload(&path, &meta).expect("a regular file can be read again");
        assert_eq!((again.0)().as_deref(), Some("a: 1\n"));
        std::fs::write(&path, "a: 12\n").expect("rewrite");
        assert_eq!(
            (again.0)(),
            None,
            "a changed file is not shown as the one read"
        );
        std::fs::remove_file(&path).expect("remove");
        assert_eq!((again.0)(), None);
    }
}
