//! Heat conformance (`../shared/conformance/heat`): 35 cases recorded by running Heat's own
//! `merge_environments`. Each case runs through `strata heat`: a template built from
//! `schema.yaml`, `-P` values from `base.yaml`'s `parameters`, the `env-N.yaml` files in
//! numeric order. A `result` must equal strata's output section by section (sections the case
//! leaves out must be empty in strata's output: upstream's unit tests start from three
//! sections, the API from five). An `error` must fail with exit 1; for Heat's deliberate
//! errors (ConflictingMergeStrategyForParam, InvalidMergeStrategyForParam, ValueError) the
//! message must appear verbatim in stderr. Crashes of the upstream code (AttributeError,
//! TypeError) only need a clear error.

use super::{strata, suite};
use serde_json::Value;
use std::path::Path;

/// Reads a YAML file as JSON through `strata merge` (a plain YAML 1.1 load).
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

/// `env-N.yaml` files of a case, in numeric order.
fn env_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<(u32, String)> = std::fs::read_dir(dir)
        .expect("read case")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix("env-")?
                .strip_suffix(".yaml")?
                .parse()
                .ok()?;
            Some((n, dir.join(&name).display().to_string()))
        })
        .collect();
    files.sort();
    files.into_iter().map(|(_, f)| f).collect()
}

/// Runs one case; `Err` says how it differs.
fn run_case(dir: &Path, scratch: &Path) -> Result<(), String> {
    let schema = yaml_file(&dir.join("schema.yaml"));
    let mut params = serde_json::Map::new();
    if let Some(p) = schema.get("parameters").and_then(Value::as_object) {
        for (name, ty) in p {
            params.insert(name.clone(), serde_json::json!({ "type": ty }));
        }
    }
    let template = scratch.join("template.json");
    let text = serde_json::json!({"heat_template_version": "2021-04-16", "parameters": params});
    std::fs::write(&template, text.to_string()).map_err(|e| e.to_string())?;
    let mut args: Vec<String> = vec![
        "heat".into(),
        "--output".into(),
        "json".into(),
        "--template".into(),
        template.display().to_string(),
    ];
    let base = yaml_file(&dir.join("base.yaml"));
    if let Some(p) = base.get("parameters").and_then(Value::as_object) {
        for (name, v) in p {
            let v = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            args.push("-P".into());
            args.push(format!("{name}={v}"));
        }
    }
    // No environment file at all is a case of its own (Heat merges none): strata renders the
    // template's parameters and -P alone.
    let envs = env_files(dir);
    for f in envs {
        args.extend(["-e".into(), f]);
    }
    let (code, out, err) = strata(&args);
    let err = err.replace(&format!("{}/", dir.display()), "");
    if err.contains("panicked") {
        return Err(format!("panic: {err}"));
    }
    let expected = yaml_file(&dir.join("expected.yaml"));
    if let Some(want) = expected.get("error") {
        let kind = want.get("type").and_then(Value::as_str).unwrap_or("");
        let message = want.get("message").and_then(Value::as_str).unwrap_or("");
        if code != 1 {
            return Err(format!(
                "expected {kind} ({message}), got exit {code}:\n{out}{err}"
            ));
        }
        let deliberate = matches!(
            kind,
            "ConflictingMergeStrategyForParam" | "InvalidMergeStrategyForParam" | "ValueError"
        );
        if deliberate && !err.contains(message) {
            return Err(format!("expected message {message:?}, got:\n{err}"));
        }
        return Ok(());
    }
    if code != 0 {
        return Err(format!("exit {code}:\n{err}"));
    }
    let got: Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
    let want = expected.get("result").cloned().unwrap_or(Value::Null);
    let (Some(got), Some(want)) = (got.as_object(), want.as_object()) else {
        return Err(format!("not mappings: got {got}"));
    };
    for (section, value) in got {
        let wanted = want.get(section);
        let empty = value.as_object().is_some_and(|m| m.is_empty())
            || value.as_array().is_some_and(|a| a.is_empty());
        match wanted {
            Some(w) if w != value => return Err(format!("{section}: got {value}, want {w}")),
            None if !empty => return Err(format!("{section}: got {value}, want nothing")),
            _ => {}
        }
    }
    if let Some(missing) = want.keys().find(|k| !got.contains_key(*k)) {
        return Err(format!("section {missing} missing"));
    }
    Ok(())
}

#[test]
fn heat_cases() {
    let Some(dir) = suite("heat") else {
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
        let scratch = tempfile::tempdir().expect("temp dir");
        if let Err(why) = run_case(case, scratch.path()) {
            let name = case.file_name().unwrap_or_default().to_string_lossy();
            failures.push(format!("{name}: {why}"));
        }
    }
    println!(
        "heat conformance: {} of {total} cases match",
        total - failures.len()
    );
    assert_eq!(total, 35, "expected 35 cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
