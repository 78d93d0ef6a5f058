//! Our YAML writer: block style, input key order, and every string quoted that a YAML 1.1 (or
//! 1.2) reader would take for another type, so the file means the same to PyYAML, Psych and
//! friends. Multi-line strings become literal blocks. An optional annotator puts a trailing
//! comment on chosen lines (used by `--explain`). With a `StyleBook`, values keep the
//! spelling and comments people gave them (docs/comments.md).
//!
//! `writer.rs` walks the tree and writes lines; `writer/keep.rs` writes what people wrote
//! (spellings and comments from `value::style`, issue 17); `block.rs` says how a collection is
//! written as a block.

mod block;
mod writer;

pub use super::yaml_scalar::{float_text, scalar_string};
use crate::par::Threads;
use crate::value::style::StyleBook;
use crate::value::Node;
use writer::Writer;

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
    /// A copy standing where this one stands (the root, a stream, or a list being written),
    /// to annotate some of that collection's entries or items on another thread; `None` when
    /// it cannot be copied (then everything is written on one thread).
    fn fork(&self) -> Option<Box<dyn Annotator + Send + '_>> {
        None
    }
}

/// Where a node sits under its parent.
#[derive(Clone, Copy)]
pub enum Place<'n> {
    /// The document itself.
    Root,
    /// The value of this key of a mapping.
    Key(&'n Node),
    /// The item at this index of a list.
    Index(usize),
}

/// How a document is written besides its values.
#[derive(Clone, Copy)]
pub struct Options<'s> {
    /// What people wrote: scalars keep their spelling and values their comments
    /// (docs/comments.md).
    pub styles: Option<&'s StyleBook>,
    /// Threads a big document's top-level entries (or a long stream's documents) may be
    /// written on, and the size below which one is enough (`Threads`): same bytes.
    pub threads: Threads,
    /// Ruby's Psych reads the output (`Rendered::psych`): strings Psych alone types are quoted.
    pub psych: bool,
}

impl Default for Options<'_> {
    /// No styles, one thread, any YAML reader.
    fn default() -> Self {
        Options {
            styles: None,
            threads: Threads::for_pieces(1),
            psych: false,
        }
    }
}

impl<'s> Writer<'s> {
    fn set_options(&mut self, options: Options<'s>) {
        self.set_styles(options.styles);
        self.threads = options.threads;
        self.psych = options.psych;
    }
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

/// Renders a stream of documents into `sink` as it goes: `---` before each document. A long
/// stream's documents are written in groups on up to `options.threads.jobs` threads.
pub fn write_stream(
    docs: &[Node],
    options: Options<'_>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut w = Writer::new(None, Some(sink));
    w.set_options(options);
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
/// never held whole in memory. Stops writing at the first error and returns it. A big
/// document's top-level entries are written on up to `options.threads.jobs` threads.
pub fn write(
    doc: &Node,
    header: Option<&str>,
    options: Options<'_>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut w = Writer::new(None, Some(sink));
    w.set_options(options);
    w.document(doc, header);
    w.finish()
}

/// Renders a document with `# comments` at the ends of the lines the annotator chooses, all
/// in one column: the one after the longest commented line that leaves the comment room to
/// start within `limit` characters (longer lines get theirs two spaces after them). Two passes:
/// the first only measures the commented lines, the second writes into `sink` as it goes.
/// With `stream`, `doc` is a list whose items are written as the documents of a stream.
pub fn write_annotated(
    doc: &Node,
    header: Option<&str>,
    stream: bool,
    annotator: &mut dyn Annotator,
    limit: usize,
    options: Options<'_>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let docs = doc.as_list().filter(|_| stream);
    // The measuring pass only needs each line's length: its text goes to a sink that drops it.
    // On a copy of the annotator it may stop at the first line as wide as a line can be (then
    // the copy is left where it stopped); without a copy it walks to the end.
    let measure = |annotator: &mut dyn Annotator, may_stop: bool| {
        let mut discard = std::io::sink();
        let mut measure = Writer::new(Some(annotator), Some(&mut discard));
        measure.set_options(options);
        measure.limit = limit;
        measure.may_stop = may_stop;
        match docs {
            Some(d) => measure.stream(d),
            None => measure.document(doc, header),
        }
        measure.widest
    };
    let on_copy = annotator.fork().map(|mut copy| measure(&mut *copy, true));
    let widest = on_copy.unwrap_or_else(|| measure(&mut *annotator, false));
    let column = widest.map_or(0, |w| w) + 2;
    let mut w = Writer::new(Some(annotator), Some(sink));
    w.set_options(options);
    w.column = Some(column);
    w.limit = limit;
    match docs {
        Some(d) => w.stream(d),
        None => w.document(doc, header),
    }
    w.finish()
}
