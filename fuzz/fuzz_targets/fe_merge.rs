//! `strata merge` over whole inputs: segments are the files (named `*.json` to load as JSON),
//! `@how` gives `--how`, `@rules.yaml` / `@rules.json` gives `--rules`, `@flags` the options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::merge;
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
    let result = merge::render(inputs, how.as_deref(), rules, &mut sources, &settings);
    finish(result, &sources, flags, &settings);
});
