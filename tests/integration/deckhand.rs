//! `strata deckhand`: a site over three layers in directories (layering, a pattern
//! substitution from a Passphrase, a list from another document), Deckhand's quirks with
//! their warnings, every kind of bad input with its Deckhand error class and positions, the
//! stream output in YAML and JSON, `--explain` per document and `--explain=/N/...`,
//! `--validate` and `--check-schemas`.

use crate::util::{strata, strata_stdin};
use serde_json::json;

/// A YAML stream as JSON values, read with strata's own loader.
fn stream(text: &str) -> Vec<serde_json::Value> {
    let mut w = Vec::new();
    strata::load::yaml::load_stream(text, 0, &Default::default(), &mut w)
        .expect("parses")
        .into_iter()
        .map(|d| {
            serde_json::from_str(&strata::render::json::to_compact(&d).expect("json"))
                .expect("json")
        })
        .collect()
}

fn names(docs: &[serde_json::Value]) -> Vec<String> {
    docs.iter()
        .map(|d| d["metadata"]["name"].as_str().unwrap_or("?").to_string())
        .collect()
}

#[test]
fn a_site_in_directories_renders_in_deckhands_order() {
    let run = strata(&["deckhand", "deckhand/site"]);
    insta::assert_snapshot!("deckhand_site", run.ok());
    let docs = stream(run.ok());
    // Dependencies first (the substitution sources, then the chart), then the documents
    // outside the dependency graph; abstract documents are not in the result.
    assert_eq!(
        names(&docs),
        [
            "common-addresses",
            "keystone-db-password",
            "keystone",
            "layering-policy"
        ]
    );
    let chart = &docs[2]["data"];
    assert_eq!(chart["values"]["replicas"], json!(3), "from the type layer");
    assert_eq!(
        chart["values"]["conf"]["keystone"]["DEFAULT"]["debug"],
        json!(true),
        "from the site"
    );
    assert_eq!(
        chart["values"]["conf"]["keystone"]["database"]["connection"],
        json!("mysql+pymysql://keystone:s3cr3t-db-pass@mariadb.openstack/keystone")
    );
    assert_eq!(
        chart["values"]["dns_servers"],
        json!(["10.0.0.2", "10.0.0.3"])
    );
    assert!(chart.get("dependencies").is_none(), "deleted by the site");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn json_output_is_an_array_of_the_same_documents() {
    let yaml = stream(strata(&["deckhand", "deckhand/site"]).ok());
    let run = strata(&["deckhand", "--output", "json", "deckhand/site"]);
    assert_eq!(run.json(), json!(yaml));
}

#[test]
fn files_and_stdin_read_like_a_directory() {
    let files = [
        "deckhand/site/global/keystone.yaml",
        "deckhand/site/global/layering-policy.yaml",
        "deckhand/site/site/keystone.yaml",
        "deckhand/site/site/secrets.yaml",
        "deckhand/site/type/keystone-ha.yaml",
    ];
    let mut args = vec!["deckhand"];
    args.extend(files);
    let from_files = strata(&args).ok().to_string();
    assert_eq!(from_files, strata(&["deckhand", "deckhand/site"]).ok());
    let all: String = files
        .iter()
        .map(|f| std::fs::read_to_string(crate::util::fixtures().join(f)).expect("read"))
        .collect();
    let run = strata_stdin(&["deckhand", "-"], Some(all.as_bytes()));
    assert_eq!(run.ok(), from_files);
}

#[test]
fn quirks_are_kept_and_warned_about() {
    let run = strata(&[
        "deckhand",
        "--output",
        "json",
        "deckhand/quirks/delete-by-value.yaml",
    ]);
    let docs = run.json();
    // `delete .limits.cpu` deletes the first value equal to 1: `replicas`, not `limits.cpu`.
    assert_eq!(docs[0]["data"], json!({"limits": {"cpu": 1}}));
    insta::assert_snapshot!("deckhand_quirk_warnings", run.stderr);
    let strict = strata(&[
        "deckhand",
        "--strict",
        "deckhand/quirks/delete-by-value.yaml",
    ]);
    assert!(
        strict.fails(1).contains("delete by value"),
        "{}",
        strict.stderr
    );
}

#[test]
fn bad_inputs_name_the_class_and_the_position() {
    let mut shown = String::new();
    for (file, class) in [
        ("two-parents", Some("IndeterminateDocumentParent")),
        ("cycle", Some("SubstitutionDependencyCycle")),
        ("missing-key", Some("MissingDocumentKey")),
        ("data-prefix", Some("MissingDocumentKey")),
        ("path-into-scalar", None),
        ("not-a-mapping", None),
        ("no-schema", None),
        ("no-policy", Some("LayeringPolicyNotFound")),
        ("mixed-keys", None),
    ] {
        let path = format!("deckhand/errors/{file}.yaml");
        let run = strata(&["deckhand", &path]);
        let all = run.fails(1);
        // Warnings gathered before the error come first.
        let err = all.find("\nerror: ").map_or(all, |i| &all[i + 1..]);
        if let Some(class) = class {
            assert!(
                err.starts_with(&format!("error: {class}: ")),
                "{file}: {err}"
            );
        }
        assert!(
            err.contains(&format!("--> {path}:")),
            "{file}: no position: {err}"
        );
        assert!(run.stdout.is_empty(), "{file}: something was written");
        shown.push_str(&format!("$ strata deckhand {path}\n{err}\n"));
    }
    insta::assert_snapshot!("deckhand_errors", shown);
}

#[test]
fn a_selector_that_matches_nothing_is_a_warning() {
    let run = strata(&[
        "deckhand",
        "--output",
        "json",
        "deckhand/errors/no-parent.yaml",
    ]);
    assert_eq!(
        run.json()[2]["data"],
        json!({"b": 2}),
        "its own data, not layered"
    );
    assert!(
        run.stderr
            .contains("no document matches the parentSelector"),
        "{}",
        run.stderr
    );
    strata(&["deckhand", "--strict", "deckhand/errors/no-parent.yaml"]).fails(1);
}

#[test]
fn explain_names_documents_parents_actions_and_substitutions() {
    let run = strata(&["deckhand", "--explain", "deckhand/site"]);
    let out = run.ok();
    insta::assert_snapshot!("deckhand_site_explain", out);
    assert!(
        out.contains("# [armada/Chart/v1, site] keystone at deckhand/site/site/keystone.yaml:2:1")
    );
    assert!(out.contains(
        "#   parent [armada/Chart/v1, type] keystone-ha at deckhand/site/type/keystone-ha.yaml:2:1"
    ));
    // The commented stream means the same as the plain one.
    assert_eq!(
        stream(out),
        stream(strata(&["deckhand", "deckhand/site"]).ok())
    );
    let json = strata(&["deckhand", "--explain", "--output", "json", "deckhand/site"]).json();
    assert_eq!(
        json["documents"][2]["title"],
        json!("[armada/Chart/v1, site] keystone")
    );
    let entry = json["explain"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["path"] == json!("/2/data/values/conf/keystone/database/connection"))
        .expect("an entry for the substituted string")
        .clone();
    assert_eq!(entry["outcome"], json!("substituted"));
    assert_eq!(
        entry["source"]["file"],
        json!("deckhand/site/global/keystone.yaml")
    );
}

#[test]
fn explain_one_value_by_document_index() {
    let run = strata(&[
        "deckhand",
        "--explain=/2/data/values/replicas",
        "deckhand/site",
    ]);
    insta::assert_snapshot!("deckhand_explain_one", run.ok());
    assert!(run.ok().contains("merge .values"), "{}", run.ok());
}

#[test]
fn validate_reports_every_violation() {
    let run = strata(&["deckhand", "--validate", "deckhand/errors/invalid.yaml"]);
    let err = run.fails(1);
    assert!(err.starts_with("error: InvalidDocumentFormat: "), "{err}");
    insta::assert_snapshot!("deckhand_validate", err);
    // Without --validate the same set renders.
    strata(&["deckhand", "deckhand/errors/invalid.yaml"]).ok();
}

#[test]
fn check_schemas_reports_every_violation_with_both_positions() {
    let run = strata(&["deckhand", "--check-schemas", "deckhand/schemas/site.yaml"]);
    let err = run.fails(1);
    insta::assert_snapshot!("deckhand_check_schemas", err);
    assert!(err.contains("/data/port"), "{err}");
    assert!(
        err.contains("deckhand/schemas/site.yaml:39:9"),
        "the value's position: {err}"
    );
    assert!(
        err.contains("rule at deckhand/schemas/site.yaml:18:13"),
        "the rule's position: {err}"
    );
    assert!(
        err.contains("70000 is greater than the maximum of 65535"),
        "{err}"
    );
    assert!(err.contains("/data: "), "the missing host: {err}");
    // Without the flag the set renders.
    strata(&["deckhand", "deckhand/schemas/site.yaml"]).ok();
}

#[test]
fn replacement_src_pattern_recursive_pattern_and_python_str() {
    let docs = strata(&["deckhand", "--output", "json", "deckhand/features.yaml"]).json();
    let names: Vec<&str> = docs
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d["metadata"]["name"].as_str().unwrap_or("?"))
        .collect();
    // The replaced global ingress is not in the result; its replacement is, and is the source.
    assert_eq!(names, ["sizes", "ingress", "report", "policy"]);
    assert_eq!(docs[1]["data"]["hosts"], json!(["site.example.com"]));
    assert_eq!(
        docs[1]["data"]["image"],
        json!("quay.io/airship/ingress:1.2.3")
    );
    let report = &docs[2]["data"];
    assert_eq!(report["tag"], json!("1.2.3"), "src.pattern, match_group 2");
    assert_eq!(
        report["urls"],
        json!({"api": "https://site.example.com/api", "list": ["https://site.example.com/a", "ftp://other"]})
    );
    assert_eq!(
        report["summary"],
        json!("3.0 replicas"),
        "Python's str(3.0)"
    );
    let run = strata(&["deckhand", "--explain", "deckhand/features.yaml"]);
    insta::assert_snapshot!("deckhand_features_explain", run.ok());
}

#[test]
fn deep_nesting_and_a_huge_stream_are_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = dir.path().join("deep.yaml");
    let text = format!(
        "---\nschema: deckhand/LayeringPolicy/v1\nmetadata: {{schema: metadata/Control/v1, name: p}}\ndata: {{layerOrder: [site]}}\n---\nschema: a/B/v1\nmetadata: {{name: n}}\ndata: {}{}\n",
        "[".repeat(1000),
        "]".repeat(1000)
    );
    std::fs::write(&deep, text).expect("write");
    let run = crate::util::command()
        .args(["deckhand", deep.to_str().expect("path")])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: nesting deeper than"), "{err}");
    // 100 MB of empty documents: refused at the document limit, long before the end.
    let big = dir.path().join("big.yaml");
    std::fs::write(&big, "---\n".repeat(26_214_400)).expect("write");
    let run = crate::util::command()
        .args(["deckhand", big.to_str().expect("path")])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("more than 100000 YAML documents"), "{err}");
    assert!(run.stdout.is_empty());
}

/// Substitution paths in all of jsonpath-ng's grammar (fixtures/deckhand/recorded, where each
/// case's expected.json is Deckhand's own answer): what Deckhand renders, strata renders; what
/// Deckhand refuses, strata refuses with a message that says why and a hint that is true.
#[test]
fn jsonpath_ng_paths_in_substitutions() {
    let run = strata(&[
        "deckhand",
        "--output",
        "json",
        "deckhand/recorded/src-descendants/input.yaml",
    ]);
    let docs = run.json();
    let chart = &docs[1]["data"];
    assert_eq!(
        chart["first_ntp"],
        json!({"servers": ["ntp1.example", "ntp2.example"]}),
        "first match, depth first"
    );
    assert_eq!(chart["cluster_ntp"], json!(["10.96.0.1"]));
    assert_eq!(chart["first_port"], json!(22));

    let err = strata(&["deckhand", "deckhand/recorded/src-parse-error/input.yaml"])
        .fails(1)
        .to_string();
    assert!(err.starts_with("error: src.path '.nodes[' of a substitution of [armada/Chart/v1, site] chart: jsonpath-ng cannot parse it (JsonPathParserError: Parse error near the end of string!)"), "{err}");
    assert!(err.contains("src-parse-error/input.yaml:35:71"), "{err}");
    assert!(
        err.contains("hint: Deckhand fails here too: jsonpath-ng cannot parse the path"),
        "{err}"
    );

    let err = strata(&["deckhand", "deckhand/recorded/src-intersect/input.yaml"])
        .fails(1)
        .to_string();
    assert!(
        err.contains("jsonpath-ng parses '&' but cannot evaluate it (NotImplementedError)"),
        "{err}"
    );
}

#[test]
fn dest_paths_deckhand_cannot_write_through_change_nothing_with_a_warning() {
    let run = strata(&[
        "deckhand",
        "--output",
        "json",
        "deckhand/recorded/dest-union-and-fields/input.yaml",
    ]);
    let docs = run.json();
    assert_eq!(
        docs[1]["data"],
        json!({"ntp": "keep", "a": "ntp2.example", "c": "ntp2.example"})
    );
    assert!(
        run.stderr.contains("dest.path '$.ntp|dns': jsonpath-ng cannot write through '|' (NotImplementedError); the exception's message is empty, and Deckhand reports only a non-empty one: this substitution changes nothing"),
        "{}",
        run.stderr
    );
    strata(&[
        "deckhand",
        "--strict",
        "deckhand/recorded/dest-union-and-fields/input.yaml",
    ])
    .fails(1);

    let run = strata(&[
        "deckhand",
        "deckhand/recorded/dest-descendants-pattern/input.yaml",
    ]);
    assert!(run.stderr.contains("dest.path '$..url' matches 2 values: Deckhand applies the pattern to the first one and writes the result at every match"), "{}", run.stderr);
    let run = strata(&["deckhand", "deckhand/recorded/dest-descendants/input.yaml"]);
    assert!(run.stderr.contains("dest.path '$..dns' matches nothing: Deckhand creates the missing path from its text cut at each '.'"), "{}", run.stderr);
}

#[test]
fn a_write_into_a_match_another_write_replaced_is_refused() {
    let err = strata(&["deckhand", "deckhand/paths/nested-write.yaml"])
        .fails(1)
        .to_string();
    assert!(err.starts_with("error: a substitution from [example/Source/v1, site] source into [example/Target/v1, site] target: this path matches a value inside another match that the same write replaces"), "{err}");
    assert!(
        err.contains("hint: Deckhand renders this, strata does not reproduce it"),
        "{err}"
    );
    // Not a Deckhand error class, also when substitution failures are only warnings.
    let err = strata(&[
        "deckhand",
        "--allow-missing-substitution-source",
        "deckhand/paths/nested-write.yaml",
    ])
    .fails(1)
    .to_string();
    assert!(!err.contains("UnknownSubstitutionError"), "{err}");
}
