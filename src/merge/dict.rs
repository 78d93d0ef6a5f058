//! Map merger: cloud-init's `m_dict` (`replace`, `no_replace`, `allow_delete`,
//! `recurse_list`/`recurse_array`, `recurse_str`; mappings always recurse under no_replace),
//! the plain deep merge (`Deep`: recurse when both are maps, else the new value wins), and
//! Python's `merge_map` (`ByNewType` or one-level `Replace`, with `skip_null`,
//! `replace_falsy_old` and `strict_types`: Heat's). A key merged recursively goes back through
//! the engine's one dispatch as `Policy::Stack` (its merger picked again by type).

use super::walk::{walk, Fate, KeyPolicy, Keys};
use super::{Engine, MergeError, Merger, NoticeKind, Outcome, Policy, PyError};
use crate::strategy::{DictMethod, DictOpts, Merger as Spec};
use crate::value::py::py_truthy;
use crate::value::{Key, Kind, Node};
use std::convert::Infallible;

pub(super) struct DictMerger<'a> {
    pub opts: DictOpts,
    pub spec: &'a Spec,
}

/// What happens at a key both sides have.
enum Action {
    Delete,
    Replace,
    Recurse,
    Keep,
    /// A null skipped: the old value stays.
    Skip,
}

impl DictMerger<'_> {
    fn action(&self, old: &Node, new: &Node) -> Action {
        if new.is_null() && self.opts.allow_delete {
            return Action::Delete;
        }
        if new.is_null() && self.opts.skip_null {
            return Action::Skip;
        }
        match self.opts.method {
            DictMethod::ByNewType => match new.kind {
                Kind::Map(_) | Kind::List(_) | Kind::Str(_) => Action::Recurse,
                _ => Action::Replace,
            },
            DictMethod::Replace => Action::Replace,
            DictMethod::NoReplace => {
                let recurse = match new.kind {
                    Kind::Map(_) => true,
                    Kind::List(_) | Kind::Tuple(_) => self.opts.recurse_list,
                    Kind::Str(_) => self.opts.recurse_str,
                    _ => false,
                };
                if recurse {
                    Action::Recurse
                } else {
                    Action::Keep
                }
            }
            DictMethod::Deep => {
                if old.as_map().is_some() && new.as_map().is_some() {
                    Action::Recurse
                } else {
                    Action::Replace
                }
            }
        }
    }

    /// Under `replace_falsy_old`: the old value is replaced whole.
    fn replaces_whole(&self, old: &Node) -> bool {
        self.opts.replace_falsy_old && !py_truthy(old)
    }

    /// Under `strict_types`, the error Python raises when a side is not a map.
    fn type_error(&self, eng: &Engine<'_>, old: &Node, new: &Node) -> Option<MergeError> {
        if !self.opts.strict_types {
            return None;
        }
        let Some(nm) = new.as_map() else {
            let error = PyError::NoAttribute {
                on_old: false,
                attr: "items",
            };
            return Some(eng.py_error(error, old, new));
        };
        if old.as_map().is_some() {
            return None;
        }
        // Python fails on the first entry it would store (an empty update changes nothing).
        let v = nm.values().find(|v| !v.is_null() || !self.opts.skip_null)?;
        let deep = self.opts.method == DictMethod::ByNewType;
        let error = if deep && matches!(v.kind, Kind::Map(_) | Kind::List(_) | Kind::Str(_)) {
            PyError::NoAttribute {
                on_old: true,
                attr: "get",
            }
        } else {
            PyError::NoItemAssignment
        };
        Some(eng.py_error(error, old, new))
    }
}

impl Merger for DictMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
        if self.replaces_whole(old) {
            return Ok(());
        }
        if let Some(e) = self.type_error(eng, old, new) {
            return Err(e);
        }
        let Some(nm) = new.as_map() else {
            return Ok(());
        };
        let Some(om) = old.as_map() else {
            return Ok(());
        };
        for (k, nv) in nm.iter() {
            if let Some(ov) = om.get(k) {
                if let Action::Recurse = self.action(ov, nv) {
                    eng.push_key(k);
                    let r = eng.check_as(Policy::Stack, ov, nv);
                    eng.pop();
                    r?;
                }
            }
        }
        Ok(())
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        if self.replaces_whole(&old) {
            eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
            return new;
        }
        if self.opts.strict_types && old.as_map().is_none() {
            // Only a mapping of nulls gets here (`type_error`): Python changes nothing.
            return old;
        }
        if self.opts.method == DictMethod::Deep && new.as_map().is_none() {
            kind_changed(eng, &old, &new);
            eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
            return new;
        }
        if old.as_map().is_none() || new.as_map().is_none() {
            // cloud-init: a new value that is not a mapping leaves the old mapping as it is.
            eng.record(Outcome::Kept, Some(self.spec), old.span, &[], &[&new]);
            return old;
        }
        eng.record_container(Outcome::Merged, self.spec, &old);
        let span = old.span;
        let (Kind::Map(mut om), Kind::Map(nm)) = (old.kind, new.kind) else {
            return Node::empty_map(span);
        };
        let tracing = eng.tracing();
        let mut keys = DictKeys {
            merger: self,
            eng,
            tracing,
        };
        let Ok(()) = walk(&mut keys, &mut om, *nm, Keys::EXACT);
        Node {
            kind: Kind::Map(om),
            span,
        }
    }
}

/// The dict merger's decisions at each key of the walk.
struct DictKeys<'m, 'e, 'a> {
    merger: &'m DictMerger<'m>,
    eng: &'e mut Engine<'a>,
    tracing: bool,
}

impl KeyPolicy for DictKeys<'_, '_, '_> {
    type Error = Infallible;

    fn enter(&mut self, key: &Key) {
        self.eng.push_key(key);
    }

    fn leave(&mut self) {
        self.eng.pop();
    }

    fn absent(&mut self, _key: &Key, nv: Node) -> Result<Option<Node>, Infallible> {
        if nv.is_null() && self.merger.opts.skip_null {
            return Ok(None);
        }
        let spec = Some(self.merger.spec);
        self.eng.record(Outcome::Added, spec, nv.span, &[], &[]);
        Ok(Some(nv))
    }

    fn both(&mut self, ov: &mut Node, nv: Node) -> Result<Fate, Infallible> {
        let (m, eng, tracing) = (self.merger, &mut *self.eng, self.tracing);
        let spec = Some(m.spec);
        match m.action(ov, &nv) {
            Action::Delete => {
                if tracing {
                    eng.record(Outcome::Deleted, spec, nv.span, &[&*ov], &[]);
                }
                return Ok(Fate::Deleted);
            }
            Action::Replace => {
                if m.opts.method == DictMethod::Deep {
                    kind_changed(eng, ov, &nv);
                }
                if tracing {
                    eng.record(Outcome::Replaced, spec, nv.span, &[&*ov], &[]);
                }
                *ov = nv;
            }
            Action::Keep | Action::Skip => {
                if tracing {
                    eng.record(Outcome::Kept, spec, ov.span, &[], &[&nv]);
                }
            }
            Action::Recurse => {
                let taken = ov.take();
                *ov = eng.merge_as(Policy::Stack, taken, nv);
            }
        }
        Ok(Fate::Stays)
    }
}

/// Under the plain deep merge, a mapping replaced by a list or a list by a mapping is noticed
/// (a value of another kind replaces whole: rarely what a later layer meant). An old value no
/// input wrote (the empty start a fold begins from) is not noticed: nothing was replaced.
pub(super) fn kind_changed(eng: &mut Engine<'_>, old: &Node, new: &Node) {
    if old.span.is_none() {
        return;
    }
    let words = |n: &Node| match n.kind {
        Kind::Map(_) => Some("a mapping"),
        Kind::List(_) | Kind::Tuple(_) => Some("a list"),
        _ => None,
    };
    if let (Some(o), Some(n)) = (words(old), words(new)) {
        if o != n {
            let what = NoticeKind::KindChanged {
                old: o,
                new: n,
                was: old.span,
            };
            eng.notice(new.span, what);
        }
    }
}
