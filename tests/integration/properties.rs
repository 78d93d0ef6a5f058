//! Property tests (proptest) on random value trees, through the library: render → load gives
//! the same tree (YAML read with YAML 1.1 rules, JSON), merging with an empty layer is the
//! identity where the semantics say so, cloud-init's `dict(replace)` / `dict(no_replace)` laws,
//! Datum's `Unique` (no duplicates, first-seen order), and renders that are deterministic.
//! Case counts are kept modest so the whole module runs in a few seconds.

use proptest::prelude::*;
use strata::frontend::lookup::{self, Hierarchy, LookupJob};
use strata::frontend::{merge, Input, NoFiles, Rendered, Run, Settings};
use strata::load::{json, yaml, LoadOptions};
use strata::render::{self, Format};
use strata::value::{Key, Kind, Map, Node, SourceMap, Span};

// ---- generators -------------------------------------------------------------------------------

/// Strings a YAML 1.1 reader could take for something else, or that need quoting or escapes.
const TRICKY: &[&str] = &[
    "",
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "n",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "0755",
    "0o17",
    "0x1F",
    "0b101",
    "1:30",
    "190:20:30.15",
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "1e3",
    "1_000",
    "+1",
    "-0",
    "3.",
    ".5",
    ".inf",
    "-.Inf",
    ".NaN",
    "=",
    "<<",
    " lead",
    "trail ",
    "a: b",
    "a #b",
    "#c",
    "- x",
    "-",
    "? q",
    "[x]",
    "{y}",
    "*a",
    "&b",
    "!t",
    "|",
    ">",
    "@x",
    "`x",
    "%x",
    "'q'",
    "\"d\"",
    "multi\nline",
    "trailing\n",
    "two\n\n",
    "\nlead",
    "  indented\nnext",
    "tab\tin",
    "cr\r\nlf",
    "é",
    "\u{85}",
    "\u{a0}",
    "\u{2028}",
    "\u{feff}x",
    "\u{7f}",
    "\u{1}",
    "\0",
    "x\u{ffff}",
    "...",
    "---",
    "--- x",
    "a:",
    "http://x",
    "12345678901234567890",
    "-9223372036854775809",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(TRICKY).prop_map(str::to_string),
        2 => "[a-z0-9 :#\\-.'\"]{0,10}",
        1 => any::<String>(),
    ]
}

fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => any::<f64>().prop_filter("finite", |f| f.is_finite()),
        1 => proptest::sample::select(vec![0.0, -0.0, 1.0, 1e300, 5e-324, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]),
    ]
}

fn leaf(json: bool) -> BoxedStrategy<Node> {
    let span = Span::NONE;
    let common = prop_oneof![
        Just(Node::null(span)),
        any::<bool>().prop_map(move |b| Node::new(Kind::Bool(b), span)),
        any::<i64>().prop_map(move |i| Node::new(Kind::Int(i), span)),
        text().prop_map(move |s| Node::str(s, span)),
        (i64::MAX as u128 + 1..u128::MAX)
            .prop_map(move |n| Node::new(Kind::BigInt(n.to_string().into()), span)),
    ];
    if json {
        prop_oneof![
            5 => common,
            1 => any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(move |f| Node::new(Kind::Float(f), span)),
        ]
        .boxed()
    } else {
        prop_oneof![
            6 => common,
            1 => float().prop_map(move |f| Node::new(Kind::Float(f), span)),
            1 => proptest::sample::select(vec!["2024-01-01", "2001-12-14 21:59:43.10 -5", "2002-12-14"])
                .prop_map(move |t| Node::new(Kind::Timestamp(t.into()), span)),
        ]
        .boxed()
    }
}

fn key(json: bool) -> BoxedStrategy<Key> {
    let span = Span::NONE;
    if json {
        text().prop_map(move |s| Key(Node::str(s, span))).boxed()
    } else {
        prop_oneof![
            5 => text().prop_map(move |s| Key(Node::str(s, span))),
            1 => any::<i64>().prop_map(move |i| Key(Node::new(Kind::Int(i), span))),
            1 => any::<bool>().prop_map(move |b| Key(Node::new(Kind::Bool(b), span))),
            1 => Just(Key(Node::null(span))),
        ]
        .boxed()
    }
}

fn map_of(entries: Vec<(Key, Node)>) -> Node {
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(k, v);
    }
    Node::map(m, Span::NONE)
}

fn tree(json: bool) -> impl Strategy<Value = Node> {
    leaf(json).prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(|v| Node::list(v, Span::NONE)),
            proptest::collection::vec((key(json), inner), 0..6).prop_map(map_of),
        ]
    })
}

/// A mapping with short lower-case keys (so layers share keys) and any values.
fn layer() -> impl Strategy<Value = Node> {
    let inner = leaf(false).prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(|v| Node::list(v, Span::NONE)),
            proptest::collection::vec(("[a-d]", inner), 0..4).prop_map(|kv| {
                map_of(kv.into_iter().map(|(k, v)| (Key::str(&k), v)).collect())
            }),
        ]
    });
    proptest::collection::vec(("[a-f]", inner), 0..6)
        .prop_map(|kv| map_of(kv.into_iter().map(|(k, v)| (Key::str(&k), v)).collect()))
}

// ---- helpers ----------------------------------------------------------------------------------

fn yaml_back(doc: &Node) -> Result<Node, String> {
    let text = render::yaml::to_string(doc, None);
    let mut sources = SourceMap::new();
    let id = sources.add("t.yaml", text.clone());
    let mut warnings = Vec::new();
    match yaml::load_single(&text, id, &LoadOptions::default(), &mut warnings) {
        Ok(Some(back)) => Ok(back),
        Ok(None) => Err(format!("no document in:\n{text}")),
        Err(e) => Err(format!("{}\n{text}", e.render(&sources))),
    }
}

fn input(name: &str, doc: &Node) -> Input {
    Input::new(name, render::yaml::to_string(doc, None).into_bytes())
}

/// `strata merge [--how SPEC] a.yaml b.yaml ...` through the library.
fn merged(layers: &[&Node], how: Option<&str>, explain: bool) -> (Rendered, SourceMap) {
    let inputs = layers
        .iter()
        .enumerate()
        .map(|(i, l)| input(&format!("l{i}.yaml"), l))
        .collect();
    let settings = Settings {
        explain,
        ..Settings::default()
    };
    let mut sources = SourceMap::new();
    let job = merge::MergeJob {
        inputs,
        how: how.map(str::to_string),
        rules: None,
    };
    let r = merge::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles))
        .unwrap_or_else(|e| panic!("merge failed: {}", e.render(&sources)));
    (r, sources)
}

fn merge_doc(layers: &[&Node], how: Option<&str>) -> Node {
    merged(layers, how, false).0.doc
}

fn entries(n: &Node) -> Vec<(Key, Node)> {
    n.as_map()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

/// `dict(replace)`: Python's `dict.update`, one level deep.
fn model_replace(a: &Node, b: &Node) -> Node {
    let mut m = a.as_map().cloned().unwrap_or_default();
    for (k, v) in entries(b) {
        m.insert(k, v);
    }
    Node::map(m, Span::NONE)
}

/// `dict(no_replace)` (recurse_dict is always on): old values stay, new keys are added, maps
/// on both sides merge recursively. `None` where another merger would decide (a new mapping
/// over an old non-mapping goes to that value's merger).
fn model_no_replace(a: &Node, b: &Node) -> Option<Node> {
    let mut m = a.as_map().cloned().unwrap_or_default();
    for (k, v) in entries(b) {
        match m.get(&k) {
            None => {
                m.insert(k, v);
            }
            Some(old) => match (old.as_map(), v.as_map()) {
                (Some(_), Some(_)) => {
                    let inner = model_no_replace(old, &v)?;
                    m.insert(k, inner);
                }
                (None, Some(_)) => return None,
                _ => {}
            },
        }
    }
    Some(Node::map(m, Span::NONE))
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- properties -------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn yaml_render_then_load_is_identity(doc in tree(false)) {
        let back = yaml_back(&doc).map_err(TestCaseError::fail)?;
        prop_assert_eq!(back, doc);
    }

    #[test]
    fn json_render_then_load_is_identity(doc in tree(true)) {
        let text = render::json::to_string(&doc).map_err(|e| TestCaseError::fail(e.message))?;
        let mut sources = SourceMap::new();
        let id = sources.add("t.json", text.clone());
        let back = json::load(&text, id, &LoadOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{}\n{text}", e.render(&sources))))?;
        prop_assert_eq!(back, doc);
    }

    #[test]
    fn a_render_is_deterministic(doc in tree(false)) {
        prop_assert_eq!(render::yaml::to_string(&doc, None), render::yaml::to_string(&doc, None));
        prop_assert_eq!(
            render::json::to_string(&doc).ok(),
            render::json::to_string(&doc).ok()
        );
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Merging with `{}` on either side changes nothing: the default deep merge and every
    /// cloud-init stack with a dict merger (a stack without one never merges at all).
    #[test]
    fn merging_with_an_empty_layer_is_identity(a in layer(), spec in 0usize..6) {
        let empty = Node::empty_map(Span::NONE);
        let how = [
            None,
            Some("dict(replace)+list()+str()"),
            Some("dict(no_replace)+list(append)+str(append)"),
            Some("dict(recurse_array,recurse_str)+list(prepend)"),
            Some("dict(allow_delete,replace)+list(replace)"),
            Some("list(extend)+dict()"),
        ][spec];
        prop_assert_eq!(&merge_doc(&[&a], how), &a);
        prop_assert_eq!(&merge_doc(&[&a, &empty], how), &a);
        prop_assert_eq!(&merge_doc(&[&empty, &a], how), &a);
    }

    /// Datum: a least specific layer with no data changes nothing in the whole-document RSOP.
    /// (Not `== a`: a null value counts as "not found"; and not on the most specific side: the
    /// RSOP lists the keys of the node document, which is the most specific layer.)
    #[test]
    fn an_empty_datum_layer_changes_nothing(a in layer()) {
        let empty = Node::empty_map(Span::NONE);
        let rsop = |layers: &[&Node]| -> Result<Node, TestCaseError> {
            let job = LookupJob {
                key: None,
                hierarchy: Hierarchy::Layers {
                    layers: layers
                        .iter()
                        .enumerate()
                        .map(|(i, l)| input(&format!("l{i}.yml"), l))
                        .collect(),
                    options: None,
                },
            };
            let mut sources = SourceMap::new();
            let settings = Settings::default();
            let r = lookup::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
            r.map(|r| r.doc)
                .map_err(|e| TestCaseError::fail(e.render(&sources)))
        };
        let alone = rsop(&[&a])?;
        prop_assert_eq!(&rsop(&[&a, &empty])?, &alone);
        prop_assert_eq!(&rsop(&[&a, &empty, &empty])?, &alone);
    }

    #[test]
    fn dict_replace_is_a_shallow_update(a in layer(), b in layer()) {
        let got = merge_doc(&[&a, &b], Some("dict(replace)+list()+str()"));
        prop_assert_eq!(&got, &model_replace(&a, &b));
        // Idempotent, and the later layer's values win at the top level.
        prop_assert_eq!(&merge_doc(&[&a, &a], Some("dict(replace)+list()+str()")), &a);
        for (k, v) in entries(&b) {
            prop_assert_eq!(got.as_map().and_then(|m| m.get(&k)), Some(&v));
        }
    }

    #[test]
    fn dict_no_replace_keeps_old_values_and_adds_new_keys(a in layer(), b in layer()) {
        let got = merge_doc(&[&a, &b], Some("dict(no_replace)+list()+str()"));
        if let Some(want) = model_no_replace(&a, &b) {
            prop_assert_eq!(&got, &want);
        }
        prop_assert_eq!(&merge_doc(&[&a, &a], Some("dict(no_replace)+list()+str()")), &a);
        // The old keys come first, in their order; new keys follow in the new layer's order.
        let keys: Vec<Key> = got.as_map().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let mut want: Vec<Key> = entries(&a).into_iter().map(|(k, _)| k).collect();
        for (k, _) in entries(&b) {
            if !want.contains(&k) {
                want.push(k);
            }
        }
        prop_assert_eq!(keys, want);
    }

    /// Datum `Unique`: no duplicates (typed comparison), every item of both layers present,
    /// and first-seen order with the most specific layer first.
    #[test]
    fn unique_merges_have_no_duplicates_and_keep_first_seen_order(
        x in proptest::collection::vec(0usize..9, 0..8),
        y in proptest::collection::vec(0usize..9, 0..8),
    ) {
        let pool = |i: usize| -> Node {
            let span = Span::NONE;
            match i {
                0 => Node::str("a", span),
                1 => Node::str("A", span),
                2 => Node::str("b", span),
                3 => Node::str("1", span),
                4 => Node::new(Kind::Int(1), span),
                5 => Node::new(Kind::Float(1.0), span),
                6 => Node::new(Kind::Bool(true), span),
                7 => Node::str("true", span),
                _ => Node::new(Kind::Int(2), span),
            }
        };
        let list = |v: &[usize]| Node::list(v.iter().map(|&i| pool(i)).collect::<Vec<_>>(), Span::NONE);
        let doc = |v: &[usize]| map_of(vec![(Key::str("items"), list(v))]);
        let options = Input::new("options.yml", b"lookup_options:\n  items: {merge_basetype_array: Unique}\n".to_vec());
        let job = LookupJob {
            key: Some("items".into()),
            hierarchy: Hierarchy::Layers {
                layers: vec![input("node.yml", &doc(&x)), input("role.yml", &doc(&y))],
                options: Some(options),
            },
        };
        let mut sources = SourceMap::new();
        let settings = Settings::default();
        let r = lookup::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles));
        let r = r.map_err(|e| TestCaseError::fail(e.render(&sources)))?;
        let mut want: Vec<Node> = Vec::new();
        for i in x.iter().chain(&y) {
            let n = pool(*i);
            if !want.contains(&n) {
                want.push(n);
            }
        }
        let got = r.doc.as_list().map(<[Node]>::to_vec).unwrap_or_default();
        for (i, n) in got.iter().enumerate() {
            prop_assert!(!got[..i].contains(n), "duplicate {:?} in {:?}", n, got);
        }
        prop_assert_eq!(got, want);
    }

    /// The same inputs give the same bytes, with and without --explain, YAML and JSON, even
    /// though every run hashes with fresh random seeds.
    #[test]
    fn a_merge_render_is_deterministic(a in layer(), b in layer(), spec in 0usize..3) {
        let how = [None, Some("dict(no_replace)+list(append)"), Some("dict(replace)+list(prepend)")][spec];
        let once = || {
            let mut out = Vec::new();
            for explain in [false, true] {
                let (r, sources) = merged(&[&a, &b], how, explain);
                for format in [Format::Yaml, Format::Json] {
                    out.push(if explain {
                        render::explain::render(&r, &sources, format, None).map_err(|e| e.message)
                    } else if matches!(format, Format::Yaml) {
                        Ok(render::yaml::to_string(&r.doc, r.header))
                    } else {
                        render::json::to_string(&r.doc).map_err(|e| e.message)
                    });
                }
            }
            out
        };
        prop_assert_eq!(once(), once());
    }
}
