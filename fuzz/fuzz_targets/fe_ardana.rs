//! `strata ardana read` over whole models. Every named segment is a file of the model, by its
//! path inside it (`cloudConfig.yml`, `data/servers.yml`, `README.md`); an unnamed first
//! segment is cloudConfig.yml; `@flags` gives the common options. The result (or error) goes
//! through the same checks as every front-end's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::PathBuf;
use strata::frontend::ardana::{self, ArdanaJob};
use strata::frontend::{Input, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags, MemFiles};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut files = BTreeMap::new();
    for (i, seg) in segments(data).into_iter().enumerate() {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            name if i == 0 && !name.contains('/') && !name.ends_with(".yml") => {
                files.insert(
                    "m/cloudConfig.yml".to_string(),
                    Input::new("m/cloudConfig.yml", seg.bytes.to_vec()),
                );
            }
            name => {
                let path = format!("m/{name}");
                files.insert(path.clone(), Input::new(path, seg.bytes.to_vec()));
            }
        }
    }
    let job = ArdanaJob {
        dir: PathBuf::from("m"),
    };
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let mut files = MemFiles(files);
    let result = ardana::read(&job, &mut Run::new(&mut sources, &settings, &mut files));
    finish(result, &sources, flags, &settings);
});
