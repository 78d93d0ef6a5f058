//! Criterion benches of the loader, the engine and the writer on the workloads of
//! `scripts/bench.sh` at scale x1 (generated in memory by `gen/mod.rs`), plus each front-end
//! in-process (load + merge). `cargo bench --bench pipeline`; end-to-end timings of the
//! release binary are `scripts/bench.sh`'s job.

#[path = "gen/mod.rs"]
#[allow(dead_code)]
mod gen;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use strata::frontend::cloudinit::how;
use strata::frontend::cloudinit::CloudInitJob;
use strata::frontend::merge::MergeJob;
use strata::frontend::{self, Input, NoFiles, Run, Settings};
use strata::load::{yaml, LoadOptions};
use strata::merge::Engine;
use strata::render;
use strata::strategy::{Origin, RuleSet, Stack};
use strata::value::{Node, SourceMap, Span};

fn load_all(files: &[gen::File]) -> Vec<Node> {
    let opts = LoadOptions::default();
    let mut warnings = Vec::new();
    files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            yaml::load_single(&f.yaml, i as u32, &opts, &mut warnings)
                .ok()
                .flatten()
        })
        .collect()
}

fn fold(rules: &RuleSet, layers: Vec<Node>) -> Node {
    let mut acc = Node::empty_map(Span::NONE);
    for layer in layers {
        let mut engine = Engine::new(rules, None);
        acc = match engine.merge_layer(acc, layer) {
            Ok(n) => n,
            Err((_, old)) => old,
        };
    }
    acc
}

fn inputs(files: &[gen::File]) -> Vec<Input> {
    files
        .iter()
        .map(|f| Input::new(format!("{}.yaml", f.name), f.yaml.clone().into_bytes()))
        .collect()
}

fn benches(c: &mut Criterion) {
    let w1 = gen::w1(1);
    let w2 = gen::w2(1);
    let w3 = gen::w3(1);
    let (w3_layers, w3_rules) = w3.split_at(2);
    let deep = RuleSet::single(Stack::deep_default());
    let spec = "list(append)+dict(recurse_list)";
    let cloud = RuleSet::single(
        how::parse_string(spec, &Origin::Default(spec.into()), Span::NONE)
            .expect("the W2 merge_how parses"),
    );
    let bytes = |files: &[gen::File]| files.iter().map(|f| f.yaml.len() as u64).sum::<u64>();

    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    for (name, files) in [("w1", &w1[..]), ("w2", &w2[..]), ("w3", w3_layers)] {
        g.throughput(Throughput::Bytes(bytes(files)));
        g.bench_function(name, |b| b.iter(|| load_all(black_box(files))));
    }
    g.finish();

    let mut g = c.benchmark_group("merge");
    g.sample_size(10);
    for (name, files, rules) in [("w1", &w1[..], &deep), ("w2", &w2[..], &cloud)] {
        let layers = load_all(files);
        g.bench_function(name, |b| {
            b.iter_batched(|| layers.clone(), |l| fold(rules, l), BatchSize::LargeInput)
        });
    }
    g.finish();

    let mut g = c.benchmark_group("render");
    g.sample_size(10);
    for (name, doc) in [
        ("w1", fold(&deep, load_all(&w1))),
        ("w2", fold(&cloud, load_all(&w2))),
        ("w3", fold(&deep, load_all(w3_layers))),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| render::yaml::to_string(black_box(&doc), None))
        });
    }
    g.finish();

    // Front-ends in-process: reading the inputs into the source map, loading, merging.
    let mut g = c.benchmark_group("frontend");
    g.sample_size(10);
    let settings = Settings::default();
    g.bench_function("w1_merge", |b| {
        b.iter_batched(
            || inputs(&w1),
            |inputs| {
                let job = MergeJob {
                    inputs,
                    ..MergeJob::default()
                };
                let mut sources = SourceMap::new();
                frontend::merge::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles))
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("w2_cloud_init", |b| {
        b.iter_batched(
            || inputs(&w2),
            |inputs| {
                let job = CloudInitJob {
                    inputs,
                    instance_data: None,
                };
                let mut sources = SourceMap::new();
                frontend::cloudinit::render(
                    job,
                    &mut Run::new(&mut sources, &settings, &mut NoFiles),
                )
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("w3_merge_rules", |b| {
        b.iter_batched(
            || (inputs(w3_layers), inputs(w3_rules).remove(0)),
            |(inputs, rules)| {
                let job = MergeJob {
                    inputs,
                    how: None,
                    rules: Some(rules),
                };
                let mut sources = SourceMap::new();
                frontend::merge::render(job, &mut Run::new(&mut sources, &settings, &mut NoFiles))
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(pipeline, benches);
criterion_main!(pipeline);
