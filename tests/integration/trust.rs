//! Output you can trust (issue 35): each reproduction of a kept spelling or comment that read
//! as other data where the writer put it, as a regression test. Every run here is also read
//! back by the harness (`readback.rs`: with strata's loader, as the data rendered, with and
//! without `--explain`); the snapshots show where each kept thing went.

use crate::util::strata;

fn both(args: &[&str]) -> String {
    let plain = strata(args).ok().to_string();
    let mut explained: Vec<&str> = args.to_vec();
    explained.insert(1, "--explain");
    let explain = strata(&explained).ok().to_string();
    format!("{plain}---- with --explain\n{explain}")
}

#[test]
fn a_plain_dash_from_a_flow_collection_is_quoted_in_block_context() {
    let d = "readback/flow-dash";
    let out = [
        both(&[
            "merge",
            &format!("{d}/map-1.yaml"),
            &format!("{d}/map-2.yaml"),
        ]),
        both(&[
            "merge",
            &format!("{d}/seq-1.yaml"),
            &format!("{d}/seq-2.yaml"),
        ]),
        both(&["merge", &format!("{d}/tagged.yaml")]),
        both(&["merge", &format!("{d}/key-colon.yaml")]),
    ];
    // The block-context `-` (a sequence entry) never stands where the string `-` was.
    for o in &out {
        assert!(
            !o.lines()
                .any(|l| l.trim_end().ends_with(": -") || l.trim_end().ends_with("- -")),
            "{o}"
        );
    }
    insta::assert_snapshot!(out.join("==== next\n"));
}

#[test]
fn comments_and_blank_lines_after_a_block_scalar_stay_out_of_it() {
    let d = "readback/after-block";
    let out = [
        both(&["merge", &format!("{d}/comment.yaml")]),
        both(&[
            "merge",
            &format!("{d}/next-entry-1.yaml"),
            &format!("{d}/next-entry-2.yaml"),
        ]),
        both(&[
            "merge",
            &format!("{d}/keep-1.yaml"),
            &format!("{d}/keep-2.yaml"),
        ]),
        both(&[
            "merge",
            &format!("{d}/empty-1.yaml"),
            &format!("{d}/empty-2.yaml"),
        ]),
    ];
    // The comments are kept, left of the block's text.
    assert!(out[0].contains("\n# note\n"), "{}", out[0]);
    assert!(out[1].contains("\n  # about f\n"), "{}", out[1]);
    assert!(out[3].contains("\n  # about d\n"), "{}", out[3]);
    insta::assert_snapshot!(out.join("==== next\n"));
}

#[test]
fn explain_comments_are_one_printable_line() {
    let out = both(&[
        "merge",
        "readback/explain/old.yaml",
        "readback/explain/new.yaml",
    ]);
    for c in out.chars() {
        assert!(
            c == '\n' || c == '\t' || !c.is_control() && !matches!(c, '\u{2028}' | '\u{2029}'),
            "{c:?} in\n{out}"
        );
    }
    assert!(out.contains("(via *k at 8:3)"), "{out}");
    assert!(out.contains("was a set at"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn yaml_1_2_output_reads_the_same_to_a_yaml_1_1_reader() {
    let out = strata(&["merge", "--yaml", "1.2", "readback/yaml12/scalars.yaml"]);
    let out = out.ok();
    // Under 1.2 these are a string, an int, a string, a float and an int; a 1.1 reader would
    // read the plain spellings as a bool, 493, a date, a string and a string.
    for kept in ["a: yes", "b: 0755", "c: 2024-01-02", "d: 1e3", "e: 0o17"] {
        assert!(!out.contains(kept), "{kept} kept plain:\n{out}");
    }
    // Under 1.1 a string 1.2 reads otherwise is quoted; a 1.1 value keeps its spelling.
    let v11 = strata(&["merge", "readback/yaml12/scalars.yaml"]);
    let v11 = v11.ok();
    assert!(v11.contains("a: yes") && v11.contains("b: 0755"), "{v11}");
    assert!(
        v11.contains("d: '1e3'") && v11.contains("e: '0o17'"),
        "{v11}"
    );
    insta::assert_snapshot!(format!("{out}---- 1.1\n{v11}"));
}

#[test]
fn cloud_init_parts_keep_a_dash_quoted() {
    let out = both(&[
        "cloud-init",
        "readback/cloud-init/part-1.yaml",
        "readback/cloud-init/part-2.yaml",
    ]);
    assert!(out.contains("gecos: '-'"), "{out}");
    insta::assert_snapshot!(out);
}
