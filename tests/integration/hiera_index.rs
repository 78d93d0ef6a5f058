//! Hiera's kept indexes (issue 15): a one-key lookup that finds an index of a data file kept
//! by an earlier run parses only the entries it needs, and must answer exactly what a run
//! without the cache answers — values, `--explain`, `--explain-levels`, messages, exit codes —
//! also after a data file changes, when an index is damaged, and for files that cannot be
//! indexed. Each test works on its own copy of `fixtures/hiera/site` and its own cache folder.

use crate::util::fixtures;
use std::path::Path;
use std::process::Command;

/// `strata lookup ... --hiera hiera.yaml --facts facts.yaml` in `site` with `cache` as the
/// cache folder (`None`: no cache): exit code, stdout, stderr.
fn lookup(site: &Path, cache: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
        .current_dir(site)
        .arg("lookup")
        .args(args)
        .args(["--hiera", "hiera.yaml", "--facts", "facts.yaml"])
        .env("STRATA_CACHE_DIR", cache.unwrap_or(Path::new("")))
        .output()
        .expect("run strata");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    let code = out.status.code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

/// A copy of the fixture site to change.
fn site_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy(&fixtures().join("hiera/site"), dir.path());
    dir
}

/// A copy of the site with `extra` at the end of its common.yaml, and an empty cache folder.
fn site_with_common(extra: &str) -> (tempfile::TempDir, tempfile::TempDir) {
    let site = site_copy();
    let common = site.path().join("data/common.yaml");
    let text = std::fs::read_to_string(&common).expect("read");
    std::fs::write(&common, format!("{text}{extra}")).expect("write");
    (site, tempfile::tempdir().expect("temp dir"))
}

fn copy(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).expect("read fixture").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

fn indexes(cache: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(cache.join("hiera"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

const QUERIES: [&[&str]; 12] = [
    &["motd"],
    &["users"],
    &["app_config", "--output", "json"],
    &["sysctl"],
    &["packages"],
    &["app::plugins"],
    &["backends.1.host"],
    &["no_such_key"],
    &["users", "--explain"],
    &["app_config", "--explain"],
    &["packages", "--explain-levels"],
    &["backends", "--merge", "deep", "--merge-hash-arrays"],
];

/// Every query answers the same without a cache, with a cold one and with a warm one, the
/// files read ahead on threads (the default) or one by one as the search reaches them.
/// Each query answers alike without a cache, cold, warm, and warm with one job.
fn same_with_and_without(site: &Path, cache: &Path, queries: &[&[&str]]) {
    for &q in queries {
        let plain = lookup(site, None, q);
        assert_eq!(lookup(site, Some(cache), q), plain, "cold: {q:?}");
        assert_eq!(lookup(site, Some(cache), q), plain, "warm: {q:?}");
        let one = [&["--jobs", "1"][..], q].concat();
        assert_eq!(
            lookup(site, Some(cache), &one),
            plain,
            "warm, one job: {q:?}"
        );
    }
}

#[test]
fn kept_indexes_answer_as_whole_parses() {
    let site = site_copy();
    let cache = tempfile::tempdir().expect("temp dir");
    same_with_and_without(site.path(), cache.path(), &QUERIES);
    // One index per data file the lookups reached (node, role, OS, two extras, common).
    assert_eq!(
        indexes(cache.path()).len(),
        6,
        "{:?}",
        indexes(cache.path())
    );
    // STRATA_CACHE_DIR= (empty) turns the cache off; unset, it is under XDG_CACHE_HOME.
    let home = tempfile::tempdir().expect("temp dir");
    for off in [true, false] {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("strata"));
        cmd.current_dir(site.path())
            .args([
                "lookup",
                "motd",
                "--hiera",
                "hiera.yaml",
                "--facts",
                "facts.yaml",
            ])
            .env("XDG_CACHE_HOME", home.path());
        if off {
            cmd.env("STRATA_CACHE_DIR", "");
        } else {
            cmd.env_remove("STRATA_CACHE_DIR");
        }
        assert!(cmd.output().expect("run").status.success());
        let kept = indexes(&home.path().join("strata"));
        assert_eq!(kept.is_empty(), off, "{kept:?}");
    }
}

#[test]
fn a_changed_data_file_is_read_again() {
    let site = site_copy();
    let cache = tempfile::tempdir().expect("temp dir");
    let common = site.path().join("data/common.yaml");
    let (_, before, _) = lookup(site.path(), Some(cache.path()), &["ntp_servers"]);
    let text = std::fs::read_to_string(&common).expect("read");
    // Same length, so only the bytes tell the change.
    std::fs::write(&common, text.replace("ntp-common", "ntp-commun")).expect("write");
    // One job: the file is read as the search reaches it, its stale index refused.
    let (code, after, _) = lookup(
        site.path(),
        Some(cache.path()),
        &["--jobs", "1", "ntp_servers"],
    );
    assert_eq!(code, 0);
    assert_ne!(before, after);
    assert!(after.contains("ntp-commun."), "{after}");
    same_with_and_without(site.path(), cache.path(), &QUERIES);
    // A file that no longer parses reports what a whole parse reports.
    std::fs::write(&common, format!("{text}\nbroken: [\n")).expect("write");
    let plain = lookup(site.path(), None, &["motd"]);
    assert_eq!(plain.0, 1, "{}", plain.2);
    assert_eq!(lookup(site.path(), Some(cache.path()), &["motd"]), plain);
}

#[test]
fn damaged_indexes_are_ignored() {
    let site = site_copy();
    let cache = tempfile::tempdir().expect("temp dir");
    lookup(site.path(), Some(cache.path()), &["users"]);
    let kept = indexes(cache.path());
    assert!(!kept.is_empty());
    for (i, path) in kept.iter().enumerate() {
        let mut bytes = std::fs::read(path).expect("read index");
        match i % 3 {
            0 => bytes.truncate(bytes.len() / 2),
            1 => {
                let last = bytes.len() - 1;
                bytes[last] ^= 0x20;
            }
            _ => bytes = b"not an index".to_vec(),
        }
        std::fs::write(path, bytes).expect("damage index");
    }
    for q in QUERIES {
        assert_eq!(
            lookup(site.path(), Some(cache.path()), q),
            lookup(site.path(), None, q),
            "{q:?}"
        );
    }
}

#[test]
fn files_whose_entries_depend_on_each_other_are_not_indexed() {
    // An anchor in one entry and its alias in another.
    let (site, cache) = site_with_common("\nbase: &base {x: 1}\nderived: *base\n");
    same_with_and_without(site.path(), cache.path(), &QUERIES);
    assert_eq!(indexes(cache.path()).len(), 5, "common.yaml is not indexed");
    let q = ["derived", "--output", "json"];
    assert_eq!(
        lookup(site.path(), Some(cache.path()), &q).1,
        "{\n  \"x\": 1\n}\n"
    );
}

#[test]
fn comments_and_spellings_come_out_as_from_a_whole_parse() {
    let site = site_copy();
    let cache = tempfile::tempdir().expect("temp dir");
    // Every data file with a comment and a blank line above each top-level key, a comment at
    // the end of every line holding a value, and a closing comment.
    for file in [
        "common.yaml",
        "roles/app.yaml",
        "os/Debian.yaml",
        "nodes/app07.example.net.yaml",
        "extra/10-monitoring.yaml",
        "extra/20-logging.yaml",
    ] {
        let path = site.path().join("data").join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        let mut out = String::from("# head\n---\n");
        for line in text.lines() {
            if !line.starts_with([' ', '-']) && !line.is_empty() {
                out.push_str("\n# about the entry below\n");
            }
            out.push_str(line);
            if !line.ends_with(':') {
                out.push_str("  # on the line");
            }
            out.push('\n');
        }
        out.push_str("# closing\n");
        std::fs::write(&path, out).expect("write");
    }
    same_with_and_without(site.path(), cache.path(), &QUERIES);
    assert_eq!(indexes(cache.path()).len(), 6);
}

#[test]
fn settled_files_are_not_read_again() {
    // A lookup that fails with a position in the file: shown from the file read again.
    let (site, cache) =
        site_with_common("loop_a: \"%{lookup('loop_b')}\"\nloop_b: \"%{lookup('loop_a')}\"\n");
    let common = site.path().join("data/common.yaml");
    // Files untouched for two seconds are trusted by their size, times and inode: the index
    // made now records them, and the next lookups read only the entries they need.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let loops = ["loop_a"];
    let queries: Vec<&[&str]> = QUERIES.iter().copied().chain([&loops[..]]).collect();
    // Cold, then trusted by identity, then trusted with one job.
    same_with_and_without(site.path(), cache.path(), &queries);
    let failed = lookup(site.path(), Some(cache.path()), &loops);
    assert_eq!(failed.0, 1);
    assert!(failed.2.contains("common.yaml:"), "{}", failed.2);
    // A change is seen at once (the change time moves), even with the same size.
    let now = std::fs::read_to_string(&common).expect("read");
    std::fs::write(&common, now.replace("ntp-common", "ntp-commun")).expect("write");
    let q = ["ntp_servers"];
    let (code, after, _) = lookup(site.path(), Some(cache.path()), &q);
    assert_eq!(code, 0);
    assert!(after.contains("ntp-commun."), "{after}");
    assert_eq!(
        lookup(site.path(), Some(cache.path()), &q),
        lookup(site.path(), None, &q)
    );
}
