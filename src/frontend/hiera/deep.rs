//! Puppet's `deep` behaviour: `DeepMerge.deep_merge!(source = higher, dest = lower)` of the
//! deep_merge gem (1.1.1) as Puppet 7 calls it (`preserve_unmergeables: false`), rule for
//! rule, including its surprises: `nil` never overrides, a falsy lower value is replaced,
//! arrays are `lower | higher`, knockouts (`--x` items, a bare `--`, `--x` strings) act on one
//! pairwise merge, a hash over a non-hash makes the later keys merge with themselves, and a
//! value new at a key is merged with its own shallow copy (so nested arrays lose knockout items
//! or are emptied by a bare prefix, and sorted). Ruby's object identity is modelled by
//! [`Alias`]. Every decision can be recorded as a trace step.

use super::ruby::{self, truthy};
use crate::merge::{Outcome, Prior, RuleRef, Step, Trace};
use crate::value::{Key, Kind, Map, Node, Path};
use regex::Regex;

/// The deep strategy's options.
#[derive(Clone, Debug, Default)]
pub struct DeepOpts {
    /// `knockout_prefix` and the regex `^prefix` Ruby builds from it (multi-line `^`).
    pub knockout: Option<(String, Regex)>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
}

/// How the two sides of a merge relate as Ruby objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alias {
    /// Different objects all the way down (`deep_clone` of the lower value).
    Distinct,
    /// `value.dup`: different containers holding the same children.
    Dup,
    /// One object on both sides: `deep_merge!(x, x)`.
    Same,
}

impl Alias {
    fn child(self) -> Alias {
        match self {
            Alias::Distinct => Alias::Distinct,
            Alias::Dup | Alias::Same => Alias::Same,
        }
    }
}

/// One deep merge run: options, and the trace it records into.
pub struct Deep<'a> {
    pub opts: &'a DeepOpts,
    pub trace: Option<&'a mut Trace>,
    pub rule: Option<RuleRef>,
    pub path: Path,
}

type R = Result<Node, String>;

impl Deep<'_> {
    fn record(&mut self, outcome: Outcome, value: &Node, overrode: &[&Node]) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(Step {
                layer: t.layer,
                path: self.path.clone(),
                outcome,
                rule: self.rule.clone(),
                value: value.span,
                overrode: overrode.iter().map(|n| Prior::of(n)).collect(),
                others: Vec::new(),
            });
        }
    }

    fn strip<'s>(&self, s: &'s str) -> Option<std::borrow::Cow<'s, str>> {
        let (_, re) = self.opts.knockout.as_ref()?;
        let out = re.replace_all(s, "");
        (out != s).then_some(out)
    }

    /// `deep_merge!(source, dest)`; with `Alias::Same`, `dest` is ignored (it is `source`).
    pub fn merge(&mut self, source: Node, dest: Node, alias: Alias) -> R {
        let dest = if alias == Alias::Same {
            source.clone()
        } else {
            dest
        };
        if source.is_null() {
            return Ok(dest);
        }
        if !truthy(&dest) {
            if alias == Alias::Distinct {
                self.record(Outcome::Replaced, &source, &[&dest]);
            }
            return Ok(source);
        }
        match source.kind {
            Kind::Map(_) => self.hash(source, dest, alias),
            Kind::List(_) => self.array(source, dest, alias),
            _ => Ok(self.overwrite(source, dest, alias)),
        }
    }

    fn hash(&mut self, source: Node, dest: Node, alias: Alias) -> R {
        let span = source.span;
        let Kind::Map(src) = source.kind else {
            return Ok(dest);
        };
        let Kind::Map(mut out) = dest.kind else {
            // A hash over a non-hash: the first key overwrites dest with source itself; every
            // later key then finds its own value in dest and merges with itself.
            if src.is_empty() {
                return Ok(dest);
            }
            let source = Node::new(Kind::Map(src), span);
            self.record(Outcome::Replaced, &source, &[&dest]);
            let Kind::Map(src) = source.kind else {
                return Ok(dest);
            };
            let mut out = Map::with_capacity(src.len());
            for (i, (k, v)) in src.into_iter().enumerate() {
                let v = if i > 0 && truthy(&v) {
                    self.at(&k, |d| d.merge(v, Node::null(span), Alias::Same))?
                } else {
                    v
                };
                out.insert(k, v);
            }
            return Ok(Node::new(Kind::Map(Box::new(out)), span));
        };
        for (k, sv) in src.into_iter() {
            let slot = out.get_mut(&k).map(Node::take);
            let merged = match slot {
                Some(dv) if truthy(&dv) => self.at(&k, |d| d.merge(sv, dv, alias.child()))?,
                Some(dv) => {
                    // dest has a falsy value: replaced by source merged with its own copy.
                    let copy = sv.clone();
                    self.at(&k, |d| {
                        if alias == Alias::Distinct && !sv.is_null() {
                            d.record(Outcome::Replaced, &sv, &[&dv]);
                        }
                        d.merge(sv, copy, Alias::Dup)
                    })?
                }
                None => {
                    let copy = sv.clone();
                    self.at(&k, |d| {
                        d.record(Outcome::Added, &sv, &[]);
                        d.merge(sv, copy, Alias::Dup)
                    })?
                }
            };
            out.insert(k, merged);
        }
        Ok(Node::new(Kind::Map(out), dest.span))
    }

    fn at(&mut self, k: &Key, f: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push_key(&crate::merge::key_cow(&k.0));
        let r = f(self);
        self.path.pop();
        r
    }

    fn array(&mut self, source: Node, dest: Node, alias: Alias) -> R {
        let span = source.span;
        let Kind::List(src) = source.kind else {
            return Ok(dest);
        };
        let mut src: Vec<Node> = src.into_iter().collect();
        let mut dest = dest;
        if let Some((prefix, _)) = &self.opts.knockout {
            if src.iter().any(|n| ruby::text(n) == Some(prefix)) {
                // A bare prefix: dest is cleared (`clear_or_nil`), the prefix dropped.
                self.record(Outcome::Deleted, &dest, &[&dest]);
                dest = match dest.kind {
                    Kind::List(_) => Node::list(Vec::new(), dest.span),
                    Kind::Map(_) => Node::empty_map(dest.span),
                    Kind::Str(_) | Kind::Timestamp(_) => ruby::string("", dest.span),
                    _ => Node::null(dest.span),
                };
                if alias == Alias::Same {
                    src.clear();
                }
                src.retain(|n| ruby::text(n) != Some(prefix));
            }
        }
        let dest_span = dest.span;
        let Kind::List(dst) = dest.kind else {
            let source = Node::list(src, span);
            return Ok(self.overwrite(source, Node::new(dest.kind, dest_span), alias));
        };
        let mut dst: Vec<Node> = if alias == Alias::Same {
            Vec::new()
        } else {
            dst.into_iter().collect()
        };
        if self.opts.knockout.is_some() {
            if alias == Alias::Same {
                self.reject_self(&mut src);
            } else {
                let mut kept = Vec::with_capacity(src.len());
                for item in src {
                    let stripped = ruby::text(&item).and_then(|s| self.strip(s));
                    match stripped {
                        Some(plain) => {
                            let ko = ruby::text(&item).unwrap_or_default().to_string();
                            let before = dst.len();
                            dst.retain(|d| {
                                ruby::text(d).is_none_or(|t| t != plain.as_ref() && t != ko)
                            });
                            if dst.len() != before {
                                self.record(Outcome::Deleted, &item, &[]);
                            }
                        }
                        None => kept.push(item),
                    }
                }
                src = kept;
            }
        }
        let mut merged = if alias == Alias::Same {
            src.clone()
        } else {
            dst
        };
        let all_hashes = |v: &[Node]| v.iter().all(|n| n.as_map().is_some());
        if self.opts.merge_hash_arrays && all_hashes(&src) && all_hashes(&merged) {
            let n = merged.len();
            let mut list = Vec::with_capacity(n.max(src.len()));
            let mut src_iter = src.into_iter();
            for (i, d) in merged.into_iter().enumerate() {
                let s = src_iter.next().unwrap_or_else(|| Node::empty_map(d.span));
                self.path.push_index(i);
                let item = self.merge(s, d, alias.child());
                self.path.pop();
                list.push(item?);
            }
            list.extend(src_iter);
            merged = list;
        } else {
            let fresh = alias == Alias::Distinct;
            let before = merged.len();
            merged = crate::merge::union::union(merged.into_iter().chain(src));
            if fresh {
                for item in merged.iter().skip(before) {
                    self.record(Outcome::Appended, item, &[]);
                }
            }
        }
        if self.opts.sort_merged_arrays {
            ruby::sort(&mut merged)?;
        }
        Ok(Node::list(merged, dest_span))
    }

    /// `delete_if` on an array that is also the array it deletes from (`deep_merge!(x, x)`),
    /// following Ruby 3.1's `ary_reject_bang` index walk.
    fn reject_self(&self, ary: &mut Vec<Node>) {
        let (mut i1, mut i2) = (0usize, 0usize);
        while i1 < ary.len() {
            let v = ary[i1].clone();
            let stripped = ruby::text(&v).and_then(|s| self.strip(s).map(|p| p.into_owned()));
            match stripped {
                Some(plain) => {
                    let ko = ruby::text(&v).unwrap_or_default().to_string();
                    ary.retain(|d| ruby::text(d).is_none_or(|t| t != plain && t != ko));
                }
                None => {
                    if i1 != i2 {
                        ary[i2] = v;
                    }
                    i2 += 1;
                }
            }
            i1 += 1;
        }
        let len = ary.len();
        if i2 < len && i2 < i1 {
            let tail = len.saturating_sub(i1);
            if tail > 0 {
                let moved: Vec<Node> = ary.drain(i1..).collect();
                ary.truncate(i2);
                ary.extend(moved);
            } else {
                ary.truncate(i2);
            }
        }
    }

    /// `overwrite_unmergeables`: source replaces dest; with a knockout prefix a string that
    /// starts with it makes `""`, and an array loses its knockout items.
    fn overwrite(&mut self, source: Node, dest: Node, alias: Alias) -> Node {
        let out = match (&self.opts.knockout, &source.kind) {
            (Some(_), Kind::Str(_) | Kind::Timestamp(_)) => {
                match ruby::text(&source).and_then(|s| self.strip(s)) {
                    Some(_) => ruby::string("", source.span),
                    None => source,
                }
            }
            (Some((_, re)), Kind::List(items)) => {
                let kept: Vec<Node> = items
                    .iter()
                    .filter(|n| ruby::text(n).is_none_or(|t| !re.is_match(t)))
                    .cloned()
                    .collect();
                Node::list(kept, source.span)
            }
            _ => source,
        };
        if alias == Alias::Distinct {
            self.record(Outcome::Replaced, &out, &[&dest]);
        }
        out
    }
}
