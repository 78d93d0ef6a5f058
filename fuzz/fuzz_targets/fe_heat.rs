//! `strata heat` over whole inputs: segments are `-e` environment files, `@template.yaml` is
//! `--template`, `@params` holds `NAME=VALUE` lines for `-P`, `@flags` the options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::heat::{self, HeatJob};
use strata::frontend::{NoFiles, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut job = HeatJob {
        template: None,
        params: Vec::new(),
        envs: Vec::new(),
    };
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "params" => {
                for line in seg.text().lines() {
                    if let Some((n, v)) = line.split_once('=') {
                        job.params.push((n.to_string(), v.to_string()));
                    }
                }
            }
            n if n.starts_with("template") => job.template = Some(seg.input()),
            _ => job.envs.push(seg.input()),
        }
    }
    if job.envs.is_empty() {
        return;
    }
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let result = heat::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
    finish(result, &sources, flags, &settings);
});
