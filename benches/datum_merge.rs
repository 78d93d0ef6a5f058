//! Datum merges of large arrays through the real lookup path (rules compiled from
//! lookup_options, layers folded by the engine, knockout markers stripped): Unique over scalar
//! arrays, UniqueKeyValTuples and DeepTuple over arrays of maps, at 10 000, 100 000 and 200 000
//! items per layer, so the growth factor shows the cost is linear. Plain `std::time::Instant`, no
//! harness: `cargo bench --bench datum_merge`.

use std::time::{Duration, Instant};
use strata::frontend::lookup::resolve::{DocLayers, Run};
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

fn time(key: &str, n: usize, rules: &strata::strategy::selector::DatumRules) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut len = 0;
    for _ in 0..5 {
        let mut src = DocLayers(vec![Some(layer(key, n, 0)), Some(layer(key, n, 1))]);
        let mut warnings = Vec::new();
        let start = Instant::now();
        let mut run = Run {
            rules,
            trace: None,
            warnings: &mut warnings,
        };
        let out = run
            .lookup(&mut src, &[key.to_string()])
            .expect("lookup")
            .expect("found");
        best = best.min(start.elapsed());
        len = out.as_list().map_or(0, <[Node]>::len);
    }
    (best, len)
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
}
