//! The writer's promise on the YAML test suite (issue 35): every case PyYAML accepts is
//! rendered by the `strata merge` binary as a user runs it — keeping the case's comments and
//! spellings (the default), with `--no-comments`, and with `--explain` — and each output must
//! read back, with strata's loader, as the data the case holds (a case of one document: its
//! value; a case of several, which `merge` folds into one: what the `--no-comments` output
//! holds). The outputs go to `target/yaml-test-suite/rendered-merge*/`, where
//! `scripts/yaml-suite.py --readback` (run by CI after the tests) reads them with PyYAML too.

use crate::yaml_suite::{canonical, short, strata_load};
use serde_json::Value;
use std::path::PathBuf;

/// The modes, each with the folder its outputs go to.
const MODES: [(&str, &[&str]); 3] = [
    ("rendered-merge", &[]),
    ("rendered-merge-no-comments", &["--no-comments"]),
    ("rendered-merge-explain", &["--explain"]),
];

#[test]
fn yaml_suite_merge_output_reads_back() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/yaml-test-suite");
    let Ok(text) = std::fs::read_to_string(dir.join("pyyaml.json")) else {
        eprintln!("conformance: skipped yaml-test-suite merge readback: no recording");
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("pyyaml.json is JSON");
    for (folder, _) in MODES {
        let _ = std::fs::remove_dir_all(dir.join(folder));
        std::fs::create_dir_all(dir.join(folder)).expect("create rendered folder");
    }
    let (mut checked, mut refused) = (0, 0);
    let mut bad: Vec<String> = Vec::new();
    for case in doc["cases"].as_array().expect("cases") {
        let Some(docs) = case["pyyaml"]["value"].as_array() else {
            continue;
        };
        let id = case["id"].as_str().expect("id");
        let input = dir.join("cases").join(id).join("in.yaml");
        let file = format!("{}.yaml", id.replace('/', "-"));
        let mut outputs = Vec::new();
        for (folder, flags) in MODES {
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("strata"))
                .arg("merge")
                .args(flags)
                .arg(&input)
                .output()
                .expect("run strata");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !stderr.contains("panicked"),
                "{id}: strata merge panicked: {stderr}"
            );
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            if out.status.success() {
                std::fs::write(dir.join(folder).join(&file), &text).expect("write output");
            }
            outputs.push((folder, out.status.code(), text));
        }
        // A case strata refuses to merge (a root that is not a mapping in a later document,
        // an empty stream): refused alike in every mode.
        let codes: Vec<_> = outputs.iter().map(|o| o.1).collect();
        if codes.iter().any(|c| *c != Some(0)) {
            refused += 1;
            if codes.iter().any(|c| *c != codes[0]) {
                bad.push(format!(
                    "  {id}: exit codes {codes:?} differ between the modes"
                ));
            }
            continue;
        }
        checked += 1;
        let expected = match docs.as_slice() {
            [one] => Ok(Value::Array(vec![one.clone()])),
            _ => strata_load(&outputs[1].2).map(|(v, _)| v),
        };
        let Ok(mut expected) = expected else {
            bad.push(format!("  {id}: the --no-comments output does not load"));
            continue;
        };
        canonical(&mut expected);
        for (folder, _, text) in &outputs {
            match strata_load(text) {
                Ok((mut got, _)) => {
                    canonical(&mut got);
                    if got != expected {
                        bad.push(format!(
                            "  {id} ({folder}): reads back as {}; rendered {}",
                            short(&got),
                            short(&expected)
                        ));
                    }
                }
                Err(e) => bad.push(format!("  {id} ({folder}): does not load: {e}")),
            }
        }
    }
    println!(
        "conformance: yaml-test-suite merge readback: {checked} cases rendered by `strata merge` \
         in 3 modes and read back unchanged ({refused} refused by merge in every mode)"
    );
    assert!(
        bad.is_empty(),
        "{} merge outputs do not read back as rendered:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
