//! The YAML loader on arbitrary bytes (both scalar rule sets), then render → load of every
//! document it accepts must give the same tree, and the stream loaded in pieces on threads
//! (every document its own piece) must give what one pass gives: the same documents and
//! spans, or the same error at the same place. Likewise one document loaded in pieces cut at
//! its top-level keys (`load_single`), down to every node's span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::{add_text_input, Input, Settings};
use strata::load::{yaml, LoadOptions};
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
    let one_pass = yaml::load_stream(sources.text(id), id, &settings.load, &mut warnings);
    let pieces = LoadOptions {
        threads: strata::load::Threads {
            jobs: 3,
            min_bytes: 0,
        },
        ..settings.load.clone()
    };
    let split = yaml::load_stream(sources.text(id), id, &pieces, &mut Vec::new());
    match (&one_pass, &split) {
        (Ok(a), Ok(b)) => {
            assert!(a == b, "pieces give other documents");
            let spans = |d: &[strata::value::Node]| d.iter().map(|n| n.span).collect::<Vec<_>>();
            assert_eq!(spans(a), spans(b), "pieces give other spans");
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                (&a.message, a.span),
                (&b.message, b.span),
                "pieces give another error"
            );
        }
        _ => panic!("one pass and pieces disagree on success"),
    }
    match one_pass {
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
    let one = LoadOptions {
        threads: strata::load::Threads {
            jobs: 1,
            ..settings.load.threads
        },
        ..settings.load.clone()
    };
    let single = yaml::load_single(sources.text(id), id, &one, &mut warnings);
    let split = yaml::load_single(sources.text(id), id, &pieces, &mut Vec::new());
    match (&single, &split) {
        (Ok(a), Ok(b)) => {
            assert!(a == b, "pieces give another document");
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            a.iter().for_each(|n| spans(n, &mut sa));
            b.iter().for_each(|n| spans(n, &mut sb));
            assert_eq!(sa, sb, "pieces give other spans");
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                (&a.message, a.span),
                (&b.message, b.span),
                "pieces give another error"
            );
        }
        _ => panic!("one pass and pieces disagree on success"),
    }
});

/// Every node's span, keys included, in order.
fn spans(n: &strata::value::Node, out: &mut Vec<strata::value::Span>) {
    use strata::value::Kind;
    out.push(n.span);
    match &n.kind {
        Kind::Map(m) | Kind::Set(m) => {
            for (k, v) in m.iter() {
                spans(&k.0, out);
                spans(v, out);
            }
        }
        Kind::List(l) | Kind::Tuple(l) => l.iter().for_each(|i| spans(i, out)),
        _ => {}
    }
}
