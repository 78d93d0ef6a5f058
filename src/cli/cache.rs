//! The folder where `strata lookup --hiera` keeps the index of each data file it parsed whole
//! (`frontend/hiera/slice.rs`), so that the next one-key lookup parses only the entries it
//! needs: `$STRATA_CACHE_DIR`, else `$XDG_CACHE_HOME/strata`, else `~/.cache/strata`;
//! `STRATA_CACHE_DIR=` (empty) turns it off. One file per data file, named by a hash of the
//! data file's absolute path (so the folder holds one index per data file, however often the
//! file changes), replaced whole by a rename. What an index says is trusted only when the
//! stamp inside it matches the data file's bytes, so an index that is stale, damaged or
//! written by another build is ignored and replaced. Nothing here fails a run: an index that
//! cannot be read or written is skipped. Also the disk's side of trusting a file by its
//! identity (`identity`, `read_range`): size, times, inode and device, once settled.

use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache folder of this run (its `hiera` sub-folder).
pub(crate) struct IndexCache {
    dir: PathBuf,
}

impl IndexCache {
    /// The folder the environment names, if any.
    pub(crate) fn from_env() -> Option<IndexCache> {
        let var = |name: &str| std::env::var_os(name);
        let base = match var("STRATA_CACHE_DIR") {
            Some(d) if d.is_empty() => return None,
            Some(d) => PathBuf::from(d),
            None => match var("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
                Some(d) => PathBuf::from(d).join("strata"),
                None => PathBuf::from(var("HOME").filter(|d| !d.is_empty())?)
                    .join(".cache")
                    .join("strata"),
            },
        };
        Some(IndexCache {
            dir: base.join("hiera"),
        })
    }

    /// Where the index of the data file at `path` lives.
    fn slot(&self, path: &Path) -> PathBuf {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let mut h = rustc_hash::FxHasher::default();
        h.write(absolute.as_os_str().as_encoded_bytes());
        self.dir.join(format!("{:016x}.index", h.finish()))
    }

    pub(crate) fn get(&self, path: &Path) -> Option<Vec<u8>> {
        std::fs::read(self.slot(path)).ok()
    }

    /// Writes the index beside its slot and renames it into place (a reader sees the old
    /// index or the new one, never part of one).
    pub(crate) fn put(&self, path: &Path, index: &[u8]) {
        let slot = self.slot(path);
        // Unique to this write (`strata diff` renders twice at once in one process).
        static WRITES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = slot.with_extension(format!("{}-{n}.tmp", std::process::id()));
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| private_file(&tmp))
            .and_then(|mut f| f.write_all(index))
            .and_then(|()| std::fs::rename(&tmp, &slot));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// How long a file's times must stand before they are trusted to tell its bytes apart (a
/// file changed twice within a tick of the clock keeps its times; git's "racy" files).
const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

/// A regular file's identity, if it has not changed for `SETTLED`: size, modification and
/// change times (ns), inode, device. The change time moves on every write and cannot be set.
pub(crate) fn identity(path: &Path) -> Option<[u64; 5]> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)
            .ok()
            .filter(std::fs::Metadata::is_file)?;
        let ns = |s: i64, n: i64| {
            u64::try_from(s)
                .ok()?
                .checked_mul(1_000_000_000)?
                .checked_add(u64::try_from(n).ok()?)
        };
        let (mtime, ctime) = (
            ns(m.mtime(), m.mtime_nsec())?,
            ns(m.ctime(), m.ctime_nsec())?,
        );
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos();
        let settled = u128::from(mtime.max(ctime)) + SETTLED.as_nanos() < now;
        settled.then_some([m.len(), mtime, ctime, m.ino(), m.dev()])
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Bytes `start..end` of a file.
pub(crate) fn read_range(path: &Path, start: usize, end: usize) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    file.seek(SeekFrom::Start(u64::try_from(start).ok()?))
        .ok()?;
    let mut bytes = vec![0; end.checked_sub(start)?];
    file.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

/// A new file only its owner can read (an index holds the data files' key names).
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)
}

#[cfg(test)]
mod tests {
    use super::IndexCache;
    use std::path::Path;

    #[test]
    fn an_index_is_kept_per_data_file_and_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("strata-cache-test-{}", std::process::id()));
        let cache = IndexCache { dir: dir.clone() };
        let (a, b) = (Path::new("/data/a.yaml"), Path::new("/data/b.yaml"));
        assert_eq!(cache.get(a), None);
        cache.put(a, b"one");
        cache.put(b, b"two");
        cache.put(a, b"three");
        assert_eq!(cache.get(a).as_deref(), Some(&b"three"[..]));
        assert_eq!(cache.get(b).as_deref(), Some(&b"two"[..]));
        let files = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(files, 2, "one file per data file, no temporary left");
        let _ = std::fs::remove_dir_all(dir);
    }
}
