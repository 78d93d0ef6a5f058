//! Python's `old + new` as a merger (Heat's Number parameters): two strings are joined as
//! `Str(Join)` joins them, two lists extended as `List(Extend)` extends them, and any other pair
//! is the TypeError Python raises. A missing old value is `0` (`Engine::merge_with`).

use super::list::ListMerger;
use super::string::StrMerger;
use super::{Engine, MergeError, Merger, PyError};
use crate::strategy::{ListMethod, ListOpts, Merger as Spec, StrMethod, StrOpts};
use crate::value::{Kind, Node};

pub(super) struct PlusMerger<'a> {
    pub spec: &'a Spec,
}

const EXTEND: ListOpts = ListOpts {
    method: ListMethod::Extend,
    recurse_list: false,
    recurse_str: false,
    recurse_dict: false,
};

const JOIN: StrOpts = StrOpts {
    method: StrMethod::Join,
};

impl Merger for PlusMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
        let spec = self.spec;
        match (&old.kind, &new.kind) {
            (Kind::Str(_), Kind::Str(_)) => StrMerger { opts: JOIN, spec }.check(eng, old, new),
            (Kind::List(_), Kind::List(_)) => {
                ListMerger { opts: EXTEND, spec }.check(eng, old, new)
            }
            _ => Err(eng.py_error(PyError::NoPlus, old, new)),
        }
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        let spec = self.spec;
        match (&old.kind, &new.kind) {
            (Kind::Str(_), Kind::Str(_)) => StrMerger { opts: JOIN, spec }.merge(eng, old, new),
            (Kind::List(_), Kind::List(_)) => {
                ListMerger { opts: EXTEND, spec }.merge(eng, old, new)
            }
            _ => old,
        }
    }
}
