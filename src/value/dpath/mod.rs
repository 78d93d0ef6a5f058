//! `DPath`: a Deckhand path, read as Deckhand reads it — `jsonpath_ng.parse` (jsonpath-ng
//! 1.8, the non-extended grammar) after Deckhand's `_normalize_jsonpath` — with all of that
//! grammar: `$`, names (`.a`, `.'filter:authtoken'`, `.0`, `a,b`, `*`), indices (`[0]`,
//! `[-1]`, `[0,2]`), slices (`[1:3]`, `[::2]`, `[*]`), `..` (descendants), `|` (union),
//! `where` / `wherenot`, `` `this` ``, `` `parent` ``, parentheses, and `&`, which jsonpath-ng
//! parses but cannot evaluate. A path is parsed once into jsonpath-ng's tree (`parse`); reads
//! take its matches in jsonpath-ng's order (`find`: Deckhand's `jsonpath_parse` takes the
//! first), writes follow jsonpath-ng's `update` (`update`), and [`expand`] is Deckhand's
//! `_execute_data_expansion` (missing keys become `{}`, `name[i]` pads a list with `{}`),
//! text-based exactly like the original.
//!
//! Where jsonpath-ng or Deckhand would raise a Python exception, the operation returns a
//! [`PathError`] saying which and why; nothing here panics on any input.

mod expand;
mod find;
mod lex;
mod parse;
mod place;
mod simple;
#[cfg(test)]
mod tests;
mod update;

pub use expand::expand;
pub use lex::Num;
pub use place::{get, get_mut, pointer};

use super::Node;
use find::{find, none_attribute, Datum, Match};
use std::borrow::Cow;
use std::rc::Rc;
use update::{Target, Upd, Writer};

/// jsonpath-ng's path tree (`jsonpath_ng.jsonpath`), as its parser builds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `$`: the top (from inside a path, the top of what the search started in).
    Root,
    /// `` `this` ``.
    This,
    /// `` `parent` ``: the value a match was found in.
    Parent,
    /// Names (`a`, `'a b'`, `a,b`); one of them `*`: every key.
    Fields(Vec<String>),
    /// `[i]`, `[i, j]`.
    Index(Vec<Num>),
    /// `[start:end:step]`; `[*]` has none of the three.
    Slice(Option<Num>, Option<Num>, Option<Num>),
    /// `left.right`, and `left[...]`.
    Child(Box<Expr>, Box<Expr>),
    /// `left..right`.
    Descendants(Box<Expr>, Box<Expr>),
    /// `left|right`.
    Union(Box<Expr>, Box<Expr>),
    /// `left&right` (jsonpath-ng: `NotImplementedError`).
    Intersect(Box<Expr>, Box<Expr>),
    /// `left where right`.
    Where(Box<Expr>, Box<Expr>),
    /// `left wherenot right`.
    WhereNot(Box<Expr>, Box<Expr>),
}

/// A parsed Deckhand path.
#[derive(Clone, Debug, PartialEq)]
pub struct DPath {
    /// The text as parsed (after [`normalize`]).
    pub text: String,
    /// The parsed expression.
    pub expr: Expr,
    /// The steps of a simple path (`$`, single names and indices), found without datums.
    simple: Option<Vec<simple::Step>>,
}

/// Why a path failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathErrorKind {
    /// jsonpath-ng cannot parse the path (`JsonPathParserError`, `JsonPathLexerError`).
    Parse,
    /// A Python exception while evaluating it (`TypeError`, `KeyError`, ...).
    Python,
    /// jsonpath-ng's `NotImplementedError` (`&`; updating through `|` or `` `parent` ``),
    /// whose message is empty.
    NotImplemented,
    /// Something jsonpath-ng does that strata does not reproduce.
    Unsupported,
}

/// What jsonpath-ng or Deckhand would have raised, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// Which kind of failure (parse, Python exception, not implemented, unsupported).
    pub kind: PathErrorKind,
    /// The message, in the real system's words.
    pub message: String,
}

impl PathError {
    /// jsonpath-ng cannot parse the path (its exception `class` and `detail`).
    pub fn parse(class: &str, detail: String) -> PathError {
        PathError {
            kind: PathErrorKind::Parse,
            message: format!("jsonpath-ng cannot parse it ({class}: {detail})"),
        }
    }
    /// A Python exception `class` with `detail`.
    pub fn python(class: &str, detail: String) -> PathError {
        PathError {
            kind: PathErrorKind::Python,
            message: format!("{detail} ({class})"),
        }
    }
    /// A Python exception, its class already in the message.
    pub fn crash(message: String) -> PathError {
        PathError {
            kind: PathErrorKind::Python,
            message,
        }
    }
    /// Something jsonpath-ng leaves unimplemented.
    pub fn not_implemented(message: String) -> PathError {
        PathError {
            kind: PathErrorKind::NotImplemented,
            message,
        }
    }
    /// Something strata does not imitate.
    pub fn unsupported(message: String) -> PathError {
        PathError {
            kind: PathErrorKind::Unsupported,
            message,
        }
    }
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Deckhand's `_normalize_jsonpath`: `.` becomes `$`, `.x` becomes `$.x`; anything else is
/// kept (and parsed as a relative path when it has no `$`).
pub fn normalize(path: &str) -> Cow<'_, str> {
    if path == "." {
        Cow::Borrowed("$")
    } else if path.starts_with('.') {
        Cow::Owned(format!("${path}"))
    } else {
        Cow::Borrowed(path)
    }
}

/// A location inside a value: map entry index or list item index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// The map entry at this index.
    Entry(usize),
    /// The list item at this index.
    Item(usize),
}

/// What a write does to the whole data.
#[derive(Debug)]
pub enum Written {
    /// The data was changed in place (or not at all).
    InPlace,
    /// The path is `$`: the value replaces the data.
    Root(Node),
}

impl DPath {
    /// Parses a path as `jsonpath_ng.parse` does (blanks between tokens are ignored).
    pub fn parse(text: &str) -> Result<DPath, PathError> {
        let expr = parse::parse(text)?;
        Ok(DPath {
            text: text.to_string(),
            simple: simple::steps(&expr),
            expr,
        })
    }

    /// Whether the path is `$` alone (the whole data).
    pub fn is_root(&self) -> bool {
        self.expr == Expr::Root
    }

    /// Whether the path matches at most once: `$`, single names and single indices joined
    /// by `.` (no `*`, slice, `..`, `|`, `where` or `` `parent` ``).
    pub fn is_simple(&self) -> bool {
        fn simple(e: &Expr) -> bool {
            match e {
                Expr::Root | Expr::This => true,
                Expr::Fields(n) => n.len() == 1 && n[0] != "*",
                Expr::Index(i) => i.len() == 1,
                Expr::Child(l, r) => simple(l) && simple(r),
                _ => false,
            }
        }
        simple(&self.expr)
    }

    /// Whether the last step writes by index (an index or a slice): a list written there
    /// gives its items one by one.
    pub fn ends_in_index(&self) -> bool {
        fn last(e: &Expr) -> bool {
            match e {
                Expr::Index(_) | Expr::Slice(..) => true,
                Expr::Child(_, r) | Expr::Descendants(_, r) => last(r),
                _ => false,
            }
        }
        last(&self.expr)
    }

    /// Whether an update through this path can raise `NotImplementedError` (it has `|`, `&`
    /// or `` `parent` ``).
    pub fn may_not_update(&self) -> bool {
        fn any(e: &Expr) -> bool {
            match e {
                Expr::Parent | Expr::Union(..) | Expr::Intersect(..) => true,
                Expr::Child(l, r)
                | Expr::Descendants(l, r)
                | Expr::Where(l, r)
                | Expr::WhereNot(l, r) => any(l) || any(r),
                _ => false,
            }
        }
        any(&self.expr)
    }

    /// The number of steps (names, indices, ...) in the path.
    pub fn steps(&self) -> usize {
        fn count(e: &Expr) -> usize {
            match e {
                Expr::Child(l, r)
                | Expr::Descendants(l, r)
                | Expr::Union(l, r)
                | Expr::Intersect(l, r)
                | Expr::Where(l, r)
                | Expr::WhereNot(l, r) => count(l) + count(r),
                _ => 1,
            }
        }
        count(&self.expr)
    }

    /// Every match, in jsonpath-ng's order.
    fn find_all<'a>(&self, data: &'a Node) -> Result<Vec<Match<'a>>, PathError> {
        find(&self.expr, &Some(Rc::new(Datum::top(data, Vec::new()))))
    }

    /// The first match's value, as Deckhand's `jsonpath_parse` returns it (`None`: no
    /// match). It takes every match's value first, so a `` `parent` `` above the top anywhere
    /// is an `AttributeError`.
    pub fn first<'a>(&self, data: &'a Node) -> Result<Option<Cow<'a, Node>>, PathError> {
        if let Some(steps) = &self.simple {
            return Ok(simple::walk(steps, data)?.map(place_value));
        }
        let found = self.find_all(data)?;
        if found.iter().any(Option::is_none) {
            return Err(none_attribute("value"));
        }
        Ok(found.first().and_then(Option::as_ref).map(|d| value(d)))
    }

    /// The first match's value, as `jsonpath_replace` reads it (`path_to_change[0].value`).
    pub fn target<'a>(&self, data: &'a Node) -> Result<Option<Cow<'a, Node>>, PathError> {
        if let Some(steps) = &self.simple {
            return Ok(simple::walk(steps, data)?.map(place_value));
        }
        match self.find_all(data)?.into_iter().next() {
            None => Ok(None),
            Some(None) => Err(none_attribute("value")),
            Some(Some(d)) => Ok(Some(value(&d))),
        }
    }

    /// Where the first match is, when it is a value in the data (not a character of a
    /// string, a byte or a slice's wrapping list).
    pub fn first_location(&self, data: &Node) -> Result<Option<Vec<Loc>>, PathError> {
        if let Some(steps) = &self.simple {
            return Ok(match simple::walk(steps, data)? {
                Some(simple::Place::At(_, at)) => Some(at),
                _ => None,
            });
        }
        Ok(match self.find_all(data)?.into_iter().next() {
            Some(Some(d)) => match &d.val {
                find::Val::At(_, at) => Some(at.clone()),
                _ => None,
            },
            _ => None,
        })
    }

    /// Whether the path matches anything.
    pub fn matches(&self, data: &Node) -> Result<bool, PathError> {
        if let Some(steps) = &self.simple {
            return Ok(simple::walk(steps, data)?.is_some());
        }
        Ok(!self.find_all(data)?.is_empty())
    }

    /// jsonpath-ng's `update` of the whole data with `val`. Returns where each value went.
    pub fn update(
        &self,
        data: &mut Node,
        val: Node,
    ) -> Result<(Written, Vec<Vec<Loc>>), PathError> {
        if self.is_root() {
            return Ok((Written::Root(val), Vec::new()));
        }
        let mut u = Upd {
            w: Writer { val, taken: 0 },
            written: Vec::new(),
        };
        match &self.simple {
            Some(steps) => simple::update(steps, data, &mut u)?,
            None => update::update(&self.expr, data, &Target::Real(Vec::new()), &mut u)?,
        }
        Ok((Written::InPlace, u.written))
    }
}

fn place_value(p: simple::Place<'_>) -> Cow<'_, Node> {
    match p {
        simple::Place::At(n, _) => Cow::Borrowed(n),
        simple::Place::Made(m) => Cow::Owned(m),
    }
}

fn value<'a>(d: &Datum<'a>) -> Cow<'a, Node> {
    match &d.val {
        find::Val::At(n, _) => Cow::Borrowed(*n),
        _ => Cow::Owned(d.value()),
    }
}
