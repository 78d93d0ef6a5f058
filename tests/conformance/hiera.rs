//! Hiera 5 conformance (`../shared/conformance/hiera`): 30 cases recorded with `puppet lookup`
//! (Puppet 7.23). Each case runs `strata lookup --hiera CASE/hiera.yaml --facts
//! CASE/facts.yaml [MERGE FLAGS] KEY --output json`, the flags from `lookup.yml`'s `merge` as
//! the recording script passed them. `expected.json` must equal the output as a JSON value and
//! in key order (Ruby's insertion order, which strata promises); `expected-error.txt` means
//! exit 1 with a message of the recorded class (`not-found`: "did not find a value";
//! `merge-type-error`: "has wrong type").
//!
//! strata's own recorded cases, `fixtures/hiera/puppet` (Puppet reading YAML with Psych,
//! issue 37; its README says how they were recorded), run the same way; an error must carry
//! Puppet's words (`puppet_words`).

use super::{strata, suite};
use serde_json::Value;
use std::path::{Path, PathBuf};

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
    run_recorded(dir, |class, _| match class {
        "not-found" => Some("did not find a value".into()),
        "merge-type-error" => Some("has wrong type".into()),
        _ => None,
    })
}

/// Runs a recorded case; `needle` gives, from the recorded error class and message, what
/// strata's message must contain (`None`: the class is not known).
fn run_recorded(dir: &Path, needle: impl Fn(&str, &str) -> Option<String>) -> Result<(), String> {
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
    let mut lines = recorded.lines();
    let class = lines.next().unwrap_or_default();
    let message = lines.next().unwrap_or_default();
    let Some(needle) = needle(class, message) else {
        return Err(format!("unknown error class {class}"));
    };
    if code != 1 || !err.contains(&needle) || err.contains("panicked") {
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
    let cases = case_dirs(&dir.join("cases"));
    let (same, failures) = explain_levels(&cases, &REPORT_DIFFERS);
    println!(
        "conformance: hiera --explain-levels {same} of {} as puppet lookup --explain ({} differ on purpose)",
        cases.len(),
        REPORT_DIFFERS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(same + REPORT_DIFFERS.len(), cases.len());
}

fn case_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(dir)
        .expect("cases/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

/// Runs `--explain-levels` on each case: how many give Puppet's report, and what differs
/// (cases in `differ` are not compared). A lookup that failed in Puppet (its report is an
/// `Error:` line, or ends in the error it recorded) must fail in strata too, with an empty
/// report.
fn explain_levels(cases: &[PathBuf], differ: &[&str]) -> (usize, Vec<String>) {
    let (mut same, mut failures) = (0, Vec::new());
    for case in cases {
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
        let error = std::fs::read_to_string(case.join("expected-error.txt")).unwrap_or_default();
        let message = error
            .lines()
            .nth(1)
            .filter(|m| !m.starts_with("Function lookup()"));
        let failed =
            want.starts_with("Error: ") || message.is_some() && want.lines().last() == message;
        let matches = if failed {
            out.status.code() == Some(1) && got.is_empty()
        } else {
            got == want
        };
        if matches {
            same += 1;
        } else if !differ.contains(&name.as_str()) {
            failures.push(format!(
                "{name}:\n--- strata\n{got}--- puppet lookup --explain\n{want}"
            ));
        }
    }
    (same, failures)
}

/// strata's own cases recorded from `puppet lookup` (`fixtures/hiera/puppet`).
fn psych_cases() -> Vec<PathBuf> {
    case_dirs(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/hiera/puppet/cases"))
}

/// The cases of `fixtures/hiera/puppet` where strata answers otherwise on purpose (its
/// README says why).
const PSYCH_DIFFERS: [&str; 1] = ["binary-not-utf8"];

/// Puppet's wording where strata words the same failure otherwise, as (Puppet's, strata's).
const WORDING: [(&str, &str); 7] = [
    // Puppet's JSON renderer; strata's JSON writer.
    ("NaN not allowed in JSON", "NaN has no JSON form"),
    ("-Infinity not allowed in JSON", "-inf has no JSON form"),
    // libyaml's syntax errors; strata keeps PyYAML's.
    ("did not find expected node content", "invalid YAML"),
    (
        "did not find expected whitespace or line break",
        "invalid YAML",
    ),
    // Puppet's type check of a `unique` merge's values names the first variant it tried.
    ("variant 0 expects a Scalar value", "expects a Data value"),
    // Puppet's type check of hiera.yaml; strata's reading of it.
    (
        "expects a String value, got Boolean",
        "must be a non-empty string, not a boolean",
    ),
    (
        "expects a String value, got Integer",
        "must be a non-empty string, not an integer",
    ),
];

/// What strata's message must hold of Puppet's `message` for the case in `dir`: the message
/// without the `Lookup of key 'x' failed:` and `Unable to parse (file):` frames, its paths
/// made the case's (strata names files as given), after `has wrong type, ` only what follows
/// (strata names the file its own way), and Puppet's inferred types (`got Hash[...]`) left
/// out, since strata names the key or value at fault instead.
fn puppet_words(dir: &Path, message: &str) -> String {
    let mut m = message.to_string();
    if let Some(rest) = m.strip_prefix("Lookup of key '") {
        if let Some((_, after)) = rest.split_once("' failed: ") {
            m = after.to_string();
        }
    }
    if let Some(rest) = m.strip_prefix("Unable to parse ") {
        m = rest.to_string();
    }
    if m.starts_with('(') {
        if let Some((_, after)) = m.split_once("): ") {
            m = after.to_string();
        }
    }
    for (puppet, ours) in WORDING {
        if m.contains(puppet) {
            return ours.to_string();
        }
    }
    if let Some((_, after)) = m.split_once("has wrong type, ") {
        m = after.to_string();
        if let Some((head, got)) = m.split_once("got ") {
            if got != "Runtime[ruby, 'Symbol']" {
                m = format!("{head}got ");
            }
        }
    }
    for rel in ["data/common.yaml", "facts.yaml", "hiera.yaml"] {
        let path = dir.join(rel).display().to_string();
        m = m.replace(&format!("'{rel}'"), &format!("'{path}'"));
        m = m.replace(&format!(" {rel} "), &format!(" {path} "));
    }
    m
}

#[test]
fn hiera_psych_cases() {
    let cases = psych_cases();
    let (mut agree, mut failures, mut differ) = (0, Vec::new(), Vec::new());
    for case in &cases {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let result = run_recorded(case, |class, message| match class {
            "not-found" | "merge-type-error" | "data-type-error" | "yaml-parse-error"
            | "lookup-error" => Some(puppet_words(case, message)),
            _ => None,
        });
        match (result, PSYCH_DIFFERS.contains(&name.as_str())) {
            (Ok(()), false) => agree += 1,
            (Err(why), false) => failures.push(format!("{name}: {why}")),
            (Ok(()), true) => {
                failures.push(format!("{name}: agrees now: take it off PSYCH_DIFFERS"))
            }
            (Err(_), true) => differ.push(name),
        }
    }
    println!(
        "conformance: hiera (Psych) {agree} of {} as recorded from puppet lookup ({} differ on purpose)",
        cases.len(),
        differ.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(agree + PSYCH_DIFFERS.len(), cases.len());
    assert!(cases.len() >= 80, "the recorded cases are missing");
}

/// Where strata's report differs from Puppet's in `fixtures/hiera/puppet` on purpose: Ruby
/// shows a `!!binary` string by its bytes (`"\xC3\xA9"`), strata by its text; and Puppet
/// parses a `convert_to: [Array, ...]` type in place, so its report of the lookup_options
/// shows the type object by its address in memory.
const PSYCH_REPORT_DIFFERS: [&str; 7] = [
    "binary-not-utf8",
    "binary-utf8",
    "convert-array-nowrap-hash",
    "convert-array-wrap-hash",
    "convert-array-wrap-list",
    "convert-array-wrap-null",
    "convert-array-wrap-string",
];

#[test]
fn hiera_psych_explain_levels_match_puppet_lookup_explain() {
    let cases: Vec<_> = psych_cases()
        .into_iter()
        .filter(|c| c.join("explain.txt").exists())
        .collect();
    let (same, failures) = explain_levels(&cases, &PSYCH_REPORT_DIFFERS);
    println!(
        "conformance: hiera (Psych) --explain-levels {same} of {} as puppet lookup --explain ({} differ on purpose)",
        cases.len(),
        PSYCH_REPORT_DIFFERS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(same + PSYCH_REPORT_DIFFERS.len(), cases.len());
}
