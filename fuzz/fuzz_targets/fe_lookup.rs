//! `strata lookup` over whole inputs. `@key` gives KEY (absent: every key, the RSOP) and
//! `@flags` the options. With a `@Datum.yml` segment it is a Datum tree: `@node.yml` is
//! `--node` and every other named segment is a file of the tree, read by its path. Without
//! it, segments are `--layer` files (most specific first) and `@options.yml` is `--options`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::PathBuf;
use strata::frontend::lookup::{self, Hierarchy, LookupJob};
use strata::frontend::{Input, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags, MemFiles};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut key = None;
    let mut datum = None;
    let mut node = None;
    let mut options = None;
    let mut files: BTreeMap<String, Input> = BTreeMap::new();
    let mut layers = Vec::new();
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "key" => key = Some(seg.text().trim_end_matches('\n').to_string()),
            "Datum.yml" => datum = Some(seg.input()),
            "node.yml" => node = Some(seg.input()),
            "options.yml" => options = Some(seg.input()),
            name => {
                files.insert(name.to_string(), seg.input());
                layers.push(seg.input());
            }
        }
    }
    let hierarchy = match (datum, node) {
        (Some(datum), Some(node)) => Hierarchy::Datum {
            datum,
            node,
            root: PathBuf::new(),
        },
        (Some(datum), None) => Hierarchy::Datum {
            datum,
            node: Input::new("node.yml", b"{}".to_vec()),
            root: PathBuf::new(),
        },
        _ if layers.is_empty() => return,
        _ => Hierarchy::Layers { layers, options },
    };
    let mut files = MemFiles(files);
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let job = LookupJob { key, hierarchy };
    let result = lookup::render(job, &mut Run::new(&mut sources, &settings, &mut files));
    finish(result, &sources, flags, &settings);
});
