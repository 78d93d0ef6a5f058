//! `strata cloud-init` over whole inputs: each segment is one user-data file (YAML,
//! #cloud-config-archive, MIME multipart, gzip, jsonp), a `@flags` segment picks the options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::cloudinit::{self, CloudInitJob};
use strata::frontend::{NoFiles, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut inputs = Vec::new();
    for seg in segments(data) {
        if seg.name == "flags" {
            flags = Flags::parse(seg.bytes);
        } else {
            inputs.push(seg.input());
        }
    }
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let job = CloudInitJob {
        inputs,
        instance_data: None,
    };
    let result = cloudinit::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
    finish(result, &sources, flags, &settings);
});
