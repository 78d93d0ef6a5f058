//! The provenance trace: one `Step` per merge decision, recorded only under `--explain`.
//! A step names the output path, the outcome, the merger that decided (its text and where it
//! was written), the span of the value that won, and the values it overrode or ignored.

use crate::strategy::{Merger, Origin};
use crate::value::key_text;
use crate::value::{Kind, Node, Path, Span};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use thin_vec::ThinVec;

/// What a merge decision did to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The value was new at its path.
    Added,
    /// The old value stayed; the new one was ignored.
    Kept,
    /// The new value replaced the old one.
    Replaced,
    /// The new value was added after the old list's items.
    Appended,
    /// The new value was added before the old list's items.
    Prepended,
    /// Both were containers and were merged member by member.
    Merged,
    /// The old value was removed (cloud-init `allow_delete`, knockout, ...).
    Deleted,
    /// A whole layer was dropped (cloud-init rejected or skipped the part).
    DroppedPart,
    /// Strings were joined (`str(append)`).
    Concatenated,
    /// A value put there by a substitution that made a new string: a pattern inside the
    /// string at this position replaced by the source's value (Deckhand `dest.pattern`), or a
    /// part of the source string (Deckhand `src.pattern`).
    Substituted,
}

impl Outcome {
    /// The word `--explain` prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Added => "added",
            Outcome::Kept => "kept",
            Outcome::Replaced => "replaced",
            Outcome::Appended => "appended",
            Outcome::Prepended => "prepended",
            Outcome::Merged => "merged",
            Outcome::Deleted => "deleted",
            Outcome::DroppedPart => "dropped-part",
            Outcome::Concatenated => "concatenated",
            Outcome::Substituted => "substituted",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule that decided, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleRef {
    /// The rule's text (`list(append)`, `deep`).
    pub text: std::sync::Arc<str>,
    /// Where it was written.
    pub origin: Origin,
}

impl From<&Merger> for RuleRef {
    fn from(m: &Merger) -> RuleRef {
        RuleRef {
            text: m.text.clone(),
            origin: m.origin.clone(),
        }
    }
}

/// Another value involved in a decision: what it was and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// The value.
    pub value: Node,
    /// Where it was written.
    pub span: Span,
}

impl Prior {
    /// Scalars are kept whole; containers as an empty container of the same kind, to keep
    /// the trace small (the explanation only shows their position).
    pub fn of(node: &Node) -> Prior {
        let value = match &node.kind {
            Kind::List(_) => Node::list(Vec::new(), node.span),
            Kind::Map(_) => Node::empty_map(node.span),
            _ => node.clone(),
        };
        Prior {
            value,
            span: node.span,
        }
    }
}

/// One decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Index of the layer (part, file) being merged in.
    pub layer: u32,
    /// The value's path in the document.
    pub path: Path,
    /// What happened.
    pub outcome: Outcome,
    /// The rule that decided, when one did.
    pub rule: Option<RuleRef>,
    /// The value that is in the result after this step.
    pub value: Span,
    /// Values this step replaced or deleted (a `ThinVec`: one word when empty, as most are;
    /// W1's `--explain` holds half a million steps).
    pub overrode: ThinVec<Prior>,
    /// Values this step left out (kept old) or joined in (concatenated).
    pub others: ThinVec<Prior>,
}

/// Every decision of one render, in order.
#[derive(Debug, Default)]
pub struct Trace {
    /// The steps, in the order they were recorded.
    pub steps: Vec<Step>,
    /// The layer steps are recorded in: set by `merge::fold::Fold::layer` only.
    pub(in crate::merge) layer: u32,
    /// Per value span, the index of its last step; `prev[i]` chains to the step before `i`
    /// for the same span (`NO_STEP` ends the chain). One hash entry per value, no list each.
    by_value: HashMap<Span, usize, BuildHasherDefault<SpanHash>>,
    prev: Vec<usize>,
}

const NO_STEP: usize = usize::MAX;

/// Hashes a span to its start offset, so that `--explain`, which looks values up in the order
/// of their text, walks `by_value`'s table in order instead of missing the cache at every
/// value (the table's slot is the hash's low bits). The top 7 bits, which the table compares
/// before keys, come from a mix of both offsets.
#[derive(Default)]
struct SpanHash {
    words: [u32; 2],
    seen: usize,
}

impl Hasher for SpanHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        match self.words.get_mut(self.seen) {
            Some(w) => *w = n,
            None => self.words[1] = self.words[1].rotate_left(5) ^ n,
        }
        self.seen += 1;
    }

    fn finish(&self) -> u64 {
        let [start, end] = self.words;
        let tag = (start ^ end.wrapping_mul(0x9e37_79b9)).wrapping_mul(0x85eb_ca6b) >> 25;
        u64::from(start >> 4) | (u64::from(tag) << 57)
    }
}

/// Whether `path` ends with `tail`, any two list indexes counting as equal.
fn ends_with(path: &Path, tail: &Path) -> bool {
    use crate::value::Seg;
    let (a, b) = (&path.0, &tail.0);
    b.len() <= a.len()
        && a[a.len() - b.len()..]
            .iter()
            .zip(b)
            .all(|(x, y)| match (x, y) {
                (Seg::Key(p), Seg::Key(q)) => p == q,
                (Seg::Index(_), Seg::Index(_)) => true,
                (Seg::Key(k), Seg::Index(_)) | (Seg::Index(_), Seg::Key(k)) => {
                    k.parse::<usize>().is_ok()
                }
            })
}

impl Trace {
    /// The layer steps are recorded in now.
    pub fn layer(&self) -> u32 {
        self.layer
    }

    /// Records one decision about the value at `value`, now at `path`, in the current layer.
    pub fn record(
        &mut self,
        path: &Path,
        outcome: Outcome,
        rule: Option<RuleRef>,
        value: Span,
        overrode: &[&Node],
        others: &[&Node],
    ) {
        let step = Step {
            layer: self.layer,
            path: path.clone(),
            outcome,
            rule,
            value,
            overrode: overrode.iter().map(|n| Prior::of(n)).collect(),
            others: others.iter().map(|n| Prior::of(n)).collect(),
        };
        self.push(step);
    }

    /// `record` for a decision whose earlier values are already `Prior`s.
    pub fn record_priors(
        &mut self,
        path: &Path,
        outcome: Outcome,
        rule: Option<RuleRef>,
        value: Span,
        overrode: ThinVec<Prior>,
    ) {
        self.push(Step {
            layer: self.layer,
            path: path.clone(),
            outcome,
            rule,
            value,
            overrode,
            others: ThinVec::new(),
        });
    }

    /// Records a step (it becomes the last step of its value).
    pub fn push(&mut self, step: Step) {
        let i = self.steps.len();
        let before = self.by_value.insert(step.value, i).unwrap_or(NO_STEP);
        self.prev.push(before);
        self.steps.push(step);
    }

    /// Before `container` (at `path`) is merged into, gives each direct child without a step of
    /// its own a copy of the step that put the container there, so the child keeps its
    /// provenance when the container's own step is superseded.
    pub fn settle(&mut self, path: &Path, container: &Node) {
        let Some(base) = self.last_for(container.span).cloned() else {
            return;
        };
        let children: Vec<(Path, Span)> = match &container.kind {
            Kind::Map(m) => m
                .iter()
                .map(|(k, v)| {
                    let mut p = path.clone();
                    p.push_key(&key_text(&k.0));
                    (p, v.span)
                })
                .collect(),
            Kind::List(l) => l
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let mut p = path.clone();
                    p.push_index(i);
                    (p, v.span)
                })
                .collect(),
            _ => Vec::new(),
        };
        for (path, span) in children {
            if span.is_none() || self.last_for(span).is_some() {
                continue;
            }
            let mut step = base.clone();
            step.path = path;
            step.value = span;
            step.overrode.clear();
            step.others.clear();
            self.push(step);
        }
    }

    /// The last decision that put the value written at `span` where it is.
    pub fn last_for(&self, span: Span) -> Option<&Step> {
        self.by_value.get(&span).and_then(|&i| self.steps.get(i))
    }

    /// The last decision about the value at `span` that `keep` accepts.
    pub fn last_for_where(&self, span: Span, keep: impl Fn(&Step) -> bool) -> Option<&Step> {
        let mut at = self.by_value.get(&span).copied().unwrap_or(NO_STEP);
        while let Some(step) = self.steps.get(at) {
            if keep(step) {
                return Some(step);
            }
            at = self.prev.get(at).copied().unwrap_or(NO_STEP);
        }
        None
    }

    /// The last decision about the value at `span` as it stands at `path`, for inputs where
    /// one text can stand at several paths (an alias's copy keeps its span): only a step
    /// whose path ends with `path` (the output may be a subtree: `lookup KEY`), list indexes
    /// aside (a list merge may move an item), is about this copy; `None` when none is (the
    /// value then inherits its container's step).
    pub fn last_at(&self, span: Span, path: &Path) -> Option<&Step> {
        self.last_for_where(span, |s| ends_with(&s.path, path))
    }

    /// Every decision about this value, oldest first.
    pub fn all_for(&self, span: Span) -> impl Iterator<Item = &Step> {
        let mut chain = Vec::new();
        let mut at = self.by_value.get(&span).copied().unwrap_or(NO_STEP);
        while let Some(step) = self.steps.get(at) {
            chain.push(step);
            at = self.prev.get(at).copied().unwrap_or(NO_STEP);
        }
        chain.into_iter().rev()
    }
}
