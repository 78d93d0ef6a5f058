//! Bad input: every file in fixtures/bad gives exit 1 with a message naming the file (and the
//! line and column where there is one), never a panic; limits fail fast.

use crate::util::{command, strata};
use std::time::{Duration, Instant};

/// (file in fixtures/bad, arguments with `@` standing for `bad/<file>`): each must fail with
/// exit 1 and a message naming that file.
const CASES: &[(&str, &[&str])] = &[
    // YAML: truncated, tabs, quoting, indentation, anchors, tags, directives, limits
    ("truncated.yaml", &["merge", "@"]),
    ("truncated.yaml", &["lookup", "--layer", "@"]),
    ("tab-indent.yaml", &["merge", "@"]),
    ("tab-after-scalar.yaml", &["merge", "@"]),
    ("billion-laughs.yaml", &["merge", "@"]),
    ("billion-laughs.yaml", &["cloud-init", "@"]),
    ("unclosed-quote.yaml", &["merge", "@"]),
    ("bad-indent.yaml", &["merge", "@"]),
    ("mapping-indent.yaml", &["merge", "@"]),
    ("extra-bracket.yaml", &["merge", "@"]),
    ("bad-escape.yaml", &["merge", "@"]),
    ("undefined-alias.yaml", &["merge", "@"]),
    ("custom-tag.yaml", &["merge", "@"]),
    ("python-tag.yaml", &["merge", "@"]),
    ("yaml-version.yaml", &["merge", "@"]),
    ("unhashable-key.yaml", &["merge", "@"]),
    ("bad-merge-key.yaml", &["merge", "@"]),
    ("two-docs.yaml", &["lookup", "--layer", "@"]),
    ("dup-keys.yaml", &["merge", "--strict", "@"]),
    ("huge-number.yaml", &["merge", "--output", "json", "@"]),
    // encodings: invalid UTF-8, NUL bytes, UTF-16, binary, empty
    ("invalid-utf8.yaml", &["merge", "@"]),
    ("invalid-utf8.yaml", &["cloud-init", "@"]),
    ("invalid-utf8.yaml", &["heat", "-e", "@"]),
    ("invalid-utf8.json", &["merge", "@"]),
    ("utf16-no-bom.yaml", &["merge", "@"]),
    ("binary.bin", &["cloud-init", "@"]),
    ("binary.bin", &["merge", "@"]),
    ("nul-byte.yaml", &["merge", "@"]),
    ("nul-byte.yaml", &["cloud-init", "@"]),
    ("nul-byte.yaml", &["lookup", "--layer", "@"]),
    // JSON
    ("bad.json", &["merge", "@"]),
    ("json-trailing.json", &["merge", "@"]),
    ("truncated.json", &["merge", "@"]),
    ("json-bad-escape.json", &["merge", "@"]),
    ("huge-number.json", &["merge", "--output", "json", "@"]),
    // merge --how: wrong types
    ("list-layer.yaml", &["merge", "--how", "dict(replace)", "@"]),
    // cloud-init: MIME, gzip, parts cloud-init drops (errors with --strict)
    ("broken-boundary.mime", &["cloud-init", "@"]),
    ("no-boundary.mime", &["cloud-init", "@"]),
    ("mime-bad-base64.mime", &["cloud-init", "@"]),
    ("corrupt.gz", &["cloud-init", "@"]),
    ("ci-unknown-merger.yaml", &["cloud-init", "--strict", "@"]),
    ("ci-list.yaml", &["cloud-init", "--strict", "@"]),
    ("ci-archive-types.yaml", &["cloud-init", "--strict", "@"]),
    ("ci-jsonp-trunc.txt", &["cloud-init", "--strict", "@"]),
    ("ci-include.txt", &["cloud-init", "--strict", "@"]),
    // heat
    ("heat-list.yaml", &["heat", "-e", "@"]),
    ("heat-section-type.yaml", &["heat", "-e", "@"]),
    ("heat-unknown-section.yaml", &["heat", "-e", "@"]),
    ("heat-strategies-type.yaml", &["heat", "-e", "@"]),
    ("heat-truncated.yaml", &["heat", "-e", "@"]),
    (
        "heat-template-type.yaml",
        &["heat", "--template", "@", "-e", "heat/cli-params/env.yaml"],
    ),
    (
        "heat-template-list.yaml",
        &["heat", "--template", "@", "-e", "heat/cli-params/env.yaml"],
    ),
    // lookup and merge --rules: lookup_options, Datum.yml, node files
    (
        "lookup-options-shape.yml",
        &["lookup", "--layer", "lookup/bad/node.yml", "--options", "@"],
    ),
    (
        "lookup-options-unknown.yml",
        &[
            "lookup",
            "--strict",
            "Features",
            "--layer",
            "lookup/bad/node.yml",
            "lookup/bad/role.yml",
            "--options",
            "@",
        ],
    ),
    (
        "lookup-knockout-empty.yml",
        &["lookup", "--layer", "lookup/bad/node.yml", "--options", "@"],
    ),
    (
        "lookup-default-type.yml",
        &["lookup", "--layer", "lookup/bad/node.yml", "--options", "@"],
    ),
    (
        "rules-bad-regex.yml",
        &["lookup", "--layer", "lookup/bad/node.yml", "--options", "@"],
    ),
    (
        "rules-bad-regex.yml",
        &["merge", "--rules", "@", "merge-rules/base.yml"],
    ),
    (
        "rules-list.yml",
        &["merge", "--rules", "@", "merge-rules/base.yml"],
    ),
    (
        "datum-no-precedence.yml",
        &["lookup", "--datum", "@", "--node", "lookup/bad/node.yml"],
    ),
    (
        "datum-precedence-string.yml",
        &["lookup", "--datum", "@", "--node", "lookup/bad/node.yml"],
    ),
    (
        "lookup-node-list.yml",
        &["lookup", "--datum", "lookup/tree/Datum.yml", "--node", "@"],
    ),
    // a directory where a file is expected, a dangling symbolic link
    ("a-directory.yaml", &["merge", "@"]),
    ("a-directory.yaml", &["cloud-init", "@"]),
    (
        "a-directory.yaml",
        &["heat", "--template", "@", "-e", "heat/cli-params/env.yaml"],
    ),
    ("a-directory.yaml", &["lookup", "--layer", "@"]),
    (
        "a-directory.yaml",
        &["merge", "--rules", "@", "merge-rules/base.yml"],
    ),
    ("dangling.yaml", &["merge", "@"]),
];

#[test]
fn every_bad_file_fails_cleanly_with_its_name() {
    let mut all = String::new();
    for (file, args) in CASES {
        let path = format!("bad/{file}");
        let argv: Vec<&str> = args
            .iter()
            .map(|a| if *a == "@" { path.as_str() } else { a })
            .collect();
        let shown = argv.join(" ");
        let run = strata(&argv);
        let err = run.fails(1);
        assert!(
            err.contains(&path),
            "strata {shown}: message does not name the file:\n{err}"
        );
        assert!(run.stdout.is_empty(), "strata {shown}: wrote output");
        all.push_str(&format!("$ strata {shown}\n{err}\n"));
    }
    insta::assert_snapshot!("bad_inputs", all);
}

/// Every file in fixtures/bad is used by at least one case, and there are at least 40.
#[test]
fn the_bad_corpus_is_complete() {
    let dir = crate::util::fixtures().join("bad");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("fixtures/bad")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 40, "{} bad inputs", names.len());
    for name in &names {
        assert!(
            CASES.iter().any(|(f, _)| f == name),
            "fixtures/bad/{name} has no case"
        );
    }
}

/// An unreadable file: mode 000 (or, for root, who reads anything, a socket, which cannot be
/// opened as a file) fails with exit 1 naming the file.
#[test]
fn an_unreadable_file_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let locked = dir.path().join("locked.yaml");
    std::fs::write(&locked, "a: 1\n").expect("write");
    let mut perms = std::fs::metadata(&locked).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    std::fs::set_permissions(&locked, perms).expect("chmod");
    let socket = dir.path().join("socket.yaml");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
    let target = if std::fs::read(&locked).is_ok() {
        socket
    } else {
        locked
    };
    let name = target.to_str().expect("utf-8 path");
    for args in [
        vec!["merge", name],
        vec!["cloud-init", name],
        vec!["heat", "-e", name],
        vec!["lookup", "--layer", name],
    ] {
        let run = strata(&args);
        let err = run.fails(1);
        assert!(err.contains(&format!("cannot read {name}")), "{err}");
    }
}

#[test]
fn cloud_init_drops_unparsable_parts_and_strict_fails() {
    for file in ["truncated.yaml", "tab-indent.yaml", "unclosed-quote.yaml"] {
        let path = format!("bad/{file}");
        let run = strata(&["cloud-init", "cloud-init/runcmd/01-base.yaml", &path]);
        assert!(run.ok().contains("bash1"), "base part kept");
        assert!(
            run.stderr.contains(&format!("{path}:")),
            "warning names file:line:col: {}",
            run.stderr
        );
        strata(&[
            "cloud-init",
            "--strict",
            "cloud-init/runcmd/01-base.yaml",
            &path,
        ])
        .fails(1);
    }
}

#[test]
fn billion_laughs_fails_fast() {
    let err = strata(&["merge", "bad/billion-laughs.yaml"])
        .fails(1)
        .to_string();
    assert!(err.contains("alias expansion"), "{err}");
    // The one run timed alone (`strata` also runs the command again with other --jobs).
    let start = Instant::now();
    let out = crate::util::command()
        .args(["merge", "bad/billion-laughs.yaml"])
        .output()
        .expect("run strata");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn deep_nesting_fails_fast_without_overflow() {
    let dir = tempfile::tempdir().expect("tempdir");
    let flow = dir.path().join("deep-flow.yaml");
    std::fs::write(
        &flow,
        format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
    )
    .expect("write");
    let cloud = dir.path().join("deep-cloud.yaml");
    std::fs::write(
        &cloud,
        format!(
            "#cloud-config\na: {}{}\n",
            "{a: ".repeat(100_000),
            "}".repeat(100_000)
        ),
    )
    .expect("write");
    let mut block = String::from("a:\n");
    for i in 1..=2_000usize {
        block.push_str(&" ".repeat(i));
        block.push_str("- \n");
    }
    let blockf_yaml = dir.path().join("deep-block.yaml");
    std::fs::write(&blockf_yaml, block).expect("write");
    let blockf = dir.path().join("deep-json.json");
    std::fs::write(
        &blockf,
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
    )
    .expect("write");
    for (file, cmd) in [
        (&flow, "merge"),
        (&cloud, "cloud-init"),
        (&blockf, "merge"),
        (&blockf_yaml, "merge"),
    ] {
        let start = Instant::now();
        let out = command()
            .args([cmd, file.to_str().expect("path")])
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{cmd} {}: {err}",
            file.display()
        );
        assert!(err.contains("nesting") || err.contains("nest"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(3));
    }
}

#[test]
fn a_directory_and_a_missing_file_are_errors() {
    let err = strata(&["merge", "bad"]).fails(1).to_string();
    assert!(err.contains("bad is a directory"), "{err}");
    let err = strata(&["merge", "bad/does-not-exist.yaml"])
        .fails(1)
        .to_string();
    assert!(err.contains("bad/does-not-exist.yaml"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    // No input, and no pipe or file on stdin to read instead.
    let none = crate::util::command()
        .arg("merge")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run");
    assert_eq!(none.status.code(), Some(2));
    strata(&["frobnicate"]).fails(2);
    strata(&["merge", "--how", "list", "cloud-init/runcmd/01-base.yaml"]).fails(2);
    strata(&[
        "merge",
        "--explain=runcmd",
        "cloud-init/runcmd/01-base.yaml",
    ])
    .fails(2);
}

#[test]
fn input_size_limit() {
    let err = strata(&[
        "merge",
        "--max-input-size",
        "10",
        "cloud-init/runcmd/01-base.yaml",
    ])
    .fails(1)
    .to_string();
    assert!(err.contains("--max-input-size"), "{err}");
}

/// Issue 16: argument mistakes get a hint that says what to write instead.
#[test]
fn argument_mistakes_get_hints() {
    let run = strata(&["heat", "heat/nulls/env-1.yaml"]);
    assert!(run
        .fails(2)
        .contains("hint: write strata heat -e heat/nulls/env-1.yaml"));
    // `-e ENV...` takes several files.
    let run = strata(&[
        "heat",
        "--template",
        "heat/nulls/template.yaml",
        "-e",
        "heat/nulls/env-1.yaml",
        "heat/nulls/env-2.yaml",
    ]);
    assert!(run.ok().contains("Cleared: keep me"));
    let run = strata(&[
        "cloud-init",
        "--explain",
        "/runcmd/2",
        "cloud-init/runcmd/01-base.yaml",
    ]);
    assert!(run.fails(2).contains("did you mean --explain=/runcmd/2?"));
    let run = strata(&[
        "lookup",
        "--layer",
        "lookup/rules/node.yml",
        "--layer",
        "lookup/rules/role.yml",
        "Network",
    ]);
    assert!(run.fails(2).contains(
        "put it before the options or after '--': strata lookup Network --layer FILE..."
    ));
}

/// Issue 16: several inputs that do not parse are reported together, in input order, then a
/// count; the same with one job or four (every input is parsed either way).
#[test]
fn every_input_that_does_not_parse_is_reported_then_a_count() {
    let run = strata(&[
        "merge",
        "bad/truncated.yaml",
        "bad/tab-indent.yaml",
        "bad/unclosed-quote.yaml",
    ]);
    let err = run.fails(1);
    let at = |what: &str| err.find(what).unwrap_or_else(|| panic!("{what} in {err}"));
    assert!(at("--> bad/truncated.yaml") < at("--> bad/tab-indent.yaml"));
    assert!(at("--> bad/tab-indent.yaml") < at("--> bad/unclosed-quote.yaml"));
    assert!(
        err.trim_end()
            .ends_with("error: 3 inputs have errors (each is shown above); nothing was rendered"),
        "{err}"
    );
    // One bad input among good ones: its error alone, as before.
    let one = strata(&["merge", "merge/base.yaml", "bad/truncated.yaml"]);
    assert!(!one.fails(1).contains("inputs have errors"));
}
