//! The JSON loader on arbitrary bytes; what it accepts must survive render → load unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::{add_text_input, Input, Settings};
use strata::load::json;
use strata::value::SourceMap;
use strata_fuzz::{check_round_trip, load_options};

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        load: load_options(false),
        explain: false,
    };
    let mut sources = SourceMap::new();
    let input = Input::new("fuzz.json", data.to_vec());
    let id = match add_text_input(input, &mut sources, &settings) {
        Ok(id) => id,
        Err(e) => {
            let _ = e.render(&sources);
            return;
        }
    };
    match json::load(sources.text(id), id, &settings.load) {
        Ok(doc) => {
            check_round_trip(&doc);
            // JSON text written from a JSON tree reads back as the same tree.
            if let Ok(text) = strata::render::json::to_string(&doc) {
                let back_id = sources.add("back.json", text.clone());
                match json::load(&text, back_id, &settings.load) {
                    Ok(back) => assert!(back == doc, "JSON round trip changed:\n{text}"),
                    Err(e) => panic!("{}", e.render(&sources)),
                }
            }
        }
        Err(e) => {
            let _ = e.render(&sources);
        }
    }
});
