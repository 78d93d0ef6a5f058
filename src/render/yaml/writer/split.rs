//! Writing a big document's top-level entries, a long stream's documents or a long block
//! list's items on several threads (issue 19): each entry or group of documents or items (an
//! item here) is written by a writer of its own into its own text, a window of items at a
//! time, and the texts are handed to the sink in order. An item's text depends on
//! nothing before it but the comment runs already written (a run is written once) and a key
//! whose comment is still pending; where either could matter, that item is written again in
//! order. So the output is byte for byte the one-thread writer's, and only a window's texts
//! are held at once. With an annotator (`--explain`), each item gets a copy of it standing
//! where the writer stands, in the collection whose items these are (`fork`), in both passes:
//! the widest commented line is the widest of the items'.

use super::super::Annotator;
use super::Writer;
use crate::par::Threads;
use crate::value::{Kind, Node};
use std::collections::HashSet;

/// Items written side by side per thread before their texts are handed on (a window costs a
/// thread start, ~0.1 ms, and holds its texts).
const WINDOW_PER_JOB: usize = 4;

/// Windows a document must fill at least, to be written on threads: with fewer items, one
/// item can be most of the document and its text would be held whole (W3's root has two
/// keys: the second held 38 MB of output).
const MIN_WINDOWS: usize = 4;

/// One item written apart: its text and the writer's state after it.
struct Part {
    out: String,
    /// The writer's scratch buffer, to be used again.
    scratch: String,
    used: HashSet<(usize, bool)>,
    key_end: Option<u32>,
    last_at: Option<u32>,
    /// While measuring: the widest commented line, and whether no line can be wider.
    widest: Option<usize>,
    full: bool,
    /// The item's text starts with comment lines (which depend on a block scalar before
    /// them), and ends with a block scalar's lines.
    began_with_comments: bool,
    after_block: Option<super::BlockEnd>,
}

impl Writer<'_> {
    /// Whether `items` are written on several threads: enough of them (`MIN_WINDOWS`), and
    /// enough nodes in all. A node is written at ~2 bytes per node of input: below half the
    /// loader's threshold for threads (`Threads::min_bytes`, in bytes), a thread costs
    /// more than it saves.
    pub(super) fn splits<'n>(&self, items: impl Iterator<Item = &'n Node> + Clone) -> bool {
        let Threads {
            jobs,
            min_bytes: min,
        } = self.threads;
        // No threshold at all (`Threads::min_bytes` 0, as the tests set it): two items are enough.
        let fewest = match min {
            0 => 2,
            _ => jobs * WINDOW_PER_JOB * MIN_WINDOWS,
        };
        jobs > 1
            && self.sink.is_some()
            && self.annotator.as_ref().is_none_or(|a| a.fork().is_some())
            && items.clone().nth(fewest - 1).is_some()
            && holds(items, min / 2)
    }

    /// Writes `items` as `one(writer, item)` writes each, on `self.threads.jobs` threads (each item
    /// by its own writer, with its own copy of the annotator), handing the texts on in order.
    pub(super) fn write_split<I: Copy + Send + Sync>(
        &mut self,
        items: &[I],
        one: impl Fn(&mut Writer<'_>, I) + Sync,
    ) {
        let (styles, flush_seqs) = (self.styles, self.flush_seqs);
        let (column, limit, may_stop) = (self.column, self.limit, self.may_stop);
        let psych = self.psych;
        // While measuring, only the widths count: the texts are not handed on.
        let measuring = self.annotator.is_some() && column.is_none();
        let jobs = self.threads.jobs;
        // The texts' buffers are used again by the next window: a buffer grown and freed per
        // item made the threads wait on the allocator's locks.
        let mut pool: Vec<(String, String)> = Vec::new();
        for window in items.chunks(jobs * WINDOW_PER_JOB) {
            if self.full {
                return;
            }
            let work: Vec<_> = window
                .iter()
                .map(|&item| {
                    let fork = self.annotator.as_ref().and_then(|a| a.fork());
                    (item, fork, pool.pop().unwrap_or_default())
                })
                .collect();
            let parts = crate::par::map_ordered(
                work,
                Threads::for_pieces(jobs),
                |_| 1,
                |(item, mut fork, (out, scratch))| {
                    let annotator = fork.as_mut().map(|f| &mut **f as &mut dyn Annotator);
                    let mut w = Writer::new(annotator, None);
                    w.out = out;
                    w.scratch = scratch;
                    w.styles = styles;
                    w.flush_seqs = flush_seqs;
                    w.column = column;
                    w.limit = limit;
                    w.may_stop = may_stop;
                    w.psych = psych;
                    one(&mut w, item);
                    Part {
                        scratch: w.scratch,
                        out: w.out,
                        used: w.used,
                        key_end: w.key_end,
                        last_at: w.last_at,
                        widest: w.widest,
                        full: w.full,
                        began_with_comments: w.began_with_comments,
                        after_block: w.after_block,
                    }
                },
            );
            for (&item, mut part) in window.iter().zip(parts) {
                if self.full {
                    return;
                }
                let alone = self.key_end.is_none()
                    && part.used.is_disjoint(&self.used)
                    && !(part.began_with_comments && self.after_block.is_some());
                if alone {
                    if !measuring {
                        self.write_through(&part.out);
                    }
                    self.used.extend(part.used);
                    self.key_end = part.key_end;
                    self.last_at = part.last_at.or(self.last_at);
                    self.after_block = part.after_block;
                    self.fresh = false;
                    self.widest = self.widest.max(part.widest);
                    self.full |= part.full;
                } else {
                    one(self, item);
                }
                if self.out.len() >= super::FLUSH_AT {
                    self.flush();
                }
                part.out.clear();
                pool.push((part.out, part.scratch));
            }
        }
    }

    /// The documents of a stream, each after `---` (and its heading, when annotated), written
    /// in groups of documents on threads: a group per item of `write_split`, enough of them
    /// to fill `MIN_WINDOWS` windows twice over.
    pub(super) fn stream_split(&mut self, docs: &[Node]) {
        let groups = self.groups(docs);
        self.write_split(&groups, |w, (first, group)| {
            for (i, doc) in group.iter().enumerate() {
                if w.full {
                    return;
                }
                w.stream_doc(first + i, doc);
            }
        });
    }

    /// A block list's items after the first (`rest`, items 1.. of the list), in groups of
    /// consecutive items on threads, as `stream_split` groups documents.
    pub(super) fn list_split(&mut self, rest: &[Node], indent: usize, pairs: bool) {
        let groups = self.groups(rest);
        self.write_split(&groups, |w, (first, items)| {
            for (i, item) in items.iter().enumerate() {
                if w.full {
                    return;
                }
                w.list_item(1 + first + i, item, indent, pairs);
            }
        });
    }

    /// `nodes` in runs of consecutive nodes, each with the index of its first: enough runs to
    /// fill `MIN_WINDOWS` windows twice over (one small node per item cost more to hand over
    /// than to write: a thread start per window).
    fn groups<'n>(&self, nodes: &'n [Node]) -> Vec<(usize, &'n [Node])> {
        let per = (nodes.len() / (self.threads.jobs * WINDOW_PER_JOB * MIN_WINDOWS * 2)).max(1);
        nodes
            .chunks(per)
            .enumerate()
            .map(|(g, run)| (g * per, run))
            .collect()
    }

    /// One entry of the root mapping, as `map_body` writes it.
    pub(super) fn root_entry(&mut self, (k, v): (&Node, &Node)) {
        if self.styles.is_some() {
            self.leading_comments(self.entry_line(k, v));
        }
        self.entry(k, v, 0, true);
    }
}

/// The nodes of `node`, counted up to `cap`.
fn count(node: &Node, cap: usize) -> usize {
    let mut stack = vec![node];
    let mut seen = 0usize;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen >= cap {
            break;
        }
        match &x.kind {
            Kind::Map(m) => stack.extend(m.values()),
            Kind::List(l) | Kind::Tuple(l) => stack.extend(l.iter()),
            _ => {}
        }
    }
    seen
}

/// Whether `items` hold at least `n` nodes in all (counting stops there).
fn holds<'n>(items: impl Iterator<Item = &'n Node>, n: usize) -> bool {
    let mut left = n;
    for item in items {
        let c = count(item, left);
        if c >= left {
            return true;
        }
        left -= c;
    }
    left == 0
}
