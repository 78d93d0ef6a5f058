//! `strata lookup --hiera` reads YAML as Puppet does, with Ruby's Psych (issue 37), on
//! `fixtures/hiera/psych/`: sexagesimals as `a·3600 + b·60`, `-.5`, `1,000`, `yEs`, `0o755`,
//! Symbol keys, `<<` merged where it stands, a tab after `key:`; and what Puppet refuses,
//! each with file:line:col and what Puppet does — a Symbol value or a Boolean key (only the
//! lookup that reaches it), a date or an `Integer()` Psych cannot build (every lookup through
//! the file), a `--facts` file that overrides some of hostname / domain / fqdn / clientcert.
//! The answers are Puppet 7.23's (`fixtures/hiera/puppet` records more); a data file with no
//! hash (empty, only a comment, `---` alone) is read as empty with Puppet's warning (`puppet
//! lookup` prints `Warning: .../blank.yaml: file does not contain a valid yaml hash`, checked
//! by hand: the oracle script records no warnings).

use crate::util::{strata, Run};

fn show(run: &Run) -> String {
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    format!(
        "exit {}\n--- stdout\n{}\n--- stderr\n{}",
        run.code,
        run.stdout.trim_end(),
        run.stderr.trim_end()
    )
}

fn lookup(config: &str, facts: &str, extra: &[&str]) -> Run {
    let config = format!("hiera/psych/{config}.yaml");
    let facts = format!("hiera/psych/{facts}.yaml");
    let mut args = vec!["lookup", "--hiera", &config, "--facts", &facts];
    args.extend(extra);
    strata(&args)
}

#[test]
fn values_as_psych_types_them() {
    let mut out = String::new();
    for key in ["backup_window", "ntp::servers", "cron", "tuning", "service"] {
        let run = lookup("hiera", "facts", &[key, "--output", "json"]);
        assert_eq!(run.code, 0, "{key}: {}", run.stderr);
        out.push_str(&format!("== {key}\n{}\n\n", show(&run)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn what_puppet_refuses_fails_with_its_words() {
    let mut out = String::new();
    for (config, facts, key) in [
        ("hiera", "facts", "ensure"),
        ("hiera", "facts", "cert"),
        ("bad-date", "facts", "owner"),
        ("bad-int", "facts", "mask"),
        ("hiera", "facts-partial", "tuning"),
    ] {
        let run = lookup(config, facts, &[key]);
        assert_eq!(run.code, 1, "{config} {key}: {}", run.stderr);
        out.push_str(&format!("== {config} {facts} {key}\n{}\n\n", show(&run)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn a_refused_value_fails_only_the_lookups_that_reach_it() {
    // `ensure` (a Symbol) and `cert` (a Boolean key) sit in common.yaml beside `tuning`.
    let run = lookup("hiera", "facts", &["tuning.enabled", "--output", "json"]);
    assert_eq!(run.ok().trim(), "true");
    // The whole document reaches every key.
    let run = lookup("hiera", "facts", &[]);
    assert!(
        run.fails(1).contains("Runtime[ruby, 'Symbol']"),
        "{}",
        run.stderr
    );
}

#[test]
fn yaml_output_keeps_what_psych_reads() {
    let run = lookup("hiera", "facts", &["service"]);
    insta::assert_snapshot!(show(&run));
}

#[test]
fn a_data_file_without_a_hash_is_empty_with_puppets_warning() {
    let run = lookup("empty", "facts", &["tuning.ratio", "--output", "json"]);
    insta::assert_snapshot!(show(&run));
}

/// Rendered Hiera data is read by Puppet with Psych: a string that PyYAML reads as a string but
/// Psych would type (`yEs`, `nULL`, `1,000`, `:x`, `0:30`, `2024-1-2`, `.iNf`) is quoted,
/// whether it was interpolated, kept from its input or written afresh (`--no-comments`), and a
/// `<<` key is tagged `!!str` (Psych merges at a quoted one too). The rendered YAML, used as the
/// data file of a second lookup (read with the Psych dialect), gives the same values as the
/// first lookup's JSON.
#[test]
fn rendered_data_reads_back_the_same_in_psych() {
    let args = [
        "lookup",
        "--hiera",
        "hiera/quoting/hiera.yaml",
        "--facts",
        "hiera/quoting/facts.yaml",
    ];
    let want = strata(&[&args[..], &["--output", "json"]].concat()).json();
    assert_eq!(want["labels"]["word"], "yEs", "{want}");
    for extra in [&[][..], &["--no-comments"][..]] {
        let run = strata(&[&args[..], extra].concat());
        let text = run.ok();
        for quoted in [
            "'yEs'",
            "'nULL'",
            "'1,000'",
            "':x'",
            "'0:30'",
            "'2024-1-2'",
            "'.iNf'",
            "!!str <<:",
        ] {
            assert!(text.contains(quoted), "{extra:?}: {quoted} in\n{text}");
        }
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(tmp.path().join("data")).expect("mkdir");
        std::fs::write(tmp.path().join("data/common.yaml"), text).expect("write");
        std::fs::copy(
            crate::util::fixtures().join("hiera/quoting/hiera.yaml"),
            tmp.path().join("hiera.yaml"),
        )
        .expect("copy");
        let back = crate::util::command()
            .current_dir(tmp.path())
            .args(["lookup", "--hiera", "hiera.yaml", "--output", "json"])
            .output()
            .expect("run");
        assert!(
            back.status.success(),
            "{}",
            String::from_utf8_lossy(&back.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&back.stdout).expect("json");
        assert_eq!(got, want, "{extra:?}: read back from\n{text}");
    }
}
