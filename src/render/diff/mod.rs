//! `strata diff`: the value-by-value changes between two renders, each with where its value
//! came from on both sides and the input line that caused it. `compare.rs` walks the two
//! results (lists of maps matched by key), `report.rs` writes the human report, `--stat`
//! and JSON. Plain data in, plain data out: the CLI renders the two sides.

mod compare;
mod report;

pub(crate) use report::{write_human, write_json, write_stat};

use crate::rendered::Rendered;
use crate::value::{Node, Path, SourceMap};

/// One side of the comparison: a render (its trace when it was explained) and its sources.
pub(crate) struct Side<'a> {
    pub rendered: &'a Rendered,
    pub sources: &'a SourceMap,
}

/// What happened to a value between the two renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Changed,
    Added,
    Removed,
    /// The same value, now written in another file.
    Moved,
}

impl Kind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Changed => "changed",
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Moved => "moved",
        }
    }
}

/// A resolved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Where one side's value came from, as `--explain` says it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Provenance {
    /// Where the value was written (`None`: made by the merge or built in).
    pub at: Option<At>,
    pub outcome: Option<&'static str>,
    /// The rule that decided, as written, and where (`None`: a built-in rule).
    pub rule: Option<String>,
    pub rule_at: Option<At>,
    /// What the value overrode on that side: the value (short form) and where.
    pub overrode: Vec<(String, Option<At>)>,
    /// The other values of the decision: the parts joined into it (a concatenation), the
    /// values it ignored, what a substitution inserted.
    pub parts: Vec<(String, Option<At>)>,
}

/// Why a value changed: the input line in the head (or, for a value that is gone, the line
/// of the base it came from) and whether that line holds the value or the rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Cause {
    pub file: String,
    pub line: usize,
    pub by: CauseKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum CauseKind {
    /// The value written at this head line.
    Value,
    /// The rule written at this head line (the values it decides stayed where they were).
    Rule,
    /// The base line that brought a value the head no longer has.
    Gone,
    /// Nothing to point at (a value made by the merge, or two files compared directly).
    Unknown,
}

/// One changed value.
#[derive(Clone, Debug)]
pub(crate) struct Change {
    pub kind: Kind,
    /// JSON Pointer in the head render (in the base render for a removed value).
    pub path: Path,
    /// The document it is in, for a stream of documents (Deckhand): its title.
    pub document: Option<String>,
    pub old: Option<Node>,
    pub new: Option<Node>,
    pub base: Option<Provenance>,
    pub head: Option<Provenance>,
    pub cause: Cause,
}

/// Every change from `base` to `head`, in the head's document order (removed values where
/// they stood); with `moves`, also the values equal on both sides but written in another
/// file (when both sides read the same files).
pub(crate) fn compare(base: &Side<'_>, head: &Side<'_>, moves: bool) -> Vec<Change> {
    compare::changes(base, head, moves)
}

/// Counts per kind: changed, added, removed, moved.
pub(crate) fn counts(changes: &[Change]) -> [usize; 4] {
    let mut n = [0; 4];
    for c in changes {
        n[c.kind as usize] += 1;
    }
    n
}
