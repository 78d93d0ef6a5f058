//! The walk of an Ardana model directory as the service's `read_model` does it, made
//! deterministic the way the conformance data records it: names sorted by code point, a
//! directory's files before its subdirectories, depth-first. `cloudConfig.yml` at any depth
//! below the top is skipped; `.yml` files are model files; `README*` files are READMEs, keyed
//! by their name without its first seven characters; everything else is ignored. A symbolic
//! link to a directory is not gone into (`os.walk` without `followlinks`); a link to a file is
//! read like a file.

use crate::frontend::Files;
use std::path::{Path, PathBuf};

/// One file the walk found, with its path relative to the model directory (`/` separators).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    Yaml {
        rel: String,
        path: PathBuf,
    },
    Readme {
        suffix: String,
        path: PathBuf,
    },
    /// A symbolic link to a directory, which the walk does not go into.
    LinkedDir {
        rel: String,
    },
}

/// Deepest directory nesting followed (a model is a few levels deep).
const MAX_DEPTH: usize = 64;

/// Every model file and README under `root`, in the service's order.
pub(super) fn walk(files: &mut dyn Files, root: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    walk_dir(files, root, "", 0, &mut out);
    out
}

fn walk_dir(files: &mut dyn Files, dir: &Path, rel: &str, depth: usize, out: &mut Vec<Entry>) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut entries = files.list(dir);
    entries.sort();
    let join = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    for (name, _) in entries.iter().filter(|(_, is_dir)| !is_dir) {
        if name == "cloudConfig.yml" {
            continue;
        }
        let path = dir.join(name);
        if name.ends_with(".yml") {
            out.push(Entry::Yaml {
                rel: join(name),
                path,
            });
        } else if name.starts_with("README") {
            // Python's `name[7:]`: "README" and one separator character off.
            let suffix: String = name.chars().skip(7).collect();
            out.push(Entry::Readme { suffix, path });
        }
    }
    for (name, _) in entries.iter().filter(|(_, is_dir)| *is_dir) {
        let path = dir.join(name);
        if files.is_link(&path) {
            out.push(Entry::LinkedDir { rel: join(name) });
            continue;
        }
        walk_dir(files, &path, &join(name), depth + 1, out);
    }
}
