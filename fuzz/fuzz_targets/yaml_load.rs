//! The YAML loader on arbitrary bytes (both scalar rule sets), then render → load of every
//! document it accepts must give the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::{add_text_input, Input, Settings};
use strata::load::yaml;
use strata::value::SourceMap;
use strata_fuzz::{check_round_trip, load_options};

fuzz_target!(|data: &[u8]| {
    let yaml12 = data.first().is_some_and(|b| b & 1 == 1);
    let settings = Settings {
        load: load_options(yaml12),
        explain: false,
    };
    let mut sources = SourceMap::new();
    let input = Input::new("fuzz.yaml", data.to_vec());
    let id = match add_text_input(input, &mut sources, &settings) {
        Ok(id) => id,
        Err(e) => {
            let _ = e.render(&sources);
            return;
        }
    };
    let mut warnings = Vec::new();
    match yaml::load_stream(sources.text(id), id, &settings.load, &mut warnings) {
        Ok(docs) => {
            for w in &warnings {
                let _ = w.render(&sources);
            }
            if !yaml12 {
                for doc in &docs {
                    check_round_trip(doc);
                }
            }
        }
        Err(e) => {
            let _ = e.render(&sources);
        }
    }
    let _ = yaml::load_single(sources.text(id), id, &settings.load, &mut warnings);
});
