//! Output that keeps what people wrote (issue 17, docs/comments.md): comments and scalar
//! spellings carried from the inputs into the YAML output. A property test writes random
//! documents in strata's layout with random spellings, comments and blank lines and expects a
//! single-layer `strata merge FILE` to give FILE back byte for byte, meaning the same data
//! (read by strata, and by PyYAML when it is installed); behaviour tests show that the winning
//! value's comments are kept and the losing value's dropped in each front-end.

use crate::util::{command, strata};
use std::fmt::Write as _;
use std::process::Command;

use crate::rng::Rng;

/// Scalars as people spell them: every one means the same to strata and to PyYAML.
const SPELLINGS: &[&str] = &[
    "plain words",
    "web-01",
    "'single quoted'",
    "\"double quoted\"",
    "\"tab\\there\"",
    "'it''s'",
    "0755",
    "0x1F",
    "1_000",
    "-3",
    "1.5",
    "~",
    "Null",
    "yes",
    "Off",
    "true",
    "2024-01-01",
    "'0755'",
    "--flag",
    "é and ✓",
];

/// Flow collections written unchanged.
const FLOWS: &[&str] = &[
    "[a, b, c]",
    "[1, 2, 3]",
    "{x: 1, y: two}",
    "[0755, yes, 'q']",
];

const COMMENTS: &[&str] = &[
    "# why this is here",
    "# TODO: revisit",
    "#no space after the hash",
    "# ünïcode note ✓",
];

struct Gen {
    rng: Rng,
    out: String,
    /// Sequences under a key are indented (`  - a`) or not (`- a`) in the whole file.
    seq_indent: bool,
    keys: usize,
}

impl Gen {
    fn pad(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// Blank lines and comment lines above an entry at `indent`.
    fn above(&mut self, indent: usize) {
        if self.rng.chance(15) {
            self.out.push('\n');
        }
        for _ in 0..self.rng.below(3).saturating_sub(1) {
            self.pad(indent);
            let c = COMMENTS[self.rng.below(COMMENTS.len())];
            self.out.push_str(c);
            self.out.push('\n');
        }
    }

    /// A comment after a value on its line, or nothing.
    fn after(&mut self) {
        if self.rng.chance(30) {
            let gap = 1 + self.rng.below(3);
            self.pad(gap);
            let c = COMMENTS[self.rng.below(COMMENTS.len())];
            self.out.push_str(c);
        }
        self.out.push('\n');
    }

    fn key(&mut self) -> String {
        self.keys += 1;
        match self.rng.below(6) {
            0 => format!("'key {}'", self.keys),
            1 => format!("k{}_{}", self.keys, self.rng.below(10)),
            _ => format!("key{}", self.keys),
        }
    }

    /// The text after `key:` or `-`: a scalar on the line, or a block below (under a key: a
    /// list item holding a collection is written on the `-` line, which the generator does
    /// for maps in `list`).
    fn value(&mut self, indent: usize, depth: usize, in_map: bool) {
        let pick = self.rng.below(if depth >= 3 || !in_map { 6 } else { 10 });
        match pick {
            0..=3 => {
                self.out.push(' ');
                let s = SPELLINGS[self.rng.below(SPELLINGS.len())];
                self.out.push_str(s);
                self.after();
            }
            4 => {
                if in_map && self.rng.chance(50) {
                    // An empty value (null).
                    self.after();
                } else {
                    self.out.push(' ');
                    self.out.push_str(FLOWS[self.rng.below(FLOWS.len())]);
                    self.after();
                }
            }
            5 if self.rng.chance(30) => {
                // A plain or quoted scalar over several lines.
                let (open, close) = [("", ""), ("\"", "\""), ("'", "'")][self.rng.below(3)];
                self.out.push(' ');
                self.out.push_str(open);
                self.out.push_str("folded words");
                for line in ["carry on", "", "after a blank line"] {
                    self.out.push('\n');
                    if !line.is_empty() {
                        self.pad(indent + 2);
                        self.out.push_str(line);
                    }
                }
                self.out.push_str(close);
                self.after();
            }
            5 => {
                let header = ["|", "|-", ">", ">-", "|+"][self.rng.below(5)];
                self.out.push(' ');
                self.out.push_str(header);
                self.after();
                // Sometimes a blank line inside (and, kept by `|+`, one at the end).
                let blank = self.rng.chance(30);
                for line in ["first line", "", "  second, indented", "third"] {
                    if line.is_empty() && !blank {
                        continue;
                    }
                    if !line.is_empty() {
                        self.pad(indent + 2);
                    }
                    self.out.push_str(line);
                    self.out.push('\n');
                }
                if header == "|+" && blank {
                    self.out.push('\n');
                }
            }
            6..=7 => {
                self.after();
                self.map(indent + 2, depth + 1);
            }
            _ => {
                self.after();
                let at = if self.seq_indent || !in_map {
                    indent + 2
                } else {
                    indent
                };
                self.list(at, depth + 1);
            }
        }
    }

    fn map(&mut self, indent: usize, depth: usize) {
        for _ in 0..1 + self.rng.below(4) {
            self.above(indent);
            self.pad(indent);
            let k = self.key();
            self.out.push_str(&k);
            self.out.push(':');
            self.value(indent, depth, true);
        }
    }

    fn list(&mut self, indent: usize, depth: usize) {
        for _ in 0..1 + self.rng.below(4) {
            self.above(indent);
            self.pad(indent);
            self.out.push('-');
            if depth < 3 && self.rng.chance(25) {
                // A map as an item: its first entry on the `-` line.
                self.out.push(' ');
                let k = self.key();
                self.out.push_str(&k);
                self.out.push(':');
                self.value(indent + 2, depth + 1, true);
                if self.rng.chance(50) {
                    self.pad(indent + 2);
                    let k = self.key();
                    self.out.push_str(&k);
                    self.out.push(':');
                    self.value(indent + 2, depth + 1, true);
                }
            } else {
                self.value(indent, depth, false);
            }
        }
    }
}

fn document(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        out: String::new(),
        seq_indent: seed % 2 == 0,
        keys: 0,
    };
    if g.rng.chance(50) {
        g.out.push_str("# A header comment.\n\n");
    }
    g.map(0, 0);
    if g.rng.chance(40) {
        g.out.push_str("# closing comment\n");
    }
    g.out
}

fn json_of(path: &std::path::Path) -> String {
    let out = command()
        .args(["merge", "--output", "json"])
        .arg(path)
        .output()
        .expect("run strata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn pyyaml_json(path: &std::path::Path) -> Option<String> {
    let script = "import json,sys,yaml\nprint(json.dumps(yaml.safe_load(open(sys.argv[1],encoding='utf-8')),sort_keys=True,default=str))";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Random documents in strata's layout come back byte for byte, and mean the same data.
#[test]
fn a_single_layer_comes_back_byte_for_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = 120;
    let mut pyyaml_checked = 0;
    for seed in 1..=cases {
        let text = document(seed);
        let input = dir.path().join(format!("in-{seed}.yaml"));
        std::fs::write(&input, &text).expect("write");
        let out = command()
            .arg("merge")
            .arg(&input)
            .output()
            .expect("run strata");
        let rendered = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "seed {seed}: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            rendered, text,
            "seed {seed}: the output differs from the input"
        );
        let output = dir.path().join(format!("out-{seed}.yaml"));
        std::fs::write(&output, &rendered).expect("write");
        assert_eq!(json_of(&input), json_of(&output), "seed {seed}");
        if let (Some(a), Some(b)) = (pyyaml_json(&input), pyyaml_json(&output)) {
            assert_eq!(a, b, "seed {seed}: PyYAML reads other data");
            pyyaml_checked += 1;
        }
    }
    if pyyaml_checked == 0 {
        assert!(
            !crate::roundtrip::python_has_pyyaml() && std::env::var_os("CI").is_none(),
            "PyYAML is installed (CI must install it) but read none of the documents"
        );
        eprintln!("comments: PyYAML not found: outputs were compared as strata reads them only");
    }
}

/// `--no-comments` gives the canonical writer's output: no comment, every scalar afresh.
#[test]
fn no_comments_writes_every_value_afresh() {
    let out = strata(&["merge", "--no-comments", "comments/merge/base.yaml"])
        .ok()
        .to_string();
    assert!(!out.contains('#'), "{out}");
    assert!(out.contains("mode: 420"), "{out}");
    let kept = strata(&["merge", "comments/merge/base.yaml"])
        .ok()
        .to_string();
    assert!(
        kept.contains("mode: 0644  # octal, as chmod reads it"),
        "{kept}"
    );
}

/// Plain merge: the winning value's comments (above and on its line) replace the losing one's.
#[test]
fn merge_keeps_the_winners_comments() {
    let run = strata(&[
        "merge",
        "comments/merge/base.yaml",
        "comments/merge/prod.yaml",
    ]);
    insta::assert_snapshot!("comments_merge", run.ok());
}

/// With --explain, strata's comments follow the users'; the output still reads as the plain one.
#[test]
fn explain_keeps_the_users_comments_and_reads_the_same() {
    let args = ["comments/merge/base.yaml", "comments/merge/prod.yaml"];
    let explained = strata(&[&["merge", "--explain"], &args[..]].concat());
    insta::assert_snapshot!("comments_merge_explain", explained.ok());
    let plain = strata(&[&["merge"], &args[..]].concat());
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    std::fs::write(&a, explained.ok()).expect("write");
    std::fs::write(&b, plain.ok()).expect("write");
    assert_eq!(json_of(&a), json_of(&b));
}

/// cloud-init: the header is written once; a part's comments go with its values.
#[test]
fn cloud_init_parts_keep_their_comments() {
    let run = strata(&[
        "cloud-init",
        "comments/cloud-init/01-base.yaml",
        "comments/cloud-init/02-web.yaml",
    ]);
    insta::assert_snapshot!("comments_cloud_init", run.ok());
}

/// Heat: an environment's comments survive where its values do.
#[test]
fn heat_environments_keep_their_comments() {
    let run = strata(&[
        "heat",
        "-e",
        "comments/heat/base-env.yaml",
        "-e",
        "comments/heat/prod-env.yaml",
    ]);
    insta::assert_snapshot!("comments_heat", run.ok());
}

/// Datum layers through merge --rules: the most specific value keeps its comment.
#[test]
fn datum_layers_keep_their_comments() {
    let run = strata(&[
        "merge",
        "--rules",
        "comments/datum/rules.yaml",
        "comments/datum/role.yaml",
        "comments/datum/node.yaml",
    ]);
    insta::assert_snapshot!("comments_datum", run.ok());
}

/// The generator's own output, for a reader of a failing case.
#[test]
fn the_generator_writes_comments_and_spellings() {
    let mut all = String::new();
    for seed in 1..=20 {
        let _ = write!(all, "{}", document(seed));
    }
    for needle in ["# ", "'", "\"", "|", "0755", "[", "\n\n"] {
        assert!(
            all.contains(needle),
            "no {needle:?} in the generated documents"
        );
    }
}

/// Spellings that cannot stand where the output puts them are written afresh (found by
/// fuzzing): a null key written as nothing (`? ` with no key), a plain scalar holding a lone
/// carriage return (a line break to a reader), a plain scalar starting with a byte-order mark,
/// a `|` block ending the text without a line break (its value has none).
/// Each output reads as the same data as the canonical one.
#[test]
fn spellings_that_cannot_stand_are_written_afresh() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: [(&str, &[u8]); 4] = [
        ("null-key", b"a: 1\n?\n: x\nb: 2\n"),
        ("lone-cr", b"a: {x: 12;34\r56 tail}\nb: {y: 2}\n"),
        ("bom", b" \xef\xbb\xbf[name]tail\n"),
        ("block-at-eof", b"a: |\n  no line break at the end"),
    ];
    for (name, bytes) in cases {
        let input = dir.path().join(format!("{name}.yaml"));
        std::fs::write(&input, bytes).expect("write");
        let kept = command().arg("merge").arg(&input).output().expect("run");
        let plain = command()
            .args(["merge", "--no-comments"])
            .arg(&input)
            .output()
            .expect("run");
        assert!(
            kept.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&kept.stderr)
        );
        let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
        std::fs::write(&a, &kept.stdout).expect("write");
        std::fs::write(&b, &plain.stdout).expect("write");
        assert_eq!(
            json_of(&a),
            json_of(&b),
            "{name}: kept output\n{}",
            String::from_utf8_lossy(&kept.stdout)
        );
    }
}

/// Deckhand: a document's comments written above its `---` stay with the document (after the
/// marker strata writes), wherever the document lands in Deckhand's order.
#[test]
fn deckhand_documents_keep_the_comments_above_their_marker() {
    let run = strata(&["deckhand", "comments/deckhand/site.yaml"]);
    insta::assert_snapshot!("comments_deckhand", run.ok());
}

/// A comment glued to a flow collection (`[3]#note`, a comment to PyYAML) stays a comment
/// when the collection is written as a block below its key (found by fuzzing: `a:#note`).
#[test]
fn a_glued_comment_stays_a_comment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    std::fs::write(&a, "a: [3]#note\nb: 1\n").expect("write");
    std::fs::write(&b, "a: [4]\n").expect("write");
    let out = command()
        .args(["merge", "--how", "dict(recurse_list)+list(append)"])
        .args([&a, &b])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("a: #note\n  - 3\n  - 4\n"), "{text}");
}

/// A fuzz finding: a whole document spelled `... x` on its `---` line was kept as written and
/// so began a line with a document end marker (the output did not load). It is written afresh.
#[test]
fn a_root_scalar_that_starts_like_a_document_marker_is_quoted() {
    let out = strata(&["merge", "comments/merge/document-marker.yaml"]);
    let text = out.ok();
    assert!(text.lines().any(|l| l == "'... then the value'"), "{text}");
}

/// Literal blocks the writer would write as they are (most) are not copied into the spelling
/// book; those it would write otherwise (a comment on the header, blank lines a clipped block
/// drops) are. Either way a single layer comes back byte for byte, and written afresh the
/// plain blocks read the same.
#[test]
fn literal_blocks_come_back_as_written() {
    let input = std::fs::read_to_string(crate::util::fixtures().join("comments/merge/blocks.yaml"))
        .expect("read fixture");
    let kept = strata(&["merge", "comments/merge/blocks.yaml"])
        .ok()
        .to_string();
    assert_eq!(kept, input);
    let fresh = strata(&["merge", "--no-comments", "comments/merge/blocks.yaml"])
        .ok()
        .to_string();
    for block in [
        "clip: |\n  one\n  two\n",
        "strip: |-\n  one\n  two\n",
        "keep: |+\n  one\n\n",
    ] {
        assert!(fresh.contains(block), "{block:?} not in\n{fresh}");
    }
    assert!(fresh.contains("commented: |\n  kept\n"), "{fresh}");
    assert!(
        fresh.contains("trailing blank lines: |\n  clipped\n"),
        "{fresh}"
    );
}
