//! `strata cloud-init --instance-data FILE`: `## template: jinja` parts (a file, a MIME
//! `text/jinja2` part, archive entries) rendered with the instance data and merged as
//! cloud-init's handler merges them (`fixtures/cloud-init/jinja/handler-expected.json`, recorded
//! from cloud-init 22.4.2's own handlers), the undefined-variable marker, a template syntax
//! error, a Python exception in a filter, and a jinja part without instance data.

use crate::util::{fixtures, strata};

const DATA: &str = "cloud-init/jinja/instance-data.json";

fn render(files: &[&str], extra: &[&str]) -> crate::util::Run {
    let mut args = vec!["cloud-init", "--instance-data", DATA];
    args.extend_from_slice(extra);
    let paths: Vec<String> = files
        .iter()
        .map(|f| format!("cloud-init/jinja/{f}"))
        .collect();
    args.extend(paths.iter().map(String::as_str));
    strata(&args)
}

/// Each recorded set of inputs gives the config cloud-init's own handlers built from it.
#[test]
fn jinja_user_data_merges_as_cloud_init_handlers_do() {
    let text = std::fs::read_to_string(fixtures().join("cloud-init/jinja/handler-expected.json"))
        .expect("handler-expected.json");
    let expected: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&text).expect("json");
    assert!(expected.len() >= 8);
    let mut failures = Vec::new();
    for (files, want) in &expected {
        let files: Vec<&str> = files.split(' ').collect();
        let run = render(&files, &["--output", "json"]);
        if run.json() != *want {
            failures.push(format!("{files:?}: {}\nwant {want}", run.stdout));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_template_file_renders_and_merges() {
    let run = render(&["base.yaml", "web.yaml"], &[]);
    assert_eq!(run.stderr, "");
    insta::assert_snapshot!("jinja_web", run.ok());
}

#[test]
fn mime_jinja_part_renders_and_one_without_the_header_is_dropped() {
    let run = render(&["user-data.mime"], &[]);
    assert!(run.ok().contains("- echo nocloud"), "{}", run.stdout);
    insta::assert_snapshot!("jinja_mime_warnings", run.stderr);
}

#[test]
fn archive_entries_render() {
    let run = render(&["archive.yaml"], &["--output", "json"]);
    assert_eq!(
        run.json(),
        serde_json::json!({"hostname": "web-7", "runcmd": ["echo plain"]})
    );
}

#[test]
fn an_undefined_variable_is_cloud_inits_marker_with_a_warning() {
    let run = render(&["undefined.yaml"], &[]);
    assert!(
        run.ok().contains("site: CI_MISSING_JINJA_VAR/site_name"),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!("jinja_undefined", run.stderr);
    let strict = render(&["undefined.yaml"], &["--strict"]);
    assert!(strict.fails(1).contains("[missing-variable]"));
    let allowed = render(
        &["undefined.yaml"],
        &["--strict", "--allow", "missing-variable"],
    );
    allowed.ok();
}

#[test]
fn a_syntax_error_drops_the_part_at_its_line() {
    let run = render(&["base.yaml", "syntax-error.yaml"], &[]);
    assert!(run.ok().contains("- echo base"));
    insta::assert_snapshot!("jinja_syntax_error", run.stderr);
    let strict = render(&["syntax-error.yaml"], &["--strict"]);
    let err = strict.fails(1);
    assert!(err.contains("TemplateSyntaxError: unexpected"), "{err}");
    assert!(
        err.contains("--> cloud-init/jinja/syntax-error.yaml:6:15"),
        "{err}"
    );
    assert!(strict.stdout.is_empty());
}

/// A Python exception in a filter (`wordwrap(0)`: textwrap's ValueError, which cloud-init's
/// handler does not catch; its `run_part` logs it and goes on): the part is dropped, the
/// others kept; strata warns at the filter.
#[test]
fn a_python_exception_in_a_filter_drops_the_part() {
    let run = render(&["base.yaml", "markup-error.yaml"], &[]);
    assert!(run.ok().contains("- echo base"), "{}", run.stdout);
    insta::assert_snapshot!("jinja_filter_exception", run.stderr);
    let strict = render(&["markup-error.yaml"], &["--strict"]);
    let err = strict.fails(1);
    assert!(
        err.contains("ValueError: invalid width 0 (must be > 0)"),
        "{err}"
    );
    assert!(
        err.contains("--> cloud-init/jinja/markup-error.yaml:4:26"),
        "{err}"
    );
}

#[test]
fn a_hyphenated_name_gets_cloud_inits_subtraction_hint() {
    let run = render(&["hyphen.yaml"], &[]);
    assert!(
        run.stderr.contains(
            "hyphen.yaml:3:10: TypeError: Undefined jinja variable: \"availability-zone\". Jinja \
             tried subtraction. Perhaps you meant \"availability_zone\"?"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_template_rendering_a_script_is_a_note() {
    let run = render(&["base.yaml", "script.sh"], &["--strict"]);
    run.ok();
    assert!(run.stderr.contains("[script-part]"), "{}", run.stderr);
}

#[test]
fn without_instance_data_a_jinja_part_is_a_warning_naming_the_option() {
    let run = strata(&["cloud-init", "cloud-init/jinja/undefined.yaml"]);
    assert!(
        run.stderr.contains(
            "warning: cloud-init/jinja/undefined.yaml:1:1: Jinja template not rendered (give \
             --instance-data FILE to render it)"
        ),
        "{}",
        run.stderr
    );
    let run = strata(&["cloud-init", "cloud-init/jinja/user-data.mime"]);
    assert!(
        run.stderr
            .contains("part 2: Jinja template not rendered (give --instance-data FILE"),
        "{}",
        run.stderr
    );
    let strict = strata(&["cloud-init", "--strict", "cloud-init/jinja/undefined.yaml"]);
    strict.fails(1);
}

#[test]
fn bad_instance_data_is_an_error_at_its_position() {
    let run = strata(&[
        "cloud-init",
        "--instance-data",
        "cloud-init/jinja/bad-instance-data.json",
        "cloud-init/jinja/web.yaml",
    ]);
    let err = run.fails(1);
    assert!(
        err.contains("cloud-init/jinja/bad-instance-data.json:2:13"),
        "{err}"
    );
    assert!(run.stdout.is_empty());
    let run = strata(&[
        "cloud-init",
        "--instance-data",
        "cloud-init/jinja/no-such.json",
        "cloud-init/jinja/web.yaml",
    ]);
    assert!(run.fails(1).contains("no-such.json"));
    let run = strata(&[
        "cloud-init",
        "--instance-data",
        "cloud-init/jinja/base.yaml",
        "cloud-init/jinja/web.yaml",
    ]);
    assert!(run.fails(1).contains("base.yaml:1:1"), "{}", run.stderr);
}

/// A template whose output lines are its own lines (no line-eating block tags) points at the
/// template's lines; one whose lines moved points into the rendered text.
#[test]
fn explain_points_at_the_template() {
    let run = render(&["archive.yaml"], &["--explain"]);
    assert!(
        run.ok()
            .contains("hostname: web-7  # cloud-init/jinja/archive.yaml:6:15 added"),
        "{}",
        run.stdout
    );
    let run = render(&["undefined.yaml"], &["--explain"]);
    assert!(
        run.ok().contains("# cloud-init/jinja/undefined.yaml:3:11"),
        "{}",
        run.stdout
    );
    let run = render(&["web.yaml"], &["--explain"]);
    assert!(
        run.ok()
            .contains("# cloud-init/jinja/web.yaml (jinja-rendered):7:12"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_template_that_never_ends_is_a_limit_error() {
    let run = render(&["loop.yaml"], &[]);
    let err = run.fails(1);
    assert!(err.contains("more than 20000000 template steps"), "{err}");
    assert!(err.contains("--> cloud-init/jinja/loop.yaml:3:"), "{err}");
    assert!(run.stdout.is_empty());
}
