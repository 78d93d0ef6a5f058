//! `strata merge`: plain files layered in order; deep by default, cloud-init semantics with
//! `--how`.

use crate::util::strata;
use serde_json::json;

#[test]
fn deep_merge_by_default_later_scalars_and_lists_replace() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "merge/base.yaml",
        "merge/prod.yaml",
    ]);
    assert_eq!(
        run.json(),
        json!({"app": {"name": "shop", "replicas": 6, "ports": [443], "env": {"LOG_LEVEL": "warn", "FEATURE_X": "off"}},
               "database": {"host": "db.internal", "pool": 50, "replica": "db-ro.internal"}})
    );
}

#[test]
fn json_layers_use_json_numbers_and_null_replaces() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "merge/base.yaml",
        "merge/prod.yaml",
        "merge/override.json",
    ]);
    let v = run.json();
    assert_eq!(
        v["app"]["env"],
        json!({"LOG_LEVEL": "warn", "FEATURE_X": "on", "RATE": 1000.0})
    );
    assert_eq!(v["database"], json!(null));
}

#[test]
fn every_document_of_a_stream_is_a_layer() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "merge/base.yaml",
        "merge/two-docs.yaml",
    ]);
    assert_eq!(run.json()["app"]["replicas"], json!(9));
}

#[test]
fn how_applies_cloud_init_semantics_to_every_layer() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "--how",
        "dict(recurse_list)+list(append)",
        "merge/base.yaml",
        "merge/prod.yaml",
    ]);
    let v = run.json();
    // dict(no_replace): old scalars stay; recurse_list + list(append): lists concatenate.
    assert_eq!(v["app"]["replicas"], json!(2));
    assert_eq!(v["app"]["ports"], json!([80, 443, 443]));
    assert_eq!(v["database"]["replica"], json!("db-ro.internal"));
}

#[test]
fn how_requires_mapping_layers() {
    let err = strata(&[
        "merge",
        "--how",
        "dict()",
        "merge/base.yaml",
        "merge/list-root.yaml",
    ])
    .fails(1)
    .to_string();
    assert!(err.contains("merge/list-root.yaml:1:1"), "{err}");
}

#[test]
fn a_later_list_document_replaces_without_how() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "merge/base.yaml",
        "merge/list-root.yaml",
    ]);
    assert_eq!(run.json(), json!(["a", "b"]));
}

#[test]
fn yaml_output_keeps_order_and_quotes_ambiguous_strings() {
    let run = strata(&["merge", "merge/base.yaml", "merge/prod.yaml"]);
    insta::assert_snapshot!("merge_base_prod", run.ok());
    assert!(run.stdout.contains("FEATURE_X: 'off'"));
}

#[test]
fn yaml_12_mode_reads_yes_as_a_string() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("a.yaml");
    std::fs::write(&f, "flag: yes\nmode: 0755\n").expect("write");
    let path = f.to_str().expect("path");
    let v11 = strata(&["merge", "--output", "json", path]).json();
    assert_eq!(v11, json!({"flag": true, "mode": 493}));
    let v12 = strata(&["merge", "--output", "json", "--yaml", "1.2", path]).json();
    assert_eq!(v12, json!({"flag": "yes", "mode": 755}));
}

#[test]
fn out_writes_the_file_atomically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("rendered.yaml");
    std::fs::write(&out, "old content\n").expect("write");
    let run = strata(&[
        "merge",
        "-o",
        out.to_str().expect("path"),
        "merge/base.yaml",
    ]);
    run.ok();
    assert!(run.stdout.is_empty());
    let written = std::fs::read_to_string(&out).expect("read");
    assert!(
        written.starts_with("# Base settings shared by every environment.\napp:"),
        "{written}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    // A failing render leaves the old file untouched.
    strata(&[
        "merge",
        "-o",
        out.to_str().expect("path"),
        "bad/truncated.yaml",
    ])
    .fails(1);
    assert_eq!(std::fs::read_to_string(&out).expect("read"), written);
}

#[test]
fn duplicate_keys_warn_and_the_last_wins() {
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "cloud-init/semantics/s8-duplicate-keys-last-wins/01.yaml",
    ]);
    assert_eq!(run.json(), json!({"a": 2}));
    assert!(
        run.stderr.contains("duplicate key 'a'") && run.stderr.contains("01.yaml:3:1"),
        "{}",
        run.stderr
    );
    strata(&[
        "merge",
        "--strict",
        "cloud-init/semantics/s8-duplicate-keys-last-wins/01.yaml",
    ])
    .fails(1);
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.yaml");
    let mut text = String::new();
    for i in 0..200_000 {
        text.push_str(&format!("key{i}: value number {i}\n"));
    }
    std::fs::write(&big, text).expect("write");
    let mut child = crate::util::command()
        .args(["merge", big.to_str().expect("path")])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("read");
    // The read end is dropped here: strata's next writes hit a closed pipe.
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A render larger than the writers' streaming block (64 KiB) comes out the same on stdout
/// and through `--out`, in YAML and in JSON, and the YAML reads back as the JSON says.
#[test]
fn large_output_is_streamed_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut a, mut b) = (String::new(), String::new());
    for i in 0..3000 {
        a.push_str(&format!(
            "k{i}:\n  n: {i}\n  s: 'yes'\n  text: |\n    line one {i}\n    line two\n"
        ));
        if i % 2 == 0 {
            b.push_str(&format!("k{i}:\n  n: {}\n  extra: [1, 2]\n", i + 1));
        }
    }
    let (pa, pb) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    std::fs::write(&pa, &a).expect("write");
    std::fs::write(&pb, &b).expect("write");
    let (pa, pb) = (pa.to_str().expect("path"), pb.to_str().expect("path"));
    let stdout = strata(&["merge", pa, pb]).ok().to_string();
    assert!(stdout.len() > 3 * 65536, "{}", stdout.len());
    assert!(
        stdout.ends_with("    line two\n"),
        "{}",
        &stdout[stdout.len() - 200..]
    );
    let out = dir.path().join("out.yaml");
    strata(&["merge", "-o", out.to_str().expect("path"), pa, pb]).ok();
    assert_eq!(std::fs::read_to_string(&out).expect("read"), stdout);
    // Every value made it through: the YAML read back equals the JSON rendering.
    std::fs::write(dir.path().join("back.yaml"), &stdout).expect("write");
    let back = strata(&[
        "merge",
        "--output",
        "json",
        dir.path().join("back.yaml").to_str().expect("path"),
    ])
    .json();
    assert_eq!(back, strata(&["merge", "--output", "json", pa, pb]).json());
    assert_eq!(back["k2998"]["n"], 2999);
    // JSON is streamed too: stdout and --out agree, byte for byte.
    let json_out = dir.path().join("out.json");
    let json_stdout = strata(&["merge", "--output", "json", pa, pb])
        .ok()
        .to_string();
    assert!(json_stdout.len() > 3 * 65536, "{}", json_stdout.len());
    strata(&[
        "merge",
        "--output",
        "json",
        "-o",
        json_out.to_str().expect("path"),
        pa,
        pb,
    ])
    .ok();
    assert_eq!(
        std::fs::read_to_string(&json_out).expect("read"),
        json_stdout
    );
    assert_eq!(back["k2999"]["text"], "line one 2999\nline two\n");
}

/// Without `--explain` a file's text is released once its values are built; a message that
/// needs a position afterwards reads the file again and still shows the line.
#[test]
fn messages_after_loading_still_show_the_line() {
    let err = strata(&[
        "merge",
        "--rules",
        "merge-rules/rules.yml",
        "merge-rules/base.yml",
        "merge/list-root.yaml",
    ])
    .fails(1)
    .to_string();
    assert!(err.contains("merge/list-root.yaml:1:1"), "{err}");
    assert!(err.contains("1 | - a"), "{err}");

    let err = strata(&["merge", "--output", "json", "merge/not-a-number.yaml"])
        .fails(1)
        .to_string();
    assert!(err.contains("merge/not-a-number.yaml:4:10"), "{err}");
    assert!(err.contains("4 |   ratio: .nan"), "{err}");
}

/// Issue 16, "no silent surprises": what the plain merge does that users rarely mean is said.
#[test]
fn surprising_layers_get_warnings_and_strict_refuses_them() {
    let files = [
        "merge/surprises/base.yaml",
        "merge/surprises/comments.yaml",
        "merge/surprises/kind.yaml",
        "merge/surprises/null.yaml",
    ];
    let mut args = vec!["merge"];
    args.extend(files);
    let run = strata(&args);
    assert_eq!(run.ok(), "null\n");
    assert!(run.stderr.contains("comments.yaml holds no document"));
    assert!(run
        .stderr
        .contains("a list (from merge/surprises/base.yaml:2:3) is replaced by a mapping"));
    assert!(run
        .stderr
        .contains("null.yaml:4:1: this document is empty (null)"));
    insta::assert_snapshot!("merge_surprises", run.stderr);
    let mut strict = vec!["merge", "--strict"];
    strict.extend(files);
    assert!(strata(&strict).fails(1).contains("holds no document"));
}

#[test]
fn how_without_a_dict_merger_or_with_unknown_options_is_warned_about() {
    let run = strata(&[
        "merge",
        "--how",
        "list(append)",
        "merge/surprises/base.yaml",
        "merge/surprises/kind.yaml",
    ]);
    assert_eq!(run.ok(), "{}\n");
    assert!(run
        .stderr
        .contains("'list(append)' has no dict(...) merger"));
    let run = strata(&[
        "merge",
        "--how",
        "dict(recurse_arary)+list(apend)",
        "merge/surprises/base.yaml",
    ]);
    run.ok();
    assert!(run.stderr.contains("did you mean 'recurse_array'?"));
    assert!(run.stderr.contains("did you mean 'append'?"));
}

#[test]
fn what_a_merge_does_that_a_user_may_not_mean_is_said_and_nothing_else() {
    // A file of one list: no mapping was replaced, no warning.
    let run = strata(&["merge", "--strict", "merge/list-only.yaml"]);
    assert_eq!(run.ok(), "- web\n- db\n");
    assert_eq!(run.stderr, "");
    // Several documents in one file are folded: said, and --strict refuses it.
    let run = strata(&["merge", "merge/manifests.yaml"]);
    assert_eq!(run.ok(), "kind: Service\nname: web\n");
    assert!(
        run.stderr.contains("manifests.yaml holds 2 documents"),
        "{}",
        run.stderr
    );
    strata(&["merge", "--strict", "merge/manifests.yaml"]).fails(1);
    // An empty --how is refused as a usage error.
    let run = strata(&["merge", "--how", "", "merge/base.yaml"]);
    assert!(run.fails(2).contains("--how is empty"), "{}", run.stderr);
    // dict(replace) never recurses: its recurse options and list(append) do nothing.
    let files = ["merge/base.yaml", "merge/prod.yaml"];
    let run = strata(
        &[
            &["merge", "--how", "dict(replace,recurse_list)+list(append)"][..],
            &files,
        ]
        .concat(),
    );
    run.ok();
    assert!(
        run.stderr
            .contains("recurse_list, list(append) have no effect"),
        "{}",
        run.stderr
    );
    // cloud-init's defaults, written as defaults, are named; written explicitly, they are not.
    let run = strata(&[&["merge", "--how", "dict()+list()"][..], &files].concat());
    assert!(
        run.stderr.contains("'dict()' is cloud-init's no_replace"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("'list()' is cloud-init's index-wise replace"),
        "{}",
        run.stderr
    );
    let run = strata(
        &[
            &[
                "merge",
                "--strict",
                "--how",
                "dict(no_replace,recurse_list)+list(append)",
            ][..],
            &files,
        ]
        .concat(),
    );
    assert_eq!(run.stderr, "");
    run.ok();
}

/// `<<` takes its value as PyYAML's `flatten_mapping` does, by node kind, whatever the tag:
/// an `!!omap` / `!!pairs` sequence of one-key mappings merges like a list of mappings
/// (earlier sources win), `!!set {k: v}` merges `k: v`, and an `!!omap` reached through an
/// alias merges too. Checked against PyYAML 6.0.3's `safe_load` of the fixture.
#[test]
fn merge_keys_take_tagged_sequences_of_one_key_mappings() {
    let run = strata(&["merge", "--output", "json", "merge/merge-keys/tagged.yaml"]);
    let v = run.json();
    assert_eq!(v["ordered"], json!({"b": 2, "c": 3, "a": 1}));
    assert_eq!(v["paired"], json!({"x": 1, "y": 3}));
    assert_eq!(v["set_values"], json!({"s": "kept"}));
    assert_eq!(
        v["through_alias"],
        json!({"other": 2, "from_alias": 1, "own": 3})
    );
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    // Key order is PyYAML's: the merged pairs first, the later source first.
    let order: Vec<&String> = v["through_alias"]
        .as_object()
        .expect("a mapping")
        .keys()
        .collect();
    assert_eq!(order, ["other", "from_alias", "own"]);
    // A sequence inside the list of sources is refused, as PyYAML refuses it.
    let err = strata(&["merge", "merge/merge-keys/nested-list.yaml"])
        .fails(1)
        .to_string();
    assert!(
        err.contains("expected a mapping for merging, but found sequence"),
        "{err}"
    );
    assert!(err.contains("nested-list.yaml:3:"), "{err}");
}

/// PyYAML builds every `.nan` as one float object, so `.nan` keys are one key: within a
/// mapping (the last value wins, with the duplicate-key warning) and across merged layers.
#[test]
fn nan_keys_are_one_key() {
    let run = strata(&["merge", "merge/nan-keys/a.yaml", "merge/nan-keys/b.yaml"]);
    assert_eq!(run.ok(), ".nan: third\none: 1\n");
    assert!(run.stderr.contains("duplicate key"), "{}", run.stderr);
    let run = strata(&[
        "merge",
        "--output",
        "json",
        "merge/nan-keys/a.yaml",
        "merge/nan-keys/b.yaml",
    ]);
    assert_eq!(run.ok(), "{\n  \"NaN\": \"third\",\n  \"one\": 1\n}\n");
}

/// JSON object keys never repeat: keys that are distinct in YAML but written as the same JSON
/// text (`1` and `'1'`) make the output refused, naming both, before any byte is written.
#[test]
fn json_output_refuses_keys_that_collide_as_text() {
    let run = strata(&["merge", "--output", "json", "merge/nan-keys/collide.yaml"]);
    let err = run.fails(1);
    assert!(run.stdout.is_empty());
    insta::assert_snapshot!("json_colliding_keys", err);
    // YAML holds both.
    let run = strata(&["merge", "merge/nan-keys/collide.yaml"]);
    assert!(
        run.ok().ends_with("\n1: the integer\n'1': the string\n"),
        "{}",
        run.stdout
    );
}

/// Issue 36: `-o` names a file. A file named like a format (kubectl's and yq's `-o json`) is
/// warned about; without `--output`, a `.json` / `.yaml` name says the format; a name that says
/// another format than `--output` is warned about.
#[test]
fn out_file_names_and_formats() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = crate::util::fixtures().join("merge/base.yaml");
    let run = |args: &[&str]| {
        let out = crate::util::command()
            .current_dir(dir.path())
            .arg("merge")
            .arg(&base)
            .args(args)
            .output()
            .expect("run strata");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["-o", "json"]);
    assert_eq!(code, Some(0));
    assert!(
        err.contains("-o json writes YAML into a file named 'json'"),
        "{err}"
    );
    assert_eq!(run(&["-o", "json", "--strict"]).0, Some(1));
    let (code, err) = run(&["-o", "out.json"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let text = std::fs::read_to_string(dir.path().join("out.json")).expect("written");
    serde_json::from_str::<serde_json::Value>(&text).expect("JSON, as the name says");
    let (_, err) = run(&["--output", "yaml", "-o", "other.json"]);
    assert!(
        err.contains("the name says JSON but --output writes YAML"),
        "{err}"
    );
}
