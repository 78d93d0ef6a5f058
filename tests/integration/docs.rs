//! `strata completions SHELL` and `strata man`: every shell's script is generated and names
//! every subcommand; bash (and zsh / fish when installed) accept their script; the man page
//! has a part for each subcommand and renders with `man -l` without a warning where `man` is
//! installed.

use crate::util::strata;
use std::process::{Command, Stdio};

const SUBCOMMANDS: &[&str] = &["cloud-init", "heat", "lookup", "deckhand", "merge"];

/// Whether `program` can be run here.
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// `shell -n FILE` (syntax check only) accepts the script.
fn syntax_ok(shell: &str, script: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("strata.completion");
    std::fs::write(&file, script).expect("write script");
    let out = Command::new(shell)
        .arg("-n")
        .arg(&file)
        .output()
        .expect("run shell");
    assert!(
        out.status.success(),
        "{shell} -n refused the script: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = strata(&["completions", shell]);
        let script = run.ok();
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} script lacks {sub}");
        }
        assert!(script.contains("explain"), "{shell} script lacks --explain");
        if matches!(shell, "bash" | "zsh" | "fish") && installed(shell) {
            syntax_ok(shell, script);
        } else if shell != "bash" {
            eprintln!("docs: {shell} not installed, its script is checked by content only");
        } else {
            panic!("bash is needed to check the bash completion script");
        }
    }
    strata(&["completions", "tcsh"]).fails(2);
}

#[test]
fn man_page_covers_every_subcommand_and_renders_cleanly() {
    let run = strata(&["man"]);
    let page = run.ok();
    assert!(
        page.contains("\n.TH strata 1 "),
        "{}",
        &page[..page.len().min(200)]
    );
    for sub in SUBCOMMANDS {
        let heading = format!(".SH \"STRATA {}\"", sub.to_uppercase());
        assert!(page.contains(&heading), "man page lacks {heading}");
    }
    assert!(
        page.contains("\\-\\-check\\-schemas"),
        "deckhand's options are listed"
    );
    if !installed("man") {
        eprintln!("docs: man not installed, the page is checked by content only");
        return;
    }
    let plain = man_text(page);
    assert!(plain.contains("STRATA DECKHAND"), "{plain}");
}

/// The page as `man -l` shows it at 80 columns in a UTF-8 locale (where groff would turn a
/// plain `-` or `'` into typographic characters), without a warning; overstrikes removed.
fn man_text(page: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("strata.1");
    std::fs::write(&file, page).expect("write page");
    let out = Command::new("man")
        .args(["--warnings", "-l"])
        .arg(&file)
        .env("MANWIDTH", "80")
        .env("LANG", "C.UTF-8")
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("run man");
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && warnings.trim().is_empty(),
        "man -l: {warnings}"
    );
    // man's terminal output bolds by overstriking ("S\x08S"): keep the last of each pair.
    let text = String::from_utf8_lossy(&out.stdout);
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\x08' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Every environment variable the binary reads (`var("NAME")`, `var_os("NAME")`,
/// colour's `set("NAME")`, clap's `env = "NAME"`), but test hooks.
fn variables_read() -> Vec<String> {
    let mut names = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for open in ["var(\"", "var_os(\"", "set(\"", "env = \""] {
                for (at, _) in text.match_indices(open) {
                    let name: String = text[at + open.len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if name.len() > 1 && !name.contains("TEST") && !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
    }
    names
}

/// The man page lists no page that does not exist (`strata-cloud-init(1)`), has a section
/// for every command (`ardana read` / `validate` / `write` too), no hidden argument in a
/// synopsis (heat's `[STRAY]`), and EXIT STATUS, ENVIRONMENT (every variable strata reads)
/// and EXAMPLES that paste as typed: ASCII `-` and `'`, continued lines (issue 36).
#[test]
fn man_page_has_exit_status_environment_and_examples() {
    let run = strata(&["man"]);
    let page = run.ok();
    for sub in ["ARDANA READ", "ARDANA VALIDATE", "ARDANA WRITE"] {
        let heading = format!(".SH \"STRATA {sub}\"");
        assert!(page.contains(&heading), "man page lacks {heading}");
    }
    assert!(
        !page.contains("STRAY"),
        "a hidden argument is in a synopsis"
    );
    for section in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES"] {
        assert!(page.contains(section), "man page lacks {section}");
    }
    let exit_status = page
        .split(".SH \"EXIT STATUS\"")
        .nth(1)
        .and_then(|s| s.split(".SH").next())
        .unwrap_or_default();
    for code in ["0", "1", "2", "3"] {
        assert!(
            exit_status.contains(&format!(".TP\n\\fB{code}\\fR")),
            "EXIT STATUS lacks {code}: {exit_status}"
        );
    }
    let environment = page
        .split(".SH ENVIRONMENT")
        .nth(1)
        .and_then(|s| s.split(".SH").next())
        .unwrap_or_default();
    let names = variables_read();
    assert!(names.contains(&"STRATA_CACHE_DIR".to_string()), "{names:?}");
    for name in &names {
        assert!(
            environment.contains(name.as_str()),
            "ENVIRONMENT does not say what {name} does"
        );
    }
    if !installed("man") {
        eprintln!("docs: man not installed, the page is checked by content only");
        return;
    }
    let plain = man_text(page);
    for (at, _) in plain.match_indices("(1)") {
        assert!(
            plain[..at].ends_with("strata"),
            "the page names a page that does not exist: {}",
            &plain[at.saturating_sub(30)..at + 3]
        );
    }
    let examples = plain.split("\nEXAMPLES\n").nth(1).expect("EXAMPLES");
    assert!(
        examples.contains("strata merge --how 'dict(no_replace,recurse_list)+list(append)' \\"),
        "{examples}"
    );
    for line in examples.lines().take_while(|l| !l.starts_with("VERSION")) {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
        assert!(
            !line.contains(['\u{2010}', '\u{2019}', '\u{2212}']),
            "a typographic character would not paste: {line}"
        );
    }
}

/// `--version` names the git revision when built from a checkout (issue 16).
#[test]
fn version_names_the_git_revision_in_a_checkout() {
    let run = crate::util::strata(&["--version"]);
    let out = run.ok();
    assert!(
        out.starts_with(concat!("strata ", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.git")).exists() {
        let rev = out
            .split_once('(')
            .map(|(_, r)| {
                r.trim_end()
                    .trim_end_matches(')')
                    .trim_end_matches("-dirty")
            })
            .unwrap_or("");
        assert!(
            rev.len() >= 7 && rev.chars().all(|c| c.is_ascii_hexdigit()),
            "no revision in {out}"
        );
    }
}

/// Every subcommand with examples in its `--help`.
const WITH_EXAMPLES: &[&str] = &[
    "cloud-init",
    "heat",
    "lookup",
    "deckhand",
    "ardana",
    "ardana read",
    "ardana validate",
    "ardana write",
    "merge",
    "diff",
];

/// The example lines of `strata SUB --help` run with `COLUMNS` (clap's width off a terminal).
fn help_example_lines(sub: &str, columns: usize) -> Vec<String> {
    let bin = assert_cmd::cargo::cargo_bin("strata");
    let out = Command::new(&bin)
        .args(sub.split(' '))
        .arg("--help")
        .env("COLUMNS", columns.to_string())
        .output()
        .expect("help");
    assert!(out.status.success(), "strata {sub} --help");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Examples"))
        .skip(1)
        .map(str::to_string)
        .collect();
    assert!(!lines.is_empty(), "strata {sub} --help has no examples");
    lines
}

/// The commands of example lines: continuation lines (` \`) joined, comments left out.
fn joined(lines: &[String]) -> Vec<String> {
    let mut commands: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        let l = line.trim();
        if l.is_empty() || (!open && l.starts_with('#')) {
            continue;
        }
        let (text, continues) = match l.strip_suffix(" \\") {
            Some(t) => (t, true),
            None => (l, false),
        };
        match commands.last_mut().filter(|_| open) {
            Some(last) => {
                last.push(' ');
                last.push_str(text);
            }
            None => commands.push(text.to_string()),
        }
        open = continues;
    }
    assert!(
        !open,
        "the last example line ends with a continuation: {lines:?}"
    );
    commands
}

/// `--help` examples are never wrapped by the help formatter, at any width: every line is at
/// most 80 columns or continues with ` \`, the lines are the same at 40, 100 and 200 columns,
/// and every path an example names is a file or folder of the repository's fixtures/
/// (issue 36).
#[test]
fn help_examples_never_wrap_mid_command() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut continued = 0;
    for sub in WITH_EXAMPLES {
        let lines = help_example_lines(sub, 100);
        for columns in [40, 200] {
            assert_eq!(
                help_example_lines(sub, columns),
                lines,
                "strata {sub} --help: the examples change with the width ({columns} columns)"
            );
        }
        for line in &lines {
            assert!(
                line.chars().count() <= 80 || line.ends_with(" \\"),
                "strata {sub} --help: example line wider than 80 columns: {line}"
            );
            assert!(
                line.is_empty() || line.starts_with("  "),
                "strata {sub} --help: not an example line: {line}"
            );
            continued += usize::from(line.ends_with(" \\"));
        }
        for command in joined(&lines) {
            assert!(
                command.starts_with("strata ") || command.starts_with("cat "),
                "strata {sub} --help: {command}"
            );
            for word in command.split(' ') {
                if word.contains('/') && !word.starts_with(['-', '\'', '"']) {
                    assert!(
                        word.starts_with("fixtures/") && root.join(word).exists(),
                        "strata {sub} --help: {word} is not in fixtures/ ({command})"
                    );
                }
            }
        }
    }
    assert!(continued > 0, "no example is long enough to be continued");
}

/// Every example of every subcommand's `--help` and every `$ strata` line of the README runs
/// (from the repository root) and succeeds (issue 16).
#[test]
fn help_and_readme_examples_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = assert_cmd::cargo::cargo_bin("strata");
    let mut examples: Vec<String> = Vec::new();
    for sub in WITH_EXAMPLES {
        examples.extend(joined(&help_example_lines(sub, 100)));
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    examples.extend(
        readme
            .lines()
            .filter_map(|l| l.strip_prefix("$ "))
            .filter(|l| l.starts_with("strata "))
            .map(str::to_string),
    );
    assert!(examples.len() >= 14, "{examples:?}");
    // `strata` in the examples (also after a pipe) is the binary under test.
    let path = std::env::join_paths(
        bin.parent()
            .into_iter()
            .map(std::path::Path::to_path_buf)
            .chain(std::env::split_paths(
                &std::env::var_os("PATH").unwrap_or_default(),
            )),
    )
    .expect("PATH");
    for example in &examples {
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("{example} > /dev/null")])
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .expect("sh");
        // A `--exit-code` diff exits 3 when the fixtures have uncommitted changes.
        let changed = example.contains("--exit-code") && out.status.code() == Some(3);
        assert!(
            out.status.success() || changed,
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every example of docs/explain.md is the output of the command written above it, run in
/// `fixtures/`: equal, or for an `(excerpt)` its lines (but `...`) found in order.
#[test]
fn the_explain_examples_are_real_runs() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/explain.md"),
    )
    .expect("docs/explain.md");
    let strata = assert_cmd::cargo::cargo_bin("strata");
    let mut command: Option<(String, bool)> = None;
    let mut lines = doc.lines();
    let mut checked = 0;
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("`strata ") {
            let args = rest.split('`').next().unwrap_or_default().to_string();
            command = Some((args, line.contains("(excerpt)")));
            continue;
        }
        if !(line == "```yaml" || line == "```console") {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let Some((args, excerpt)) = command.take() else {
            continue;
        };
        let out = Command::new("sh")
            .current_dir(crate::util::fixtures())
            .arg("-c")
            .arg(format!("{} {args}", strata.display()))
            .output()
            .expect("run sh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "strata {args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if excerpt {
            let mut have = stdout.lines();
            for want in block.iter().filter(|l| **l != "...") {
                assert!(
                    have.any(|l| l == *want),
                    "strata {args} (excerpt): line not in the output, or out of order:\n{want}\n--- output:\n{stdout}"
                );
            }
        } else {
            assert_eq!(block.join("\n") + "\n", stdout, "strata {args}");
        }
        checked += 1;
    }
    assert!(
        checked >= 8,
        "only {checked} examples found in docs/explain.md"
    );
}

/// The docs describe what a clone has (issue 36): no pointer to the design notes, the shared
/// specs or oracles, or a developer's machine (`/work/...`), which a clone does not hold;
/// `.ci/run` counts the fuzz targets there are; no fuzzing log is committed.
#[test]
fn docs_point_only_inside_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    assert!(pages.len() > 8, "{pages:?}");
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("page");
        for (n, line) in text.lines().enumerate() {
            for outside in [
                "DESIGN.md",
                "/work/",
                "../shared/",
                "shared/docs/",
                "shared/oracles",
            ] {
                // An absolute path, not a folder named `work` (`target/work/`).
                let named = line.match_indices(outside).any(|(at, _)| {
                    outside != "/work/"
                        || !line[..at].ends_with(|c: char| c.is_alphanumeric() || "_.-".contains(c))
                });
                assert!(
                    !named,
                    "{}:{}: names {outside}, which a clone does not have: {line}",
                    page.display(),
                    n + 1
                );
            }
        }
    }
    let datum = std::fs::read_to_string(root.join("docs/frontends/datum.md")).expect("datum.md");
    assert!(!datum.contains("not\nimplemented") && !datum.contains("is not implemented"));

    let targets = std::fs::read_dir(root.join("fuzz/fuzz_targets"))
        .expect("fuzz targets")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .count();
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    assert!(
        ci.contains(&format!("of the {targets} fuzz")),
        ".ci/run does not say {targets} fuzz targets"
    );
    if let Ok(out) = Command::new("git")
        .args(["ls-files", "fuzz"])
        .current_dir(root)
        .output()
    {
        let files = String::from_utf8_lossy(&out.stdout);
        assert!(
            !files.lines().any(|f| f.ends_with(".log")),
            "fuzzing logs are committed"
        );
    }
}
