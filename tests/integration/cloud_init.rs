//! `strata cloud-init` behaviour tests: every merger option and type mismatch of cloud-init's
//! merging (fixtures/cloud-init/semantics, one folder per rule, expected values written from
//! reference/cloud-init.md), MIME and archive user-data, and rendering.

use crate::util::{fixtures, strata, strata_stdin};

fn sorted_inputs(dir: &std::path::Path) -> Vec<String> {
    let mut inputs: Vec<String> = std::fs::read_dir(dir)
        .expect("case dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.json")
        .collect();
    inputs.sort();
    inputs
}

/// Each folder: parts `NN.yaml` in order and `expected.json`, the result cloud-init gives.
#[test]
fn semantics_cases_match_cloud_init() {
    let root = fixtures().join("cloud-init/semantics");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("semantics")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        count += 1;
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut args = vec!["cloud-init".to_string(), "--output".into(), "json".into()];
        args.extend(
            sorted_inputs(&dir)
                .into_iter()
                .map(|f| format!("cloud-init/semantics/{name}/{f}")),
        );
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = strata(&argv);
        let want: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
        )
        .expect("json");
        let got: Option<serde_json::Value> = serde_json::from_str(&run.stdout).ok();
        if run.code != 0 || got.as_ref() != Some(&want) {
            failures.push(format!(
                "{name}: exit {}\n got: {}\nwant: {want}\n{}",
                run.code,
                run.stdout.trim(),
                run.stderr
            ));
        }
    }
    assert!(count >= 60, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn dropped_parts_are_named_with_position_and_reason() {
    let run = strata(&[
        "cloud-init",
        "cloud-init/semantics/s4-old-str-new-mapping-str-append-typeerror/01.yaml",
        "cloud-init/semantics/s4-old-str-new-mapping-str-append-typeerror/02.yaml",
    ]);
    run.ok();
    insta::assert_snapshot!("dropped_part_typeerror", run.stderr);
    let run = strata(&[
        "cloud-init",
        "cloud-init/semantics/s7-malformed-string-rejected/01.yaml",
        "cloud-init/semantics/s7-malformed-string-rejected/02.yaml",
    ]);
    insta::assert_snapshot!("dropped_part_malformed", run.stderr);
}

#[test]
fn strict_turns_a_dropped_part_into_an_error() {
    let run = strata(&[
        "cloud-init",
        "--strict",
        "cloud-init/semantics/s7-malformed-string-rejected/01.yaml",
        "cloud-init/semantics/s7-malformed-string-rejected/02.yaml",
    ]);
    let err = run.fails(1);
    assert!(err.contains("02.yaml:2:12"), "{err}");
    assert!(run.stdout.is_empty());
}

#[test]
fn readme_example_renders() {
    let run = strata(&[
        "cloud-init",
        "cloud-init/runcmd/01-base.yaml",
        "cloud-init/runcmd/02-extra.yaml",
    ]);
    insta::assert_snapshot!("runcmd", run.ok());
}

#[test]
fn stdin_is_a_part() {
    let run = strata_stdin(
        &["cloud-init", "cloud-init/runcmd/01-base.yaml", "-"],
        Some(
            b"#cloud-config\nmerge_how: 'dict(recurse_list)+list(append)'\nruncmd: [from-stdin]\n",
        ),
    );
    assert!(run.ok().contains("- from-stdin"), "{}", run.stdout);
}

#[test]
fn mime_multipart_user_data() {
    for file in [
        "mime/multipart.mime",
        "mime/nested-qp.mime",
        "mime/gzip-part.mime",
        "mime/header-case.mime",
    ] {
        let run = strata(&["cloud-init", &format!("cloud-init/{file}")]);
        insta::assert_snapshot!(
            format!(
                "mime_{}",
                file.trim_start_matches("mime/").replace('.', "_")
            ),
            format!("{}\n--- stderr\n{}", run.ok(), run.stderr)
        );
    }
}

#[test]
fn merge_type_header_lookup_is_case_sensitive_and_first_wins() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/mime/header-case.mime",
    ]);
    // part 2: lower-case merge-type ignored → default replace; part 3: empty Merge-Type falls
    // through to X-Merge-Type (append); part 4: 'merge-type' line before 'Merge-Type' → its value.
    assert_eq!(run.json(), serde_json::json!({"a": [2, 3, 4], "b": [1, 5]}));
}

#[test]
fn cloud_config_archive() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/archive/user-data.yaml",
    ]);
    assert_eq!(
        run.json(),
        serde_json::json!({"packages": ["nginx", "curl", "jq"], "runcmd": ["echo one"], "write_files": [{"path": "/etc/motd", "content": "hello\n"}]})
    );
    insta::assert_snapshot!("archive_stderr", run.stderr);
}

#[test]
fn gzip_user_data_whole() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/gzip/user-data.gz",
    ]);
    assert_eq!(
        run.json(),
        serde_json::json!({"hostname": "zipped", "packages": ["htop"]})
    );
}

#[test]
fn jsonp_part_patches_the_accumulated_config() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/jsonp/01-base.yaml",
        "cloud-init/jsonp/02-patch.txt",
    ]);
    assert_eq!(
        run.json(),
        serde_json::json!({"packages": ["vim", "git"], "timezone": "UTC"})
    );
}

#[test]
fn non_cloud_config_parts_are_skipped_with_a_warning() {
    let run = strata(&[
        "cloud-init",
        "cloud-init/runcmd/01-base.yaml",
        "cloud-init/skipped/script.sh",
        "cloud-init/skipped/include.txt",
    ]);
    run.ok();
    insta::assert_snapshot!("skipped_parts", run.stderr);
}

#[test]
fn output_is_yaml_11_safe() {
    let run = strata(&["cloud-init", "--no-comments", "cloud-init/quoting/01.yaml"]);
    insta::assert_snapshot!("quoting", run.ok());
}

/// cloud-init's documented `write_files` form: `content: !!binary |` (gzip'd, base64). The
/// bytes are kept through the merge and written back as `!!binary`.
#[test]
fn binary_content_is_kept_as_binary() {
    let run = strata(&[
        "cloud-init",
        "cloud-init/binary/01-base.yaml",
        "cloud-init/binary/02-motd.yaml",
    ]);
    insta::assert_snapshot!("binary_write_files", run.ok());
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let json = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/binary/02-motd.yaml",
    ]);
    assert_eq!(
        json.json()["write_files"][0]["content"],
        "aGVsbG8sIHdvcmxkCg=="
    );
    assert!(
        json.stderr
            .contains("binary data (!!binary) is written to JSON as a base64 string"),
        "{}",
        json.stderr
    );
    let strict = strata(&[
        "cloud-init",
        "--strict",
        "--output",
        "json",
        "cloud-init/binary/02-motd.yaml",
    ]);
    strict.fails(1);
}

/// cloud-init's loader adds `!!python/unicode` to PyYAML's safe loader; plain `merge` does not.
#[test]
fn python_unicode_is_a_string_for_cloud_init_only() {
    let text = b"#cloud-config\nhostname: !!python/unicode web01\n";
    let run = strata_stdin(&["cloud-init", "-"], Some(text));
    assert!(run.ok().contains("hostname: web01"), "{}", run.stdout);
    let merge = strata_stdin(&["merge", "-"], Some(text));
    assert!(
        merge.fails(1).contains("could not determine a constructor"),
        "{}",
        merge.stderr
    );
}

/// Issue 16: a part's merge_how with a misspelt option, or without a dict merger, does what
/// cloud-init does (ignores the option; keeps the earlier mapping) and says so at the line.
#[test]
fn merge_how_typos_and_missing_dict_mergers_are_warned_about() {
    let run = strata(&[
        "cloud-init",
        "cloud-init/surprises/01-base.yaml",
        "cloud-init/surprises/02-typo.yaml",
        "cloud-init/surprises/03-no-dict.yaml",
    ]);
    assert_eq!(run.ok(), "#cloud-config\npackages: [nginx]\nruncmd: [a]\n");
    insta::assert_snapshot!("cloud_init_merge_how_surprises", run.stderr);
}

/// Issue 16: a MIME part whose body stands in the file as it is gets the file's own
/// positions (an error's line, column and snippet are those an editor shows); a base64 part
/// keeps part-relative positions and says it was decoded.
#[test]
fn mime_positions_are_the_files_own_unless_the_part_was_decoded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mime = "Content-Type: multipart/mixed; boundary=\"XX\"\nMIME-Version: 1.0\n\n--XX\nContent-Type: text/cloud-config\nContent-Transfer-Encoding: 7bit\n\n#cloud-config\npackages: [a]\nbad: [1\n--XX--\n";
    std::fs::write(dir.path().join("ud.mime"), mime).expect("write");
    let out = crate::util::command()
        .current_dir(dir.path())
        .args(["cloud-init", "ud.mime"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    // cloud-init drops the part (a warning); the warning points into the file as it is.
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: ud.mime:10:6:"),
        "placed in the file: {err}"
    );
    assert!(
        err.contains("10 | bad: [1"),
        "the snippet is the file's line 10: {err}"
    );
    assert!(err.contains("the input ends at ud.mime:10:8"), "{err}");
    let b64 = "Content-Type: multipart/mixed; boundary=\"XX\"\nMIME-Version: 1.0\n\n--XX\nContent-Type: text/cloud-config\nContent-Transfer-Encoding: base64\n\nI2Nsb3VkLWNvbmZpZwpwYWNrYWdlczogW2FdCg==\n--XX--\n";
    std::fs::write(dir.path().join("b64.mime"), b64).expect("write");
    let out = crate::util::command()
        .current_dir(dir.path())
        .args(["cloud-init", "--explain", "b64.mime"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("- a  # b64.mime, part 1 (base64-decoded):2:12"),
        "{text}"
    );
}

/// Issue 16: an archive entry written as a literal block is positioned in the file (its lines
/// after the block's indentation); a quoted entry keeps entry-relative positions.
#[test]
fn archive_literal_blocks_are_positioned_in_the_file() {
    let run = strata(&[
        "cloud-init",
        "--explain",
        "cloud-init/archive/user-data.yaml",
    ]);
    let out = run.ok();
    assert!(
        out.contains("- nginx               # cloud-init/archive/user-data.yaml:4:16 "),
        "{out}"
    );
    assert!(
        out.contains("- jq                  # cloud-init/archive/user-data.yaml, entry 3:3:12 "),
        "{out}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("a.yaml"),
        "#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    packages: [a\n",
    )
    .expect("write");
    let out = crate::util::command()
        .current_dir(dir.path())
        .args(["cloud-init", "a.yaml"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: a.yaml:5:15:"), "{err}");
    assert!(
        err.contains("5 |     packages: [a\n  |               ^"),
        "the file's line and caret: {err}"
    );
}

/// A part whose `<<` value is an `!!omap` loads (cloud-init's `yaml.safe_load` merges it), so
/// it is kept, not dropped.
#[test]
fn a_part_merging_an_omap_is_kept() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/merge-keys/01-base.yaml",
        "cloud-init/merge-keys/02-omap-merge.yaml",
    ]);
    let v = run.json();
    assert_eq!(v["hostname"], "merged-host");
    assert_eq!(v["timezone"], "UTC");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

/// An `!!omap` / `!!pairs` item written as an alias of a one-pair mapping (or set) is that
/// pair, as PyYAML's constructor takes the anchored mapping node (found by
/// scripts/diff-cloud-init.py: strata dropped such parts); an alias of a two-pair mapping is
/// refused with PyYAML's message, naming `pairs` for a `!!pairs` sequence.
#[test]
fn an_omap_item_may_be_an_alias() {
    let run = strata(&[
        "cloud-init",
        "--output",
        "json",
        "cloud-init/omap-alias/01-defaults.yaml",
        "cloud-init/omap-alias/02-pairs.yaml",
        "cloud-init/omap-alias/03-two-pairs.yaml",
    ]);
    let v = run.json();
    assert_eq!(
        v["ntp_order"],
        serde_json::json!([
            ["server", "ntp1.example.org"],
            ["fallback", "ntp2.example.org"],
            ["debug", null]
        ])
    );
    assert_eq!(v["extra"], serde_json::json!(["debug"]));
    assert!(v.get("bad").is_none(), "{v}");
    assert!(
        run.stderr.contains(
            "warning: cloud-init/omap-alias/03-two-pairs.yaml:5:5: this part was rejected by cloud-init and not merged: invalid YAML: while constructing pairs: expected a single mapping item, but found 2 items"
        ),
        "{}",
        run.stderr
    );
    let yaml = strata(&["cloud-init", "cloud-init/omap-alias/01-defaults.yaml"]);
    assert!(
        yaml.ok().contains(
            "ntp_order: !!omap\n  - server: ntp1.example.org\n  - fallback: ntp2.example.org\n"
        ),
        "{}",
        yaml.stdout
    );
}
