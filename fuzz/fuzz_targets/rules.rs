//! lookup_options / `--rules`: an options document compiled in both forms (Datum's
//! `lookup_options` keys, and the bare mapping `strata merge --rules` accepts), with and without
//! case folding, then every key path of the document run through rule selection.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::lookup::layers::{rules_from_doc, OptionsForm};
use strata::frontend::lookup::rules::Fallback;
use strata::load;
use strata::value::{Node, SourceMap};
use strata_fuzz::load_options;

fn paths(node: &Node, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if out.len() > 200 {
        return;
    }
    if let Some(map) = node.as_map() {
        for (k, v) in map.iter() {
            prefix.push(k.as_str().unwrap_or("?").to_string());
            out.push(prefix.clone());
            if prefix.len() < 8 {
                paths(v, prefix, out);
            }
            prefix.pop();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let json = data.first() == Some(&b'{');
    let text = String::from_utf8_lossy(data).into_owned();
    let mut sources = SourceMap::new();
    let id = sources.add("rules.yaml", text);
    let mut warnings = Vec::new();
    let doc = match load::load_document(
        sources.text(id),
        id,
        json,
        &load_options(false),
        &mut warnings,
    ) {
        Ok(d) => d,
        Err(e) => {
            let _ = e.render(&sources);
            return;
        }
    };
    let mut all = Vec::new();
    if let Some(d) = &doc {
        paths(d, &mut Vec::new(), &mut all);
    }
    for form in [OptionsForm::Datum, OptionsForm::Bare] {
        for fold in [false, true] {
            for fallback in [Fallback::Datum, Fallback::PlainMerge] {
                match rules_from_doc(doc.as_ref(), form, fold, fallback, &mut warnings) {
                    Ok(rules) => {
                        for p in &all {
                            let _ = rules.select(p);
                            let _ = rules.explicit(p);
                        }
                    }
                    Err(e) => {
                        let _ = e.render(&sources);
                    }
                }
            }
        }
    }
    for w in &warnings {
        let _ = w.render(&sources);
    }
});
