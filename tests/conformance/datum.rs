//! Datum conformance (`../shared/conformance/datum`): every case through `strata lookup
//! --layer` (the `rsop` cases without KEY), compared as typed JSON with `expected.yml`'s
//! `value`; then a `--datum` variant of every case taken from an upstream tree: the tree is
//! rebuilt in a temporary folder from `assets/` (plus the case's own layer files at their
//! upstream places, for translated files), with the case's node as NODE.yml.

use super::{strata, suite};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Loads a YAML file as JSON through `strata merge` (typed, YAML 1.1).
fn yaml(file: &Path) -> Value {
    let (code, out, err) = strata(&[
        "merge".into(),
        "--output".into(),
        "json".into(),
        file.display().to_string(),
    ]);
    assert_eq!(code, 0, "{}: {err}", file.display());
    serde_json::from_str(&out).expect("strata merge prints JSON")
}

fn layer_files(case: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case.join("layers"))
        .expect("layers/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
}

struct Outcome {
    ok: bool,
    report: String,
}

fn check(name: &str, args: Vec<String>, expected: &Value) -> Outcome {
    let (code, out, err) = strata(&args);
    let got: Option<Value> = serde_json::from_str(&out).ok();
    let mut ok = code == 0 && got.as_ref() == expected.get("value");
    if expected.get("warning").is_some() && !err.contains("warning:") {
        ok = false;
    }
    Outcome {
        ok,
        report: format!(
            "{name}: exit {code}\n  args: {}\n   got: {}\n  want: {}\n{err}",
            args.join(" "),
            got.map(|g| g.to_string()).unwrap_or_else(|| out.clone()),
            expected
                .get("value")
                .map(Value::to_string)
                .unwrap_or_default()
        ),
    }
}

fn is_rsop(case: &Value) -> bool {
    case.get("mode").and_then(Value::as_str) == Some("rsop")
}

fn base_args(expected: &Value, case: &Value) -> Vec<String> {
    let mut args = vec!["lookup".to_string(), "--output".into(), "json".into()];
    if !is_rsop(case) {
        let key = expected
            .get("lookup")
            .and_then(Value::as_str)
            .expect("lookup");
        args.push(key.to_string());
    }
    args
}

#[test]
fn datum_cases() {
    let Some(dir) = suite("datum") else {
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir.join("cases"))
        .expect("cases/")
        .map(|e| e.expect("entry").path())
        .collect();
    cases.sort();
    let (mut failures, mut datum_failures, mut datum_runs) = (Vec::new(), Vec::new(), 0);
    for case_dir in &cases {
        let name = case_dir.file_name().unwrap_or_default().to_string_lossy();
        let expected = yaml(&case_dir.join("expected.yml"));
        let case = yaml(&case_dir.join("case.yml"));
        let mut args = base_args(&expected, &case);
        args.push("--layer".into());
        args.extend(
            layer_files(case_dir)
                .iter()
                .map(|f| f.display().to_string()),
        );
        args.push("--options".into());
        args.push(case_dir.join("lookup_options.yml").display().to_string());
        let outcome = check(&name, args, &expected);
        if !outcome.ok {
            failures.push(outcome.report);
        }
        if let Some(outcome) = datum_variant(&dir, case_dir, &name, &case, &expected) {
            datum_runs += 1;
            if !outcome.ok {
                datum_failures.push(outcome.report);
            }
        }
    }
    println!(
        "datum conformance: {} of {} cases match",
        cases.len() - failures.len(),
        cases.len()
    );
    println!(
        "datum conformance (--datum trees): {} of {} cases match",
        datum_runs - datum_failures.len(),
        datum_runs
    );
    assert_eq!(cases.len(), 58, "expected 58 cases");
    assert!(datum_runs >= 10, "only {datum_runs} --datum variants");
    failures.extend(datum_failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rebuilds the case's upstream tree in a temporary folder and runs the `--datum` form.
fn datum_variant(
    suite: &Path,
    case_dir: &Path,
    name: &str,
    case: &Value,
    expected: &Value,
) -> Option<Outcome> {
    const ASSETS: &str = "tests/Integration/assets/";
    let layers = case.get("layers")?.as_array()?;
    let upstreams: Vec<(&Value, &str)> = layers
        .iter()
        .filter_map(|l| Some((l, l.get("upstream")?.as_str()?)))
        .collect();
    let tree = upstreams
        .first()?
        .1
        .strip_prefix(ASSETS)?
        .split('/')
        .next()?
        .to_string();
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(&suite.join("assets").join(&tree), tmp.path());
    // The case's own layer files at their upstream places (covers translated .psd1 files).
    for (layer, upstream) in &upstreams {
        let rel = upstream.split(' ').next()?.strip_prefix(ASSETS)?;
        let rel = rel.strip_prefix(&format!("{tree}/"))?;
        let file = case_dir.join(layer.get("file")?.as_str()?);
        let ext = file.extension()?.to_string_lossy().into_owned();
        let target = tmp.path().join(Path::new(rel).with_extension(ext));
        std::fs::create_dir_all(target.parent()?).expect("mkdir");
        std::fs::copy(&file, &target).expect("copy layer");
    }
    let node_file = tmp.path().join("node.json");
    let node = if is_rsop(case) {
        // RSOP starts from the node's own document: the most specific layer.
        yaml(&layer_files(case_dir).into_iter().next()?)
    } else {
        case.get("node")
            .cloned()
            .unwrap_or(Value::Object(Default::default()))
    };
    std::fs::write(&node_file, node.to_string()).expect("write node");
    let mut args = base_args(expected, case);
    args.push("--datum".into());
    args.push(tmp.path().join("Datum.yml").display().to_string());
    args.push("--node".into());
    args.push(node_file.display().to_string());
    Some(check(&format!("{name} (--datum)"), args, expected))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read assets") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}
