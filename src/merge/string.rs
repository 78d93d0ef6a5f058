//! String merger: cloud-init's `m_str` — without `append` the new value (of any type) wins;
//! with `append` strings are joined, and a non-string new value is a TypeError (the part is
//! dropped) — and Python's `''.join([old, new])` (`Join`: both must be strings, an empty old
//! string is replaced, a join of two non-empty strings is noticed).

use super::{Engine, MergeError, Merger, NoticeKind, Outcome, PyError};
use crate::strategy::{Merger as Spec, StrMethod, StrOpts};
use crate::value::{Kind, Node};

pub(super) struct StrMerger<'a> {
    pub opts: StrOpts,
    pub spec: &'a Spec,
}

impl Merger for StrMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
        if self.opts.method == StrMethod::Join {
            return match (old.as_str(), new.as_str()) {
                (None, _) => Err(eng.py_error(PyError::NotStr { item: 0 }, old, new)),
                (Some(_), None) => Err(eng.py_error(PyError::NotStr { item: 1 }, old, new)),
                _ => Ok(()),
            };
        }
        if self.opts.method == StrMethod::Append && new.as_str().is_none() {
            return Err(eng.error(
                format!(
                    "can only concatenate str (not \"{}\") to str (TypeError in str(append))",
                    new.py_type_name()
                ),
                new.span,
            ));
        }
        Ok(())
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        let join = self.opts.method == StrMethod::Join;
        match (&old.kind, &new.kind) {
            (Kind::Str(a), Kind::Str(_)) if join && a.is_empty() => {
                eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
                new
            }
            (Kind::Str(_), Kind::Str(_)) if self.opts.method != StrMethod::Replace => {
                eng.record(
                    Outcome::Concatenated,
                    Some(self.spec),
                    old.span,
                    &[],
                    &[&old, &new],
                );
                let span = old.span;
                let (Kind::Str(mut joined), Kind::Str(b)) = (old.kind, new.kind) else {
                    return Node::null(span);
                };
                if join && !b.is_empty() {
                    let what = NoticeKind::JoinedWithoutSeparator {
                        rule: self.spec.text.to_string(),
                        old: joined.to_string(),
                        new: b.to_string(),
                    };
                    eng.notice(new.span, what);
                }
                // In place: the old text's block grows by doubling, so a string appended to
                // part after part is not copied every time.
                joined.push_str(&b);
                Node::new(Kind::Str(joined), span)
            }
            _ => {
                eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
                new
            }
        }
    }
}
