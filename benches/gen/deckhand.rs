//! W4 `deckhand`: a generated Airship-like site, one multi-document YAML stream. `docs`
//! documents over four layers (global 10 %, type 15 %, region 25 %, site 50 %) plus a
//! LayeringPolicy; a tenth are concrete Passphrases in the site layer (the substitution
//! sources), the rest charts of twelve schemas, each below the global layer selecting a parent
//! of its own schema in a layer above by a `name` label and layering with 1-3 actions
//! (merge `.`, merge `.values`, replace `.values.image`, delete of a key the parent has).
//! 30 % of the documents have 1-2 substitutions from a Passphrase (a value, or a pattern in a
//! URL). Global and type documents are abstract. Deterministic for a given size.

use super::{scalar, word_str, yaml_map, File, Rng, V, WORDS};

const LAYERS: [&str; 4] = ["global", "type", "region", "site"];
const SCHEMAS: [&str; 12] = [
    "armada/Chart/v1",
    "armada/ChartGroup/v1",
    "pegleg/SoftwareVersions/v1",
    "pegleg/CommonAddresses/v1",
    "promenade/Genesis/v1",
    "promenade/KubernetesNode/v1",
    "drydock/BaremetalNode/v1",
    "drydock/NetworkLink/v1",
    "shipyard/DeploymentConfiguration/v1",
    "nova/Flavor/v1",
    "neutron/Network/v1",
    "keystone/Endpoint/v1",
];

fn values(rng: &mut Rng, name: &str) -> V {
    let mut conf = Vec::new();
    for i in 0..rng.range(3, 7) {
        conf.push((format!("{}_{i}", rng.pick(WORDS)), scalar(rng)));
    }
    V::Map(vec![
        (
            "image".into(),
            V::Str(format!(
                "quay.io/airship/{name}:{}.{}",
                rng.range(1, 9),
                rng.range(0, 30)
            )),
        ),
        ("replicas".into(), V::Int(rng.range(1, 5) as i64)),
        (
            "endpoint".into(),
            V::Str(format!(
                "https://svc:PASSWORD@{}.{}.svc/v1",
                name,
                rng.pick(WORDS)
            )),
        ),
        ("conf".into(), V::Map(conf)),
        (
            "labels".into(),
            V::List((0..rng.range(1, 4)).map(|_| word_str(rng)).collect()),
        ),
    ])
}

struct Doc {
    schema: &'static str,
    name: String,
    layer: usize,
}

fn document(out: &mut String, d: &Doc, meta: Vec<(String, V)>, data: V) {
    out.push_str("---\n");
    let entries = vec![
        ("schema".to_string(), V::Str(d.schema.to_string())),
        ("metadata".to_string(), V::Map(meta)),
        ("data".to_string(), data),
    ];
    yaml_map(out, &entries, 0, false);
}

/// The site as one stream of `docs` documents.
pub(crate) fn w4(docs: usize) -> Vec<File> {
    let mut rng = Rng::new(0xDEC4_4A4D ^ docs as u64);
    let mut out = String::with_capacity(docs * 700);
    out.push_str("# W4 Deckhand site (generated)\n---\nschema: deckhand/LayeringPolicy/v1\nmetadata:\n  schema: metadata/Control/v1\n  name: layering-policy\ndata:\n  layerOrder: [global, type, region, site]\n");
    let passphrases = docs / 10;
    for i in 0..passphrases {
        out.push_str(&format!(
            "---\nschema: deckhand/Passphrase/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: pass-{i}\n  storagePolicy: cleartext\n  layeringDefinition:\n    abstract: false\n    layer: site\ndata: p{}-{}\n",
            rng.range(0, 1 << 30),
            rng.pick(WORDS)
        ));
    }
    // Documents by (schema, layer), to pick parents from.
    let mut by_schema_layer: Vec<Vec<Vec<usize>>> = vec![vec![Vec::new(); 4]; SCHEMAS.len()];
    let mut made: Vec<Doc> = Vec::new();
    let charts = docs - passphrases;
    for i in 0..charts {
        let layer = match i * 100 / charts.max(1) {
            0..=9 => 0,
            10..=24 => 1,
            25..=49 => 2,
            _ => 3,
        };
        let s = rng.range(0, SCHEMAS.len() as u64) as usize;
        let d = Doc {
            schema: SCHEMAS[s],
            name: format!("{}-{}-{i}", rng.pick(WORDS), LAYERS[layer]),
            layer,
        };
        let mut ld = vec![
            ("abstract".to_string(), V::Bool(layer < 2)),
            ("layer".to_string(), V::Str(LAYERS[layer].to_string())),
        ];
        let mut data = values(&mut rng, &d.name);
        let above: Vec<usize> = (0..layer)
            .rev()
            .flat_map(|l| by_schema_layer[s][l].iter().copied())
            .take(50)
            .collect();
        if !above.is_empty() {
            let parent = above[rng.range(0, above.len() as u64) as usize];
            ld.push((
                "parentSelector".into(),
                V::Map(vec![("name".into(), V::Str(made[parent].name.clone()))]),
            ));
            let mut actions = vec![V::Map(vec![
                ("method".into(), V::s("merge")),
                (
                    "path".into(),
                    V::s(if rng.pct(50) { "." } else { ".values" }),
                ),
            ])];
            if rng.pct(30) {
                actions.push(V::Map(vec![
                    ("method".into(), V::s("replace")),
                    ("path".into(), V::s(".values.image")),
                ]));
            }
            if rng.pct(15) {
                actions.push(V::Map(vec![
                    ("method".into(), V::s("delete")),
                    ("path".into(), V::s(".values.labels")),
                ]));
            }
            ld.push(("actions".into(), V::List(actions)));
            data = V::Map(vec![("values".into(), data)]);
        }
        let mut meta = vec![
            ("schema".to_string(), V::s("metadata/Document/v1")),
            ("name".to_string(), V::Str(d.name.clone())),
            (
                "labels".to_string(),
                V::Map(vec![("name".into(), V::Str(d.name.clone()))]),
            ),
            ("storagePolicy".to_string(), V::s("cleartext")),
            ("layeringDefinition".to_string(), V::Map(ld)),
        ];
        if passphrases > 0 && rng.pct(30) {
            let mut subs = Vec::new();
            for k in 0..rng.range(1, 3) {
                let src = V::Map(vec![
                    ("schema".into(), V::s("deckhand/Passphrase/v1")),
                    (
                        "name".into(),
                        V::Str(format!("pass-{}", rng.range(0, passphrases as u64))),
                    ),
                    ("path".into(), V::s(".")),
                ]);
                let dest = if k == 0 && rng.pct(50) {
                    V::Map(vec![
                        ("path".into(), V::s(".values.endpoint")),
                        ("pattern".into(), V::s("PASSWORD")),
                    ])
                } else {
                    V::Map(vec![(
                        "path".into(),
                        V::Str(format!(".values.secrets.s{k}")),
                    )])
                };
                subs.push(V::Map(vec![("src".into(), src), ("dest".into(), dest)]));
            }
            meta.push(("substitutions".into(), V::List(subs)));
        }
        // A document with no parent in reach keeps its values under `values` too.
        if above.is_empty() {
            data = V::Map(vec![("values".into(), data)]);
        }
        document(&mut out, &d, meta, data);
        by_schema_layer[s][layer].push(made.len());
        made.push(d);
    }
    vec![File {
        name: "site".into(),
        yaml: out,
        json: String::new(),
    }]
}
