//! Conformance: data recorded from the real systems in `../shared/conformance`, replayed
//! through the `strata` binary, and the YAML test suite read as PyYAML reads it
//! (`target/yaml-test-suite/`, from `scripts/yaml-suite.py`). Each module prints a skip
//! notice when its data is absent.

mod ardana;
mod cloud_init;
mod cloud_init_jinja;
mod datum;
mod deckhand;
mod heat;
mod hiera;
mod hiera_eyaml;
mod jsonpath;
mod round_trip;
mod yaml_suite;
mod yaml_suite_merge;

#[path = "../common/record.rs"]
mod record;

#[path = "../common/jobs.rs"]
mod jobs;

use std::path::PathBuf;
use std::process::Command;

/// `../shared/conformance/<name>`, or `None` (with a notice) when it is not there.
pub fn suite(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("conformance")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("conformance: skipped {name}: {} not found", dir.display());
        None
    }
}

/// Runs strata with arguments; returns (exit code, stdout, stderr).
pub fn strata(args: &[String]) -> (i32, String, String) {
    let dir = std::env::current_dir().unwrap_or_default();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    record::record(&dir, &argv);
    let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
        .args(args)
        .env("STRATA_CACHE_DIR", jobs::index_cache())
        .output()
        .expect("run strata");
    let code = out.status.code().unwrap_or(-1);
    jobs::check_jobs(&dir, &argv, code, &out.stdout, &out.stderr);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The case folders directly in `dir`, sorted (a recording of one case per folder).
pub fn case_dirs(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}
