//! cloud-init jinja conformance: every template of `fixtures/cloud-init/jinja/render/` against
//! what `cloud-init devel render` (Debian's cloud-init 22.4.2, Jinja2 3.1.2) printed for it
//! with `fixtures/cloud-init/jinja/instance-data.json` (`NAME.expected.json`, recorded by
//! `scripts/record-cloud-init-jinja.py`). Two checks: the rendered text, byte for byte, from
//! strata's renderer; and the whole pipeline, `strata cloud-init --instance-data` against the
//! recorded text read as cloud-config. Cases named `deviation-*` are the documented
//! differences (docs/frontends/cloud-init.md): they must still differ, so the list stays true.

use super::strata;
use std::path::PathBuf;
use strata::frontend::cloudinit::instance::InstanceData;
use strata::frontend::cloudinit::jinja::{render, Rendered};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/cloud-init/jinja")
}

struct Case {
    name: String,
    template: PathBuf,
    rc: i64,
    stdout: String,
    messages: Vec<String>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir().join("render"))
        .expect("render dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tmpl"))
        .collect();
    paths.sort();
    for template in paths {
        let expected = template.with_extension("expected.json");
        let text = std::fs::read_to_string(&expected)
            .unwrap_or_else(|e| panic!("{}: {e}", expected.display()));
        let v: serde_json::Value = serde_json::from_str(&text).expect("expected json");
        out.push(Case {
            name: template
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            template,
            rc: v["rc"].as_i64().unwrap_or(-1),
            stdout: v["stdout"].as_str().unwrap_or_default().to_string(),
            messages: v["messages"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|m| m.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        });
    }
    out
}

/// Whether strata's rendering agrees with the recording; `Err` says how it differs.
fn agrees(case: &Case, data: &InstanceData) -> Result<(), String> {
    let payload = std::fs::read_to_string(&case.template).map_err(|e| e.to_string())?;
    match render(&payload, data) {
        Rendered::Text { text, missing, .. } if case.rc == 0 => {
            if text != case.stdout {
                return Err(format!("rendered\n{text}\nwant\n{}", case.stdout));
            }
            let warned = case
                .messages
                .iter()
                .find(|m| m.contains("Could not render jinja template variables"));
            let want = warned
                .and_then(|m| m.split_once("': "))
                .map(|(_, names)| names.to_string())
                .unwrap_or_default();
            let got: Vec<String> = missing.iter().map(|n| format!("'{n}'")).collect();
            if got.join(", ") != want {
                return Err(format!("missing names {got:?}, cloud-init: {want}"));
            }
            Ok(())
        }
        // cloud-init's `devel render` fails on an empty result too.
        Rendered::Text { text, .. } if text.is_empty() && case.rc == 1 => Ok(()),
        Rendered::Failed { kind, message, .. } if case.rc == 1 => {
            let said = case.messages.join("\n");
            // cloud-init catches TypeError and UndefinedError (its warning has the message);
            // other exceptions end a traceback, `ValueError: message`.
            let same = match kind {
                "TemplateSyntaxError" => said.contains("TemplateSyntaxError"),
                "UndefinedError" => said.contains("is undefined"),
                "TypeError" => said.contains(&message),
                "ValueError"
                | "AttributeError"
                | "AssertionError"
                | "IndexError"
                | "KeyError"
                | "FilterArgumentError" => said.contains(&format!("{kind}: {message}")),
                _ => false,
            };
            same.then_some(())
                .ok_or_else(|| format!("{kind}: {message}; cloud-init: {said}"))
        }
        other => Err(format!(
            "strata: {other:?}; cloud-init: exit {} {:?} {:?}",
            case.rc, case.stdout, case.messages
        )),
    }
}

#[test]
fn jinja_render_matches_cloud_init_devel_render() {
    let text = std::fs::read_to_string(dir().join("instance-data.json")).expect("instance data");
    let data = InstanceData::parse(&text).expect("instance data parses");
    let cases = cases();
    assert!(cases.len() >= 30, "only {} recorded cases", cases.len());
    let mut failures = Vec::new();
    let mut deviations = 0;
    for case in &cases {
        let result = agrees(case, &data);
        match (case.name.starts_with("deviation-"), result) {
            (false, Err(e)) => failures.push(format!("{}: {e}", case.name)),
            (true, Ok(())) => failures.push(format!(
                "{}: now agrees with cloud-init: rename it and update the docs",
                case.name
            )),
            (true, Err(_)) => deviations += 1,
            (false, Ok(())) => {}
        }
    }
    println!(
        "cloud-init jinja conformance: {} of {} cases agree, {deviations} documented deviations",
        cases.len() - deviations - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `strata cloud-init --instance-data` on a template gives what `strata cloud-init` gives for
/// the recorded rendered text as a plain user-data file: the rendered text goes through the
/// same cloud-config handler (its `merge_how`, a part PyYAML refuses is dropped).
#[test]
fn jinja_pipeline_matches_recorded_render() {
    let data = dir().join("instance-data.json").display().to_string();
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let head = std::fs::read_to_string(&case.template).unwrap_or_default();
        if case.name.starts_with("deviation-")
            || case.rc != 0
            || !head.starts_with("## template: jinja")
            || !case.stdout.starts_with("#cloud-config")
        {
            continue;
        }
        checked += 1;
        let rendered = tmp.path().join(format!("{}.yaml", case.name));
        std::fs::write(&rendered, &case.stdout).expect("write");
        let (want_code, want, _) = strata(&[
            "cloud-init".into(),
            "--output".into(),
            "json".into(),
            rendered.display().to_string(),
        ]);
        let template = case.template.display().to_string();
        let (code, got, err) = strata(&[
            "cloud-init".into(),
            "--output".into(),
            "json".into(),
            "--instance-data".into(),
            data.clone(),
            template,
        ]);
        let got: Option<serde_json::Value> = serde_json::from_str(&got).ok();
        let want: Option<serde_json::Value> = serde_json::from_str(&want).ok();
        if code != 0 || want_code != 0 || got != want {
            failures.push(format!("{}: got {got:?}, want {want:?}\n{err}", case.name));
        }
    }
    assert!(checked >= 15, "only {checked} cases checked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
