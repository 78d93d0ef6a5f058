//! Positions: `SourceId`, `Span` and the `SourceMap` that owns every input text and turns
//! offsets into `file:line:col` only when something is printed.
//!
//! A text can be released once its values are built (W1's two 20 MB texts would otherwise stay
//! beside their trees for the whole run): a file's text is then read again, like Python's
//! `linecache`, only if a message needs a position in it, through the `Reload` its reader gave.
//!
//! All sources of a run share one 32-bit offset space: a source's id is the offset of its first
//! byte, and a span is two offsets in that space. A span is 8 bytes and a `Node` 24 (W1's two
//! trees hold 2.4 million nodes); which source a span is in is a binary search, done only when
//! a position is printed.

use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A source text (a file, stdin, a MIME part, an archive entry): the offset of its first byte
/// in the run's offset space, as given by [`SourceMap::add`].
pub type SourceId = u32;

/// Where a value was written: a byte range in one source. `Span::NONE` marks synthesized values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// Offset of the first byte in the run's offset space (a source's bytes follow its id).
    pub start: u32,
    /// Byte offset after the last byte.
    pub end: u32,
}

impl Span {
    /// A value that was not written anywhere (a default, a synthesized container).
    pub const NONE: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// The bytes `start..end` of `source` (offsets within that source's text).
    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        Span {
            start: offset(source, start),
            end: offset(source, end.max(start)),
        }
    }

    /// Whether it is `Span::NONE` (nowhere).
    pub fn is_none(&self) -> bool {
        self.start == u32::MAX
    }
}

/// An offset in the shared space; past its end (4 GiB of input in one run) positions saturate.
fn offset(source: SourceId, local: usize) -> u32 {
    u32::try_from(local).map_or(u32::MAX - 1, |l| source.saturating_add(l).min(u32::MAX - 1))
}

fn clamp(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Reads a released text again. Given by whoever read the text (the CLI, for files), so the
/// core never touches files; `None` when the text is no longer the one that was read.
#[derive(Clone)]
pub struct Reload(pub Arc<dyn Fn() -> Option<String> + Send + Sync>);

impl Reload {
    /// The text read again, if it still has the length it had (`len` bytes).
    pub fn read(&self, len: usize) -> Option<String> {
        (self.0)().filter(|t| t.len() == len)
    }
}

impl fmt::Debug for Reload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reload")
    }
}

/// One input text with its display name and, computed once on demand, its line starts.
#[derive(Debug)]
pub struct Source {
    /// The name messages print (a file name, `user-data.mime, part 2`).
    pub name: String,
    /// Empty after `SourceMap::release` until `text()` reads it again.
    text: OnceLock<String>,
    len: usize,
    reload: Option<Reload>,
    /// Its id: the offset of its first byte in the run's offset space.
    base: u32,
    line_starts: OnceLock<Vec<u32>>,
    /// (byte offset, characters before it) about every `CHAR_MARK` bytes, built on demand: a
    /// column far into a long line is found without counting from the line's start, so many
    /// warnings on one long line cost linear time, not quadratic.
    char_marks: OnceLock<Vec<(usize, usize)>>,
    /// Lines of the file before this text, when the text stands byte for byte in the file
    /// `name` from the start of a line (a MIME part's body): positions are shown as in the
    /// file, which is what an editor shows.
    lines_before: usize,
    /// Columns before every line of the text in that file (a literal block scalar's
    /// indentation: its lines stand in the file after that many spaces).
    cols_before: usize,
}

const CHAR_MARK: usize = 4096;

impl Source {
    /// The text. A released one is read again (once); it is empty if that is not possible.
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| {
            self.reload
                .as_ref()
                .and_then(|r| r.read(self.len))
                .unwrap_or_default()
        })
    }

    /// Columns of indentation before each of its lines in the file that holds it.
    pub fn indent(&self) -> usize {
        self.cols_before
    }

    /// Whether the text is there (or could be read again): positions in it can be shown.
    pub fn available(&self) -> bool {
        self.text().len() == self.len
    }

    /// Characters before byte `offset`, which must be a character boundary.
    fn chars_before(&self, offset: usize) -> usize {
        let text = self.text();
        let marks = self.char_marks.get_or_init(|| {
            let mut marks = Vec::new();
            let (mut at, mut chars) = (0, 0);
            while at < text.len() {
                let mut next = (at + CHAR_MARK).min(text.len());
                while !text.is_char_boundary(next) {
                    next += 1;
                }
                chars += text.get(at..next).map_or(0, |t| t.chars().count());
                marks.push((next, chars));
                at = next;
            }
            marks
        });
        let i = marks.partition_point(|&(b, _)| b <= offset);
        let (b, c) = i
            .checked_sub(1)
            .and_then(|i| marks.get(i))
            .copied()
            .unwrap_or((0, 0));
        c + text.get(b..offset).map_or(0, |t| t.chars().count())
    }

    fn line_starts(&self) -> &[u32] {
        let text = self.text();
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| clamp(i + 1)))
                .collect()
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let text = self.text();
        let starts = self.line_starts();
        let line = self.line_of(starts, offset);
        let start = starts.get(line).copied().unwrap_or(0) as usize;
        let end = (offset as usize).min(text.len());
        let col = match text.get(start..end) {
            Some(s) if s.len() > CHAR_MARK => self
                .chars_before(end)
                .saturating_sub(self.chars_before(start)),
            Some(s) => s.chars().count(),
            None => end.saturating_sub(start),
        };
        (line + 1, col + 1)
    }

    /// The 0-based line holding `offset`: the last line this thread asked for in this text or
    /// one of the few after it, else by binary search. Positions are mostly asked for in the
    /// order of the text (`--explain` writes one per value), so the next one is usually on
    /// that line or a few after it. The hints are the thread's own (threads that write parts
    /// of one document each go through their own part of the text), one for each of the last
    /// few texts asked about (a merged value's comment names its layers' files in turn).
    fn line_of(&self, starts: &[u32], offset: u32) -> usize {
        const TEXTS: usize = 4;
        thread_local! {
            /// (the line starts asked about, by address; the line found), latest first.
            static LAST: Cell<[(usize, usize); TEXTS]> = const { Cell::new([(0, 0); TEXTS]) };
        }
        let on = |l: usize| {
            starts.get(l).is_some_and(|&s| s <= offset)
                && starts.get(l + 1).is_none_or(|&next| offset < next)
        };
        let id = starts.as_ptr() as usize;
        let mut hints = LAST.with(Cell::get);
        let slot = hints.iter().position(|&(of, _)| of == id);
        let last = slot.map_or(0, |i| hints[i].1);
        let line = (last..last + 8).find(|&l| on(l)).unwrap_or_else(|| {
            match starts.binary_search(&offset) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            }
        });
        // This text's hint goes first; the others keep their order.
        let end = slot.unwrap_or(TEXTS - 1);
        hints.copy_within(0..end, 1);
        hints[0] = (id, line);
        LAST.with(|c| c.set(hints));
        line
    }

    /// The text of a 1-based line as positions show it (in the file that holds the text),
    /// without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let line = line.saturating_sub(self.lines_before);
        let text = self.text();
        let starts = self.line_starts();
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = starts.get(line).map(|&e| e as usize).unwrap_or(text.len());
        text.get(start as usize..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

/// Every source text of one run. The core only ever holds `SourceId`s and `Span`s.
#[derive(Debug, Default)]
pub struct SourceMap {
    sources: Vec<Source>,
}

/// A resolved position, ready to print as `file:line:col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location<'a> {
    /// The source's name.
    pub file: &'a str,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters as an editor counts them.
    pub column: usize,
}

impl Location<'_> {
    /// Appends `file:line:col` (what `Display` writes), without the formatting machinery
    /// (`--explain` writes one or more positions per value).
    pub fn push_to(&self, out: &mut String) {
        if self.line == 0 {
            out.push_str(self.file);
            out.push_str(" (changed since it was read)");
            return;
        }
        out.push_str(self.file);
        out.push(':');
        push_int(out, i64::try_from(self.line).unwrap_or(i64::MAX));
        out.push(':');
        push_int(out, i64::try_from(self.column).unwrap_or(i64::MAX));
    }
}

/// Appends an integer's decimal digits, without going through `fmt` (the writer writes every
/// integer with it, `--explain` every position).
pub fn push_int(out: &mut String, i: i64) {
    let mut buf = [0u8; 20];
    let mut n = i.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or("0"));
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

impl SourceMap {
    /// An empty map of sources.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a source and returns its id. Each source takes its length plus one offset (a span
    /// may end at, or point just past, the last byte).
    pub fn add(&mut self, name: impl Into<String>, text: String) -> SourceId {
        self.add_reloadable(name, text, None)
    }

    /// Adds a source that `release` may drop and `reload` read again.
    pub fn add_reloadable(
        &mut self,
        name: impl Into<String>,
        text: String,
        reload: Option<Reload>,
    ) -> SourceId {
        let base = self.add_released(name, text.len(), reload);
        let set = self.sources.last().map(|s| s.text.set(text));
        debug_assert!(matches!(set, Some(Ok(()))));
        base
    }

    /// Adds a source whose text is not read now (`len` bytes, read by `reload` when a
    /// position in it is shown).
    pub fn add_released(
        &mut self,
        name: impl Into<String>,
        len: usize,
        reload: Option<Reload>,
    ) -> SourceId {
        let base = self.used();
        self.sources.push(Source {
            name: name.into(),
            len,
            text: OnceLock::new(),
            reload,
            base,
            line_starts: OnceLock::new(),
            char_marks: OnceLock::new(),
            lines_before: 0,
            cols_before: 0,
        });
        base
    }

    /// Adds a text that stands in the file `name` after `lines_before` lines, each of its
    /// lines after `cols_before` columns of indentation (a MIME part's body: 0; a literal
    /// block scalar's content: its indentation): its positions are shown as the file's.
    pub fn add_within(
        &mut self,
        name: impl Into<String>,
        text: String,
        (lines_before, cols_before): (usize, usize),
    ) -> SourceId {
        let id = self.add(name, text);
        if let Some(src) = self.sources.last_mut() {
            src.lines_before = lines_before;
            src.cols_before = cols_before;
        }
        id
    }

    /// 1-based line and column of a byte offset of a source's text, as `locate` shows them.
    pub fn line_col_of(&self, id: SourceId, offset: usize) -> Option<(usize, usize)> {
        let src = self.get(id)?;
        let (line, col) = src.line_col(clamp(offset));
        Some((line + src.lines_before, col + src.cols_before))
    }

    /// Drops a source's text if it can be read again (its values are built; messages that
    /// need a position in it read it again). A source without a `Reload` keeps its text.
    pub fn release(&mut self, id: SourceId) {
        if let Some(src) = self.index(id).and_then(|i| self.sources.get_mut(i)) {
            if src.reload.is_some() {
                src.text = OnceLock::new();
            }
        }
    }

    /// Takes a source's text out of the map, to be parsed away from it (on another thread);
    /// `restore_text` puts it back. Until then the source reads as released.
    pub fn take_text(&mut self, id: SourceId) -> String {
        self.index(id)
            .and_then(|i| self.sources.get_mut(i))
            .and_then(|src| src.text.take())
            .unwrap_or_default()
    }

    /// Puts back a text taken by `take_text`.
    pub fn restore_text(&mut self, id: SourceId, text: String) {
        if let Some(src) = self.index(id).and_then(|i| self.sources.get_mut(i)) {
            src.text = OnceLock::from(text);
        }
    }

    /// How to read a source's text again, if it can be.
    pub fn reload_of(&self, id: SourceId) -> Option<Reload> {
        self.get(id)?.reload.clone()
    }

    /// Whether `release` would drop this source's text (it can be read again).
    pub fn releasable(&self, id: SourceId) -> bool {
        self.get(id).is_some_and(|s| s.reload.is_some())
    }

    /// Where the source with this id sits in `sources` (ids ascend with it).
    fn index(&self, id: SourceId) -> Option<usize> {
        let i = self.sources.partition_point(|s| s.base < id);
        (self.sources.get(i)?.base == id).then_some(i)
    }

    fn used(&self) -> u32 {
        self.sources.last().map_or(0, |s| offset(s.base, s.len + 1))
    }

    /// Source `id`.
    pub fn get(&self, id: SourceId) -> Option<&Source> {
        self.sources.get(self.index(id)?)
    }

    /// The source a span points into, with the span's offsets within its text.
    pub fn source_of(&self, span: Span) -> Option<(&Source, usize, usize)> {
        if span.is_none() {
            return None;
        }
        let i = self.sources.partition_point(|s| s.base <= span.start);
        let src = self.sources.get(i.checked_sub(1)?)?;
        let start = (span.start - src.base) as usize;
        let end = (span.end.saturating_sub(src.base) as usize).max(start);
        (start <= src.len).then_some((src, start, end))
    }

    /// The id of the source a span points into.
    pub fn id_of(&self, span: Span) -> Option<SourceId> {
        self.source_of(span).map(|(s, ..)| s.base)
    }

    /// The name of source `id`.
    pub fn name(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.name.as_str()).unwrap_or("<none>")
    }

    /// The text of source `id` (read again if it was released).
    pub fn text(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.text()).unwrap_or("")
    }

    /// `file:line:col` of a span's start, or `None` for synthesized values. Line and column
    /// are 0 if the text was released and has changed since (only the file is known).
    pub fn locate(&self, span: Span) -> Option<Location<'_>> {
        let (src, start, _) = self.source_of(span)?;
        if !src.available() {
            return Some(Location {
                file: &src.name,
                line: 0,
                column: 0,
            });
        }
        let (line, column) = src.line_col(clamp(start));
        Some(Location {
            file: &src.name,
            line: line + src.lines_before,
            column: column + src.cols_before,
        })
    }

    /// The source text a span covers.
    pub fn slice(&self, span: Span) -> Option<&str> {
        let (src, start, end) = self.source_of(span)?;
        src.text().get(start..end)
    }

    /// The text of a span's source before the span.
    pub fn before(&self, span: Span) -> Option<&str> {
        let (src, start, _) = self.source_of(span)?;
        src.text().get(..start)
    }

    /// The number of sources.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether there is no source.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Every source, in the order they were added.
    pub fn sources(&self) -> impl Iterator<Item = &Source> + '_ {
        self.sources.iter()
    }

    /// The name of every source, in the order they were added.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.sources.iter().map(|s| s.name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_find_their_source_in_the_shared_offset_space() {
        let mut map = SourceMap::new();
        let a = map.add("a.yaml", "k: v\n".into());
        let empty = map.add("empty.yaml", String::new());
        let b = map.add("b.yaml", "x:\n  é: 1\n".into());
        assert_ne!(a, empty);
        assert_ne!(empty, b);
        let span = Span::new(b, 5, 7);
        assert_eq!(map.id_of(span), Some(b));
        assert_eq!(map.slice(span), Some("é"));
        assert_eq!(
            map.locate(span).map(|l| l.to_string()).as_deref(),
            Some("b.yaml:2:3")
        );
        // A span just past a text's end still belongs to it; the empty source has one offset.
        assert_eq!(map.id_of(Span::new(a, 5, 5)), Some(a));
        assert_eq!(map.id_of(Span::new(empty, 0, 0)), Some(empty));
        assert_eq!(map.name(empty), "empty.yaml");
        assert_eq!(map.locate(Span::NONE), None);
        assert_eq!(map.before(Span::new(a, 3, 4)), Some("k: "));
    }

    #[test]
    fn a_released_text_is_read_again_only_if_unchanged() {
        let text = "a: 1\nb: [x, y]\n";
        let reads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = Arc::clone(&reads);
        let same = Reload(Arc::new(move || {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Some(text.to_string())
        }));
        let changed = Reload(Arc::new(|| Some("a: 2\nb: [x, y]\n".to_string())));
        let gone = Reload(Arc::new(|| None));
        let mut map = SourceMap::new();
        let kept = map.add("kept.yaml", text.into());
        let same = map.add_reloadable("same.yaml", text.into(), Some(same));
        let changed = map.add_reloadable("changed.yaml", text.into(), Some(changed));
        let longer = map.add_reloadable("gone.yaml", text.into(), Some(gone));
        for id in [kept, same, changed, longer] {
            map.release(id);
        }
        let at = |id| map.locate(Span::new(id, 9, 10)).map(|l| l.to_string());
        assert_eq!(at(kept).as_deref(), Some("kept.yaml:2:5"));
        assert_eq!(at(same).as_deref(), Some("same.yaml:2:5"));
        assert_eq!(map.slice(Span::new(same, 9, 10)), Some("x"));
        assert_eq!(
            reads.load(std::sync::atomic::Ordering::Relaxed),
            1,
            "read once, then kept"
        );
        // Same length, other bytes: the length check cannot see it, the reader's does (the
        // CLI compares size and modification time); a refused read leaves only the file.
        assert_eq!(at(changed).as_deref(), Some("changed.yaml:2:5"));
        assert_eq!(
            at(longer).as_deref(),
            Some("gone.yaml (changed since it was read)")
        );
        assert_eq!(map.slice(Span::new(longer, 9, 10)), None);
    }
}
