//! `strata diff` in the completion scripts (issue 36): `--base` / `--head` complete git
//! revisions, and after `--` the render command is completed (its name, then its own options
//! as `strata COMMAND` completes them). Bash's script is run (sourced, `_strata` called as
//! bash's completion calls it) in a throw-away repository; zsh's and fish's are checked by
//! their text (and `zsh -n` / `fish -n` where installed, in `docs.rs`).

use crate::util::strata;
use std::process::Command;

/// The completions bash offers for the words `line` (the last one being completed), run in
/// `dir`.
fn bash_complete(script: &str, dir: &std::path::Path, line: &[&str]) -> Vec<String> {
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source /dev/stdin <<'SCRIPT'\n{script}\nSCRIPT\n\
         COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMPREPLY=()\n\
         _strata strata \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = words.join(" ")
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .current_dir(dir)
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn git(dir: &std::path::Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn bash_completes_git_revisions_and_the_render_command_of_diff() {
    let script = strata(&["completions", "bash"]).ok().to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    if !git(dir.path(), &["init", "-q", "-b", "trunk"]) {
        eprintln!("completions: git not installed, revisions not checked");
        return;
    }
    assert!(git(
        dir.path(),
        &["commit", "-q", "--allow-empty", "-m", "x"]
    ));
    assert!(git(dir.path(), &["branch", "feature/x"]));
    assert!(git(dir.path(), &["tag", "v1"]));
    let complete = |line: &[&str]| bash_complete(&script, dir.path(), line);
    assert_eq!(
        complete(&["strata", "diff", "--base", ""]),
        ["HEAD", "feature/x", "trunk", "v1"]
    );
    assert_eq!(complete(&["strata", "diff", "--base", "fe"]), ["feature/x"]);
    assert_eq!(
        complete(&["strata", "diff", "--base", "v1", "--head", "t"]),
        ["trunk"]
    );
    // --base=REV: bash splits the word at '='.
    assert_eq!(complete(&["strata", "diff", "--base", "=", "v"]), ["v1"]);
    assert_eq!(
        complete(&["strata", "diff", "--base", "HEAD", "--", ""]),
        [
            "cloud-init",
            "heat",
            "lookup",
            "deckhand",
            "ardana",
            "merge"
        ]
    );
    assert_eq!(
        complete(&["strata", "diff", "--base", "HEAD", "--", "me"]),
        ["merge"]
    );
    assert_eq!(
        complete(&["strata", "diff", "--base", "HEAD", "--", "merge", "--ho"]),
        ["--how"]
    );
    assert_eq!(
        complete(&["strata", "diff", "--base", "HEAD", "--", "deckhand", "--va"]),
        ["--validate"]
    );
    assert_eq!(
        complete(&["strata", "diff", "--base", "HEAD", "--", "merge", "--output", ""]),
        ["yaml", "json"]
    );
    // diff's own options and other commands are as before.
    assert_eq!(complete(&["strata", "diff", "--st"]), ["--stat"]);
    assert_eq!(complete(&["strata", "merge", "--ho"]), ["--how"]);
}

#[test]
fn zsh_and_fish_scripts_complete_revisions_and_the_render_command() {
    let zsh = strata(&["completions", "zsh"]).ok().to_string();
    for option in ["--base", "--head"] {
        let spec = zsh
            .lines()
            .find(|l| l.starts_with(&format!("'{option}=[")))
            .unwrap_or_else(|| panic!("zsh: no spec for {option}"));
        assert!(spec.ends_with(":REV:_strata_git_refs' \\"), "{spec}");
    }
    let args = zsh
        .lines()
        .find(|l| l.starts_with("'*::args -- OLD NEW"))
        .expect("zsh: diff's ARGS");
    assert!(args.ends_with(":_strata_diff_args' \\"), "{args}");
    assert!(zsh.contains("\n_strata_git_refs() {") && zsh.contains("git for-each-ref"));
    assert!(zsh.contains("commands=(cloud-init heat lookup deckhand ardana merge)"));
    // The helpers are defined before the script runs _strata.
    let defined = zsh.find("\n_strata_diff_args() {").expect("helper");
    let runs = zsh
        .find("\nif [ \"$funcstack[1]\" = \"_strata\" ]")
        .expect("tail");
    assert!(defined < runs);

    let fish = strata(&["completions", "fish"]).ok().to_string();
    for option in ["base", "head"] {
        let line = fish
            .lines()
            .find(|l| {
                l.contains("using_subcommand diff\"") && l.contains(&format!(" -l {option} "))
            })
            .unwrap_or_else(|| panic!("fish: no line for --{option}"));
        assert!(
            line.ends_with(" -r -f -a \"(__fish_strata_git_refs)\""),
            "{line}"
        );
    }
    assert!(fish.contains("function __fish_strata_git_refs") && fish.contains("git for-each-ref"));
    assert!(fish.contains(
        "-n \"__fish_strata_using_subcommand diff; and __fish_strata_diff_after_dashes\" -f -a \"(__fish_strata_diff_render)\""
    ));
    assert!(fish.contains("printf '%s\\n' cloud-init heat lookup deckhand ardana merge"));
}

/// Where fish is installed: its script offers the same, asked with `complete -C`.
#[test]
fn fish_completes_git_revisions_and_the_render_command_of_diff() {
    let installed = Command::new("fish")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let dir = tempfile::tempdir().expect("tempdir");
    if !installed || !git(dir.path(), &["init", "-q", "-b", "trunk"]) {
        eprintln!("completions: fish or git not installed, fish's script checked by text only");
        return;
    }
    assert!(git(
        dir.path(),
        &["commit", "-q", "--allow-empty", "-m", "x"]
    ));
    assert!(git(dir.path(), &["branch", "feature/x"]));
    let script = dir.path().join("strata.fish");
    std::fs::write(&script, strata(&["completions", "fish"]).ok()).expect("script");
    let complete = |line: &str| -> Vec<String> {
        let out = Command::new("fish")
            .arg("--no-config")
            .arg("-c")
            .arg(format!(
                "source {}; complete -C '{line}' | string split -f1 \\t",
                script.display()
            ))
            .current_dir(dir.path())
            .output()
            .expect("fish");
        let mut got: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        got.sort();
        got
    };
    assert_eq!(
        complete("strata diff --base "),
        ["HEAD", "feature/x", "trunk"]
    );
    assert_eq!(
        complete("strata diff --base HEAD -- "),
        [
            "ardana",
            "cloud-init",
            "deckhand",
            "heat",
            "lookup",
            "merge"
        ]
    );
    assert_eq!(complete("strata diff --base HEAD -- merge --ho"), ["--how"]);
    assert_eq!(complete("strata diff --st"), ["--stat"]);
}
