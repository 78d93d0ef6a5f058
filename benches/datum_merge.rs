//! Datum merges of large arrays through the real lookup path (rules compiled from
//! lookup_options, layers folded by the engine, knockout markers stripped): Unique over scalar
//! arrays, UniqueKeyValTuples and DeepTuple over arrays of maps, at 10 000, 100 000 and 200 000
//! items per layer, so the growth factor shows the cost is linear; and an RSOP over a node
//! document of as many keys, compared case-insensitively (folded-key indexes, not scans). Plain `std::time::Instant`, no
//! harness: `cargo bench --bench datum_merge`.

use std::time::{Duration, Instant};
use strata::frontend::lookup::resolve::{DocLayers, Search};
use strata::frontend::lookup::rules::{compile, Fallback};
use strata::load::{yaml, LoadOptions};
use strata::value::{Key, Kind, Map, Node, SourceMap, Span};

const OPTIONS: &str = "
Features:
  merge_basetype_array: Unique
  merge_options:
    knockout_prefix: '--'
Disks:
  merge_hash_array: UniqueKeyValTuples
  merge_options:
    tuple_keys: [Number]
Packages:
  merge_hash_array: DeepTuple
  merge_options:
    knockout_prefix: '--'
    tuple_keys: [Name, Version]
";

fn s(text: String) -> Node {
    Node::str(text, Span::NONE)
}

fn map(entries: Vec<(&str, Node)>) -> Node {
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(Key::str(k), v);
    }
    Node::map(m, Span::NONE)
}

/// Layer `layer` of `n` items: half of them shared with the other layer.
fn layer(key: &str, n: usize, layer: usize) -> Node {
    let start = layer * n / 2;
    let items: Vec<Node> = (start..start + n)
        .map(|i| match key {
            "Features" => s(format!("feature-{i}")),
            "Disks" => map(vec![
                ("Number", Node::new(Kind::Int(i as i64), Span::NONE)),
                ("Label", s(format!("disk {i} of layer {layer}"))),
            ]),
            _ => map(vec![
                ("Name", s(format!("Package{i}"))),
                ("Version", s("1.0".into())),
                (
                    if layer == 0 { "Ensure" } else { "Source" },
                    s(format!("layer{layer}")),
                ),
            ]),
        })
        .collect();
    map(vec![(key, Node::list(items, Span::NONE))])
}

/// Runs `f` with a lookup search over `rules` (no trace; warnings dropped).
fn with_search<T>(
    rules: &strata::strategy::selector::PathRules,
    f: impl FnOnce(&mut Search<'_>) -> T,
) -> T {
    let mut warnings = Vec::new();
    let mut search = Search {
        rules,
        trace: None,
        warnings: &mut warnings,
    };
    f(&mut search)
}

fn time(key: &str, n: usize, rules: &strata::strategy::selector::PathRules) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut len = 0;
    for _ in 0..5 {
        let mut src = DocLayers::new(vec![Some(layer(key, n, 0)), Some(layer(key, n, 1))]);
        let start = Instant::now();
        let out = with_search(rules, |search| search.lookup(&mut src, &[key.to_string()]))
            .expect("lookup")
            .expect("found");
        best = best.min(start.elapsed());
        len = out.as_list().map_or(0, <[Node]>::len);
    }
    (best, len)
}

/// Two layers of `n` top-level keys each, half of them shared but spelled in another case.
fn wide_layers(n: usize) -> (Node, Node) {
    let node = map_owned((0..n).map(|i| (format!("Key{i}"), s(format!("node {i}")))));
    let role = map_owned((n / 2..n + n / 2).map(|i| (format!("KEY{i}"), s(format!("role {i}")))));
    (node, role)
}

fn map_owned(entries: impl Iterator<Item = (String, Node)>) -> Node {
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(Key::str(&k), v);
    }
    Node::map(m, Span::NONE)
}

/// Datum's RSOP (every key of the node document looked up through the layers), keys compared
/// case-insensitively.
fn time_rsop(n: usize, rules: &strata::strategy::selector::PathRules) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let (node, role) = wide_layers(n);
        let mut src = DocLayers::new(vec![Some(node.clone()), Some(role)]);
        let start = Instant::now();
        let out = with_search(rules, |search| search.rsop(&mut src, Some(&node))).expect("rsop");
        best = best.min(start.elapsed());
        assert_eq!(out.as_map().map_or(0, Map::len), n);
    }
    best
}

fn main() {
    let mut sources = SourceMap::new();
    let id = sources.add("bench-options.yml", OPTIONS.to_string());
    let mut warnings = Vec::new();
    let options = yaml::load_single(sources.text(id), id, &LoadOptions::default(), &mut warnings)
        .expect("options parse")
        .expect("options document");
    let rules = compile(None, Some(&options), true, Fallback::Datum, &mut warnings).expect("rules");
    for (key, what) in [
        ("Features", "Unique (scalars)"),
        ("Disks", "UniqueKeyValTuples"),
        ("Packages", "DeepTuple"),
    ] {
        let (small, _) = time(key, 10_000, &rules);
        let (large, len) = time(key, 100_000, &rules);
        let (double, _) = time(key, 200_000, &rules);
        println!(
            "{what:<20} 2 layers x 100000 items -> {len} items: {:>7.1} ms | 10000: {:>6.1} ms | 200000: {:>7.1} ms (x{:.2} for 2x the items)",
            large.as_secs_f64() * 1e3,
            small.as_secs_f64() * 1e3,
            double.as_secs_f64() * 1e3,
            double.as_secs_f64() / large.as_secs_f64().max(1e-9)
        );
    }
    let (small, large, double) = (
        time_rsop(10_000, &rules),
        time_rsop(100_000, &rules),
        time_rsop(200_000, &rules),
    );
    println!(
        "{:<20} node document of 100000 keys, 2 layers: {:>7.1} ms | 10000: {:>6.1} ms | 200000: {:>7.1} ms (x{:.2} for 2x the keys)",
        "RSOP (folded keys)",
        large.as_secs_f64() * 1e3,
        small.as_secs_f64() * 1e3,
        double.as_secs_f64() * 1e3,
        double.as_secs_f64() / large.as_secs_f64().max(1e-9)
    );
}
