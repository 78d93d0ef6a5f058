//! Where `--out FILE` writes, and how (also the files `ardana write` replaces). A regular file,
//! new or existing, is replaced whole: the text goes to a temporary file beside it, which is
//! synced, given the old file's mode and owner, and renamed over it, so a reader sees the old
//! file or the new one. Anything else that exists is never renamed over: a character or block
//! device or a FIFO is opened and written in place, `/dev/stdout` (`/dev/fd/1`,
//! `/proc/self/fd/1`) is standard output, `/dev/stderr` standard error, and another
//! `/proc/…/fd/N` is opened and appended to. A symbolic link is followed: its target is
//! written and the link stays a link. An existing file the user may not write, one with no
//! write permission at all (0444, also for root), or one whose owner the new file could not
//! be given, is refused before anything is written.

use super::files::{io_error, write_stdout_with};
use crate::error::{Error, ErrorKind};
use std::fs::{Metadata, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What an `--out` path names.
#[derive(Debug)]
pub(super) enum Target {
    /// Standard output or standard error, by one of their names in `/dev` or `/proc`.
    Stdout,
    Stderr,
    /// Something written in place: a device, a FIFO, another open file descriptor (appended).
    InPlace {
        path: PathBuf,
        append: bool,
        what: &'static str,
    },
    /// A regular file to replace by a rename (`keep`: the existing file's metadata).
    Replace {
        path: PathBuf,
        keep: Option<Metadata>,
    },
}

/// Symbolic links followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Resolves `path` (spelled `name` in messages) to what a write to it must do, refusing what
/// cannot be written with care: a directory, a socket, a link whose target does not exist, a
/// regular file the user may not write or that has no write permission bit.
pub(super) fn target(path: &Path, name: &str) -> Result<Target, Error> {
    let mut p = path.to_path_buf();
    let mut followed = 0;
    loop {
        if p.starts_with("/proc") || p.starts_with("/dev/fd") {
            return Ok(descriptor(p));
        }
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && followed > 0 => {
                return Err(io_error(name, "write", &e).hint(
                    "the output is a symbolic link whose target does not exist: give the target's path, or remove the link",
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Target::Replace {
                    path: p,
                    keep: None,
                })
            }
            Err(e) => return Err(io_error(name, "write", &e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            followed += 1;
            if followed > MAX_LINKS {
                return Err(refused(name, "too many levels of symbolic links")
                    .hint("the link points (in the end) to itself"));
            }
            let to = std::fs::read_link(&p).map_err(|e| io_error(name, "write", &e))?;
            p = match p.parent() {
                Some(dir) if to.is_relative() => dir.join(to),
                _ => to,
            };
            continue;
        }
        if kind.is_file() {
            writable(&p, &meta, name)?;
            return Ok(Target::Replace {
                path: p,
                keep: Some(meta),
            });
        }
        if kind.is_dir() {
            return Err(
                refused(name, "it is a directory").hint("give a file name, e.g. DIR/out.yaml")
            );
        }
        if kind.is_socket() {
            return Err(
                refused(name, "it is a socket, which cannot be opened for writing")
                    .hint("give a file name, or -o - for standard output"),
            );
        }
        let what = if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else {
            "not a regular file"
        };
        return Ok(Target::InPlace {
            path: p,
            append: false,
            what,
        });
    }
}

/// A path in `/proc` or `/dev/fd`: this process's standard output or error by one of their
/// names, or a file descriptor (or `/proc` file) opened and appended to.
fn descriptor(p: PathBuf) -> Target {
    let mut parts = p.iter().skip(1).map(|c| c.to_string_lossy());
    let fd = match (parts.next().as_deref(), parts.next().as_deref()) {
        (Some("dev"), Some("fd")) => parts.next(),
        (Some("proc"), Some(who)) => {
            let own =
                who == "self" || who == "thread-self" || who == std::process::id().to_string();
            match (own, parts.next().as_deref()) {
                (true, Some("fd")) => parts.next(),
                _ => None,
            }
        }
        _ => None,
    };
    match (fd.as_deref(), parts.next()) {
        (Some("1"), None) => Target::Stdout,
        (Some("2"), None) => Target::Stderr,
        _ => Target::InPlace {
            path: p,
            append: true,
            what: "a file descriptor",
        },
    }
}

fn refused(name: &str, why: &str) -> Error {
    Error::new(ErrorKind::Io, format!("cannot write {name}: {why}")).in_file(name)
}

/// An existing regular file may be replaced only if the user may write it (the system's own
/// check: opening it for writing, which changes nothing) and some write permission bit is set:
/// a 0444 file was made read-only on purpose, and root passes every other check.
fn writable(path: &Path, meta: &Metadata, name: &str) -> Result<(), Error> {
    let mode = meta.permissions().mode();
    if mode & 0o222 == 0 {
        return Err(refused(
            name,
            &format!(
                "it is read-only (mode {:04o}), and strata keeps the mode of a file it replaces",
                mode & 0o7777
            ),
        )
        .hint("make it writable first (chmod u+w), or remove it"));
    }
    OpenOptions::new()
        .write(true)
        .open(path)
        .map(drop)
        .map_err(|e| io_error(name, "write", &e))
}

/// Writes what `emit` produces to the `--out` path: see the module's comment.
pub fn write_out_with(
    path: &Path,
    emit: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let name = path.display().to_string();
    match target(path, &name)? {
        Target::Stdout => write_stdout_with(emit),
        Target::Stderr => {
            let mut err = std::io::stderr().lock();
            emit(&mut err)
                .and_then(|()| err.flush())
                .map_err(|e| io_error("<stderr>", "write", &e))
        }
        Target::InPlace { path, append, .. } => {
            let result = OpenOptions::new()
                .write(true)
                .append(append)
                .open(&path)
                .and_then(|f| {
                    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
                    emit(&mut w)?;
                    w.flush()
                });
            match result {
                // A reader that went away (a FIFO, a pipe), as on standard output.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(io_error(&name, "write", &e))
                }
                _ => Ok(()),
            }
        }
        Target::Replace { path, keep } => {
            let staged = stage(&path, keep.as_ref(), &name, emit)?;
            staged.commit().map_err(|e| io_error(&name, "write", &e))
        }
    }
}

/// A new text written beside its target under a temporary name, synced and given the old
/// file's mode and owner: ready to be renamed over it.
#[derive(Debug)]
pub(super) struct Staged {
    pub tmp: PathBuf,
    pub path: PathBuf,
}

impl Staged {
    /// Renames the new text into place (the temporary file removed if that fails).
    pub(super) fn commit(self) -> std::io::Result<()> {
        std::fs::rename(&self.tmp, &self.path).inspect_err(|_| self.discard())
    }

    pub(super) fn discard(&self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Writes `emit`'s output to a new temporary file beside `path` (created afresh, never through
/// a link, and never more open than the file it replaces), syncs it and gives it `keep`'s mode
/// and owner. A file whose owner cannot be kept (someone else's, written by a user who is not
/// root) is refused, and nothing is left behind on any error.
pub(super) fn stage(
    path: &Path,
    keep: Option<&Metadata>,
    name: &str,
    emit: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<Staged, Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let mut open = OpenOptions::new();
    open.write(true).create_new(true);
    if let Some(meta) = keep {
        open.mode(meta.permissions().mode() & 0o777);
    }
    let pid = std::process::id();
    let mut n = 0;
    let (file, tmp) = loop {
        let tmp = match n {
            0 => dir.join(format!(".{file_name}.strata-{pid}.tmp")),
            _ => dir.join(format!(".{file_name}.strata-{pid}-{n}.tmp")),
        };
        match open.open(&tmp) {
            Ok(f) => break (f, tmp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(io_error(name, "write", &e)),
        }
    };
    let staged = Staged {
        tmp,
        path: path.to_path_buf(),
    };
    let result = (|| -> Result<(), Error> {
        let io = |e: std::io::Error| io_error(name, "write", &e);
        let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
        emit(&mut w).map_err(io)?;
        let file = w.into_inner().map_err(|e| io(e.into_error()))?;
        if let Some(meta) = keep {
            // The owner first: changing it clears set-user-ID and set-group-ID bits.
            let mine = file.metadata().map_err(io)?;
            let same = (mine.uid(), mine.gid()) == (meta.uid(), meta.gid());
            if std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid())).is_err()
                && !same
            {
                return Err(refused(
                    name,
                    &format!(
                        "it belongs to user {} and group {}, and the new file would belong to you (strata keeps the owner of a file it replaces)",
                        meta.uid(),
                        meta.gid()
                    ),
                )
                .hint("write it as its owner or as root, or remove it first"));
            }
            file.set_permissions(meta.permissions()).map_err(io)?;
        }
        file.sync_all().map_err(io)
    })();
    match result {
        Ok(()) => Ok(staged),
        Err(e) => {
            staged.discard();
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &Path) -> String {
        match target(path, "t") {
            Ok(Target::Stdout) => "stdout".into(),
            Ok(Target::Stderr) => "stderr".into(),
            Ok(Target::InPlace { append, what, .. }) => format!("in place: {what}, {append}"),
            Ok(Target::Replace { keep, .. }) => format!("replace: {}", keep.is_some()),
            Err(e) => format!("error: {}", e.message),
        }
    }

    /// What each kind of path resolves to. A FIFO (made with mkfifo where there is one) is
    /// written in place, as `ardana write` refuses it: a FIFO among model files blocks the
    /// model's read before, so the integration tests cannot reach this.
    #[test]
    fn targets_by_kind() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("f.yaml");
        assert_eq!(kind(&file), "replace: false");
        std::fs::write(&file, "x").expect("write");
        assert_eq!(kind(&file), "replace: true");
        let link = dir.path().join("link.yaml");
        std::os::unix::fs::symlink("f.yaml", &link).expect("symlink");
        assert!(matches!(
            target(&link, "t"),
            Ok(Target::Replace { path, .. }) if path == file
        ));
        let dangling = dir.path().join("dangling.yaml");
        std::os::unix::fs::symlink("nowhere/x", &dangling).expect("symlink");
        assert!(
            kind(&dangling).contains("No such file"),
            "{}",
            kind(&dangling)
        );
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).expect("symlink");
        assert!(
            kind(&looped).contains("too many levels"),
            "{}",
            kind(&looped)
        );
        assert_eq!(kind(dir.path()), "error: cannot write t: it is a directory");
        for name in ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"] {
            if Path::new(name).exists() {
                assert_eq!(kind(Path::new(name)), "stdout", "{name}");
            }
        }
        assert_eq!(kind(Path::new("/proc/self/fd/2")), "stderr");
        let own = format!("/proc/{}/fd/1", std::process::id());
        assert_eq!(kind(Path::new(&own)), "stdout");
        assert_eq!(
            kind(Path::new("/proc/self/fd/7")),
            "in place: a file descriptor, true"
        );
        assert_eq!(
            kind(Path::new("/proc/1/fd/1")),
            "in place: a file descriptor, true"
        );
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(kind(&fifo), "in place: a FIFO, false");
        }
    }
}
