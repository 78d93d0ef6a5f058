//! Our YAML writer: block style, input key order, and every string quoted that a YAML 1.1 (or
//! 1.2) reader would take for another type, so the file means the same to PyYAML, Psych and
//! friends. Multi-line strings become literal blocks. An optional annotator puts a trailing
//! comment on chosen lines (used by `--explain`).

use super::yaml_scalar::{
    binary_block, literal_block, push_int, push_scalar_string, push_spaces, push_timestamp,
    write_key,
};
pub use super::yaml_scalar::{float_text, scalar_string};
use crate::value::style::{Form, Spelling, StyleBook};
use crate::value::{base64, Key, Kind, Node};
use std::collections::HashSet;

/// Comments for [`write_annotated`]. The writer says where it is in the tree (`enter` /
/// `leave` around every node, in document order) and, at the end of each line, asks about the
/// node that ends it.
pub trait Annotator {
    /// The writer starts on `node`: the document root, the value of a key, or a list item.
    fn enter(&mut self, node: &Node, at: Place<'_>);
    /// The writer is done with the node entered last.
    fn leave(&mut self);
    /// Whether the line `node` ends gets a comment; when `text` is given, appends the comment
    /// (without `#`) to it.
    fn comment(&mut self, node: &Node, text: Option<&mut String>) -> bool;
    /// In a stream, after document `index`'s `---`: comment lines about the whole document
    /// (each starting with `#` and ending with a line break) appended to `out`.
    fn heading(&mut self, _index: usize, _out: &mut String) {}
}

/// Where a node sits under its parent.
#[derive(Clone, Copy)]
pub enum Place<'n> {
    Root,
    Key(&'n Node),
    Index(usize),
}

/// Renders a document. `header` (e.g. `#cloud-config`) goes on the first line.
pub fn to_string(doc: &Node, header: Option<&str>) -> String {
    to_string_styled(doc, header, None)
}

/// `to_string`, writing what people wrote (`styles`) where the values are theirs.
pub fn to_string_styled(doc: &Node, header: Option<&str>, styles: Option<&StyleBook>) -> String {
    let mut w = Writer::new(None, None);
    w.set_styles(styles);
    w.document(doc, header);
    w.out
}

/// Renders a stream of documents into `sink` as it goes: `---` before each document. With
/// `styles`, scalars keep their spelling and values their comments (docs/comments.md).
pub fn write_stream(
    docs: &[Node],
    styles: Option<&StyleBook>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut w = Writer::new(None, Some(sink));
    w.set_styles(styles);
    w.stream(docs);
    w.finish()
}

/// Renders a stream of documents into a string (`---` before each).
pub fn stream_to_string(docs: &[Node]) -> String {
    let mut w = Writer::new(None, None);
    w.stream(docs);
    w.out
}

/// Renders a document into `sink` as it goes, a block of lines at a time, so the output is
/// never held whole in memory. Stops writing at the first error and returns it. With
/// `styles`, scalars keep their spelling and values their comments (docs/comments.md).
pub fn write(
    doc: &Node,
    header: Option<&str>,
    styles: Option<&StyleBook>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut w = Writer::new(None, Some(sink));
    w.set_styles(styles);
    w.document(doc, header);
    w.finish()
}

/// Renders a document with `# comments` at the ends of the lines the annotator chooses, all
/// in one column: the one after the longest commented line that leaves the comment room to
/// start within `limit` characters (longer lines get theirs two spaces after them). Two passes:
/// the first only measures the commented lines, the second writes into `sink` as it goes.
/// With `stream`, `doc` is a list whose items are written as the documents of a stream.
#[allow(clippy::too_many_arguments)]
pub fn write_annotated(
    doc: &Node,
    header: Option<&str>,
    stream: bool,
    styles: Option<&StyleBook>,
    annotator: &mut dyn Annotator,
    limit: usize,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let docs = doc.as_list().filter(|_| stream);
    // The measuring pass only needs each line's length: its text goes to a sink that drops it.
    let mut discard = std::io::sink();
    let mut measure = Writer::new(Some(&mut *annotator), Some(&mut discard));
    measure.set_styles(styles);
    measure.limit = limit;
    match docs {
        Some(d) => measure.stream(d),
        None => measure.document(doc, header),
    }
    let column = measure.widest.map_or(0, |w| w) + 2;
    drop(measure);
    let mut w = Writer::new(Some(annotator), Some(sink));
    w.set_styles(styles);
    w.column = Some(column);
    match docs {
        Some(d) => w.stream(d),
        None => w.document(doc, header),
    }
    w.finish()
}

/// Lines gathered before the writer hands them to its sink.
const FLUSH_AT: usize = 1 << 16;

struct Sink<'s> {
    to: &'s mut dyn std::io::Write,
    error: Option<std::io::Error>,
}

struct Writer<'a> {
    out: String,
    annotator: Option<&'a mut dyn Annotator>,
    /// The comment column; `None` while measuring (or without an annotator).
    column: Option<usize>,
    /// While measuring: the longest commented line that fits `limit`.
    widest: Option<usize>,
    limit: usize,
    /// The comment being written.
    scratch: String,
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
}

impl<'a> Writer<'a> {
    fn new(
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
            limit: 0,
            scratch: String::new(),
            sink: sink.map(|to| Sink { to, error: None }),
            styles: None,
            used: HashSet::new(),
            key_end: None,
            flush_seqs: false,
            last_at: None,
        }
    }

    fn set_styles(&mut self, styles: Option<&'a StyleBook>) {
        self.styles = styles.filter(|b| !b.is_empty() || b.seq_indent().is_some());
        self.flush_seqs = self.styles.and_then(|b| b.seq_indent()) == Some(false);
    }

    /// Hands the lines gathered so far to the sink (after the first error, drops them).
    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if sink.error.is_none() {
                if let Err(e) = sink.to.write_all(self.out.as_bytes()) {
                    sink.error = Some(e);
                }
            }
            self.out.clear();
        }
    }

    fn finish(mut self) -> std::io::Result<()> {
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
        let start = self.out.rfind('\n').map_or(0, |i| i + 1);
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
                        self.out.push_str(&self.scratch);
                    }
                }
            }
        }
        self.out.push('\n');
        if self.out.len() >= FLUSH_AT && self.sink.is_some() {
            self.flush();
        }
    }

    fn document(&mut self, doc: &Node, header: Option<&str>) {
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
            Some(Block::Map) => self.map_body(doc, 0),
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
    fn stream(&mut self, docs: &[Node]) {
        let root = Node::list(Vec::new(), crate::value::Span::NONE);
        self.enter(&root, Place::Root);
        for (i, doc) in docs.iter().enumerate() {
            self.out.push_str("---\n");
            if let Some(a) = self.annotator.as_mut() {
                let mut heading = String::new();
                a.heading(i, &mut heading);
                self.out.push_str(&heading);
            }
            self.enter(doc, Place::Index(i));
            self.body(doc);
            self.leave();
            if self.out.len() >= FLUSH_AT && self.sink.is_some() {
                self.flush();
            }
        }
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
        match self.spelled(k, Form::Inline) {
            Some(s) => self.out.push_str(&s.text),
            None => write_key(&mut self.out, k),
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
            write_key(&mut self.out, &k.0);
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
        for (i, item) in items.iter().enumerate() {
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
                continue;
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
        if let Some(s) = self.spelled(v, Form::Block).filter(|_| block_indent > 0) {
            self.out.push_str(sep);
            self.out.push_str(&s.text);
            self.newline_spelled(v, s.comment.as_deref());
            for line in &s.lines {
                if !line.is_empty() {
                    self.indent(block_indent);
                    self.out.push_str(line);
                }
                self.out.push('\n');
            }
            return;
        }
        if let Some(s) = self.spelled(v, Form::Lines).filter(|_| block_indent > 0) {
            self.out.push_str(sep);
            self.out.push_str(&s.text);
            for line in &s.lines {
                self.out.push('\n');
                if !line.is_empty() {
                    self.indent(block_indent);
                    self.out.push_str(line);
                }
            }
            self.newline_spelled(v, None);
            return;
        }
        // An empty value stays empty after `key:` or `-`; a whole document says `null`.
        let spelled = self.spelled(v, Form::Inline);
        if let Some(s) = spelled.filter(|s| !s.text.is_empty() || !sep.is_empty()) {
            if !s.text.is_empty() {
                self.out.push_str(sep);
                self.out.push_str(&s.text);
            }
            self.newline_spelled(v, None);
            return;
        }
        let block = match &v.kind {
            Kind::Str(s) => literal_block(s, block_indent).map(|b| (b, "")),
            Kind::Bytes(b) if !b.is_empty() => Some((binary_block(b, block_indent), "!!binary ")),
            _ => None,
        };
        self.out.push_str(sep);
        if let Some((block, tag)) = block {
            self.out.push_str(tag);
            self.out.push_str(&block.header);
            self.newline(v);
            self.out.push_str(&block.body);
            return;
        }
        self.inline(v);
        self.newline(v);
    }

    /// How `v` was spelled in its source, if that is to be written (`form`) and it still
    /// holds the value it was spelled for.
    fn spelled(&self, v: &Node, form: Form) -> Option<&'a Spelling> {
        let book = self.styles?;
        if v.span.is_none() {
            return None;
        }
        book.spelling(v.span.start, v).filter(|s| s.form == form)
    }

    /// A flow collection written unchanged (`[a, b]`, `{x: 1}`).
    /// Not with `--explain`: each item's line says where it came from.
    fn spelled_collection(&self, v: &Node) -> Option<&'a Spelling> {
        if self.annotator.is_some() {
            return None;
        }
        block_tag(v)?;
        self.spelled(v, Form::Inline)
    }

    /// Where an entry's line is in its source: the value's own line when the value is a
    /// scalar from another source than the key (the entry the value came from), else the key's.
    fn entry_line(&self, k: &Node, v: &Node) -> Option<u32> {
        let book = self.styles?;
        let scalar = block_tag(v).is_none() || self.spelled_collection(v).is_some();
        let own_value = scalar && !v.span.is_none() && v.span.end > v.span.start;
        if own_value && (k.span.is_none() || !book.same_source(k.span.start, v.span.start)) {
            return Some(v.span.start);
        }
        (!k.span.is_none()).then_some(k.span.start)
    }

    /// The comment lines and blank lines written above the line of `at` in its source, put
    /// above the entry about to be written (only at the start of an output line; a run once).
    fn leading_comments(&mut self, at: Option<u32>) {
        let (Some(book), Some(at)) = (self.styles, at) else {
            return;
        };
        let Some(i) = book.leading(at) else { return };
        let t = book.trivia_at(i);
        if t.lines.is_empty() {
            return;
        }
        let line_start = self.out.rfind('\n').map_or(0, |p| p + 1);
        if !self.out[line_start..].bytes().all(|b| b == b' ') || !self.used.insert((i, true)) {
            return;
        }
        let indent = self.out.len() - line_start;
        self.out.truncate(line_start);
        self.comment_lines(&t.lines, indent as i64 - i64::from(t.to_col));
        self.indent(indent);
    }

    /// Whole comment lines (and blank ones), shifted by `shift` columns.
    fn comment_lines(&mut self, lines: &[Option<(u32, Box<str>)>], shift: i64) {
        for line in lines {
            if let Some((col, text)) = line {
                let col = (i64::from(*col) + shift).max(0);
                self.indent(col as usize);
                self.out.push_str(text);
            }
            self.out.push('\n');
        }
    }

    /// The comment on the source line that ends at `at` (`later`: after more tokens), on this
    /// line.
    fn trailing_comment(&mut self, at: Option<u32>, later: bool) {
        let (Some(book), Some(at)) = (self.styles, at) else {
            return;
        };
        if let Some(i) = book.trailing(at, later) {
            if self.used.insert((i, false)) {
                if let Some(c) = &book.trivia_at(i).trailing {
                    self.out.push_str(c);
                }
            }
        }
    }

    /// Comments after the last value of the source the document's last line came from.
    fn closing_comments(&mut self) {
        let (Some(book), Some(at)) = (self.styles, self.last_at) else {
            return;
        };
        if let Some(i) = book.closing(at) {
            if self.used.insert((i, true)) {
                self.comment_lines(&book.trivia_at(i).lines, 0);
            }
        }
    }

    fn inline(&mut self, v: &Node) {
        match &v.kind {
            Kind::Null => self.out.push_str("null"),
            Kind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Kind::Int(i) => push_int(&mut self.out, *i),
            Kind::BigInt(s) => self.out.push_str(s),
            Kind::Timestamp(s) => push_timestamp(&mut self.out, s),
            Kind::Float(f) => self.out.push_str(&float_text(*f)),
            Kind::Str(s) => push_scalar_string(&mut self.out, s),
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

/// How a non-empty collection is written as a block.
#[derive(Clone, Copy)]
enum Block {
    Map,
    List,
    Set,
    /// A list of `(key, value)` tuples: `!!omap`, or `!!pairs` when a key repeats.
    Pairs(&'static str),
    /// A tuple outside such a list: no tag a safe loader reads makes one, so it is written
    /// as the list of its items.
    Tuple,
}

impl Block {
    fn tag(self) -> &'static str {
        match self {
            Block::Set => "!!set",
            Block::Pairs(t) => t,
            Block::Map | Block::List | Block::Tuple => "",
        }
    }

    fn tag_after_space(self) -> &'static str {
        match self {
            Block::Set => " !!set",
            Block::Pairs("!!pairs") => " !!pairs",
            Block::Pairs(_) => " !!omap",
            Block::Map | Block::List | Block::Tuple => "",
        }
    }
}

fn block_tag(n: &Node) -> Option<Block> {
    match &n.kind {
        Kind::Map(m) if !m.is_empty() => Some(Block::Map),
        Kind::Set(m) if !m.is_empty() => Some(Block::Set),
        Kind::List(l) if !l.is_empty() => Some(pairs_tag(l).map_or(Block::List, Block::Pairs)),
        Kind::Tuple(l) if !l.is_empty() => Some(Block::Tuple),
        _ => None,
    }
}

/// `!!omap` / `!!pairs` when every item is a two-item tuple.
fn pairs_tag(items: &[Node]) -> Option<&'static str> {
    let mut keys = std::collections::HashSet::with_capacity(items.len());
    let mut repeats = false;
    for item in items {
        match &item.kind {
            Kind::Tuple(kv) if kv.len() == 2 => {
                repeats |= !keys.insert(Key(kv[0].clone()));
            }
            _ => return None,
        }
    }
    Some(if repeats { "!!pairs" } else { "!!omap" })
}
