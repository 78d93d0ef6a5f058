//! Writing what people wrote (issue 17, docs/comments.md): a node's spelling while it still
//! holds the value it was spelled for, the comments and blank lines above an entry, the
//! comment on a value's line, and the comments closing the input the last line came from.
//! All looked up by span in the run's `StyleBook`.
//!
//! What is copied is proven where it lands (issue 35), by one rule each: a one-line spelling by
//! [`fits`] (a plain text must read as the same scalar in the block slot it is written to:
//! `load::canon::plain_fits`), and a comment or blank line by `comment_lines` (after a block
//! scalar, a comment line stands left of the block's text and a blank line does not follow a
//! `+` block: either would be read as part of the block).

use super::super::block::block_tag;
use super::Writer;
use crate::load::canon::{plain_fits, Slot};
use crate::render::yaml_scalar::push_literal_body;
use crate::value::style::{Form, Spelling};
use crate::value::Node;

impl<'a> Writer<'a> {
    /// How `v` was spelled in its source, if that is to be written (`form`) and it still
    /// holds the value it was spelled for.
    pub(super) fn spelled(&self, v: &Node, form: Form) -> Option<&'a Spelling> {
        let book = self.styles?;
        if v.span.is_none() {
            return None;
        }
        book.spelling(v.span.start, v).filter(|s| s.form == form)
    }

    /// A scalar's one-line spelling (`Inline`, or `Quoted`: see `Spelling::write_inline`), when
    /// it reads back as the same scalar at `slot`.
    pub(super) fn spelled_inline(&self, v: &Node, slot: Slot) -> Option<&'a Spelling> {
        let book = self.styles?;
        if v.span.is_none() {
            return None;
        }
        // One search and one comparison of the value, whichever of the two forms it has.
        book.spelling(v.span.start, v)
            .filter(|s| matches!(s.form, Form::Inline | Form::Quoted) && fits(s, slot))
    }

    /// A flow collection written unchanged (`[a, b]`, `{x: 1}`).
    /// Not with `--explain`: each item's line says where it came from.
    pub(super) fn spelled_collection(&self, v: &Node) -> Option<&'a Spelling> {
        if self.styles.is_none() || self.annotator.is_some() {
            return None;
        }
        block_tag(v)?;
        self.spelled(v, Form::Inline)
    }

    /// Where an entry's line is in its source: a scalar value's own line (the entry of the
    /// input the value came from, also when another input gave the key), else the key's.
    pub(super) fn entry_line(&self, k: &Node, v: &Node) -> Option<u32> {
        let scalar = block_tag(v).is_none() || self.spelled_collection(v).is_some();
        // An empty value's place is after the `:`; its key's line says more.
        if scalar && !v.span.is_none() && v.span.end > v.span.start {
            return Some(v.span.start);
        }
        (!k.span.is_none()).then_some(k.span.start)
    }

    /// The comment lines and blank lines written above the line of `at` in its source, put
    /// above the entry about to be written (only at the start of an output line; a run once).
    pub(super) fn leading_comments(&mut self, at: Option<u32>) {
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

    /// Whole comment lines (and blank ones), shifted by `shift` columns. Right after a block
    /// scalar (`after_block`), a comment line is moved left of the block's text (to its key's
    /// or `-`'s column at most) and a blank line after a `+` block is dropped: either would be
    /// read as the block's text. The first comment line ends the block.
    pub(super) fn comment_lines(&mut self, lines: &[Option<(u32, Box<str>)>], shift: i64) {
        if self.fresh && !lines.is_empty() {
            self.began_with_comments = true;
        }
        for line in lines {
            match line {
                Some((col, text)) => {
                    let mut col = (i64::from(*col) + shift).max(0) as usize;
                    if let Some(end) = self.after_block.take() {
                        col = col.min(end.max_col);
                    }
                    self.indent(col);
                    self.out.push_str(text);
                }
                None if self.after_block.is_some_and(|end| end.keep) => continue,
                None => {}
            }
            self.out.push('\n');
        }
    }

    /// The comment on the source line that ends at `at` (`later`: after more tokens), on this
    /// line.
    pub(super) fn trailing_comment(&mut self, at: Option<u32>, later: bool) {
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
    pub(super) fn closing_comments(&mut self) {
        let (Some(book), Some(at)) = (self.styles, self.last_at) else {
            return;
        };
        if let Some(i) = book.closing(at) {
            if self.used.insert((i, true)) {
                self.comment_lines(&book.trivia_at(i).lines, 0);
            }
        }
    }

    /// One line of a block scalar kept as written: indented afresh, a blank line empty.
    fn block_line(&mut self, line: &str, indent: usize) {
        if !line.is_empty() {
            self.indent(indent);
            self.out.push_str(line);
        }
        self.out.push('\n');
    }

    /// `v` written as it was spelled (a block, several lines, one line) after `sep`, when it
    /// has a spelling to keep; `false` when the writer writes it afresh.
    pub(super) fn spelled_scalar(&mut self, v: &Node, block_indent: usize, sep: &str) -> bool {
        let block = self
            .spelled(v, Form::Block)
            .or_else(|| self.spelled(v, Form::Literal));
        if let Some(s) = block.filter(|_| block_indent > 0) {
            self.out.push_str(sep);
            self.out.push_str(&s.text);
            self.newline_spelled(v, s.comment.as_deref());
            match v.as_str().filter(|_| s.form == Form::Literal) {
                Some(text) => push_literal_body(&mut self.out, text, block_indent),
                None => s
                    .lines
                    .iter()
                    .for_each(|l| self.block_line(l, block_indent)),
            }
            self.block_ended(block_indent, s.text.contains('+'));
            return true;
        }
        let lines = self
            .spelled(v, Form::Lines)
            .filter(|s| block_indent > 0 && fits(s, Slot::Value));
        if let Some(s) = lines {
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
            return true;
        }
        // An empty value stays empty after `key:` or `-`; a whole document says `null`.
        let slot = if sep.is_empty() {
            Slot::Document
        } else {
            Slot::Value
        };
        if let Some(s) = self.spelled_inline(v, slot) {
            if !s.text.is_empty() {
                self.out.push_str(sep);
                s.write_inline(v, &mut self.out);
            }
            self.newline_spelled(v, None);
            return true;
        }
        false
    }
}

/// Whether a one-line spelling (or the first line of a `Lines` one) reads back as the same
/// scalar at `slot`: a quoted text anywhere, a plain one where `plain_fits` says so.
fn fits(s: &Spelling, slot: Slot) -> bool {
    s.form == Form::Quoted
        || matches!(s.text.as_bytes().first(), Some(b'\'' | b'"'))
        || plain_fits(&s.text, slot)
}
