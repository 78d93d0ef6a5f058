//! One long YAML stream (a Deckhand site, a multi-document file) loaded on several threads
//! (issue 19); a stream of one document with no `---` line goes to `split_map.rs`. PyYAML ends whatever is open at a line that starts with `---` followed by a
//! blank or the end of the text — a block scalar, a plain scalar and a block collection end
//! there, and inside a quoted scalar or a flow collection it is an error — so such a line
//! always starts a new document. The stream is cut at such lines into pieces of similar size,
//! each piece is loaded as a stream of its own (spans shifted to the piece's offset), and the
//! documents are joined in order.
//!
//! The result must be the one a single pass gives, so any doubt falls back to that pass: a
//! piece that fails (its error could read differently with the text before it), aliases over
//! the stream's budget in total, a cut after a directive line (`%YAML` / `%TAG` belong to the
//! document after them).

use super::whole::Whole;
use super::{load_counted, LoadOptions};
use crate::error::{Result, Warning};
use crate::par::Threads;
use crate::value::{Node, SourceId};

/// `load_stream`, on `opts.threads.jobs` threads when the text is long enough to cut.
pub(super) fn load_stream_split(
    whole: Whole<'_>,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    // The smallest piece worth a thread of its own.
    let min_piece = opts.threads.min_piece();
    load_in_pieces(whole, source, opts, warnings, min_piece)
}

fn load_in_pieces(
    mut whole: Whole<'_>,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
    min_piece: usize,
) -> Result<Vec<Node>> {
    let jobs = crate::par::jobs_here(opts.threads.jobs);
    let cuts = whole.cut_for(jobs).map_or_else(Vec::new, |for_jobs| {
        cuts(whole.text(), for_jobs, min_piece, opts.styles.is_some())
    });
    // More document starts than the limit allows: one pass finds where the limit is passed
    // (pieces would only be loaded to be loaded again).
    let too_many = |text: &str| {
        let starts = memchr::memmem::find_iter(text.as_bytes(), b"\n---").count();
        starts >= opts.limits.max_documents
    };
    if cuts.is_empty() || too_many(whole.text()) {
        // One document (no `---` line to cut at) may be cut at its top-level keys.
        if let Some(root) =
            super::split_map::load_in_pieces(&mut whole, source, opts, warnings, min_piece)
        {
            return Ok(vec![root]);
        }
        return load_counted(&whole.whole(source)?, source, opts, warnings).map(|(docs, _)| docs);
    }
    let loaded = in_pieces(&mut whole, cuts, source, jobs, |piece, id, _| {
        let mut warned = Vec::new();
        (load_counted(piece, id, opts, &mut warned), warned)
    });
    let (mut docs, mut warned, mut expanded) = (Vec::new(), Vec::new(), 0usize);
    for (result, w) in loaded {
        let Ok((d, aliased)) = result else {
            return load_counted(&whole.whole(source)?, source, opts, warnings)
                .map(|(docs, _)| docs);
        };
        docs.extend(d);
        warned.extend(w);
        expanded = expanded.saturating_add(aliased);
    }
    if expanded > opts.limits.alias_budget || docs.len() > opts.limits.max_documents {
        drop(docs);
        return load_counted(&whole.whole(source)?, source, opts, warnings).map(|(docs, _)| docs);
    }
    warnings.extend(warned);
    Ok(docs)
}

/// `load(piece, id, at)` for each piece of the text cut at `cuts` (`id`: the piece's source
/// id, so its spans are the whole text's; `at`: its offset), on up to `jobs` threads; the
/// results in the order of the pieces. A text given back (`Whole::Spend`) is loaded from its
/// last piece, `jobs` pieces at a time, and cut short below each group once it is loaded: its
/// memory goes back as it loads, without a copy.
pub(super) fn in_pieces<R: Send>(
    whole: &mut Whole<'_>,
    cuts: Vec<usize>,
    source: SourceId,
    jobs: usize,
    load: impl Fn(&str, SourceId, usize) -> R + Sync,
) -> Vec<R> {
    let len = whole.len();
    let one = |(at, piece): (usize, &str)| {
        let id = u32::try_from(at).map_or(u32::MAX, |at| source.saturating_add(at));
        load(piece, id, at)
    };
    let starts: Vec<usize> = [0].into_iter().chain(cuts).collect();
    let size = |(_, piece): &(usize, &str)| piece.len();
    let text = match whole {
        Whole::Here(text) => {
            return crate::par::map_ordered(
                pieces(text, &starts, len),
                Threads::for_pieces(jobs),
                size,
                one,
            );
        }
        Whole::Spend(text, _) => text,
        Whole::Spent(..) => return Vec::new(),
    };
    let mut groups = Vec::new();
    let mut end = len;
    for group in starts.rchunks(jobs.max(1)) {
        groups.push(crate::par::map_ordered(
            pieces(text, group, end),
            Threads::for_pieces(jobs),
            size,
            one,
        ));
        end = group[0];
        text.truncate(end);
        text.shrink_to_fit();
    }
    if let Whole::Spend(_, again) = whole {
        *whole = Whole::Spent(len, again);
    }
    groups.into_iter().rev().flatten().collect()
}

/// The pieces of `text` that start at `starts` (the last ends at `end`), with their offsets.
fn pieces<'t>(text: &'t str, starts: &[usize], end: usize) -> Vec<(usize, &'t str)> {
    let ends = starts.iter().skip(1).copied().chain([end]);
    starts
        .iter()
        .zip(ends)
        .map(|(&a, b)| (a, &text[a..b]))
        .collect()
}

/// Where to cut `text` (byte offsets of `---` lines), about `4 * jobs` pieces of at least
/// `min_piece` bytes; empty when the text is too short to be worth it.
pub(super) fn cuts(text: &str, jobs: usize, min_piece: usize, styles: bool) -> Vec<usize> {
    let size = (text.len() / (jobs * 4)).max(min_piece);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = size;
    while from < text.len() {
        // Bytes, not `str`: `from` may fall inside a character.
        let Some(found) = memchr::memmem::find(&bytes[from..], b"\n---") else {
            break;
        };
        let line = from + found + 1;
        let after = bytes.get(line + 3);
        let starts_document = matches!(after, None | Some(b' ' | b'\t' | b'\r' | b'\n'));
        // When comments are kept, the comment lines right above the marker go with the
        // document after it (as `record.rs` keeps them): the piece starts with them. (The
        // document before then ends at its last line instead of the marker, so its root's span
        // ends there; without styles the cut stays at the marker, and every span is the one
        // pass's.)
        let cut = if styles {
            super::record::comments_above(text, line)
        } else {
            line
        };
        let before = &text[..cut.saturating_sub(1)];
        let previous = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
        if starts_document
            && cut > 0
            && !previous.starts_with('%')
            && text.len() - line >= min_piece / 2
        {
            out.push(cut);
            from = line + size;
        } else {
            from = line + 3;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{Limits, Threads};
    use crate::value::{Reload, Span};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Small pieces, so short texts are cut (the tests run unoptimised).
    const PIECE: usize = 4 << 10;

    fn load_stream_split(
        text: &str,
        source: SourceId,
        opts: &LoadOptions,
        warnings: &mut Vec<Warning>,
    ) -> Result<Vec<Node>> {
        load_in_pieces(Whole::Here(text), source, opts, warnings, PIECE)
    }

    fn stream(docs: usize) -> String {
        let mut text = String::new();
        for i in 0..docs {
            text.push_str(&format!(
                "---\nschema: a/B/v1\nmetadata: {{name: d{i}}}\ndata:\n  text: |\n    line\n    --- not a cut\n  list: [1, 2]\n"
            ));
        }
        text
    }

    #[test]
    fn cuts_fall_on_document_starts_only() {
        let text = stream(1_000);
        let found = cuts(&text, 4, PIECE, false);
        assert!(found.len() > 4, "{} cuts", found.len());
        for c in found {
            assert!(text[c..].starts_with("---\nschema"), "cut at {c}");
        }
        assert!(
            cuts(&stream(10), 4, PIECE, false).is_empty(),
            "a short stream is not cut"
        );
        let directive = "%YAML 1.1\n---\na: 1\n".repeat(2_000);
        for c in cuts(&directive, 4, PIECE, false) {
            assert!(
                !directive[..c].ends_with("%YAML 1.1\n"),
                "cut after a directive"
            );
        }
    }

    #[test]
    fn a_cut_is_searched_from_inside_a_character() {
        // The first search starts at byte `size`, here inside 'é' (fuzz finding).
        let text = format!("\u{feff}é{}", "\n---\nk: v".repeat(4));
        for size in 0..8 {
            for c in cuts(&text, 1, size, false) {
                assert!(text[c..].starts_with("---"), "{c}");
            }
        }
    }

    #[test]
    fn a_split_load_gives_the_documents_and_spans_of_one_pass() {
        let text = stream(1_000);
        let opts = LoadOptions {
            threads: Threads {
                jobs: 4,
                ..Threads::default()
            },
            ..LoadOptions::default()
        };
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        let one = load_counted(&text, 1000, &opts, &mut w1).expect("loads").0;
        let split = load_stream_split(&text, 1000, &opts, &mut w2).expect("loads");
        assert_eq!(one.len(), split.len());
        for (a, b) in one.iter().zip(&split) {
            assert_eq!(a, b);
            assert_eq!(a.span, b.span);
            let (da, db) = (a.get("data").expect("data"), b.get("data").expect("data"));
            assert_eq!(da.span, db.span);
        }
    }

    /// The split load and one pass agree: the same documents, or the same error and position.
    fn same_as_one_pass(text: &str, opts: &LoadOptions) {
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        let one = load_counted(text, 7, opts, &mut w1).map(|(d, _)| d);
        let split = load_stream_split(text, 7, opts, &mut w2);
        match (one, split) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => {
                assert_eq!(a.message, b.message);
                assert_eq!(a.span, b.span);
            }
            (a, b) => panic!("one pass {:?}, split {:?}", a.is_ok(), b.is_ok()),
        }
        assert_eq!(w1.len(), w2.len());
    }

    #[test]
    fn a_broken_piece_reports_what_one_pass_reports() {
        let opts = LoadOptions {
            threads: Threads {
                jobs: 4,
                ..Threads::default()
            },
            ..LoadOptions::default()
        };
        let good = stream(1_000);
        let at = good.len() / 2;
        let line = at + good[at..].find("\n---").expect("a document start") + 1;
        for broken in [
            "---\nkey: 'open quote\n",
            "---\nflow: [a, b\n",
            "---\nkey: *undefined\n",
            "---\nkey: !!int nope\n",
            "---\n\tkey: tab\n",
        ] {
            let text = format!("{}{broken}{}", &good[..line], &good[line..]);
            same_as_one_pass(&text, &opts);
        }
        // A warning in a later piece (a duplicate key) is kept, in order.
        let text = format!("{}---\na: 1\na: 2\n{}", &good[..line], &good[line..]);
        same_as_one_pass(&text, &opts);
    }

    /// A text given back as it loads (`Whole::Spend`) gives what the same text lent gives —
    /// documents, spans, warnings, or the error and its position — on one thread or four;
    /// returns how often it was read again.
    fn same_when_given_back(text: &str, jobs: usize) -> usize {
        let opts = LoadOptions {
            threads: Threads {
                jobs,
                ..Threads::default()
            },
            styles: Some(crate::value::style::StyleSink::default()),
            ..LoadOptions::default()
        };
        let reads = Arc::new(AtomicUsize::new(0));
        let again = {
            let (reads, text) = (reads.clone(), text.to_string());
            Reload(Arc::new(move || {
                reads.fetch_add(1, Ordering::Relaxed);
                Some(text.clone())
            }))
        };
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        let lent = load_in_pieces(Whole::Here(text), 7, &opts, &mut w1, PIECE);
        let spent = Whole::Spend(text.to_string(), &again);
        let given = load_in_pieces(spent, 7, &opts, &mut w2, PIECE);
        match (lent, given) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                let spans = |d: &[Node]| d.iter().map(|n| n.span).collect::<Vec<_>>();
                assert_eq!(spans(&a), spans(&b));
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.message, b.message);
                assert_eq!(a.span, b.span);
            }
            (a, b) => panic!("lent {:?}, given back {:?}", a.is_ok(), b.is_ok()),
        }
        assert_eq!(w1.len(), w2.len());
        reads.load(Ordering::Relaxed)
    }

    #[test]
    fn a_text_given_back_as_it_loads_gives_what_the_text_lent_gives() {
        let good = stream(1_000);
        let mapping: String = (0..2_000)
            .map(|i| format!("key_{i}:\n  name: n{i} # note\n  list: [1, \"two\"]\n"))
            .collect();
        for jobs in [1, 4] {
            // Cut on one thread too, and never read again.
            assert_eq!(same_when_given_back(&good, jobs), 0);
            assert_eq!(same_when_given_back(&mapping, jobs), 0);
            // A broken piece: the single pass reads the text again for its message.
            let at = good.len() / 2;
            let line = at + good[at..].find("\n---").expect("a document start") + 1;
            let broken = format!("{}---\nkey: 'open\n{}", &good[..line], &good[line..]);
            assert_eq!(same_when_given_back(&broken, jobs), 1);
            // A key in two pieces of one mapping: read again for the single pass.
            assert_eq!(
                same_when_given_back(&format!("{mapping}key_0: x\n"), jobs),
                1
            );
        }
    }

    #[test]
    fn a_text_that_changed_before_it_is_read_again_is_an_error() {
        let good = stream(1_000);
        let at = good.len() / 2;
        let line = at + good[at..].find("\n---").expect("a document start") + 1;
        let broken = format!("{}---\nkey: 'open\n{}", &good[..line], &good[line..]);
        let gone = Reload(Arc::new(|| None));
        let opts = LoadOptions {
            threads: Threads {
                jobs: 2,
                ..Threads::default()
            },
            ..LoadOptions::default()
        };
        let spent = Whole::Spend(broken, &gone);
        let e = load_in_pieces(spent, 7, &opts, &mut Vec::new(), PIECE).expect_err("fails");
        assert!(e.message.contains("changed"), "{}", e.message);
        assert_eq!(e.span, Some(Span::new(7, 0, 0)));
    }

    #[test]
    fn the_alias_budget_counts_the_whole_stream() {
        // Every piece is under the budget; the stream is not.
        let doc = "---\nx: &a [1, 2, 3, 4, 5, 6, 7, 8]\ny: [*a, *a, *a, *a]\n";
        let text = doc.repeat(2_000);
        let opts = LoadOptions {
            threads: Threads {
                jobs: 4,
                ..Threads::default()
            },
            limits: Limits {
                alias_budget: 200_000,
                ..Limits::default()
            },
            ..LoadOptions::default()
        };
        let mut w = Vec::new();
        let (_, total) = load_counted(&text, 0, &opts, &mut w).expect("loads");
        let tight = LoadOptions {
            limits: Limits {
                alias_budget: total - 1,
                ..opts.limits
            },
            ..opts
        };
        same_as_one_pass(&text, &tight);
        assert!(load_stream_split(&text, 0, &tight, &mut w).is_err());
    }
}
