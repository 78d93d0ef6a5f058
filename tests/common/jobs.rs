//! Issue 19's check that parallel loading changes nothing: a render command run by a test is
//! run again with `--jobs 1` (one thread, the sequential order) and `--jobs 4` (with
//! `STRATA_TEST_PARALLEL_MIN=0`: a stream is cut at every document, and a few small files
//! are parsed on threads, as large ones are), and stdout,
//! stderr and the exit code must be those of the run the test made (the default: one job per
//! core). Commands that write files, read stdin or choose their own `--jobs`, and usage errors,
//! are left alone.
//!
//! Hiera's kept indexes (issue 15) ride along: the test's own run and the `--jobs 4` run use
//! one shared cache folder (`index_cache`), the `--jobs 1` run none, so a one-key lookup is
//! compared parsed whole against parsed entry by entry from the index the first run kept.

use std::path::{Path, PathBuf};

/// The cache folder the tests' runs share (never the user's own).
pub(crate) fn index_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("index-cache")
}
use std::process::Command;

/// Subcommands that render, with the number of words that name them.
const RENDERS: [(&str, usize); 7] = [
    ("merge", 1),
    ("cloud-init", 1),
    ("heat", 1),
    ("deckhand", 1),
    ("lookup", 1),
    ("ardana read", 2),
    ("ardana validate", 2),
];

/// The command with `--jobs N` after its subcommand, or `None` when it is not a plain render.
pub(super) fn with_jobs(args: &[&str], jobs: u32) -> Option<Vec<String>> {
    let words = RENDERS.iter().find_map(|(name, n)| {
        let named = name.split(' ').collect::<Vec<_>>();
        (args.len() >= *n && args[..*n] == named[..]).then_some(*n)
    })?;
    let writes_or_reads_stdin = args.iter().any(|a| {
        matches!(*a, "-" | "-o" | "--jobs" | "--help" | "-h")
            || a.starts_with("--out")
            || a.starts_with("--jobs=")
    });
    if writes_or_reads_stdin {
        return None;
    }
    let mut out: Vec<String> = args[..words].iter().map(|a| a.to_string()).collect();
    out.push(format!("--jobs={jobs}"));
    out.extend(args[words..].iter().map(|a| a.to_string()));
    Some(out)
}

/// Runs the command again with `--jobs 1` and `--jobs 4` in `dir` and panics if either run
/// differs from `(code, stdout, stderr)`.
#[track_caller]
pub(crate) fn check_jobs(dir: &Path, args: &[&str], code: i32, stdout: &[u8], stderr: &[u8]) {
    // A usage error is found before anything is loaded, and its message repeats the arguments.
    if code == 2 {
        return;
    }
    for jobs in [1, 4] {
        let Some(again) = with_jobs(args, jobs) else {
            return;
        };
        // Small inputs are parsed on one thread unless this says otherwise.
        let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
            .current_dir(dir)
            .args(&again)
            .env("STRATA_TEST_PARALLEL_MIN", "0")
            .env(
                "STRATA_CACHE_DIR",
                if jobs == 1 {
                    PathBuf::new()
                } else {
                    index_cache()
                },
            )
            .output()
            .expect("run strata");
        let same =
            out.status.code().unwrap_or(-1) == code && out.stdout == stdout && out.stderr == stderr;
        assert!(
            same,
            "strata {} differs from the run without --jobs:\nexit {:?} vs {code}\nstdout:\n{}\nstderr:\n{}\nexpected stderr:\n{}",
            again.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(stderr),
        );
    }
}
