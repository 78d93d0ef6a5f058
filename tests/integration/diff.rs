//! `strata diff` (issue 18): a small git repository built in a temporary folder per test, a
//! base commit, the head in the working tree (or a second commit), and the report checked:
//! each front-end's changed, added, removed and moved values, keyed lists reordered without a
//! change, a changed rule shown with the rule's line as the cause, files added and deleted
//! between the revisions, two rendered files compared directly, and the errors.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A git repository in a temporary folder.
struct Repo {
    dir: tempfile::TempDir,
}

fn git_available() -> bool {
    Command::new("git").arg("--version").output().is_ok()
}

impl Repo {
    fn new() -> Option<Repo> {
        if !git_available() {
            eprintln!("skipped: git is not installed");
            return None;
        }
        let repo = Repo {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        repo.git(&["init", "-q"]);
        Some(repo)
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .current_dir(self.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .output()
            .expect("run git");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn write(&self, name: &str, text: &str) -> &Repo {
        let p: PathBuf = self.path().join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
        self
    }

    fn remove(&self, name: &str) -> &Repo {
        std::fs::remove_file(self.path().join(name)).expect("remove");
        self
    }

    fn commit(&self, message: &str) -> &Repo {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self
    }

    /// `strata ARGS...` in the repository: (exit code, stdout, stderr).
    fn strata(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
            .current_dir(self.path())
            .env_remove("NO_COLOR")
            .env("STRATA_CACHE_DIR", crate::util::index_cache())
            .args(args)
            .output()
            .expect("run strata");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "panic: {stderr}");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr,
        )
    }

    /// The human report of `strata diff --base HEAD -- RENDER...` (must exit 0).
    fn report(&self, render: &[&str]) -> String {
        let mut args = vec!["diff", "--base", "HEAD", "--color", "never", "--"];
        args.extend(render);
        let (code, out, err) = self.strata(&args);
        assert_eq!(code, 0, "strata {args:?} failed:\n{err}");
        out
    }

    /// The JSON report's changes.
    fn changes(&self, render: &[&str]) -> Vec<Value> {
        let mut args = vec!["diff", "--base", "HEAD", "--output", "json", "--"];
        args.extend(render);
        let (code, out, err) = self.strata(&args);
        assert_eq!(code, 0, "strata {args:?} failed:\n{err}");
        let doc: Value = serde_json::from_str(&out).expect("JSON report");
        doc["changes"].as_array().expect("changes").clone()
    }
}

/// The change at `path` (panics when there is none).
fn at<'c>(changes: &'c [Value], path: &str) -> &'c Value {
    changes
        .iter()
        .find(|c| c["path"] == path)
        .unwrap_or_else(|| panic!("no change at {path}: {changes:#?}"))
}

fn paths(changes: &[Value]) -> Vec<String> {
    changes
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["change"].as_str().unwrap_or(""),
                c["path"].as_str().unwrap_or("")
            )
        })
        .collect()
}

const BASE: &str = "app:\n  name: web\n  replicas: 2\n  old: x\nservers:\n  - name: a\n    ip: 10.0.0.1\n  - name: b\n    ip: 10.0.0.2\n";
const PROD: &str = "app:\n  replicas: 3\n";

fn merge_repo() -> Option<Repo> {
    let repo = Repo::new()?;
    repo.write("base.yaml", BASE)
        .write("prod.yaml", PROD)
        .commit("base");
    Some(repo)
}

#[test]
fn merge_changed_added_removed_and_a_keyed_list_reordered() {
    let Some(repo) = merge_repo() else { return };
    // servers reordered (matched by name: no change) with one ip changed; a key deleted,
    // one added in prod.yaml, one value changed in prod.yaml.
    repo.write(
        "base.yaml",
        "app:\n  name: web\n  replicas: 2\nservers:\n  - name: b\n    ip: 10.0.0.2\n  - name: a\n    ip: 10.0.0.9\n",
    )
    .write("prod.yaml", "app:\n  replicas: 5\n  debug: true\n");
    let render = ["merge", "base.yaml", "prod.yaml"];
    let changes = repo.changes(&render);
    assert_eq!(
        paths(&changes),
        [
            "changed /app/replicas",
            "added /app/debug",
            "removed /app/old",
            "changed /servers/1/ip"
        ]
    );
    let replicas = at(&changes, "/app/replicas");
    assert_eq!(
        (replicas["old"].clone(), replicas["new"].clone()),
        (3.into(), 5.into())
    );
    assert_eq!(
        replicas["cause"],
        serde_json::json!({"file": "prod.yaml", "line": 2, "by": "value"})
    );
    assert_eq!(replicas["head"]["at"], "prod.yaml:2:13");
    assert_eq!(replicas["head"]["overrode"][0]["at"], "base.yaml:3:13");
    let old = at(&changes, "/app/old");
    assert_eq!(old["cause"]["by"], "gone");
    assert_eq!(old["base"]["at"], "base.yaml:4:8");
    assert_eq!(at(&changes, "/servers/1/ip")["cause"]["line"], 8);
    insta::assert_snapshot!("diff_merge_human", repo.report(&render));
}

#[test]
fn a_value_that_moved_to_another_file_is_shown_as_moved_and_can_be_hidden() {
    let Some(repo) = merge_repo() else { return };
    repo.write("base.yaml", &BASE.replace("  name: web\n", ""))
        .write("prod.yaml", "app:\n  name: web\n  replicas: 3\n");
    let render = ["merge", "base.yaml", "prod.yaml"];
    let changes = repo.changes(&render);
    let moved = at(&changes, "/app/name");
    assert_eq!(moved["change"], "moved");
    assert_eq!(
        (moved["base"]["at"].as_str(), moved["head"]["at"].as_str()),
        (Some("base.yaml:2:9"), Some("prod.yaml:2:9"))
    );
    // Only the move: the report says so, and --ignore-moves leaves nothing.
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let (code, out, _) = repo.strata(&[
        "diff",
        "--base",
        "HEAD",
        "--ignore-moves",
        "--exit-code",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!((code, out.as_str()), (0, "no changes\n"));
    let (code, ..) = repo.strata(&[
        "diff",
        "--base",
        "HEAD",
        "--exit-code",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!(code, 3, "--exit-code: 3 when the renders differ");
}

#[test]
fn a_layer_added_and_a_layer_deleted_between_the_revisions() {
    let Some(repo) = merge_repo() else { return };
    // At the base, prod.yaml exists and stage.yaml does not; at the head the reverse.
    repo.remove("prod.yaml")
        .write("stage.yaml", "app:\n  replicas: 1\n  tier: stage\n");
    let render = ["merge", "base.yaml", "prod.yaml", "stage.yaml"];
    let changes = repo.changes(&render);
    assert_eq!(
        paths(&changes),
        ["changed /app/replicas", "added /app/tier"]
    );
    assert_eq!(
        at(&changes, "/app/replicas")["head"]["at"],
        "stage.yaml:2:13"
    );
    assert_eq!(
        at(&changes, "/app/replicas")["base"]["at"],
        "prod.yaml:2:13"
    );
    // A name found at neither revision is an error, not an empty diff.
    let (code, _, err) = repo.strata(&[
        "diff",
        "--base",
        "HEAD",
        "--",
        "merge",
        "base.yaml",
        "typo.yaml",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("typo.yaml exists neither at 'HEAD' nor in the working tree"),
        "{err}"
    );
}

#[test]
fn two_commits_are_compared_with_head() {
    let Some(repo) = merge_repo() else { return };
    repo.write("prod.yaml", "app:\n  replicas: 7\n")
        .commit("seven");
    repo.write("prod.yaml", "app:\n  replicas: 9\n");
    let (code, out, err) = repo.strata(&[
        "diff",
        "--base",
        "HEAD~1",
        "--head",
        "HEAD",
        "--output",
        "json",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let c = &doc["changes"][0];
    assert_eq!(
        (c["old"].clone(), c["new"].clone()),
        (3.into(), 7.into()),
        "the working tree (9) is not read"
    );
    assert_eq!(doc["summary"]["changed"], 1);
}

#[test]
fn cloud_init_a_changed_merge_how_is_the_cause() {
    let Some(repo) = Repo::new() else { return };
    repo.write("01.yaml", "#cloud-config\nruncmd:\n  - one\n  - two\npackages: [a]\n")
        .write("02.yaml", "#cloud-config\nmerge_how: 'dict(recurse_array,no_replace)+list(append)'\nruncmd:\n  - three\n")
        .commit("base");
    repo.write("02.yaml", "#cloud-config\nmerge_how: 'dict(recurse_array,no_replace)+list(prepend)'\nruncmd:\n  - three\n");
    let render = ["cloud-init", "01.yaml", "02.yaml"];
    let changes = repo.changes(&render);
    assert_eq!(paths(&changes), ["added /runcmd/0", "removed /runcmd/2"]);
    for c in &changes {
        assert_eq!(
            c["cause"],
            serde_json::json!({"file": "02.yaml", "line": 2, "by": "rule"}),
            "{c:#}"
        );
    }
    assert_eq!(at(&changes, "/runcmd/0")["head"]["rule"], "list(prepend)");
    insta::assert_snapshot!("diff_cloud_init_rule", repo.report(&render));
}

#[test]
fn heat_a_concatenated_parameter_names_the_part_that_changed() {
    let Some(repo) = Repo::new() else { return };
    repo.write(
        "env-1.yaml",
        "parameter_merge_strategies:\n  Name: merge\n  Hosts: merge\nparameters:\n  Name: web\n  Hosts: a\n",
    )
    .write("env-2.yaml", "parameters:\n  Name: -prod\n  Hosts: b\n")
    .commit("base");
    repo.write("env-2.yaml", "parameters:\n  Name: -stage\n  Hosts: b\n");
    let render = ["heat", "-e", "env-1.yaml", "-e", "env-2.yaml"];
    let changes = repo.changes(&render);
    assert_eq!(paths(&changes), ["changed /parameters/Name"]);
    let c = &changes[0];
    assert_eq!(
        (c["old"].as_str(), c["new"].as_str()),
        (Some("web-prod"), Some("web-stage"))
    );
    assert_eq!(
        c["cause"],
        serde_json::json!({"file": "env-2.yaml", "line": 2, "by": "value"})
    );
    // A changed strategy: 'overwrite' decides now, at its line.
    repo.write(
        "env-1.yaml",
        "parameter_merge_strategies:\n  Name: merge\n  Hosts: overwrite\nparameters:\n  Name: web\n  Hosts: a\n",
    );
    let changes = repo.changes(&render);
    let hosts = at(&changes, "/parameters/Hosts");
    assert_eq!(
        (hosts["old"].as_str(), hosts["new"].as_str()),
        (Some("ab"), Some("b"))
    );
    assert_eq!(hosts["cause"]["by"], "rule", "{hosts:#}");
    assert_eq!(hosts["cause"]["line"], 3, "{hosts:#}");
    insta::assert_snapshot!("diff_heat_json", {
        let (code, out, err) = repo.strata(&[
            "diff",
            "--base",
            "HEAD",
            "--output",
            "json",
            "--",
            "heat",
            "-e",
            "env-1.yaml",
            "-e",
            "env-2.yaml",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    });
}

const DECKHAND_POLICY: &str = "---\nschema: deckhand/LayeringPolicy/v1\nmetadata:\n  schema: metadata/Control/v1\n  name: layering-policy\ndata:\n  layerOrder: [global, site]\n";

fn deckhand_doc(name: &str, layer: &str, parent: bool, method: &str, data: &str) -> String {
    let title = if parent {
        format!("{name}-{layer}")
    } else {
        name.to_string()
    };
    let mut d = format!(
        "---\nschema: example/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: {title}\n  labels: {{app: {name}-{layer}}}\n  layeringDefinition:\n    abstract: false\n    layer: {layer}\n"
    );
    if parent {
        d.push_str(&format!(
            "    parentSelector: {{app: {name}-global}}\n    actions:\n      - method: {method}\n        path: .\n"
        ));
    }
    d.push_str(&format!("  storagePolicy: cleartext\ndata:\n{data}"));
    d
}

#[test]
fn deckhand_documents_matched_by_schema_and_name_and_a_changed_action() {
    let Some(repo) = Repo::new() else { return };
    let global = |replicas: u32| {
        deckhand_doc(
            "api",
            "global",
            false,
            "",
            &format!("  replicas: {replicas}\n  image: api:1\n  tags: [a]\n"),
        ) + &deckhand_doc("db", "global", false, "", "  size: 10\n")
    };
    repo.write("set/policy.yaml", DECKHAND_POLICY)
        .write("set/global.yaml", &global(1))
        .write(
            "set/site.yaml",
            &deckhand_doc("api", "site", true, "merge", "  replicas: 3\n"),
        )
        .commit("base");
    // The documents of global.yaml in the other order, one value changed; a new document in
    // a new file; the site's action is now 'replace'.
    repo.write(
        "set/global.yaml",
        &(deckhand_doc("db", "global", false, "", "  size: 20\n")
            + &deckhand_doc(
                "api",
                "global",
                false,
                "",
                "  replicas: 1\n  image: api:1\n  tags: [a]\n",
            )),
    )
    .write(
        "set/site.yaml",
        &deckhand_doc("api", "site", true, "replace", "  replicas: 3\n"),
    )
    .write(
        "set/extra.yaml",
        &deckhand_doc("cache", "global", false, "", "  ttl: 60\n"),
    );
    let render = ["deckhand", "set"];
    let changes = repo.changes(&render);
    let summary: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c["change"].as_str().unwrap_or(""),
                c["document"].as_str().unwrap_or(""),
                c["path"]
            )
        })
        .collect();
    assert!(
        summary
            .iter()
            .any(|s| s.starts_with("changed [example/Chart/v1, global] db")
                && s.ends_with("/data/size\"")),
        "{summary:#?}"
    );
    assert!(
        summary
            .iter()
            .any(|s| s.starts_with("added [example/Chart/v1, global] cache")),
        "{summary:#?}"
    );
    // 'replace' drops what the site document did not say: image and tags, caused by the action.
    let image = changes
        .iter()
        .find(|c| {
            c["change"] == "removed"
                && c["path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("/data/image"))
        })
        .unwrap_or_else(|| panic!("image removed: {summary:#?}"));
    assert_eq!(image["cause"]["file"], "set/site.yaml", "{image:#}");
    assert_eq!(image["cause"]["by"], "rule", "{image:#}");
    // And the action itself, as written.
    assert_eq!(changes.len(), 5, "{summary:#?}");
    insta::assert_snapshot!("diff_deckhand_stat", {
        let (code, out, err) =
            repo.strata(&["diff", "--base", "HEAD", "--stat", "--", "deckhand", "set"]);
        assert_eq!(code, 0, "{err}");
        out
    });
}

#[test]
fn datum_a_changed_lookup_option_is_the_cause() {
    let Some(repo) = Repo::new() else { return };
    repo.write("node.yml", "Root:\n  Inner: {a: node}\n")
        .write(
            "role.yml",
            "Root:\n  Inner: {b: role}\n  Outer: {b: role}\n",
        )
        .write("options.yml", "lookup_options:\n  Root: deep\n")
        .commit("base");
    repo.write("options.yml", "lookup_options:\n  Root: MostSpecific\n");
    let render = [
        "lookup",
        "--layer",
        "node.yml",
        "role.yml",
        "--options",
        "options.yml",
    ];
    let changes = repo.changes(&render);
    assert!(!changes.is_empty());
    for c in &changes {
        assert_eq!(c["change"], "removed", "{c:#}");
        assert_eq!(
            c["cause"],
            serde_json::json!({"file": "options.yml", "line": 2, "by": "rule"}),
            "{c:#}"
        );
    }
}

#[test]
fn hiera_a_level_file_deleted_and_a_value_changed() {
    let Some(repo) = Repo::new() else { return };
    repo.write(
        "hiera.yaml",
        "version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n",
    )
    .write("facts.yaml", "trusted: {certname: web1}\n")
    .write("data/nodes/web1.yaml", "port: 8080\n")
    .write("data/common.yaml", "port: 80\nworkers: 4\n")
    .commit("base");
    repo.remove("data/nodes/web1.yaml")
        .write("data/common.yaml", "port: 80\nworkers: 8\n");
    let render = ["lookup", "--hiera", "hiera.yaml", "--facts", "facts.yaml"];
    let changes = repo.changes(&render);
    assert_eq!(paths(&changes), ["changed /port", "changed /workers"]);
    let port = at(&changes, "/port");
    assert_eq!(port["base"]["at"], "data/nodes/web1.yaml:1:7");
    assert_eq!(port["head"]["at"], "data/common.yaml:1:7");
    // The cause: the file that gave the base's value is no longer read.
    assert_eq!(
        port["cause"],
        serde_json::json!({"file": "data/nodes/web1.yaml", "line": 1, "by": "gone"})
    );
    assert_eq!(at(&changes, "/workers")["cause"]["line"], 2);
}

#[test]
fn ardana_entries_are_matched_by_their_key() {
    let Some(repo) = Repo::new() else { return };
    repo.write(
        "model/cloudConfig.yml",
        "product: {version: 2}\ncloud:\n  name: lab\n",
    )
    .write(
        "model/data/servers.yml",
        "product: {version: 2}\nservers:\n  - id: s1\n    role: A\n  - id: s2\n    role: B\n",
    )
    .commit("base");
    repo.write(
        "model/data/servers.yml",
        "product: {version: 2}\nservers:\n  - id: s2\n    role: B\n  - id: s1\n    role: C\n",
    );
    let changes = repo.changes(&["ardana", "read", "model"]);
    let in_model: Vec<&Value> = changes
        .iter()
        .filter(|c| {
            c["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("/inputModel"))
        })
        .collect();
    assert_eq!(in_model.len(), 1, "{changes:#?}");
    assert_eq!(in_model[0]["path"], "/inputModel/servers/1/role");
    assert_eq!(
        (in_model[0]["old"].as_str(), in_model[0]["new"].as_str()),
        (Some("A"), Some("C"))
    );
}

#[test]
fn two_rendered_files_are_compared_directly() {
    let Some(repo) = Repo::new() else { return };
    repo.write("old.yaml", "---\nschema: x/A/v1\nmetadata: {name: one}\ndata: {v: 1}\n---\nschema: x/A/v1\nmetadata: {name: two}\ndata: {v: 2}\n")
        .write("new.yaml", "---\nschema: x/A/v1\nmetadata: {name: two}\ndata: {v: 2}\n---\nschema: x/A/v1\nmetadata: {name: one}\ndata: {v: 5}\n")
        .write("a.json", "{\"k\": [1, 2, 3]}")
        .write("b.json", "{\"k\": [1, 3]}");
    let (code, out, err) = repo.strata(&["diff", "--output", "json", "old.yaml", "new.yaml"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["changes"].as_array().map(Vec::len), Some(1), "{doc:#}");
    assert_eq!(doc["changes"][0]["path"], "/1/data/v");
    assert_eq!(doc["changes"][0]["head"]["at"], "new.yaml:8:11");
    let (code, out, _) = repo.strata(&["diff", "--color", "never", "a.json", "b.json"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("- /k/1: 2"),
        "an item removed from a list of scalars is one removal:\n{out}"
    );
    assert!(
        out.ends_with("0 changed, 0 added, 1 removed, 0 moved\n"),
        "{out}"
    );
}

#[test]
fn diff_errors_name_the_side_and_use_the_contract_codes() {
    let Some(repo) = merge_repo() else { return };
    let run = |args: &[&str]| repo.strata(args);
    let (code, _, err) = run(&["diff", "--base", "no-such-rev", "--", "merge", "base.yaml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'no-such-rev' is not a revision"), "{err}");
    let (code, _, err) = run(&["diff", "--base", "HEAD"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["diff", "one.yaml"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["diff", "--base", "HEAD", "--", "merge", "-"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "diff",
        "--base",
        "HEAD",
        "--",
        "merge",
        "--out",
        "x.yaml",
        "base.yaml",
    ]);
    assert_eq!(code, 2, "{err}");
    // A head that does not parse: the error points into it and says which render failed.
    repo.write("prod.yaml", "app: [1\n");
    let (code, _, err) = run(&[
        "diff",
        "--base",
        "HEAD",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("prod.yaml:2:1") || err.contains("prod.yaml:1:"),
        "{err}"
    );
    assert!(
        err.contains("in the head render (the working tree)"),
        "{err}"
    );
    // Outside a repository.
    let outside = tempfile::tempdir().expect("temp dir");
    let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
        .current_dir(outside.path())
        .env(
            "GIT_CEILING_DIRECTORIES",
            outside.path().parent().unwrap_or(outside.path()),
        )
        .args(["diff", "--base", "HEAD", "--", "merge", "a.yaml"])
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The lines of docs/diff.md's console block that starts with `$ COMMAND`, up to the next `$`
/// line or the end of the block.
fn documented(command: &str) -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diff.md"))
        .expect("docs/diff.md");
    let start = doc
        .find(&format!("$ {command}\n"))
        .unwrap_or_else(|| panic!("docs/diff.md has no example of {command}"));
    let rest = &doc[start + command.len() + 3..];
    let end = [rest.find("\n$ "), rest.find("\n```")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    format!("{}\n", &rest[..end])
}

#[test]
fn the_merge_example_of_docs_diff_md_is_a_real_run() {
    let Some(repo) = merge_repo() else { return };
    repo.write(
        "base.yaml",
        "app:\n  replicas: 2\nservers:\n  - name: b\n    ip: 10.0.0.2\n  - name: a\n    ip: 10.0.0.9\n",
    )
    .write("prod.yaml", "app:\n  name: web\n  replicas: 5\n  debug: true\n");
    let (code, out, err) = repo.strata(&[
        "diff",
        "--base",
        "HEAD",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        documented("strata diff --base HEAD -- merge base.yaml prod.yaml")
    );
    let (_, stat, _) = repo.strata(&[
        "diff",
        "--base",
        "HEAD",
        "--stat",
        "--",
        "merge",
        "base.yaml",
        "prod.yaml",
    ]);
    assert_eq!(
        stat,
        documented("strata diff --base HEAD --stat -- merge base.yaml prod.yaml")
    );
}
