//! `--explain` output: YAML comments and JSON entries for representative renders (MIME parts,
//! archive entries, anchors, dropped parts, deletions, concatenation, history of one value),
//! and the promise that the commented YAML still parses to exactly the normal output.

use crate::util::{command, strata};

const CASES: &[(&str, &[&str])] = &[
    (
        "runcmd",
        &[
            "cloud-init",
            "cloud-init/runcmd/01-base.yaml",
            "cloud-init/runcmd/02-extra.yaml",
        ],
    ),
    ("mime", &["cloud-init", "cloud-init/mime/multipart.mime"]),
    (
        "mime_headers",
        &["cloud-init", "cloud-init/mime/header-case.mime"],
    ),
    (
        "archive",
        &["cloud-init", "cloud-init/archive/user-data.yaml"],
    ),
    (
        "anchors",
        &[
            "cloud-init",
            "cloud-init/semantics/s8-anchors-and-merge-keys/01.yaml",
        ],
    ),
    (
        "dropped_part",
        &[
            "cloud-init",
            "cloud-init/semantics/s7-malformed-string-rejected/01.yaml",
            "cloud-init/semantics/s7-malformed-string-rejected/02.yaml",
        ],
    ),
    (
        "deletion",
        &[
            "cloud-init",
            "cloud-init/semantics/s4-allow-delete/01.yaml",
            "cloud-init/semantics/s4-allow-delete/02.yaml",
        ],
    ),
    (
        "str_append",
        &[
            "cloud-init",
            "cloud-init/semantics/s6-str-append-nested/01.yaml",
            "cloud-init/semantics/s6-str-append-nested/02.yaml",
        ],
    ),
    (
        "list_replace_index_wise",
        &[
            "cloud-init",
            "cloud-init/semantics/s5-replace-index-wise/01.yaml",
            "cloud-init/semantics/s5-replace-index-wise/02.yaml",
        ],
    ),
    (
        "kept_old_type",
        &[
            "cloud-init",
            "cloud-init/semantics/s6-old-int-new-str-kept/01.yaml",
            "cloud-init/semantics/s6-old-int-new-str-kept/02.yaml",
        ],
    ),
    (
        "jsonp",
        &[
            "cloud-init",
            "cloud-init/jsonp/01-base.yaml",
            "cloud-init/jsonp/02-patch.txt",
        ],
    ),
    (
        "merge_default",
        &[
            "merge",
            "cloud-init/runcmd/01-base.yaml",
            "cloud-init/runcmd/02-extra.yaml",
        ],
    ),
    (
        "datum_path_warnings",
        &[
            "lookup",
            "--layer",
            "lookup/types/node.yml",
            "--layer",
            "lookup/types/role.yml",
            "--options",
            "lookup/types/options.yml",
        ],
    ),
    (
        "duplicate_key_warning",
        &[
            "merge",
            "cloud-init/semantics/s8-duplicate-keys-last-wins/01.yaml",
        ],
    ),
];

fn with(args: &[&str], extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    v.splice(1..1, extra.iter().map(|s| s.to_string()));
    v
}

#[test]
fn explain_yaml_and_json_snapshots() {
    for (name, args) in CASES {
        let yaml = with(args, &["--explain"]);
        let run = strata(&yaml.iter().map(String::as_str).collect::<Vec<_>>());
        insta::assert_snapshot!(format!("explain_{name}_yaml"), run.ok());
        let json = with(args, &["--explain", "--output", "json"]);
        let run = strata(&json.iter().map(String::as_str).collect::<Vec<_>>());
        let value = run.json();
        assert!(value["explain"].is_array(), "{name}: no explain entries");
        insta::assert_snapshot!(format!("explain_{name}_json"), run.stdout);
    }
}

/// Parses YAML text with strata itself (YAML 1.1, like PyYAML) into JSON data.
fn data_of(yaml: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("out.yaml");
    std::fs::write(&file, yaml).expect("write");
    let out = command()
        .args(["merge", "--output", "json", file.to_str().expect("path")])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}\n{yaml}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn commented_yaml_parses_to_the_normal_output() {
    for (name, args) in CASES {
        let plain = strata(args).ok().to_string();
        let explained = strata(
            &with(args, &["--explain"])
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
        .ok()
        .to_string();
        assert_ne!(plain, explained, "{name}: no comments");
        assert_eq!(
            data_of(&plain),
            data_of(&explained),
            "{name}: the explained YAML means something else"
        );
    }
}

#[test]
fn history_of_one_value() {
    let run = strata(&[
        "cloud-init",
        "--explain=/runcmd/2",
        "cloud-init/runcmd/01-base.yaml",
        "cloud-init/runcmd/02-extra.yaml",
    ]);
    insta::assert_snapshot!("explain_history_yaml", run.ok());
    let run = strata(&[
        "cloud-init",
        "--explain=/timezone",
        "--output",
        "json",
        "cloud-init/runcmd/01-base.yaml",
        "cloud-init/runcmd/02-extra.yaml",
    ]);
    let v = run.json();
    assert_eq!(v["result"], "UTC");
    let outcomes: Vec<&str> = v["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|h| h["outcome"].as_str())
        .collect();
    assert_eq!(outcomes, ["added", "kept"], "{v}");
    let run = strata(&[
        "cloud-init",
        "--explain=/a",
        "cloud-init/semantics/s4-allow-delete/01.yaml",
        "cloud-init/semantics/s4-allow-delete/02.yaml",
    ]);
    let out = run.ok();
    assert!(
        out.contains("deleted") && out.contains("/a is not in the result"),
        "{out}"
    );
}

#[test]
fn comments_are_aligned_when_they_fit() {
    let run = strata(&["merge", "--explain", "cloud-init/jsonp/01-base.yaml"]);
    let cols: Vec<usize> = run
        .ok()
        .lines()
        .filter_map(|l| l.find("  # ").map(|c| c + 2))
        .collect();
    assert!(cols.len() >= 2);
    assert!(cols.windows(2).all(|w| w[0] == w[1]), "{}", run.stdout);
}

#[test]
fn without_explain_nothing_is_recorded() {
    let file = crate::util::fixtures()
        .join("cloud-init/runcmd/01-base.yaml")
        .display()
        .to_string();
    let args: Vec<String> = vec!["cloud-init".into(), file];
    let (rendered, _) = strata::cli::explain_in_process(&args).expect("render");
    assert!(rendered.trace.is_some());
    let settings = strata::frontend::Settings {
        explain: false,
        ..Default::default()
    };
    let mut sources = strata::value::SourceMap::new();
    let input = strata::frontend::Input::new("x.yaml", b"#cloud-config\na: [1]\n".to_vec());
    let job = strata::frontend::cloudinit::CloudInitJob {
        inputs: vec![input],
        instance_data: None,
    };
    let mut files = strata::frontend::NoFiles;
    let mut run = strata::frontend::Run::new(&mut sources, &settings, &mut files);
    let plain = strata::frontend::cloudinit::render(job, &mut run).expect("render");
    assert!(plain.trace.is_none());
}

/// Issue 16: a value a `<<` merge key brought says which alias it came through, and each copy
/// of an aliased text keeps its own provenance (the copy's rule is not the original's).
#[test]
fn merge_key_members_name_their_alias_and_keep_their_own_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let layer = dir.path().join("m.yaml");
    let rules = dir.path().join("r.yml");
    std::fs::write(
        &layer,
        "a: &a\n  x: 1\nb: &b\n  y: 2\nc:\n  <<: [*a, *b]\n  z: 3\n",
    )
    .expect("write");
    std::fs::write(&rules, "lookup_options:\n  c: deep\n").expect("write");
    let out = crate::util::command()
        .current_dir(dir.path())
        .args(["merge", "--explain", "--rules", "r.yml", "m.yaml"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = |key: &str, nth: usize| {
        text.lines()
            .filter(|l| l.trim_start().starts_with(key))
            .nth(nth)
            .unwrap_or_else(|| panic!("no {key} #{nth} in\n{text}"))
            .to_string()
    };
    // a.x is the original: the default rule; c.x is the copy: the rule for 'c', via *a.
    assert!(
        !line("x: 1", 0).contains("'c'") && !line("x: 1", 0).contains("via"),
        "{text}"
    );
    assert!(
        line("x: 1", 1).contains("(via *a at 6:8)") && line("x: 1", 1).contains("exact rule 'c'"),
        "{text}"
    );
    assert!(line("y: 2", 1).contains("(via *b at 6:12)"), "{text}");
}

/// Issue 16: `merge --rules` and plain `merge` use the same outcome words for the same event
/// (a later file's value over an earlier one: `replaced`, with `was`).
#[test]
fn merge_and_merge_rules_say_the_same_for_the_same_event() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.yaml"), "a:\n  list: [1, 2]\n  x: 1\n").expect("write");
    std::fs::write(dir.path().join("b.yaml"), "a:\n  list: [3]\n  x: 2\n").expect("write");
    std::fs::write(dir.path().join("r.yml"), "lookup_options: {}\n").expect("write");
    let run = |extra: &[&str]| {
        let mut args = vec!["merge", "--explain"];
        args.extend(extra);
        args.extend(["a.yaml", "b.yaml"]);
        let out = command()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for text in [run(&[]), run(&["--rules", "r.yml"])] {
        for (key, was) in [
            ("x: 2", "; was 1 at a.yaml:3:6"),
            ("list:", "; was a list at a.yaml:2:9"),
        ] {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(key))
                .expect("line");
            assert!(
                line.contains(" replaced by ") && line.ends_with(was),
                "{text}"
            );
        }
    }
}

/// Issue 16: a history line never has a blank path (a decision about the whole document is
/// at `/`).
#[test]
fn history_lines_name_the_root_as_slash() {
    let out = strata(&[
        "cloud-init",
        "--explain=/packages",
        "cloud-init/surprises/01-base.yaml",
        "cloud-init/surprises/02-typo.yaml",
        "cloud-init/surprises/03-no-dict.yaml",
    ]);
    let text = out.ok();
    let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("#   ")).collect();
    assert!(steps.iter().any(|l| l.contains(". / kept")), "{text}");
    for l in steps {
        let after_number = l.split_once(". ").map(|(_, r)| r).unwrap_or("");
        assert!(
            !after_number.starts_with(' ') && !after_number.is_empty(),
            "blank path: {l}"
        );
    }
}

/// The measuring pass stops at the first commented line as wide as one can be (78 characters
/// for the column limit of 80): the first line here. Every later line is still written and
/// commented in that column (80), a longer line two spaces after its end.
#[test]
fn a_line_as_wide_as_can_be_fixes_the_column_at_once() {
    let run = strata(&[
        "merge",
        "--explain",
        "merge/wide/a.yaml",
        "merge/wide/b.yaml",
    ]);
    let out = run.ok();
    let mut commented = 0;
    for line in out.lines().filter(|l| !l.starts_with('#')) {
        let Some(at) = line.find("  # ") else {
            continue;
        };
        commented += 1;
        let text = line[..at].trim_end();
        let column = at + 2;
        if text.len() <= 78 {
            assert_eq!(column, 80, "{line}\n{out}");
        } else {
            assert_eq!(column, text.len() + 2, "{line}\n{out}");
        }
    }
    // Every value after the first line is there and commented, the last ones too.
    assert_eq!(commented, 8, "{out}");
    for last in ["        c: d", "  extra: added by b", "last: y"] {
        let line = out.lines().find(|l| l.starts_with(last)).expect(last);
        assert_eq!(line.find("# "), Some(80), "{line}");
    }
}

/// Issue 36: `--explain=/` is the whole document; a pointer that names nothing in the result
/// and in the history (a typo) fails with exit 2, as `jq -e` fails on a missing path; a deleted
/// value still has its history.
#[test]
fn explain_pointers_that_name_nothing_fail() {
    let run = strata(&["merge", "--explain=/", "merge/base.yaml", "merge/prod.yaml"]);
    assert!(!run.ok().contains("is not in the result"), "{}", run.stdout);
    let run = strata(&[
        "merge",
        "--explain=/nope",
        "merge/base.yaml",
        "merge/prod.yaml",
    ]);
    let err = run.fails(2);
    assert!(
        err.contains("--explain=/nope: the result has no value there"),
        "{err}"
    );
    assert!(err.contains("top-level keys: /"), "{err}");
    let run = strata(&[
        "merge",
        "--explain=/nope",
        "--output",
        "json",
        "merge/base.yaml",
    ]);
    run.fails(2);
}

/// Issue 36: a replaced container is named by its kind in the JSON form, not written as an
/// empty `{}` / `[]` it never was.
#[test]
fn json_explain_names_a_replaced_containers_kind() {
    let run = crate::util::strata(&[
        "merge",
        "--explain",
        "--output",
        "json",
        "warnings/base.yaml",
        "warnings/scalar-ports.yaml",
    ]);
    let doc = run.json();
    let entries = doc["explain"].as_array().expect("explain");
    let ports = entries
        .iter()
        .find(|e| e["path"] == "/ports")
        .expect("an entry for /ports");
    assert_eq!(
        ports["overrode"],
        serde_json::json!([{"kind": "a mapping", "file": "warnings/base.yaml", "line": 3, "column": 8}])
    );
}
