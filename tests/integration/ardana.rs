//! `strata ardana read` / `validate` behaviour tests on `fixtures/ardana/`: `model` is a small
//! valid model using every combining rule (a list split over files, a dictionary and a list in
//! one file, pass-through in one file, an empty list section, a subdirectory, a README, a
//! YAML 1.1 boolean, a file that is not a model file); `violations` breaks every rule of the
//! input-model document once, so `validate` must report them all.

use crate::util::{strata, Run};
use serde_json::Value;

fn ardana(args: &[&str]) -> Run {
    let mut argv = vec!["ardana"];
    argv.extend_from_slice(args);
    strata(&argv)
}

#[test]
fn read_combines_the_files_as_the_service_does() {
    let run = ardana(&["read", "ardana/model"]);
    let doc: Value = serde_json::from_str(run.ok()).expect("JSON by default");
    let model = &doc["inputModel"];
    // A list split over two files, in walk order (files sorted: compute before controller).
    assert_eq!(model["disk-models"][0]["name"], "COMPUTE-DISKS");
    assert_eq!(model["disk-models"][1]["name"], "CONTROLLER-DISKS");
    // YAML 1.1: `default: yes` is a boolean.
    assert_eq!(model["swift-rings"][0]["default"], true);
    // An empty list section is listed in `sections`, absent from the model and the map.
    assert!(model.get("firewall-rules").is_none());
    assert_eq!(
        doc["fileInfo"]["sections"]["firewall-rules"][0],
        "data/empty.yml"
    );
    assert_eq!(
        doc["fileInfo"]["fileSectionMap"]["data/empty.yml"],
        serde_json::json!(["product"])
    );
    // One pass-through file: the plain string.
    assert_eq!(
        doc["fileInfo"]["fileSectionMap"]["data/pass_through.yml"][1],
        "pass-through"
    );
    // The key field comes from the first entry: servers by id, swift rings by region-name.
    let servers = &doc["fileInfo"]["fileSectionMap"]["data/servers.yml"][2];
    assert_eq!(servers["keyField"], "id");
    assert_eq!(servers["servers"][2], "compute1");
    // Files of a directory before its subdirectories; notes.txt is not a model file.
    let files: Vec<&str> = doc["fileInfo"]["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(files.first(), Some(&"cloudConfig.yml"));
    assert_eq!(files.last(), Some(&"data/network/networks.yml"));
    assert!(!files.iter().any(|f| f.ends_with("notes.txt")));
    assert_eq!(
        doc["readme"]["md"],
        "# Lab model\n\nEdit data/servers.yml to add a server.\n"
    );
    assert_eq!(doc["name"], "lab");
    assert_eq!(doc["version"], 2);
    insta::assert_snapshot!("ardana_model_read", run.stdout);
}

#[test]
fn read_as_yaml_on_request() {
    let run = ardana(&["read", "--output", "yaml", "ardana/model"]);
    assert!(run.ok().starts_with("errors: []\nfileInfo:\n"));
}

#[test]
fn validate_passes_a_model_that_keeps_the_rules() {
    let run = ardana(&["validate", "ardana/model"]);
    assert_eq!(
        run.ok(),
        "ardana/model: 7 model files, 9 sections, no violation of the input-model rules\n"
    );
}

#[test]
fn validate_reports_every_violation_at_once() {
    let run = ardana(&["validate", "ardana/violations"]);
    let err = run.fails(1);
    for code in [
        "DuplicateSection",
        "DuplicateListKey",
        "MissingKeyField",
        "DuplicatePassThroughKey",
        "SectionTypeClash",
        "invalid YAML",
    ] {
        assert!(err.contains(code), "{code} missing from:\n{err}");
    }
    // Both places of a duplicate.
    assert!(err.contains("ardana/violations/data/b.yml:3:1"));
    assert!(err.contains("first defined in data/a.yml at ardana/violations/data/a.yml:3:1"));
    assert!(err.ends_with("error: 7 violations of the input-model rules in ardana/violations\n"));
    assert_eq!(run.stdout, "");
    insta::assert_snapshot!("ardana_violations", err);
}

#[test]
fn read_refuses_a_model_that_breaks_the_rules() {
    let run = ardana(&["read", "ardana/violations"]);
    assert!(run.fails(1).contains("DuplicateSection"));
    assert_eq!(run.stdout, "");
}

#[test]
fn explain_gives_every_value_its_file_line_and_column() {
    let run = ardana(&["read", "--explain", "ardana/model"]);
    let doc: Value = serde_json::from_str(run.ok()).expect("JSON");
    let entries = doc["explain"].as_array().expect("explain entries");
    let find = |path: &str| {
        entries
            .iter()
            .find(|e| e["path"] == path)
            .unwrap_or_else(|| panic!("{path} not explained"))
    };
    let ip = find("/inputModel/servers/2/ip-addr");
    assert_eq!(ip["source"]["file"], "ardana/model/data/servers.yml");
    assert_eq!(ip["source"]["line"], 16);
    let disk = find("/inputModel/disk-models/1/name");
    assert_eq!(disk["outcome"], "appended");
    assert_eq!(
        disk["source"]["file"],
        "ardana/model/data/disks_controller.yml"
    );
    // `product` is in every file: the last one's replaced the others.
    assert_eq!(find("/inputModel/product/version")["outcome"], "replaced");
}

#[test]
fn a_directory_without_cloud_config_is_not_a_model() {
    let run = ardana(&["read", "ardana/model/data"]);
    let err = run.fails(1);
    assert!(err.contains("has no cloudConfig.yml"), "{err}");
}

#[test]
fn write_says_it_is_not_built_yet() {
    let run = ardana(&["write", "model.json", "ardana/model"]);
    assert!(run.fails(2).contains("not built yet"));
}
