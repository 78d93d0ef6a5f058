//! Hiera 5 conformance (`../shared/conformance/hiera`): 30 cases recorded with `puppet lookup`
//! (Puppet 7.23). Each case runs `strata lookup --hiera CASE/hiera.yaml --facts
//! CASE/facts.yaml [MERGE FLAGS] KEY --output json`, the flags from `lookup.yml`'s `merge` as
//! the recording script passed them. `expected.json` must equal the output as a JSON value and
//! in key order (Ruby's insertion order, which strata promises); `expected-error.txt` means
//! exit 1 with a message of the recorded class (`not-found`: "did not find a value";
//! `merge-type-error`: "has wrong type").

use super::{strata, suite};
use serde_json::Value;
use std::path::Path;

/// Reads a YAML file as JSON through `strata merge`.
fn yaml_file(path: &Path) -> Value {
    let (code, out, err) = strata(&[
        "merge".into(),
        "--output".into(),
        "json".into(),
        path.display().to_string(),
    ]);
    assert_eq!(code, 0, "cannot read {}: {err}", path.display());
    serde_json::from_str(&out).expect("strata merge writes JSON")
}

/// `lookup.yml`'s `merge` as `puppet lookup` flags.
fn merge_flags(merge: Option<&Value>) -> Vec<String> {
    match merge {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec!["--merge".into(), s.clone()],
        Some(m) => {
            let mut f = vec![
                "--merge".to_string(),
                m.get("strategy")
                    .and_then(Value::as_str)
                    .unwrap_or("deep")
                    .to_string(),
            ];
            if let Some(p) = m.get("knockout_prefix").and_then(Value::as_str) {
                f.push(format!("--knock-out-prefix={p}"));
            }
            if m.get("sort_merged_arrays") == Some(&Value::Bool(true)) {
                f.push("--sort-merged-arrays".into());
            }
            if m.get("merge_hash_arrays") == Some(&Value::Bool(true)) {
                f.push("--merge-hash-arrays".into());
            }
            f
        }
    }
}

fn run_case(dir: &Path) -> Result<(), String> {
    let spec = yaml_file(&dir.join("lookup.yml"));
    let key = match spec.get("key") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => return Err("lookup.yml has no key".into()),
    };
    let mut args: Vec<String> = vec![
        "lookup".into(),
        "--output".into(),
        "json".into(),
        "--hiera".into(),
        dir.join("hiera.yaml").display().to_string(),
        "--facts".into(),
        dir.join("facts.yaml").display().to_string(),
    ];
    args.extend(merge_flags(spec.get("merge")));
    args.push(key);
    let (code, out, err) = strata(&args);
    let expected = dir.join("expected.json");
    if expected.exists() {
        let text = std::fs::read_to_string(&expected).map_err(|e| e.to_string())?;
        let want: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let got: Value = serde_json::from_str(&out)
            .map_err(|_| format!("exit {code}, no JSON on stdout\n{err}"))?;
        if got != want {
            return Err(format!("got  {got}\nwant {want}\n{err}"));
        }
        if serde_json::to_string(&got).ok() != serde_json::to_string(&want).ok() {
            return Err(format!("key order differs:\ngot  {got}\nwant {want}"));
        }
        return Ok(());
    }
    let recorded = std::fs::read_to_string(dir.join("expected-error.txt"))
        .map_err(|e| format!("no expected file: {e}"))?;
    let class = recorded.lines().next().unwrap_or_default();
    let needle = match class {
        "not-found" => "did not find a value",
        "merge-type-error" => "has wrong type",
        other => return Err(format!("unknown error class {other}")),
    };
    if code != 1 || !err.contains(needle) || err.contains("panicked") {
        return Err(format!(
            "want exit 1 with '{needle}' ({class}), got exit {code}\n{out}{err}"
        ));
    }
    Ok(())
}

#[test]
fn hiera_cases() {
    let Some(dir) = suite("hiera") else {
        return;
    };
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("cases"))
        .expect("cases/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let total = cases.len();
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(why) = run_case(case) {
            let name = case.file_name().unwrap_or_default().to_string_lossy();
            failures.push(format!("{name}: {why}"));
        }
    }
    println!("conformance: hiera {} of {total}", total - failures.len());
    assert_eq!(total, 30, "expected 30 cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Where strata's `--explain-levels` report differs from the recorded `puppet lookup
/// --explain` on purpose: Puppet logs each level's value by reference, and the deep_merge gem
/// then deletes knockout items from that same Ruby array in place, so the report shows a
/// level's value without its `--x` items although the level holds them. strata reports the
/// value the level holds.
const REPORT_DIFFERS: [&str; 3] = [
    "cli-merge-replaces-lookup-options",
    "deep-knockout-array-items",
    "deep-knockout-hash-values-and-keys",
];

/// `--explain-levels` against the recorded `explain.txt`, run in the case folder so paths
/// read as Puppet printed them. A case whose lookup fails recorded Puppet's one error line:
/// strata must exit 1 with an empty report.
#[test]
fn hiera_explain_levels_match_puppet_lookup_explain() {
    let Some(dir) = suite("hiera") else { return };
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("cases"))
        .expect("cases/")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    let (mut same, mut failures) = (0, Vec::new());
    for case in &cases {
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let spec = yaml_file(&case.join("lookup.yml"));
        let key = match spec.get("key") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => continue,
        };
        let mut args: Vec<String> = vec![
            "lookup".into(),
            "--hiera".into(),
            "hiera.yaml".into(),
            "--facts".into(),
            "facts.yaml".into(),
            "--explain-levels".into(),
        ];
        args.extend(merge_flags(spec.get("merge")));
        args.push(key);
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("strata"))
            .args(&args)
            .current_dir(case)
            .env("STRATA_CACHE_DIR", crate::jobs::index_cache())
            .output()
            .expect("run strata");
        let got = String::from_utf8_lossy(&out.stdout).into_owned();
        let want = std::fs::read_to_string(case.join("explain.txt")).unwrap_or_default();
        let matches = if want.starts_with("Error: ") {
            out.status.code() == Some(1) && got.is_empty()
        } else {
            got == want
        };
        if matches {
            same += 1;
        } else if !REPORT_DIFFERS.contains(&name.as_str()) {
            failures.push(format!(
                "{name}:\n--- strata\n{got}--- puppet lookup --explain\n{want}"
            ));
        }
    }
    println!(
        "conformance: hiera --explain-levels {same} of {} as puppet lookup --explain ({} differ on purpose)",
        cases.len(),
        REPORT_DIFFERS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(same + REPORT_DIFFERS.len(), cases.len());
}
