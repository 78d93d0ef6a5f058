//! Deterministic, seeded workload generator for the performance benches (independent of
//! strata: it only writes text). Three workloads, each as YAML files and byte-for-byte
//! equivalent JSON twins (for peers that only read JSON):
//!
//! * W1 `merge`: two deeply nested maps (`a`, `b`), `b` derived from `a` so that about half of
//!   `b`'s leaves sit at paths `a` has; mixed scalars, lists of scalars and lists of maps.
//! * W2 `cloud-init`: cloud-config parts of about 20 KB with
//!   `merge_how: 'list(append)+dict(recurse_list)'` sharing lists, maps and scalars.
//! * W3 `merge --rules`: two layers of `items` (maps keyed by `name`), half of the names in both.
//!
//! * W4 `deckhand`: an Airship-like site of 10 000 documents (`deckhand.rs`).
//!
//! `Scale` 16 is the full size of the issue (W1: 20 MB per file, W2: 500 parts, W3: 100 000
//! items per layer); scale 1 and 4 are 1/16 and 1/4 of it, to show how cost grows.

use std::fmt::Write as _;

pub(crate) mod deckhand;

/// splitmix64: tiny, seedable, the same everywhere.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..hi`.
    pub(crate) fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo).max(1)
    }
    /// True with probability `p` percent.
    pub(crate) fn pct(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    pub(crate) fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

/// A generated value. Floats keep their text so YAML and JSON spell them the same.
#[derive(Clone, Debug)]
pub(crate) enum V {
    Null,
    Bool(bool),
    Int(i64),
    Float(String),
    Str(String),
    List(Vec<V>),
    Map(Vec<(String, V)>),
}

pub(crate) const WORDS: &[&str] = &[
    "alpha", "bravo", "cache", "delta", "edge", "fabric", "gateway", "harbor", "ingress", "jobs",
    "kernel", "ledger", "mesh", "node", "origin", "proxy", "queue", "relay", "shard", "tenant",
    "uplink", "vault", "worker", "xray", "yard", "zone", "backup", "cluster", "daemon", "export",
    "filter", "growth", "health", "index", "journal", "keeper", "limits", "metrics", "network",
    "policy", "region", "secret", "storage", "timeout", "upstream", "volume", "webhook",
];

const KEYS: &[&str] = &[
    "name",
    "enabled",
    "replicas",
    "image",
    "port",
    "host",
    "path",
    "labels",
    "annotations",
    "resources",
    "limits",
    "requests",
    "cpu",
    "memory",
    "env",
    "args",
    "command",
    "volumes",
    "mounts",
    "selector",
    "strategy",
    "timeout",
    "retries",
    "interval",
    "threshold",
    "endpoint",
    "protocol",
    "tls",
    "certificate",
    "owner",
    "group",
    "mode",
    "schedule",
    "backoff",
    "region",
    "zone",
    "tier",
    "weight",
    "priority",
    "description",
    "version",
    "channel",
    "mirror",
    "proxy",
    "logging",
    "level",
    "format",
    "sink",
    "buffer",
    "batch",
    "queue",
    "workers",
    "pool",
    "cache",
];

impl V {
    fn s(text: impl Into<String>) -> V {
        V::Str(text.into())
    }
}

pub(crate) fn word_str(rng: &mut Rng) -> V {
    match rng.range(0, 6) {
        0 => V::s(format!("/etc/{}/{}.conf", rng.pick(WORDS), rng.pick(WORDS))),
        1 => V::s(format!(
            "https://{}.example.com/{}/{}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.range(1, 999)
        )),
        2 => V::s(format!(
            "{}-{}-{}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.range(0, 10_000)
        )),
        // Strings a YAML 1.1 reader would take for something else: written quoted.
        3 => V::s(match rng.range(0, 4) {
            0 => format!("{}.{}", rng.range(1, 9), rng.range(0, 30)),
            1 => "yes".to_string(),
            2 => format!("0{}", rng.range(100, 778)),
            _ => "off".to_string(),
        }),
        4 => V::s(format!(
            "{} {} for {} {}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS)
        )),
        _ => V::s(rng.pick(WORDS).to_string()),
    }
}

pub(crate) fn scalar(rng: &mut Rng) -> V {
    match rng.range(0, 100) {
        0..=44 => word_str(rng),
        45..=66 => V::Int(rng.range(0, 100_000) as i64 - 1_000),
        67..=76 => V::Float(format!("{}.{}", rng.range(0, 1000), rng.range(1, 100))),
        77..=96 => V::Bool(rng.pct(50)),
        _ => V::Null,
    }
}

/// A leaf of W1: a scalar, a list of scalars or a short list of small maps.
fn leaf(rng: &mut Rng) -> V {
    match rng.range(0, 100) {
        0..=79 => scalar(rng),
        80..=93 => V::List((0..rng.range(1, 7)).map(|_| scalar(rng)).collect()),
        _ => V::List(
            (0..rng.range(1, 4))
                .map(|_| {
                    let n = rng.range(2, 5) as usize;
                    V::Map(
                        fresh_keys(rng, n, "")
                            .into_iter()
                            .map(|k| (k, scalar(rng)))
                            .collect(),
                    )
                })
                .collect(),
        ),
    }
}

/// `n` distinct keys (plain, config-like; `suffix` keeps them apart from another map's keys).
fn fresh_keys(rng: &mut Rng, n: usize, suffix: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::with_capacity(n);
    while keys.len() < n {
        let k = if rng.pct(60) {
            format!("{}{suffix}", rng.pick(KEYS))
        } else {
            format!("{}_{}{suffix}", rng.pick(KEYS), rng.range(0, 100))
        };
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// A nested map of W1: fewer sub-maps the deeper it sits (depth up to 8).
fn tree(rng: &mut Rng, depth: u32) -> V {
    let n = rng.range(3, 10) as usize;
    let p_map = [0, 70, 55, 45, 35, 25, 15, 8, 0][depth.min(8) as usize];
    let entries = fresh_keys(rng, n, "")
        .into_iter()
        .map(|k| {
            let v = if rng.pct(p_map) {
                tree(rng, depth + 1)
            } else {
                leaf(rng)
            };
            (k, v)
        })
        .collect();
    V::Map(entries)
}

/// A changed value of the same shape (map stays map, list stays list, scalar stays scalar).
fn changed(rng: &mut Rng, old: &V) -> V {
    match old {
        V::List(_) => match leaf(rng) {
            l @ V::List(_) => l,
            _ => V::List(vec![scalar(rng)]),
        },
        _ if rng.pct(30) => old.clone(),
        _ => scalar(rng),
    }
}

/// Layer `b`'s version of one of `a`'s maps: about half of the children kept (maps merged
/// deeper, leaves changed or not), the rest replaced by new keys with new values.
fn derive(rng: &mut Rng, a: &V, depth: u32) -> V {
    let V::Map(entries) = a else {
        return changed(rng, a);
    };
    let mut out = Vec::with_capacity(entries.len());
    let mut dropped = 0;
    for (k, v) in entries {
        let keep = match v {
            V::Map(_) => rng.pct(98),
            _ => rng.pct(62),
        };
        if keep {
            let nv = match v {
                V::Map(_) => derive(rng, v, depth + 1),
                _ => changed(rng, v),
            };
            out.push((k.clone(), nv));
        } else if matches!(v, V::Map(_)) {
            out.push((format!("{k}_m"), tree(rng, depth + 1)));
        } else {
            dropped += 1;
        }
    }
    for k in fresh_keys(rng, dropped + entries.len() / 5, "_b") {
        out.push((k, leaf(rng)));
    }
    V::Map(out)
}

// ---------------------------------------------------------------------------------------------
// Writers

fn yaml_needs_quotes(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return true;
    };
    !first.is_ascii_alphabetic() && first != '/'
        || matches!(
            s.to_ascii_lowercase().as_str(),
            "yes" | "no" | "on" | "off" | "true" | "false" | "null" | "y" | "n"
        )
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
        || s.contains([
            '\n', '"', '\\', '\'', '{', '}', '[', ']', ',', '&', '*', '!',
        ])
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn yaml_scalar(out: &mut String, v: &V) {
    match v {
        V::Null => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => {
            let _ = write!(out, "{i}");
        }
        V::Float(f) => out.push_str(f),
        V::Str(s) if yaml_needs_quotes(s) => json_string(out, s),
        V::Str(s) => out.push_str(s),
        V::List(_) => out.push_str("[]"),
        V::Map(_) => out.push_str("{}"),
    }
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Block YAML for a map's entries at `indent`, the first line's indentation already written
/// when `first_inline` (a list item's `- `).
pub(crate) fn yaml_map(
    out: &mut String,
    entries: &[(String, V)],
    indent: usize,
    first_inline: bool,
) {
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 || !first_inline {
            pad(out, indent);
        }
        out.push_str(k);
        out.push(':');
        yaml_value(out, v, indent);
    }
}

/// Writes ` value\n` or a nested block after `key:`.
fn yaml_value(out: &mut String, v: &V, indent: usize) {
    match v {
        V::Map(e) if !e.is_empty() => {
            out.push('\n');
            yaml_map(out, e, indent + 2, false);
        }
        V::List(items) if !items.is_empty() => {
            out.push('\n');
            for item in items {
                pad(out, indent + 2);
                out.push_str("- ");
                match item {
                    V::Map(e) if !e.is_empty() => yaml_map(out, e, indent + 4, true),
                    V::List(inner) => {
                        // Nested lists in flow style, every string quoted.
                        out.push('[');
                        for (j, x) in inner.iter().enumerate() {
                            if j > 0 {
                                out.push_str(", ");
                            }
                            match x {
                                V::Str(s) => json_string(out, s),
                                _ => yaml_scalar(out, x),
                            }
                        }
                        out.push_str("]\n");
                    }
                    _ => {
                        yaml_scalar(out, item);
                        out.push('\n');
                    }
                }
            }
        }
        V::Str(s) if s.contains('\n') && s.ends_with('\n') && !s.ends_with("\n\n") => {
            out.push_str(" |\n");
            for line in s.lines() {
                if !line.is_empty() {
                    pad(out, indent + 2);
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
        _ => {
            out.push(' ');
            yaml_scalar(out, v);
            out.push('\n');
        }
    }
}

pub(crate) fn json(out: &mut String, v: &V) {
    match v {
        V::Map(e) => {
            out.push('{');
            for (i, (k, v)) in e.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(out, k);
                out.push(':');
                json(out, v);
            }
            out.push('}');
        }
        V::List(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json(out, v);
            }
            out.push(']');
        }
        V::Str(s) => json_string(out, s),
        _ => yaml_scalar(out, v),
    }
}

// ---------------------------------------------------------------------------------------------
// Workloads

/// One generated input file: its name, YAML text and JSON twin.
pub(crate) struct File {
    pub name: String,
    pub yaml: String,
    pub json: String,
}

fn file(name: &str, header: &str, doc: &V) -> File {
    let mut yaml = String::from(header);
    if let V::Map(e) = doc {
        yaml_map(&mut yaml, e, 0, false);
    }
    let mut json_text = String::new();
    json(&mut json_text, doc);
    json_text.push('\n');
    File {
        name: name.to_string(),
        yaml,
        json: json_text,
    }
}

/// W1: `a.yaml` and `b.yaml`, each about `scale` × 1.25 MB.
pub(crate) fn w1(scale: u32) -> Vec<File> {
    let (a, b) = w1_trees(scale);
    vec![
        file("a", "# W1 layer a (generated)\n", &a),
        file("b", "# W1 layer b (generated)\n", &b),
    ]
}

/// Fraction of `b`'s leaves whose path `a` also has (W1's overlap), in percent.
pub(crate) fn overlap_pct(a: &V, b: &V) -> f64 {
    fn walk(a: Option<&V>, b: &V, shared: &mut usize, total: &mut usize) {
        match b {
            V::Map(e) => {
                for (k, v) in e {
                    let sub = match a {
                        Some(V::Map(ae)) => ae.iter().find(|(ak, _)| ak == k).map(|(_, v)| v),
                        _ => None,
                    };
                    walk(sub, v, shared, total);
                }
            }
            _ => {
                *total += 1;
                if a.is_some() {
                    *shared += 1;
                }
            }
        }
    }
    let (mut shared, mut total) = (0, 0);
    walk(Some(a), b, &mut shared, &mut total);
    100.0 * shared as f64 / total.max(1) as f64
}

/// The W1 trees themselves (for the overlap statistic).
pub(crate) fn w1_trees(scale: u32) -> (V, V) {
    let target = scale as usize * 1_250_000;
    let mut rng = Rng::new(0x5717_a7a1 ^ u64::from(scale));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut size = 0;
    let mut i = 0;
    while size < target {
        let section = tree(&mut rng, 1);
        let derived = derive(&mut rng, &section, 1);
        let mut text = String::new();
        yaml_map(&mut text, &[(String::new(), section.clone())], 0, false);
        size += text.len() + 12;
        a.push((format!("section_{i}"), section));
        b.push((format!("section_{i}"), derived));
        i += 1;
    }
    (V::Map(a), V::Map(b))
}

const PACKAGES: &[&str] = &[
    "curl",
    "git",
    "jq",
    "vim",
    "htop",
    "tmux",
    "nginx",
    "haproxy",
    "chrony",
    "rsync",
    "unzip",
    "python3",
    "python3-pip",
    "build-essential",
    "ca-certificates",
    "gnupg",
    "lsb-release",
    "net-tools",
    "iproute2",
    "tcpdump",
    "strace",
    "sysstat",
    "iotop",
    "ncdu",
    "tree",
    "zsh",
    "postgresql-client",
    "redis-tools",
    "awscli",
    "openssh-server",
    "fail2ban",
    "ufw",
];

fn shell_line(rng: &mut Rng) -> String {
    match rng.range(0, 5) {
        0 => format!(
            "systemctl enable --now {}-{}.service",
            rng.pick(WORDS),
            rng.range(0, 50)
        ),
        1 => format!(
            "mkdir -p /var/lib/{}/{} && chown {}:{} /var/lib/{}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS)
        ),
        2 => format!(
            "curl -fsSL https://{}.example.com/install-{}.sh -o /tmp/install.sh",
            rng.pick(WORDS),
            rng.range(0, 100)
        ),
        3 => format!(
            "echo '{} {}' >> /etc/{}/{}.conf",
            rng.pick(WORDS),
            rng.range(0, 1000),
            rng.pick(WORDS),
            rng.pick(WORDS)
        ),
        _ => format!(
            "sysctl -w net.core.{}_{}={}",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.range(0, 65536)
        ),
    }
}

/// One cloud-config part of W2 (about 20 KB).
fn part(rng: &mut Rng, i: usize) -> V {
    let mut e: Vec<(String, V)> = Vec::new();
    let s = V::s;
    e.push((
        "merge_how".into(),
        s("list(append)+dict(recurse_list)".to_string()),
    ));
    // Scalars every part sets: the first part's value stays (dict no_replace).
    e.push(("hostname".into(), s(format!("host-{i}"))));
    e.push(("timezone".into(), s(format!("Europe/{}", rng.pick(WORDS)))));
    e.push(("package_update".into(), V::Bool(rng.pct(50))));
    e.push((
        "packages".into(),
        V::List(
            (0..rng.range(8, 16))
                .map(|_| s(rng.pick(PACKAGES).to_string()))
                .collect(),
        ),
    ));
    e.push((
        "bootcmd".into(),
        V::List((0..rng.range(3, 8)).map(|_| s(shell_line(rng))).collect()),
    ));
    e.push((
        "runcmd".into(),
        V::List(
            (0..rng.range(70, 110))
                .map(|_| {
                    if rng.pct(20) {
                        V::List(vec![
                            s("sh".to_string()),
                            s("-c".to_string()),
                            s(shell_line(rng)),
                        ])
                    } else {
                        s(shell_line(rng))
                    }
                })
                .collect(),
        ),
    ));
    let files = (0..rng.range(9, 13))
        .map(|j| {
            let mut content = String::new();
            for _ in 0..rng.range(20, 50) {
                let _ = writeln!(
                    content,
                    "{}_{} = {}",
                    rng.pick(KEYS),
                    rng.pick(WORDS),
                    rng.range(0, 10_000)
                );
            }
            V::Map(vec![
                (
                    "path".into(),
                    s(format!("/etc/{}/part-{i}-{j}.conf", rng.pick(WORDS))),
                ),
                ("permissions".into(), s("0644".to_string())),
                ("owner".into(), s("root:root".to_string())),
                ("content".into(), s(content)),
            ])
        })
        .collect();
    e.push(("write_files".into(), V::List(files)));
    let users = (0..2)
        .map(|j| {
            V::Map(vec![
                ("name".into(), s(format!("user{i}x{j}"))),
                ("groups".into(), s("sudo, docker".to_string())),
                ("shell".into(), s("/bin/bash".to_string())),
                ("sudo".into(), s("ALL=(ALL) NOPASSWD:ALL".to_string())),
                (
                    "ssh_authorized_keys".into(),
                    V::List(vec![s(format!(
                        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{:016x}{:016x} user{i}@example",
                        rng.next(),
                        rng.next()
                    ))]),
                ),
            ])
        })
        .collect();
    e.push(("users".into(), V::List(users)));
    // A configuration map every part contributes to: shared service names recurse, their
    // lists append, their scalars keep the first part's value.
    let services = (0..rng.range(8, 14))
        .map(|_| {
            let name = format!("svc_{}", rng.range(0, 60));
            let n = rng.range(2, 6) as usize;
            let env = fresh_keys(rng, n, "")
                .into_iter()
                .map(|k| {
                    (
                        k.to_uppercase(),
                        s(format!("{}-{}", rng.pick(WORDS), rng.range(0, 100))),
                    )
                })
                .collect();
            let svc = V::Map(vec![
                (
                    "image".into(),
                    s(format!(
                        "registry.example.com/{}:{}.{}",
                        rng.pick(WORDS),
                        rng.range(1, 9),
                        rng.range(0, 30)
                    )),
                ),
                ("replicas".into(), V::Int(rng.range(1, 9) as i64)),
                ("env".into(), V::Map(env)),
                (
                    "ports".into(),
                    V::List(
                        (0..rng.range(1, 3))
                            .map(|_| V::Int(rng.range(1024, 65535) as i64))
                            .collect(),
                    ),
                ),
            ]);
            (name, svc)
        })
        .fold(Vec::<(String, V)>::new(), |mut acc, (k, v)| {
            if !acc.iter().any(|(ak, _)| *ak == k) {
                acc.push((k, v));
            }
            acc
        });
    let settings = fresh_keys(rng, 10, "")
        .into_iter()
        .map(|k| (k, scalar_no_null(rng)))
        .collect();
    e.push((
        "app".into(),
        V::Map(vec![
            ("services".into(), V::Map(services)),
            ("settings".into(), V::Map(settings)),
        ]),
    ));
    e.push((
        "ntp".into(),
        V::Map(vec![
            ("enabled".into(), V::Bool(true)),
            (
                "servers".into(),
                V::List(vec![s(format!("ntp{}.example.com", rng.range(0, 9)))]),
            ),
        ]),
    ));
    V::Map(e)
}

fn scalar_no_null(rng: &mut Rng) -> V {
    loop {
        match scalar(rng) {
            V::Null => continue,
            v => return v,
        }
    }
}

/// W2: `scale` × 31.25 cloud-config parts (500 at scale 16), `part-NNNN.yaml`.
pub(crate) fn w2(scale: u32) -> Vec<File> {
    let n = (scale as usize * 500).div_ceil(16);
    let mut rng = Rng::new(0xc10d_0002);
    (0..n)
        .map(|i| {
            let doc = part(&mut rng, i);
            file(&format!("part-{i:04}"), "#cloud-config\n", &doc)
        })
        .collect()
}

fn item(rng: &mut Rng, id: usize, layer: u8) -> V {
    let s = V::s;
    let mut e = vec![
        ("name".to_string(), s(format!("item-{id:07}"))),
        (
            "version".to_string(),
            s(format!("{}.{}", rng.range(1, 5), rng.range(0, 20))),
        ),
        ("replicas".to_string(), V::Int(rng.range(1, 12) as i64)),
        ("enabled".to_string(), V::Bool(rng.pct(80))),
        (
            "image".to_string(),
            s(format!(
                "registry.example.com/{}/{}",
                rng.pick(WORDS),
                rng.pick(WORDS)
            )),
        ),
        (
            "tags".to_string(),
            V::List(
                (0..rng.range(1, 4))
                    .map(|_| s(rng.pick(WORDS).to_string()))
                    .collect(),
            ),
        ),
        (
            "config".to_string(),
            V::Map(vec![
                ("cpu".to_string(), V::Int(rng.range(1, 16) as i64)),
                (
                    "memory".to_string(),
                    s(format!("{}Mi", 128 * rng.range(1, 32))),
                ),
                (
                    format!("{}_{layer}", rng.pick(KEYS)),
                    s(rng.pick(WORDS).to_string()),
                ),
            ]),
        ),
    ];
    if layer == 1 {
        e.push(("source".to_string(), s("layer-b".to_string())));
    }
    V::Map(e)
}

/// W3: `a.yaml` and `b.yaml` with `scale` × 6 250 items each (100 000 at scale 16); `b` has
/// the upper half of `a`'s names and as many new ones. Plus `rules.yaml`.
pub(crate) fn w3(scale: u32) -> Vec<File> {
    let n = scale as usize * 6_250;
    let mut rng = Rng::new(0xd3e9_0003);
    let layer = |rng: &mut Rng, l: u8, start: usize| {
        V::Map(vec![
            (
                "metadata".to_string(),
                V::Map(vec![
                    ("owner".to_string(), V::s(format!("team-{l}"))),
                    ("generation".to_string(), V::Int(i64::from(l) + 1)),
                ]),
            ),
            (
                "items".to_string(),
                V::List((start..start + n).map(|id| item(rng, id, l)).collect()),
            ),
        ])
    };
    let a = layer(&mut rng, 0, 0);
    let b = layer(&mut rng, 1, n / 2);
    let rules = "# W3 rules: merge `items` by name (Datum DeepTuple)\nitems:\n  merge_hash_array: DeepTuple\n  merge_options:\n    tuple_keys: [name]\n";
    vec![
        file("a", "# W3 layer a (generated)\n", &a),
        file("b", "# W3 layer b (generated)\n", &b),
        File {
            name: "rules".into(),
            yaml: rules.to_string(),
            json: "{\"items\":{\"merge_hash_array\":\"DeepTuple\",\"merge_options\":{\"tuple_keys\":[\"name\"]}}}\n".into(),
        },
    ]
}
