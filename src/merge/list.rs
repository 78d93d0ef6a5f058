//! List merger: cloud-init's `m_list` — `append`, `prepend` (iterating the new value: a string
//! gives its characters, a mapping its keys), index-wise `replace` that keeps the old length,
//! `no_replace`, the `recurse_*` options — plus `Whole` (the new value replaces the list).
//! A tuple (an `!!omap` pair) counts as a list wherever cloud-init tests for
//! `(list, tuple)`, and an old tuple is merged as a list and made a tuple again
//! (`_on_tuple`). `Extend` is Python's `merge_list`: `extend` for lists, a comma join for
//! strings, a falsy old value replaced (Heat's). Items merged recursively go back through the
//! engine's one dispatch as `Policy::Stack`.

use super::{Engine, MergeError, Merger, Outcome, Policy, PyError};
use crate::strategy::{ListMethod, ListOpts, Merger as Spec};
use crate::value::py::py_truthy;
use crate::value::{Key, Kind, Node, Span};

pub(super) struct ListMerger<'a> {
    pub opts: ListOpts,
    pub spec: &'a Spec,
}

impl ListMerger<'_> {
    fn recurses(&self, new: &Node) -> bool {
        match new.kind {
            Kind::List(_) | Kind::Tuple(_) => self.opts.recurse_list,
            Kind::Str(_) => self.opts.recurse_str,
            Kind::Map(_) => self.opts.recurse_dict,
            _ => false,
        }
    }
}

/// The items of a list or a tuple.
fn items_of(n: &Node) -> Option<&[Node]> {
    match &n.kind {
        Kind::List(items) | Kind::Tuple(items) => Some(items),
        _ => None,
    }
}

/// Python's `list(x)` for the values the dict merger can hand over.
fn iterate(new: Node) -> Vec<Node> {
    let span = new.span;
    match new.kind {
        Kind::List(items) | Kind::Tuple(items) => Vec::from(items),
        Kind::Str(s) => {
            // Each character points at itself when the source text is the string as written
            // (plain, or quoted without escapes); otherwise at the whole string.
            let quote = match (span.end - span.start) as usize {
                n if n == s.len() => Some(0),
                n if n == s.len() + 2 => Some(1),
                _ => None,
            };
            s.char_indices()
                .map(|(i, c)| {
                    let at = match quote {
                        Some(q) => {
                            let start = span.start + (q + i) as u32;
                            Span {
                                start,
                                end: start + c.len_utf8() as u32,
                            }
                        }
                        None => span,
                    };
                    Node::str(c.to_string(), at)
                })
                .collect()
        }
        Kind::Map(m) => m.into_keys().map(|k| k.0).collect(),
        _ => Vec::new(),
    }
}

/// `Extend`'s check: the error Python raises, if any.
fn extend_check(eng: &Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
    if !py_truthy(old) {
        return Ok(());
    }
    let error = match (&old.kind, &new.kind) {
        (Kind::List(_), Kind::List(_)) | (Kind::Str(_), Kind::Str(_)) => return Ok(()),
        (_, Kind::List(_)) => PyError::NoAttribute {
            on_old: true,
            attr: "extend",
        },
        (Kind::Str(_), _) => PyError::NotStr { item: 1 },
        _ => PyError::NotStr { item: 0 },
    };
    Err(eng.py_error(error, old, new))
}

impl ListMerger<'_> {
    /// `Extend` (only called after `extend_check` passed).
    fn extend(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        if !py_truthy(&old) {
            eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
            return new;
        }
        match (old.kind, new.kind) {
            (Kind::List(items), Kind::List(added)) => {
                let old = Node::list(items, old.span);
                eng.record_container(Outcome::Appended, self.spec, &old);
                let start = old.as_list().map_or(0, <[Node]>::len);
                if eng.tracing() {
                    for (j, item) in added.iter().enumerate() {
                        eng.push_index(start + j);
                        eng.record(Outcome::Appended, Some(self.spec), item.span, &[], &[]);
                        eng.pop();
                    }
                }
                let span = old.span;
                let Kind::List(mut items) = old.kind else {
                    return Node::list(added, span);
                };
                items.extend(added);
                Node::list(items, span)
            }
            (Kind::Str(a), Kind::Str(b)) => {
                let joined = format!("{a},{b}");
                let (old, new) = (
                    Node::new(Kind::Str(a), old.span),
                    Node::new(Kind::Str(b), new.span),
                );
                eng.record(
                    Outcome::Concatenated,
                    Some(self.spec),
                    old.span,
                    &[],
                    &[&old, &new],
                );
                Node::str(joined, old.span)
            }
            (a, _) => Node::new(a, old.span),
        }
    }
}

impl Merger for ListMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
        if self.opts.method == ListMethod::Extend {
            return extend_check(eng, old, new);
        }
        let Some(old_items) = items_of(old) else {
            return Ok(());
        };
        match (self.opts.method, &new.kind) {
            (
                ListMethod::Append | ListMethod::Prepend,
                Kind::List(_) | Kind::Tuple(_) | Kind::Str(_) | Kind::Map(_),
            ) => Ok(()),
            (ListMethod::Append | ListMethod::Prepend, _) => Err(eng.error(
                format!(
                    "'{}' object is not iterable (TypeError): cannot add it to a list",
                    new.py_type_name()
                ),
                new.span,
            )),
            (ListMethod::Whole, _) | (ListMethod::Replace, Kind::Str(_) | Kind::Map(_)) => Ok(()),
            (ListMethod::Replace, Kind::List(new_items) | Kind::Tuple(new_items)) => {
                for (i, (o, n)) in old_items.iter().zip(new_items.iter()).enumerate() {
                    if self.recurses(n) {
                        eng.push_index(i);
                        let r = eng.check_as(Policy::Stack, o, n);
                        eng.pop();
                        r?;
                    }
                }
                Ok(())
            }
            (ListMethod::NoReplace, Kind::Map(m)) => {
                let common = old_items.len().min(m.len());
                match (0..common)
                    .find(|&i| !m.contains_key(&Key(Node::new(Kind::Int(i as i64), Span::NONE))))
                {
                    Some(i) => Err(eng.error(
                        format!(
                            "KeyError: {i} (list(no_replace) indexes the new mapping by position)"
                        ),
                        new.span,
                    )),
                    None => Ok(()),
                }
            }
            (
                ListMethod::NoReplace
                | ListMethod::Replace
                | ListMethod::Extend
                | ListMethod::Union,
                _,
            ) => Ok(()),
        }
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        if self.opts.method == ListMethod::Extend {
            return self.extend(eng, old, new);
        }
        let span = old.span;
        let old_items = match old.kind {
            Kind::List(items) => items,
            Kind::Tuple(items) => {
                // `_on_tuple`: `tuple(self._on_list(list(value), merge_with))`.
                let merged = self.merge(eng, Node::list(items, span), new);
                let at = merged.span;
                return Node::new(Kind::Tuple(iterate(merged).into()), at);
            }
            _ => return new,
        };
        let mut items = old_items;
        match self.opts.method {
            ListMethod::Whole | ListMethod::Extend => {
                let old = Node::list(items, span);
                super::dict::kind_changed(eng, &old, &new);
                eng.record(Outcome::Replaced, Some(self.spec), new.span, &[&old], &[]);
                new
            }
            ListMethod::Replace if items_of(&new).is_none() => {
                // The type changes: the new value is returned as it is.
                eng.record(
                    Outcome::Replaced,
                    Some(self.spec),
                    new.span,
                    &[&Node::list(items, span)],
                    &[],
                );
                new
            }
            ListMethod::Append => {
                let start = items.len();
                let added = iterate(new);
                for (j, item) in added.iter().enumerate() {
                    eng.push_index(start + j);
                    eng.record(Outcome::Appended, Some(self.spec), item.span, &[], &[]);
                    eng.pop();
                }
                // In place: the block grows by doubling, so appending part after part is linear.
                items.extend(added);
                Node::list(items, span)
            }
            ListMethod::Prepend => {
                let mut merged = iterate(new);
                for (j, item) in merged.iter().enumerate() {
                    eng.push_index(j);
                    eng.record(Outcome::Prepended, Some(self.spec), item.span, &[], &[]);
                    eng.pop();
                }
                merged.extend(items);
                Node::list(merged, span)
            }
            ListMethod::Union => {
                let tracing = eng.tracing();
                let old_len = items.len();
                // Items consumed so far, to tell old items from new ones.
                let taken = std::cell::Cell::new(0usize);
                let (mut old_dropped, mut ignored) = (0usize, Vec::new());
                let merged = super::union::union_with(
                    Vec::from(items)
                        .into_iter()
                        .chain(iterate(new))
                        .inspect(|_| taken.set(taken.get() + 1)),
                    |kept, item| {
                        if taken.get() <= old_len {
                            old_dropped += 1;
                        } else if tracing {
                            ignored.push((kept.span, item.clone()));
                        }
                    },
                );
                if tracing {
                    for (j, item) in merged.iter().enumerate().skip(old_len - old_dropped) {
                        eng.push_index(j);
                        eng.record(Outcome::Appended, Some(self.spec), item.span, &[], &[]);
                        eng.pop();
                    }
                    for (kept, item) in &ignored {
                        eng.record(Outcome::Kept, Some(self.spec), *kept, &[], &[item]);
                    }
                }
                Node::list(merged, span)
            }
            ListMethod::NoReplace => {
                eng.record(Outcome::Kept, Some(self.spec), span, &[], &[&new]);
                Node::list(items, span)
            }
            ListMethod::Replace => {
                let (Kind::List(new_items) | Kind::Tuple(new_items)) = new.kind else {
                    return Node::list(items, span);
                };
                for (i, n) in new_items.into_iter().enumerate() {
                    let Some(slot) = items.get_mut(i) else {
                        // Extra new items are dropped: the old length is kept.
                        eng.push_index(i);
                        eng.record(Outcome::Kept, Some(self.spec), span, &[], &[&n]);
                        eng.pop();
                        continue;
                    };
                    eng.push_index(i);
                    if self.recurses(&n) {
                        let taken = slot.take();
                        *slot = eng.merge_as(Policy::Stack, taken, n);
                    } else {
                        eng.record(Outcome::Replaced, Some(self.spec), n.span, &[&*slot], &[]);
                        *slot = n;
                    }
                    eng.pop();
                }
                Node::list(items, span)
            }
        }
    }
}
