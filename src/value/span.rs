//! Positions: `SourceId`, `Span` and the `SourceMap` that owns every input text and turns
//! offsets into `file:line:col` only when something is printed.
//!
//! All sources of a run share one 32-bit offset space: a source's id is the offset of its first
//! byte, and a span is two offsets in that space. A span is 8 bytes and a `Node` 24 (W1's two
//! trees hold 2.4 million nodes); which source a span is in is a binary search, done only when
//! a position is printed.

use std::fmt;

/// A source text (a file, stdin, a MIME part, an archive entry): the offset of its first byte
/// in the run's offset space, as given by [`SourceMap::add`].
pub type SourceId = u32;

/// Where a value was written: a byte range in one source. `Span::NONE` marks synthesized values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub start: u32,
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

/// One input text with its display name and, computed once on demand, its line starts.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Its id: the offset of its first byte in the run's offset space.
    base: u32,
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// (byte offset, characters before it) about every `CHAR_MARK` bytes, built on demand: a
    /// column far into a long line is found without counting from the line's start, so many
    /// warnings on one long line cost linear time, not quadratic.
    char_marks: std::sync::OnceLock<Vec<(usize, usize)>>,
}

const CHAR_MARK: usize = 4096;

impl Source {
    /// Characters before byte `offset`, which must be a character boundary.
    fn chars_before(&self, offset: usize) -> usize {
        let marks = self.char_marks.get_or_init(|| {
            let mut marks = Vec::new();
            let (mut at, mut chars) = (0, 0);
            while at < self.text.len() {
                let mut next = (at + CHAR_MARK).min(self.text.len());
                while !self.text.is_char_boundary(next) {
                    next += 1;
                }
                chars += self.text.get(at..next).map_or(0, |t| t.chars().count());
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
        c + self.text.get(b..offset).map_or(0, |t| t.chars().count())
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            for (i, b) in self.text.bytes().enumerate() {
                if b == b'\n' {
                    starts.push(clamp(i + 1));
                }
            }
            starts
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let starts = self.line_starts();
        let line = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = starts.get(line).copied().unwrap_or(0) as usize;
        let end = (offset as usize).min(self.text.len());
        let col = match self.text.get(start..end) {
            Some(s) if s.len() > CHAR_MARK => self
                .chars_before(end)
                .saturating_sub(self.chars_before(start)),
            Some(s) => s.chars().count(),
            None => end.saturating_sub(start),
        };
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let starts = self.line_starts();
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = starts
            .get(line)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text
            .get(start as usize..end)
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
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a source and returns its id. Each source takes its length plus one offset (a span
    /// may end at, or point just past, the last byte).
    pub fn add(&mut self, name: impl Into<String>, text: String) -> SourceId {
        let base = self
            .sources
            .last()
            .map_or(0, |s| offset(s.base, s.text.len() + 1));
        self.sources.push(Source {
            name: name.into(),
            text,
            base,
            line_starts: std::sync::OnceLock::new(),
            char_marks: std::sync::OnceLock::new(),
        });
        base
    }

    /// Offsets left in the run's space: a text longer than this gets saturated positions.
    pub fn room(&self) -> usize {
        let used = self
            .sources
            .last()
            .map_or(0, |s| offset(s.base, s.text.len() + 1));
        (u32::MAX - 1 - used) as usize
    }

    pub fn get(&self, id: SourceId) -> Option<&Source> {
        let i = self.sources.partition_point(|s| s.base < id);
        self.sources.get(i).filter(|s| s.base == id)
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
        (start <= src.text.len()).then_some((src, start, end))
    }

    /// The id of the source a span points into.
    pub fn id_of(&self, span: Span) -> Option<SourceId> {
        self.source_of(span).map(|(s, ..)| s.base)
    }

    pub fn name(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.name.as_str()).unwrap_or("<none>")
    }

    pub fn text(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.text.as_str()).unwrap_or("")
    }

    /// `file:line:col` of a span's start, or `None` for synthesized values.
    pub fn locate(&self, span: Span) -> Option<Location<'_>> {
        let (src, start, _) = self.source_of(span)?;
        let (line, column) = src.line_col(clamp(start));
        Some(Location {
            file: &src.name,
            line,
            column,
        })
    }

    /// The source text a span covers.
    pub fn slice(&self, span: Span) -> Option<&str> {
        let (src, start, end) = self.source_of(span)?;
        src.text.get(start..end)
    }

    /// The text of a span's source before the span.
    pub fn before(&self, span: Span) -> Option<&str> {
        let (src, start, _) = self.source_of(span)?;
        src.text.get(..start)
    }

    pub fn len(&self) -> usize {
        self.sources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
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
}
