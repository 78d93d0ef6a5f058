//! Issue 17's round trip over the recorded inputs: every cloud-init, Heat and Datum input file
//! of `../shared/conformance` rendered alone by `strata merge FILE` reads back as the same data,
//! and comes back byte for byte unless it holds a construct docs/comments.md lists as
//! normalised (odd indentation, trailing blanks).

use crate::{strata, suite};
use std::path::{Path, PathBuf};

fn inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            inputs(&path, out);
        } else if (name.ends_with(".yaml") || name.ends_with(".yml")) && !name.contains("expected")
        {
            out.push(path);
        }
    }
}

/// A normalised construct: a line indented by an odd number of spaces, trailing blanks or
/// `\r\n`.
fn normalised(input: &str) -> bool {
    let odd = input
        .lines()
        .any(|l| (l.len() - l.trim_start_matches(' ').len()) % 2 == 1);
    let trailing = input.lines().any(|l| l.ends_with([' ', '\t', '\r']));
    // No document at all (empty, blank, comments only): the merge of nothing is `{}`.
    let nothing = input
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    odd || trailing || nothing
}

#[test]
fn recorded_inputs_come_back_unchanged() {
    let mut files = Vec::new();
    for name in ["cloud-init", "heat", "datum"] {
        if let Some(dir) = suite(name) {
            inputs(&dir, &mut files);
        }
    }
    if files.is_empty() {
        return;
    }
    let (mut rendered, mut identical) = (0, 0);
    let scratch = tempfile::tempdir().expect("tempdir");
    for file in &files {
        let path = file.display().to_string();
        let (code, out, _) = strata(&["merge".into(), path.clone()]);
        if code != 0 {
            continue;
        }
        rendered += 1;
        let input = std::fs::read_to_string(file).expect("read");
        let back = scratch.path().join("back.yaml");
        std::fs::write(&back, &out).expect("write");
        let json = |p: String| strata(&["merge".into(), "--output".into(), "json".into(), p]).1;
        assert_eq!(
            json(path.clone()),
            json(back.display().to_string()),
            "{path}: the output reads as other data"
        );
        if out == input || out == format!("{input}\n") {
            identical += 1;
        } else {
            assert!(
                normalised(&input),
                "{path}: differs without a normalised construct:\n{out}"
            );
        }
    }
    eprintln!("conformance: round trip: {rendered} inputs rendered alone, {identical} byte for byte, every one the same data");
    assert!(rendered > 0);
}
