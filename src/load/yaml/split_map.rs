//! One long YAML document whose root is a block mapping (a big configuration file) loaded on
//! several threads (issue 19). At the top level of a block mapping, a line that starts at
//! column 0 with a letter, digit or `_` starts the next key — or, inside a quoted scalar or a
//! flow collection, leaves the text before it unterminated; a block scalar and a plain scalar
//! of a top-level key end at column 0. So the text is cut at such lines into pieces of
//! similar size, each piece is loaded alone (spans shifted to its offset, its comments
//! recorded as not the text's last), and their entries are joined in order into the first
//! piece's mapping.
//!
//! The result must be the one a single pass gives, so any doubt falls back to that pass: a
//! piece that fails or whose root is not a plain block mapping at column 0, a key in two
//! pieces, a text with an anchor (`&`, which an alias in a later piece could name), a `<<`
//! (a merge key puts its keys at the front of the whole root), a lone CR, a `%` directive or a
//! `---` / `...` line. When comments are kept, a cut is made only below a line of content
//! (not below a comment or a blank line, which the single pass would read as above the key).

use super::whole::Whole;
use super::{load_counted, load_single_pass, LoadOptions};
use crate::error::{Result, Warning};
use crate::value::style::StyleSink;
use crate::value::{Kind, Node, SourceId, Span};

/// `load_single`, on `opts.threads.jobs` threads when the text is long enough to cut.
pub(super) fn load_single_split(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    // The smallest piece worth a thread of its own.
    let min_piece = opts.threads.min_piece();
    match load_in_pieces(&mut Whole::Here(text), source, opts, warnings, min_piece) {
        Some(root) => Ok(Some(root)),
        None => load_single_pass(text, source, opts, warnings),
    }
}

/// The document loaded in pieces, when it can be cut and the pieces stand for the single pass
/// (`None`: load it in one pass). Warnings are added only then.
pub(super) fn load_in_pieces(
    whole: &mut Whole<'_>,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
    min_piece: usize,
) -> Option<Node> {
    let jobs = crate::par::jobs_here(opts.threads.jobs);
    let len = whole.len();
    let cuts = match whole.cut_for(jobs) {
        Some(for_jobs) if len >= min_piece.saturating_mul(2) => {
            cuts(whole.text(), for_jobs, min_piece, opts.styles.is_some())
        }
        _ => Vec::new(),
    };
    if cuts.is_empty() {
        return None;
    }
    let loaded = super::split::in_pieces(whole, cuts, source, jobs, |piece, id, at| {
        // Recorded apart: kept only if the pieces stand for the single pass.
        let sink = opts.styles.as_ref().map(|_| StyleSink::default());
        let piece_opts = LoadOptions {
            continues: len - (at + piece.len()),
            styles: sink.clone(),
            ..opts.clone()
        };
        let mut warned = Vec::new();
        // The stream loader's pass, as the text's own pass would run when it is a stream: a
        // second document turns the pieces down, and the single pass then says what is wrong.
        let doc = load_counted(piece, id, &piece_opts, &mut warned)
            .map(|(docs, _)| <[Node; 1]>::try_from(docs).ok().map(|[doc]| doc));
        // The root mapping must start at column 0 (an indented one ends at the first cut,
        // where the single pass fails), and the later pieces' keys then stand beside its keys.
        let at_line_start = at > 0 || starts_a_line(&doc, piece, id);
        (doc, warned, sink, at_line_start)
    });
    if !loaded.iter().all(|l| l.3) {
        return None;
    }
    let (root, warned, sinks) = join(loaded)?;
    if let Some(run) = &opts.styles {
        sinks
            .iter()
            .flat_map(StyleSink::take)
            .for_each(|s| run.put(s));
    }
    warnings.extend(warned);
    Some(root)
}

/// Whether the first piece's mapping starts a line: only a byte-order mark may stand before it.
fn starts_a_line(doc: &Result<Option<Node>>, piece: &str, id: SourceId) -> bool {
    let Some(first) = doc
        .as_ref()
        .ok()
        .and_then(Option::as_ref)
        .and_then(Node::as_map)
        .and_then(|m| m.keys().next())
    else {
        // `join` turns the piece down.
        return true;
    };
    let before = first
        .span()
        .start
        .checked_sub(id)
        .and_then(|at| piece.get(..at as usize));
    before.is_some_and(|b| b.is_empty() || b.ends_with('\n') || b == "\u{feff}")
}

type Loaded = (Result<Option<Node>>, Vec<Warning>, Option<StyleSink>, bool);

/// The pieces' mappings joined, their warnings and recorded styles; `None` when they do not
/// stand for the single pass.
fn join(loaded: Vec<Loaded>) -> Option<(Node, Vec<Warning>, Vec<StyleSink>)> {
    let (mut root, mut warned, mut sinks): (Option<Node>, _, Vec<StyleSink>) =
        (None, Vec::new(), Vec::new());
    for (doc, w, sink, _) in loaded {
        let piece = doc.ok()??;
        if !matches!(piece.kind, Kind::Map(_)) {
            return None;
        }
        warned.extend(w);
        sinks.extend(sink);
        let Some(joined) = root.as_mut() else {
            // A block mapping (a flow one starts at its `{`), not empty: its own first key is
            // where the root starts.
            if piece.as_map()?.keys().next()?.span().start != piece.span.start {
                return None;
            }
            root = Some(piece);
            continue;
        };
        let end = piece.span.end;
        let (Kind::Map(into), Kind::Map(from)) = (&mut joined.kind, piece.kind) else {
            return None;
        };
        for (k, v) in *from {
            if into.contains_key(&k) {
                return None;
            }
            into.insert(k, v);
        }
        joined.span = Span {
            start: joined.span.start,
            end,
        };
    }
    Some((root?, warned, sinks))
}

/// Where to cut `text` (byte offsets of top-level key lines), about `4 * jobs` pieces of at
/// least `min_piece` bytes; empty when the text cannot or need not be cut.
pub(super) fn cuts(text: &str, jobs: usize, min_piece: usize, styles: bool) -> Vec<usize> {
    let bytes = text.as_bytes();
    let marker = |line: &[u8]| {
        (line.starts_with(b"---") || line.starts_with(b"..."))
            && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    };
    // A marker or a directive at the start of a line (searched for, not line by line: a
    // search per line cost more than the rest of the cutting).
    let marked =
        |pattern: &[u8]| memchr::memmem::find_iter(bytes, pattern).any(|i| marker(&bytes[i + 1..]));
    let directive = memchr::memchr_iter(b'%', bytes).any(|i| i == 0 || bytes[i - 1] == b'\n');
    // `<<` merges a mapping's keys in at the front of the one holding it: the whole root's.
    if memchr::memchr2(b'&', b'\r', bytes).is_some()
        || memchr::memmem::find(bytes, b"<<").is_some()
        || directive
        || marker(bytes)
        || marked(b"\n---")
        || marked(b"\n...")
    {
        return Vec::new();
    }
    let size = (text.len() / (jobs * 4)).max(min_piece);
    let mut out = Vec::new();
    let mut from = size;
    while from < text.len() {
        let Some(found) = memchr::memchr(b'\n', &bytes[from..]) else {
            break;
        };
        let line = from + found + 1;
        let starts_key = bytes
            .get(line)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
        // The line above: content, not a comment or a blank line (when comments are kept).
        let above = &bytes[bytes[..line - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)..line - 1];
        let content_above = above.trim_ascii().first().is_some_and(|&b| b != b'#');
        if starts_key && (content_above || !styles) && text.len() - line >= min_piece / 2 {
            out.push(line);
            from = line + size;
        } else {
            from = line;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Threads;

    /// Small pieces, so short texts are cut (the tests run unoptimised).
    const PIECE: usize = 4 << 10;

    fn doc(keys: usize) -> String {
        let mut text = String::from("# a big file\n");
        for i in 0..keys {
            text.push_str(&format!(
                "key_{i}:\n  name: n{i} # note\n  text: |\n    line\n    key_x: not a cut\n  list:\n  - 1\n  - \"two\n    lines\"\n"
            ));
        }
        text
    }

    fn one_and_split(text: &str, styles: bool) -> (Option<Node>, Option<Node>, Vec<usize>) {
        let opts = LoadOptions {
            threads: Threads {
                jobs: 4,
                ..Threads::default()
            },
            styles: styles.then(StyleSink::default),
            ..LoadOptions::default()
        };
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        let one = load_single_pass(text, 1000, &opts, &mut w1).expect("loads");
        let split = match load_in_pieces(&mut Whole::Here(text), 1000, &opts, &mut w2, PIECE) {
            Some(root) => Some(root),
            None => load_single_pass(text, 1000, &opts, &mut w2).expect("loads"),
        };
        (one, split, cuts(text, 4, PIECE, styles))
    }

    #[test]
    fn a_split_load_gives_the_mapping_and_spans_of_one_pass() {
        let text = doc(1_000);
        for styles in [false, true] {
            let (one, split, cuts) = one_and_split(&text, styles);
            assert!(cuts.len() > 4, "{} cuts", cuts.len());
            for c in cuts {
                assert!(text[c..].starts_with("key_"), "cut at {c}");
            }
            let (one, split) = (one.expect("a document"), split.expect("a document"));
            assert_eq!(one, split);
            assert_eq!(one.span, split.span);
            let (Kind::Map(a), Kind::Map(b)) = (&one.kind, &split.kind) else {
                panic!("mappings");
            };
            for ((ka, va), (kb, vb)) in a.iter().zip(b.iter()) {
                assert_eq!((ka.span(), va.span), (kb.span(), vb.span));
            }
        }
    }

    #[test]
    fn doubtful_texts_are_not_cut() {
        let text = doc(1_000);
        for bad in [
            format!("{text}anchor: &a 1\n"),
            format!("{text}merged:\n  <<: {{x: 1}}\n"),
            format!("---\n{text}"),
            format!("{text}...\n"),
            format!("%YAML 1.1\n---\n{text}"),
            text.replace("\n", "\r\n").replacen("\r\n", "\r", 1),
        ] {
            assert!(cuts(&bad, 4, PIECE, false).is_empty());
        }
        // Comments kept: not below a comment or a blank line.
        let spaced = text.replace("\nkey_", "\n\n# about\nkey_");
        assert!(cuts(&spaced, 4, PIECE, true).is_empty());
        assert!(!cuts(&spaced, 4, PIECE, false).is_empty());
    }

    #[test]
    fn a_cut_inside_a_quoted_scalar_or_a_repeated_key_falls_back() {
        let quoted = doc(1_000).replace("lines\"", "lines\nkey_y: still the string\"");
        let (one, split, cuts) = one_and_split(&quoted, false);
        assert!(cuts.iter().any(|&c| quoted[c..].starts_with("key_y")));
        assert_eq!(one, split);
        // An indented root mapping: the single pass fails at the first key at column 0.
        let indented = format!("#c\n  k: v\n{}", doc(1_000));
        let opts = LoadOptions {
            threads: Threads {
                jobs: 4,
                ..Threads::default()
            },
            ..LoadOptions::default()
        };
        assert!(load_single_pass(&indented, 0, &opts, &mut Vec::new()).is_err());
        assert!(load_in_pieces(
            &mut Whole::Here(&indented),
            0,
            &opts,
            &mut Vec::new(),
            PIECE
        )
        .is_none());
        // A flow mapping or an empty one first: the single pass fails after it (fuzz).
        for first in [" {}\n", "{\na: 1}\n"] {
            let flow = format!("{first}{}", doc(1_000));
            assert!(load_single_pass(&flow, 0, &opts, &mut Vec::new()).is_err());
            assert!(
                load_in_pieces(&mut Whole::Here(&flow), 0, &opts, &mut Vec::new(), PIECE).is_none()
            );
        }
        let repeated = format!("{}key_0: again\n", doc(1_000));
        let (one, split, _) = one_and_split(&repeated, false);
        assert_eq!(one, split);
    }
}
