//! cloud-init's merger grammar: the string form on the raw text, and the dict/list form on
//! whatever the text loads to as YAML (and on each value of a mapping).
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::cloudinit::how;
use strata::load::yaml;
use strata::strategy::Origin;
use strata::value::{SourceMap, Span};
use strata_fuzz::load_options;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let origin = Origin::Default("fuzz".into());
    let _ = how::parse_string(&text, &origin, Span::NONE);
    let mut sources = SourceMap::new();
    let id = sources.add("how.yaml", text.clone().into_owned());
    let mut warnings = Vec::new();
    if let Ok(Some(doc)) = yaml::load_single(&text, id, &load_options(false), &mut warnings) {
        let _ = how::parse_value(&doc, &origin);
        if let Some(map) = doc.as_map() {
            for v in map.values() {
                match v.as_str() {
                    Some(s) => {
                        let _ = how::parse_string(s, &origin, v.span);
                    }
                    None => {
                        let _ = how::parse_value(v, &origin);
                    }
                }
            }
        }
    }
});
