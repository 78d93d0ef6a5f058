//! What people wrote besides the values: the spelling of scalars and flow collections, their
//! comments and blank lines, and how they indent a sequence under a key. The YAML loader
//! records it per source (only when asked: [`StyleSink`]), the YAML writer reads it back by
//! span ([`StyleBook`]) so a value that reaches the output unchanged is written as it was
//! written, with its comments (issue 17, docs/comments.md).
//!
//! Everything is kept as owned text, keyed by offsets in the run's shared offset space, so a
//! source's text can still be released once its values are built (docs/PERF.md, "Memory").

use super::{Node, SourceId, Str, Thin};
use std::sync::{Arc, Mutex};
use thin_vec::ThinVec;

/// How a recorded spelling is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One line, written as it is: plain, quoted, or a flow collection.
    Inline,
    /// A quoted string whose text is its value between two quotes (no escape, no doubled
    /// quote: most quoted strings): only the quote is kept, the value is written between two.
    Quoted,
    /// A literal or folded block scalar: header, then lines to indent afresh.
    Block,
    /// A literal block scalar (`|`, `|-`, `|+`) whose lines are its value's own
    /// ([`literal_lines`]): header, then those lines, not kept twice.
    Literal,
    /// A plain or quoted scalar over several lines: the first line after the key, then the
    /// others (without their indentation: it means nothing inside such a scalar).
    Lines,
}

/// The lines a literal block scalar with this value shows after its header: the value without
/// its final line break, split at line breaks.
pub fn literal_lines(value: &str) -> std::str::Split<'_, char> {
    value.strip_suffix('\n').unwrap_or(value).split('\n')
}

/// A scalar or flow collection whose source text is not what the writer would write.
#[derive(Clone, Debug)]
pub struct Spelling {
    /// Offset of the node's span start.
    pub at: u32,
    /// The value as it was loaded: the spelling is used only while the node still equals it.
    pub value: Node,
    /// How it was written (plain, quoted, block).
    pub form: Form,
    /// `Inline`: the text. `Block`, `Literal`: the header (`|`, `>-`, ...) without its
    /// comment. `Lines`: the first line.
    pub text: Str,
    /// `Block`, `Lines`: the other lines without their indentation (blank lines empty).
    pub lines: ThinVec<Str>,
    /// `Block`, `Literal`: the header line's comment with the spaces before it.
    pub comment: Option<Thin>,
}

// W1 records ~130 000 spellings: short texts inline, no vector for a one-line spelling.
const _: () = assert!(std::mem::size_of::<Spelling>() == 64);

impl Spelling {
    /// Writes a one-line spelling (`Inline` or `Quoted`) of `node`, which equals its value.
    pub fn write_inline(&self, node: &Node, out: &mut String) {
        out.push_str(&self.text);
        if let (Form::Quoted, Some(value)) = (self.form, node.as_str()) {
            out.push_str(value);
            out.push_str(&self.text);
        }
    }
}

/// Comments and blank lines between two tokens.
#[derive(Clone, Debug, Default)]
pub struct Trivia {
    /// Offset just after the token before (where the run starts).
    pub from: u32,
    /// Offset of the start of the line `from` is on.
    pub from_line: u32,
    /// A comment on the rest of that line, with the spaces before it (`  # note`).
    pub trailing: Option<Box<str>>,
    /// Offset of the next token, and of the end of its line.
    pub to: u32,
    /// Offset of the end of the next token's line.
    pub to_line_end: u32,
    /// Column of the next token.
    pub to_col: u32,
    /// Whole lines between: `None` for a blank line, else a comment's column and text.
    pub lines: Vec<Option<(u32, Box<str>)>>,
    /// The run reaches the end of the text (comments after the last value).
    pub at_end: bool,
}

/// One source's styles (or one piece of a long stream's).
#[derive(Clone, Debug, Default)]
pub struct Styles {
    /// The source they were recorded from.
    pub source: SourceId,
    /// Bytes of the text (or piece) loaded.
    pub len: u32,
    /// Scalars' spellings, in text order.
    pub spellings: Vec<Spelling>,
    /// Comments and blank lines, in text order.
    pub trivia: Vec<Trivia>,
    /// Whether the first block sequence under a key is indented past the key.
    pub seq_indent: Option<bool>,
}

/// Where loaders put the styles they record; shared by the threads of one run.
#[derive(Clone, Default)]
pub struct StyleSink(Arc<Mutex<Vec<Styles>>>);

impl std::fmt::Debug for StyleSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StyleSink")
    }
}

impl StyleSink {
    /// Hands one source's styles to the writer.
    pub fn put(&self, styles: Styles) {
        if let Ok(mut all) = self.0.lock() {
            all.push(styles);
        }
    }

    /// Everything recorded so far, taken out as it was recorded.
    pub fn take(&self) -> Vec<Styles> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// Everything recorded so far, ready for lookups.
    pub fn book(&self) -> StyleBook {
        let all = self.0.lock().map(|mut v| std::mem::take(&mut *v));
        StyleBook::new(all.unwrap_or_default())
    }

    /// The book for an output that starts with `header` (such as `#cloud-config`): the same
    /// line where an input had it is not repeated.
    pub fn book_under(&self, header: Option<&str>) -> StyleBook {
        let mut book = self.book();
        if let Some(h) = header {
            book.forget(h);
        }
        book
    }
}

/// Puts `items` in the order of `key`, equal keys in their order, in place: a stable sort
/// that moves each item once and needs no second buffer of items (a spelling is 64 bytes, and
/// a run records hundreds of thousands).
fn sort_by_offset<T>(items: &mut [T], key: impl Fn(&T) -> u32) {
    if items.is_sorted_by_key(&key) {
        return;
    }
    // `(key, position)` pairs are distinct, so an unstable sort of them is stable for items.
    let mut order: Vec<(u32, usize)> = items.iter().map(&key).zip(0..).collect();
    order.sort_unstable();
    // Position `i` takes the item now at `order[i].1`: follow each cycle of that permutation,
    // marking each position done by pointing it at itself.
    for start in 0..order.len() {
        let mut at = start;
        while order[at].1 != start {
            let from = order[at].1;
            items.swap(at, from);
            order[at].1 = at;
            at = from;
        }
        order[at].1 = at;
    }
}

/// Bytes of input per bit of `StyleBook::starts`.
const GRAIN: usize = 16;

/// Every source's styles, looked up by offset.
#[derive(Debug, Default)]
pub struct StyleBook {
    spellings: Vec<Spelling>,
    /// One bit per `GRAIN` bytes from `base` on: set where a spelling starts in them (most
    /// scalars have none, and the writer asks about every one; a bit per byte was 5 MiB on W1,
    /// held while the output is written).
    base: u32,
    starts: Vec<u64>,
    trivia: Vec<Trivia>,
    seq_indent: Option<bool>,
    /// Each source's offsets, sorted.
    bounds: Vec<(u32, u32)>,
}

impl StyleBook {
    /// The book of every source's styles.
    pub fn new(mut all: Vec<Styles>) -> StyleBook {
        all.sort_by_key(|s| s.source);
        let seq_indent = all.iter().find_map(|s| s.seq_indent);
        let mut spellings: Vec<Spelling> =
            Vec::with_capacity(all.iter().map(|s| s.spellings.len()).sum());
        let mut trivia: Vec<Trivia> = Vec::with_capacity(all.iter().map(|s| s.trivia.len()).sum());
        let bounds = all
            .iter()
            .map(|s| (s.source, s.source.saturating_add(s.len)))
            .collect();
        for s in all {
            spellings.extend(s.spellings);
            trivia.extend(s.trivia);
        }
        // A stream loaded in pieces and then again in one pass records some things twice.
        sort_by_offset(&mut spellings, |s| s.at);
        spellings.dedup_by_key(|s| s.at);
        sort_by_offset(&mut trivia, |t| t.to);
        trivia.dedup_by_key(|t| t.to);
        let base = spellings.first().map_or(0, |s| s.at);
        let last = spellings.last().map_or(0, |s| s.at);
        let mut starts = vec![0u64; (last - base) as usize / GRAIN / 64 + 1];
        for s in &spellings {
            let i = (s.at - base) as usize / GRAIN;
            starts[i / 64] |= 1 << (i % 64);
        }
        StyleBook {
            base,
            starts,
            spellings,
            trivia,
            seq_indent,
            bounds,
        }
    }

    /// Nothing to look up: the writer takes its plain path.
    pub fn is_empty(&self) -> bool {
        self.spellings.is_empty() && self.trivia.is_empty()
    }

    /// Whether block sequences under a key are indented (the first source that has one).
    pub fn seq_indent(&self) -> Option<bool> {
        self.seq_indent
    }

    /// The spelling of the node whose span starts at `at`, while it still holds `node`'s value.
    pub fn spelling(&self, at: u32, node: &Node) -> Option<&Spelling> {
        let bit = at.checked_sub(self.base)? as usize / GRAIN;
        if self.starts.get(bit / 64)? & (1 << (bit % 64)) == 0 {
            return None;
        }
        let i = self.spellings.binary_search_by_key(&at, |s| s.at).ok()?;
        let s = &self.spellings[i];
        (s.value == *node).then_some(s)
    }

    /// The comments and blank lines before the line of offset `at` (a run whose next token
    /// is on that line, before `at`). Returns its index, for [`StyleBook::trivia_at`].
    pub fn leading(&self, at: u32) -> Option<usize> {
        let i = self.trivia.partition_point(|t| t.to <= at).checked_sub(1)?;
        let t = &self.trivia[i];
        (at < t.to_line_end || at == t.to).then_some(i)
    }

    /// The comment at the end of the line that offset `at` is on: right after `at` (the end
    /// of a value's token), or with `later`, after further tokens on the line (a key's `:`).
    pub fn trailing(&self, at: u32, later: bool) -> Option<usize> {
        let i = self.trivia.partition_point(|t| t.from < at);
        let t = self.trivia.get(i)?;
        let here = if later {
            t.from_line <= at
        } else {
            t.from == at
        };
        (here && t.trailing.is_some()).then_some(i)
    }

    /// The comments after the last value of the text that offset `at` is in (when `at` is
    /// in that text's last document).
    pub fn closing(&self, at: u32) -> Option<usize> {
        let b = self.bounds.partition_point(|b| b.0 <= at).checked_sub(1)?;
        let end = self.bounds[b].1;
        let i = self.trivia.partition_point(|t| t.from < at);
        let k = self.trivia[i..].iter().position(|t| t.at_end)? + i;
        (self.trivia[k].to <= end).then_some(k)
    }

    /// Drops every comment line that reads `line` (the header the output starts with, such
    /// as `#cloud-config`, is not repeated where an input had it).
    fn forget(&mut self, line: &str) {
        for t in &mut self.trivia {
            t.lines
                .retain(|l| !matches!(l, Some((_, text)) if &**text == line));
        }
    }

    /// Trivia run `i`.
    pub fn trivia_at(&self, i: usize) -> &Trivia {
        &self.trivia[i]
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by_offset;

    #[test]
    fn sort_by_offset_is_stable_and_keeps_sorted_input() {
        let mut items = vec![(3u32, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_offset(&mut items, |t| t.0);
        assert_eq!(
            items,
            vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]
        );
        let already = vec![(1u32, 'x'), (1, 'y'), (5, 'z')];
        let mut same = already.clone();
        sort_by_offset(&mut same, |t| t.0);
        assert_eq!(same, already);
    }

    #[test]
    fn sort_by_offset_agrees_with_the_standard_stable_sort() {
        let mut x = 12345u64;
        for len in [2usize, 3, 17, 100, 1000] {
            let mut items: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) as u32 % (len as u32 / 2 + 1), i)
                })
                .collect();
            let mut want = items.clone();
            want.sort_by_key(|t| t.0);
            sort_by_offset(&mut items, |t| t.0);
            assert_eq!(items, want, "{len} items");
        }
    }
}
