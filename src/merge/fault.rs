//! What a merge can report besides its result: `MergeError`, a merge the real system would
//! abort (with, for the Python-semantics mergers, the exception Python raises, as data the
//! front-end words in its system's terms), and `Notice`, a merge that succeeded but that the
//! user probably did not mean (strings joined without a separator, values of different shapes,
//! list items matched without the keys that identify them), also worded by the front-end.

use super::Prior;
use crate::strategy::ranked::Shape;
use crate::value::{Node, Path, Span};

/// A merge the real system would abort (cloud-init: TypeError / KeyError inside a merger;
/// Heat: the exception `merge_map` / `merge_list` / `+` raises).
#[derive(Clone, Debug, PartialEq)]
pub struct MergeError {
    pub message: String,
    pub span: Span,
    pub path: Path,
    /// For the Python-semantics mergers: which exception, and the two values it was raised on.
    pub python: Option<Box<PyFault>>,
}

/// The exception Python raises merging `new` into `old`.
#[derive(Clone, Debug, PartialEq)]
pub struct PyFault {
    pub error: PyError,
    pub old: Prior,
    pub new: Prior,
}

/// Python exceptions of a merge, independent of how a system words the type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyError {
    /// `AttributeError: '<type>' object has no attribute '<attr>'`, on the old value or the
    /// new one.
    NoAttribute { on_old: bool, attr: &'static str },
    /// `TypeError: '<old type>' object does not support item assignment`.
    NoItemAssignment,
    /// `TypeError: sequence item <item>: expected str instance, <type> found` (item 0 is the
    /// old value, 1 the new one).
    NotStr { item: u8 },
    /// `TypeError: unsupported operand type(s) for +: '<old type>' and '<new type>'`, or, for
    /// a str, list or tuple on the left, `can only concatenate <old> (not "<new>") to <old>`.
    NoPlus,
}

impl PyFault {
    /// The exception as Python prints it, naming types with `type_name`.
    pub fn python(&self, type_name: impl Fn(&Node) -> &'static str) -> String {
        let (old, new) = (type_name(&self.old.value), type_name(&self.new.value));
        match self.error {
            PyError::NoAttribute { on_old, attr } => format!(
                "AttributeError: '{}' object has no attribute '{attr}'",
                if on_old { old } else { new }
            ),
            PyError::NoItemAssignment => {
                format!("TypeError: '{old}' object does not support item assignment")
            }
            PyError::NotStr { item } => format!(
                "TypeError: sequence item {item}: expected str instance, {} found",
                if item == 0 { old } else { new }
            ),
            // A str, list or tuple on the left says what it can be concatenated with.
            PyError::NoPlus if matches!(old, "str" | "list" | "tuple") => {
                format!("TypeError: can only concatenate {old} (not \"{new}\") to {old}")
            }
            PyError::NoPlus => {
                format!("TypeError: unsupported operand type(s) for +: '{old}' and '{new}'")
            }
        }
    }
}

/// A merge that succeeded but that the user probably did not mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub path: Path,
    /// The value it is about.
    pub span: Span,
    pub what: NoticeKind,
}

/// What a notice is about. `at` is the ranked merge's rule path joined with `\`.
#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    /// Two non-empty strings were joined without a separator (`Str(Join)` under `rule`).
    JoinedWithoutSeparator {
        rule: String,
        old: String,
        new: String,
    },
    /// A plain deep merge replaced a mapping by a list or a list by a mapping (`old` and
    /// `new` in words, `was` where the old value was written).
    KindChanged {
        old: &'static str,
        new: &'static str,
        was: Span,
    },
    /// Ranked merge: the first value and a later one have different shapes; the first is kept.
    ShapeMismatch {
        at: String,
        first: Shape,
        other: Shape,
    },
    /// Ranked merge: a list item lacks one of the item keys, so it matches nothing.
    ItemWithoutKey { at: String, key: String },
    /// Ranked `FirstByKeys` without item keys: items are compared whole.
    ItemsComparedWhole { at: String },
    /// Ranked `MergeByKeys` without item keys: the first item's keys are used.
    ItemKeysFromFirst { at: String, keys: Vec<String> },
}
