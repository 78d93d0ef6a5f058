//! Parallel work of one run (issue 19): the inputs of a run — files, MIME parts, data files —
//! are parsed independently of each other, so they are parsed on up to `jobs` threads, and
//! the results come back in the order of the inputs. Everything that depends on order (the
//! merge, warnings, which error is reported, `--explain`) then runs over that ordered result
//! exactly as the sequential run does, so output and messages do not depend on `jobs`.
//!
//! Why `std::thread::scope` and not a pool crate: a run does one parallel map per phase over
//! a few to a few thousand items, each item a parse of one text, and the items borrow the run's
//! settings. A scoped map with a shared counter (largest items first, so a big file is not
//! started last) does that with no dependency and no pool kept alive; with one job, or one
//! item, no thread is started at all (a one-file render is unchanged).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The number of jobs when the user gives none: the cores this process may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Below this much work in total (in `cost` units: bytes of text), starting a thread costs more
/// than it saves (a thread starts in ~0.1 ms; YAML parses at ~50 MB/s): the default of
/// `Threads::min_bytes`.
pub const SMALL: usize = 64 << 10;

/// How many of `count` items, each little work (Deckhand's documents read into `Doc`s), go in
/// one unit of a [`map_ordered`] on `jobs` threads: about eight units per thread, so that one
/// slow unit does not leave the other threads idle, and at least 64 items, below which a unit
/// costs more to hand over than its items take.
pub fn group_len(count: usize, jobs: usize) -> usize {
    (count / (jobs.max(1) * 8)).max(64)
}

/// The threads of a run (`--jobs`, set once by the CLI) and the least work worth another
/// thread: every `map_ordered` takes one, and every floor they imply is a method here.
#[derive(Clone, Copy, Debug)]
pub struct Threads {
    /// How many; 0 or 1: the calling thread alone.
    pub jobs: usize,
    /// Bytes of text below which parsing stays on one thread (`SMALL`; a stream is cut
    /// into pieces of at least four times this).
    pub min_bytes: usize,
}

/// Every floor the thread settings imply is here (issue 38): `map_ordered` keeps work
/// under `min_bytes` on the calling thread, the loader cuts a text into pieces of at least
/// `min_piece` and only a text `long_enough_to_cut`, and the input stage
/// (`frontend/parse.rs`, `reads_ahead`) reads ahead only when `parallel`.
impl Threads {
    /// Whether work may go to other threads (`--jobs` above 1): the input stage reads ahead
    /// only then.
    pub fn parallel(&self) -> bool {
        self.jobs > 1
    }

    /// The smallest piece of one text worth a thread of its own: four times `min_bytes`.
    pub fn min_piece(&self) -> usize {
        self.min_bytes.saturating_mul(4)
    }

    /// Whether a text of `len` bytes is long enough for the loader to cut (two pieces).
    pub fn long_enough_to_cut(&self, len: usize) -> bool {
        len >= self.min_piece().saturating_mul(2)
    }
}

impl Default for Threads {
    fn default() -> Self {
        Threads {
            jobs: 1,
            min_bytes: SMALL,
        }
    }
}

impl Threads {
    /// `jobs` threads for work already cut to be worth one each (no floor).
    pub fn for_pieces(jobs: usize) -> Threads {
        Threads { jobs, min_bytes: 0 }
    }
}

thread_local! {
    /// The threads work running on this thread may use: all of them (`usize::MAX`) outside a
    /// [`map_ordered`], its share of them inside one.
    static SHARE: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// How many of `jobs` threads work on this thread may start: inside a [`map_ordered`] on
/// several threads, each item gets its share (W1's two big files parsed side by side are not
/// each cut into pieces for threads that are busy with the other file). Only speed depends on
/// it, never a result.
pub fn jobs_here(jobs: usize) -> usize {
    jobs.min(SHARE.with(Cell::get)).max(1)
}

/// `items.map(work)` on up to `jobs` threads (the calling thread is one of them), results in
/// the order of `items`. `cost` (the item's size in bytes) orders the work, largest first; work
/// under `threads.min_bytes` in all stays on the calling thread. Neither changes the result. A panic in
/// `work` is passed on to the caller.
pub fn map_ordered<T, R, C, F>(items: Vec<T>, threads: Threads, cost: C, work: F) -> Vec<R>
where
    T: Send,
    R: Send,
    C: Fn(&T) -> usize,
    F: Fn(T) -> R + Sync,
{
    let Threads {
        jobs,
        min_bytes: min_total,
    } = threads;
    let n = items.len();
    let threads = jobs.min(n);
    if threads <= 1 {
        return items.into_iter().map(work).collect();
    }
    // Each item's cost asked once (it may ask the file system: a sort's many comparisons
    // made 22 `stat` calls per file of W2's 500).
    let costs: Vec<usize> = items.iter().map(cost).collect();
    if costs.iter().sum::<usize>() < min_total {
        return items.into_iter().map(work).collect();
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(costs[i]));
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let share = jobs_here(jobs) / threads;
    let worker = || {
        let outer = SHARE.with(|s| s.replace(share));
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let item = slots[i]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(item) = item {
                done.push((i, work(item)));
            }
        }
        SHARE.with(|s| s.set(outer));
        done
    };
    let mut results: Vec<Option<R>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(worker)).collect();
        let mut finished = vec![worker()];
        for h in helpers {
            match h.join() {
                Ok(done) => finished.push(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        for (i, r) in finished.into_iter().flatten() {
            results[i] = Some(r);
        }
    });
    // Every index was taken by exactly one worker, and every worker returned.
    results.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::{map_ordered, Threads, SMALL};

    #[test]
    fn results_keep_the_order_of_the_items_whatever_the_jobs() {
        let items: Vec<usize> = (0..200).collect();
        let expected: Vec<usize> = items.iter().map(|i| i * i).collect();
        for jobs in [0, 1, 2, 3, 8, 500] {
            // Costs in an order unrelated to the items' order.
            let got = map_ordered(
                items.clone(),
                Threads::for_pieces(jobs),
                |i| (i * 7919) % 211,
                |i| i * i,
            );
            assert_eq!(got, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn each_cost_is_asked_once() {
        let asked = std::cell::Cell::new(0);
        let cost = |i: &usize| {
            asked.set(asked.get() + 1);
            (i * 7919) % 211
        };
        let got = map_ordered((0..500).collect(), Threads::for_pieces(2), cost, |i| i + 1);
        assert_eq!(got, (1..=500).collect::<Vec<usize>>());
        assert_eq!(asked.get(), 500);
    }

    #[test]
    fn work_runs_on_several_threads_when_asked() {
        let ids = map_ordered(
            (0..64).collect::<Vec<u32>>(),
            Threads::for_pieces(4),
            |_| 1,
            |_| {
                std::thread::sleep(std::time::Duration::from_millis(2));
                std::thread::current().id()
            },
        );
        let mut distinct = ids.clone();
        distinct.sort_by_key(|id| format!("{id:?}"));
        distinct.dedup();
        assert!(distinct.len() > 1, "all 64 items ran on one thread");
    }

    #[test]
    fn small_work_stays_on_the_calling_thread() {
        let me = std::thread::current().id();
        let ids = map_ordered(
            (0..64).collect::<Vec<u32>>(),
            Threads {
                jobs: 4,
                min_bytes: SMALL,
            },
            |_| 100,
            |_| std::thread::current().id(),
        );
        assert!(ids.iter().all(|id| *id == me));
    }

    #[test]
    #[should_panic(expected = "item 5")]
    fn a_panic_in_the_work_reaches_the_caller() {
        map_ordered(
            (0..10).collect::<Vec<u32>>(),
            Threads::for_pieces(3),
            |_| 1,
            |i| {
                assert!(i != 5, "item 5");
                i
            },
        );
    }
}
