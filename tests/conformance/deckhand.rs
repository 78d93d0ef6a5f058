//! Deckhand conformance (`../shared/conformance/deckhand`): 125 renders recorded by running
//! Deckhand's own `DocumentLayering.render()`. Each case's `input.yaml` goes through
//! `strata deckhand --output json` (flags from `options.yaml`: `validate: true` →
//! `--validate`, `fail_on_missing_sub_src: false` → `--allow-missing-substitution-source`).
//! An `expected.yaml` must equal the output document by document, **in order**, compared as
//! JSON with types kept apart (`1`, `1.0` and `true` differ). An `expected-error.txt` must
//! fail with exit 1 and Deckhand's exception class at the start of the message.

use super::{strata, suite};
use serde_json::Value;
use std::path::Path;

/// A YAML stream as JSON values (empty documents dropped), read with strata's own loader.
fn yaml_stream(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("read expected.yaml");
    let mut warnings = Vec::new();
    let docs = strata::load::yaml::load_stream(&text, 0, &Default::default(), &mut warnings)
        .expect("expected.yaml parses");
    docs.into_iter()
        .filter(|d| !d.is_null())
        .map(|d| {
            let json = strata::render::json::to_compact(&d).expect("JSON form");
            serde_json::from_str(&json).expect("valid JSON")
        })
        .collect()
}

fn name_of(doc: &Value) -> String {
    format!(
        "[{}] {}",
        doc["schema"].as_str().unwrap_or("?"),
        doc["metadata"]["name"].as_str().unwrap_or("?")
    )
}

/// Runs one case; `Err` says how it differs.
fn run_case(dir: &Path) -> Result<(), String> {
    let mut args: Vec<String> = vec!["deckhand".into(), "--output".into(), "json".into()];
    let options = std::fs::read_to_string(dir.join("options.yaml")).unwrap_or_default();
    if options.contains("validate: true") {
        args.push("--validate".into());
    }
    if options.contains("fail_on_missing_sub_src: false") {
        args.push("--allow-missing-substitution-source".into());
    }
    args.push(dir.join("input.yaml").display().to_string());
    let (code, out, err) = strata(&args);
    if err.contains("panicked") {
        return Err(format!("panic: {err}"));
    }
    if let Ok(expected) = std::fs::read_to_string(dir.join("expected-error.txt")) {
        let class = expected.lines().next().unwrap_or("").trim();
        if code != 1 {
            return Err(format!("expected {class}, got exit {code}:\n{out}{err}"));
        }
        if !err.starts_with(&format!("error: {class}: ")) {
            return Err(format!("expected error class {class}, got:\n{err}"));
        }
        return Ok(());
    }
    if code != 0 {
        return Err(format!("exit {code}:\n{err}"));
    }
    let got: Vec<Value> = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
    let want = yaml_stream(&dir.join("expected.yaml"));
    if got.len() != want.len() {
        let g: Vec<String> = got.iter().map(name_of).collect();
        let w: Vec<String> = want.iter().map(name_of).collect();
        return Err(format!(
            "{} documents, want {}:\n  got  {g:?}\n  want {w:?}",
            got.len(),
            want.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if g != w {
            return Err(format!(
                "document {i} differs:\n  got  {}\n  want {}",
                serde_json::to_string(g).unwrap_or_default(),
                serde_json::to_string(w).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

#[test]
fn deckhand_cases() {
    let Some(dir) = suite("deckhand") else {
        return;
    };
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("cases"))
        .expect("read cases")
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
    println!(
        "conformance: deckhand {} of {total}",
        total - failures.len()
    );
    assert_eq!(total, 125, "expected 125 cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Deckhand's own exception classes (a case whose oracle raised anything else recorded a raw
/// Python exception: strata must fail with exit 1, under any class).
const DECKHAND_CLASSES: &[&str] = &[
    "LayeringPolicyNotFound",
    "InvalidDocumentLayer",
    "InvalidDocumentParent",
    "IndeterminateDocumentParent",
    "InvalidDocumentReplacement",
    "SubstitutionDependencyCycle",
    "MissingDocumentKey",
    "UnsupportedActionMethod",
    "SubstitutionSourceNotFound",
    "SubstitutionSourceDataNotFound",
    "UnknownSubstitutionError",
    "InvalidDocumentFormat",
    "EncryptionSourceNotFound",
];

/// strata's own recordings of Deckhand (`fixtures/deckhand/recorded`, README there):
/// jsonpath-ng paths in substitutions and layering actions. `expected.json` is the oracle's
/// answer: the documents in order, or the exception.
#[test]
fn own_recorded_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/deckhand/recorded");
    let cases = crate::case_dirs(&root);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(case.join("expected.json")).expect("expected.json");
        let want: Value = serde_json::from_str(&text).expect("JSON");
        let args: Vec<String> = vec![
            "deckhand".into(),
            "--output".into(),
            "json".into(),
            case.join("input.yaml").display().to_string(),
        ];
        let (code, out, err) = strata(&args);
        let verdict = if want["ok"] == Value::Bool(true) {
            match serde_json::from_str::<Value>(&out) {
                Ok(got) if code == 0 && got == want["documents"] => Ok(()),
                Ok(got) if code == 0 => Err(format!(
                    "documents differ:\n  got  {got}\n  want {}",
                    want["documents"]
                )),
                _ => Err(format!("exit {code}: {err}")),
            }
        } else {
            let class = want["error"]["class"].as_str().unwrap_or("?");
            if code != 1 || !err.starts_with("error: ") {
                Err(format!(
                    "Deckhand raises {class}; strata exit {code}: {err}"
                ))
            } else if DECKHAND_CLASSES.contains(&class)
                && !err.starts_with(&format!("error: {class}: "))
            {
                Err(format!("Deckhand raises {class}; strata: {err}"))
            } else {
                Ok(())
            }
        };
        if let Err(why) = verdict {
            failures.push(format!("{name}: {why}"));
        }
    }
    println!(
        "conformance: deckhand own recordings {} of {}",
        cases.len() - failures.len(),
        cases.len()
    );
    assert_eq!(cases.len(), 13, "expected 13 recorded cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
