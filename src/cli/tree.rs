//! Where a run reads its inputs: the disk (every render), or — for `strata diff` — a git
//! revision, or the working tree with absent files skipped. One trait, `Tree`, behind every
//! read the renders make (named inputs, walked directories, the files Hiera and Ardana find
//! themselves), so a render at a revision is the same code as a render on disk.
//!
//! A revision is read through the `git` command (`ls-tree` once, then one `cat-file --batch`
//! process for the blobs): every machine with a repository has it, and it reads any repository
//! git itself can (packs, alternates, worktrees, partial clones), where a library would add
//! a hundred crates to the build.

use super::files::{io_error, read_one};
use crate::error::{Error, ErrorKind};
use crate::frontend::Input;
use crate::par::Threads;
use rustc_hash::FxHashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path as FsPath, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The files a render reads.
pub(super) trait Tree {
    /// The file named on the command line (a path, or `-` for stdin); `Ok(None)` when it
    /// does not exist here and this tree treats missing files as absent inputs.
    fn read(&mut self, name: &str) -> Result<Option<Input>, Error>;
    /// What is at `path`: `None` nothing, `Some(true)` a folder, `Some(false)` a file.
    fn kind(&mut self, path: &FsPath) -> Option<bool>;
    /// The entries of a folder as (name, is a folder); empty when it is not a folder.
    fn list(&mut self, dir: &FsPath) -> Vec<(String, bool)>;
    /// Whether `path` is a symbolic link (a revision's links are files holding their target).
    fn is_link(&mut self, _path: &FsPath) -> bool {
        false
    }
    /// Whether this tree is the disk as it is now (not a revision).
    fn is_disk(&self) -> bool {
        false
    }
    /// Whether a missing file is an absent input rather than an error.
    fn absent_ok(&self) -> bool {
        false
    }
}

/// The disk, as every render reads it; with `absent_ok` (the working-tree side of
/// `strata diff`), a named file that does not exist is an absent input instead of an error.
pub(super) struct Disk {
    pub(super) absent_ok: bool,
    /// The names read as absent.
    pub(super) missing: Vec<String>,
}

impl Disk {
    /// The disk as a render reads it: a missing file is an error.
    pub(super) fn strict() -> Disk {
        Disk {
            absent_ok: false,
            missing: Vec::new(),
        }
    }
}

impl Tree for Disk {
    fn is_disk(&self) -> bool {
        true
    }
    fn absent_ok(&self) -> bool {
        self.absent_ok
    }
    fn read(&mut self, name: &str) -> Result<Option<Input>, Error> {
        if self.absent_ok && name != "-" && !FsPath::new(name).exists() {
            self.missing.push(name.to_string());
            return Ok(None);
        }
        read_one(name).map(Some)
    }
    fn kind(&mut self, path: &FsPath) -> Option<bool> {
        let meta = std::fs::metadata(path).ok()?;
        Some(meta.is_dir())
    }
    fn is_link(&mut self, path: &FsPath) -> bool {
        std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    }
    fn list(&mut self, dir: &FsPath) -> Vec<(String, bool)> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .map(|e| {
                let is_dir = e.path().is_dir();
                (e.file_name().to_string_lossy().into_owned(), is_dir)
            })
            .collect()
    }
}

/// The files a front-end finds itself (`frontend::Files`), served from a tree, with the
/// cache folder's indexes of data files when it has one: the store of every render's `Run`.
pub(super) struct TreeFiles<'t>(
    pub(super) &'t mut dyn Tree,
    pub(super) Option<super::cache::IndexCache>,
);

impl<'t> TreeFiles<'t> {
    pub(super) fn new(tree: &'t mut dyn Tree) -> TreeFiles<'t> {
        TreeFiles(tree, None)
    }
    /// With the indexes of the cache folder (a lookup's data files).
    pub(super) fn indexed(tree: &'t mut dyn Tree) -> TreeFiles<'t> {
        TreeFiles(tree, super::cache::IndexCache::from_env())
    }
}

impl crate::frontend::Files for TreeFiles<'_> {
    fn read(&mut self, p: &FsPath) -> Result<Option<Input>, Error> {
        if self.0.kind(p) != Some(false) {
            return Ok(None);
        }
        self.0.read(&p.display().to_string())
    }
    // A folder is read as a named input is: the disk refuses it, a revision has no such file.
    fn read_named(&mut self, p: &FsPath) -> Result<Option<Input>, Error> {
        if self.0.kind(p).is_none() {
            return Ok(None);
        }
        self.0.read(&p.display().to_string())
    }
    fn list(&mut self, dir: &FsPath) -> Vec<(String, bool)> {
        self.0.list(dir)
    }
    fn is_link(&mut self, path: &FsPath) -> bool {
        self.0.is_link(path)
    }
    fn keeps_indexes(&self) -> bool {
        self.1.is_some()
    }
    fn index(&mut self, path: &FsPath) -> Option<Vec<u8>> {
        self.1.as_ref()?.get(path)
    }
    fn keep_index(&mut self, path: &FsPath, index: &[u8]) {
        if let Some(c) = &self.1 {
            c.put(path, index);
        }
    }
    // Only the disk's files have an identity to trust (a revision's are read whole).
    fn identity(&mut self, path: &FsPath) -> Option<[u64; 5]> {
        (self.1.is_some() && self.0.is_disk())
            .then(|| super::cache::identity(path))
            .flatten()
    }
    fn read_range(&mut self, path: &FsPath, start: usize, end: usize) -> Option<Vec<u8>> {
        (self.1.is_some() && self.0.is_disk())
            .then(|| super::cache::read_range(path, start, end))
            .flatten()
    }
    fn reload(&mut self, path: &FsPath) -> Option<crate::value::Reload> {
        let meta = std::fs::metadata(path).ok()?;
        self.0
            .is_disk()
            .then(|| super::files::reload(path, &meta))
            .flatten()
    }
}

/// The files of one git revision, named as the command line names them (relative to the
/// current folder, or absolute inside the repository).
pub(super) struct GitTree {
    rev: String,
    /// The repository's top folder and the current folder, both canonical.
    top: PathBuf,
    cwd: PathBuf,
    /// Blob id of every file at the revision, by path from the top.
    blobs: FxHashMap<String, String>,
    /// Every folder's entries (name, is a folder), by path from the top (`""`: the top).
    folders: FxHashMap<String, Vec<(String, bool)>>,
    cat: Option<Cat>,
    /// The names read as absent.
    missing: Vec<String>,
}

/// A running `git cat-file --batch`.
struct Cat {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Drop for Cat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(msg
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("git failed")
            .trim_start_matches("fatal: ")
            .to_string());
    }
    Ok(out.stdout)
}

fn usage(msg: String, hint: &str) -> Error {
    Error::new(ErrorKind::Usage, msg).hint(hint.to_string())
}

impl GitTree {
    /// Reads the file list of `rev` in the repository around the current folder.
    pub(super) fn open(rev: &str) -> Result<GitTree, Error> {
        let top = git(&["rev-parse", "--show-toplevel"]).map_err(|e| {
            usage(
                format!("strata diff --base needs a git repository: {e}"),
                "run it inside the repository that holds the inputs, or render both revisions and give the two files: strata diff OLD NEW",
            )
        })?;
        let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches('\n'));
        let commit = git(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])
        .map_err(|_| {
            usage(
                format!("'{rev}' is not a revision of this repository"),
                "give a commit, branch or tag: --base main, --base HEAD~1",
            )
        })?;
        let commit = String::from_utf8_lossy(&commit).trim().to_string();
        let listing = git(&["ls-tree", "-r", "-z", "--full-tree", &commit]).map_err(|e| {
            usage(
                format!("cannot list revision '{rev}': {e}"),
                "check the revision",
            )
        })?;
        let mut blobs = FxHashMap::default();
        let mut folders = FxHashMap::default();
        folders.insert(String::new(), Vec::new());
        for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
            let entry = String::from_utf8_lossy(entry);
            let Some((meta, path)) = entry.split_once('\t') else {
                continue;
            };
            let mut fields = meta.split(' ');
            let (Some(_mode), Some(kind), Some(oid)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            if kind != "blob" {
                continue;
            }
            enter(&mut folders, path, false);
            blobs.insert(path.to_string(), oid.to_string());
        }
        let canonical = |p: PathBuf| std::fs::canonicalize(&p).unwrap_or(p);
        Ok(GitTree {
            rev: rev.to_string(),
            top: canonical(top),
            cwd: canonical(std::env::current_dir().unwrap_or_default()),
            blobs,
            folders,
            cat: None,
            missing: Vec::new(),
        })
    }

    /// The names read as absent.
    pub(super) fn missing(&self) -> &[String] {
        &self.missing
    }

    /// The path from the repository's top of a path as the command line gives it; `None`
    /// outside the repository.
    fn inside(&self, path: &FsPath) -> Option<String> {
        let full = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        };
        let mut parts: Vec<String> = Vec::new();
        for c in full.components() {
            match c {
                Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
                Component::ParentDir => {
                    parts.pop();
                }
                Component::RootDir | Component::Prefix(_) => parts.clear(),
                Component::CurDir => {}
            }
        }
        let top: Vec<String> = self
            .top
            .components()
            .filter_map(|c| match c {
                Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        if parts.len() < top.len() || parts[..top.len()] != top[..] {
            return None;
        }
        Some(parts[top.len()..].join("/"))
    }

    fn blob(&mut self, oid: &str) -> std::io::Result<Vec<u8>> {
        if self.cat.is_none() {
            let mut child = Command::new("git")
                .args(["cat-file", "--batch"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()?;
            let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(std::io::Error::other("git cat-file has no pipes"));
            };
            self.cat = Some(Cat {
                child,
                input,
                output: BufReader::with_capacity(1 << 16, output),
            });
        }
        let Some(cat) = self.cat.as_mut() else {
            return Err(std::io::Error::other("git cat-file is not running"));
        };
        writeln!(cat.input, "{oid}")?;
        cat.input.flush()?;
        let mut header = String::new();
        cat.output.read_line(&mut header)?;
        let size: usize = header
            .split(' ')
            .nth(2)
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("git cat-file: {}", header.trim())))?;
        let mut bytes = vec![0; size + 1];
        cat.output.read_exact(&mut bytes)?;
        bytes.pop();
        Ok(bytes)
    }
}

impl Tree for GitTree {
    fn read(&mut self, name: &str) -> Result<Option<Input>, Error> {
        if name == "-" {
            return Err(usage(
                "strata diff reads every input at two revisions: standard input ('-') has none"
                    .into(),
                "name the files",
            ));
        }
        let Some(at) = self.inside(FsPath::new(name)) else {
            return Err(usage(
                format!(
                    "{name} is outside the git repository, so it has no revision '{}'",
                    self.rev
                ),
                "give inputs inside the repository",
            ));
        };
        let Some(oid) = self.blobs.get(&at).cloned() else {
            self.missing.push(name.to_string());
            return Ok(None);
        };
        let bytes = self
            .blob(&oid)
            .map_err(|e| io_error(&format!("{name} at revision '{}'", self.rev), "read", &e))?;
        let max = super::files::MAX_INPUT_SIZE.load(std::sync::atomic::Ordering::Relaxed);
        if bytes.len() > max {
            return Err(super::files::too_large(name, Some(bytes.len() as u64), max));
        }
        Ok(Some(Input::new(name, bytes)))
    }
    fn kind(&mut self, path: &FsPath) -> Option<bool> {
        let at = self.inside(path)?;
        if self.blobs.contains_key(&at) {
            Some(false)
        } else if self.folders.contains_key(&at) {
            Some(true)
        } else {
            None
        }
    }
    fn list(&mut self, dir: &FsPath) -> Vec<(String, bool)> {
        self.inside(dir)
            .and_then(|at| self.folders.get(&at).cloned())
            .unwrap_or_default()
    }
}

/// Enters a path of the revision into its folder's entries, and each folder above it that is
/// new into its own folder's.
fn enter(folders: &mut FxHashMap<String, Vec<(String, bool)>>, path: &str, is_dir: bool) {
    if is_dir {
        if folders.contains_key(path) {
            return;
        }
        folders.insert(path.to_string(), Vec::new());
    }
    let (parent, name) = path.rsplit_once('/').unwrap_or(("", path));
    if !folders.contains_key(parent) {
        enter(folders, parent, true);
    }
    if let Some(entries) = folders.get_mut(parent) {
        entries.push((name.to_string(), is_dir));
    }
}

/// Reads the named inputs; absent ones (a revision without them) are left out. Files on disk
/// are read on up to `threads.jobs` threads (reading a file is mostly copying it into fresh memory,
/// which scales with the cores); the error reported is the first in order, as when they are
/// read one after another.
pub(super) fn read_inputs(
    tree: &mut dyn Tree,
    names: &[String],
    threads: Threads,
) -> Result<Vec<Input>, Error> {
    super::files::check_stdin_once(names)?;
    let on_disk = tree.is_disk() && !tree.absent_ok() && !names.iter().any(|n| n == "-");
    if on_disk && threads.parallel() && names.len() > 1 {
        let size = |n: &String| std::fs::metadata(n).map_or(0, |m| m.len());
        let read = crate::par::map_ordered(
            names.iter().collect(),
            threads,
            |n| usize::try_from(size(n)).unwrap_or(usize::MAX),
            |n| read_one(n),
        );
        return read.into_iter().collect();
    }
    let mut out = Vec::with_capacity(names.len());
    for n in names {
        out.extend(tree.read(n)?);
    }
    Ok(out)
}

/// Reads one input that must exist.
pub(super) fn read_needed(tree: &mut dyn Tree, name: &str) -> Result<Input, Error> {
    tree.read(name)?.ok_or_else(|| {
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        io_error(name, "read", &e)
    })
}

/// Reads files and directories: a directory is walked recursively, its entries in sorted
/// order, and its `.yaml` / `.yml` files read (hidden entries skipped); a file or `-` is
/// read whatever its name.
pub(super) fn read_tree(tree: &mut dyn Tree, names: &[String]) -> Result<Vec<Input>, Error> {
    super::files::check_stdin_once(names)?;
    let mut out = Vec::new();
    for name in names {
        let path = FsPath::new(name);
        if name != "-" && tree.kind(path) == Some(true) {
            let mut files = Vec::new();
            walk(tree, path, &mut files);
            for f in files {
                out.extend(tree.read(&f.display().to_string())?);
            }
        } else {
            out.extend(tree.read(name)?);
        }
    }
    Ok(out)
}

fn walk(tree: &mut dyn Tree, dir: &FsPath, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<(String, bool)> = tree
        .list(dir)
        .into_iter()
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    entries.sort();
    for (name, is_dir) in entries {
        let p = dir.join(&name);
        if is_dir {
            walk(tree, &p, files);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            files.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_list_their_files_and_folders_once() {
        let mut folders = FxHashMap::default();
        folders.insert(String::new(), Vec::new());
        for p in ["a.yaml", "site/x.yaml", "site/deep/y.yaml", "site/z.yaml"] {
            enter(&mut folders, p, false);
        }
        let mut top = folders[""].clone();
        top.sort();
        assert_eq!(top, [("a.yaml".into(), false), ("site".into(), true)]);
        let mut site = folders["site"].clone();
        site.sort();
        assert_eq!(
            site,
            [
                ("deep".into(), true),
                ("x.yaml".into(), false),
                ("z.yaml".into(), false)
            ]
        );
        assert_eq!(folders["site/deep"], [("y.yaml".to_string(), false)]);
    }

    #[test]
    fn a_path_is_placed_inside_the_repository_lexically() {
        let tree = GitTree {
            rev: "HEAD".into(),
            top: PathBuf::from("/repo"),
            cwd: PathBuf::from("/repo/sub"),
            blobs: FxHashMap::default(),
            folders: FxHashMap::default(),
            cat: None,
            missing: Vec::new(),
        };
        assert_eq!(
            tree.inside(FsPath::new("a.yaml")).as_deref(),
            Some("sub/a.yaml")
        );
        assert_eq!(
            tree.inside(FsPath::new("../b/./c.yaml")).as_deref(),
            Some("b/c.yaml")
        );
        assert_eq!(tree.inside(FsPath::new("/repo/x")).as_deref(), Some("x"));
        assert_eq!(tree.inside(FsPath::new("/elsewhere/x")), None);
        assert_eq!(tree.inside(FsPath::new("../../x")), None);
    }
}
