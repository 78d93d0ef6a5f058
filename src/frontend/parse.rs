//! The input stage (issues 19, 38): how a run's inputs become trees, for every front-end. It
//! owns
//! - the decision whether reading ahead is worth it (`reads_ahead`: only with threads);
//! - parsing texts on the run's threads (`load::Threads`, `--jobs`) with the results in input
//!   order: inputs not yet in the source map all at once (`parse_inputs`), texts already in it
//!   one at a time for a front-end's loop, a batch ahead bounded by bytes and count (`Ahead`);
//!   a text the loader cuts into pieces is parsed alone, with every thread on it, when there
//!   are fewer such texts than threads;
//! - text release: without `--explain` a text is dropped as soon as its values are built, by
//!   the thread that parsed it, when it can be read again (`built_from` is the same rule for a
//!   text a front-end parses itself).
//!
//! A front-end says what to load (which inputs or sources, and the parse of one text); sizes
//! are the texts' lengths. It starts no thread, picks no batch and releases no text of these.
//! Adding an input to the source map is done in order (it takes the next range of the shared
//! offset space); parsing a text depends on nothing but the text, so the front-end then goes
//! through the results exactly as a sequential loop does — the first error it meets, the
//! warnings in their order and the merge do not depend on the number of jobs.

use super::{add_text_input, Input, Settings};
use crate::error::{Error, Result, Warning};
use crate::load::Text;
use crate::value::{SourceId, SourceMap};
use std::collections::VecDeque;

/// One input, parsed (or its parse error).
pub struct Parsed<T> {
    pub id: SourceId,
    pub value: Result<T>,
    /// What the loader warned about while reading it, in order (also before an error).
    pub warnings: Vec<Warning>,
}

/// Whether inputs are read ahead of the loop that uses them: `Ahead` parses a batch at a time
/// only then, and a front-end that finds its own files (Hiera's levels, an Ardana model) reads
/// them all first only then. With one thread reading ahead gains nothing, and a file the loop
/// never reaches would be read.
pub(super) fn reads_ahead(settings: &Settings) -> bool {
    settings.load.threads.parallel()
}

/// Adds every input to the source map (as `add_text_input`, in order) and parses each text with
/// `parse(name, text, id, warnings)` on up to `--jobs` threads. Results are in input
/// order. An input that cannot be added (over the size limit, not text) ends the list with its
/// error (`Err`): the inputs after it are not parsed, as in a sequential run that stops there.
///
/// Without `--explain` a text is released as soon as its values are built (`built_from`), by
/// the thread that parsed it; a text that cannot be read again (stdin, a derived text) or whose
/// parse failed is kept for the messages that quote it.
pub fn parse_inputs<T, F>(
    inputs: Vec<Input>,
    sources: &mut SourceMap,
    settings: &Settings,
    parse: F,
) -> Vec<Result<Parsed<T>>>
where
    T: Send,
    F: Fn(&str, &mut Text, SourceId, &mut Vec<Warning>) -> Result<T> + Sync,
{
    let mut ids = Vec::with_capacity(inputs.len());
    let mut stop = None;
    for input in inputs {
        match add_text_input(input, sources, settings) {
            Ok(id) => ids.push(id),
            Err(e) => {
                stop = Some(e);
                break;
            }
        }
    }
    let mut out: Vec<_> = parse_sources(&ids, sources, settings, &parse)
        .into_iter()
        .map(Ok)
        .collect();
    out.extend(stop.map(Err));
    out
}

/// Texts already in the source map, parsed ahead of a front-end's loop that takes them one
/// at a time, in order (cloud-init's parts: a part parses the same whatever was merged before
/// it). With threads (`reads_ahead`) the next texts are parsed a batch at a time: at most
/// `BATCH_BYTES` of text before the last one and `BATCH_ITEMS` texts, so the trees waiting for
/// their turn stay small next to the result. With one thread a text is parsed when taken.
pub(super) struct Ahead<T> {
    ids: Vec<SourceId>,
    /// The first text not yet parsed; `batch` holds the parses before it not yet taken.
    next: usize,
    batch: VecDeque<Parsed<T>>,
}

/// A batch of `Ahead` takes no more text once it holds this many bytes.
const BATCH_BYTES: usize = 4 << 20;
/// The most texts in a batch of `Ahead`.
const BATCH_ITEMS: usize = 256;

impl<T: Send> Ahead<T> {
    /// The texts `ids`, in the order the loop takes them.
    pub(super) fn new(ids: Vec<SourceId>) -> Ahead<T> {
        Ahead {
            ids,
            next: 0,
            batch: VecDeque::new(),
        }
    }

    /// The next text's parse, `parse` as for `parse_inputs` (`None` once all were taken).
    pub(super) fn take<F>(
        &mut self,
        sources: &mut SourceMap,
        settings: &Settings,
        parse: F,
    ) -> Option<Parsed<T>>
    where
        F: Fn(&str, &mut Text, SourceId, &mut Vec<Warning>) -> Result<T> + Sync,
    {
        if self.batch.is_empty() {
            let rest = self.ids.get(self.next..).unwrap_or_default();
            let len = |id: &SourceId| sources.text(*id).len();
            let n = batch_len(rest, len, reads_ahead(settings));
            let batch = rest.get(..n).unwrap_or_default();
            self.batch = parse_sources(batch, sources, settings, &parse).into();
            self.next += n;
        }
        self.batch.pop_front()
    }
}

/// How many of `items` (each `len` bytes) the next batch holds: the first alone without
/// threads (`ahead` false); else while less than `BATCH_BYTES` came before, at most
/// `BATCH_ITEMS`.
fn batch_len<I>(items: &[I], len: impl Fn(&I) -> usize, ahead: bool) -> usize {
    if !ahead {
        return items.len().min(1);
    }
    let mut bytes = 0usize;
    items
        .iter()
        .take_while(|item| {
            let fits = bytes < BATCH_BYTES;
            bytes = bytes.saturating_add(len(item));
            fits
        })
        .take(BATCH_ITEMS)
        .count()
}

/// A text to parse: its name, its source, the text taken out of the map (with how to read it
/// again when a loader may take it over) and whether it goes back to the map once parsed.
struct Work {
    name: String,
    id: SourceId,
    text: Text,
    keep: bool,
}

/// Parses the texts of `ids` on up to `--jobs` threads, in order. Each text is taken out of
/// the map to be parsed away from it and put back only if it is kept: with `--explain`, when
/// it cannot be read again, or when its parse failed (the messages quote it).
fn parse_sources<T, F>(
    ids: &[SourceId],
    sources: &mut SourceMap,
    settings: &Settings,
    parse: &F,
) -> Vec<Parsed<T>>
where
    T: Send,
    F: Fn(&str, &mut Text, SourceId, &mut Vec<Warning>) -> Result<T> + Sync,
{
    let work: Vec<Work> = ids
        .iter()
        .map(|&id| {
            let keep = settings.explain || !sources.releasable(id);
            let again = if keep { None } else { sources.reload_of(id) };
            Work {
                name: sources.name(id).to_string(),
                id,
                text: Text::new(sources.take_text(id), again),
                keep,
            }
        })
        .collect();
    let one = |mut w: Work| {
        let mut warnings = Vec::new();
        let value = parse(&w.name, &mut w.text, w.id, &mut warnings);
        let text = (w.keep || value.is_err())
            .then(|| w.text.into_kept())
            .flatten();
        (w.id, text, value, warnings)
    };
    // A text the loader cuts into pieces on every thread is parsed alone, with every thread
    // on it, when there are fewer such texts than threads (one big file): parsed side by side
    // they would leave a thread idle. Several big texts are parsed side by side, which is
    // faster (each whole on one thread, no pieces to join; measured on W1: 7 % faster) but
    // holds their texts beside their trees (W1: 142 MiB instead of 124).
    let load = &settings.load;
    let long = |w: &Work| load.threads.long_enough_to_cut(w.text.as_str().len());
    let few = work.iter().filter(|w| long(w)).count() < load.threads.jobs;
    let alone: Vec<bool> = work
        .iter()
        .map(|w| {
            few && long(w)
                && !crate::load::is_json_name(&w.name)
                && crate::load::yaml::splits(w.text.as_str(), load)
        })
        .collect();
    let mut together = Vec::new();
    let mut by_itself = Vec::new();
    for (i, item) in work.into_iter().enumerate() {
        if alone[i] {
            by_itself.push((i, item));
        } else {
            together.push((i, item));
        }
    }
    let mut done: Vec<_> = crate::par::map_ordered(
        together,
        load.threads,
        |(_, w)| w.text.as_str().len(),
        |(i, w)| (i, one(w)),
    );
    done.extend(by_itself.into_iter().map(|(i, w)| (i, one(w))));
    done.sort_by_key(|&(i, _)| i);
    done.into_iter()
        .map(|(_, (id, text, value, warnings))| {
            if let Some(text) = text {
                sources.restore_text(id, text);
            }
            Parsed {
                id,
                value,
                warnings,
            }
        })
        .collect()
}

/// Several inputs that do not parse are reported together (issue 16): the first error — the
/// one a run that stops at it gives — with each later one after it, then a count. `None` when
/// at most one input failed (the caller's loop reports it where it meets it). Every input is
/// parsed whatever `--jobs` says, so the report does not depend on it.
pub fn parse_failures<T>(parsed: &[Result<Parsed<T>>]) -> Option<Error> {
    let mut errors = parsed.iter().filter_map(|r| match r {
        Err(e) => Some(e),
        Ok(p) => p.value.as_ref().err(),
    });
    let first = errors.next()?;
    let rest: Vec<&Error> = errors.collect();
    if rest.is_empty() {
        return None;
    }
    let count = rest.len() + 1;
    let mut all = first.clone();
    for e in rest {
        all = all.also(e.clone());
    }
    Some(all.also(Error::new(
        first.kind,
        format!("{count} inputs have errors (each is shown above); nothing was rendered"),
    )))
}

#[cfg(test)]
mod tests {
    use super::{batch_len, BATCH_BYTES, BATCH_ITEMS};

    #[test]
    fn without_threads_a_batch_is_one_text() {
        assert_eq!(batch_len(&[10, 20, 30], |&n| n, false), 1);
        assert_eq!(batch_len::<usize>(&[], |&n| n, false), 0);
    }

    #[test]
    fn a_batch_ends_after_the_text_that_crosses_its_bytes() {
        let mb = 1 << 20;
        // 3 + 1 MiB reach the bound: the text that crosses it is the last.
        assert_eq!(batch_len(&[3 * mb, mb, mb, mb], |&n| n, true), 2);
        assert_eq!(batch_len(&[BATCH_BYTES * 2, 1], |&n| n, true), 1);
        assert_eq!(batch_len(&[usize::MAX, usize::MAX, 1], |&n| n, true), 1);
    }

    #[test]
    fn a_batch_holds_at_most_its_count_of_texts() {
        let small = vec![1usize; BATCH_ITEMS * 3];
        assert_eq!(batch_len(&small, |&n| n, true), BATCH_ITEMS);
        assert_eq!(batch_len(&small[..5], |&n| n, true), 5);
    }
}
