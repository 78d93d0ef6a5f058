//! cloud-init `## template: jinja` parts: each segment is a user-data file (a template, a MIME
//! message with text/jinja2 parts, an archive), rendered with instance data (an
//! `@instance-data.json` segment, else the fixtures' instance data) through the template
//! renderer alone and through `strata cloud-init --instance-data`; `@flags` picks the options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::cloudinit::{self, instance::InstanceData, jinja};
use strata::frontend::{Input, NoFiles, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags};

const DATA: &str = include_str!("../../fixtures/cloud-init/jinja/instance-data.json");

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut inputs = Vec::new();
    let mut instance = Input::new("instance-data.json".to_string(), DATA.as_bytes().to_vec());
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "instance-data.json" => instance = seg.input(),
            _ => inputs.push(seg.input()),
        }
    }
    // The renderer alone: whatever the template, a result, never a panic; a rendered text
    // holds a marker for each name it lists.
    if let Ok(parsed) = InstanceData::parse(&String::from_utf8_lossy(&instance.bytes)) {
        for input in &inputs {
            let text = String::from_utf8_lossy(&input.bytes);
            if let jinja::Rendered::Text { text, missing, .. } = jinja::render(&text, &parsed) {
                assert!(missing.len() <= text.matches(jinja::MISSING_PREFIX).count());
            }
        }
    }
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let job = cloudinit::CloudInitJob {
        inputs,
        instance_data: Some(instance),
    };
    let result = cloudinit::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
    finish(result, &sources, flags, &settings);
});
