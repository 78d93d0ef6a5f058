//! YAML test suite conformance: every case of the official yaml-test-suite, loaded with
//! `strata::load::yaml::load_stream` (default options: PyYAML's YAML 1.1 reading), must give
//! what PyYAML's `yaml.safe_load_all` gives, as recorded by `scripts/yaml-suite.py` in
//! `target/yaml-test-suite/pyyaml.json`: both an error, or both the same documents in the
//! script's typed JSON encoding (order, int / float / bool / str, sets, tuples, bytes and
//! timestamps as Python builds them). Skips when the recording is absent. The suite's own
//! (YAML 1.2) verdicts are counted for information only.
//!
//! Every case strata reads is also written back with strata's YAML writer and read again: the
//! value must not change. The writings go to `target/yaml-test-suite/rendered/`, where
//! `scripts/yaml-suite.py --readback` (run by CI after the tests) reads them with PyYAML.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Cases where strata differs from PyYAML by design, each with why. Empty: none known.
const ALLOWED: &[(&str, &str)] = &[];

/// The typed JSON encoding of a strata value, as `encode()` in scripts/yaml-suite.py writes
/// PyYAML's.
fn encode(node: &strata::value::Node) -> Value {
    use strata::value::Kind;
    match &node.kind {
        Kind::Null => json!({ "null": null }),
        Kind::Bool(b) => json!({ "bool": b }),
        Kind::Int(i) => json!({ "int": i.to_string() }),
        Kind::BigInt(s) => json!({ "int": &**s }),
        Kind::Float(f) => json!({ "float": py_float_repr(*f) }),
        Kind::Str(s) => json!({ "str": &**s }),
        Kind::Timestamp(t) => py_timestamp(t).unwrap_or_else(|| json!({ "timestamp": &**t })),
        Kind::Bytes(b) => json!({ "bytes": strata::value::base64(b) }),
        Kind::List(items) => json!({ "list": items.iter().map(encode).collect::<Vec<_>>() }),
        Kind::Tuple(items) => json!({ "tuple": items.iter().map(encode).collect::<Vec<_>>() }),
        Kind::Map(m) => json!({
            "map": m.iter().map(|(k, v)| json!([encode(&k.0), encode(v)])).collect::<Vec<_>>()
        }),
        Kind::Set(m) => json!({ "set": m.keys().map(|k| encode(&k.0)).collect::<Vec<_>>() }),
    }
}

/// Python's `repr(float)`: the shortest round-tripping digits, in fixed notation when the
/// decimal exponent is in -4..16 (with at least one decimal), otherwise `d.ddde+XX`.
fn py_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f.is_infinite() {
        return format!("{sign}inf");
    }
    // Rust's `{:e}` is the shortest round-tripping form too: "1.2345e-7", "0e0".
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    let exp: i32 = exp.parse().expect("exponent");
    let n = digits.len() as i32;
    let decpt = exp + 1; // value = 0.DIGITS x 10^decpt
    let body = if -4 < decpt && decpt <= 16 {
        if decpt <= 0 {
            format!("0.{}{digits}", "0".repeat((-decpt) as usize))
        } else if decpt >= n {
            format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
        } else {
            let (a, b) = digits.split_at(decpt as usize);
            format!("{a}.{b}")
        }
    } else {
        let (a, b) = digits.split_at(1);
        let dot = if b.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{a}{dot}{b}e{esign}{:02}", exp.abs())
    };
    format!("{sign}{body}")
}

/// What PyYAML's `construct_yaml_timestamp` builds from a timestamp's text, as
/// `{"date": isoformat}` / `{"datetime": isoformat}`; `None` where Python would raise.
fn py_timestamp(text: &str) -> Option<Value> {
    let re = regex::Regex::new(
        r"^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?)?\n?$",
    )
    .expect("timestamp regex");
    let c = re.captures(text)?;
    let num = |i: usize| c.get(i).map(|m| m.as_str().parse::<i64>().expect("digits"));
    let (year, month, day) = (num(1)?, num(2)?, num(3)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=9999).contains(&year) || !(1..=12).contains(&month) {
        return None;
    }
    if !(1..=days[month as usize - 1]).contains(&day) {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    let Some(hour) = num(4) else {
        return Some(json!({ "date": date }));
    };
    let (minute, second) = (num(5)?, num(6)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut out = format!("{date}T{hour:02}:{minute:02}:{second:02}");
    let fraction = c.get(7).map_or("", |m| m.as_str());
    if !fraction.is_empty() {
        let mut f: String = fraction.chars().take(6).collect();
        while f.len() < 6 {
            f.push('0');
        }
        if f != "000000" {
            out.push('.');
            out.push_str(&f);
        }
    }
    if c.get(8).is_some() {
        let mut offset = 0i64; // minutes; "Z" is UTC
        if let Some(s) = c.get(9) {
            offset = num(10)? * 60 + num(11).unwrap_or(0);
            if s.as_str() == "-" {
                offset = -offset;
            }
        }
        if offset.abs() >= 24 * 60 {
            return None; // timezone() refuses offsets of a day or more
        }
        let s = if offset < 0 { '-' } else { '+' };
        out.push_str(&format!(
            "{s}{:02}:{:02}",
            offset.abs() / 60,
            offset.abs() % 60
        ));
    }
    Some(json!({ "datetime": out }))
}

/// Sorts set members by their JSON text, everywhere in a value, so sets compare as sets.
pub(crate) fn canonical(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(canonical),
        Value::Object(m) => {
            m.values_mut().for_each(canonical);
            if let Some(Value::Array(members)) = m.get_mut("set") {
                members.sort_by_cached_key(|x| x.to_string());
            }
        }
        _ => {}
    }
}

/// strata's result for one input: `Err(message)` or the documents (encoded) with strata's
/// YAML writing of them.
pub(crate) fn strata_load(text: &str) -> Result<(Value, String), String> {
    let mut warnings = Vec::new();
    // A panic is a disagreement too, not the end of the run.
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        strata::load::yaml::load_stream(text, 0, &Default::default(), &mut warnings).map(|docs| {
            let written = strata::render::yaml::stream_to_string(&docs);
            (docs, written)
        })
    }));
    match loaded {
        Ok(Ok((docs, written))) => Ok((Value::Array(docs.iter().map(encode).collect()), written)),
        Ok(Err(e)) => Err(e.message),
        Err(_) => Err("PANIC".into()),
    }
}

/// Reads strata's writing of a case back with strata: `None` when it gives the same value.
fn round_trip(value: &Value, written: &str) -> Option<String> {
    match strata_load(written) {
        Ok((mut again, _)) => {
            let mut first = value.clone();
            canonical(&mut first);
            canonical(&mut again);
            (first != again).then(|| {
                format!(
                    "written back and read again: {}; first read: {}",
                    short(&again),
                    short(&first)
                )
            })
        }
        Err(e) => Some(format!(
            "strata cannot read its own writing: {e}\n{written}"
        )),
    }
}

/// A value's JSON text, cut to 300 characters for the failure list.
pub(crate) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        format!("{}...", s.chars().take(300).collect::<String>())
    } else {
        s
    }
}

#[test]
fn yaml_suite_matches_pyyaml() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/yaml-test-suite");
    let recording = dir.join("pyyaml.json");
    let Ok(text) = std::fs::read_to_string(&recording) else {
        eprintln!(
            "conformance: skipped yaml-test-suite: {} not found (run scripts/yaml-suite.py)",
            recording.display()
        );
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("pyyaml.json is JSON");
    let cases = doc["cases"].as_array().expect("cases");
    let (mut agree, mut py_rejects, mut suite_agree, mut written_ok) = (0, 0, 0, 0);
    let rendered = dir.join("rendered");
    let _ = std::fs::remove_dir_all(&rendered);
    std::fs::create_dir_all(&rendered).expect("create target/yaml-test-suite/rendered");
    let mut other_problem: Vec<&str> = Vec::new();
    let mut differ: Vec<String> = Vec::new();
    let mut allowed_hit: Vec<&str> = Vec::new();
    for case in cases {
        let id = case["id"].as_str().expect("id");
        let input = Path::new(&dir).join("cases").join(id).join("in.yaml");
        let input = std::fs::read_to_string(&input)
            .unwrap_or_else(|e| panic!("{}: {e} (run scripts/yaml-suite.py)", input.display()));
        let ours = strata_load(&input);
        if let Ok((value, written)) = &ours {
            let file = rendered.join(format!("{}.yaml", id.replace('/', "-")));
            std::fs::write(&file, written).expect("write rendered case");
            match round_trip(value, written) {
                None => written_ok += 1,
                Some(why) => differ.push(format!("  {id} ({}): {why}", case["name"])),
            }
        }
        let ours = ours.map(|(value, _)| value);
        let py = &case["pyyaml"];
        if ours.is_err() == case["fail"].as_bool().expect("fail") {
            suite_agree += 1;
        }
        let verdict = match (&ours, py.get("error")) {
            (Err(message), Some(err)) => {
                py_rejects += 1;
                if !err["problem"].as_str().is_some_and(|p| message.contains(p)) {
                    other_problem.push(id);
                }
                Ok(())
            }
            (Err(message), None) => Err(format!(
                "strata: error {message:?}; PyYAML: {}",
                short(&py["value"])
            )),
            (Ok(value), Some(err)) => {
                py_rejects += 1;
                Err(format!(
                    "strata: {}; PyYAML: {} {:?}",
                    short(value),
                    err["type"].as_str().unwrap_or("?"),
                    err["problem"].as_str().unwrap_or("")
                ))
            }
            (Ok(value), None) => {
                let (mut ours, mut theirs) = (value.clone(), py["value"].clone());
                canonical(&mut ours);
                canonical(&mut theirs);
                if ours == theirs {
                    Ok(())
                } else {
                    Err(format!(
                        "strata: {}; PyYAML: {}",
                        short(&ours),
                        short(&theirs)
                    ))
                }
            }
        };
        match verdict {
            Ok(()) => agree += 1,
            Err(_) if ALLOWED.iter().any(|(a, _)| *a == id) => allowed_hit.push(id),
            Err(why) => differ.push(format!("  {id} ({}): {why}", case["name"])),
        }
    }
    let total = cases.len();
    println!(
        "conformance: yaml-test-suite: {total} cases, {agree} agree with PyYAML {} \
         (PyYAML accepts {}, rejects {py_rejects}; PyYAML's problem text in strata's message \
         in {} of the rejects), {} allowed by design; strata matches the suite's own YAML 1.2 \
         valid/invalid verdict in {suite_agree}; {written_ok} written back by strata and read \
         again unchanged",
        doc["pyyaml"].as_str().unwrap_or("?"),
        total - py_rejects,
        py_rejects - other_problem.len(),
        allowed_hit.len(),
    );
    if !other_problem.is_empty() {
        // Information only: an error is an error, whatever its words.
        println!(
            "conformance: yaml-test-suite: rejected by both, in other words: {}",
            other_problem.join(", ")
        );
    }
    let stale: Vec<&str> = ALLOWED
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !allowed_hit.contains(id))
        .collect();
    assert!(
        differ.is_empty() && stale.is_empty(),
        "{} yaml-test-suite cases where strata and PyYAML differ:\n{}\nallow-listed but \
         agreeing (remove from ALLOWED): {stale:?}",
        differ.len(),
        differ.join("\n")
    );
}
