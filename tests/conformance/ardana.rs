//! Ardana conformance (`../shared/conformance/ardana`): 10 real input models and the JSON the
//! Ardana service's `read_model` produced for each (keys sorted, `configFile`, `directory`
//! and `mtime` removed). `strata ardana read MODEL` must print the same JSON value. Two models
//! fail on purpose: `svc-invalid-yml` (cloudConfig.yml does not parse: the service fails too)
//! and `ci-multi-cp`, whose `data/neutron/neutron_config.yml` is not valid YAML — the service
//! skips that file, strata rejects it (DESIGN.md §1: a file that does not parse is an error);
//! the rest of that model is checked on a copy without the broken file. Every model that reads
//! is also written back (`ardana write` of its unchanged JSON, on a copy): no file may change.

use super::{strata, suite};
use serde_json::Value;
use std::path::Path;

fn read(dir: &Path) -> (i32, String, String) {
    strata(&["ardana".into(), "read".into(), dir.display().to_string()])
}

fn compare(name: &str, got: &str, want: &Value) -> Result<(), String> {
    let got: Value = serde_json::from_str(got).map_err(|e| format!("{name}: not JSON: {e}"))?;
    if &got == want {
        return Ok(());
    }
    let mut diffs = Vec::new();
    for (k, v) in want.as_object().into_iter().flatten() {
        if got.get(k) != Some(v) {
            diffs.push(format!("  {k}: want {v}\n  got {:?}", got.get(k)));
        }
    }
    Err(format!("{name} differs:\n{}", diffs.join("\n")))
}

/// Copies a directory tree (the model without its broken file).
fn copy_tree(from: &Path, to: &Path, skip: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        if path == skip {
            continue;
        }
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target, skip)?;
        } else {
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}

/// ci-multi-cp: strata names the broken file and line; without it, the rest agrees.
fn broken_file_case(model: &Path, want: &Value) -> Result<(), String> {
    let (code, _, err) = read(model);
    let broken = "data/neutron/neutron_config.yml:90:8";
    if code != 1 || !err.contains(broken) {
        return Err(format!(
            "ci-multi-cp: want exit 1 naming {broken}, got {code}: {err}"
        ));
    }
    let scratch = std::env::temp_dir().join(format!("strata-ardana-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let skip = model.join("data/neutron/neutron_config.yml");
    copy_tree(model, &scratch, &skip).map_err(|e| e.to_string())?;
    let (code, out, err) = read(&scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    if code != 0 {
        return Err(format!(
            "ci-multi-cp without the broken file: exit {code}: {err}"
        ));
    }
    // The service lists the skipped file in `files`; nothing else of it is in the model.
    let mut want = want.clone();
    if let Some(files) = want
        .pointer_mut("/fileInfo/files")
        .and_then(Value::as_array_mut)
    {
        files.retain(|f| f != "data/neutron/neutron_config.yml");
    }
    compare("ci-multi-cp (without the broken file)", &out, &want)
}

/// Every file below `dir` with its bytes, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, base, out);
            } else if let Ok(rel) = p.strip_prefix(base) {
                out.push((
                    rel.display().to_string(),
                    std::fs::read(&p).unwrap_or_default(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// `read` then `write` of the unchanged model on a copy: no file changes.
fn round_trip(name: &str, model: &Path) -> Result<(), String> {
    let scratch =
        std::env::temp_dir().join(format!("strata-ardana-rt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let copy = scratch.join("model");
    copy_tree(model, &copy, Path::new("")).map_err(|e| e.to_string())?;
    let (code, out, err) = read(&copy);
    if code != 0 {
        return Err(format!("{name}: read of the copy: exit {code}: {err}"));
    }
    let json = scratch.join("model.json");
    std::fs::write(&json, out).map_err(|e| e.to_string())?;
    let before = tree(&copy);
    let (code, out, err) = strata(&[
        "ardana".into(),
        "write".into(),
        json.display().to_string(),
        copy.display().to_string(),
    ]);
    let after = tree(&copy);
    let _ = std::fs::remove_dir_all(&scratch);
    if code != 0 || !out.starts_with("0 added, 0 changed, 0 deleted") || before != after {
        return Err(format!(
            "{name}: the round trip changed the model (exit {code}):\n{out}{err}"
        ));
    }
    Ok(())
}

#[test]
fn ardana_models() {
    let Some(dir) = suite("ardana") else { return };
    let mut names: Vec<_> = std::fs::read_dir(dir.join("models"))
        .expect("models/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in &names {
        let model = dir.join("models").join(name);
        let text = std::fs::read_to_string(dir.join("expected").join(format!("{name}.json")))
            .expect("expected JSON");
        let want: Value = serde_json::from_str(&text).expect("expected JSON parses");
        let result = if name == "ci-multi-cp" {
            broken_file_case(&model, &want)
        } else if want.get("error").is_some() {
            match read(&model) {
                (1, _, err) if err.contains("error:") && !err.contains("panicked") => Ok(()),
                (code, _, err) => Err(format!("{name}: want exit 1, got {code}: {err}")),
            }
        } else {
            match read(&model) {
                (0, out, _) => compare(name, &out, &want).and_then(|()| round_trip(name, &model)),
                (code, _, err) => Err(format!("{name}: exit {code}: {err}")),
            }
        };
        if let Err(e) = result {
            failures.push(e);
        }
    }
    println!(
        "conformance: ardana {} of {} (ci-multi-cp rejected by design, checked without its broken file; every readable model written back unchanged)",
        names.len() - failures.len(),
        names.len()
    );
    assert_eq!(names.len(), 10, "expected 10 models");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// strata's own recordings of the service (`fixtures/ardana/recorded`, README there): an
/// empty and a falsy cloudConfig.yml, links to directories (not followed) and to a file
/// (read), a link to nothing (the service crashes: strata exits 1 naming it), timestamps.
#[test]
fn own_recorded_models() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ardana/recorded");
    let cases = crate::case_dirs(&root);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        let text = std::fs::read_to_string(case.join("expected.json")).expect("expected.json");
        let want: Value = serde_json::from_str(&text).expect("JSON");
        let (code, out, err) = read(&case.join("model"));
        let verdict = match want.pointer("/error/type").and_then(Value::as_str) {
            Some(class) if code == 1 && err.contains(class) => Ok(()),
            Some(class) => Err(format!(
                "{name}: the service raises {class}; strata exit {code}: {err}"
            )),
            None if code == 0 => compare(&name, &out, &want),
            None => Err(format!("{name}: exit {code}: {err}")),
        };
        if let Err(why) = verdict {
            failures.push(why);
        }
    }
    println!(
        "conformance: ardana own recordings {} of {}",
        cases.len() - failures.len(),
        cases.len()
    );
    assert_eq!(cases.len(), 5, "expected 5 recorded models");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
