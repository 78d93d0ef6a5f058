//! `strata heat` behaviour tests: one fixture folder per rule of Heat's environment merging
//! (fixtures/heat/<rule>/, expected values written from reference/heat.md), a TripleO-style
//! example with four environment files, `--explain`, and the error messages (snapshots).

use crate::util::{strata, Run};
use serde_json::{json, Value};

/// Runs `strata heat ARGS...` in fixtures/.
fn heat(args: &[&str]) -> Run {
    let mut argv = vec!["heat"];
    argv.extend_from_slice(args);
    strata(&argv)
}

/// Runs with `--output json` and returns the document.
fn heat_json(args: &[&str]) -> Value {
    let mut argv = vec!["--output", "json"];
    argv.extend_from_slice(args);
    heat(&argv).json()
}

/// Exit code, stdout and stderr, for snapshots.
fn shown(run: &Run) -> String {
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

const TRIPLEO: &[&str] = &[
    "--template",
    "heat/tripleo/overcloud.yaml",
    "-P",
    "CloudName=cli.example.com",
    "-P",
    "EnablePackageInstall=true",
    "-e",
    "heat/tripleo/roles-default.yaml",
    "-e",
    "heat/tripleo/environments/enable-swift.yaml",
    "-e",
    "heat/tripleo/environments/enable-sshd.yaml",
    "-e",
    "heat/tripleo/node-info.yaml",
];

#[test]
fn tripleo_controller_services_extend_across_four_files() {
    let run = heat(TRIPLEO);
    run.ok();
    insta::assert_snapshot!("tripleo", shown(&run));
    let doc = heat_json(TRIPLEO);
    let defaults = &doc["parameter_defaults"];
    assert_eq!(
        defaults["ControllerServices"],
        json!([
            "OS::TripleO::Services::Keystone",
            "OS::TripleO::Services::GlanceApi",
            "OS::TripleO::Services::SwiftProxy",
            "OS::TripleO::Services::SwiftStorage",
            "OS::TripleO::Services::Sshd",
            "OS::TripleO::Services::Ntp"
        ])
    );
    // deep_merge: lists replaced when the old one is empty, maps recursed, scalars replaced.
    assert_eq!(
        defaults["ExtraConfig"],
        json!({
            "nova::compute::force_raw_images": false,
            "ntp::servers": ["0.pool.ntp.org"],
            "swift::proxy::workers": 4,
            "ssh::server::options": {"PermitRootLogin": "no", "Banner": "/etc/issue.net"}
        })
    );
    // resource_registry: one-level update, last file wins per key.
    assert_eq!(
        doc["resource_registry"]["OS::TripleO::Services::Sshd"],
        "deployment/sshd/sshd-baremetal-puppet.yaml"
    );
    // -P values are the lowest layer: the files never set these, so they stay (as strings).
    assert_eq!(
        doc["parameters"],
        json!({"CloudName": "cli.example.com", "EnablePackageInstall": "true"})
    );
    assert_eq!(
        doc.as_object()
            .map(|m| m.keys().cloned().collect::<Vec<_>>()),
        Some(
            [
                "parameters",
                "resource_registry",
                "parameter_defaults",
                "encrypted_param_names",
                "event_sinks"
            ]
            .map(String::from)
            .to_vec()
        )
    );
}

#[test]
fn tripleo_explain_names_strategy_and_the_line_that_set_it() {
    let mut args = vec!["--explain"];
    args.extend_from_slice(TRIPLEO);
    let run = heat(&args);
    insta::assert_snapshot!("tripleo_explain", run.ok());
    let mut args = vec!["--explain", "--output", "json"];
    args.extend_from_slice(TRIPLEO);
    let doc = heat(&args).json();
    let entries = doc["explain"].as_array().cloned().unwrap_or_default();
    let entry = |path: &str| {
        entries
            .iter()
            .find(|e| e["path"] == path)
            .cloned()
            .unwrap_or_else(|| panic!("no entry for {path}"))
    };
    let swift = entry("/parameter_defaults/ControllerServices/2");
    assert_eq!(swift["outcome"], "appended");
    assert_eq!(swift["rule"]["text"], "merge");
    assert_eq!(swift["rule"]["file"], "heat/tripleo/roles-default.yaml");
    assert_eq!(swift["rule"]["line"], 8);
    assert_eq!(
        swift["source"]["file"],
        "heat/tripleo/environments/enable-swift.yaml"
    );
    let keystone = entry("/parameter_defaults/ControllerServices/0");
    assert_eq!(keystone["outcome"], "added");
    let count = entry("/parameter_defaults/ControllerCount");
    assert_eq!(count["outcome"], "replaced");
    assert_eq!(count["rule"]["default"], "Heat default: overwrite");
    assert_eq!(count["overrode"][0]["value"], 1);
    let sshd = entry("/resource_registry/OS::TripleO::Services::Sshd");
    assert_eq!(sshd["overrode"][0]["value"], "OS::Heat::None");
}

#[test]
fn explain_lists_both_halves_of_a_concatenated_string() {
    let doc = heat(&[
        "--explain",
        "--output",
        "json",
        "--template",
        "heat/first-appearance/template.yaml",
        "-e",
        "heat/first-appearance/env-1.yaml",
        "-e",
        "heat/first-appearance/env-2.yaml",
    ])
    .json();
    let entries = doc["explain"].as_array().cloned().unwrap_or_default();
    let greeting = entries
        .iter()
        .find(|e| e["path"] == "/parameters/Greeting")
        .expect("entry");
    assert_eq!(greeting["outcome"], "concatenated");
    assert_eq!(greeting["joined"][0]["value"], "Hello");
    assert_eq!(greeting["joined"][1]["value"], ", world");
    assert_eq!(
        greeting["source"]["file"],
        "heat/first-appearance/env-1.yaml"
    );
}

#[test]
fn each_type_merges_its_own_way() {
    let args = [
        "--template",
        "heat/types/template.yaml",
        "-e",
        "heat/types/env-1.yaml",
        "-e",
        "heat/types/env-2.yaml",
    ];
    let p = heat_json(&args)["parameters"].clone();
    assert_eq!(p["Name"], "web-prod", "String: concatenated, no separator");
    assert_eq!(p["Hosts"], "a.example.com,b.example.com,c.example.com");
    assert_eq!(p["Services"], json!(["api", "worker", "cron"]));
    assert_eq!(
        p["Shallow"],
        json!({"limits": {"memory": 1024}, "region": "one", "zone": "z1"}),
        "merge on Json: one-level update, null skipped"
    );
    assert_eq!(
        p["Deep"],
        json!({
            "limits": {"cpu": 1, "memory": 1024},
            "tags": ["blue", "green"],
            "motd": "Hello, world",
            "retries": 0,
            "empty": "filled"
        }),
        "deep_merge: recursive; strings concatenate; 0 overrides; null skipped"
    );
    assert_eq!(p["Count"], 0);
    assert_eq!(p["Debug"], true);
    insta::assert_snapshot!("types", shown(&heat(&args)));
}

#[test]
fn strategy_is_fixed_where_a_parameter_first_appears() {
    let doc = heat_json(&[
        "--template",
        "heat/first-appearance/template.yaml",
        "-e",
        "heat/first-appearance/env-1.yaml",
        "-e",
        "heat/first-appearance/env-2.yaml",
        "-e",
        "heat/first-appearance/env-3.yaml",
    ]);
    // Greeting: merge (env-1's default) despite env-2's default; Owner: env-2's overwrite.
    assert_eq!(
        doc["parameters"],
        json!({"Greeting": "Hello, world!", "Owner": "bob"})
    );
}

#[test]
fn parameters_and_parameter_defaults_share_one_strategy_table() {
    let doc = heat_json(&[
        "--template",
        "heat/shared-registry/template.yaml",
        "-e",
        "heat/shared-registry/env-1.yaml",
        "-e",
        "heat/shared-registry/env-2.yaml",
        "-e",
        "heat/shared-registry/env-3.yaml",
    ]);
    assert_eq!(doc["parameters"]["Motd"], "from parameters; ");
    assert_eq!(
        doc["parameter_defaults"]["Motd"],
        "defaults one; defaults two"
    );
}

#[test]
fn unknown_strategy_name_falls_back_to_the_file_default() {
    let args = [
        "--template",
        "heat/unknown-strategy/template.yaml",
        "-e",
        "heat/unknown-strategy/env-1.yaml",
        "-e",
        "heat/unknown-strategy/env-2.yaml",
    ];
    let run = heat(&args);
    insta::assert_snapshot!("unknown_strategy", shown(&run));
    let doc = heat_json(&args);
    assert_eq!(
        doc["parameter_defaults"]["Services"],
        json!(["api", "worker"])
    );
    // --strict makes the warning an error.
    let mut strict = vec!["--strict"];
    strict.extend_from_slice(&args);
    let err = heat(&strict).fails(1).to_string();
    assert!(
        err.contains("heat/unknown-strategy/env-1.yaml:3:13"),
        "{err}"
    );
}

#[test]
fn conflicting_strategies_name_the_file_and_the_first_strategy() {
    let run = heat(&[
        "--template",
        "heat/conflict/template.yaml",
        "-e",
        "heat/conflict/env-1.yaml",
        "-e",
        "heat/conflict/env-2.yaml",
        "-e",
        "heat/conflict/env-3.yaml",
    ]);
    let err = run.fails(1);
    assert!(err.contains("Conflicting merge strategy 'overwrite' for parameter 'ControllerServices' in file 'heat/conflict/env-3.yaml'."), "{err}");
    assert!(err.contains("--> heat/conflict/env-3.yaml:2:23"), "{err}");
    assert!(
        err.contains("set at heat/conflict/env-1.yaml:2:23"),
        "{err}"
    );
    assert!(run.stdout.is_empty());
    insta::assert_snapshot!("conflict", err);
    let run = heat(&[
        "--template",
        "heat/conflict/template.yaml",
        "-e",
        "heat/conflict/env-1.yaml",
        "-e",
        "heat/conflict/implicit.yaml",
    ]);
    insta::assert_snapshot!("conflict_implicit", run.fails(1));
}

#[test]
fn number_and_boolean_parameters_cannot_merge() {
    let number = heat(&[
        "--template",
        "heat/invalid-type/template.yaml",
        "-e",
        "heat/invalid-type/number-1.yaml",
        "-e",
        "heat/invalid-type/number-2.yaml",
    ]);
    let boolean = heat(&[
        "--template",
        "heat/invalid-type/template.yaml",
        "-e",
        "heat/invalid-type/boolean-1.yaml",
        "-e",
        "heat/invalid-type/boolean-2.yaml",
    ]);
    let text = format!("{}\n{}", number.fails(1), boolean.fails(1));
    assert!(
        text.contains("Invalid parameter in environment ."),
        "{text}"
    );
    assert!(
        text.contains("Invalid merge strategy 'merge' for parameter 'Debug'."),
        "{text}"
    );
    insta::assert_snapshot!("invalid_type", text);
}

#[test]
fn malformed_environments_are_errors_with_positions() {
    let mut text = String::new();
    for file in [
        "wrong-section.yaml",
        "list.yaml",
        "empty-section.yaml",
        "strategies-list.yaml",
    ] {
        let path = format!("heat/sections/{file}");
        let run = heat(&["--template", "heat/sections/template.yaml", "-e", &path]);
        text.push_str(run.fails(1));
    }
    assert!(text.contains("environment has wrong section \"resource_registy\""));
    assert!(text.contains("did you mean 'resource_registry'?"));
    assert!(text.contains("The environment is not a valid YAML mapping data type."));
    assert!(text.contains("environment has empty section \"parameter_defaults\""));
    insta::assert_snapshot!("sections", text);
}

#[test]
fn other_sections_are_updated_one_level_deep() {
    let doc = heat_json(&[
        "--template",
        "heat/sections/template.yaml",
        "-e",
        "heat/sections/registry-1.yaml",
        "-e",
        "heat/sections/comments-only.yaml",
        "-e",
        "heat/sections/registry-2.yaml",
    ]);
    assert_eq!(
        doc["resource_registry"],
        json!({
            "OS::Net": "net-v2.yaml",
            "OS::Old": "old.yaml",
            "resources": {"server2": {"OS::Port": "port2.yaml"}}
        }),
        "nested resources replaced, null skipped"
    );
    assert_eq!(doc["encrypted_param_names"], json!(["DbPassword"]));
    assert_eq!(
        doc["event_sinks"],
        json!([{"type": "zaqar-queue", "target": "heat-events"}])
    );
}

#[test]
fn heat_crash_cases_are_clear_errors() {
    let runs = [
        ["heat/crash/sinks-1.yaml", "heat/crash/sinks-2.yaml"],
        ["heat/crash/hosts-string.yaml", "heat/crash/hosts-list.yaml"],
        [
            "heat/crash/config-string.yaml",
            "heat/crash/config-map.yaml",
        ],
        [
            "heat/crash/config-string.yaml",
            "heat/crash/config-bad-json.yaml",
        ],
    ];
    let mut text = String::new();
    for [a, b] in runs {
        let run = heat(&["--template", "heat/crash/template.yaml", "-e", a, "-e", b]);
        text.push_str(run.fails(1));
    }
    assert!(text
        .contains("Heat crashes here with AttributeError: 'str' object has no attribute 'extend'"));
    insta::assert_snapshot!("crash", text);
}

#[test]
fn a_json_string_in_a_later_file_is_parsed_and_merged() {
    let doc = heat_json(&[
        "--template",
        "heat/crash/template.yaml",
        "-e",
        "heat/crash/config-map-first.yaml",
        "-e",
        "heat/crash/config-string.yaml",
    ]);
    assert_eq!(
        doc["parameter_defaults"]["Config"],
        json!({"nova": {"workers": 4, "debug": true}})
    );
}

#[test]
fn without_a_template_types_are_inferred_and_said_once() {
    let run = heat(&[
        "-e",
        "heat/inferred/env-1.yaml",
        "-e",
        "heat/inferred/env-2.yaml",
    ]);
    run.ok();
    assert_eq!(
        run.stderr.matches("no --template").count(),
        1,
        "{}",
        run.stderr
    );
    insta::assert_snapshot!("inferred", shown(&run));
}

#[test]
fn blueprint_merge_strategy_is_translated_with_a_warning() {
    let run = heat(&[
        "--template",
        "heat/seed/template.yaml",
        "-e",
        "heat/seed/one.yaml",
        "-e",
        "heat/seed/two.yaml",
    ]);
    run.ok();
    assert_eq!(
        run.stderr.matches("Heat never shipped").count(),
        2,
        "{}",
        run.stderr
    );
    insta::assert_snapshot!("seed", shown(&run));
    let bad = heat(&[
        "--template",
        "heat/seed/template.yaml",
        "-e",
        "heat/seed/bad-value.yaml",
    ]);
    insta::assert_snapshot!("seed_bad_value", bad.fails(1));
}

#[test]
fn command_line_parameters_have_the_lowest_precedence() {
    let base = ["--template", "heat/cli-params/template.yaml"];
    let env = ["-e", "heat/cli-params/env.yaml"];
    let with = |params: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(params);
        args.extend_from_slice(&env);
        heat(&args)
    };
    let run = with(&[
        "-P",
        "KeyName=ops",
        "-P",
        "Flavor=m1.small",
        "-P",
        "Networks=public",
    ]);
    insta::assert_snapshot!("cli_params", shown(&run));
    // A single -P is split at ';', as the heat client does.
    let run = with(&["--output", "json", "-P", "KeyName=ops;Image=cirros"]);
    let doc = run.json();
    assert_eq!(doc["parameters"]["Image"], "cirros");
    assert_eq!(doc["parameters"]["KeyName"], "ops");
    let run = with(&["-P", "KeyName=ops;cirros"]);
    assert!(run.fails(2).contains("Malformed parameter(cirros)."));
    // A name given twice becomes a list: merging the file's string into it fails in Heat.
    let run = with(&["-P", "Networks=a", "-P", "Networks=b"]);
    let err = run.fails(1);
    assert!(err.contains("(from <command line>:1:13)"), "{err}");
}

#[test]
fn nulls_and_undeclared_names() {
    let run = heat(&[
        "--template",
        "heat/nulls/template.yaml",
        "-e",
        "heat/nulls/env-1.yaml",
        "-e",
        "heat/nulls/env-2.yaml",
    ]);
    run.ok();
    insta::assert_snapshot!("nulls", shown(&run));
}

#[test]
fn empty_environment_files_are_accepted() {
    let doc = heat_json(&["-e", "heat/sections/comments-only.yaml"]);
    assert_eq!(
        doc,
        json!({
            "parameters": {},
            "resource_registry": {},
            "parameter_defaults": {},
            "encrypted_param_names": [],
            "event_sinks": []
        })
    );
}

/// Issue 16: a parameter_defaults entry next to a value in parameters (here from -P): the
/// explanation says the stack uses the parameter, on the default's line (YAML and JSON), and
/// nothing is said on stderr (it is not a warning: --strict passes).
#[test]
fn explain_says_parameters_win_over_parameter_defaults() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("env.yaml"),
        "parameter_defaults:\n  Name: 5\n  Only: 1\n",
    )
    .expect("write");
    let run = |extra: &[&str]| {
        let mut args = vec!["heat", "--strict", "--template", "t.yaml", "-P", "Name=9"];
        args.extend(extra);
        args.extend(["-e", "env.yaml"]);
        crate::util::command()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .expect("run")
    };
    std::fs::write(
        dir.path().join("t.yaml"),
        "parameters:\n  Name: {type: string}\n  Only: {type: number}\n",
    )
    .expect("write");
    let out = run(&["--explain"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("Name: 5"))
        .expect("default line");
    assert!(
        line.contains("; note: the stack uses parameters: Name at <command line>:1:9"),
        "{text}"
    );
    let only = text
        .lines()
        .find(|l| l.trim_start().starts_with("Only: 1"))
        .expect("Only");
    assert!(!only.contains("note:"), "{text}");
    let out = run(&["--explain", "--output", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let entry = doc["explain"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["path"] == "/parameter_defaults/Name"))
        .expect("entry");
    assert!(
        entry["notes"][0]
            .as_str()
            .is_some_and(|n| n.starts_with("note: env.yaml:2:9: the stack uses parameters: Name")),
        "{entry:#}"
    );
}

/// Issue 36: Heat merges zero environment files (recorded case `no-environment-files`), so a
/// template and `-P` without `-e` render; with nothing at all the command line is wrong.
#[test]
fn no_environment_file_renders_the_template_and_cli_parameters() {
    let run = strata(&[
        "heat",
        "--template",
        "heat/cli-params/template.yaml",
        "-P",
        "key_name=mykey",
    ]);
    let out = run.ok();
    assert!(out.contains("key_name: mykey"), "{out}");
    // The template declares KeyName, not key_name: Heat would refuse the stack.
    assert!(
        run.stderr
            .contains("-P key_name: the template declares no parameter"),
        "{}",
        run.stderr
    );
    assert!(out.contains("resource_registry: {}"), "{out}");
    // Nothing at all, and no pipe or file on stdin to read as the environment instead.
    let none = crate::util::command()
        .arg("heat")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run");
    assert_eq!(none.status.code(), Some(2));
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(
        err.contains("needs environment files (-e), a template"),
        "{err}"
    );
}
