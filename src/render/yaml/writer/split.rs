//! Writing a big document's top-level entries on several threads (issue 19): each entry is
//! written by a writer of its own into its own text, a window of entries at a time, and the
//! texts are handed to the sink in order. An entry's text depends on nothing before it but
//! the comment runs already written (a run is written once) and a key whose comment is still
//! pending; where either could matter, that entry is written again in order. So the output is
//! byte for byte the one-thread writer's, and only a window's texts are held at once. With an
//! annotator (`--explain`), each entry gets a copy of it standing at the root (`fork`), in
//! both passes: the widest commented line is the widest of the entries'.

use super::super::Annotator;
use super::Writer;
use crate::value::{Key, Node};
use std::collections::HashSet;

/// Entries written side by side per thread before their texts are handed on.
const WINDOW_PER_JOB: usize = 8;

/// One entry written apart: its text and the writer's state after it.
struct Part {
    out: String,
    used: HashSet<(usize, bool)>,
    key_end: Option<u32>,
    last_at: Option<u32>,
    /// While measuring: the widest commented line.
    widest: Option<usize>,
}

impl Writer<'_> {
    /// Whether the root mapping `node` is written on several threads.
    pub(super) fn splits_root(&self, node: &Node) -> bool {
        // A node is written at ~2 bytes per node of input: below half the loader's threshold
        // for threads (`LoadOptions::parallel_min`, in bytes), a thread costs more than it saves.
        let (jobs, min) = self.par;
        jobs > 1
            && self.sink.is_some()
            && self.annotator.as_ref().is_none_or(|a| a.fork().is_some())
            && node.as_map().is_some_and(|m| m.len() > 1)
            && big(node, min / 2)
    }

    /// `map_body(node, 0)` for a root mapping, its entries written on `self.par.0` threads,
    /// each with its own copy of the annotator (`Annotator::fork`).
    pub(super) fn map_body_split(&mut self, node: &Node) {
        let Some(m) = node.as_map() else { return };
        let entries: Vec<(&Key, &Node)> = m.iter().collect();
        let (styles, flush_seqs) = (self.styles, self.flush_seqs);
        let (column, limit) = (self.column, self.limit);
        // While measuring, only the widths count: the texts are not handed on.
        let measuring = self.annotator.is_some() && column.is_none();
        let jobs = self.par.0;
        for window in entries.chunks(jobs * WINDOW_PER_JOB) {
            let items: Vec<_> = window
                .iter()
                .map(|&(k, v)| (k, v, self.annotator.as_ref().and_then(|a| a.fork())))
                .collect();
            let parts = crate::par::map_ordered(
                items,
                (jobs, 0),
                |_| 1,
                |(k, v, mut fork)| {
                    let annotator = fork.as_mut().map(|f| &mut **f as &mut dyn Annotator);
                    let mut w = Writer::new(annotator, None);
                    w.styles = styles;
                    w.flush_seqs = flush_seqs;
                    w.column = column;
                    w.limit = limit;
                    w.root_entry(&k.0, v);
                    Part {
                        out: w.out,
                        used: w.used,
                        key_end: w.key_end,
                        last_at: w.last_at,
                        widest: w.widest,
                    }
                },
            );
            for (&(k, v), part) in window.iter().zip(parts) {
                let alone = self.key_end.is_none() && part.used.is_disjoint(&self.used);
                if alone {
                    if !measuring {
                        self.write_through(&part.out);
                    }
                    self.used.extend(part.used);
                    self.key_end = part.key_end;
                    self.last_at = part.last_at.or(self.last_at);
                    self.widest = self.widest.max(part.widest);
                } else {
                    self.root_entry(&k.0, v);
                }
                if self.out.len() >= super::FLUSH_AT {
                    self.flush();
                }
            }
        }
    }

    /// One entry of the root mapping, as `map_body` writes it.
    fn root_entry(&mut self, k: &Node, v: &Node) {
        if self.styles.is_some() {
            self.leading_comments(self.entry_line(k, v));
        }
        self.entry(k, v, 0, true);
    }
}

/// Whether `node` holds at least `n` nodes (counting stops there).
fn big(node: &Node, n: usize) -> bool {
    let mut stack = vec![node];
    let mut seen = 0usize;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen >= n {
            return true;
        }
        match &x.kind {
            crate::value::Kind::Map(m) => stack.extend(m.values()),
            crate::value::Kind::List(l) | crate::value::Kind::Tuple(l) => stack.extend(l.iter()),
            _ => {}
        }
    }
    false
}
