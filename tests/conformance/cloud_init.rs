//! cloud-init conformance: the 12 `merge_sources` groups from cloud-init's own test suite. Each
//! group's sources go through `strata cloud-init` as separate user-data inputs, in file-name
//! order; the result must equal `expectedN.yaml` loaded as data (typed comparison).

use super::{strata, suite};
use std::collections::BTreeMap;

#[test]
fn merge_sources_groups() {
    let Some(dir) = suite("cloud-init") else {
        return;
    };
    let dir = dir.join("merge_sources");
    let mut groups: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("read merge_sources") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(rest) = name.strip_prefix("source") {
            let n: u32 = rest
                .split('-')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("sourceN-M.yaml");
            groups
                .entry(n)
                .or_default()
                .push(dir.join(&name).display().to_string());
        }
    }
    assert_eq!(groups.len(), 12, "expected 12 groups");
    let mut failures = Vec::new();
    for (n, mut files) in groups {
        files.sort();
        let mut args = vec!["cloud-init".to_string(), "--output".into(), "json".into()];
        args.extend(files);
        let (code, got, err) = strata(&args);
        let expected_file = dir.join(format!("expected{n}.yaml")).display().to_string();
        let (_, want, _) = strata(&[
            "merge".into(),
            "--output".into(),
            "json".into(),
            expected_file,
        ]);
        let got: Option<serde_json::Value> = serde_json::from_str(&got).ok();
        let want: serde_json::Value = serde_json::from_str(&want).expect("expected file loads");
        if code != 0 || got.as_ref() != Some(&want) {
            failures.push(format!(
                "group {n}: exit {code}\n got: {got:?}\nwant: {want}\n{err}"
            ));
        }
    }
    println!(
        "cloud-init conformance: {} of 12 groups match",
        12 - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
