//! `strata merge` over whole inputs: segments are the files (named `*.json` to load as JSON),
//! `@how` gives `--how`, `@rules.yaml` / `@rules.json` gives `--rules`, `@flags` the options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::merge::{self, MergeJob};
use strata::frontend::{NoFiles, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut how = None;
    let mut rules = None;
    let mut inputs = Vec::new();
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "how" => how = Some(seg.text()),
            n if n.starts_with("rules") => rules = Some(seg.input()),
            _ => inputs.push(seg.input()),
        }
    }
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let job = MergeJob { inputs, how, rules };
    let result = merge::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
    finish(result, &sources, flags, &settings);
});
