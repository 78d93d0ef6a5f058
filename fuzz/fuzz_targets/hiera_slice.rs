//! Hiera's data file indexes (`frontend::hiera::slice`) on arbitrary YAML: whenever a file
//! that loads whole without a warning gets an index, every top-level entry parsed alone from
//! it must be the whole parse's value with the same spans (positions in messages), every
//! key the file lacks must be missing from the index, the index must read back only for
//! the stamp and text length it was made with, and each entry's value written with the
//! comments and spellings recorded from its entry (and the last one) must be written as from
//! the whole text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::frontend::hiera::slice::{build, entry, stamp, Found, Index};
use strata::load::{load_document, LoadOptions};
use strata::render::yaml::to_string_styled;
use strata::value::style::{StyleBook, StyleSink};
use strata::value::{Kind, Node, SourceMap};
use strata_fuzz::load_options;

/// Equal values with equal spans, all the way down (NaN equal to NaN).
fn same(a: &Node, b: &Node) -> bool {
    if a.span != b.span {
        return false;
    }
    match (&a.kind, &b.kind) {
        (Kind::Map(x), Kind::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| same(&ka.0, &kb.0) && same(va, vb))
        }
        (Kind::List(x), Kind::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q))
        }
        (Kind::Float(x), Kind::Float(y)) if x.is_nan() => y.is_nan(),
        _ => a.py_eq(b),
    }
}

/// Loads with the styles recorded, as a YAML render does: the document and the book.
fn styled(text: &str, id: u32, opts: &LoadOptions) -> Option<(Node, StyleBook)> {
    let sink = StyleSink::default();
    let opts = LoadOptions {
        styles: Some(sink.clone()),
        ..opts.clone()
    };
    let doc = load_document(text, id, false, &opts, &mut Vec::new()).ok()??;
    Some((doc, sink.book()))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let opts = load_options(data.first().is_some_and(|b| b & 1 == 1));
    let mut sources = SourceMap::new();
    sources.add("before.yaml", "x: 1\n".into());
    let id = sources.add("data.yaml", text.to_string());
    let mut warnings = Vec::new();
    let Ok(Some(doc)) = load_document(text, id, false, &opts, &mut warnings) else {
        return;
    };
    if !warnings.is_empty() {
        return;
    }
    let s = stamp(text.as_bytes(), &opts);
    let Some(bytes) = build(&doc, text, id, s, 0) else {
        return;
    };
    assert!(Index::read(bytes.clone(), s ^ 1, text.len()).is_none());
    assert!(Index::read(bytes.clone(), s, text.len() + 1).is_none());
    let index = Index::read(bytes, s, text.len()).expect("an index reads back");
    let Kind::Map(map) = &doc.kind else {
        panic!("an index of a document that is not a mapping");
    };
    let (whole, whole_book) = styled(text, id, &opts).expect("loads with styles too");
    let last = index.last().expect("an index has a last entry");
    for (key, value) in map.iter() {
        let name = key.as_str().expect("only string keys are indexed");
        let range = match index.find(name) {
            Found::At(start, end) => (start, end),
            Found::Unsure => continue,
            Found::Missing => panic!("{name:?} is not in the index"),
        };
        let alone =
            entry(text, range, Some(name), id, &opts, None).expect("every entry parses alone");
        assert!(same(&alone, value), "entry {name:?} differs:\n{text}");
        let other = format!("{name}\u{1}");
        if map.get(&strata::value::Key::str(&other)).is_none() {
            if let Found::At(start, end) = index.find(&other) {
                assert!(entry(text, (start, end), Some(&other), id, &opts, None).is_none());
            }
        }
        // Written with the comments and spellings recorded from the entry (and the last
        // entry, which holds the closing comments), as from the whole text.
        let sink = StyleSink::default();
        let recording = LoadOptions {
            styles: Some(sink.clone()),
            ..opts.clone()
        };
        let seq = index.seq_indent();
        let alone = entry(text, range, Some(name), id, &recording, seq).expect("parses again");
        if last != range {
            entry(text, last, None, id, &recording, seq).expect("the last entry parses");
        }
        let book = sink.book();
        let want = to_string_styled(whole.get(name).expect("key"), None, Some(&whole_book));
        let got = to_string_styled(&alone, None, Some(&book));
        assert_eq!(got, want, "entry {name:?} written differently:\n{text}");
    }
});
