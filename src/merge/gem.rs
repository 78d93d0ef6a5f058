//! The deep_merge gem's `deep_merge!(source = new, dest = old)` (1.1.1, as Puppet 7 calls it:
//! `preserve_unmergeables: false`), the `MergerSpec::Gem` merge, rule for rule, including its
//! surprises: `nil` never overrides, a falsy old value is replaced, arrays are `old | new`,
//! knockouts (`--x` items, a bare `--`, `--x` strings) act on one pairwise merge, a hash over a
//! non-hash makes the later keys merge with themselves, and a value new at a key is merged with
//! its own shallow copy (so nested arrays lose knockout items or are emptied by a bare prefix,
//! and sorted). Ruby's object identity is modelled by [`Alias`]; values mean what they mean to
//! Ruby (`value::ruby`). Hashes go through the one map walk (`walk`), knockout rules live with the
//! ranked family's in `knockout`. Every decision is recorded through the engine.

use super::knockout;
use super::walk::{walk, Fate, KeyPolicy, Keys};
use super::{Engine, MergeError, Merger};
use crate::merge::Outcome;
use crate::strategy::{GemOpts, Merger as Spec};
use crate::value::ruby::{self, truthy};
use crate::value::{Key, Kind, Map, Node};

/// How the two sides of a merge relate as Ruby objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alias {
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

pub(super) struct GemMerger<'s> {
    pub opts: &'s GemOpts,
    pub spec: &'s Spec,
}

impl Merger for GemMerger<'_> {
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError> {
        // The one failure is `sort!` over items Ruby cannot compare: found by merging copies.
        if !self.opts.sort_merged_arrays {
            return Ok(());
        }
        let mut run = Run {
            opts: self.opts,
            spec: self.spec,
            eng: None,
        };
        match run.merge(new.clone(), old.clone(), Alias::Distinct) {
            Ok(_) => Ok(()),
            Err(message) => Err(eng.error(message, new.span)),
        }
    }

    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node {
        let span = old.span;
        let mut run = Run {
            opts: self.opts,
            spec: self.spec,
            eng: Some(eng),
        };
        // `check` has run the same merge: it cannot fail here.
        run.merge(new, old, Alias::Distinct)
            .unwrap_or_else(|_| Node::null(span))
    }
}

/// One merge: the options, and the engine it records into (none while checking).
struct Run<'r, 'e, 'a> {
    opts: &'r GemOpts,
    spec: &'r Spec,
    eng: Option<&'e mut Engine<'a>>,
}

type R = Result<Node, String>;

impl Run<'_, '_, '_> {
    fn record(&mut self, outcome: Outcome, value: &Node, overrode: &[&Node]) {
        if let Some(eng) = self.eng.as_deref_mut() {
            eng.record(outcome, Some(self.spec), value.span, overrode, &[]);
        }
    }

    /// `deep_merge!(source, dest)`; with `Alias::Same`, `dest` is ignored (it is `source`).
    fn merge(&mut self, source: Node, dest: Node, alias: Alias) -> R {
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
        let mut keys = GemKeys { run: self, alias };
        walk(&mut keys, &mut out, *src, Keys::EXACT)?;
        Ok(Node::new(Kind::Map(out), dest.span))
    }

    fn at(&mut self, k: &Key, f: impl FnOnce(&mut Self) -> R) -> R {
        self.inside(|e| e.push_key(k), f)
    }

    /// `f` one level down the path (`push` names the level), when recording.
    fn inside(&mut self, push: impl FnOnce(&mut Engine<'_>), f: impl FnOnce(&mut Self) -> R) -> R {
        if let Some(eng) = self.eng.as_deref_mut() {
            push(eng);
        }
        let r = f(self);
        if let Some(eng) = self.eng.as_deref_mut() {
            eng.pop();
        }
        r
    }

    fn array(&mut self, source: Node, dest: Node, alias: Alias) -> R {
        let span = source.span;
        let Kind::List(src) = source.kind else {
            return Ok(dest);
        };
        let mut src: Vec<Node> = src.into_iter().collect();
        let mut dest = dest;
        if let Some(ko) = &self.opts.knockout {
            if knockout::gem_has_bare(ko, &src) {
                // A bare prefix: dest is cleared (`clear_or_nil`), the prefix dropped.
                self.record(Outcome::Deleted, &dest, &[&dest]);
                dest = knockout::gem_clear(dest);
                if alias == Alias::Same {
                    src.clear();
                }
                knockout::gem_drop_bare(ko, &mut src);
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
        if let Some(ko) = &self.opts.knockout {
            if alias == Alias::Same {
                knockout::gem_reject_self(ko, &mut src);
            } else {
                let mut dropped = Vec::new();
                src = knockout::gem_knock_items(ko, src, &mut dst, |item| dropped.push(item));
                for item in &dropped {
                    self.record(Outcome::Deleted, item, &[]);
                }
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
                let item = self.inside(|e| e.push_index(i), |m| m.merge(s, d, alias.child()));
                list.push(item?);
            }
            list.extend(src_iter);
            merged = list;
        } else {
            let fresh = alias == Alias::Distinct;
            let before = merged.len();
            merged = super::union::union(merged.into_iter().chain(src));
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

    /// `overwrite_unmergeables`: source replaces dest; with a knockout prefix a string that
    /// starts with it makes `""`, and an array loses its knockout items.
    fn overwrite(&mut self, source: Node, dest: Node, alias: Alias) -> Node {
        let out = match &self.opts.knockout {
            Some(ko) => knockout::gem_overwrite(ko, source),
            None => source,
        };
        if alias == Alias::Distinct {
            self.record(Outcome::Replaced, &out, &[&dest]);
        }
        out
    }
}

/// The gem's `deep_merge!` at each key of a hash over a hash (the one map walk, `walk`).
struct GemKeys<'k, 'r, 'e, 'a> {
    run: &'k mut Run<'r, 'e, 'a>,
    alias: Alias,
}

impl KeyPolicy for GemKeys<'_, '_, '_, '_> {
    type Error = String;

    fn enter(&mut self, key: &Key) {
        if let Some(eng) = self.run.eng.as_deref_mut() {
            eng.push_key(key);
        }
    }

    fn leave(&mut self) {
        if let Some(eng) = self.run.eng.as_deref_mut() {
            eng.pop();
        }
    }

    fn absent(&mut self, _key: &Key, sv: Node) -> Result<Option<Node>, String> {
        // A value new at a key is merged with its own shallow copy.
        let copy = sv.clone();
        self.run.record(Outcome::Added, &sv, &[]);
        self.run.merge(sv, copy, Alias::Dup).map(Some)
    }

    fn both(&mut self, slot: &mut Node, sv: Node) -> Result<Fate, String> {
        let dv = slot.take();
        *slot = if truthy(&dv) {
            self.run.merge(sv, dv, self.alias.child())?
        } else {
            // dest has a falsy value: replaced by source merged with its own copy.
            let copy = sv.clone();
            if self.alias == Alias::Distinct && !sv.is_null() {
                self.run.record(Outcome::Replaced, &sv, &[&dv]);
            }
            self.run.merge(sv, copy, Alias::Dup)?
        };
        Ok(Fate::Stays)
    }
}

#[cfg(test)]
mod tests {
    use crate::merge::Engine;
    use crate::strategy::{GemOpts, Knockout, Merger, MergerSpec, Origin, RuleSet};
    use crate::value::{Key, Kind, Map, Node, Span};

    fn s(text: &str) -> Node {
        Node::str(text, Span::NONE)
    }

    fn list(items: Vec<Node>) -> Node {
        Node::list(items, Span::NONE)
    }

    fn map(entries: Vec<(&str, Node)>) -> Node {
        let mut m = Map::new();
        for (k, v) in entries {
            m.insert(Key::str(k), v);
        }
        Node::new(Kind::Map(Box::new(m)), Span::NONE)
    }

    fn rules(opts: GemOpts) -> RuleSet {
        RuleSet::one(Merger {
            spec: MergerSpec::Gem(opts),
            text: "deep".into(),
            origin: Origin::Default("test".into()),
        })
    }

    #[test]
    fn gem_merge_keeps_ruby_truthiness_unions_arrays_and_knocks_out() {
        let opts = GemOpts {
            knockout: Some(Knockout {
                prefix: "--".into(),
                re: regex::Regex::new("(?m)^(?:--)").expect("a regex"),
            }),
            ..GemOpts::default()
        };
        let old = map(vec![
            ("a", list(vec![s("p"), s("q")])),
            ("b", Node::new(Kind::Bool(false), Span::NONE)),
            ("c", s("x")),
            ("e", s("old")),
        ]);
        let new = map(vec![
            ("a", list(vec![s("--p"), s("r"), s("q")])),
            ("b", map(vec![("k", s("v"))])),
            ("c", Node::null(Span::NONE)),
            ("e", s("--gone")),
        ]);
        let merged = Engine::new(&rules(opts), None)
            .merge_layer(old, new)
            .unwrap_or_else(|(e, _)| panic!("merges: {}", e.message));
        let want = map(vec![
            ("a", list(vec![s("q"), s("r")])),
            ("b", map(vec![("k", s("v"))])),
            ("c", s("x")),
            ("e", s("")),
        ]);
        assert_eq!(merged, want);
    }

    #[test]
    fn a_sort_ruby_cannot_do_fails_before_anything_changes() {
        let opts = GemOpts {
            sort_merged_arrays: true,
            ..GemOpts::default()
        };
        let old = map(vec![("a", list(vec![s("b")]))]);
        let new = map(vec![("a", list(vec![Node::new(Kind::Int(1), Span::NONE)]))]);
        let (err, kept) = Engine::new(&rules(opts), None)
            .merge_layer(old.clone(), new)
            .expect_err("String and Integer do not compare");
        assert!(
            err.message.starts_with("comparison of ") && err.message.ends_with(" failed"),
            "{}",
            err.message
        );
        assert_eq!(kept, old);
    }
}
