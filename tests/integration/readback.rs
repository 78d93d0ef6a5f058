//! Issue 35's promise, checked on every render the behaviour tests make: the YAML a command
//! writes reads back — with strata's own loader, under the command's `--yaml` rules — as
//! exactly the data it rendered, with the inputs' comments and spellings kept (the run the
//! test made) and with `--explain` (run again here). `--output json` output holds the same
//! shape: every object as many members as the rendered mapping has entries (a key never
//! written twice). `util::strata` calls `check` after each successful run, so every new
//! fixture is covered without writing anything case by case.

use strata::load::resolve::YamlVersion;
use strata::load::{yaml, LoadOptions};
use strata::value::{Kind, Node};

/// Subcommands whose stdout is the rendered document (or a stream of them).
const RENDERS: [&str; 5] = ["merge", "cloud-init", "heat", "deckhand", "lookup"];

/// Problems found: outputs that do not read back as the rendered data.
/// `args` as the in-process render takes them (inputs as absolute paths), `rel` as the test ran
/// them in `fixtures/`.
pub(crate) fn check(
    args: &[String],
    rel: &[&str],
    rendered: Option<&strata::frontend::Rendered>,
    stdout: &str,
) -> Vec<String> {
    let Some(first) = args.first() else {
        return Vec::new();
    };
    let skip = ["--explain-levels", "-o", "--out", "--help", "-h", "-"];
    if !RENDERS.contains(&first.as_str())
        || args.iter().any(|a| {
            skip.contains(&a.as_str()) || a.starts_with("--explain=") || a.starts_with("--out=")
        })
    {
        return Vec::new();
    }
    let Some(rendered) = rendered else {
        return Vec::new();
    };
    let want: Vec<&Node> = match (&rendered.stream, rendered.doc.as_list()) {
        (Some(_), Some(docs)) => docs.iter().collect(),
        _ => vec![&rendered.doc],
    };
    let json = args
        .windows(2)
        .any(|w| w[0] == "--output" && w[1] == "json")
        || args.iter().any(|a| a == "--output=json");
    let explained = args.iter().any(|a| a == "--explain");
    let mut problems = Vec::new();
    if json {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(stdout) {
            let v = if explained { v["result"].clone() } else { v };
            let got: Vec<serde_json::Value> = match (&rendered.stream, v) {
                (Some(_), serde_json::Value::Array(items)) => items,
                (_, v) => vec![v],
            };
            if got.len() != want.len() || !got.iter().zip(&want).all(|(g, w)| same_shape(w, g)) {
                problems.push("the JSON output's shape is not the rendered data's".into());
            }
        }
        return problems;
    }
    let version = if args.windows(2).any(|w| w[0] == "--yaml" && w[1] == "1.2")
        || args.iter().any(|a| a == "--yaml=1.2")
    {
        YamlVersion::V1_2
    } else {
        YamlVersion::V1_1
    };
    problems.extend(reads_back(stdout, &want, version, "the output"));
    if !explained {
        let mut again: Vec<&str> = rel.to_vec();
        again.insert(1, "--explain");
        let out = crate::util::command()
            .args(&again)
            .env("STRATA_CACHE_DIR", crate::util::index_cache())
            .output()
            .expect("run strata");
        if out.status.success() {
            let text = String::from_utf8_lossy(&out.stdout);
            problems.extend(reads_back(&text, &want, version, "the --explain output"));
        } else {
            problems.push(format!(
                "--explain fails where the plain run renders: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    problems
}

fn reads_back(text: &str, want: &[&Node], version: YamlVersion, what: &str) -> Vec<String> {
    let opts = LoadOptions {
        dialect: strata::load::Dialect {
            version,
            ..Default::default()
        },
        ..LoadOptions::default()
    };
    let mut warnings = Vec::new();
    match yaml::load_stream(text, 0, &opts, &mut warnings) {
        Ok(docs) => {
            let docs: Vec<&Node> = docs.iter().collect();
            // An output of no document is a rendered null or empty stream.
            let empty = docs.is_empty() && want.iter().all(|w| matches!(w.kind, Kind::Null));
            if empty || (docs.len() == want.len() && docs.iter().zip(want).all(|(a, b)| a == b)) {
                Vec::new()
            } else {
                vec![format!(
                    "{what} reads back as {:?}\nrendered: {:?}\n{text}",
                    docs.iter().map(|d| &d.kind).collect::<Vec<_>>(),
                    want.iter().map(|d| &d.kind).collect::<Vec<_>>()
                )]
            }
        }
        Err(e) => vec![format!("{what} does not load: {}\n{text}", e.message)],
    }
}

/// Whether a JSON value has the rendered node's shape: as many members as entries, as many
/// items, in order.
fn same_shape(n: &Node, v: &serde_json::Value) -> bool {
    match (&n.kind, v) {
        (Kind::Map(m), serde_json::Value::Object(o)) => {
            m.len() == o.len() && m.values().zip(o.values()).all(|(a, b)| same_shape(a, b))
        }
        (Kind::List(l) | Kind::Tuple(l), serde_json::Value::Array(a)) => {
            l.len() == a.len() && l.iter().zip(a).all(|(x, y)| same_shape(x, y))
        }
        (Kind::Map(_) | Kind::List(_) | Kind::Tuple(_), _) => false,
        _ => {
            !matches!(
                v,
                serde_json::Value::Object(_) | serde_json::Value::Array(_)
            ) || matches!(n.kind, Kind::Set(_) | Kind::Bytes(_))
        }
    }
}

#[test]
fn the_check_catches_output_that_reads_as_other_data() {
    let rel = [
        "merge",
        "comments/merge/base.yaml",
        "comments/merge/prod.yaml",
    ];
    let abs: Vec<String> = rel
        .iter()
        .map(|a| match a.ends_with(".yaml") {
            true => crate::util::fixtures().join(a).display().to_string(),
            false => a.to_string(),
        })
        .collect();
    let run = crate::util::strata(&rel);
    let out = run.ok();
    let (rendered, _) = strata::cli::explain_in_process(&abs).expect("renders");
    let check = |text: &str| check(&abs, &rel, Some(&rendered), text);
    assert!(check(out).is_empty());
    // The same text with one value's spelling changed, with a line that is not YAML, with a
    // comment that became the text of a block.
    let changed = out.replacen("replicas: 6", "replicas: '6'", 1);
    assert_ne!(changed, out);
    assert!(!check(&changed).is_empty());
    assert!(!check(&format!("{out}- x\n")).is_empty());
    let swallowed = out.replacen("    Be nice.\n", "    Be nice.\n    # swallowed\n", 1);
    assert_ne!(swallowed, out);
    assert!(!check(&swallowed).is_empty());
}
