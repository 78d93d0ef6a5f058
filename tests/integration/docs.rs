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

/// Every example of every subcommand's `--help` and every `$ strata` line of the README runs
/// (from the repository root) and succeeds (issue 16).
#[test]
fn help_and_readme_examples_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = assert_cmd::cargo::cargo_bin("strata");
    let mut examples: Vec<String> = Vec::new();
    for sub in [
        "cloud-init",
        "heat",
        "lookup",
        "deckhand",
        "ardana",
        "merge",
        "diff",
    ] {
        let out = std::process::Command::new(&bin)
            .args([sub, "--help"])
            .output()
            .expect("help");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut in_examples = false;
        for line in text.lines() {
            if line.starts_with("Examples") {
                in_examples = true;
            } else if in_examples && line.starts_with("  strata ") {
                examples.push(line.trim().to_string());
            } else if in_examples && line.starts_with("  ") && !line.trim().is_empty() {
                // A long example wrapped by the help formatter.
                if let Some(last) = examples.last_mut() {
                    last.push(' ');
                    last.push_str(line.trim());
                }
            }
        }
        assert!(in_examples, "strata {sub} --help has no examples");
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    examples.extend(
        readme
            .lines()
            .filter_map(|l| l.strip_prefix("$ "))
            .filter(|l| l.starts_with("strata "))
            .map(str::to_string),
    );
    assert!(examples.len() >= 14, "{examples:?}");
    for example in &examples {
        let line = example.replacen("strata", &bin.display().to_string(), 1);
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("{line} > /dev/null")])
            .current_dir(root)
            .output()
            .expect("sh");
        assert!(
            out.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every example of docs/explain.md is the output of the command written above it, run in
/// `fixtures/`: equal, or for an `(excerpt)` its lines (but `...`) found in order.
#[test]
fn the_explain_examples_are_real_runs() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/explain.md"),
    )
    .expect("docs/explain.md");
    let strata = assert_cmd::cargo::cargo_bin("strata");
    let mut command: Option<(String, bool)> = None;
    let mut lines = doc.lines();
    let mut checked = 0;
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("`strata ") {
            let args = rest.split('`').next().unwrap_or_default().to_string();
            command = Some((args, line.contains("(excerpt)")));
            continue;
        }
        if !(line == "```yaml" || line == "```console") {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let Some((args, excerpt)) = command.take() else {
            continue;
        };
        let out = Command::new("sh")
            .current_dir(crate::util::fixtures())
            .arg("-c")
            .arg(format!("{} {args}", strata.display()))
            .output()
            .expect("run sh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "strata {args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if excerpt {
            let mut have = stdout.lines();
            for want in block.iter().filter(|l| **l != "...") {
                assert!(
                    have.any(|l| l == *want),
                    "strata {args} (excerpt): line not in the output, or out of order:\n{want}\n--- output:\n{stdout}"
                );
            }
        } else {
            assert_eq!(block.join("\n") + "\n", stdout, "strata {args}");
        }
        checked += 1;
    }
    assert!(
        checked >= 8,
        "only {checked} examples found in docs/explain.md"
    );
}
