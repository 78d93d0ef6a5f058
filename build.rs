//! Build script: `strata --version` names the git revision it was built from when built from a
//! checkout (`0.1.0 (a1b2c3d)`, `-dirty` with uncommitted changes), the bare version otherwise.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let full = match git(&["rev-parse", "--short=7", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            format!("{version} ({rev}{})", if dirty { "-dirty" } else { "" })
        }
        _ => version.to_string(),
    };
    println!("cargo:rustc-env=STRATA_VERSION={full}");
    // Rebuilt when the checked-out commit changes.
    for p in [".git/HEAD", ".git/index", ".git/refs", ".git/packed-refs"] {
        if std::path::Path::new(p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
