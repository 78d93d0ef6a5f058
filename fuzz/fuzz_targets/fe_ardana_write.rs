//! `strata ardana write` planning (issues 14 and 17): a model directory as in fe_ardana, plus a
//! segment `@model.json` holding the combined model to write (JSON or YAML; without it, what
//! `read` makes of the directory). Planning must not panic, never names a file outside the
//! directory, and every file it would write parses back. The inputs' comments and spellings
//! are recorded, so the styled writer and the graft of a changed file onto its old tree run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use strata::frontend::ardana::{self, write, ArdanaJob};
use strata::frontend::{Input, Run};
use strata::load::{yaml, LoadOptions};
use strata::value::style::StyleSink;
use strata::value::SourceMap;
use strata_fuzz::{segments, settings, Flags, MemFiles};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut files = BTreeMap::new();
    let mut model_text = None;
    for (i, seg) in segments(data).into_iter().enumerate() {
        match seg.name.as_str() {
            "flags" => flags = Flags::parse(seg.bytes),
            "model.json" => model_text = Some(seg.text()),
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
    let mut settings = settings(flags);
    settings.load.styles = Some(StyleSink::default());
    let mut sources = SourceMap::new();
    let mut mem = MemFiles(files);
    let model = match model_text {
        Some(text) => {
            let id = sources.add("model.json", text.clone());
            let mut w = Vec::new();
            match yaml::load_single(&text, id, &settings.load, &mut w) {
                Ok(Some(doc)) => doc,
                _ => return,
            }
        }
        None => {
            let job = ArdanaJob {
                dir: PathBuf::from("m"),
            };
            match ardana::read(&job, &mut Run::new(&mut sources, &settings, &mut mem)) {
                Ok(r) => r.doc,
                Err(_) => return,
            }
        }
    };
    let mut run = Run::new(&mut sources, &settings, &mut mem);
    let Ok(changes) = write::plan(&model, Path::new("m"), &mut run) else {
        return;
    };
    for c in changes {
        assert!(
            !c.rel.starts_with('/') && !c.rel.split('/').any(|p| p == ".."),
            "a planned file outside the directory: {}",
            c.rel
        );
        if let Some(text) = c.text {
            let id = sources.add(c.rel.clone(), text.clone());
            let mut w = Vec::new();
            if let Err(e) = yaml::load_single(&text, id, &LoadOptions::default(), &mut w) {
                panic!(
                    "{} would be written as YAML that does not parse: {e:?}\n{text}",
                    c.rel
                );
            }
        }
    }
});
