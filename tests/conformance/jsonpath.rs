//! Deckhand's paths (`jsonpath_parse` and `jsonpath_replace` of deckhand/common/utils.py on
//! jsonpath-ng 1.8.0): cases recorded from Deckhand itself by `scripts/diff-jsonpath.py` —
//! a path, data and (for a write) a value as YAML, and what Deckhand returned or the class of
//! the exception it raised — replayed through strata's `value::dpath`. The recorded file is
//! `fixtures/deckhand/jsonpath/cases.jsonl` (README there); `STRATA_JSONPATH_CASES=FILE`
//! replays another one (a bigger random run of the script).

use serde_json::Value;
use strata::load::{yaml, LoadOptions};
use strata::value::dpath::{self, DPath, PathError, PathErrorKind, Written};
use strata::value::Node;

fn load(text: &str) -> Node {
    let mut w = Vec::new();
    yaml::load_single(text, 0, &LoadOptions::default(), &mut w)
        .expect("recorded YAML parses")
        .unwrap_or_else(|| Node::null(strata::value::Span::NONE))
}

/// The Python exception a path error stands for.
fn class_of(e: &PathError) -> String {
    match e.kind {
        PathErrorKind::NotImplemented => "NotImplementedError".into(),
        PathErrorKind::Unsupported => "unsupported".into(),
        _ => e
            .message
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| w.ends_with("Error") && w.len() > 5)
            .unwrap_or("?")
            .to_string(),
    }
}

/// `jsonpath_parse(data, path)` or `jsonpath_replace(data, value, path)`, as strata does them.
fn run(case: &Value) -> Result<Node, String> {
    let path = case["path"].as_str().unwrap_or_default();
    let mut data = load(case["data"].as_str().unwrap_or_default());
    let norm = dpath::normalize(path);
    if case["op"] != "read" && !(norm == "$" || norm.starts_with("$.")) {
        return Err("ValueError".into());
    }
    let p = DPath::parse(&norm).map_err(|e| class_of(&e))?;
    if case["op"] == "read" {
        let found = p.first(&data).map_err(|e| class_of(&e))?;
        return Ok(found.map_or_else(|| Node::null(strata::value::Span::NONE), |v| v.into_owned()));
    }
    let value = load(case["value"].as_str().unwrap_or_default());
    if !p.matches(&data).map_err(|e| class_of(&e))? {
        dpath::expand(&mut data, &p.text).map_err(|e| class_of(&e))?;
    }
    if p.target(&data).map_err(|e| class_of(&e))?.is_none() {
        return Err("IndexError".into());
    }
    match p.update(&mut data, value).map_err(|e| class_of(&e))?.0 {
        Written::Root(v) => Ok(v),
        Written::InPlace => Ok(data),
    }
}

fn compact(n: &Node) -> String {
    // A value JSON cannot hold (keys 0 and '0') by its message: positions differ by text.
    strata::render::json::to_compact(n).unwrap_or_else(|e| format!("error: {}", e.message))
}

#[test]
fn deckhand_paths_as_recorded() {
    let file = std::env::var("STRATA_JSONPATH_CASES").unwrap_or_else(|_| {
        format!(
            "{}/fixtures/deckhand/jsonpath/cases.jsonl",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let text = std::fs::read_to_string(&file).expect("the recorded cases");
    let (mut total, mut unsupported) = (0, 0);
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("a JSON line");
        total += 1;
        let want = match case["error"].as_str() {
            Some(class) => Err(class.to_string()),
            None => Ok(load(case["expect"].as_str().unwrap_or_default())),
        };
        let got = run(&case);
        let same = match (&want, &got) {
            (_, Err(c)) if c == "unsupported" => {
                unsupported += 1;
                if unsupported <= 5 {
                    println!(
                        "refused: {} {:?} on {} (Deckhand: {})",
                        case["op"].as_str().unwrap_or("?"),
                        case["path"].as_str().unwrap_or("?"),
                        case["data"].as_str().unwrap_or("?").replace('\n', " "),
                        case["error"].as_str().unwrap_or("a result")
                    );
                }
                true
            }
            (Ok(w), Ok(g)) => w == g && compact(w) == compact(g),
            (Err(w), Err(g)) => w == g,
            _ => false,
        };
        if !same {
            let show = |r: &Result<Node, String>| match r {
                Ok(n) => compact(n),
                Err(c) => format!("error {c}"),
            };
            failures.push(format!(
                "line {}: {} {:?} on {}{}\n  Deckhand: {}\n  strata:   {}",
                i + 1,
                case["op"].as_str().unwrap_or("?"),
                case["path"].as_str().unwrap_or("?"),
                case["data"].as_str().unwrap_or("?").trim_end(),
                case["value"]
                    .as_str()
                    .map(|v| format!(" value {}", v.trim_end()))
                    .unwrap_or_default(),
                show(&want),
                show(&got)
            ));
        }
    }
    println!(
        "conformance: jsonpath {} of {total} as Deckhand ({unsupported} refused as unsupported) from {file}",
        total - failures.len()
    );
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
