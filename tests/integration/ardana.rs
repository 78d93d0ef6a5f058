//! `strata ardana read` / `validate` behaviour tests on `fixtures/ardana/`: `model` is a small
//! valid model using every combining rule (a list split over files, a dictionary and a list in
//! one file, pass-through in one file, an empty list section, a subdirectory, a README, a
//! YAML 1.1 boolean, a file that is not a model file); `violations` breaks every rule of the
//! input-model document once, so `validate` must report them all.

use crate::util::{strata, Run};
use serde_json::Value;
use std::process::Command;

fn ardana(args: &[&str]) -> Run {
    let mut argv = vec!["ardana"];
    argv.extend_from_slice(args);
    strata(&argv)
}

#[test]
fn read_combines_the_files_as_the_service_does() {
    let run = ardana(&["read", "ardana/model"]);
    let doc: Value = serde_json::from_str(run.ok()).expect("JSON by default");
    let model = &doc["inputModel"];
    // A list split over two files, in walk order (files sorted: compute before controller).
    assert_eq!(model["disk-models"][0]["name"], "COMPUTE-DISKS");
    assert_eq!(model["disk-models"][1]["name"], "CONTROLLER-DISKS");
    // YAML 1.1: `default: yes` is a boolean.
    assert_eq!(model["swift-rings"][0]["default"], true);
    // An empty list section is listed in `sections`, absent from the model and the map.
    assert!(model.get("firewall-rules").is_none());
    assert_eq!(
        doc["fileInfo"]["sections"]["firewall-rules"][0],
        "data/empty.yml"
    );
    assert_eq!(
        doc["fileInfo"]["fileSectionMap"]["data/empty.yml"],
        serde_json::json!(["product"])
    );
    // One pass-through file: the plain string.
    assert_eq!(
        doc["fileInfo"]["fileSectionMap"]["data/pass_through.yml"][1],
        "pass-through"
    );
    // The key field comes from the first entry: servers by id, swift rings by region-name.
    let servers = &doc["fileInfo"]["fileSectionMap"]["data/servers.yml"][2];
    assert_eq!(servers["keyField"], "id");
    assert_eq!(servers["servers"][2], "compute1");
    // Files of a directory before its subdirectories; notes.txt is not a model file.
    let files: Vec<&str> = doc["fileInfo"]["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(files.first(), Some(&"cloudConfig.yml"));
    assert_eq!(files.last(), Some(&"data/network/networks.yml"));
    assert!(!files.iter().any(|f| f.ends_with("notes.txt")));
    assert_eq!(
        doc["readme"]["md"],
        "# Lab model\n\nEdit data/servers.yml to add a server.\n"
    );
    assert_eq!(doc["name"], "lab");
    assert_eq!(doc["version"], 2);
    insta::assert_snapshot!("ardana_model_read", run.stdout);
}

#[test]
fn read_as_yaml_on_request() {
    let run = ardana(&["read", "--output", "yaml", "ardana/model"]);
    assert!(run.ok().starts_with("errors: []\nfileInfo:\n"));
}

#[test]
fn validate_passes_a_model_that_keeps_the_rules() {
    let run = ardana(&["validate", "ardana/model"]);
    assert_eq!(
        run.ok(),
        "ardana/model: 7 model files, 9 sections, no violation of the input-model rules\n"
    );
}

#[test]
fn validate_reports_every_violation_at_once() {
    let run = ardana(&["validate", "ardana/violations"]);
    let err = run.fails(1);
    for code in [
        "DuplicateSection",
        "DuplicateListKey",
        "MissingKeyField",
        "DuplicatePassThroughKey",
        "SectionTypeClash",
        "invalid YAML",
    ] {
        assert!(err.contains(code), "{code} missing from:\n{err}");
    }
    // Both places of a duplicate.
    assert!(err.contains("ardana/violations/data/b.yml:3:1"));
    assert!(err.contains("first defined in data/a.yml at ardana/violations/data/a.yml:3:1"));
    assert!(err.ends_with("error: 7 violations of the input-model rules in ardana/violations\n"));
    assert_eq!(run.stdout, "");
    insta::assert_snapshot!("ardana_violations", err);
}

#[test]
fn read_refuses_a_model_that_breaks_the_rules() {
    let run = ardana(&["read", "ardana/violations"]);
    assert!(run.fails(1).contains("DuplicateSection"));
    assert_eq!(run.stdout, "");
}

#[test]
fn explain_gives_every_value_its_file_line_and_column() {
    let run = ardana(&["read", "--explain", "ardana/model"]);
    let doc: Value = serde_json::from_str(run.ok()).expect("JSON");
    let entries = doc["explain"].as_array().expect("explain entries");
    let find = |path: &str| {
        entries
            .iter()
            .find(|e| e["path"] == path)
            .unwrap_or_else(|| panic!("{path} not explained"))
    };
    let ip = find("/inputModel/servers/2/ip-addr");
    assert_eq!(ip["source"]["file"], "ardana/model/data/servers.yml");
    assert_eq!(ip["source"]["line"], 16);
    let disk = find("/inputModel/disk-models/1/name");
    assert_eq!(disk["outcome"], "appended");
    assert_eq!(
        disk["source"]["file"],
        "ardana/model/data/disks_controller.yml"
    );
    // `product` is in every file: the last one's replaced the others.
    assert_eq!(find("/inputModel/product/version")["outcome"], "replaced");
}

#[test]
fn a_directory_without_cloud_config_is_not_a_model() {
    let run = ardana(&["read", "ardana/model/data"]);
    let err = run.fails(1);
    assert!(err.contains("has no cloudConfig.yml"), "{err}");
}

/// A copy of fixtures/ardana/model in a temporary directory, and its combined model.
fn model_copy() -> (tempfile::TempDir, std::path::PathBuf, Value) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("model");
    copy_dir(&crate::util::fixtures().join("ardana/model"), &dir);
    let run = ardana(&["read", &dir.display().to_string()]);
    let model: Value = serde_json::from_str(run.ok()).expect("JSON");
    (tmp, dir, model)
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// Every file below `dir` with its text, sorted: the tree as a snapshot.
fn tree(dir: &std::path::Path) -> String {
    fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p.strip_prefix(base).expect("below").display().to_string();
                out.push((rel, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|(rel, text)| format!("=== {rel}\n{text}"))
        .collect()
}

fn write_json(dir: &std::path::Path, model: &Value) -> String {
    let path = dir.parent().expect("parent").join("model.json");
    std::fs::write(&path, serde_json::to_string_pretty(model).expect("JSON")).expect("write");
    path.display().to_string()
}

#[test]
fn write_of_an_unchanged_model_changes_no_file() {
    let (_tmp, dir, model) = model_copy();
    let before = tree(&dir);
    let json = write_json(&dir, &model);
    let run = ardana(&["write", &json, &dir.display().to_string()]);
    assert_eq!(run.ok(), "0 added, 0 changed, 0 deleted, 7 unchanged\n");
    assert_eq!(tree(&dir), before, "byte-identical, comments and all");
}

/// Issues 14 and 17: a changed file keeps its comments, blank lines, spellings and key order
/// wherever its values survive; only the lines of the changed values differ (--no-comments:
/// written afresh).
#[test]
fn a_changed_file_keeps_its_comments_and_spellings() {
    let (_tmp, dir, mut model) = model_copy();
    let servers = dir.join("data/servers.yml");
    let text = std::fs::read_to_string(&servers).expect("read");
    let commented = text
        .replace("servers:\n", "# Keep the ids stable.\nservers:\n")
        .replace(
            "  - id: compute1\n",
            "  # first compute node\n  - id: compute1\n",
        )
        .replace(
            "  subnet: 192.168.10.0\n",
            "  subnet: \"192.168.10.0\"  # quoted on purpose\n",
        );
    assert_ne!(
        commented, text,
        "the fixture has the lines this test comments"
    );
    std::fs::write(&servers, &commented).expect("write");
    let im = &mut model["inputModel"];
    for s in im["servers"].as_array_mut().expect("servers") {
        if s["id"] == "compute1" {
            s["ip-addr"] = serde_json::json!("192.168.10.77");
        }
    }
    // serde_json writes keys sorted (netmask before subnet): the file's order is kept.
    im["baremetal"]["netmask"] = serde_json::json!("255.255.0.0");
    let json = write_json(&dir, &model);
    let d = dir.display().to_string();
    let plain = ardana(&["write", "--dry-run", "--no-comments", &json, &d]);
    assert!(
        plain.ok().contains("-# Keep the ids stable."),
        "{}",
        plain.ok()
    );
    let run = ardana(&["write", &json, &d]);
    assert_eq!(
        run.ok().lines().last(),
        Some("0 added, 1 changed, 0 deleted, 6 unchanged")
    );
    let written = std::fs::read_to_string(&servers).expect("read");
    let expected = commented
        .replace("192.168.10.7\n", "192.168.10.77\n")
        .replace("netmask: 255.255.255.0", "netmask: 255.255.0.0");
    assert_eq!(written, expected, "only the changed value's line differs");
}

/// A model directory strata may not write into: exit 1 naming the file and the cause, and
/// every file as it was (nothing half-written). Skipped (with a notice) where the permission
/// bits do not stop the test (running as root).
#[test]
fn write_into_a_read_only_directory_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, dir, mut model) = model_copy();
    let im = &mut model["inputModel"];
    im["servers"].as_array_mut().expect("servers").push(
        serde_json::json!({"id": "compute2", "ip-addr": "192.168.10.8", "role": "COMPUTE-ROLE"}),
    );
    im["firewall"] = serde_json::json!({"enabled": true});
    let json = write_json(&dir, &model);
    let data = dir.join("data");
    let mode = |p: &std::path::Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    mode(&data, 0o555);
    mode(&dir, 0o555);
    let probe = data.join(".probe");
    if std::fs::write(&probe, "x").is_ok() {
        let _ = std::fs::remove_file(&probe);
        mode(&dir, 0o755);
        mode(&data, 0o755);
        eprintln!("ardana: read-only test skipped: permission bits do not apply (root)");
        return;
    }
    let before = tree(&dir);
    let run = ardana(&["write", &json, &dir.display().to_string()]);
    let err = run.fails(1).to_string();
    mode(&dir, 0o755);
    mode(&data, 0o755);
    assert!(err.contains("data/"), "{err}");
    assert!(err.to_lowercase().contains("permission denied"), "{err}");
    assert_eq!(tree(&dir), before, "nothing half-written");
}

/// A full disk: the model directory on a small tmpfs that the new files do not fit on. Exit 1
/// naming the file and the cause; every file as it was, no temporary file left. Needs to mount
/// a tmpfs (root with CAP_SYS_ADMIN); skipped with a notice where that is not allowed.
#[test]
fn write_onto_a_full_disk_changes_nothing() {
    struct Mounted(std::path::PathBuf);
    impl Drop for Mounted {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(&self.0).status();
        }
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let mnt = tmp.path().join("disk");
    std::fs::create_dir(&mnt).expect("mkdir");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=128k", "tmpfs"])
        .arg(&mnt)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("ardana: full-disk test skipped: cannot mount a tmpfs here");
        return;
    }
    let _guard = Mounted(mnt.clone());
    let dir = mnt.join("model");
    copy_dir(&crate::util::fixtures().join("ardana/model"), &dir);
    let run = ardana(&["read", &dir.display().to_string()]);
    let mut model: Value = serde_json::from_str(run.ok()).expect("JSON");
    model["inputModel"]["servers"]
        .as_array_mut()
        .expect("servers")
        .push(serde_json::json!({
            "id": "compute2", "ip-addr": "192.168.10.8", "role": "COMPUTE-ROLE",
            "notes": "x".repeat(60_000),
        }));
    model["inputModel"]["firewall"] = serde_json::json!({"enabled": true});
    let json = tmp.path().join("model.json");
    std::fs::write(&json, serde_json::to_string(&model).expect("JSON")).expect("write");
    // Fill the disk but for a few blocks.
    std::fs::write(mnt.join("filler"), vec![0u8; 60 * 1024]).expect("filler");
    let before = tree(&dir);
    let run = ardana(&[
        "write",
        &json.display().to_string(),
        &dir.display().to_string(),
    ]);
    let err = run.fails(1).to_string();
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains("data/"), "{err}");
    assert_eq!(
        tree(&dir),
        before,
        "nothing half-written, no temporary file left"
    );
}

#[test]
fn write_follows_the_services_conventions_and_dry_run_shows_the_diffs() {
    let (_tmp, dir, mut model) = model_copy();
    let im = &mut model["inputModel"];
    im["servers"].as_array_mut().expect("servers").push(
        serde_json::json!({"id": "compute2", "ip-addr": "192.168.10.8", "role": "COMPUTE-ROLE"}),
    );
    let disks = im["disk-models"].as_array_mut().expect("disk-models");
    disks.retain(|d| d["name"] != "COMPUTE-DISKS");
    disks.push(serde_json::json!({"name": "NEW-DISKS", "volume-groups": []}));
    im["firewall"] = serde_json::json!({"enabled": true});
    im["pass-through"]["global"]["new-key"] = serde_json::json!("v");
    let json = write_json(&dir, &model);
    let before = tree(&dir);
    let d = dir.display().to_string();
    let dry = ardana(&["write", "--dry-run", &json, &d]);
    let plan = dry.ok().to_string();
    assert_eq!(tree(&dir), before, "--dry-run writes nothing");
    // One file per new entry of a list split one entry per file; a new section in its own
    // file; a file left with nothing but product deleted; new entries of a single-file list
    // in that file.
    assert!(plan.contains("added data/disk_models_NEW-DISKS.yml\n"));
    assert!(plan.contains("added data/firewall.yml\n"));
    assert!(plan.contains("deleted data/disks_compute.yml\n"));
    assert!(plan.contains("+  - id: compute2\n"));
    insta::assert_snapshot!("ardana_write_dry_run", plan);
    let run = ardana(&["write", &json, &d]);
    assert_eq!(
        run.ok().lines().last(),
        Some("2 added, 2 changed, 1 deleted, 4 unchanged")
    );
    insta::assert_snapshot!("ardana_write_tree", tree(&dir));
    // Writing the same model again changes nothing.
    let again = ardana(&["write", &json, &d]);
    assert_eq!(again.ok(), "0 added, 0 changed, 0 deleted, 8 unchanged\n");
}

#[test]
fn an_interrupted_write_leaves_the_directory_as_it_was() {
    let (_tmp, dir, mut model) = model_copy();
    model["inputModel"]["firewall"] = serde_json::json!({"enabled": true});
    model["inputModel"]["servers"][0]["role"] = serde_json::json!("OTHER-ROLE");
    let json = write_json(&dir, &model);
    let before = tree(&dir);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("strata"))
        .args(["ardana", "write", &json, &dir.display().to_string()])
        .env("STRATA_TEST_FAIL_STAGING_AFTER", "1")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        tree(&dir),
        before,
        "nothing changed, no temporary file left"
    );
}

#[test]
fn write_never_goes_outside_the_model_directory() {
    let (_tmp, dir, mut model) = model_copy();
    let fsm = model["fileInfo"]["fileSectionMap"]
        .as_object_mut()
        .expect("map");
    let servers = fsm.remove("data/servers.yml").expect("servers file");
    fsm.insert("../outside.yml".into(), servers);
    let json = write_json(&dir, &model);
    let before = tree(dir.parent().expect("parent"));
    let run = ardana(&["write", &json, &dir.display().to_string()]);
    assert!(run
        .fails(1)
        .contains("'../outside.yml' is not a path inside the model directory"));
    assert_eq!(tree(dir.parent().expect("parent")), before);

    let (_tmp, dir, mut model) = model_copy();
    model["inputModel"]["disk-models"]
        .as_array_mut()
        .expect("disk-models")
        .push(serde_json::json!({"name": "../../../etc/x"}));
    let json = write_json(&dir, &model);
    let run = ardana(&["write", &json, &dir.display().to_string()]);
    assert!(run
        .fails(1)
        .contains("is not a path inside the model directory"));
}

/// Issue 35: a model file is replaced as `-o` replaces a file: a symbolic link to a file
/// inside the model is written through and stays a link, one leading outside the model is
/// refused (nothing changed); a replaced file keeps its mode.
#[test]
fn write_goes_through_links_inside_the_model_and_keeps_modes() {
    use std::os::unix::fs::PermissionsExt;
    let (tmp, dir, mut model) = model_copy();
    model["inputModel"]["servers"][0]["role"] = serde_json::json!("OTHER-ROLE");
    let d = dir.display().to_string();
    let servers = dir.join("data/servers.yml");
    // servers.yml becomes a link to a file inside the model (not a model file itself: a
    // second .yml would be read as part of the model), with mode 0600.
    let real = dir.join("data/servers.real");
    std::fs::rename(&servers, &real).expect("mv");
    std::os::unix::fs::symlink("servers.real", &servers).expect("symlink");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let before = std::fs::read_to_string(&real).expect("read");

    // A link out of the model is refused, whatever else the write would do.
    let pass = dir.join("data/pass_through.yml");
    let pass_text = std::fs::read_to_string(&pass).expect("read");
    let outside = tmp.path().join("outside.yml");
    std::fs::write(&outside, &pass_text).expect("write");
    std::fs::remove_file(&pass).expect("rm");
    std::os::unix::fs::symlink(&outside, &pass).expect("symlink");
    model["inputModel"]["pass-through"]["global"]["install-env"] = serde_json::json!("prod");
    let json = write_json(&dir, &model);
    let err = ardana(&["write", &json, &d]).fails(1).to_string();
    assert!(err.contains("outside the model directory"), "{err}");
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), pass_text);
    assert_eq!(std::fs::read_to_string(&real).expect("read"), before);
    std::fs::remove_file(&pass).expect("rm");
    std::fs::write(&pass, pass_text).expect("write");

    ardana(&["write", &json, &d]).ok();
    assert!(std::fs::symlink_metadata(&servers)
        .expect("meta")
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&real).expect("read");
    assert!(text.contains("OTHER-ROLE"), "{text}");
    let mode = std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn an_empty_or_falsy_cloud_config_is_the_services_empty_model_with_a_warning() {
    for (case, what) in [
        ("empty-cloudconfig", "cloudConfig.yml is empty"),
        (
            "falsy-cloudconfig",
            "cloudConfig.yml holds a mapping ({}), which Python takes for false",
        ),
    ] {
        let dir = format!("ardana/recorded/{case}/model");
        let run = ardana(&["read", &dir]);
        let doc: Value = serde_json::from_str(run.ok()).expect("JSON");
        assert_eq!(doc["name"], Value::Null);
        assert_eq!(doc["version"], Value::Null);
        assert!(doc.get("inputModel").is_none(), "{doc}");
        assert!(run.stderr.starts_with("warning: "), "{}", run.stderr);
        assert!(run.stderr.contains(what), "{}", run.stderr);
        assert!(ardana(&["read", "--strict", &dir]).fails(1).contains(what));
    }
}

#[test]
fn links_to_directories_are_not_followed_as_in_the_services_walk() {
    let run = ardana(&["read", "ardana/recorded/linked-dirs/model"]);
    let doc: Value = serde_json::from_str(run.ok()).expect("JSON");
    let files: Vec<&str> = doc["fileInfo"]["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The link to a file is read; nothing below the three links to directories is.
    assert_eq!(
        files,
        [
            "cloudConfig.yml",
            "data/linked-servers.yml",
            "data/servers.yml",
            "data/networks/mgmt.yml"
        ]
    );
    assert_eq!(
        doc["inputModel"]["networks"].as_array().map(Vec::len),
        Some(1)
    );
    for link in ["data/networks-again", "data/shared", "data-alias"] {
        assert!(
            run.stderr.contains(&format!(
                "warning: ardana/recorded/linked-dirs/model/{link} is a symbolic link to a directory"
            )),
            "{link}: {}",
            run.stderr
        );
    }
    let run = ardana(&["validate", "ardana/recorded/linked-dirs/model"]);
    assert!(run.ok().contains("4 model files"), "{}", run.stdout);
}

#[test]
fn a_link_to_nothing_is_an_error_naming_it() {
    let run = ardana(&["read", "ardana/recorded/dangling-link/model"]);
    let err = run.fails(1);
    assert!(
        err.starts_with("error: data/gone.yml is a symbolic link to nothing (the Ardana service crashes here: FileNotFoundError)"),
        "{err}"
    );
    assert_eq!(run.stdout, "");
}

/// Copies a tree, links as links.
fn copy_with_links(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let (path, target) = (e.path(), to.join(e.file_name()));
        let meta = std::fs::symlink_metadata(&path).expect("metadata");
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&path).expect("link"), &target)
                .expect("symlink");
        } else if meta.is_dir() {
            copy_with_links(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

#[test]
fn write_goes_through_a_model_file_that_is_a_link_as_the_service_does() {
    // The service's `open(path, "w")` writes through a model file that is a link wherever it
    // leads; strata writes through one that stays inside the model directory (see
    // write_goes_through_links_inside_the_model_and_keeps_modes) and refuses one leading out of
    // it, as it refuses any write an input would steer outside: nothing changes.
    let tmp = tempfile::tempdir().expect("tempdir");
    copy_with_links(
        &crate::util::fixtures().join("ardana/recorded/linked-dirs"),
        tmp.path(),
    );
    let dir = tmp.path().join("model");
    let run = ardana(&["read", &dir.display().to_string()]);
    let mut model: Value = serde_json::from_str(run.ok()).expect("JSON");
    let servers = model["inputModel"]["servers"]
        .as_array_mut()
        .expect("servers");
    let s2 = servers
        .iter_mut()
        .find(|s| s["id"] == "s2")
        .expect("s2, from the linked file");
    s2["role"] = Value::from("storage");
    let json = write_json(&dir, &model);
    let outside_file = tmp.path().join("outside/more-servers.yml");
    let before = std::fs::read_to_string(&outside_file).expect("read");
    let err = ardana(&["write", &json, &dir.display().to_string()])
        .fails(1)
        .to_string();
    assert!(err.contains("outside the model directory"), "{err}");
    let link = dir.join("data/linked-servers.yml");
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("there")
            .file_type()
            .is_symlink(),
        "still a link"
    );
    assert_eq!(
        std::fs::read_to_string(&outside_file).expect("read"),
        before
    );
}

/// Issue 36: `write` refuses a model `validate` would refuse (a server id twice) and changes
/// nothing; it reads the YAML `read --output yaml` prints from a .yaml file, and says it reads
/// JSON when a model that is not JSON has another name; `validate` and `write` take only the
/// options they honour.
#[test]
fn write_validates_first_reads_yaml_and_takes_only_its_options() {
    let (_tmp, dir, mut model) = model_copy();
    let d = dir.display().to_string();
    let before = tree(&dir);
    let servers = model["inputModel"]["servers"]
        .as_array_mut()
        .expect("servers");
    let twin = servers[0].clone();
    servers.push(twin);
    let json = write_json(&dir, &model);
    for dry in [true, false] {
        let mut argv = vec!["write"];
        if dry {
            argv.push("--dry-run");
        }
        argv.extend([json.as_str(), d.as_str()]);
        let err = ardana(&argv).fails(1).to_string();
        assert!(err.contains("breaks the input-model rules"), "{err}");
        assert!(err.contains("DuplicateListKey"), "{err}");
    }
    assert_eq!(tree(&dir), before, "nothing written");
    // YAML from `read --output yaml`, in a .yaml file: the same model, nothing to change.
    let yaml = ardana(&["read", "--output", "yaml", &d]).ok().to_string();
    let path = dir.parent().expect("parent").join("model.yaml");
    std::fs::write(&path, &yaml).expect("write");
    let run = ardana(&["write", &path.display().to_string(), &d]);
    assert_eq!(run.ok(), "0 added, 0 changed, 0 deleted, 7 unchanged\n");
    let misnamed = dir.parent().expect("parent").join("model.txt");
    std::fs::write(&misnamed, &yaml).expect("write");
    let err = ardana(&["write", &misnamed.display().to_string(), &d])
        .fails(1)
        .to_string();
    assert!(
        err.contains("a YAML model is read from a file named .yaml or .yml"),
        "{err}"
    );
    assert_eq!(tree(&dir), before);
    // Options a command does not honour are not offered.
    for argv in [
        vec!["validate", "-o", "out.json", d.as_str()],
        vec!["validate", "--explain", d.as_str()],
        vec!["validate", "--no-comments", d.as_str()],
        vec!["write", "--output", "json", json.as_str(), d.as_str()],
        vec!["write", "--explain", json.as_str(), d.as_str()],
    ] {
        let err = ardana(&argv).fails(2).to_string();
        assert!(err.contains("unexpected argument"), "{argv:?}: {err}");
    }
    ardana(&["validate", "--strict", "--jobs", "1", &d]).ok();
}
