//! The warnings of a render, indexed for the explanation: the ones about a value are found by
//! a few hash lookups (its span, its key's span, the key written right before it) and a prefix
//! check of the path-attached ones, not by a pass over every warning for every value.

use crate::error::Warning;
use crate::value::{Path, SourceMap, Span};
use rustc_hash::FxHashMap;

/// The warnings of a render, indexed so that finding those about a value costs a few hash
/// lookups, not a pass over every warning.
pub(super) struct Warnings<'r> {
    all: &'r [Warning],
    by_span: FxHashMap<Span, Vec<usize>>,
    /// By (source, end offset), for warnings about the key written right before a value.
    by_end: FxHashMap<u32, Vec<usize>>,
    /// Warnings attached to a path.
    pathed: Vec<usize>,
}

impl<'r> Warnings<'r> {
    /// Indexes a render's warnings (or its notes).
    pub(super) fn new(all: &'r [Warning]) -> Warnings<'r> {
        let mut index = Warnings {
            all,
            by_span: FxHashMap::default(),
            by_end: FxHashMap::default(),
            pathed: Vec::new(),
        };
        for (i, w) in all.iter().enumerate() {
            if w.path.is_some() {
                index.pathed.push(i);
            }
            if let Some(s) = w.span {
                index.by_span.entry(s).or_default().push(i);
                index.by_end.entry(s.end).or_default().push(i);
            }
        }
        index
    }

    /// Whether any warning is attached to a path (then callers must say where values are).
    pub(super) fn any_path(&self) -> bool {
        !self.pathed.is_empty()
    }

    /// Warnings about a value, in the order they were given: attached to its path (or a
    /// parent's), its key, its own text, or to the key written right before it (`key: value`,
    /// e.g. a duplicate key whose value won).
    pub(super) fn about(
        &self,
        path: Option<&Path>,
        value: Span,
        key: Option<Span>,
        sources: &SourceMap,
    ) -> Vec<&'r Warning> {
        if self.all.is_empty() {
            return Vec::new();
        }
        let mut hits: Vec<usize> = Vec::new();
        if let Some(p) = path {
            hits.extend(self.pathed.iter().copied().filter(|&i| {
                self.all
                    .get(i)
                    .and_then(|w| w.path.as_ref())
                    .is_some_and(|wp| p.starts_with(wp))
            }));
        }
        for span in std::iter::once(value).chain(key) {
            hits.extend(self.by_span.get(&span).into_iter().flatten());
        }
        // `key<ws>:<ws>value`: warnings whose span ends anywhere in the blanks before the colon.
        if !value.is_none() {
            if let Some(before) = sources.before(value) {
                let trimmed = before.trim_end();
                if let Some(colon) = trimmed.strip_suffix(':') {
                    // Offsets in `before` are the span's own offsets minus its source's start.
                    let base = value.start as usize - before.len();
                    let from = colon.trim_end().len();
                    for end in from..=colon.len() {
                        let at = u32::try_from(base + end).unwrap_or(u32::MAX);
                        hits.extend(self.by_end.get(&at).into_iter().flatten());
                    }
                }
            }
        }
        hits.sort_unstable();
        hits.dedup();
        hits.into_iter().filter_map(|i| self.all.get(i)).collect()
    }
}
