//! The writer proper: walks a tree in document order and writes block YAML a line at a time
//! into a buffer handed to the sink in blocks (never the whole document), asking the
//! annotator for a comment at each line's end. What people wrote is in `keep.rs`.

mod keep;
mod split;

use super::block::{block_tag, pairs_tag, Block};
use super::{Annotator, Place};
use crate::load::canon::{literal_header, Slot};
use crate::par::Threads;
use crate::render::yaml_scalar::float_text;
use crate::render::yaml_scalar::{
    binary_block, push_comment_text, push_literal_body, push_scalar_string, push_spaces,
    push_string, push_timestamp, write_key,
};
use crate::value::style::StyleBook;
use crate::value::{base64, push_int, Kind, Node};
use std::collections::HashSet;

/// Lines gathered before the writer hands them to its sink.
const FLUSH_AT: usize = 1 << 16;

struct Sink<'s> {
    to: &'s mut dyn std::io::Write,
    error: Option<std::io::Error>,
}

pub(super) struct Writer<'a> {
    pub(super) out: String,
    annotator: Option<&'a mut dyn Annotator>,
    /// The comment column; `None` while measuring (or without an annotator).
    pub(super) column: Option<usize>,
    /// While measuring: the longest commented line that fits `limit`.
    pub(super) widest: Option<usize>,
    /// While measuring on a copy of the annotator (`may_stop`): the widest line that fits was
    /// found (`limit - 2`, no line can widen the column), so the walk stops where it is.
    pub(super) may_stop: bool,
    pub(super) full: bool,
    pub(super) limit: usize,
    /// The comment being written.
    pub(super) scratch: String,
    /// Where full blocks of lines go (`None`: everything stays in `out`).
    sink: Option<Sink<'a>>,
    /// What people wrote (`None`, or nothing recorded: the canonical forms only).
    styles: Option<&'a StyleBook>,
    /// Comment runs already written (index, leading?): a run is written once.
    used: HashSet<(usize, bool)>,
    /// The end of the key whose value is a block below it (its line's comment).
    key_end: Option<u32>,
    /// Block sequences under a key start at the key's column.
    flush_seqs: bool,
    /// Where the value written last starts in its source (its comments after the last value
    /// close the document).
    last_at: Option<u32>,
    /// Threads a big document's top-level entries may be written on, and the size below
    /// which it is written on one (`Threads`; `split.rs`).
    pub(super) threads: Threads,
    /// Whether Ruby's Psych reads the output (Hiera): strings Psych alone types are quoted.
    pub(super) psych: bool,
    /// The last lines written are a block scalar's: comment and blank lines written next must
    /// not read as its text (`keep.rs`, `comment_lines`).
    after_block: Option<BlockEnd>,
    /// Nothing has been written yet (a writer of one item of `split.rs` starts so).
    fresh: bool,
    /// The first lines this writer wrote were comment lines.
    began_with_comments: bool,
}

/// Where the block scalar written last leaves the lines after it.
#[derive(Clone, Copy)]
pub(super) struct BlockEnd {
    /// The rightmost column a comment line may start at (the block's key or `-`).
    max_col: usize,
    /// A `+` block: a blank line after it is part of its text.
    keep: bool,
}

impl Sink<'_> {
    /// Writes `bytes` (after the first error, drops them).
    fn send(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            if let Err(e) = self.to.write_all(bytes) {
                self.error = Some(e);
            }
        }
    }
}

impl<'a> Writer<'a> {
    pub(super) fn new(
        annotator: Option<&'a mut dyn Annotator>,
        sink: Option<&'a mut dyn std::io::Write>,
    ) -> Writer<'a> {
        let streaming = sink.is_some();
        Writer {
            out: if streaming {
                String::with_capacity(FLUSH_AT + 4096)
            } else {
                String::new()
            },
            annotator,
            column: None,
            widest: None,
            may_stop: false,
            full: false,
            limit: 0,
            scratch: String::new(),
            sink: sink.map(|to| Sink { to, error: None }),
            styles: None,
            used: HashSet::new(),
            key_end: None,
            flush_seqs: false,
            last_at: None,
            threads: Threads::for_pieces(1),
            psych: false,
            after_block: None,
            fresh: true,
            began_with_comments: false,
        }
    }

    /// A block scalar's lines, indented `block_indent`, were just written (`keep`: with the
    /// `+` chomping indicator).
    fn block_ended(&mut self, block_indent: usize, keep: bool) {
        self.after_block = Some(BlockEnd {
            max_col: block_indent.saturating_sub(2),
            keep,
        });
    }

    pub(super) fn set_styles(&mut self, styles: Option<&'a StyleBook>) {
        self.styles = styles.filter(|b| !b.is_empty() || b.seq_indent().is_some());
        self.flush_seqs = self.styles.and_then(|b| b.seq_indent()) == Some(false);
    }

    /// Hands the lines gathered so far to the sink (after the first error, drops them).
    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            sink.send(self.out.as_bytes());
            self.out.clear();
        }
    }

    /// Appends finished lines: straight to the sink after what is gathered (no copy), or to
    /// the buffer when there is no sink.
    fn write_through(&mut self, text: &str) {
        if self.sink.is_none() {
            self.out.push_str(text);
            return;
        }
        self.flush();
        if let Some(sink) = self.sink.as_mut() {
            sink.send(text.as_bytes());
        }
    }

    pub(super) fn finish(mut self) -> std::io::Result<()> {
        self.flush();
        match self.sink.and_then(|s| s.error) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn enter(&mut self, node: &Node, at: Place<'_>) {
        if let Some(a) = self.annotator.as_mut() {
            a.enter(node, at);
        }
    }

    fn leave(&mut self) {
        if let Some(a) = self.annotator.as_mut() {
            a.leave();
        }
    }

    /// The current line's length in characters.
    fn line_len(&self) -> usize {
        let start = memchr::memrchr(b'\n', self.out.as_bytes()).map_or(0, |i| i + 1);
        let line = &self.out[start..];
        if line.is_ascii() {
            line.len()
        } else {
            line.chars().count()
        }
    }

    /// Ends the current line, with the node's comment if it has one.
    fn newline(&mut self, node: &Node) {
        let trail = self.key_end.take();
        if self.styles.is_some() {
            match block_tag(node) {
                Some(_) => self.trailing_comment(trail, true),
                None => {
                    self.trailing_comment((!node.span.is_none()).then_some(node.span.end), false)
                }
            }
        }
        self.end_line(node);
    }

    /// Ends the current line after a value written as it was spelled (its own line comment).
    fn newline_spelled(&mut self, node: &Node, comment: Option<&str>) {
        self.key_end = None;
        match comment {
            Some(c) => self.out.push_str(c),
            None => self.trailing_comment(Some(node.span.end), false),
        }
        self.end_line(node);
    }

    fn end_line(&mut self, node: &Node) {
        self.after_block = None;
        self.fresh = false;
        if !node.span.is_none() {
            self.last_at = Some(node.span.start);
        }
        if let Some(a) = self.annotator.as_mut() {
            match self.column {
                None => {
                    if a.comment(node, None) {
                        let len = self.line_len();
                        if len + 2 <= self.limit {
                            self.widest = self.widest.max(Some(len));
                            self.full |= self.may_stop && len + 2 == self.limit;
                        }
                    }
                }
                Some(column) => {
                    self.scratch.clear();
                    if a.comment(node, Some(&mut self.scratch)) {
                        let len = self.line_len();
                        let pad = if len + 2 <= column { column - len } else { 2 };
                        push_spaces(&mut self.out, pad);
                        self.out.push_str("# ");
                        push_comment_text(&mut self.out, &self.scratch);
                    }
                }
            }
        }
        self.out.push('\n');
        if self.out.len() >= FLUSH_AT && self.sink.is_some() {
            self.flush();
        }
    }

    pub(super) fn document(&mut self, doc: &Node, header: Option<&str>) {
        if let Some(h) = header {
            self.out.push_str(h);
            self.out.push('\n');
        }
        self.enter(doc, Place::Root);
        self.body(doc);
        self.leave();
        self.closing_comments();
    }

    fn body(&mut self, doc: &Node) {
        if let Some(s) = self.spelled_collection(doc) {
            self.out.push_str(&s.text);
            self.newline_spelled(doc, None);
            return;
        }
        match block_tag(doc) {
            Some(Block::Map) => match doc.as_map() {
                Some(m) if self.splits(m.iter().map(|(_, v)| v)) => {
                    let entries: Vec<(&Node, &Node)> = m.iter().map(|(k, v)| (&k.0, v)).collect();
                    self.write_split(&entries, |w, e| w.root_entry(e));
                }
                _ => self.map_body(doc, 0),
            },
            Some(Block::List) => self.list_body(doc, 0),
            Some(tagged) => {
                self.out.push_str(tagged.tag());
                self.newline(doc);
                self.collection(doc, tagged, 0);
            }
            None => self.scalar_after(doc, 0, ""),
        }
    }

    /// Documents of a stream, each after `---` (and its heading, when annotated); the
    /// annotator sees the stream as a list (root, then item `i` for document `i`).
    pub(super) fn stream(&mut self, docs: &[Node]) {
        let root = Node::list(Vec::new(), crate::value::Span::NONE);
        self.enter(&root, Place::Root);
        // Many documents are written in groups on threads (`split.rs`; one small document
        // costs more to hand over than to write); a big document's entries may go on threads.
        if self.splits(docs.iter()) {
            self.stream_split(docs);
            self.leave();
            return;
        }
        for (i, doc) in docs.iter().enumerate() {
            if self.full {
                break;
            }
            self.stream_doc(i, doc);
            if self.out.len() >= FLUSH_AT && self.sink.is_some() {
                self.flush();
            }
        }
        self.leave();
    }

    /// Document `i` of a stream: `---`, its heading when annotated, its body.
    fn stream_doc(&mut self, i: usize, doc: &Node) {
        self.out.push_str("---\n");
        if let Some(a) = self.annotator.as_mut() {
            let mut heading = String::new();
            a.heading(i, &mut heading);
            self.out.push_str(&heading);
        }
        self.enter(doc, Place::Index(i));
        self.body(doc);
        self.leave();
    }

    fn indent(&mut self, n: usize) {
        push_spaces(&mut self.out, n);
    }

    /// A block collection's entries, the first one on the current line.
    fn collection(&mut self, node: &Node, block: Block, indent: usize) {
        match block {
            Block::Map => self.map_body(node, indent),
            Block::Set => self.set_body(node, indent),
            Block::List | Block::Pairs(_) | Block::Tuple => self.list_body(node, indent),
        }
    }

    fn map_body(&mut self, node: &Node, indent: usize) {
        let Some(m) = node.as_map() else { return };
        let mut first = true;
        for (k, v) in m.iter() {
            if self.full {
                return;
            }
            if !first {
                self.indent(indent);
            }
            first = false;
            if self.styles.is_some() {
                self.leading_comments(self.entry_line(&k.0, v));
            }
            self.entry(&k.0, v, indent, true);
        }
    }

    /// `key: value`, the value on this line or as a block below.
    fn entry(&mut self, k: &Node, v: &Node, indent: usize, enter: bool) {
        let at = self.out.len();
        // An empty spelling (a null key written as nothing) is no key: written afresh.
        match self.spelled_inline(k, Slot::Key) {
            // Psych merges at a `<<` key however it is quoted, unless it is tagged `!!str`.
            _ if self.psych && matches!(&k.kind, Kind::Str(s) if &**s == "<<") => {
                self.out.push_str("!!str <<")
            }
            Some(s) => s.write_inline(k, &mut self.out),
            None => write_key(&mut self.out, k, self.psych),
        }
        if self.styles.is_some() && !k.span.is_none() {
            self.key_end = Some(k.span.end);
        }
        if self.out.len() - at > 1000 {
            self.out.insert_str(at, "? ");
            self.out.push('\n');
            self.indent(indent);
        }
        self.out.push(':');
        if enter {
            self.enter(v, Place::Key(k));
        }
        self.value_after_indicator(v, indent);
        if enter {
            self.leave();
        }
    }

    /// `? key` / `: value` for a key that is a collection (only an `!!omap` pair has one).
    fn complex_entry(&mut self, k: &Node, v: &Node, indent: usize) {
        self.out.push('?');
        match block_tag(k) {
            Some(b @ (Block::Map | Block::List | Block::Tuple)) => {
                self.out.push(' ');
                self.collection(k, b, indent + 2);
            }
            Some(tagged) => {
                self.out.push(' ');
                self.out.push_str(tagged.tag());
                self.out.push('\n');
                self.indent(indent + 2);
                self.collection(k, tagged, indent + 2);
            }
            None => {
                self.out.push(' ');
                self.inline(k);
                self.out.push('\n');
            }
        }
        self.indent(indent);
        self.out.push(':');
        self.value_after_indicator(v, indent);
    }

    /// A set's members as `member: null` lines (PyYAML's form of `!!set`).
    fn set_body(&mut self, node: &Node, indent: usize) {
        let Kind::Set(m) = &node.kind else { return };
        for (i, k) in m.keys().enumerate() {
            if i > 0 {
                self.indent(indent);
            }
            write_key(&mut self.out, &k.0, self.psych);
            self.out.push_str(": null");
            self.out.push('\n');
        }
    }

    fn list_body(&mut self, node: &Node, indent: usize) {
        let items: &[Node] = match &node.kind {
            Kind::List(l) | Kind::Tuple(l) => l,
            _ => return,
        };
        let pairs = matches!(node.kind, Kind::List(_)) && pairs_tag(items).is_some();
        // A long list's items after the first (each starts a line of its own) may go on
        // threads (`split.rs`): W2's `write_files` is most of its output under a root of
        // eight keys.
        if let [first, rest @ ..] = items {
            if self.splits(rest.iter()) {
                self.list_item(0, first, indent, pairs);
                self.list_split(rest, indent, pairs);
                return;
            }
        }
        for (i, item) in items.iter().enumerate() {
            if self.full {
                return;
            }
            self.list_item(i, item, indent, pairs);
        }
    }

    /// Item `i` of a block list (after the first, on a line of its own).
    fn list_item(&mut self, i: usize, item: &Node, indent: usize, pairs: bool) {
        if i > 0 {
            self.indent(indent);
        }
        if self.styles.is_some() && !item.span.is_none() {
            self.leading_comments(Some(item.span.start));
        }
        self.out.push('-');
        self.enter(item, Place::Index(i));
        if let Some(s) = self.spelled_collection(item) {
            self.out.push(' ');
            self.out.push_str(&s.text);
            self.newline_spelled(item, None);
            self.leave();
            return;
        }
        match (&item.kind, pairs) {
            (Kind::Tuple(kv), true) => {
                self.out.push(' ');
                if let [k, v] = &kv[..] {
                    if k.is_scalar() {
                        self.entry(k, v, indent + 2, false);
                    } else {
                        self.complex_entry(k, v, indent + 2);
                    }
                }
            }
            _ => match block_tag(item) {
                Some(b @ (Block::Map | Block::List | Block::Tuple)) => {
                    self.out.push(' ');
                    self.collection(item, b, indent + 2);
                }
                Some(tagged) => {
                    self.out.push(' ');
                    self.out.push_str(tagged.tag());
                    self.newline(item);
                    self.indent(indent + 2);
                    self.collection(item, tagged, indent + 2);
                }
                None => self.scalar_after(item, indent + 2, " "),
            },
        }
        self.leave();
    }

    /// After `key:`: a nested block on the next lines, or ` scalar`.
    fn value_after_indicator(&mut self, v: &Node, indent: usize) {
        if let Some(s) = self.spelled_collection(v) {
            self.out.push(' ');
            self.out.push_str(&s.text);
            self.newline_spelled(v, None);
            return;
        }
        match block_tag(v) {
            Some(Block::List) if self.flush_seqs => {
                self.newline(v);
                self.indent(indent);
                self.list_body(v, indent);
            }
            Some(b) => {
                self.out.push_str(b.tag_after_space());
                self.newline(v);
                self.indent(indent + 2);
                self.collection(v, b, indent + 2);
            }
            None => self.scalar_after(v, indent + 2, " "),
        }
    }

    /// A scalar (or an empty or lone collection) after `sep`: on this line, or as a
    /// literal block whose lines are indented to `block_indent`.
    fn scalar_after(&mut self, v: &Node, block_indent: usize, sep: &str) {
        if self.styles.is_some() && self.spelled_scalar(v, block_indent, sep) {
            return;
        }
        if let Kind::Str(s) = &v.kind {
            if let Some(header) = literal_header(s) {
                self.out.push_str(sep);
                self.out.push_str(header);
                self.newline(v);
                push_literal_body(&mut self.out, s, block_indent);
                self.block_ended(block_indent, header.contains('+'));
                return;
            }
        }
        self.out.push_str(sep);
        if let Kind::Bytes(b) = &v.kind {
            if !b.is_empty() {
                let block = binary_block(b, block_indent);
                self.out.push_str("!!binary ");
                self.out.push_str(block.header);
                self.newline(v);
                self.out.push_str(&block.body);
                self.block_ended(block_indent, false);
                return;
            }
        }
        self.inline(v);
        self.newline(v);
    }

    fn inline(&mut self, v: &Node) {
        match &v.kind {
            Kind::Null => self.out.push_str("null"),
            Kind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Kind::Int(i) => push_int(&mut self.out, *i),
            Kind::BigInt(s) => self.out.push_str(s),
            Kind::Timestamp(s) => push_timestamp(&mut self.out, s),
            Kind::Float(f) => self.out.push_str(&float_text(*f)),
            Kind::Str(s) => push_string(&mut self.out, s, self.psych),
            Kind::Bytes(b) => {
                self.out.push_str("!!binary ");
                push_scalar_string(&mut self.out, &base64(b));
            }
            Kind::Set(_) => self.out.push_str("!!set {}"),
            Kind::List(_) | Kind::Tuple(_) => self.out.push_str("[]"),
            Kind::Map(_) => self.out.push_str("{}"),
        }
    }
}
