//! The current document path of the Heat merge and, under `--explain` only, the trace of merge
//! decisions. The path is tracked always: errors and warnings name it.

use crate::merge::{key_text, Outcome, Prior, RuleRef, Step, Trace};
use crate::value::{Key, Kind, Node, Path, Span};

/// Where the merge is in the output document, and the steps recorded so far.
#[derive(Debug, Default)]
pub struct Tracer {
    pub trace: Option<Trace>,
    pub path: Path,
}

impl Tracer {
    pub fn new(explain: bool) -> Tracer {
        Tracer {
            trace: explain.then(Trace::default),
            path: Path::root(),
        }
    }

    /// Sets the layer (environment file index) of the steps that follow.
    pub fn set_layer(&mut self, layer: usize) {
        if let Some(t) = self.trace.as_mut() {
            t.layer = u32::try_from(layer).unwrap_or(u32::MAX);
        }
    }

    pub fn push(&mut self, key: &Key) {
        self.path.push_key(&key_text(&key.0));
    }

    pub fn push_str(&mut self, key: &str) {
        self.path.push_key(key);
    }

    pub fn pop(&mut self) {
        self.path.pop();
    }

    /// The current path, for messages (`/` at the root).
    pub fn here(&self) -> String {
        if self.path.0.is_empty() {
            "/".into()
        } else {
            self.path.to_string()
        }
    }

    /// Records one decision at the current path (nothing without `--explain`).
    pub fn record(
        &mut self,
        outcome: Outcome,
        rule: Option<&RuleRef>,
        value: Span,
        overrode: &[&Node],
        others: &[&Node],
    ) {
        if let Some(trace) = self.trace.as_mut() {
            let step = Step {
                layer: trace.layer,
                path: self.path.clone(),
                outcome,
                rule: rule.cloned(),
                value,
                overrode: overrode.iter().map(|n| Prior::of(n)).collect(),
                others: others.iter().map(|n| Prior::of(n)).collect(),
            };
            trace.push(step);
        }
    }

    /// Records `Added` when there was no old value, else `Replaced` overriding it.
    pub fn replaced(&mut self, rule: Option<&RuleRef>, new: &Node, old: Option<&Node>) {
        match old {
            Some(o) => self.record(Outcome::Replaced, rule, new.span, &[o], &[]),
            None => self.record(Outcome::Added, rule, new.span, &[], &[]),
        }
    }

    /// Before a container is merged into, gives each direct child without a step of its own a
    /// copy of the step that put the container there, so the child keeps its provenance.
    pub fn settle(&mut self, container: &Node) {
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let Some(base) = trace.last_for(container.span).cloned() else {
            return;
        };
        let children: Vec<(Path, Span)> = match &container.kind {
            Kind::Map(m) => m
                .iter()
                .map(|(k, v)| {
                    let mut p = self.path.clone();
                    p.push_key(&key_text(&k.0));
                    (p, v.span)
                })
                .collect(),
            Kind::List(l) => l
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let mut p = self.path.clone();
                    p.push_index(i);
                    (p, v.span)
                })
                .collect(),
            _ => Vec::new(),
        };
        for (path, span) in children {
            if span.is_none() || trace.last_for(span).is_some() {
                continue;
            }
            let mut step = base.clone();
            step.path = path;
            step.value = span;
            step.overrode.clear();
            step.others.clear();
            trace.push(step);
        }
    }

    /// Records `Appended` for items added at the end of a list of `start` items.
    pub fn appended(&mut self, rule: Option<&RuleRef>, start: usize, items: &[Node]) {
        if self.trace.is_none() {
            return;
        }
        for (i, item) in items.iter().enumerate() {
            self.path.push_index(start + i);
            self.record(Outcome::Appended, rule, item.span, &[], &[]);
            self.path.pop();
        }
    }

    /// Records `Added` for every entry of a mapping taken whole (one level), under `key`.
    pub fn added_entries(&mut self, node: &Node, rule_of: &mut dyn FnMut(&Key) -> Option<RuleRef>) {
        if self.trace.is_none() {
            return;
        }
        match node.as_map() {
            Some(map) => {
                for (k, v) in map.iter() {
                    let rule = rule_of(k);
                    self.push(k);
                    self.record(Outcome::Added, rule.as_ref(), v.span, &[], &[]);
                    self.pop();
                }
            }
            None => self.record(
                Outcome::Added,
                rule_of(&Key::str("")).as_ref(),
                node.span,
                &[],
                &[],
            ),
        }
    }
}
