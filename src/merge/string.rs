//! Str merger: cloud-init's `m_str`. Without `append` the new value (of any type) wins; with
//! `append` strings are joined, and a non-string new value is a TypeError (the part is dropped).

use super::{Engine, MergeError, Merger, Outcome};
use crate::strategy::{Merger as Spec, StrOpts};
use crate::value::{Kind, Node};

pub struct StrMerger<'a> {
    pub opts: StrOpts,
    pub spec: &'a Spec,
}

impl Merger for StrMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, _old: &Node, new: &Node) -> Result<(), MergeError> {
        if self.opts.append && new.as_str().is_none() {
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
        match (&old.kind, &new.kind) {
            (Kind::Str(_), Kind::Str(_)) if self.opts.append => {
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
