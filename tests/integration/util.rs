//! Test helpers: run the `strata` binary from the `fixtures/` folder and capture the result.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The repository's `fixtures/` folder.
pub(crate) fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The outcome of one run.
#[derive(Debug)]
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts exit code 0 and returns stdout.
    #[track_caller]
    pub(crate) fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "expected success, stderr:\n{}", self.stderr);
        &self.stdout
    }

    /// Asserts the exit code and returns stderr.
    #[track_caller]
    pub(crate) fn fails(&self, code: i32) -> &str {
        assert_eq!(
            self.code, code,
            "expected exit {code}, stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "panic: {}", self.stderr);
        &self.stderr
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.ok())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Runs `strata ARGS...` in `fixtures/`.
pub(crate) fn strata(args: &[&str]) -> Run {
    strata_stdin(args, None)
}

/// Runs `strata ARGS...` in `fixtures/` with bytes on stdin.
pub(crate) fn strata_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    if stdin.is_none() {
        record(&fixtures(), args);
    }
    let mut cmd = assert_cmd::Command::cargo_bin("strata").expect("strata binary");
    cmd.current_dir(fixtures())
        .args(args)
        .env("STRATA_CACHE_DIR", index_cache());
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().expect("run strata");
    if out.status.success() && stdin.is_none() {
        // One in-process render with --explain serves both checks.
        let abs = absolute(args);
        let rendered = strata::cli::explain_in_process(&abs).ok();
        if let Some((rendered, sources)) = &rendered {
            check_positions(args, rendered, sources);
        }
        check_readback(args, &abs, rendered.as_ref().map(|r| &r.0), &out.stdout);
    }
    if stdin.is_none() {
        let code = out.status.code().unwrap_or(-1);
        check_jobs(&fixtures(), args, code, &out.stdout, &out.stderr);
    }
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[path = "../common/record.rs"]
mod record_file;
pub(crate) use record_file::record;

#[path = "../common/jobs.rs"]
mod jobs;
pub(crate) use jobs::{check_jobs, index_cache};

/// A plain `Command` for cases needing more control.
pub(crate) fn command() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("strata"));
    cmd.current_dir(fixtures());
    cmd
}

/// Fails the test when the YAML (or JSON) a successful command wrote does not read back as
/// the data it rendered, with and without `--explain` (see `readback.rs`).
#[track_caller]
pub(crate) fn check_readback(
    args: &[&str],
    abs: &[String],
    rendered: Option<&strata::frontend::Rendered>,
    stdout: &[u8],
) {
    let problems = crate::readback::check(abs, args, rendered, &String::from_utf8_lossy(stdout));
    assert!(
        problems.is_empty(),
        "strata {}: the output does not read back as the data rendered:\n{}",
        args.join(" "),
        problems.join("\n")
    );
}

/// The arguments with every existing path in `fixtures/` made absolute.
fn absolute(args: &[&str]) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = fixtures().join(a);
            if !a.starts_with('-') && !a.is_empty() && p.exists() {
                p.display().to_string()
            } else {
                a.to_string()
            }
        })
        .collect()
}

/// Re-renders a successful command in-process with `--explain` and fails the test if any
/// value's recorded position does not hold that value (see `positions.rs`).
#[track_caller]
pub(crate) fn check_positions(
    args: &[&str],
    rendered: &strata::frontend::Rendered,
    sources: &strata::value::SourceMap,
) {
    let problems = crate::positions::check_rendered(rendered, sources);
    assert!(
        problems.is_empty(),
        "strata {}: --explain positions are wrong:\n{}",
        args.join(" "),
        problems.join("\n")
    );
}
