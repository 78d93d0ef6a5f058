//! `strata lookup --hiera` behaviour tests on `fixtures/hiera/`: each merge behaviour chosen
//! by lookup_options (exact and `^` pattern keys) and by `--merge`, knockouts, interpolation
//! in paths (`%{trusted.certname}`, `%{::role}`, nested facts) and in data (`alias`, `lookup`,
//! `literal`), globs and `paths`, dotted keys, the whole document, `--explain`,
//! `--explain-levels`, a key found nowhere, and bad inputs (exit 1, a clear message, no panic).

use crate::util::{strata, Run};

const SITE: [&str; 4] = [
    "--hiera",
    "hiera/site/hiera.yaml",
    "--facts",
    "hiera/site/facts.yaml",
];

fn show(run: &Run) -> String {
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    format!(
        "exit {}\n--- stdout\n{}\n--- stderr\n{}",
        run.code,
        run.stdout.trim_end(),
        run.stderr.trim_end()
    )
}

fn site(extra: &[&str]) -> Run {
    let mut args = vec!["lookup"];
    args.extend(extra);
    args.extend(SITE);
    strata(&args)
}

#[test]
fn keys_with_each_behaviour() {
    let keys = [
        "motd",
        "banner",
        "price",
        "cluster",
        "ntp_servers",
        "users",
        "app_config",
        "sysctl",
        "packages",
        "app::plugins",
        "backends.1.host",
        "app_config.tls",
    ];
    let mut out = String::new();
    for key in keys {
        let run = site(&[key, "--output", "json"]);
        out.push_str(&format!("== {key}\n{}\n\n", show(&run)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn explicit_merge_replaces_lookup_options() {
    let mut out = String::new();
    for flags in [
        &["users", "--merge", "first"][..],
        &["users", "--merge", "unique"],
        &["users", "--merge", "deep"],
        &[
            "users",
            "--merge",
            "deep",
            "--knock-out-prefix=--",
            "--sort-merged-arrays",
        ],
        &["backends", "--merge", "deep", "--merge-hash-arrays"],
        &["sysctl", "--merge", "unique"],
        &["users", "--knock-out-prefix=--"],
    ] {
        let run = site(&[flags, &["--output", "json"]].concat());
        out.push_str(&format!("== {}\n{}\n\n", flags.join(" "), show(&run)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn whole_document() {
    insta::assert_snapshot!(show(&site(&[])));
}

#[test]
fn explain_and_explain_levels() {
    let mut out = String::new();
    for flags in [
        &["users", "--explain"][..],
        &["app_config", "--explain"],
        &["sysctl", "--explain", "--output", "json"],
        &["packages", "--explain-levels"],
        &["backends.1.host", "--explain-levels"],
        &["nothing.here", "--explain-levels"],
        // The whole document: values found through a nested lookup (`%{lookup(..)}`,
        // `%{alias(..)}`) keep the level they were found at, not the nested lookup's.
        &["--explain"],
    ] {
        out.push_str(&format!(
            "== {}\n{}\n\n",
            flags.join(" "),
            show(&site(flags))
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn not_found_and_default() {
    let mut out = String::new();
    for flags in [
        &["no_such_key"][..],
        &["no_such_key", "--default", "fallback"],
        &["lookup_options"],
        &["backends.7"],
        &["backends.x"],
        &["a..b"],
    ] {
        out.push_str(&format!(
            "== {}\n{}\n\n",
            flags.join(" "),
            show(&site(flags))
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn bad_inputs_fail_clearly() {
    let mut out = String::new();
    for (config, key) in [
        ("v3", "k"),
        ("v4", "k"),
        ("nopath", "k"),
        ("custom", "k"),
        ("nonmap", "k"),
        ("cycle", "a"),
        ("regex", "profile::x"),
        ("strategy", "k"),
    ] {
        let file = format!("hiera/bad/{config}.yaml");
        let run = strata(&["lookup", key, "--hiera", &file]);
        assert_eq!(run.code, 1, "{config}: {}", run.stderr);
        out.push_str(&format!("== {config}\n{}\n\n", show(&run)));
    }
    insta::assert_snapshot!(out);
}
