//! The paths nearly every document uses — `$`, single names and single indices joined by
//! `.` (`.values.conf`, `.a[0].b`) — found and written straight down the data, without
//! jsonpath-ng's datums and contexts: such a path matches at most once, and `$` in it goes
//! back to the top. The answers are `find`'s and `update`'s for the same path (they share
//! `index_hit` and the field and index updates); only the allocations differ.

use super::find::{index_hit, Hit};
use super::place::get;
use super::update::{on_value, Target, Upd};
use super::{Expr, Loc, PathError};
use crate::value::{Key, Kind, Node};

/// One step of a simple path.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    Root,
    Field(String),
    Index(i64, String),
}

/// The steps of `e` when it is a simple path.
pub(super) fn steps(e: &Expr) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    flatten(e, &mut out).then_some(out)
}

fn flatten(e: &Expr, out: &mut Vec<Step>) -> bool {
    match e {
        Expr::Root => out.push(Step::Root),
        Expr::Fields(n) if n.len() == 1 && n[0] != "*" => out.push(Step::Field(n[0].clone())),
        Expr::Index(i) if i.len() == 1 => out.push(Step::Index(i[0].value, i[0].text.clone())),
        Expr::Child(l, r) => return flatten(l, out) && flatten(r, out),
        _ => return false,
    }
    true
}

/// Where the match of a simple path is.
pub(super) enum Place<'a> {
    At(&'a Node, Vec<Loc>),
    Made(Node),
}

/// The one match of `steps` in `data` (`None`: no match).
pub(super) fn walk<'a>(steps: &[Step], data: &'a Node) -> Result<Option<Place<'a>>, PathError> {
    let mut cur = Place::At(data, Vec::new());
    for step in steps {
        let down = |n: &'a Node, at: &[Loc], loc: Loc| {
            get(n, &[loc]).map(|c| {
                let mut at = at.to_vec();
                at.push(loc);
                Place::At(c, at)
            })
        };
        let next = match (&cur, step) {
            (_, Step::Root) => Some(Place::At(data, Vec::new())),
            (Place::At(n, at), Step::Field(f)) => match &n.kind {
                Kind::Map(m) => m
                    .get_index_of(&Key::str(f))
                    .and_then(|i| down(n, at, Loc::Entry(i))),
                _ => None,
            },
            (Place::Made(_), Step::Field(_)) => None,
            (Place::At(n, at), Step::Index(i, text)) => match index_hit(n, *i, text)? {
                None => None,
                Some(Hit::Made(m)) => Some(Place::Made(m)),
                Some(Hit::At(loc)) => down(n, at, loc),
            },
            // A made value (a character, a byte) has no places inside.
            (Place::Made(n), Step::Index(i, text)) => match index_hit(n, *i, text)? {
                Some(Hit::Made(m)) => Some(Place::Made(m)),
                _ => None,
            },
        };
        match next {
            Some(p) => cur = p,
            None => return Ok(None),
        }
    }
    Ok(Some(cur))
}

/// `update` of a simple path of more than `$`: the last step written in the match of the
/// ones before it.
pub(super) fn update(steps: &[Step], data: &mut Node, u: &mut Upd) -> Result<(), PathError> {
    let Some((last, init)) = steps.split_last() else {
        return Ok(());
    };
    let target = match walk(init, data)? {
        None => return Ok(()),
        Some(Place::At(_, at)) => Target::Real(at),
        Some(Place::Made(n)) => Target::Scratch(n),
    };
    match last {
        Step::Root => Ok(()),
        Step::Field(f) => {
            let names = [Key::str(f)];
            on_value(data, &target, u, |node, u| {
                super::update::fields_update(node, &names, &mut u.w)
            })
        }
        Step::Index(i, text) => on_value(data, &target, u, |node, u| {
            super::update::index_update(node, *i, text, &mut u.w)
        }),
    }
}
