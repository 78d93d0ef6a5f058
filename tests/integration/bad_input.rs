//! Bad input: every file in fixtures/bad gives exit 1 with a message naming the file (and the
//! line and column where there is one), never a panic; limits fail fast.

use crate::util::{command, strata};
use std::time::{Duration, Instant};

/// (file, subcommand) pairs: each must fail with exit 1.
const CASES: &[(&str, &str)] = &[
    ("truncated.yaml", "merge"),
    ("tab-indent.yaml", "merge"),
    ("billion-laughs.yaml", "merge"),
    ("billion-laughs.yaml", "cloud-init"),
    ("invalid-utf8.yaml", "merge"),
    ("invalid-utf8.yaml", "cloud-init"),
    ("binary.bin", "cloud-init"),
    ("binary.bin", "merge"),
    ("empty.yaml", "cloud-init"),
    ("empty.yaml", "merge"),
    ("broken-boundary.mime", "cloud-init"),
    ("no-boundary.mime", "cloud-init"),
    ("unclosed-quote.yaml", "merge"),
    ("bad-indent.yaml", "merge"),
    ("nul-byte.yaml", "merge"),
    ("nul-byte.yaml", "cloud-init"),
    ("undefined-alias.yaml", "merge"),
    ("custom-tag.yaml", "merge"),
    ("unhashable-key.yaml", "merge"),
    ("bad-merge-key.yaml", "merge"),
    ("bad.json", "merge"),
    ("json-trailing.json", "merge"),
    ("corrupt.gz", "cloud-init"),
];

#[test]
fn every_bad_file_fails_cleanly_with_its_name() {
    let mut all = String::new();
    for (file, cmd) in CASES {
        let path = format!("bad/{file}");
        let run = strata(&[cmd, &path]);
        let err = run.fails(1);
        assert!(
            err.contains(&path),
            "{cmd} {file}: message does not name the file:\n{err}"
        );
        assert!(run.stdout.is_empty(), "{cmd} {file}: wrote output");
        all.push_str(&format!("$ strata {cmd} {path}\n{err}\n"));
    }
    insta::assert_snapshot!("bad_inputs", all);
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
    let start = Instant::now();
    let err = strata(&["merge", "bad/billion-laughs.yaml"])
        .fails(1)
        .to_string();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
    assert!(err.contains("alias expansion"), "{err}");
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
    strata(&["merge"]).fails(2);
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
