//! The library's modules form a line, each using only those below it (docs/ARCHITECTURE.md):
//! `value < error < strategy < load < merge < rendered < render < frontend < cli`. Checked on
//! the `crate::` paths of every source file outside test modules, so an import that closes a
//! cycle fails here with the file that made it.

use std::path::Path;

const ORDER: &[&str] = &[
    "par", "value", "error", "strategy", "load", "merge", "rendered", "render", "frontend", "cli",
];

fn rank(module: &str) -> Option<usize> {
    ORDER.iter().position(|m| *m == module)
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src").flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn modules_use_only_the_modules_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut upward = Vec::new();
    for path in &all {
        let rel = path.strip_prefix(&src).expect("under src");
        let name = rel.to_string_lossy();
        let top = name.split(['/', '.']).next().unwrap_or_default();
        let Some(own) = rank(top) else { continue };
        // Unit tests (a `tests.rs` file or the `#[cfg(test)]` end of a file) may use anything.
        if name.ends_with("tests.rs") || name.contains("/tests/") {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("read");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, _) in code.match_indices("crate::") {
            let used: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if rank(&used).is_some_and(|r| r > own) {
                upward.push(format!("src/{name} uses crate::{used}"));
            }
        }
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
    assert!(rank("value") < rank("merge") && rank("merge") < rank("render"));
}
