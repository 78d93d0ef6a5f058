//! Helpers for `scripts/bench.sh` (a bench target so it is built with the release profile and
//! needs no extra binary in the package):
//!
//! * `tools gen DIR [SCALE...]` writes the workloads (see `gen/mod.rs`) under `DIR/wN/xS/`, as
//!   YAML and JSON twins; default scales 1 4 16.
//! * `tools deckhand DIR [DOCS...]` writes W4 Deckhand sites (`gen/deckhand.rs`) under
//!   `DIR/w4/nDOCS/site.yaml`; default 10 000 and 20 000 documents.
//! * `tools floor FILE...` is the parse floor: reads each file and runs strata's own YAML
//!   scanner and parser over it (every event produced, no value built). The cost strata cannot
//!   go below.
//! * `tools overlap` prints W1's overlap statistic.
//!
//! Run by `cargo bench` (with `--bench`), it only checks the floor parser on a small input.

#[path = "gen/mod.rs"]
#[allow(dead_code)]
mod gen;

use std::path::Path;

/// The parse floor: strata's own scanner and parser over the text, building no values.
fn parse_only(text: &str) -> Result<usize, String> {
    strata::load::yaml::count_events(text)
}

fn write(dir: &Path, files: &[gen::File]) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let mut bytes = 0;
    for f in files {
        std::fs::write(dir.join(format!("{}.yaml", f.name)), &f.yaml)?;
        std::fs::write(dir.join(format!("{}.json", f.name)), &f.json)?;
        bytes += f.yaml.len() as u64;
    }
    Ok(bytes)
}

fn main() -> std::process::ExitCode {
    // `cargo bench --bench tools -- gen DIR` appends `--bench`: not one of ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let Some(dir) = args.get(1) else {
                eprintln!("usage: tools gen DIR [SCALE...]");
                return std::process::ExitCode::from(2);
            };
            let mut scales: Vec<u32> = args[2..].iter().filter_map(|s| s.parse().ok()).collect();
            if scales.is_empty() {
                scales = vec![1, 4, 16];
            }
            for s in scales {
                for (w, files) in [("w1", gen::w1(s)), ("w2", gen::w2(s)), ("w3", gen::w3(s))] {
                    let d = Path::new(dir).join(w).join(format!("x{s}"));
                    match write(&d, &files) {
                        Ok(b) => println!("{} {} files {} bytes", d.display(), files.len(), b),
                        Err(e) => {
                            eprintln!("{}: {e}", d.display());
                            return std::process::ExitCode::FAILURE;
                        }
                    }
                }
            }
        }
        Some("deckhand") => {
            // `tools deckhand DIR [DOCS...]`: W4 sites of DOCS documents (default 10000 20000).
            let Some(dir) = args.get(1) else {
                eprintln!("usage: tools deckhand DIR [DOCS...]");
                return std::process::ExitCode::from(2);
            };
            let mut sizes: Vec<usize> = args[2..].iter().filter_map(|s| s.parse().ok()).collect();
            if sizes.is_empty() {
                sizes = vec![10_000, 20_000];
            }
            for n in sizes {
                let d = Path::new(dir).join("w4").join(format!("n{n}"));
                let files = gen::deckhand::w4(n);
                let result = std::fs::create_dir_all(&d).and_then(|()| {
                    let f = &files[0];
                    std::fs::write(d.join("site.yaml"), &f.yaml).map(|()| f.yaml.len())
                });
                match result {
                    Ok(b) => println!("{} {n} documents {b} bytes", d.display()),
                    Err(e) => {
                        eprintln!("{}: {e}", d.display());
                        return std::process::ExitCode::FAILURE;
                    }
                }
            }
        }
        Some("floor") => {
            let mut events = 0;
            for name in &args[1..] {
                let bytes = match std::fs::read(name) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("{name}: {e}");
                        return std::process::ExitCode::FAILURE;
                    }
                };
                let Ok(text) = String::from_utf8(bytes) else {
                    eprintln!("{name}: not UTF-8");
                    return std::process::ExitCode::FAILURE;
                };
                match parse_only(&text) {
                    Ok(n) => events += n,
                    Err(e) => {
                        eprintln!("{name}: {e}");
                        return std::process::ExitCode::FAILURE;
                    }
                }
            }
            println!("{events} events");
        }
        Some("overlap") => {
            for s in [1, 4, 16] {
                let (a, b) = gen::w1_trees(s);
                println!(
                    "W1 x{s}: {:.1}% of b's leaves at a path a has",
                    gen::overlap_pct(&a, &b)
                );
            }
        }
        _ => {
            // `cargo bench`: a smoke run of the floor parser on a generated part.
            let files = gen::w2(1);
            let t = std::time::Instant::now();
            let n: usize = files.iter().map(|f| parse_only(&f.yaml).unwrap_or(0)).sum();
            println!(
                "tools: floor parser: {n} events in {:?} (scripts/bench.sh runs the real series)",
                t.elapsed()
            );
        }
    }
    std::process::ExitCode::SUCCESS
}
