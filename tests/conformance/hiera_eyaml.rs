//! Hiera eyaml conformance: strata's own recordings in `fixtures/hiera/eyaml` (a site with
//! `lookup_key: eyaml_lookup_key` levels, `puppet lookup` 7.23 with hiera-eyaml 3.3.0; its
//! README says how they were recorded). Each case of `cases.txt` runs `strata lookup --output
//! json --hiera HIERA --facts facts.yaml [--merge M] KEY` in the site folder (hiera-eyaml
//! opens a relative `pkcs7_private_key` from the working directory, and the recording ran
//! there), with the case's `env:VAR=FILE` environment variables (the text of FILE): `NAME.json`
//! must equal the output (and `NAME.warnings.txt`, hiera-eyaml's own warnings, asks for
//! strata's `no-effect` warning); `NAME.error.txt` means exit 1, an empty stdout, and a message
//! carrying Puppet's words (`puppet_words`).

use super::jobs;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/hiera/eyaml")
}

fn run(site: &Path, args: &[String], env: &[(String, String)]) -> (i32, String, String) {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = Command::new(assert_cmd::cargo::cargo_bin("strata"))
        .current_dir(site)
        .args(args)
        .env("STRATA_CACHE_DIR", jobs::index_cache())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run strata");
    let code = out.status.code().unwrap_or(-1);
    // The re-runs of check_jobs do not carry the environment.
    if env.is_empty() {
        jobs::check_jobs(site, &argv, code, &out.stdout, &out.stderr);
    }
    (
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What strata's message must hold for Puppet's (the part after `Error was`, OpenSSL's and
/// Ruby's words kept; a missing file is said in strata's words, with Ruby's after them).
fn puppet_words(recorded: &str, key: &str) -> Vec<String> {
    if let Some(m) = recorded.strip_prefix("cannot load such file -- ") {
        return vec![m.trim().to_string()];
    }
    // Not the lookup: JSON's generator fails on the decrypted bytes.
    if recorded.starts_with("source sequence is illegal/malformed utf-8") {
        return vec![recorded.trim().to_string()];
    }
    let mut words = vec![
        format!("Lookup of key '{key}' failed: hiera-eyaml backend error decrypting ENC["),
        format!("when looking up {key} in "),
    ];
    let why = recorded.split("Error was ").nth(1).unwrap_or("").trim();
    words.push(
        match why {
            "Could not parse the PKCS7: no start line" => "Could not parse the PKCS7",
            w => w,
        }
        .to_string(),
    );
    if why.starts_with("No such file or directory") {
        words.push("does not exist".into());
    }
    words
}

#[test]
fn hiera_eyaml_cases() {
    let root = root();
    let site = root.join("site");
    let cases = std::fs::read_to_string(root.join("cases.txt")).expect("cases.txt");
    let (mut agree, mut failures) = (0, Vec::new());
    let mut total = 0;
    for line in cases.lines() {
        let fields: Vec<&str> = line
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let [name, hiera, key, rest @ ..] = fields.as_slice() else {
            continue;
        };
        let merge: Vec<&&str> = rest.iter().filter(|f| !f.starts_with("env:")).collect();
        let env: Vec<(String, String)> = rest
            .iter()
            .filter_map(|f| f.strip_prefix("env:"))
            .map(|f| {
                let (var, file) = f.split_once('=').unwrap_or((f, ""));
                let text = if file.is_empty() {
                    String::new()
                } else {
                    std::fs::read_to_string(site.join(file)).expect("an env: file")
                };
                (var.to_string(), text)
            })
            .collect();
        total += 1;
        let mut args: Vec<String> = [
            "lookup",
            "--output",
            "json",
            "--hiera",
            hiera,
            "--facts",
            "facts.yaml",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(m) = merge.first() {
            args.extend(["--merge".to_string(), m.to_string()]);
        }
        args.push(key.to_string());
        let (code, out, err) = run(&site, &args, &env);
        let recorded = root.join("recorded");
        let result = if let Ok(exp) = std::fs::read_to_string(recorded.join(format!("{name}.json")))
        {
            let exp: Value = serde_json::from_str(&exp).expect("recorded JSON");
            let warned = recorded.join(format!("{name}.warnings.txt")).exists();
            match serde_json::from_str::<Value>(&out) {
                Ok(_) if warned != err.contains("[no-effect]") => {
                    Err(format!("hiera-eyaml warned: {warned}, strata: {err}"))
                }
                Ok(got) if code == 0 && got == exp => Ok(()),
                _ => Err(format!("expected {exp}, got exit {code}: {out}{err}")),
            }
        } else {
            let exp = std::fs::read_to_string(recorded.join(format!("{name}.error.txt")))
                .expect("a recorded answer");
            let missing: Vec<String> = puppet_words(&exp, key)
                .into_iter()
                .filter(|w| !err.contains(w.as_str()))
                .collect();
            if code == 1 && out.is_empty() && missing.is_empty() && !err.contains("panicked") {
                Ok(())
            } else {
                Err(format!(
                    "expected exit 1 with {missing:?} (Puppet: {exp}), got exit {code}: {out}{err}"
                ))
            }
        };
        match result {
            Ok(()) => agree += 1,
            Err(why) => failures.push(format!("{name}: {why}")),
        }
    }
    println!(
        "conformance: hiera eyaml {agree} of {total} as recorded from puppet lookup + hiera-eyaml"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 43, "the recorded cases are missing");
}
