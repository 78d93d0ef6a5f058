//! The data files of a run: each read once, parsed whole (ahead, on `--jobs` threads, when
//! there are threads) or — for a one-key lookup, when the `Files` store kept an index of the
//! file from an earlier run (`slice`) — entry by entry as the search asks for keys. Every
//! whole parse of a YAML file leaves an index behind for the next run.

use super::config::Format;
use super::slice::{self, Found, Index};
use super::state::Hiera;
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{add_text_input, built_from, parse_inputs, Files};
use crate::load;
use crate::value::{Node, SourceId, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::Path;

/// A data file read with an index: its source, and the entries parsed so far. `released`:
/// its bytes were not read (its identity vouched for the index); entries are read from the
/// file one by one and the text only if a message shows a position in it.
pub struct Sliced {
    id: SourceId,
    index: Index,
    parsed: FxHashMap<String, Option<Node>>,
    released: bool,
}

impl Hiera<'_> {
    /// The value of the top-level `key` in a data file: `None` when the file does not exist,
    /// `Some(None)` when it has no such key.
    pub fn value_in(
        &mut self,
        path: &Path,
        format: Format,
        key: &str,
    ) -> Result<Option<Option<Node>>> {
        if self.slicing && format == Format::Yaml && !self.data.contains_key(path) {
            if let Some(v) = self.sliced_value(path, key)? {
                return Ok(Some(v));
            }
        }
        Ok(self.data(path, format)?.map(|d| d.get(key).cloned()))
    }

    /// The data hash of a file (`None`: the file does not exist).
    pub fn data(&mut self, path: &Path, format: Format) -> Result<Option<&Node>> {
        if !self.data.contains_key(path) {
            let doc = match self.pending.remove(path) {
                Some((doc, warnings)) => {
                    self.warnings.extend(warnings);
                    doc?
                }
                None => self.load(path, format)?,
            };
            self.data.insert(path.to_path_buf(), doc);
        }
        Ok(self.data.get(path).and_then(Option::as_ref))
    }

    /// `key` from the file's index, parsing its entry; `None` when the file has no usable
    /// index (it is then parsed whole).
    fn sliced_value(&mut self, path: &Path, key: &str) -> Result<Option<Option<Node>>> {
        if !self.sliced.contains_key(path) && !self.open_indexed(path)? {
            return Ok(None);
        }
        let Some(s) = self.sliced.get(path) else {
            return Ok(None);
        };
        if let Some(v) = s.parsed.get(key) {
            return Ok(Some(v.clone()));
        }
        let (id, seq, released) = (s.id, s.index.seq_indent(), s.released);
        let last = (s.parsed.is_empty() && self.settings.load.styles.is_some())
            .then(|| s.index.last())
            .flatten();
        let found = s.index.find(key);
        let len = s.index.text_len();
        // The file's closing comments, which the writer may put after the value.
        let whole = last.is_some_and(|range| {
            self.entry_at(path, (id, released, len), range, None, seq)
                .is_none()
        });
        let value = match found {
            _ if whole => None,
            Found::Missing => Some(None),
            Found::Unsure => None,
            Found::At(start, end) => self
                .entry_at(path, (id, released, len), (start, end), Some(key), seq)
                .map(Some),
        };
        let Some(value) = value else {
            // Not what the whole parse gave when the index was made: parse whole.
            self.sliced.remove(path);
            if released {
                // Read afresh for the whole parse (`data` takes it from here).
                if let Some(input) = self.files.read(path)? {
                    self.read_ahead
                        .insert(path.to_path_buf(), (input, Kept::Unchecked));
                }
                return Ok(None);
            }
            let doc = self.parse_whole(path, Format::Yaml, id, Kept::Fresh)?;
            self.data.insert(path.to_path_buf(), doc);
            return Ok(None);
        };
        if let Some(s) = self.sliced.get_mut(path) {
            s.parsed.insert(key.to_string(), value.clone());
        }
        Ok(Some(value))
    }

    /// An entry of a sliced file: from its text, or read from the file alone.
    fn entry_at(
        &mut self,
        path: &Path,
        (id, released, len): (SourceId, bool, usize),
        (start, end): (usize, usize),
        key: Option<&str>,
        seq: Option<bool>,
    ) -> Option<Node> {
        let load = &self.settings.load;
        if !released {
            return slice::entry(self.sources.text(id), (start, end), key, id, load, seq);
        }
        // With the byte before, to see that the entry starts a line.
        let text =
            String::from_utf8(self.files.read_range(path, start.saturating_sub(1), end)?).ok()?;
        let piece = if start == 0 {
            &text[..]
        } else {
            text.strip_prefix('\n')?
        };
        slice::entry_in(piece, start, len, key, id, load, seq)
    }

    /// Opens a file through the index kept for it: without reading it when its identity is
    /// the one the index records, else reading it and checking the index's stamp. `true`
    /// when the index is used; otherwise the file waits, read, for its whole parse.
    fn open_indexed(&mut self, path: &Path) -> Result<bool> {
        if self.pending.contains_key(path)
            || self.read_ahead.contains_key(path)
            || !self.files.keeps_indexes()
        {
            return Ok(false);
        }
        if self.open_trusted(path) {
            return Ok(true);
        }
        let before = self.files.identity(path);
        let Some(input) = self.files.read(path)? else {
            return Ok(false);
        };
        let (stamp, kept) = kept_index(self.files, &self.settings.load, path, &input.bytes);
        if let Some(index) = kept {
            self.vouch(path, &index, before);
            let id = add_text_input(input, self.sources, self.settings)?;
            self.sliced
                .insert(path.to_path_buf(), Sliced::new(id, index, false));
            return Ok(true);
        }
        if let Some(b) = before {
            self.identities.insert(path.to_path_buf(), b);
        }
        self.read_ahead
            .insert(path.to_path_buf(), (input, Kept::Stale(stamp)));
        Ok(false)
    }

    /// Uses the kept index of a file whose identity it records, without reading the file
    /// (not with `--explain`, which keeps every text).
    fn open_trusted(&mut self, path: &Path) -> bool {
        if self.settings.explain {
            return false;
        }
        let rules = slice::stamp(&[], &self.settings.load);
        let Some(identity) = self.files.identity(path) else {
            return false;
        };
        let Some(index) = self
            .files
            .index(path)
            .and_then(|b| Index::trusted(b, identity, rules))
        else {
            return false;
        };
        let reload = self.files.reload(path);
        let id = self
            .sources
            .add_released(path.display().to_string(), index.text_len(), reload);
        self.sliced
            .insert(path.to_path_buf(), Sliced::new(id, index, true));
        true
    }

    /// An index checked against the file's bytes, read while the file kept the identity
    /// `before`, is kept again with that identity so the next run need not read the file.
    fn vouch(&mut self, path: &Path, index: &Index, before: Option<[u64; 5]>) {
        if index.has_identity() {
            return;
        }
        if let Some(b) = before.filter(|b| self.files.identity(path) == Some(*b)) {
            let mut bytes = index.bytes().to_vec();
            slice::set_identity(&mut bytes, b);
            self.files.keep_index(path, &bytes);
        }
    }

    /// Reads every data file of the hierarchy ahead of the search, when the input stage reads
    /// ahead (`reads_ahead`: with threads), and parses them through it (`parse_inputs`, issue
    /// 19); a one-key lookup takes a file with a valid index as it is. Each result, with its error or warnings, waits until the search asks for that
    /// file, so what is reported, and in which order, is what the sequential search reports;
    /// a file the search never reaches reports nothing.
    pub(super) fn prefetch(&mut self, levels: &[Vec<super::locate::Location>]) {
        if !crate::frontend::parse::reads_ahead(self.settings) {
            return;
        }
        let mut formats = FxHashMap::default();
        // The stamps of the YAML files whose kept index is not theirs (made again).
        let mut stale = FxHashMap::default();
        let (mut inputs, mut paths) = (Vec::new(), Vec::new());
        let formats_of: Vec<Format> = self.config.levels.iter().map(|l| l.format).collect();
        for (&format, locations) in formats_of.iter().zip(levels) {
            for loc in locations {
                if self.data.contains_key(&*loc.path) || formats.contains_key(&*loc.path) {
                    continue;
                }
                let yaml = format == Format::Yaml;
                if self.slicing
                    && yaml
                    && self.files.keeps_indexes()
                    && self.open_trusted(&loc.path)
                {
                    formats.insert(loc.path.to_path_buf(), format);
                    continue;
                }
                let before = self.files.identity(&loc.path);
                // Missing, blank or unreadable: the search reads it itself, as it would.
                let Ok(Some(input)) = self.files.read(&loc.path) else {
                    continue;
                };
                if blank(&input, format) {
                    continue;
                }
                formats.insert(loc.path.to_path_buf(), format);
                let kept = (format == Format::Yaml && self.files.keeps_indexes())
                    .then(|| kept_index(self.files, &self.settings.load, &loc.path, &input.bytes))
                    .and_then(|(stamp, kept)| {
                        if kept.is_none() {
                            stale.insert(input.name.clone(), stamp);
                        }
                        kept
                    });
                if let Some(b) = before {
                    self.identities.insert(loc.path.to_path_buf(), b);
                }
                if let Some(index) = kept {
                    self.vouch(&loc.path, &index, before);
                    if self.slicing {
                        if let Ok(id) = add_text_input(input, self.sources, self.settings) {
                            self.sliced
                                .insert(loc.path.to_path_buf(), Sliced::new(id, index, false));
                        }
                        continue;
                    }
                    // Parsed whole, its index is not made again (`vouch` added the
                    // identity if it lacked one): it is not in `stale`.
                }
                paths.push((loc.path.to_path_buf(), format));
                inputs.push(input);
            }
        }
        let json: FxHashSet<String> = paths
            .iter()
            .zip(&inputs)
            .filter(|((_, f), _)| *f == Format::Json)
            .map(|(_, i)| i.name.clone())
            .collect();
        let load = &self.settings.load;
        let rules = slice::stamp(&[], load);
        let parsed = parse_inputs(inputs, self.sources, self.settings, |name, text, id, w| {
            let json = json.contains(name);
            let text = text.as_str();
            let doc = load::load_document(text, id, json, load, w)?;
            let index = stale
                .get(name)
                .filter(|_| !json && w.is_empty())
                .and_then(|&stamp| index_of(doc.as_ref(), text, id, stamp, rules));
            Ok((doc, index))
        });
        for ((path, format), parsed) in paths.into_iter().zip(parsed) {
            let loaded = match parsed {
                Ok(p) => {
                    let mut warnings = p.warnings;
                    let data = p.value.and_then(|(doc, index)| {
                        if let Some(index) = index {
                            self.keep(&path, index);
                        }
                        as_data(&path, format, p.id, doc, &mut warnings)
                    });
                    (data, warnings)
                }
                Err(e) => (Err(e), Vec::new()),
            };
            self.pending.insert(path, loaded);
        }
    }

    fn load(&mut self, path: &Path, format: Format) -> Result<Option<Node>> {
        let (input, kept) = match self.read_ahead.remove(path) {
            Some(read) => read,
            None => {
                if let Some(b) = self.files.identity(path) {
                    self.identities.insert(path.to_path_buf(), b);
                }
                match self.files.read(path)? {
                    Some(input) => (input, Kept::Unchecked),
                    None => return Ok(None),
                }
            }
        };
        if blank(&input, format) {
            self.warnings
                .push(not_a_hash(path, "it is empty", Span::NONE));
            return Ok(Some(Node::empty_map(Span::NONE)));
        }
        let id = add_text_input(input, self.sources, self.settings)?;
        let doc = self.parse_whole(path, format, id, kept)?;
        built_from(id, self.sources, self.settings);
        Ok(doc)
    }

    /// Parses a data file's text whole, and keeps its index when the store keeps them and
    /// the one it kept is not this text's.
    fn parse_whole(
        &mut self,
        path: &Path,
        format: Format,
        id: SourceId,
        kept: Kept,
    ) -> Result<Option<Node>> {
        let text = self.sources.text(id);
        let json = format == Format::Json;
        let warned = self.warnings.len();
        let load = &self.settings.load;
        let doc = load::load_document(text, id, json, load, &mut self.warnings)?;
        if !json && self.warnings.len() == warned && self.files.keeps_indexes() {
            let stale = match kept {
                Kept::Fresh => None,
                Kept::Stale(stamp) => Some(stamp),
                Kept::Unchecked => match kept_index(self.files, load, path, text.as_bytes()) {
                    (_, Some(_)) => None,
                    (stamp, None) => Some(stamp),
                },
            };
            let rules = slice::stamp(&[], load);
            if let Some(index) = stale.and_then(|s| index_of(doc.as_ref(), text, id, s, rules)) {
                self.keep(path, index);
            }
        }
        as_data(path, format, id, doc, &mut self.warnings)
    }

    /// Keeps a new index, with the file's identity when it had it before it was read and
    /// still has it.
    fn keep(&mut self, path: &Path, mut index: Vec<u8>) {
        let before = self.identities.get(path).copied();
        if let Some(b) = before.filter(|b| self.files.identity(path) == Some(*b)) {
            slice::set_identity(&mut index, b);
        }
        self.files.keep_index(path, &index);
    }
}

impl Sliced {
    fn new(id: SourceId, index: Index, released: bool) -> Sliced {
        Sliced {
            id,
            index,
            parsed: FxHashMap::default(),
            released,
        }
    }
}

/// What is known, before a whole parse, of the index the store kept for the file.
pub enum Kept {
    Unchecked,
    /// Made for these bytes.
    Fresh,
    /// Not made for these bytes, whose stamp this is.
    Stale(u64),
}

/// The stamp of the file's bytes, and the index the store kept for it if it was made for
/// these bytes.
fn kept_index(
    files: &mut dyn Files,
    opts: &load::LoadOptions,
    path: &Path,
    bytes: &[u8],
) -> (u64, Option<Index>) {
    let stamp = slice::stamp(bytes, opts);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return (stamp, None);
    }
    let kept = files
        .index(path)
        .and_then(|b| Index::read(b, stamp, bytes.len()));
    (stamp, kept)
}

/// The index of a YAML file parsed whole without a warning (`stamp`: of its bytes), if its
/// entries stand alone.
fn index_of(
    doc: Option<&Node>,
    text: &str,
    id: SourceId,
    stamp: u64,
    rules: u64,
) -> Option<Vec<u8>> {
    slice::build(doc?, text, id, stamp, rules)
}

/// A YAML data file of only blank space is an empty hash (no text to parse).
fn blank(input: &crate::frontend::Input, format: Format) -> bool {
    format == Format::Yaml && input.bytes.iter().all(u8::is_ascii_whitespace)
}

/// Puppet's warning for a YAML data file that holds no hash (`why`), read as an empty one.
fn not_a_hash(path: &Path, why: &str, at: Span) -> Warning {
    // Without a position, the warning names the file itself.
    let file = if at.is_none() {
        format!("{}: ", path.display())
    } else {
        String::new()
    };
    Warning::new(WarnKind::NotAMapping,
        format!(
            "{file}file does not contain a valid yaml hash: {why} (Puppet warns and reads it as an empty hash)"
        ),
        at,
    )
}

/// A data file's document as its data hash. A YAML file with no document, an empty one
/// (`---` alone: nil, which Puppet makes `false`) or `false` is an empty hash, with Puppet's
/// warning; anything else but a hash is an error.
fn as_data(
    path: &Path,
    format: Format,
    id: SourceId,
    doc: Option<Node>,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    let empty_map = |span| Some(Node::empty_map(span));
    match doc {
        None if format == Format::Yaml => {
            let at = Span::new(id, 0, 0);
            warnings.push(not_a_hash(path, "it holds no document", at));
            Ok(empty_map(at))
        }
        None => Ok(empty_map(Span::new(id, 0, 0))),
        Some(d) if d.as_map().is_some() => Ok(Some(d)),
        Some(d)
            if format == Format::Yaml
                && matches!(d.kind, crate::value::Kind::Bool(false) | crate::value::Kind::Null) =>
        {
            // An empty document's null stands at its end: the file's start is shown.
            let at = match d.kind {
                crate::value::Kind::Null => Span::new(id, 0, 0),
                _ => d.span,
            };
            warnings.push(not_a_hash(path, &format!("it holds {}", d.kind_phrase()), at));
            Ok(empty_map(d.span))
        }
        Some(d) => Err(Error::new(
            ErrorKind::Parse,
            format!(
                "{}: file does not contain a valid {} hash: it holds {}",
                path.display(),
                if format == Format::Json { "json" } else { "yaml" },
                d.kind_phrase()
            ),
        )
        .at(d.span)
        .hint("a data file is a mapping of keys to values; Puppet warns and reads it as empty (an error with strict=error)")),
    }
}
