//! `Path`: a location inside a value tree, written as an RFC 6901 JSON Pointer (`/runcmd/2`).

use std::fmt;

/// One step of a path: a map key or a list index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A map key, as text.
    Key(std::sync::Arc<str>),
    /// A list index.
    Index(usize),
}

/// A path from the document root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path(pub Vec<Seg>);

impl Path {
    /// The empty path: the document itself.
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// One step down, into the value of `key`.
    pub fn push_key(&mut self, key: &str) {
        self.0.push(Seg::Key(key.into()));
    }

    /// One step down, into item `i`.
    pub fn push_index(&mut self, i: usize) {
        self.0.push(Seg::Index(i));
    }

    /// One step up.
    pub fn pop(&mut self) {
        self.0.pop();
    }

    /// Parses a JSON Pointer (`""` is the root, `/a~1b/0` is key `a/b` then `0`). Every segment
    /// is kept as a key; numeric segments match list indexes when the path is looked up.
    pub fn parse_pointer(text: &str) -> Result<Path, String> {
        if text.is_empty() {
            return Ok(Path::root());
        }
        let Some(rest) = text.strip_prefix('/') else {
            return Err(format!("JSON Pointer '{text}' must start with '/'"));
        };
        let mut segs = Vec::new();
        for raw in rest.split('/') {
            if raw.contains('~') && !valid_escapes(raw) {
                return Err(format!(
                    "JSON Pointer segment '{raw}' has a '~' not followed by 0 or 1"
                ));
            }
            segs.push(Seg::Key(raw.replace("~1", "/").replace("~0", "~").into()));
        }
        Ok(Path(segs))
    }

    /// Whether `self` equals `prefix` or lies below it; a key segment matches an equal index.
    pub fn starts_with(&self, prefix: &Path) -> bool {
        prefix.0.len() <= self.0.len()
            && prefix.0.iter().zip(&self.0).all(|(p, s)| seg_matches(p, s))
    }
}

fn seg_matches(pattern: &Seg, seg: &Seg) -> bool {
    match (pattern, seg) {
        (Seg::Key(k), Seg::Index(i)) | (Seg::Index(i), Seg::Key(k)) => {
            k.parse::<usize>().ok() == Some(*i)
        }
        _ => pattern == seg,
    }
}

fn valid_escapes(raw: &str) -> bool {
    let b = raw.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for seg in &self.0 {
            f.write_str("/")?;
            match seg {
                Seg::Key(k) => {
                    // RFC 6901 escapes, written piecewise (no allocation per segment).
                    let mut rest: &str = k;
                    while let Some(at) = rest.find(['~', '/']) {
                        f.write_str(&rest[..at])?;
                        f.write_str(if rest.as_bytes()[at] == b'~' {
                            "~0"
                        } else {
                            "~1"
                        })?;
                        rest = &rest[at + 1..];
                    }
                    f.write_str(rest)?;
                }
                Seg::Index(i) => write!(f, "{i}")?,
            }
        }
        Ok(())
    }
}
