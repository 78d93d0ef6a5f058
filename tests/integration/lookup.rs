//! `strata lookup` and `strata merge --rules` behaviour tests: Datum presets and behaviours,
//! knockouts, rule selection, data types, RSOP, Datum trees, `--explain`, bad rules, and the
//! rule language on plain file merges. Fixtures: `fixtures/lookup/`, `fixtures/merge-rules/`.

use crate::util::{strata, Run};

fn show(run: &Run) -> String {
    format!(
        "exit {}\n--- stdout\n{}\n--- stderr\n{}",
        run.code,
        run.stdout.trim_end(),
        run.stderr.trim_end()
    )
}

/// Looks each key up through `lookup/<dir>/<layer>.yml` with `lookup/<dir>/options.yml`.
fn lookups(dir: &str, layers: &[&str], keys: &[&str], extra: &[&str]) -> String {
    let mut out = String::new();
    for key in keys {
        let mut args = vec!["lookup".to_string(), key.to_string(), "--layer".into()];
        args.extend(layers.iter().map(|l| format!("lookup/{dir}/{l}.yml")));
        args.push("--options".into());
        args.push(format!("lookup/{dir}/options.yml"));
        args.extend(extra.iter().map(|e| e.to_string()));
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        out.push_str(&format!("== {key}\n{}\n\n", show(&strata(&argv))));
    }
    out
}

#[test]
fn presets_and_aliases() {
    let keys = ["MS", "FirstAlias", "H", "TopKeys", "D", "Rec", "U"];
    insta::assert_snapshot!(lookups("presets", &["node", "role"], &keys, &[]));
}

#[test]
fn every_behaviour_on_its_own() {
    let keys = [
        "HashMS",
        "HashTop",
        "HashDeep",
        "ArrMS",
        "ArrUnique",
        "ArrSum",
        "Mixed",
        "HaMS",
        "HaSum",
        "HaUnique",
        "HaDeep",
        "DeepAll",
    ];
    let layers = ["node", "role", "base"];
    insta::assert_snapshot!(lookups("behaviours", &layers, &keys, &["--output", "json"]));
}

#[test]
fn knockouts() {
    let keys = [
        "Settings", "Features", "Packages", "Network", "Timezone", "Custom", "NoPrefix",
    ];
    let layers = ["node", "middle", "base"];
    insta::assert_snapshot!(lookups("knockout", &layers, &keys, &[]));
}

#[test]
fn rule_selection() {
    let keys = [
        r"LCM_Config\Settings",
        r"LCM_Config\Other",
        "LCM_Extra",
        "SoftwareBaseline",
        "SoftwareBaseline/Packages",
        "DeepRoot",
        r"Pointer\Values",
        "networkconfig",
        r"NetworkConfig\Dns\Primary",
    ];
    insta::assert_snapshot!(lookups("rules", &["node", "role"], &keys, &[]));
}

#[test]
fn data_types() {
    let keys = [
        "Scalar",
        "ArrVsScalar",
        "EmptyVsHashArray",
        "Falsy",
        "Zero",
        "Empty",
        "Nothing",
        "Nested",
        "Mixed",
        "Missing",
    ];
    let out = lookups("types", &["node", "role"], &keys, &["--output", "json"]);
    insta::assert_snapshot!(out);
}

#[test]
fn rsop_without_key() {
    let run = strata(&[
        "lookup",
        "--layer",
        "lookup/rsop/node.yml",
        "lookup/rsop/role.yml",
        "lookup/rsop/base.yml",
        "--options",
        "lookup/rsop/options.yml",
    ]);
    insta::assert_snapshot!(show(&run));
}

#[test]
fn datum_trees() {
    let tree = |node: &str, key: Option<&str>| {
        let mut args = vec!["lookup"];
        args.extend(key);
        args.extend(["--datum", "lookup/tree/Datum.yml", "--node", node]);
        format!(
            "== {node} {}\n{}\n\n",
            key.unwrap_or("(RSOP)"),
            show(&strata(&args))
        )
    };
    let mut out = String::new();
    for key in [
        "Configurations",
        "NetworkConfig",
        "Packages",
        "Timezone",
        r"NetworkConfig\Gateway",
    ] {
        out.push_str(&tree("lookup/tree/AllNodes/Dev/web01.yml", Some(key)));
    }
    out.push_str(&tree("lookup/tree/AllNodes/Dev/web01.yml", None));
    // No Location (segment collapses), no DbServer role file (layer skipped).
    out.push_str(&tree("lookup/tree/nodes/db01.yml", Some("Timezone")));
    out.push_str(&tree("lookup/tree/nodes/db01.yml", None));
    for key in ["Databases", "Features", "Password"] {
        let args = [
            "lookup",
            key,
            "--datum",
            "lookup/tree-stores/Datum.yml",
            "--node",
            "lookup/tree-stores/db01.node.yml",
        ];
        out.push_str(&format!(
            "== tree-stores {key}\n{}\n\n",
            show(&strata(&args))
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn explain_lookups() {
    let mut out = lookups(
        "knockout",
        &["node", "middle", "base"],
        &["Settings", "Features", "Packages"],
        &["--explain"],
    );
    out.push_str(&lookups(
        "behaviours",
        &["node", "role", "base"],
        &["HaDeep"],
        &["--explain", "--output", "json"],
    ));
    let rsop = strata(&[
        "lookup",
        "--explain",
        "--layer",
        "lookup/rsop/node.yml",
        "lookup/rsop/role.yml",
        "lookup/rsop/base.yml",
        "--options",
        "lookup/rsop/options.yml",
    ]);
    out.push_str(&format!("== RSOP\n{}\n", show(&rsop)));
    insta::assert_snapshot!(out);
}

#[test]
fn bad_rules_and_usage() {
    let layers = ["lookup/bad/node.yml", "lookup/bad/role.yml"];
    let mut out = String::new();
    let mut case = |title: &str, args: &[&str]| {
        out.push_str(&format!("== {title}\n{}\n\n", show(&strata(args))));
    };
    for (key, options) in [
        ("Features", "unknown-names"),
        ("Packages", "unknown-names"),
        ("Settings", "unknown-names"),
        ("Other", "unknown-names"),
        ("Features", "regex"),
        ("Features", "shape"),
        ("Features", "prefix"),
        ("Packages", "tuple-keys"),
    ] {
        let opts = format!("lookup/bad/{options}.yml");
        let mut args = vec!["lookup", key, "--layer"];
        args.extend(layers);
        args.extend(["--options", &opts]);
        case(&format!("{key} with {options}"), &args);
    }
    let strict = [
        "lookup",
        "Features",
        "--strict",
        "--layer",
        layers[0],
        layers[1],
        "--options",
        "lookup/bad/unknown-names.yml",
    ];
    case("unknown name under --strict", &strict);
    let strict = [
        "lookup",
        "Packages",
        "--strict",
        "--layer",
        layers[0],
        layers[1],
        "--options",
        "lookup/bad/tuple-keys.yml",
    ];
    case("missing tuple key under --strict", &strict);
    case(
        "no ResolutionPrecedence",
        &[
            "lookup",
            "X",
            "--datum",
            "lookup/bad/no-precedence/Datum.yml",
            "--node",
            "lookup/bad/node.yml",
        ],
    );
    case(
        "unsupported expression",
        &[
            "lookup",
            "X",
            "--datum",
            "lookup/bad/script/Datum.yml",
            "--node",
            "lookup/bad/script/node.yml",
        ],
    );
    case("key not found", &["lookup", "Nope", "--layer", layers[0]]);
    case("empty key", &["lookup", r"\", "--layer", layers[0]]);
    case(
        "hiera: a file that is no Hiera 5 configuration",
        &["lookup", "X", "--hiera", "lookup/bad/node.yml"],
    );
    insta::assert_snapshot!(out);
}

#[test]
fn merge_with_rules() {
    let mut out = String::new();
    let mut case = |title: &str, args: &[&str]| {
        out.push_str(&format!("== {title}\n{}\n\n", show(&strata(args))));
    };
    let files = ["merge-rules/base.yml", "merge-rules/prod.yml"];
    case(
        "lookup_options form, JSON pointer, regex, knockout; three files",
        &[
            "merge",
            "--rules",
            "merge-rules/rules.yml",
            files[0],
            files[1],
            "merge-rules/extra.json",
        ],
    );
    case(
        "bare form; no default: maps deep, arrays from the last file",
        &[
            "merge",
            "--rules",
            "merge-rules/rules-bare.yml",
            files[0],
            files[1],
        ],
    );
    case(
        "default_lookup_options MostSpecific",
        &[
            "merge",
            "--rules",
            "merge-rules/rules-default.yml",
            files[0],
            files[1],
        ],
    );
    case(
        "explain",
        &[
            "merge",
            "--explain",
            "--output",
            "json",
            "--rules",
            "merge-rules/rules.yml",
            files[0],
            files[1],
        ],
    );
    case(
        "a document that is not a mapping",
        &[
            "merge",
            "--rules",
            "merge-rules/rules.yml",
            files[0],
            "merge-rules/list.yml",
        ],
    );
    case(
        "bad rules file",
        &[
            "merge",
            "--rules",
            "lookup/bad/regex.yml",
            files[0],
            files[1],
        ],
    );
    case(
        "--rules and --how exclude each other",
        &[
            "merge",
            "--rules",
            "merge-rules/rules.yml",
            "--how",
            "dict(replace)",
            files[0],
        ],
    );
    insta::assert_snapshot!(out);
}

#[test]
fn merge_without_rules_is_unchanged() {
    let run = strata(&[
        "merge",
        "--no-comments",
        "merge-rules/base.yml",
        "merge-rules/prod.yml",
    ]);
    let out = run.ok();
    assert!(out.contains("- '--metrics'"), "{out}");
    assert!(
        out.contains("version: '2.44'") && !out.contains("pinned"),
        "{out}"
    );
}

/// Many keys (past the size where maps get a folded-key index instead of a scan): in the RSOP
/// every node key still meets its case-insensitive twin in the other layer, the node's spelling
/// and order are kept, and a key spelled two ways in one layer resolves to the first one.
#[test]
fn folded_keys_in_large_layers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut node, mut role) = (String::new(), String::new());
    for i in 0..60 {
        node.push_str(&format!("Key{i}:\n  Node: {i}\n"));
        role.push_str(&format!("KEY{}:\n  role: {}\n", 59 - i, 59 - i));
    }
    role.push_str("Extra: 1\nEXTRA: 2\nkey0:\n  second: spelling\n");
    let path = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p.to_str().expect("path").to_string()
    };
    let (n, r) = (path("node.yml", &node), path("role.yml", &role));
    let o = path("options.yml", "default_lookup_options: deep\n");
    let lookup = |extra: &[&str]| {
        let mut args = vec![
            "lookup",
            "--output",
            "json",
            "--options",
            &o,
            "--layer",
            &n,
            &r,
        ];
        args.extend_from_slice(extra);
        strata(&args).json()
    };
    let out = lookup(&[]);
    let map = out.as_object().expect("a mapping");
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 60, "{keys:?}");
    assert_eq!(keys.first(), Some(&"Key0"));
    assert_eq!(keys.get(59), Some(&"Key59"));
    for i in 0..60 {
        assert_eq!(
            out[format!("Key{i}")],
            serde_json::json!({"Node": i, "role": i})
        );
    }
    assert_eq!(lookup(&["--", "extra"]), 1);
    let one = lookup(&["--", "KEY17"]);
    assert_eq!(one, serde_json::json!({"Node": 17, "role": 17}));
}

/// Issue 36: each back-end's flags are refused with the other's, as clap refuses `--hiera`
/// with `--layer` (they were accepted and ignored).
#[test]
fn the_other_back_ends_flags_are_refused() {
    for extra in [
        &["--merge", "deep"][..],
        &["--default", "x"],
        &["--facts", "hiera/site/facts.yaml"],
        &["--explain-levels"],
        &["--sort-merged-arrays"],
    ] {
        let mut args = vec!["lookup", "--layer", "lookup/rules/node.yml"];
        args.extend(extra);
        let err = strata(&args).fails(2).to_string();
        assert!(err.contains("cannot be used with"), "{extra:?}: {err}");
    }
    let err = strata(&[
        "lookup",
        "--hiera",
        "hiera/site/hiera.yaml",
        "--options",
        "lookup/rules/options.yml",
    ])
    .fails(2)
    .to_string();
    assert!(err.contains("cannot be used with"), "{err}");
}
