//! Parsing a run's inputs in parallel (issue 19). Adding an input to the source map is done in
//! order (it takes the next range of the shared offset space); parsing its text depends on
//! nothing but the text, so the texts are parsed on `Settings::jobs` threads; the results come
//! back in input order and the front-end then goes through them exactly as its sequential loop
//! did — the first error it meets, the warnings in their order and the merge do not depend on
//! the number of jobs.

use super::{add_text_input, Input, Settings};
use crate::error::{Error, Result, Warning};
use crate::load::Text;
use crate::value::{SourceId, SourceMap};

/// One input, parsed (or its parse error).
pub struct Parsed<T> {
    pub id: SourceId,
    pub value: Result<T>,
    /// What the loader warned about while reading it, in order (also before an error).
    pub warnings: Vec<Warning>,
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
    let mut work = Vec::with_capacity(inputs.len());
    let mut stop = None;
    for input in inputs {
        let name = input.name.clone();
        match add_text_input(input, sources, settings) {
            Ok(id) => {
                let keep = settings.explain || !sources.releasable(id);
                let again = if keep { None } else { sources.reload_of(id) };
                work.push((name, id, Text::new(sources.take_text(id), again), keep));
            }
            Err(e) => {
                stop = Some(e);
                break;
            }
        }
    }
    let one = |(name, id, mut text, keep): (String, SourceId, Text, bool)| {
        let mut warnings = Vec::new();
        let value = parse(&name, &mut text, id, &mut warnings);
        let text = (keep || value.is_err()).then(|| text.into_kept()).flatten();
        (id, text, value, warnings)
    };
    // A text the loader cuts into pieces on every thread is parsed alone, with every thread
    // on it, when there are fewer such texts than threads (one big file): parsed side by side
    // they would leave a thread idle. Several big texts are parsed side by side, which is
    // faster (each whole on one thread, no pieces to join; measured on W1: 7 % faster) but
    // holds their texts beside their trees (W1: 142 MiB instead of 124).
    let load = &settings.load;
    // Long enough for the loader to cut (`load::yaml::splits`: two pieces of 4 × `Threads::min_bytes`).
    let long = |text: &Text| text.as_str().len() >= load.threads.min_bytes.saturating_mul(8);
    let few = work.iter().filter(|(_, _, text, _)| long(text)).count() < load.threads.jobs;
    let alone: Vec<bool> = work
        .iter()
        .map(|(name, _, text, _)| {
            few && long(text)
                && !crate::load::is_json_name(name)
                && crate::load::yaml::splits(text.as_str(), load)
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
        settings.load.par(),
        |(_, (_, _, text, _))| text.as_str().len(),
        |(i, item)| (i, one(item)),
    );
    done.extend(by_itself.into_iter().map(|(i, item)| (i, one(item))));
    done.sort_by_key(|&(i, _)| i);
    let done = done.into_iter().map(|(_, d)| d);
    let mut out = Vec::with_capacity(done.len() + 1);
    for (id, text, value, warnings) in done {
        if let Some(text) = text {
            sources.restore_text(id, text);
        }
        out.push(Ok(Parsed {
            id,
            value,
            warnings,
        }));
    }
    out.extend(stop.map(Err));
    out
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
