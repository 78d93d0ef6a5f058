//! One substitution destination as `utils.jsonpath_replace` writes it: the path found in the
//! document's data, created from its text when nothing matches (`_execute_data_expansion`),
//! then the value written at every match (jsonpath-ng's `update`), or `str(value)` spliced
//! with `re.sub` into the string at the first match (`dest.pattern`), or into every string
//! below it that holds the pattern's text (`recurse`). How a destination fails decides what
//! Deckhand reports: [`Fail`].

use super::pyre;
use super::Cx;
use crate::error::WarnKind;
use crate::merge::Outcome;
use crate::value::dpath::{self, DPath, Loc, PathError, PathErrorKind};
use crate::value::{Key, Kind, Node, Span};

/// How one destination failed.
pub(super) enum Fail {
    /// Deckhand's `UnknownSubstitutionError`; the reason is what strata found.
    Unknown(String),
    /// Deckhand renders this; strata does not reproduce it.
    Unsupported(String),
    /// jsonpath-ng's `NotImplementedError`, whose message is empty: `_substitute_one` reports
    /// only a non-empty one, so the substitution silently changes nothing.
    Silent(String),
}

impl From<String> for Fail {
    fn from(s: String) -> Fail {
        Fail::Unknown(s)
    }
}

impl From<&str> for Fail {
    fn from(s: &str) -> Fail {
        Fail::Unknown(s.to_string())
    }
}

impl From<PathError> for Fail {
    fn from(e: PathError) -> Fail {
        match e.kind {
            PathErrorKind::NotImplemented => Fail::Silent(e.message),
            PathErrorKind::Unsupported => Fail::Unsupported(e.message),
            PathErrorKind::Parse | PathErrorKind::Python => Fail::Unknown(e.message),
        }
    }
}

/// What a destination changed, for the trace: where, how, the value's span, what was there.
pub(super) type Steps = Vec<(Vec<Loc>, Outcome, Span, Option<Node>)>;

/// One destination as its `dest` mapping gives it.
pub(super) struct Dest<'n> {
    /// `dest.path`, parsed.
    pub path: DPath,
    /// `dest.path` normalized (`dpath::normalize`), as messages show it.
    pub norm: std::borrow::Cow<'n, str>,
    /// `dest.pattern` and `dest.recurse`, when truthy.
    pub pattern: Option<&'n Node>,
    pub recurse: Option<&'n Node>,
    /// Where the `dest` mapping is written.
    pub at: Span,
}

/// `jsonpath_replace` from its first `find`: creates the path when nothing matches, then
/// writes the value (or splices it into the string there, or into every string below with
/// `recurse`). Returns the new whole data when the path is `$`, and what changed where.
pub(super) fn write_dest(
    dest: &Dest<'_>,
    work: &mut Node,
    value: &Node,
    cx: &mut Cx<'_>,
) -> std::result::Result<(Option<Node>, Steps), Fail> {
    let Dest {
        path: p,
        norm,
        pattern,
        recurse,
        at,
    } = dest;
    let (pattern, recurse, at) = (*pattern, *recurse, *at);
    let existed = p.matches(work)?;
    if !existed {
        if !p.is_simple() {
            cx.warn.push(WarnKind::PathQuirk, format!("dest.path '{norm}' matches nothing: Deckhand creates the missing path from its text cut at each '.' (not as jsonpath), so it makes keys named after those pieces"), at);
        }
        dpath::expand(work, &p.text)?;
    }
    let Some(target) = p.target(work)?.map(std::borrow::Cow::into_owned) else {
        return Err(format!(
            "nothing is at '{norm}' even after creating it (IndexError: list index out of range)"
        )
        .into());
    };
    let mut steps: Steps = Vec::new();
    let root_value = if let Some(pattern) = pattern {
        let pattern = pattern
            .as_str()
            .ok_or("dest.pattern is not a string (TypeError)")?;
        let re = pyre::compile(pattern)?;
        let text = crate::value::py::py_str(value);
        if text.contains('\\') {
            cx.warn.push(WarnKind::SubstitutionQuirk, "the substituted value contains '\\': Deckhand's re.sub reads it as a replacement template (\\\\ becomes \\, \\1 a group)", at);
        }
        match (recurse, &target.kind) {
            (Some(r), Kind::Map(_) | Kind::List(_)) => {
                let max = r.as_map().map(|m| {
                    m.get(&Key::str("depth"))
                        .cloned()
                        .unwrap_or(Node::new(Kind::Int(-1), Span::NONE))
                });
                let max = max.ok_or("dest.recurse is not a mapping (AttributeError)")?;
                let Some(first) = p.first_location(work)? else {
                    return Err(Fail::Unsupported(format!("the first match of '{norm}' is the list a slice wraps a value in; jsonpath-ng rewrites the strings below it, and strata does not reproduce that")));
                };
                let mut splice = Splice {
                    max: &max,
                    pattern,
                    re: &re,
                    text: &text,
                    here: first.clone(),
                    steps: Vec::new(),
                    changed: 0,
                };
                if let Some(node) = dpath::get_mut(work, &first) {
                    splice.walk(node, 0)?;
                }
                let changed = splice.changed;
                steps = splice.steps;
                if changed == 0 && pattern.chars().any(|c| "[]().*+?{}|^$\\".contains(c)) {
                    cx.warn.push(WarnKind::SubstitutionQuirk, format!("recursive substitution with pattern '{pattern}' changed nothing: Deckhand only rewrites strings that contain the pattern's text literally"), at);
                }
                None
            }
            _ => {
                let s = target.as_str().ok_or_else(|| match existed {
                    true => format!("dest.pattern needs a string at {norm}, and the value there is {} (MissingDocumentPattern)", target.kind_phrase()),
                    false => format!("dest.pattern needs a string at {norm}, and nothing is there: Deckhand creates an empty mapping at the path (MissingDocumentPattern)"),
                })?;
                let new = Node::str(re.sub(&text, s)?, target.span);
                Some((new, Outcome::Substituted))
            }
        }
    } else {
        let outcome = if existed {
            Outcome::Replaced
        } else {
            Outcome::Added
        };
        Some((value.clone(), outcome))
    };
    let mut root: Option<Node> = None;
    if let Some((new, outcome)) = root_value {
        let span = new.span;
        // For the trace: what each match held (a path of several matches replaces several).
        let old = (cx.trace.is_some() && !p.is_simple()).then(|| work.clone());
        let (written, places) = p.update(work, new)?;
        if pattern.is_some() && places.len() > 1 {
            cx.warn.push(WarnKind::PathQuirk, format!("dest.path '{norm}' matches {} values: Deckhand applies the pattern to the first one and writes the result at every match", places.len()), at);
        }
        if let dpath::Written::Root(v) = written {
            root = Some(v);
            steps.push((Vec::new(), outcome, span, Some(target.clone())));
        }
        for locs in places {
            let was = old
                .as_ref()
                .map_or(Some(&target), |o| dpath::get(o, &locs))
                .cloned();
            let outcome = if was.is_none() {
                Outcome::Added
            } else {
                outcome
            };
            steps.push((locs, outcome, span, was));
        }
    }
    Ok((root, steps))
}

/// `_replace_pattern_recursively`: strings that contain the pattern's text literally get every
/// regex match replaced; `depth` counts from 0 at the target, and `max` is compared with `==`.
struct Splice<'a> {
    /// `dest.recurse.depth` (-1 when it is not given: no limit).
    max: &'a Node,
    pattern: &'a str,
    re: &'a pyre::PyRegex,
    /// The value spliced in (`str(value)`).
    text: &'a str,
    /// Where the walk is.
    here: Vec<Loc>,
    /// The strings changed, and how many.
    steps: Steps,
    changed: usize,
}

impl Splice<'_> {
    fn walk(&mut self, node: &mut Node, depth: i64) -> std::result::Result<(), String> {
        if Node::new(Kind::Int(depth), Span::NONE).py_eq(self.max) {
            return Ok(());
        }
        match &mut node.kind {
            Kind::Map(m) => {
                for i in 0..m.len() {
                    if let Some((_, v)) = m.get_index_mut(i) {
                        self.visit(Loc::Entry(i), v, depth)?;
                    }
                }
            }
            Kind::List(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    self.visit(Loc::Item(i), v, depth)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A child of a node at `depth`: a string is spliced, anything else walked.
    fn visit(&mut self, loc: Loc, v: &mut Node, depth: i64) -> std::result::Result<(), String> {
        self.here.push(loc);
        let r = match v.as_str() {
            Some(s) if s.contains(self.pattern) => {
                let old = v.clone();
                *v = Node::str(self.re.sub(self.text, s)?, v.span);
                self.steps
                    .push((self.here.clone(), Outcome::Substituted, v.span, Some(old)));
                self.changed += 1;
                Ok(())
            }
            _ => self.walk(v, depth + 1),
        };
        self.here.pop();
        r
    }
}
