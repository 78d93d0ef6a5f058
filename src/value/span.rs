//! Positions: `SourceId`, `Span` (byte offsets into one source) and the `SourceMap` that owns
//! every input text and turns offsets into `file:line:col` only when something is printed.

use std::fmt;

/// Index of one source text (a file, stdin, a MIME part, an archive entry) in a [`SourceMap`].
pub type SourceId = u32;

/// Where a value was written: a byte range in one source. `Span::NONE` marks synthesized values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub source: SourceId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// A value that was not written anywhere (a default, a synthesized container).
    pub const NONE: Span = Span {
        source: u32::MAX,
        start: 0,
        end: 0,
    };

    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        Span {
            source,
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    pub fn is_none(&self) -> bool {
        self.source == u32::MAX
    }
}

fn clamp(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// One input text with its display name and, computed once on demand, its line starts.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
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

    /// Adds a source and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: String) -> SourceId {
        self.sources.push(Source {
            name: name.into(),
            text,
            line_starts: std::sync::OnceLock::new(),
            char_marks: std::sync::OnceLock::new(),
        });
        clamp(self.sources.len() - 1)
    }

    pub fn get(&self, id: SourceId) -> Option<&Source> {
        self.sources.get(id as usize)
    }

    pub fn name(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.name.as_str()).unwrap_or("<none>")
    }

    pub fn text(&self, id: SourceId) -> &str {
        self.get(id).map(|s| s.text.as_str()).unwrap_or("")
    }

    /// `file:line:col` of a span's start, or `None` for synthesized values.
    pub fn locate(&self, span: Span) -> Option<Location<'_>> {
        let src = self.get(span.source)?;
        let (line, column) = src.line_col(span.start);
        Some(Location {
            file: &src.name,
            line,
            column,
        })
    }

    /// The source text a span covers.
    pub fn slice(&self, span: Span) -> Option<&str> {
        self.get(span.source)?
            .text
            .get(span.start as usize..span.end as usize)
    }

    pub fn len(&self) -> usize {
        self.sources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }
}
