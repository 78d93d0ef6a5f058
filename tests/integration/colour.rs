//! Colour on stderr (issue 16): a terminal gets colour, a pipe does not; `--color`, `NO_COLOR`,
//! `CLICOLOR_FORCE` as documented in `src/cli/colour.rs`. The terminal case runs strata in a
//! pseudo-terminal through util-linux `script`.

use crate::util::{command, fixtures};
use std::process::Command;

const ESC: char = '\x1b';

/// stderr of `strata ARGS` through a pipe, with the colour variables set as given.
fn piped(args: &[&str], vars: &[(&str, &str)]) -> String {
    let mut cmd = command();
    cmd.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run strata");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What a terminal shows for `strata ARGS` (stdout and stderr), or `None` when no
/// pseudo-terminal can be made here.
fn in_terminal(args: &str, vars: &[(&str, &str)]) -> Option<String> {
    let strata = assert_cmd::cargo::cargo_bin("strata");
    let mut cmd = Command::new("script");
    cmd.current_dir(fixtures())
        .args(["-q", "-e", "-c"])
        .arg(format!("{} {args}", strata.display()))
        .arg("/dev/null")
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if text.contains("truncated.yaml") || text.contains("--bogus") {
        Some(text)
    } else {
        eprintln!(
            "colour: skipped the terminal checks: `script` gave no terminal here ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        None
    }
}

#[test]
fn a_pipe_gets_plain_text_unless_colour_is_asked_for() {
    let bad = ["merge", "bad/truncated.yaml"];
    assert!(!piped(&bad, &[]).contains(ESC));
    let forced = piped(&["merge", "--color=always", "bad/truncated.yaml"], &[]);
    assert!(forced.contains("\x1b[1;31merror\x1b[0m: "), "{forced:?}");
    insta::assert_snapshot!("colour_error", forced.replace(ESC, "␛"));
    assert!(piped(&bad, &[("CLICOLOR_FORCE", "1")]).contains(ESC));
    assert!(!piped(&bad, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains(ESC));
    // Warnings too, in their own colour; the rendered document on stdout never.
    let mut cmd = command();
    let out = cmd
        .args([
            "merge",
            "--color",
            "always",
            "merge/surprises/base.yaml",
            "merge/surprises/null.yaml",
        ])
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.stdout.contains(&0x1b), "stdout is coloured");
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("\x1b[1;33mwarning\x1b[0m"), "{stderr:?}");
}

#[test]
fn a_terminal_gets_colour_and_no_color_or_never_turns_it_off() {
    let Some(coloured) = in_terminal("merge bad/truncated.yaml", &[]) else {
        return;
    };
    assert!(coloured.contains("\x1b[1;31merror"), "{coloured:?}");
    let no_color =
        in_terminal("merge bad/truncated.yaml", &[("NO_COLOR", "1")]).unwrap_or_default();
    assert!(
        no_color.contains("truncated.yaml") && !no_color.contains(ESC),
        "{no_color:?}"
    );
    let never = in_terminal("merge --color never bad/truncated.yaml", &[]).unwrap_or_default();
    assert!(
        never.contains("truncated.yaml") && !never.contains(ESC),
        "{never:?}"
    );
    // clap's usage errors follow the same choice.
    let usage = in_terminal("merge --bogus a.yaml", &[]).unwrap_or_default();
    assert!(usage.contains(ESC), "{usage:?}");
    let usage = in_terminal("merge --color=never --bogus a.yaml", &[]).unwrap_or_default();
    assert!(
        usage.contains("--bogus") && !usage.contains(ESC),
        "{usage:?}"
    );
}
