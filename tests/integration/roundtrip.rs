//! The YAML writer's promise: what strata writes means the same to PyYAML (`safe_load`, YAML
//! 1.1). A corpus of tricky strings, numbers and keys goes in as JSON (exact values), comes out
//! as strata YAML, and is read back by Python; the values must be identical.

use crate::util::command;
use std::io::Write;
use std::process::{Command, Stdio};

fn corpus() -> serde_json::Value {
    let mut strings: Vec<String> = Vec::new();
    for w in [
        "yes", "no", "on", "off", "true", "false", "y", "n", "null", "~", "Null", "NULL",
    ] {
        strings.push(w.to_string());
        strings.push(w.to_uppercase());
        let mut c = w.chars();
        if let Some(f) = c.next() {
            strings.push(f.to_uppercase().collect::<String>() + c.as_str());
        }
    }
    for s in [
        "",
        " ",
        "0755",
        "0o17",
        "0x1F",
        "0b101",
        "08",
        "09",
        "1_000",
        "+12",
        "-7",
        "1:30",
        "1:30.5",
        "190:20:30",
        "1e3",
        "1.0e+3",
        "1.0e3",
        "1.",
        ".5",
        "-.5",
        ".inf",
        "-.Inf",
        ".NaN",
        "2024-01-01",
        "2024-1-1 10:00:00",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10 -5",
        "=",
        "<<",
        "- a",
        "-a",
        "? x",
        ":x",
        "a: b",
        "a:b",
        "a #b",
        "a# b",
        "#comment",
        "'quoted'",
        "\"dq\"",
        "it's",
        "back\\slash",
        "[x]",
        "{x}",
        "a, b",
        "*alias",
        "&anchor",
        "!tag",
        "%directive",
        "@at",
        "`tick`",
        "|",
        ">",
        "...",
        "---",
        "--- x",
        "a\tb",
        "\ttab first",
        "trailing ",
        " leading",
        "two  spaces",
        "line\nbreak",
        "ends\n",
        "ends\n\n",
        "\nstarts",
        "  indented\nblock",
        "a\n  b\n    c",
        "crlf\r\nline",
        "nul\u{0}byte",
        "bell\u{7}",
        "esc\u{1b}",
        "nel\u{85}",
        "nbsp\u{a0}",
        "ls\u{2028}",
        "bom\u{feff}",
        "héllo",
        "日本語",
        "emoji 😀",
        "ñ: x",
        "x:\ty",
        "true story",
        "no way",
        "1 2",
        "1.2.3",
        "0.",
        "+.inf",
        "1__0",
        "_1",
        "0b",
        "0x",
        "100%",
        "$HOME",
        "a\\nb",
        "key=value",
        "http://example.com/a?b=c#d",
        "C:\\path",
        "~user",
        "!!str",
        "&",
        "*",
        "<< x",
        "0:0",
        "60:00",
        "1:60",
        "2024-13-45",
    ] {
        strings.push(s.to_string());
    }
    let mut map = serde_json::Map::new();
    for (i, s) in strings.iter().enumerate() {
        if !s.contains('\n') && !s.contains('\r') {
            map.insert(s.clone(), serde_json::Value::from(i));
        }
    }
    let numbers: Vec<serde_json::Value> = [
        0.0,
        -0.0,
        1.0,
        0.1,
        1e20,
        1e-20,
        123456.789,
        -5.5e-7,
        1.7976931348623157e308,
    ]
    .iter()
    .map(|f| serde_json::json!(f))
    .chain([
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(9007199254740993u64),
        serde_json::json!(i64::MIN),
    ])
    .collect();
    serde_json::json!({"strings": strings, "as_keys": map, "numbers": numbers, "nested": {"list": [[], {}, [["deep"]], {"a": {"b": null}}]}})
}

pub(crate) fn python_has_pyyaml() -> bool {
    Command::new("python3")
        .args(["-c", "import yaml"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn pyyaml_reads_back_the_same_values() {
    if !python_has_pyyaml() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install PyYAML (pip install pyyaml)"
        );
        eprintln!("roundtrip: skipped: python3 with PyYAML not found (pip install pyyaml)");
        return;
    }
    let value = corpus();
    let count = value["strings"].as_array().map_or(0, Vec::len);
    assert!(count >= 100, "corpus has only {count} strings");
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("corpus.json");
    std::fs::write(&input, serde_json::to_string(&value).expect("json")).expect("write");
    let out = command()
        .args(["merge", input.to_str().expect("path")])
        .output()
        .expect("run strata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut py = Command::new("python3")
        .args(["-c", "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin.buffer), sys.stdout, ensure_ascii=False)"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    py.stdin
        .take()
        .expect("stdin")
        .write_all(&out.stdout)
        .expect("write yaml");
    let res = py.wait_with_output().expect("python");
    assert!(
        res.status.success(),
        "PyYAML failed on strata's YAML:\n{}\n{}",
        String::from_utf8_lossy(&res.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let back: serde_json::Value = serde_json::from_slice(&res.stdout).expect("python json");
    if back != value {
        let (a, b) = (
            value["strings"].as_array().cloned().unwrap_or_default(),
            back["strings"].as_array().cloned().unwrap_or_default(),
        );
        let diffs: Vec<String> = a
            .iter()
            .zip(b.iter())
            .filter(|(x, y)| x != y)
            .map(|(x, y)| format!("{x} came back as {y}"))
            .collect();
        panic!(
            "values changed meaning:\n{}\nfull:\n{back}",
            diffs.join("\n")
        );
    }
}

/// Python that prints whether two YAML files hold the same values for PyYAML's `safe_load`,
/// types included (bytes, sets, tuples, dates; `1`, `1.0` and `True` differ).
const SAME_VALUES: &str = r#"
import math, sys, yaml
def typed(v):
    if isinstance(v, float) and math.isnan(v):
        return ("float", "nan")
    if isinstance(v, dict):
        return ("dict", tuple((typed(k), typed(x)) for k, x in v.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", frozenset(typed(x) for x in v))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(typed(x) for x in v))
    return (type(v).__name__, repr(v))
a, b = (yaml.safe_load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
print("same" if typed(a) == typed(b) else f"differ:\n{a!r}\n{b!r}")
"#;

#[test]
fn every_tag_pyyaml_constructs_survives_a_render() {
    if !python_has_pyyaml() {
        eprintln!("roundtrip: skipped: python3 with PyYAML not found (pip install pyyaml)");
        return;
    }
    let input = crate::util::fixtures().join("merge/tags.yaml");
    let out = command()
        .args(["merge", "merge/tags.yaml"])
        .output()
        .expect("run strata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for tag in [
        "!!binary |",
        "!!set",
        "!!omap",
        "!!pairs",
        "!!timestamp 2024-1-5",
    ] {
        assert!(text.contains(tag), "no {tag} in:\n{text}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let rendered = dir.path().join("rendered.yaml");
    std::fs::write(&rendered, &out.stdout).expect("write");
    let py = Command::new("python3")
        .args(["-c", SAME_VALUES])
        .arg(&input)
        .arg(&rendered)
        .output()
        .expect("python3");
    assert_eq!(
        String::from_utf8_lossy(&py.stdout).trim(),
        "same",
        "{}\n{text}",
        String::from_utf8_lossy(&py.stderr)
    );
}
