//! The text a long YAML input is loaded from in pieces (`split.rs`, `split_map.rs`): lent by
//! the run, or taken over and given back as the pieces load, so that a long file's text is
//! not held beside its whole tree (issue 19: W1's two 20 MB texts were a third of its peak).

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Reload, SourceId, Span};
use std::borrow::Cow;

/// The text of a stream being loaded: borrowed from the run (`Here`), or taken over to be
/// given back as it loads (`Spend`): once cut, its pieces are loaded from the last and the
/// text is cut short below them as they are built (`split::in_pieces`), until nothing is
/// left (`Spent`); a fallback single pass then reads it again. A text taken over is cut even
/// on one thread.
pub(super) enum Whole<'a> {
    Here(&'a str),
    Spend(String, &'a Reload),
    Spent(usize, &'a Reload),
}

impl<'a> Whole<'a> {
    /// The text, before it is cut.
    pub(super) fn text(&self) -> &str {
        match self {
            Whole::Here(t) => t,
            Whole::Spend(t, _) => t,
            Whole::Spent(..) => "",
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Whole::Here(t) => t.len(),
            Whole::Spend(t, _) => t.len(),
            Whole::Spent(len, _) => *len,
        }
    }

    /// The threads to size pieces for (`None`: not cut): a text given back is cut even when
    /// it is loaded on one thread.
    pub(super) fn cut_for(&self, jobs: usize) -> Option<usize> {
        match self {
            Whole::Here(_) => (jobs > 1).then_some(jobs),
            _ => Some(jobs.max(2)),
        }
    }

    /// The whole text, for a single pass: read again once given back (an error if the file
    /// is no longer the one that was read).
    pub(super) fn whole(&self, source: SourceId) -> Result<Cow<'_, str>> {
        match self {
            Whole::Here(t) => Ok(Cow::Borrowed(t)),
            Whole::Spend(t, _) => Ok(Cow::Borrowed(t)),
            Whole::Spent(len, again) => again.read(*len).map(Cow::Owned).ok_or_else(|| {
                Error::new(ErrorKind::Parse, "the file changed while strata read it")
                    .at(Span::new(source, 0, 0))
                    .hint("run strata again once the file stays as it is")
            }),
        }
    }
}
