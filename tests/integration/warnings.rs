//! Warning kinds and the options that act on them (`--strict`, `--allow`, `--deny` and their
//! environment variables): every kind documented with an example that prints it, notes that
//! `--strict` leaves alone, warnings printed before the error that stops a render, and one rule
//! for a file that holds no document. Fixtures: `fixtures/warnings/`.

use crate::util::{command, strata, Run};
use std::path::PathBuf;
use strata::warning::{Kind, Level};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Splits a documented command line: words, and `'...'` kept whole.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => (word, any) = (word + &c.to_string(), true),
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Runs `strata ARGS` from the repository's top folder (as the docs' examples are written),
/// with the warning options' environment variables cleared.
fn from_top(args: &[String], env: &[(&str, &str)]) -> Run {
    let mut cmd = command();
    cmd.current_dir(repo()).args(args);
    for var in ["STRATA_STRICT", "STRATA_ALLOW", "STRATA_DENY"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run strata");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn every_kind_is_documented_with_an_example_that_prints_it() {
    let doc = std::fs::read_to_string(repo().join("docs/warnings.md")).expect("docs/warnings.md");
    let mut seen = Vec::new();
    for section in doc.split("\n## `").skip(1) {
        let (name, rest) = section.split_once('`').expect("a kind heading");
        let kind = Kind::parse(name).unwrap_or_else(|e| panic!("docs/warnings.md: {e}"));
        let level = match kind.level() {
            Level::Warning => "(warning)",
            Level::Note => "(note)",
        };
        assert!(rest.starts_with(&format!(" {level}")), "{name}: level");
        let mut lines = rest.lines().skip_while(|l| !l.starts_with("$ strata "));
        let cmd = lines.next().unwrap_or_else(|| panic!("{name}: no example"));
        let shown = lines.next().unwrap_or_default();
        assert!(shown.ends_with(&format!("[{name}]")), "{name}: {shown}");
        let run = from_top(&words(cmd)[2..], &[]);
        assert!(!run.stderr.contains("panicked"), "{cmd}: {}", run.stderr);
        let printed = format!("{}{}", run.stdout, run.stderr);
        assert!(
            printed.lines().any(|l| l == shown),
            "{cmd} no longer prints\n{shown}\nit prints:\n{printed}"
        );
        seen.push(kind);
    }
    for k in Kind::ALL {
        assert!(seen.contains(k), "docs/warnings.md lacks '{}'", k.name());
    }
    assert_eq!(seen.len(), Kind::ALL.len(), "a kind is documented twice");
}

#[test]
fn strict_allow_and_deny_act_on_kinds() {
    let dup = words("merge fixtures/warnings/duplicate-key.yaml");
    let with = |extra: &str| {
        let mut a = dup.clone();
        a.extend(words(extra));
        a
    };
    // Shown with its kind; exit 0.
    let run = from_top(&dup, &[]);
    assert_eq!(run.code, 0);
    assert!(run
        .stderr
        .starts_with("warning: fixtures/warnings/duplicate-key.yaml:3:1: duplicate key 'port'"));
    assert!(run
        .stderr
        .lines()
        .next()
        .unwrap_or_default()
        .ends_with("[duplicate-key]"));
    // --strict: an error that names the kind and the way out.
    let run = from_top(&with("--strict"), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.starts_with("error: duplicate key 'port'"),
        "{}",
        run.stderr
    );
    assert!(run
        .stderr
        .contains("= hint: a warning made an error by --strict; --allow duplicate-key accepts it"));
    // --allow: quiet, and --strict passes.
    let run = from_top(&with("--strict --allow duplicate-key"), &[]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    // --deny without --strict fails that kind only.
    let run = from_top(&with("--deny duplicate-key"), &[]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("made an error by --deny duplicate-key"),
        "{}",
        run.stderr
    );
    let run = from_top(&with("--deny kind-change"), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The same from the environment, lists comma-separated.
    let run = from_top(&dup, &[("STRATA_DENY", "kind-change,duplicate-key")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let run = from_top(
        &dup,
        &[
            ("STRATA_STRICT", "1"),
            ("STRATA_ALLOW", "kind-change,duplicate-key"),
        ],
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let run = from_top(&dup, &[("STRATA_STRICT", "1")]);
    assert_eq!(run.code, 1);
    let run = from_top(&dup, &[("STRATA_STRICT", "0")]);
    assert_eq!(run.code, 0);
    // A name that is no kind, and a kind both allowed and denied, are usage errors.
    let run = from_top(&with("--allow duplicate-keys"), &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("did you mean 'duplicate-key'?"),
        "{}",
        run.stderr
    );
    let run = from_top(&with("--allow duplicate-key --deny duplicate-key"), &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("both allowed and denied"),
        "{}",
        run.stderr
    );
}

#[test]
fn strict_passes_real_user_data_with_script_parts_and_deny_forbids_them() {
    let run = strata(&["cloud-init", "--strict", "warnings/user-data.mime"]);
    let out = run.ok();
    assert!(out.contains("hostname: web-01") && out.contains("- htop"));
    let notes: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("note: "))
        .collect();
    assert_eq!(notes.len(), 3, "{}", run.stderr);
    assert!(notes.iter().all(|l| l.ends_with("[script-part]")));
    assert!(!run.stderr.contains("warning:"), "{}", run.stderr);
    let run = strata(&[
        "cloud-init",
        "--deny",
        "script-part",
        "warnings/user-data.mime",
    ]);
    let err = run.fails(1);
    assert!(
        err.starts_with("error: part 2: text/x-shellscript part is run by cloud-init"),
        "{err}"
    );
    // A part cloud-init has no handler for is still a warning.
    strata(&[
        "cloud-init",
        "--strict",
        "warnings/config.yaml",
        "warnings/no-header.yaml",
    ])
    .fails(1);
}

#[test]
fn strict_passes_a_realistic_heat_run_with_or_without_the_template() {
    let envs = [
        "-e",
        "heat/tripleo/roles-default.yaml",
        "-e",
        "heat/tripleo/environments/enable-swift.yaml",
        "-e",
        "heat/tripleo/node-info.yaml",
    ];
    let mut with = vec![
        "heat",
        "--strict",
        "--template",
        "heat/tripleo/overcloud.yaml",
    ];
    with.extend(envs);
    assert!(strata(&with).ok().contains("parameter_defaults"));
    let mut without = vec!["heat", "--strict"];
    without.extend(envs);
    let run = strata(&without);
    run.ok();
    assert!(
        run.stderr.starts_with("note: no --template"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.trim_end().ends_with("[inferred-types]"));
}

#[test]
fn warnings_gathered_before_a_fatal_error_are_printed_before_it() {
    let run = strata(&["deckhand", "warnings/deckhand-typo.yaml"]);
    let err = run.fails(1);
    let warning = err
        .find("warning: warnings/deckhand-typo.yaml:32:21: no document matches the parentSelector");
    let error = err.find("error: UnknownSubstitutionError:");
    assert!(
        matches!((warning, error), (Some(w), Some(e)) if w < e),
        "{err}"
    );
    // Nothing was at the path: the message does not say a mapping was there.
    assert!(
        err.contains("and nothing is there: Deckhand creates an empty mapping at the path"),
        "{err}"
    );
    // Hiera: the empty interpolations that explain a key not found.
    let run = strata(&[
        "lookup",
        "--hiera",
        "hiera/site/hiera.yaml",
        "no::such::key",
    ]);
    let err = run.fails(1);
    let first_error = err.find("error: ").unwrap_or(0);
    assert!(
        err[..first_error].contains("[empty-interpolation]"),
        "{err}"
    );
}

#[test]
fn a_file_with_no_document_is_one_rule_everywhere() {
    for file in ["warnings/empty.yaml", "warnings/comments-only.yaml"] {
        for args in [
            vec!["merge", "warnings/base.yaml", file],
            vec![
                "lookup",
                "name",
                "--layer",
                file,
                "--layer",
                "warnings/base.yaml",
            ],
            vec![
                "heat",
                "--template",
                "warnings/heat-template.yaml",
                "-e",
                file,
            ],
            vec!["deckhand", "deckhand/errors/no-parent.yaml", file],
            vec!["merge", "--rules", file, "warnings/base.yaml"],
        ] {
            let run = strata(&args);
            let warned = run.stderr.lines().find(|l| l.ends_with("[empty-input]"));
            assert!(
                warned.is_some_and(|l| l.contains(file)),
                "{args:?}: {}",
                run.stderr
            );
            assert!(
                run.code == 0 || args[0] == "deckhand",
                "{args:?}: {}",
                run.stderr
            );
            let mut strict = args.clone();
            strict.insert(1, "--strict");
            strata(&strict).fails(1);
        }
    }
    // cloud-init: empty user-data adds nothing; comments without a header are a part it skips.
    let run = strata(&["cloud-init", "warnings/config.yaml", "warnings/empty.yaml"]);
    run.ok();
    assert!(run.stderr.contains("[empty-input]"), "{}", run.stderr);
    // An empty file alone: no layering policy, said after the warning that names the file.
    let err = strata(&["deckhand", "warnings/empty.yaml"])
        .fails(1)
        .to_string();
    assert!(
        err.starts_with("warning: warnings/empty.yaml holds no document"),
        "{err}"
    );
    assert!(err.contains("error: LayeringPolicyNotFound"), "{err}");
    assert!(
        err.contains("hint: the inputs hold no document at all"),
        "{err}"
    );
}

#[test]
fn a_rule_that_matches_nothing_is_said() {
    let run = strata(&[
        "merge",
        "--rules",
        "warnings/rules-unused.yaml",
        "warnings/base.yaml",
        "warnings/over.yaml",
    ]);
    run.ok();
    assert!(
        run.stderr
            .starts_with("warning: warnings/rules-unused.yaml:1:1: rule '/prots' matches no path"),
        "{}",
        run.stderr
    );
    // The rules in use are not.
    let run = strata(&[
        "merge",
        "--rules",
        "merge-rules/rules.yml",
        "merge-rules/base.yml",
        "merge-rules/prod.yml",
    ]);
    run.ok();
    assert!(!run.stderr.contains("[unused-rule]"), "{}", run.stderr);
}

#[test]
fn notes_and_warnings_in_explain_carry_their_kind() {
    let out = strata(&[
        "heat",
        "--explain",
        "--template",
        "warnings/heat-template.yaml",
        "-e",
        "warnings/heat-env.yaml",
    ])
    .ok()
    .to_string();
    assert!(
        out.contains("; note: the stack uses parameters: ComputeCount"),
        "{out}"
    );
    assert!(out.contains("[overridden]"), "{out}");
}
