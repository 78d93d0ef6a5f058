//! Random multi-layer merges whose output must read back as what was merged (issue 35): layers
//! written as text with everything the writer may keep — plain spellings in flow and block
//! context (`-`, `-x`, `a:b`, `yes`, `0755`, `1e3`), quoted ones, flow collections (tagged,
//! over several lines), block scalars with every header, comments at every column, blank
//! lines, anchors and aliases, odd keys — are merged by the `strata merge` binary with
//! comments kept, with `--explain` and with `--no-comments`, and each output is loaded with
//! strata's loader: all three must be the same data (`--no-comments` writes every value
//! afresh). A case strata refuses must be refused in every mode, never with a panic.
//!
//! The seed is fixed (and printed); `STRATA_LAYERS_SEED` and `STRATA_LAYERS_CASES` replay or
//! widen a run. scripts/readback.py runs the same kind of cases against PyYAML.

use crate::util::command;
use std::fmt::Write as _;
use strata::load::{yaml, LoadOptions};

use crate::rng::Rng;

const KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "name",
    "on",
    "yes",
    "0755",
    "1:30",
    "-x",
    "?q",
    ":c",
    "a:b",
    "'-'",
    "\"a:\"",
    "'x y'",
    "é",
    "2024-01-02",
    "~",
    "'<<'",
];
const PLAIN: &[&str] = &[
    "x",
    "hello world",
    "-",
    "-x",
    "a:b",
    "yes",
    "Off",
    "~",
    "null",
    "0755",
    "0o17",
    "0x1F",
    "1_000",
    "1:30",
    "-.5",
    ".5",
    "1e3",
    "3.",
    ".inf",
    ".NaN",
    "2024-01-02",
    "=",
    "é",
    "?x",
    ":x",
    "...x",
    "---x",
    "a#b",
    "tab\tx",
    "+12",
    "012",
    "TRUE",
    "y",
];
const QUOTED: &[&str] = &[
    "'x'",
    "'it''s'",
    "\"a\\nb\"",
    "'yes'",
    "\"0755\"",
    "''",
    "'-'",
    "\"\\x01\"",
    "\"\\u0085x\"",
    "\"\\u2028\"",
    "'# not'",
    "'a: b'",
    "\"two\n  lines\"",
];
const BODIES: &[&[&str]] = &[
    &["x"],
    &["x", "y"],
    &["x", "", "y"],
    &["  more", "x"],
    &["x", "  more"],
    &["# not a comment"],
    &[],
    &["x", ""],
    &["- a"],
    &["a: b"],
];
const HEADERS: &[&str] = &["|", "|-", "|+", ">", ">-", ">+", "|2", ">1-"];
const COMMENTS: &[&str] = &["# note", "#c", "# - x", "# a: b", "#", "# |"];

struct Gen {
    rng: Rng,
    anchors: Vec<String>,
    next_anchor: usize,
}

impl Gen {
    fn scalar(&mut self, flow: bool) -> String {
        let r = &mut self.rng;
        match r.below(10) {
            0..=5 => {
                let s = r.pick(PLAIN);
                let bad_in_flow = s.starts_with([':', '?']);
                if flow && bad_in_flow { "x" } else { s }.to_string()
            }
            6..=7 => r.pick(QUOTED).to_string(),
            8 if !self.anchors.is_empty() => {
                format!("*{}", self.anchors[r.below(self.anchors.len())])
            }
            _ => r
                .pick(&[
                    "!!str 1",
                    "!!str -x",
                    "!!int 010",
                    "!!binary aGVsbG8=",
                    "!!float 1",
                ])
                .into(),
        }
    }

    fn flow(&mut self, depth: usize) -> String {
        let map = self.rng.chance(50);
        let sep = self.rng.pick(&[", ", ",", ",\n  "]);
        let mut items = Vec::new();
        let mut keys = Vec::new();
        for _ in 0..self.rng.below(4) {
            let v = if depth > 0 && self.rng.chance(25) {
                self.flow(depth - 1)
            } else {
                self.scalar(true)
            };
            if map {
                let k = self.rng.pick(KEYS);
                if keys.contains(&k) {
                    continue;
                }
                keys.push(k);
                items.push(format!("{k}: {v}"));
            } else {
                items.push(v);
            }
        }
        let body = items.join(sep);
        match (map, self.rng.below(8)) {
            (false, 0) => format!("!!seq [{body}]"),
            (true, 0) if !items.is_empty() => format!("!!omap [{body}]"),
            (true, _) => format!("{{{body}}}"),
            (false, _) => format!("[{body}]"),
        }
    }

    fn block(&mut self, indent: usize) -> String {
        let header = self.rng.pick(HEADERS);
        let step = header
            .bytes()
            .find(u8::is_ascii_digit)
            .map_or(2, |d| (d - b'0') as usize);
        let mut out = header.to_string();
        if self.rng.chance(20) {
            let _ = write!(out, " {}", self.rng.pick(COMMENTS));
        }
        for line in BODIES[self.rng.below(BODIES.len())] {
            out.push('\n');
            if !line.is_empty() {
                let _ = write!(out, "{}{line}", " ".repeat(indent + step));
            }
        }
        out
    }

    fn trivia(&mut self, indent: usize, out: &mut String) {
        for _ in 0..self.rng.pick(&["", "", "1", "2"]).len() {
            if self.rng.chance(30) {
                out.push('\n');
            } else {
                let col = self.rng.below(indent + 6);
                let _ = writeln!(out, "{}{}", " ".repeat(col), self.rng.pick(COMMENTS));
            }
        }
    }

    fn value(&mut self, indent: usize, depth: usize) -> String {
        let anchor = self.rng.chance(8).then(|| {
            self.next_anchor += 1;
            format!(" &a{}", self.next_anchor)
        });
        let body = match self.rng.below(10) {
            0..=2 if depth > 0 => format!("\n{}", self.mapping(indent + 2, depth - 1)),
            3 if depth > 0 => format!("\n{}", self.sequence(indent, depth - 1)),
            4 | 5 => format!(" {}", self.flow(1)),
            6 => format!(" {}", self.block(indent)),
            _ => format!(
                " {}",
                self.scalar(false)
                    .replace('\n', &format!("\n{}", " ".repeat(indent + 2)))
            ),
        };
        if let Some(a) = &anchor {
            self.anchors.push(a[2..].to_string());
        }
        format!("{}{body}", anchor.unwrap_or_default())
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> String {
        let mut out = String::new();
        let mut keys = Vec::new();
        for _ in 0..1 + self.rng.below(4) {
            let k = self.rng.pick(KEYS);
            if keys.contains(&k) {
                continue;
            }
            keys.push(k);
            self.trivia(indent, &mut out);
            let v = self.value(indent, depth);
            let tail = if !v.contains('\n') && self.rng.chance(15) {
                "  # on the line"
            } else {
                ""
            };
            let _ = writeln!(out, "{}{k}:{v}{tail}", " ".repeat(indent));
        }
        out.pop();
        out
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> String {
        let mut out = String::new();
        for _ in 0..1 + self.rng.below(3) {
            self.trivia(indent, &mut out);
            let pad = " ".repeat(indent);
            let item = match self.rng.below(4) {
                0 if depth > 0 => self.mapping(indent + 2, depth - 1).trim_start().to_string(),
                1 => self.flow(1),
                2 => self.block(indent),
                _ => self.scalar(false).replace('\n', &format!("\n{pad}  ")),
            };
            let _ = writeln!(out, "{pad}- {item}");
        }
        out.pop();
        out
    }

    fn layer(&mut self) -> String {
        self.anchors.clear();
        let mut out = String::new();
        self.trivia(0, &mut out);
        out.push_str(&self.mapping(0, 3));
        out.push('\n');
        self.trivia(0, &mut out);
        out
    }
}

/// How one mode's run ended: refused (exit 1), or the documents its output loads as.
fn run(
    files: &[std::path::PathBuf],
    flag: Option<&str>,
) -> Result<Vec<strata::value::Node>, String> {
    let mut cmd = command();
    cmd.arg("merge").args(flag).args(files);
    let out = cmd.output().expect("run strata");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    match out.status.code() {
        Some(0) => {}
        Some(1) => return Err("refused".into()),
        other => panic!("exit {other:?}: {stderr}"),
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut warnings = Vec::new();
    yaml::load_stream(&text, 0, &LoadOptions::default(), &mut warnings)
        .map_err(|e| format!("the output does not load: {}\n{text}", e.message))
}

#[test]
fn random_layers_merge_to_output_that_reads_back() {
    let seed = std::env::var("STRATA_LAYERS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(35);
    let cases = std::env::var("STRATA_LAYERS_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    println!("layers: seed {seed}, {cases} cases (STRATA_LAYERS_SEED / STRATA_LAYERS_CASES)");
    let mut g = Gen {
        rng: Rng(seed ^ 0x9e37_79b9_7f4a_7c15),
        anchors: Vec::new(),
        next_anchor: 0,
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut checked, mut refused) = (0, 0);
    for case in 0..cases {
        let files: Vec<_> = (0..1 + g.rng.below(3))
            .map(|i| {
                let path = dir.path().join(format!("case{case}-{i}.yaml"));
                std::fs::write(&path, g.layer()).expect("write layer");
                path
            })
            .collect();
        let fresh = run(&files, Some("--no-comments"));
        let texts = || {
            files
                .iter()
                .map(|f| std::fs::read_to_string(f).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n---- next layer\n")
        };
        for flag in [None, Some("--explain")] {
            let got = run(&files, flag);
            match (&fresh, &got) {
                (Ok(a), Ok(b)) => assert!(
                    a == b,
                    "seed {seed} case {case} ({flag:?}): reads back as other data than \
                     --no-comments:\n{b:?}\nvs\n{a:?}\nlayers:\n{}",
                    texts()
                ),
                (Err(a), Err(b)) if a == "refused" && b == "refused" => {}
                _ => panic!("seed {seed} case {case} ({flag:?}): {got:?} vs --no-comments {fresh:?}\nlayers:\n{}", texts()),
            }
        }
        match fresh {
            Ok(_) => checked += 1,
            Err(_) => refused += 1,
        }
    }
    println!("layers: {checked} merges read back alike in 3 modes, {refused} refused in all");
    assert!(
        checked > cases / 4,
        "the generator makes too few valid layers"
    );
}
