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
    /// The message, worded as the real system fails.
    pub message: String,
    /// The value the merge failed on (the new side).
    pub span: Span,
    /// Where in the document.
    pub path: Path,
    /// For the Python-semantics mergers: which exception, and the two values it was raised on.
    pub python: Option<Box<PyFault>>,
}

/// The exception Python raises merging `new` into `old`.
#[derive(Clone, Debug, PartialEq)]
pub struct PyFault {
    /// Which exception.
    pub error: PyError,
    /// The old value it was raised on.
    pub old: Prior,
    /// The new value it was raised on.
    pub new: Prior,
}

/// Python exceptions of a merge, independent of how a system words the type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyError {
    /// `AttributeError: '<type>' object has no attribute '<attr>'`, on the old value or the
    /// new one.
    NoAttribute {
        /// The old value lacks it (else the new one).
        on_old: bool,
        /// The attribute Python looked up (`items`, `get`, `extend`).
        attr: &'static str,
    },
    /// `TypeError: '<old type>' object does not support item assignment`.
    NoItemAssignment,
    /// `TypeError: sequence item <item>: expected str instance, <type> found` (item 0 is the
    /// old value, 1 the new one).
    NotStr {
        /// The item that is not a string: 0 the old value, 1 the new one.
        item: u8,
    },
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
    /// Where in the document.
    pub path: Path,
    /// The value it is about.
    pub span: Span,
    /// What happened.
    pub what: NoticeKind,
}

/// What a notice is about. `at` is the ranked merge's rule path joined with `\`.
#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    /// Two non-empty strings were joined without a separator (`Str(Join)` under `rule`).
    JoinedWithoutSeparator {
        /// The rule that joined them, as written.
        rule: String,
        /// The old string.
        old: String,
        /// The new string.
        new: String,
    },
    /// A plain deep merge replaced a mapping by a list or a list by a mapping (`old` and
    /// `new` in words, `was` where the old value was written).
    KindChanged {
        /// The old value's kind in words (`a mapping`).
        old: &'static str,
        /// The new value's kind in words (`a list`).
        new: &'static str,
        /// Where the old value was written.
        was: Span,
    },
    /// Ranked merge: the first value and a later one have different shapes; the first is kept.
    ShapeMismatch {
        /// The rule path.
        at: String,
        /// The shape of the value kept.
        first: Shape,
        /// The shape of the value dropped.
        other: Shape,
    },
    /// Ranked merge: a list item lacks one of the item keys, so it matches nothing.
    ItemWithoutKey {
        /// The rule path.
        at: String,
        /// The item key it lacks.
        key: String,
    },
    /// Ranked `FirstByKeys` without item keys: items are compared whole.
    ItemsComparedWhole {
        /// The rule path.
        at: String,
    },
    /// Ranked `MergeByKeys` without item keys: the first item's keys are used.
    ItemKeysFromFirst {
        /// The rule path.
        at: String,
        /// The first item's keys, used as item keys.
        keys: Vec<String>,
    },
}
