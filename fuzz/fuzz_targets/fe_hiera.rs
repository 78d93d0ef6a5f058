//! `strata lookup --hiera` over whole inputs. `@hiera.yaml` is the configuration (absent: a
//! three-level default naming data/node.yaml, data/role.yaml and data/common.yaml),
//! `@facts.yaml` the facts, `@key` gives KEY (absent: the whole document), `@merge` the
//! explicit merge (first line the strategy, further lines `ko=P`, `sort`, `mha`),
//! `@levels` asks for the `--explain-levels` report and `@flags` the common options. Every
//! other named segment is a data file read by its path (`data/common.yaml`); folders for
//! globs are listed from those names.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::PathBuf;
use strata::frontend::hiera::{self, HieraJob, MergeArgs};
use strata::frontend::{Input, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags, MemFiles};

const DEFAULT: &[u8] = b"version: 5\nhierarchy:\n  - {name: Node, path: node.yaml}\n  - {name: Role, path: role.yaml}\n  - {name: Common, path: common.yaml}\n";

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut key = None;
    let mut config = Input::new("hiera.yaml", DEFAULT.to_vec());
    let mut facts = None;
    let mut merge = MergeArgs::default();
    let mut levels = false;
    let mut files = BTreeMap::new();
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "key" => key = Some(seg.text().trim_end_matches('\n').to_string()),
            "hiera.yaml" => config = seg.input(),
            "facts.yaml" => facts = Some(seg.input()),
            "levels" => levels = true,
            "merge" => {
                let text = seg.text();
                let mut lines = text.lines();
                merge.strategy = lines.next().map(|s| s.trim().to_string());
                for l in lines {
                    match l.trim() {
                        "sort" => merge.sort_merged_arrays = true,
                        "mha" => merge.merge_hash_arrays = true,
                        l => merge.knockout_prefix = l.strip_prefix("ko=").map(str::to_string),
                    }
                }
            }
            name => {
                files.insert(name.to_string(), seg.input());
            }
        }
    }
    let job = HieraJob {
        key,
        config,
        root: PathBuf::new(),
        facts,
        merge,
        default: None,
        explain_levels: levels,
        eyaml_private_key: None,
        allow_encrypted: false,
        env: None,
    };
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let mut files = MemFiles(files);
    let result = hiera::render(job, &mut Run::new(&mut sources, &settings, &mut files));
    let result = result.map(|out| {
        if let Some(report) = &out.report {
            assert!(report.ends_with('\n'));
        }
        out.rendered
    });
    finish(result, &sources, flags, &settings);
});
