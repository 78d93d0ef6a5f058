//! `--jobs` (issue 19): inputs are parsed in parallel, yet which error is reported, the order of
//! warnings and the output are those of the sequential run. (Every render command of the other
//! tests is also re-run with `--jobs 1` and `--jobs 4` by `util::strata`.)

use crate::util::{command, Run};
use std::fmt::Write as _;

/// `strata ARGS` in `fixtures/`, with even small inputs parsed on threads.
fn strata(args: &[&str]) -> Run {
    let out = command()
        .args(args)
        .env("STRATA_TEST_PARALLEL_MIN", "0")
        .output()
        .expect("run");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// stdout, stderr and exit code of `strata ARGS` run in `dir` (small inputs on threads too).
fn run_in(dir: &std::path::Path, args: &[String]) -> (Option<i32>, String, String) {
    let out = command()
        .current_dir(dir)
        .args(args)
        .env("STRATA_TEST_PARALLEL_MIN", "0")
        .output()
        .expect("run");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_first_failing_input_is_reported_whatever_the_jobs() {
    for order in [
        [
            "bad/truncated.yaml",
            "bad/tab-indent.yaml",
            "bad/binary.bin",
        ],
        [
            "bad/tab-indent.yaml",
            "bad/truncated.yaml",
            "bad/binary.bin",
        ],
        [
            "bad/binary.bin",
            "bad/truncated.yaml",
            "bad/tab-indent.yaml",
        ],
    ] {
        for jobs in ["1", "4"] {
            let mut args = vec!["merge", "--jobs", jobs, "merge/base.yaml"];
            args.extend(order);
            let err = strata(&args).fails(1).to_string();
            let first = err.lines().next().unwrap_or_default();
            let named = order[0];
            assert!(
                err.contains(&format!("{named}:")) || err.contains(&format!("{named} ")),
                "--jobs {jobs}, {order:?}: the error should name {named}:\n{err}"
            );
            for later in &order[1..] {
                assert!(
                    !first.contains(later),
                    "--jobs {jobs}: a later input is reported:\n{err}"
                );
            }
        }
    }
}

#[test]
fn a_later_input_that_is_not_text_does_not_hide_an_earlier_parse_error() {
    // Texts are checked (UTF-8, binary) in order before the parallel parse; the sequential
    // run meets truncated.yaml's parse error first, and so must every run: it comes first.
    for jobs in ["1", "4"] {
        for later in [
            "bad/invalid-utf8.yaml",
            "bad/nul-byte.yaml",
            "bad/utf16-no-bom.yaml",
        ] {
            let err = strata(&["merge", "--jobs", jobs, "bad/truncated.yaml", later])
                .fails(1)
                .to_string();
            // The first error is truncated.yaml's; the later input's follows it (every input
            // that fails is reported, issue 16).
            let first = err.find(later).unwrap_or(err.len());
            assert!(
                err[..first].contains("bad/truncated.yaml:"),
                "{later}: {err}"
            );
        }
    }
}

/// Many parts, each with a warning and its own merge rule, more than one batch of loading
/// ahead (the input stage parses 256 parts at a time), JSON patches between them (not parsed
/// ahead: each patches what the parts before it made): the same output, warnings and trace.
#[test]
fn many_cloud_init_parts_render_the_same_with_one_or_four_jobs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut names = Vec::new();
    for i in 0..300 {
        let mut text = String::from("#cloud-config\n");
        let how = if i % 3 == 0 {
            "list(append)+dict(recurse_array)"
        } else {
            "list(prepend)+dict(no_replace,recurse_list)"
        };
        writeln!(text, "merge_how: '{how}'").expect("write");
        writeln!(text, "runcmd: [step-{i}]").expect("write");
        writeln!(
            text,
            "write_files:\n  - path: /etc/f{}\n    content: |\n      line {i}",
            i % 7
        )
        .expect("write");
        if i % 50 == 7 {
            // Unknown merger option: a warning; a broken part: dropped with a warning.
            text = "#cloud-config\nmerge_how: 'list(apend)'\nbad: [\n".to_string();
        }
        if i % 40 == 21 {
            // The patch sees every part before it, and none after.
            text = format!(
                "#cloud-config-jsonp\n[{{\"op\": \"add\", \"path\": \"/seen-{i}\", \"value\": \"\"}},\n \
                 {{\"op\": \"copy\", \"from\": \"/runcmd/0\", \"path\": \"/seen-{i}\"}}]\n"
            );
        }
        let name = format!("part-{i:03}.yaml");
        std::fs::write(dir.path().join(&name), text).expect("write part");
        names.push(name);
    }
    for extra in [vec![], vec!["--explain".to_string()]] {
        let mut runs = Vec::new();
        for jobs in ["1", "4"] {
            let mut args = vec!["cloud-init".to_string(), format!("--jobs={jobs}")];
            args.extend(extra.iter().cloned());
            args.extend(names.iter().cloned());
            runs.push(run_in(dir.path(), &args));
        }
        assert_eq!(runs[0].0, Some(0), "{}", runs[0].2);
        assert!(runs[0].1.contains("step-299"), "the last part is merged");
        // runcmd[0] when the patch at 261 runs: the last part before it that prepends.
        assert!(runs[0].1.contains("seen-261: step-260"), "{}", runs[0].1);
        assert!(runs[0].2.contains("warning:"), "the broken parts warn");
        assert_eq!(runs[0], runs[1], "--jobs 1 and --jobs 4 differ");
    }
}

#[test]
fn jobs_must_be_a_positive_number() {
    for bad in ["0", "many"] {
        let err = strata(&["merge", "--jobs", bad, "merge/base.yaml"])
            .fails(2)
            .to_string();
        assert!(err.contains("--jobs"), "{err}");
    }
}

/// A big document's top-level entries are written on threads; the bytes are the one-thread
/// writer's, also where one value (and so its comments) stands in several entries through an
/// alias: a comment is written once, where the one-thread writer writes it.
#[test]
fn entries_written_on_threads_keep_the_one_thread_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "# about the file\n\
        base: &b  # the anchor's line\n  # above x\n  x: 1  # x's comment\n  y: [1, 2]\n\
        one: *b  # first alias\n\
        # above two\n\
        two:\n  inner: *b\n  z: 0x1F  # spelled in hex\n\
        three: plain  # three's comment\n\
        four:\n  - *b\n  - 'quoted'  # last\n# closing comment\n";
    // Enough entries for threads without lowering the threshold (`STRATA_TEST_PARALLEL_MIN`
    // is 0 here, which splits any root of two entries).
    let mut text = text.to_string();
    for i in 0..80 {
        text.push_str(&format!("k{i}:  # entry {i}\n  v: *b\n  n: {i}.50\n"));
    }
    std::fs::write(dir.path().join("doc.yaml"), &text).expect("write");
    std::fs::write(dir.path().join("top.yaml"), "two:\n  z: 2  # from top\n").expect("write");
    for extra in [&[][..], &["--explain"][..], &["--no-comments"][..]] {
        let mut runs = Vec::new();
        for jobs in ["1", "4"] {
            let mut args: Vec<String> = vec!["merge".into(), "--jobs".into(), jobs.into()];
            args.extend(extra.iter().map(|s| s.to_string()));
            args.extend(["doc.yaml".to_string(), "top.yaml".to_string()]);
            runs.push(run_in(dir.path(), &args));
        }
        assert_eq!(runs[0], runs[1], "{extra:?}");
        assert_eq!(runs[0].0, Some(0), "{extra:?}: {}", runs[0].2);
    }
    let (_, out, _) = run_in(dir.path(), &["merge".into(), "doc.yaml".into()]);
    assert_eq!(out.matches("x's comment").count(), 1, "{out}");
}
