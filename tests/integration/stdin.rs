//! Standard input as the input when a command names none (issue 36): a pipe or a file on
//! stdin is read as `-` by `cloud-init`, `merge`, `deckhand` and a bare `heat`; a device
//! (`/dev/null`, as a terminal) keeps the usage error, which says how to give stdin; commands
//! that name their inputs, `lookup` and `diff` never read it.

use crate::util::{command, fixtures, strata, strata_stdin};
use std::process::Stdio;

fn bytes(path: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(path)).expect("fixture")
}

#[test]
fn a_pipe_is_read_when_no_input_is_named() {
    for (sub, file) in [
        ("merge", "merge/prod.yaml"),
        ("cloud-init", "cloud-init/runcmd/01-base.yaml"),
        ("deckhand", "deckhand/features.yaml"),
    ] {
        let named = strata(&[sub, file]);
        let piped = strata_stdin(&[sub], Some(&bytes(file)));
        assert_eq!(piped.ok(), named.ok(), "cat {file} | strata {sub}");
        let dash = strata_stdin(&[sub, "-"], Some(&bytes(file)));
        assert_eq!(piped.ok(), dash.ok(), "strata {sub} -");
    }
    // heat with no option at all: stdin is the one environment file.
    let env = "heat/types/env-1.yaml";
    let piped = strata_stdin(&["heat"], Some(&bytes(env)));
    assert_eq!(piped.ok(), strata(&["heat", "-e", env]).ok());
}

#[test]
fn a_file_on_stdin_is_read_too() {
    let file = std::fs::File::open(fixtures().join("merge/base.yaml")).expect("fixture");
    let out = command()
        .arg("merge")
        .stdin(Stdio::from(file))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        strata(&["merge", "merge/base.yaml"]).ok()
    );
}

#[test]
fn a_device_on_stdin_is_a_usage_error_that_hints_dash() {
    for sub in ["merge", "cloud-init", "deckhand"] {
        let out = command()
            .arg(sub)
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "strata {sub} < /dev/null: {err}"
        );
        assert!(err.contains(&format!("strata {sub} needs INPUT")), "{err}");
        assert!(
            err.contains(&format!("cat a.yaml | strata {sub}")) && err.contains("'-'"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    // heat says what it needs as before.
    let out = command()
        .arg("heat")
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stdin_is_not_read_when_the_command_names_its_inputs() {
    let junk: &[u8] = b"not: [valid\n";
    // heat with a template and no -e renders zero environment files, stdin untouched.
    let run = strata_stdin(
        &["heat", "--template", "heat/types/template.yaml"],
        Some(junk),
    );
    assert_eq!(
        run.ok(),
        strata(&["heat", "--template", "heat/types/template.yaml"]).ok()
    );
    let run = strata_stdin(&["merge", "merge/base.yaml"], Some(junk));
    assert_eq!(run.ok(), strata(&["merge", "merge/base.yaml"]).ok());
    // lookup needs its hierarchy named.
    let err = strata_stdin(&["lookup", "key"], Some(b"key: 1\n"))
        .fails(2)
        .to_string();
    assert!(err.contains("--layer"), "{err}");
    // diff reads every input at two revisions: stdin has none.
    let err = strata_stdin(&["diff", "--base", "HEAD", "--", "merge"], Some(b"a: 1\n"))
        .fails(2)
        .to_string();
    assert!(err.contains("strata merge needs INPUT files"), "{err}");
}
