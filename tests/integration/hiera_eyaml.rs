//! `strata lookup --hiera` on eyaml levels (`fixtures/hiera/eyaml/site`, test keys made with
//! `eyaml createkeys`): values decrypted (one line, `>` blocks, inside hashes and arrays,
//! inside text), the key from the level's options (opened from the working directory) or
//! `--eyaml-private-key`, `--allow-encrypted`, and every failure (no key, wrong key, corrupt
//! block, GPG) at file:line with exit 1 and nothing on stdout; the key and certificate from
//! environment variables (`pkcs7_private_key_env_var`), whose text is never shown. No decrypted secret may show
//! in an explanation, a report, a warning or an error.

use crate::util::{command, fixtures, strata, Run};

const HIERA: &str = "hiera/eyaml/site/hiera.yaml";
const FACTS: &str = "hiera/eyaml/site/facts.yaml";
const KEY: &str = "hiera/eyaml/site/keys/private_key.pkcs7.pem";

/// Every plaintext of the site's encrypted values.
const SECRETS: [&str; 14] = [
    "node-db-pw-7Qx",
    "tok-node-Zr81",
    "tls-key-node-K9",
    "common-db-pw-Aa1",
    "user-secret-Uu2",
    "deploy-pw-Dd3",
    "tls-key-common-C3",
    "ca-common-Cc4",
    "embedded-Ee5",
    "no-scheme-Nn6",
    "Ii7",
    "Mm8",
    "other-key-Oo9",
    "other-recipient-pw",
];

fn lookup(hiera: &str, extra: &[&str]) -> Run {
    let mut args = vec!["lookup", "--hiera", hiera, "--facts", FACTS];
    args.extend_from_slice(extra);
    strata(&args)
}

fn secret_in(text: &str) -> Option<&'static str> {
    SECRETS.iter().copied().find(|s| text.contains(s))
}

#[test]
fn values_are_decrypted_with_the_given_key() {
    let with_key =
        |k: &str| lookup(HIERA, &["--eyaml-private-key", KEY, "--output", "json", k]).json();
    assert_eq!(with_key("db_password"), "node-db-pw-7Qx");
    assert_eq!(with_key("api_token"), "tok-node-Zr81");
    assert_eq!(with_key("plain_in_eyaml"), "not a secret");
    assert_eq!(with_key("greeting"), "hello embedded-Ee5 world");
    assert_eq!(with_key("no_scheme"), "no-scheme-Nn6");
    assert_eq!(with_key("with_interp"), "pw-for-app07-Ii7");
    assert_eq!(with_key("multi_line"), "first line Mm8\nsecond line Mm8");
    assert_eq!(with_key("not_a_token"), "ENC[PKCS7,not base64!]");
    assert_eq!(
        with_key("tls"),
        serde_json::json!({"cert_path": "/etc/ssl/app07.pem", "protocols": ["TLSv1.2", "TLSv1.3"],
            "key": "tls-key-node-K9", "ca": "ca-common-Cc4"})
    );
    assert_eq!(
        with_key("users"),
        serde_json::json!(["admin", "user-secret-Uu2", {"name": "deploy", "password": "deploy-pw-Dd3"}, "ops"])
    );
}

#[test]
fn the_levels_key_is_opened_from_the_working_directory() {
    let site = fixtures().join("hiera/eyaml/site");
    let out = command()
        .current_dir(&site)
        .args([
            "lookup",
            "db_password",
            "--hiera",
            "hiera.yaml",
            "--facts",
            "facts.yaml",
        ])
        .env("STRATA_CACHE_DIR", "")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "node-db-pw-7Qx\n");
    // From fixtures/, `keys/private_key.pkcs7.pem` is not there (as for Puppet run elsewhere).
    let run = lookup(HIERA, &["db_password"]);
    let err = run.fails(1);
    assert!(run.stdout.is_empty());
    assert!(err.contains("keys/private_key.pkcs7.pem"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn without_a_key_plain_values_still_resolve() {
    let nokey = "hiera/eyaml/site/hiera-nokey.yaml";
    assert_eq!(lookup(nokey, &["plain_in_eyaml"]).ok(), "not a secret\n");
    assert_eq!(lookup(nokey, &["ntp_server"]).ok(), "ntp.example.net\n");
    let run = lookup(nokey, &["db_password"]);
    let err = run.fails(1);
    assert!(run.stdout.is_empty());
    for want in [
        "Lookup of key 'db_password' failed",
        "keys/missing.pem",
        "hiera/eyaml/site/data/secrets/nodes/app07.example.net.eyaml:2:14",
        "--eyaml-private-key",
    ] {
        assert!(err.contains(want), "{want} not in {err}");
    }
    // --allow-encrypted: the ENC[...] text as written.
    let out = lookup(nokey, &["--allow-encrypted", "--output", "json", "tls"]).json();
    assert!(out["key"]
        .as_str()
        .is_some_and(|k| k.starts_with("ENC[PKCS7,MIIB")));
    assert_eq!(out["cert_path"], "/etc/ssl/app07.pem");
}

#[test]
fn failures_are_clear_and_print_nothing() {
    let mut out = String::new();
    for (hiera, key) in [
        ("hiera-wrongkey.yaml", "db_password"),
        ("hiera.yaml", "corrupt"),
        ("hiera.yaml", "garbage"),
        ("hiera.yaml", "gpg_secret"),
        ("hiera.yaml", "other_key"),
        ("hiera-nopub.yaml", "db_password"),
    ] {
        let hiera = format!("hiera/eyaml/site/{hiera}");
        let key_file = if hiera.ends_with("wrongkey.yaml") {
            "hiera/eyaml/site/otherkeys/private_key.pkcs7.pem"
        } else {
            KEY
        };
        let args: &[&str] = if hiera.ends_with("nopub.yaml") {
            &[key]
        } else {
            &["--eyaml-private-key", key_file, key]
        };
        let run = lookup(&hiera, args);
        let err = run.fails(1);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert_eq!(secret_in(err), None, "{err}");
        out.push_str(&format!("== {hiera} {key}\n{err}\n"));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn explanations_never_show_a_secret() {
    let base = ["--eyaml-private-key", KEY];
    for key in [
        "db_password",
        "tls",
        "users",
        "greeting",
        "with_interp",
        "multi_line",
    ] {
        // The report replaces the value: no secret at all.
        let run = lookup(HIERA, &[&base[..], &["--explain-levels", key]].concat());
        let report = run.ok();
        assert_eq!(secret_in(report), None, "{key}: {report}");
        assert_eq!(secret_in(&run.stderr), None);
        assert!(report.contains("Decrypted"), "{report}");
        // --explain: the value is the output; its comments and history hold no secret.
        for flags in [
            &["--explain"][..],
            &["--explain=/"],
            &["--explain", "--output", "json"],
        ] {
            let run = lookup(HIERA, &[&base[..], flags, &[key]].concat());
            let out = run.ok();
            assert_eq!(secret_in(&run.stderr), None);
            if flags.contains(&"json") {
                let v: serde_json::Value = serde_json::from_str(out).expect("json");
                let explain = v["explain"].to_string();
                assert_eq!(secret_in(&explain), None, "{explain}");
                continue;
            }
            for line in out.lines() {
                let comment = line
                    .trim_start()
                    .strip_prefix('#')
                    .unwrap_or_else(|| line.split_once("  # ").map_or("", |(_, c)| c));
                assert_eq!(secret_in(comment), None, "{key}: {line}");
            }
        }
    }
    // The explanation says where a value was decrypted.
    let run = lookup(HIERA, &[&base[..], &["--explain=/key", "tls"]].concat());
    assert!(
        run.ok().contains("substituted by hiera-eyaml"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_whole_document_fails_whole() {
    // The site holds a corrupt block: the whole document fails and prints no value at all.
    let run = lookup(HIERA, &["--eyaml-private-key", KEY]);
    let err = run.fails(1);
    assert!(run.stdout.is_empty());
    assert_eq!(secret_in(err), None, "{err}");
    // --allow-encrypted renders every key, the ENC[...] text unchanged.
    let out = lookup("hiera/eyaml/site/hiera-nokey.yaml", &["--allow-encrypted"]);
    let doc = out.ok();
    assert!(doc.contains("ENC[GPG,"), "{doc}");
    assert_eq!(secret_in(doc), None);
}

/// A run with the key pair in hiera-eyaml's environment variables.
fn with_env(hiera: &str, private: &str, extra: &[&str]) -> Run {
    let cert =
        std::fs::read_to_string(fixtures().join("hiera/eyaml/site/keys/public_key.pkcs7.pem"))
            .expect("the test certificate");
    let out = command()
        .args(["lookup", "--hiera", hiera, "--facts", FACTS])
        .args(extra)
        .env("EYAML_PRIVATE_KEY", private)
        .env("EYAML_PUBLIC_KEY", cert)
        .output()
        .expect("run strata");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn keys_from_the_environment_are_used_and_never_shown() {
    let key = std::fs::read_to_string(fixtures().join(KEY)).expect("the test key");
    let hiera = "hiera/eyaml/site/hiera-env.yaml";
    let run = with_env(hiera, &key, &["--explain-levels", "db_password"]);
    let report = run.ok();
    assert!(
        report.contains("with $EYAML_PRIVATE_KEY (pkcs7_private_key_env_var"),
        "{report}"
    );
    assert_eq!(secret_in(report), None, "{report}");
    assert!(!report.contains("PRIVATE KEY-----"), "{report}");
    let run = with_env(hiera, &key, &["--output", "json", "tls"]);
    assert_eq!(run.json()["key"], "tls-key-node-K9");
    // Not a key: OpenSSL's words, and nothing of the variable's text.
    let run = with_env(hiera, "not-a-key-Xq7", &["db_password"]);
    let err = run.fails(1);
    assert!(err.contains("Neither PUB key nor PRIV key"), "{err}");
    assert!(!err.contains("not-a-key-Xq7"), "{err}");
    assert!(run.stdout.is_empty());
    // The variable wins over the file (the other key does not pair with the certificate).
    let other = std::fs::read_to_string(
        fixtures().join("hiera/eyaml/site/otherkeys/private_key.pkcs7.pem"),
    )
    .expect("the other test key");
    let run = with_env("hiera/eyaml/site/hiera-both.yaml", &other, &["db_password"]);
    let err = run.fails(1);
    assert!(
        err.contains("private key does not match certificate"),
        "{err}"
    );
    assert!(err.contains("[no-effect]"), "{err}");
    assert!(!err.contains("PRIVATE KEY-----"), "{err}");
}
