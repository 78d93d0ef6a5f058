//! `strata deckhand` over whole inputs: segments are the YAML files of a document set (in
//! order), `@flags` the options (`e` explain, `j` JSON, `s` strict, plus `v` --validate,
//! `c` --check-schemas, `l` --allow-missing-substitution-source).
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::deckhand::{self, DeckhandJob};
use strata::frontend::{NoFiles, Run};
use strata::value::SourceMap;
use strata_fuzz::{finish, segments, settings, Flags};

fuzz_target!(|data: &[u8]| {
    let mut flags = Flags::default();
    let mut raw_flags: &[u8] = &[];
    let mut inputs = Vec::new();
    for seg in segments(data) {
        match seg.name.as_str() {
            "flags" => {
                flags = Flags::parse(seg.bytes);
                raw_flags = seg.bytes;
            }
            _ => inputs.push(seg.input()),
        }
    }
    let job = DeckhandJob {
        inputs,
        validate: raw_flags.contains(&b'v'),
        check_schemas: raw_flags.contains(&b'c'),
        lenient: raw_flags.contains(&b'l'),
    };
    let settings = settings(flags);
    let mut sources = SourceMap::new();
    let result = deckhand::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
    finish(result, &sources, flags, &settings);
});
