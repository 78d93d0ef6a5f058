//! `strata completions SHELL` and `strata man`: every shell's script is generated and names
//! every subcommand; bash (and zsh / fish when installed) accept their script; the man page
//! has a part for each subcommand and renders with `man -l` without a warning where `man` is
//! installed.

use crate::util::strata;
use std::process::{Command, Stdio};

const SUBCOMMANDS: &[&str] = &["cloud-init", "heat", "lookup", "deckhand", "merge"];

/// Whether `program` can be run here.
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// `shell -n FILE` (syntax check only) accepts the script.
fn syntax_ok(shell: &str, script: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("strata.completion");
    std::fs::write(&file, script).expect("write script");
    let out = Command::new(shell)
        .arg("-n")
        .arg(&file)
        .output()
        .expect("run shell");
    assert!(
        out.status.success(),
        "{shell} -n refused the script: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = strata(&["completions", shell]);
        let script = run.ok();
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} script lacks {sub}");
        }
        assert!(script.contains("explain"), "{shell} script lacks --explain");
        if matches!(shell, "bash" | "zsh" | "fish") && installed(shell) {
            syntax_ok(shell, script);
        } else if shell != "bash" {
            eprintln!("docs: {shell} not installed, its script is checked by content only");
        } else {
            panic!("bash is needed to check the bash completion script");
        }
    }
    strata(&["completions", "tcsh"]).fails(2);
}

#[test]
fn man_page_covers_every_subcommand_and_renders_cleanly() {
    let run = strata(&["man"]);
    let page = run.ok();
    assert!(
        page.contains("\n.TH strata 1 "),
        "{}",
        &page[..page.len().min(200)]
    );
    for sub in SUBCOMMANDS {
        let heading = format!(".SH \"STRATA {}\"", sub.to_uppercase());
        assert!(page.contains(&heading), "man page lacks {heading}");
    }
    assert!(
        page.contains("\\-\\-check\\-schemas"),
        "deckhand's options are listed"
    );
    if !installed("man") {
        eprintln!("docs: man not installed, the page is checked by content only");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("strata.1");
    std::fs::write(&file, page).expect("write page");
    let out = Command::new("man")
        .args(["--warnings", "-l"])
        .arg(&file)
        .env("MANWIDTH", "80")
        .output()
        .expect("run man");
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && warnings.trim().is_empty(),
        "man -l: {warnings}"
    );
    // man's terminal output bolds by overstriking ("S\x08S"): keep the last of each pair.
    let text = String::from_utf8_lossy(&out.stdout);
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\x08' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    assert!(plain.contains("STRATA DECKHAND"), "{plain}");
}

/// `--version` names the git revision when built from a checkout (issue 16).
#[test]
fn version_names_the_git_revision_in_a_checkout() {
    let run = crate::util::strata(&["--version"]);
    let out = run.ok();
    assert!(
        out.starts_with(concat!("strata ", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.git")).exists() {
        let rev = out
            .split_once('(')
            .map(|(_, r)| {
                r.trim_end()
                    .trim_end_matches(')')
                    .trim_end_matches("-dirty")
            })
            .unwrap_or("");
        assert!(
            rev.len() >= 7 && rev.chars().all(|c| c.is_ascii_hexdigit()),
            "no revision in {out}"
        );
    }
}
