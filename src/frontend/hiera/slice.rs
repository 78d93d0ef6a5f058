//! One-key lookups without parsing whole data files (issue 15). The first time a data file is
//! parsed whole, strata notes where each top-level entry of its mapping starts and ends (its
//! *index*) and hands it to the `Files` store, which keeps it (on disk: the cache folder,
//! `cli/cache.rs`) stamped with a hash of the file's bytes and of the loading rules. A later
//! one-key lookup whose file still has those bytes parses only the entries it asks for — the
//! key, `lookup_options`, the keys its interpolations look up — each at its own offset in the
//! file, so values, positions, comments and messages are those of the whole parse (when
//! comments are kept, the last entry is read too: it holds the file's closing comments). When
//! the store can vouch for a file by its identity (size, times, inode: `Files::identity`), the
//! index records it, and a later run that finds the same identity reads only the entries.
//!
//! A file is indexed only when no entry can change how another reads: UTF-8 without a
//! byte-order mark (the text is the file's bytes), loaded without a warning (no duplicate
//! key), no `&` anywhere (no anchor, so no alias), no line starting with `%` (no directive),
//! a mapping whose every key is a string starting a line (not with a byte-order mark, which a
//! text read alone drops), nothing but comments and blank lines between one entry's value and
//! the next key or the text's end (no `?` of an explicit key, no `---` or `...`, no tab, no
//! lone CR), no block scalar that
//! keeps its trailing lines (`|+`). Anything else is parsed whole, as before. An entry runs
//! from the comments and blank lines above its key (the first entry: from the text's start)
//! to the next key. The fuzz target `hiera_slice` checks that every entry parsed alone is the
//! whole parse's, spans included, and is written with the same comments.

use super::index;
pub use super::index::{set_identity, Found, Index};
use crate::load::{self, LoadOptions};
use crate::value::style::StyleSink;
use crate::value::{Kind, Node, SourceId};
use std::hash::Hasher;

/// A hash of a data file's text and of everything that decides how it loads: an index is
/// used only for the bytes, the strata build and the loading rules it was made with.
pub fn stamp(bytes: &[u8], opts: &LoadOptions) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    for n in [
        opts.dialect.version as usize,
        opts.limits.max_depth,
        opts.limits.alias_budget,
        opts.limits.max_documents,
        opts.limits.max_input_size,
        opts.dialect
            .psych
            .as_ref()
            .map_or(0, |p| 1 + usize::from(p.symbols)),
        bytes.len(),
    ] {
        h.write_usize(n);
    }
    h.write(bytes);
    h.finish()
}

/// The index of a file parsed whole (`doc`, from `text` loaded as source `source` without a
/// warning), or `None` when its entries cannot be parsed apart.
pub fn build(doc: &Node, text: &str, source: SourceId, stamp: u64, rules: u64) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.contains(&b'&')
        || bytes.first() == Some(&b'%')
        || has_line(bytes, b"%")
        || keeps_trailing_lines(bytes)
    {
        return None;
    }
    let Kind::Map(map) = &doc.kind else {
        return None;
    };
    // (key, entry start, entry end)
    let mut entries: Vec<(&str, u32, u32)> = Vec::with_capacity(map.len());
    // Where the value before ends (0: the text's start).
    let mut value_end = 0u32;
    for (key, value) in map.iter() {
        let name = key.as_str()?;
        let start = key.span().start.checked_sub(source)?;
        let at = start as usize;
        let line_start = at == 0 || bytes.get(at - 1) == Some(&b'\n');
        // Between the value before and the key: only comments and blank lines (no `?` of an
        // explicit key, no lone CR); before the first key also the `---` line.
        let gap = bytes.get(value_end as usize..at)?;
        // A byte-order mark opening an entry would be dropped when the entry is read alone.
        let bom = text.get(at..).is_some_and(|t| t.starts_with('\u{feff}'));
        if !line_start || bom || at >= bytes.len() || !trivia_only(gap, entries.is_empty()) {
            return None;
        }
        // An entry starts with the comments and blank lines above its key (the writer puts
        // them above what is written on the key's line; the first entry starts the text) and
        // ends at the next key (where the whole parse ends its block collections), so those
        // lines are read with both entries: the comments then read as in the whole text.
        let cut = match entries.last_mut() {
            None => 0,
            Some(last) => {
                last.2 = start;
                u32::try_from(comments_above(bytes, at, value_end as usize)).ok()?
            }
        };
        entries.push((name, cut, u32::try_from(bytes.len()).ok()?));
        value_end = content_end(value, bytes, source)?.max(start);
    }
    if entries.is_empty() || !trivia_only(bytes.get(value_end as usize..)?, false) {
        return None;
    }
    let seq = seq_indent(doc, bytes, source);
    index::encode(&entries, (stamp, rules), bytes.len(), seq)
}

/// Whether the first block sequence under a key is indented past the key (`None`: there is
/// none), as the recorder of styles finds it in the whole text; an entry read alone would
/// find its own, so the writer's layout is the whole file's.
fn seq_indent(doc: &Node, bytes: &[u8], source: SourceId) -> Option<bool> {
    let col = |at: u32| -> Option<usize> {
        let at = at.checked_sub(source)? as usize;
        let line = bytes[..at.min(bytes.len())]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        Some(at - line)
    };
    let flow = |n: &Node| {
        n.span
            .start
            .checked_sub(source)
            .is_some_and(|at| matches!(bytes.get(at as usize), Some(b'[' | b'{')))
    };
    // Depth first, in the order the text has them.
    let mut stack = vec![doc];
    while let Some(node) = stack.pop() {
        match &node.kind {
            Kind::Map(m) if !flow(node) => {
                for (k, v) in m.iter() {
                    if matches!(v.kind, Kind::List(_)) && !flow(v) {
                        return Some(col(v.span.start)? > col(k.span().start)?);
                    }
                    if !v.is_scalar() {
                        // The first collection below decides before the next entry.
                        if let Some(found) = seq_indent(v, bytes, source) {
                            return Some(found);
                        }
                    }
                }
            }
            Kind::List(l) if !flow(node) => stack.extend(l.iter().rev()),
            _ => {}
        }
    }
    None
}

/// Where a value's last written token ends (an offset in the text): a block collection's own
/// span reaches the next token (the comments below it are not its), so its last item's end is
/// taken, down to a scalar or a flow collection (whose span ends at its closing bracket).
fn content_end(value: &Node, bytes: &[u8], source: SourceId) -> Option<u32> {
    let mut node = value;
    loop {
        let at = node.span.start.checked_sub(source)? as usize;
        let flow = matches!(bytes.get(at), Some(b'[' | b'{'));
        let last = match &node.kind {
            Kind::Map(m) if !flow => m.iter().next_back().map(|(_, v)| v),
            Kind::List(l) if !flow => l.last(),
            _ => None,
        };
        match last {
            Some(n) if !n.span.is_none() => node = n,
            _ => return node.span.end.checked_sub(source),
        }
    }
}

/// Whether `gap` (from the end of a value, or the text's start, to a key or the text's end)
/// holds only comments, blank space and line breaks — with `marker`, also a `---` line.
fn trivia_only(gap: &[u8], marker: bool) -> bool {
    gap.split(|&b| b == b'\n').all(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let body = line.trim_ascii_start();
        let bare_marker = marker
            && body
                .strip_prefix(b"---")
                .is_some_and(|r| r.is_empty() || r.starts_with(b" ") && trivia_only(r, false));
        !line.contains(&b'\r')
            && !line.contains(&b'\t')
            && (body.is_empty() || body.starts_with(b"#") || bare_marker)
    })
}

/// Where the lines of only comments and blank space right above `at` (a line start) begin,
/// but not before `floor` (the end of the value before them).
fn comments_above(bytes: &[u8], at: usize, floor: usize) -> usize {
    let mut cut = at;
    while cut > 0 {
        let from = bytes[..cut - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if from < floor {
            break;
        }
        let body = bytes[from..cut].trim_ascii_start();
        if body.is_empty() || body.starts_with(b"#") {
            cut = from;
        } else {
            break;
        }
    }
    cut
}

/// Whether a block scalar may keep its trailing blank lines (`|+`, `>2+`): they are its
/// value, so the lines below it cannot be cut off (any `|` or `>` followed by `+` counts).
fn keeps_trailing_lines(bytes: &[u8]) -> bool {
    let block = |i: usize| matches!(bytes.get(i), Some(b'|' | b'>'));
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&b| b == b'+') {
        let at = from + i;
        let digit = at >= 1 && bytes[at - 1].is_ascii_digit();
        if at >= 1 && block(at - 1) || digit && at >= 2 && block(at - 2) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether a line of `bytes` (after a line break) starts with `what`.
fn has_line(bytes: &[u8], what: &[u8]) -> bool {
    let mut rest = bytes;
    while let Some(i) = rest.iter().position(|&b| b == b'\n') {
        rest = &rest[i + 1..];
        if rest.starts_with(what) {
            return true;
        }
    }
    false
}

/// `key`'s value parsed from its entry, `text[start..end]` of the source `source`; `None`
/// when the entry does not read as that one key alone without a warning (the caller then
/// parses the file whole, and reports what that parse reports). Without a key: whichever key
/// the entry holds (the last entry, read for its closing comments).
pub fn entry(
    text: &str,
    range: (usize, usize),
    key: Option<&str>,
    source: SourceId,
    opts: &LoadOptions,
    seq_indent: Option<bool>,
) -> Option<Node> {
    let piece = piece_of(text, range)?;
    entry_in(piece, range.0, text.len(), key, source, opts, seq_indent)
}

/// An entry's text, if `range` holds one (it starts a line).
pub fn piece_of(text: &str, (start, end): (usize, usize)) -> Option<&str> {
    let line_start = start == 0 || text.as_bytes().get(start - 1) == Some(&b'\n');
    text.get(start..end).filter(|_| line_start)
}

/// `entry` with the entry's text only (`piece`, from offset `start` of a text of `len`
/// bytes).
pub fn entry_in(
    piece: &str,
    start: usize,
    len: usize,
    key: Option<&str>,
    source: SourceId,
    opts: &LoadOptions,
    seq_indent: Option<bool>,
) -> Option<Node> {
    let end = start + piece.len();
    let text_len = len;
    let opts_styles = opts.styles.clone();
    let id = source.checked_add(u32::try_from(start).ok()?)?;
    let mut warnings = Vec::new();
    // Comments at the entry's end are not the file's closing comments (unless it is last).
    // Its styles are recorded apart, to be given the whole text's sequence layout.
    let sink = opts.styles.as_ref().map(|_| StyleSink::default());
    let opts = LoadOptions {
        continues: text_len.checked_sub(end)?,
        styles: sink.clone(),
        ..opts.clone()
    };
    let doc = load::load_document(piece, id, false, &opts, &mut warnings).ok()??;
    if let (Some(mine), Some(run)) = (sink, opts_styles) {
        for mut styles in mine.take() {
            styles.seq_indent = seq_indent;
            run.put(styles);
        }
    }
    let Kind::Map(map) = doc.kind else {
        return None;
    };
    if !warnings.is_empty() || map.len() != 1 {
        return None;
    }
    let (k, v) = (*map).into_iter().next()?;
    (key.is_none() || k.as_str() == key).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::SourceMap;

    fn index_of(text: &str) -> Option<Index> {
        let mut sources = SourceMap::new();
        sources.add("pad", "x".repeat(7));
        let id = sources.add("data.yaml", text.to_string());
        let opts = LoadOptions::default();
        let mut w = Vec::new();
        let doc = load::load_document(text, id, false, &opts, &mut w).ok()??;
        assert!(w.is_empty());
        let s = stamp(text.as_bytes(), &opts);
        Index::read(build(&doc, text, id, s, 0)?, s, text.len())
    }

    #[test]
    fn each_entry_reads_as_in_the_whole_file() {
        let text =
            "---\n# top\nb: 1\n# about c\nc:\n  - x\n  - {y: 2}\n\na: |\n  text\n\n'q d': \"s\"\n";
        let index = index_of(text).expect("indexable");
        let mut sources = SourceMap::new();
        let id = sources.add("data.yaml", text.to_string());
        let opts = LoadOptions::default();
        let whole = load::load_document(text, id, false, &opts, &mut Vec::new())
            .unwrap()
            .unwrap();
        for key in ["a", "b", "c", "q d"] {
            let Found::At(start, end) = index.find(key) else {
                panic!("{key}");
            };
            let v = entry(text, (start, end), Some(key), id, &opts, None).expect(key);
            let w = whole.get(key).unwrap();
            assert!(v.py_eq(w), "{key}");
            assert_eq!(v.span, w.span, "{key}");
        }
        assert_eq!(index.find("d"), Found::Missing);
        assert_eq!(index.find("lookup_options"), Found::Missing);
        assert_eq!(
            index.last(),
            Some((text.find("'q d'").unwrap(), text.len()))
        );
    }

    #[test]
    fn files_whose_entries_depend_on_each_other_are_not_indexed() {
        for text in [
            "a: &x 1\nb: *x\n",
            "%YAML 1.1\n---\na: 1\n",
            "a: 1\n---\nb: 2\n",
            "a: 1\n...\n",
            "{a: 1, b: 2}\n",
            "? a\n: 1\n",
            "1: a\n",
            "\u{feff}a: 1\n",
            "a: 1\n\u{feff}: 2\n",
            "- a\n",
        ] {
            assert!(index_of(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn an_index_is_refused_for_other_bytes_or_when_damaged() {
        let text = "a: 1\nb: 2\n";
        let mut sources = SourceMap::new();
        let id = sources.add("data.yaml", text.to_string());
        let opts = LoadOptions::default();
        let doc = load::load_document(text, id, false, &opts, &mut Vec::new())
            .unwrap()
            .unwrap();
        let s = stamp(text.as_bytes(), &opts);
        let bytes = build(&doc, text, id, s, 0).unwrap();
        assert!(Index::read(bytes.clone(), s, text.len()).is_some());
        assert!(Index::read(bytes.clone(), s ^ 1, text.len()).is_none());
        assert!(Index::read(bytes.clone(), s, text.len() + 1).is_none());
        assert!(Index::read(bytes[..bytes.len() - 1].to_vec(), s, text.len()).is_none());
        let mut damaged = bytes.clone();
        let at = bytes.len() - 8; // the last entry's start and end (under the hash)
        damaged[at] ^= 1;
        assert!(Index::read(damaged, s, text.len()).is_none());
        // An entry that does not start a line is not parsed alone.
        assert_eq!(entry(text, (1, 5), Some("a"), id, &opts, None), None);
        assert!(entry(text, (0, 5), Some("a"), id, &opts, None).is_some());
        assert_ne!(stamp(b"a: 1\n", &opts), stamp(b"a: 2\n", &opts));
    }
}
