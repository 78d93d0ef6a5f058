//! `lookup_options`: looked up once with a `hash` merge over every level (so an entry in a
//! more specific level replaces the whole entry, and the merged hash lists the lowest level's
//! keys first), then split into exact keys and `^` patterns (Ruby regexes, matched unanchored
//! against the root key, first match in hash order wins, an exact key always first).

use super::behave::Behaviour;
use crate::error::{Error, ErrorKind, Result};
use crate::strategy::Origin;
use crate::value::{Map, Node, Span};
use regex::Regex;
use rustc_hash::FxHashMap;

/// One options entry and where its key was written.
#[derive(Clone, Debug)]
struct Entry {
    key: String,
    value: Node,
    at: Span,
}

/// The compiled `lookup_options`.
#[derive(Debug, Default)]
pub struct Options {
    exact: FxHashMap<String, Entry>,
    patterns: Vec<(Regex, Entry)>,
}

impl Options {
    fn entry_for(&self, root: &str) -> Option<&Entry> {
        self.exact.get(root).or_else(|| {
            self.patterns
                .iter()
                .find(|(re, _)| re.is_match(root))
                .map(|(_, e)| e)
        })
    }

    /// The behaviour the entry for `root` sets (`None`: no entry, or no `merge` in it).
    pub fn behaviour_for(&self, root: &str) -> Option<Result<Behaviour>> {
        let e = self.entry_for(root)?;
        let merge = e.value.get("merge")?;
        if merge.is_null() {
            return None;
        }
        let source = format!("lookup_options['{}']", e.key);
        Some(
            Behaviour::parse(merge, source.clone(), Origin::At(e.at)).map_err(|m| {
                Error::new(ErrorKind::Directive, format!("{source}: {m}"))
                    .at(merge.span)
                    .hint("write merge: first | unique | hash | deep, or {strategy: deep, knockout_prefix: '--'}")
            }),
        )
    }

    /// Compiles the looked-up `lookup_options` hash.
    pub fn compile(m: &Map) -> Result<Options> {
        let mut opts = Options::default();
        for (k, v) in m.iter() {
            let key = crate::value::key_text(&k.0);
            let entry = Entry {
                key: key.clone(),
                value: v.clone(),
                at: k.span(),
            };
            if key.starts_with('^') {
                let re = Regex::new(&key).map_err(|e| {
                Error::new(
                    ErrorKind::Directive,
                    format!("lookup_options key '{key}' is not a regular expression: {e}"),
                )
                .at(k.span())
                .hint("keys starting with '^' are patterns; escape special characters, or do not start the key with '^'")
            })?;
                opts.patterns.push((re, entry));
            } else {
                opts.exact.insert(key, entry);
            }
        }
        Ok(opts)
    }

    /// The `convert_to` of the entry for `root`.
    pub fn convert_to(&self, root: &str) -> Option<(Node, Span)> {
        let e = self.entry_for(root)?;
        let c = e.value.get("convert_to")?;
        Some((c.clone(), c.span))
    }
}
