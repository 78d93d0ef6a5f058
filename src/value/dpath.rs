//! `DPath`: a Deckhand path, the part of jsonpath-ng 1.8 (non-extended) that Deckhand's layering
//! actions and substitutions use: `$`, dotted fields (`.a.b`, `.0`), quoted fields
//! (`.'filter:authtoken'`), indices (`[0]`, `[-1]`), and the wildcards `*` / `[*]`. A path is
//! parsed once into steps; reads take matches as jsonpath-ng's `find` does, writes follow its
//! `update`, and [`expand`] is Deckhand's `_execute_data_expansion` (missing keys become `{}`,
//! `name[i]` pads a list with `{}`), text-based exactly like the original.
//!
//! Where jsonpath-ng or Deckhand would raise a Python exception (an index into a mapping
//! without that key, an index past the start of a list, a write into a string), the operation
//! returns a [`PathError`] saying so; nothing here panics on any input.

use super::{Key, Kind, Node, Span};
use std::borrow::Cow;

/// One step of a parsed path.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `$`: the top of the data (also in the middle of a path: jsonpath-ng jumps back up).
    Root,
    /// A field name, written plain (`a`, `0`) or quoted (`'a:b'`).
    Field(String),
    /// `*`: every value of a mapping.
    AnyField,
    /// `[n]`: an index (negative counts from the end, as in Python).
    Index(i64),
    /// `[*]`: every item of a list (a mapping or scalar counts as a one-item list).
    All,
}

/// A parsed Deckhand path.
#[derive(Clone, Debug, PartialEq)]
pub struct DPath {
    /// The text as parsed (after [`normalize`]).
    pub text: String,
    pub steps: Vec<Step>,
}

/// What jsonpath-ng or Deckhand would have raised, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError(pub String);

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
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

/// A location inside a value: map entry index or list index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Entry(usize),
    Item(usize),
}

/// A match: where it is, or (an index into a string) the one-character string it is.
#[derive(Clone, Debug)]
enum Found {
    At(Vec<Loc>),
    Char(Node),
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
    /// Parses a path as jsonpath-ng's lexer and parser do (blanks between tokens are ignored).
    /// Constructs strata does not support (`..`, unions, filters, slices with bounds, field
    /// lists) are errors, as are texts jsonpath-ng would refuse.
    pub fn parse(text: &str) -> Result<DPath, PathError> {
        let tokens = lex(text)?;
        let mut steps = Vec::new();
        let mut i = 0;
        // jsonpath : '$' | field | '[' idx ']' ; then ('.' field | '[' ... ']')*
        let mut expect_start = true;
        while i < tokens.len() {
            let tok = tokens.get(i).cloned().unwrap_or(Tok::Dot);
            if expect_start {
                match tok {
                    Tok::Dollar => steps.push(Step::Root),
                    Tok::Id(s) => steps.push(Step::Field(s)),
                    Tok::Num(n) => steps.push(Step::Field(n.to_string())),
                    Tok::Star => steps.push(Step::AnyField),
                    Tok::Open => {
                        let (step, used) = bracket(&tokens, i, text)?;
                        steps.push(step);
                        i += used;
                        expect_start = false;
                        continue;
                    }
                    other => return Err(parse_error(text, &other)),
                }
                expect_start = false;
                i += 1;
                continue;
            }
            match tok {
                Tok::Dot => {
                    expect_start = true;
                    i += 1;
                    // `a.[0]` is not a field: jsonpath-ng reads `[0]` after `.` as a path of
                    // its own (an index into the same value), which `bracket` handles.
                }
                Tok::Open => {
                    let (step, used) = bracket(&tokens, i, text)?;
                    steps.push(step);
                    i += used;
                }
                Tok::DoubleDot | Tok::Other(_) => {
                    return Err(PathError(format!(
                        "the path '{text}' uses jsonpath syntax strata does not support (only $, .field, .'quoted', [n], * and [*])"
                    )))
                }
                other => return Err(parse_error(text, &other)),
            }
        }
        if expect_start {
            return Err(PathError(format!(
                "the path '{text}' is incomplete (jsonpath-ng: Parse error near the end of string)"
            )));
        }
        Ok(DPath {
            text: text.to_string(),
            steps,
        })
    }

    /// Whether the path is `$` alone (the whole data).
    pub fn is_root(&self) -> bool {
        matches!(self.steps.as_slice(), [Step::Root])
    }

    /// Every match, in jsonpath-ng's order.
    fn find_all(&self, data: &Node) -> Result<Vec<Found>, PathError> {
        find_steps(&self.steps, data)
    }

    /// The first match, as Deckhand's `jsonpath_parse` returns it (`None`: no match).
    pub fn first<'a>(&self, data: &'a Node) -> Result<Option<Cow<'a, Node>>, PathError> {
        let found = self.find_all(data)?;
        Ok(match found.into_iter().next() {
            None => None,
            Some(Found::Char(c)) => Some(Cow::Owned(c)),
            Some(Found::At(locs)) => get(data, &locs).map(Cow::Borrowed),
        })
    }

    /// Where the first match is, when it is a value in the data (not a character of a string).
    pub fn first_location(&self, data: &Node) -> Result<Option<Vec<Loc>>, PathError> {
        Ok(match self.find_all(data)?.into_iter().next() {
            Some(Found::At(locs)) => Some(locs),
            _ => None,
        })
    }

    /// Whether the path matches anything.
    pub fn matches(&self, data: &Node) -> Result<bool, PathError> {
        Ok(!self.find_all(data)?.is_empty())
    }

    /// jsonpath-ng's `update`: writes `val` at every match of the path (a path of one step
    /// writes into `data` itself). A list written at an index takes the list's first item, as
    /// jsonpath-ng's `Index.update` does (`somelist[5,1,2] = [a, b, c]`); each further index
    /// match takes the next. Returns where each value went.
    pub fn update(
        &self,
        data: &mut Node,
        val: Node,
    ) -> Result<(Written, Vec<Vec<Loc>>), PathError> {
        let mut writer = Writer { val, taken: 0 };
        let Some((last, init)) = self.steps.split_last() else {
            return Ok((Written::InPlace, Vec::new()));
        };
        if init.is_empty() {
            if matches!(last, Step::Root) {
                return Ok((Written::Root(writer.val), Vec::new()));
            }
            let mut at = Vec::new();
            step_update(last, data, &mut writer, &mut Vec::new(), &mut at)?;
            return Ok((Written::InPlace, at));
        }
        let found = find_steps(init, data)?;
        let mut written = Vec::new();
        for f in found {
            match f {
                Found::At(locs) => {
                    let mut prefix = locs.clone();
                    if let Some(node) = get_mut(data, &locs) {
                        step_update(last, node, &mut writer, &mut prefix, &mut written)?;
                    }
                }
                Found::Char(mut c) => {
                    // A character is a new string: a write into it changes nothing, or fails.
                    step_update(last, &mut c, &mut writer, &mut Vec::new(), &mut Vec::new())?;
                }
            }
        }
        Ok((Written::InPlace, written))
    }
}

/// The value being written and how many list items `Index.update` has taken from it.
struct Writer {
    val: Node,
    taken: usize,
}

impl Writer {
    /// The value for one index write: a list gives its next item (Python's `val.pop(0)`).
    fn for_index(&mut self) -> Result<Node, PathError> {
        match &self.val.kind {
            Kind::List(items) => {
                let item = items.get(self.taken).cloned().ok_or_else(|| {
                    PathError("a list written at an index path gives its first item (jsonpath-ng's Index.update pops it), and this list has no item left (IndexError: pop from empty list)".into())
                })?;
                self.taken += 1;
                Ok(item)
            }
            _ => Ok(self.val.clone()),
        }
    }
}

fn step_update(
    step: &Step,
    node: &mut Node,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    match step {
        Step::Root => Ok(()),
        Step::Field(f) => field_update(node, f, w, prefix, written),
        Step::AnyField => {
            if let Kind::Map(m) = &mut node.kind {
                for i in 0..m.len() {
                    if let Some((_, v)) = m.get_index_mut(i) {
                        *v = w.val.clone();
                        prefix.push(Loc::Entry(i));
                        written.push(prefix.clone());
                        prefix.pop();
                    }
                }
            }
            Ok(())
        }
        Step::Index(i) => index_update(node, *i, w, prefix, written),
        Step::All => match &node.kind {
            Kind::Null => Ok(()),
            Kind::List(items) => {
                for i in 0..items.len() {
                    index_update(node, i as i64, w, prefix, written)?;
                }
                Ok(())
            }
            // A mapping or scalar is searched as a one-item list: its "item 0" is written.
            Kind::Map(_)
            | Kind::Int(_)
            | Kind::BigInt(_)
            | Kind::Float(_)
            | Kind::Str(_)
            | Kind::Bool(_) => index_update(node, 0, w, prefix, written),
            _ => Err(no_len(node, "[*]")),
        },
    }
}

/// `Fields.update`: sets an existing key of a mapping; other values are tested with Python's
/// `in` (which fails for numbers, and finding the name in a list or string fails on the write).
fn field_update(
    node: &mut Node,
    f: &str,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    match &mut node.kind {
        Kind::Null | Kind::Bool(_) => Ok(()),
        Kind::Map(m) => {
            if let Some(i) = m.get_index_of(&Key::str(f)) {
                if let Some((_, v)) = m.get_index_mut(i) {
                    *v = w.val.clone();
                }
                prefix.push(Loc::Entry(i));
                written.push(prefix.clone());
                prefix.pop();
            }
            Ok(())
        }
        Kind::List(items) => {
            if items.iter().any(|x| x.as_str() == Some(f)) {
                Err(PathError(format!(
                    "cannot write field '{f}' into a list (TypeError: list indices must be integers or slices, not str)"
                )))
            } else {
                Ok(())
            }
        }
        Kind::Str(s) => {
            if s.contains(f) {
                Err(PathError(format!(
                    "cannot write field '{f}' into a string (TypeError: 'str' object does not support item assignment)"
                )))
            } else {
                Ok(())
            }
        }
        _ => Err(PathError(format!(
            "cannot look for field '{f}' in {} (TypeError: argument of type '{}' is not iterable)",
            node.kind_phrase(),
            node.py_type_name()
        ))),
    }
}

/// `Index.update`: `if len(data) > index: data[index] = val`, with Python's `len` and item
/// assignment (a mapping gets an integer key).
fn index_update(
    node: &mut Node,
    i: i64,
    w: &mut Writer,
    prefix: &mut Vec<Loc>,
    written: &mut Vec<Vec<Loc>>,
) -> Result<(), PathError> {
    let len = py_len(node).ok_or_else(|| no_len(node, &format!("[{i}]")))?;
    if len <= i {
        return Ok(());
    }
    match &mut node.kind {
        Kind::List(items) => {
            let at = if i < 0 { len + i } else { i };
            let at = usize::try_from(at).map_err(|_| {
                PathError(format!(
                    "index [{i}] is before the start of a list of {len} (IndexError: list assignment index out of range)"
                ))
            })?;
            let val = w.for_index()?;
            if let Some(slot) = items.get_mut(at) {
                *slot = val;
            }
            prefix.push(Loc::Item(at));
            written.push(prefix.clone());
            prefix.pop();
            Ok(())
        }
        Kind::Map(m) => {
            let val = w.for_index()?;
            let key = Key(Node::new(Kind::Int(i), Span::NONE));
            m.insert(key.clone(), val);
            if let Some(at) = m.get_index_of(&key) {
                prefix.push(Loc::Entry(at));
                written.push(prefix.clone());
                prefix.pop();
            }
            Ok(())
        }
        _ => Err(PathError(format!(
            "cannot write index [{i}] into {} (TypeError: '{}' object does not support item assignment)",
            node.kind_phrase(),
            node.py_type_name()
        ))),
    }
}

/// Python's `len()` for the values that have one.
fn py_len(node: &Node) -> Option<i64> {
    let n = match &node.kind {
        Kind::List(l) => l.len(),
        Kind::Map(m) => m.len(),
        Kind::Str(s) => s.chars().count(),
        _ => return None,
    };
    i64::try_from(n).ok()
}

fn no_len(node: &Node, what: &str) -> PathError {
    PathError(format!(
        "cannot index {} with {what} (TypeError: object of type '{}' has no len())",
        node.kind_phrase(),
        node.py_type_name()
    ))
}

/// Python's truth value of a value that `Index.find` tests first.
fn truthy(node: &Node) -> bool {
    match &node.kind {
        Kind::Null => false,
        Kind::Bool(b) => *b,
        Kind::Int(i) => *i != 0,
        Kind::Float(f) => *f != 0.0,
        Kind::Str(s) => !s.is_empty(),
        Kind::List(l) => !l.is_empty(),
        Kind::Map(m) => !m.is_empty(),
        _ => true,
    }
}

fn find_steps(steps: &[Step], data: &Node) -> Result<Vec<Found>, PathError> {
    let mut cur = vec![Found::At(Vec::new())];
    for step in steps {
        let mut next = Vec::new();
        for f in cur {
            match f {
                Found::At(locs) => {
                    if let Some(node) = get(data, &locs) {
                        step_find(step, node, &locs, &mut next)?;
                    }
                }
                Found::Char(c) => {
                    if matches!(step, Step::Root) {
                        next.push(Found::At(Vec::new()));
                    } else {
                        // Steps into a character: only indices and [*] find anything.
                        let mut sub = Vec::new();
                        step_find(step, &c, &[], &mut sub)?;
                        for s in sub {
                            next.push(match s {
                                Found::At(_) => Found::Char(c.clone()),
                                other => other,
                            });
                        }
                    }
                }
            }
        }
        cur = next;
    }
    Ok(cur)
}

fn step_find(step: &Step, node: &Node, at: &[Loc], out: &mut Vec<Found>) -> Result<(), PathError> {
    let push = |out: &mut Vec<Found>, loc: Loc| {
        let mut v = at.to_vec();
        v.push(loc);
        out.push(Found::At(v));
    };
    match step {
        Step::Root => out.push(Found::At(Vec::new())),
        Step::Field(f) => {
            if let Kind::Map(m) = &node.kind {
                if let Some(i) = m.get_index_of(&Key::str(f)) {
                    push(out, Loc::Entry(i));
                }
            }
        }
        Step::AnyField => {
            if let Kind::Map(m) = &node.kind {
                for i in 0..m.len() {
                    push(out, Loc::Entry(i));
                }
            }
        }
        Step::Index(i) => {
            if !truthy(node) {
                return Ok(());
            }
            let len = py_len(node).ok_or_else(|| no_len(node, &format!("[{i}]")))?;
            if len <= *i {
                return Ok(());
            }
            match &node.kind {
                Kind::List(_) => push(out, Loc::Item(list_index(*i, len)?)),
                Kind::Str(s) => {
                    let at = usize::try_from(if *i < 0 { len + i } else { *i }).map_err(|_| {
                        PathError(format!("index [{i}] is before the start of a string of {len} characters (IndexError: string index out of range)"))
                    })?;
                    let c: String = s.chars().nth(at).map(String::from).unwrap_or_default();
                    out.push(Found::Char(Node::str(c, node.span)));
                }
                Kind::Map(m) => {
                    let key = Key(Node::new(Kind::Int(*i), Span::NONE));
                    match m.get_index_of(&key) {
                        Some(e) => push(out, Loc::Entry(e)),
                        None => {
                            return Err(PathError(format!(
                                "index [{i}] into a mapping without the key {i} (KeyError: {i})"
                            )))
                        }
                    }
                }
                _ => return Err(no_len(node, &format!("[{i}]"))),
            }
        }
        Step::All => match &node.kind {
            Kind::Null => {}
            Kind::List(items) => {
                for i in 0..items.len() {
                    push(out, Loc::Item(i));
                }
            }
            Kind::Map(_)
            | Kind::Int(_)
            | Kind::BigInt(_)
            | Kind::Float(_)
            | Kind::Str(_)
            | Kind::Bool(_) => out.push(Found::At(at.to_vec())),
            _ => return Err(no_len(node, "[*]")),
        },
    }
    Ok(())
}

fn list_index(i: i64, len: i64) -> Result<usize, PathError> {
    let at = if i < 0 { len + i } else { i };
    usize::try_from(at).map_err(|_| {
        PathError(format!(
            "index [{i}] is before the start of a list of {len} (IndexError: list index out of range)"
        ))
    })
}

/// The value at a location.
pub fn get<'a>(data: &'a Node, locs: &[Loc]) -> Option<&'a Node> {
    let mut cur = data;
    for loc in locs {
        cur = match (loc, &cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => m.get_index(*i)?.1,
            (Loc::Item(i), Kind::List(l)) => l.get(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The value at a location, to change it.
pub fn get_mut<'a>(data: &'a mut Node, locs: &[Loc]) -> Option<&'a mut Node> {
    let mut cur = data;
    for loc in locs {
        cur = match (loc, &mut cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => m.get_index_mut(*i)?.1,
            (Loc::Item(i), Kind::List(l)) => l.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A location as JSON Pointer segments (keys as text), for traces and messages.
pub fn pointer(data: &Node, locs: &[Loc], out: &mut super::Path) {
    let mut cur = data;
    for loc in locs {
        match (loc, &cur.kind) {
            (Loc::Entry(i), Kind::Map(m)) => {
                let Some((k, v)) = m.get_index(*i) else {
                    return;
                };
                out.push_key(&crate::merge::key_cow(&k.0));
                cur = v;
            }
            (Loc::Item(i), Kind::List(l)) => {
                let Some(v) = l.get(*i) else { return };
                out.push_index(*i);
                cur = v;
            }
            _ => return,
        }
    }
}

/// Deckhand's `_execute_data_expansion`: walks the normalised path text split at every `.`
/// (quotes included, as the original does) and creates what is missing: `{}` for a name,
/// a list padded with `{}` for `name[i]`. Fails where Python would raise.
pub fn expand(data: &mut Node, text: &str) -> Result<(), PathError> {
    let pieces: Vec<&str> = text.split('.').skip(1).collect();
    // `d` as a location; `None` once it became a value that is not in the data (None).
    let mut at: Option<Vec<Loc>> = Some(Vec::new());
    for piece in pieces {
        let Some(locs) = at.clone() else {
            return Err(PathError(format!(
                "creating the path '{text}' stepped into a missing value at '{piece}' (TypeError: argument of type 'NoneType' is not iterable)"
            )));
        };
        let Some(d) = get_mut(data, &locs) else {
            return Err(PathError(format!("cannot create the path '{text}'")));
        };
        if is_array_piece(piece) {
            if let Some(next) = expand_array(d, piece, &locs, text)? {
                at = Some(next);
                continue;
            }
            // int() failed (ValueError) or the index was out of range: `d.get(piece)`.
            at = map_get(d, piece, &locs, text)?;
            continue;
        }
        let present = py_in(d, piece, text)?;
        let name = if present {
            piece.to_string()
        } else {
            let stripped = piece.trim_matches('\'').trim_matches('"').to_string();
            let Kind::Map(m) = &mut d.kind else {
                return Err(not_a_map(d, piece, text));
            };
            if m.get_index_of(&Key::str(&stripped)).is_none() {
                m.insert(Key::str(&stripped), Node::empty_map(Span::NONE));
            }
            stripped
        };
        at = map_get(d, &name, &locs, text)?;
    }
    Ok(())
}

/// `d.get(name)`: the location of the value, `None` when absent; fails for a non-mapping.
fn map_get(d: &Node, name: &str, locs: &[Loc], text: &str) -> Result<Option<Vec<Loc>>, PathError> {
    match &d.kind {
        Kind::Map(m) => Ok(m.get_index_of(&Key::str(name)).map(|i| {
            let mut v = locs.to_vec();
            v.push(Loc::Entry(i));
            v
        })),
        _ => Err(not_a_map(d, name, text)),
    }
}

fn not_a_map(d: &Node, piece: &str, text: &str) -> PathError {
    PathError(format!(
        "cannot create the path '{text}': '{piece}' would go into {}, not a mapping (AttributeError: '{}' object has no attribute 'get')",
        d.kind_phrase(),
        d.py_type_name()
    ))
}

/// Python's `piece in d` for the value `d` the expansion stands on.
fn py_in(d: &Node, piece: &str, text: &str) -> Result<bool, PathError> {
    match &d.kind {
        Kind::Map(m) => Ok(m.get_index_of(&Key::str(piece)).is_some()),
        Kind::List(l) => Ok(l.iter().any(|x| x.as_str() == Some(piece))),
        Kind::Str(s) => Ok(s.contains(piece)),
        _ => Err(PathError(format!(
            "cannot create the path '{text}': '{piece}' would go into {} (TypeError: argument of type '{}' is not iterable)",
            d.kind_phrase(),
            d.py_type_name()
        ))),
    }
}

/// `re.match(r'.*\[\d+\].*', piece)` (`.` does not match a line break).
fn is_array_piece(piece: &str) -> bool {
    let first_line = piece.split('\n').next().unwrap_or("");
    let b = first_line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && b.get(j) == Some(&b']') {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The array branch: `name[i]` creates or pads list `name`. `Ok(None)` when Python's
/// `except (IndexError, ValueError)` swallowed a failure.
fn expand_array(
    d: &mut Node,
    piece: &str,
    locs: &[Loc],
    text: &str,
) -> Result<Option<Vec<Loc>>, PathError> {
    let mut parts = piece.split('[');
    let name = parts.next().unwrap_or("");
    let raw = parts.next().unwrap_or("");
    let raw = raw.get(..raw.len().saturating_sub(1)).unwrap_or("");
    let Some(index) = py_int(raw) else {
        return Ok(None);
    };
    let Kind::Map(m) = &mut d.kind else {
        return Err(not_a_map(d, name, text));
    };
    let key = Key::str(name);
    if m.get_index_of(&key).is_none() {
        m.insert(key.clone(), Node::list(Vec::new(), Span::NONE));
    }
    let Some(entry) = m.get_index_of(&key) else {
        return Ok(None);
    };
    let Some((_, list)) = m.get_index_mut(entry) else {
        return Ok(None);
    };
    let len = py_len(list).ok_or_else(|| no_len(list, &format!("[{index}]")))?;
    if len < index + 1 {
        match &mut list.kind {
            Kind::List(items) => {
                while (items.len() as i64) < index + 1 {
                    items.push(Node::empty_map(Span::NONE));
                }
            }
            _ => {
                return Err(PathError(format!(
                    "cannot create the path '{text}': '{name}' is {}, not a list (AttributeError: '{}' object has no attribute 'append')",
                    list.kind_phrase(),
                    list.py_type_name()
                )))
            }
        }
    }
    let mut at = locs.to_vec();
    at.push(Loc::Entry(entry));
    match &list.kind {
        Kind::List(items) => {
            let len = items.len() as i64;
            let i = if index < 0 { len + index } else { index };
            match usize::try_from(i) {
                Ok(i) if i < items.len() => {
                    at.push(Loc::Item(i));
                    Ok(Some(at))
                }
                // IndexError, swallowed.
                _ => Ok(None),
            }
        }
        Kind::Map(_) => Err(PathError(format!(
            "cannot create the path '{text}': '{name}' is a mapping, not a list (KeyError: {index})"
        ))),
        _ => Err(PathError(format!(
            "cannot create the path '{text}': '{name}' is {}, not a list",
            list.kind_phrase()
        ))),
    }
}

/// Python's `int(text)` for the text between `[` and `]`: blanks around, an optional sign,
/// digits with single underscores between them.
fn py_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    let n: i64 = digits.replace('_', "").parse().ok()?;
    Some(if neg { -n } else { n })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Dollar,
    Dot,
    DoubleDot,
    Open,
    Close,
    Star,
    Id(String),
    Num(i64),
    Other(char),
}

/// jsonpath-ng's lexer: `ID` is `[a-zA-Z_@]` (or a CJK ideograph / emoticon) followed by
/// those and digits and `-`; numbers are `-?\d+`; quoted names take `\x` as `x`; blanks and
/// tabs between tokens are ignored.
fn lex(text: &str) -> Result<Vec<Tok>, PathError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let id_start = |c: char| {
        c.is_ascii_alphabetic()
            || c == '_'
            || c == '@'
            || ('\u{4E00}'..='\u{9FA5}').contains(&c)
            || ('\u{1F600}'..='\u{1F64F}').contains(&c)
    };
    while let Some(&c) = chars.get(i) {
        match c {
            ' ' | '\t' => i += 1,
            '$' => {
                out.push(Tok::Dollar);
                i += 1
            }
            '.' if chars.get(i + 1) == Some(&'.') => {
                out.push(Tok::DoubleDot);
                i += 2
            }
            '.' => {
                out.push(Tok::Dot);
                i += 1
            }
            '[' => {
                out.push(Tok::Open);
                i += 1
            }
            ']' => {
                out.push(Tok::Close);
                i += 1
            }
            '*' => {
                out.push(Tok::Star);
                i += 1
            }
            '\'' | '"' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => {
                            return Err(PathError(format!(
                                "the path '{text}' has an unterminated quoted name (JsonPathLexerError: Unexpected EOF in string literal or identifier)"
                            )))
                        }
                        Some('\\') => {
                            match chars.get(i + 1) {
                                Some(&n) if n != '\n' => s.push(n),
                                _ => {
                                    return Err(PathError(format!(
                                        "the path '{text}' has a bad escape in a quoted name (JsonPathLexerError)"
                                    )))
                                }
                            }
                            i += 2;
                        }
                        Some(&q) if q == quote => {
                            i += 1;
                            break;
                        }
                        Some(&o) => {
                            s.push(o);
                            i += 1;
                        }
                    }
                }
                out.push(Tok::Id(s));
            }
            c if c == '-' || c.is_ascii_digit() => {
                let start = i;
                if c == '-' {
                    i += 1;
                }
                let digits = i;
                while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                if i == digits {
                    return Err(PathError(format!(
                        "the path '{text}' has an unexpected character '-' (JsonPathLexerError)"
                    )));
                }
                let s: String = chars.get(start..i).map(|c| c.iter().collect()).unwrap_or_default();
                let n = s.parse::<i64>().map_err(|_| {
                    PathError(format!("the path '{text}' has a number too large: {s}"))
                })?;
                out.push(Tok::Num(n));
            }
            c if id_start(c) => {
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|&d| id_start(d) || d.is_ascii_digit() || d == '-')
                {
                    i += 1;
                }
                let s: String = chars.get(start..i).map(|c| c.iter().collect()).unwrap_or_default();
                if s == "where" || s == "wherenot" {
                    out.push(Tok::Other('w'));
                } else {
                    out.push(Tok::Id(s));
                }
            }
            '(' | ')' | ',' | ':' | '|' | '&' | '~' | '`' => {
                out.push(Tok::Other(c));
                i += 1
            }
            other => {
                return Err(PathError(format!(
                    "the path '{text}' has a character jsonpath-ng does not accept: '{other}' (JsonPathLexerError); quote the name: .'{other}'"
                )))
            }
        }
    }
    Ok(out)
}

/// `[` idx `]` / `[` field `]` / `[*]` starting at `tokens[at]`; returns the step and the
/// number of tokens used.
fn bracket(tokens: &[Tok], at: usize, text: &str) -> Result<(Step, usize), PathError> {
    let inner = tokens.get(at + 1);
    let close = tokens.get(at + 2);
    let step = match (inner, close) {
        (Some(Tok::Num(n)), Some(Tok::Close)) => Step::Index(*n),
        (Some(Tok::Star), Some(Tok::Close)) => Step::All,
        (Some(Tok::Id(s)), Some(Tok::Close)) => Step::Field(s.clone()),
        (None, _) | (Some(_), None) => {
            return Err(PathError(format!(
                "the path '{text}' is incomplete (jsonpath-ng: Parse error near the end of string)"
            )))
        }
        _ => {
            return Err(PathError(format!(
                "the path '{text}' uses a bracket form strata does not support (only [n], [*] and ['name'])"
            )))
        }
    };
    Ok((step, 3))
}

fn parse_error(text: &str, tok: &Tok) -> PathError {
    let what = match tok {
        Tok::Dollar => "$".to_string(),
        Tok::Dot => ".".into(),
        Tok::DoubleDot => "..".into(),
        Tok::Open => "[".into(),
        Tok::Close => "]".into(),
        Tok::Star => "*".into(),
        Tok::Id(s) => s.clone(),
        Tok::Num(n) => n.to_string(),
        Tok::Other(c) => c.to_string(),
    };
    PathError(format!(
        "the path '{text}' does not parse near '{what}' (JsonPathParserError)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{yaml, LoadOptions};

    fn doc(text: &str) -> Node {
        let mut w = Vec::new();
        yaml::load_single(text, 0, &LoadOptions::default(), &mut w)
            .expect("parses")
            .expect("a document")
    }

    fn flow(n: &Node) -> String {
        crate::render::json::to_compact(n).expect("json")
    }

    fn write(data: &str, path: &str, val: &str) -> Result<String, PathError> {
        let mut d = doc(data);
        let p = DPath::parse(&normalize(path))?;
        if !p.matches(&d)? {
            expand(&mut d, &p.text)?;
        }
        match p.update(&mut d, doc(val))?.0 {
            Written::Root(v) => Ok(flow(&v)),
            Written::InPlace => Ok(flow(&d)),
        }
    }

    fn read(data: &str, path: &str) -> Result<Option<String>, PathError> {
        let d = doc(data);
        let p = DPath::parse(&normalize(path))?;
        Ok(p.first(&d)?.map(|n| flow(&n)))
    }

    #[test]
    fn parses_the_forms_deckhand_uses() {
        let p = DPath::parse("$.a[0].'filter:authtoken'.b-c .0").expect("parses");
        assert_eq!(
            p.steps,
            vec![
                Step::Root,
                Step::Field("a".into()),
                Step::Index(0),
                Step::Field("filter:authtoken".into()),
                Step::Field("b-c".into()),
                Step::Field("0".into()),
            ]
        );
        assert!(DPath::parse("$").expect("root").is_root());
        assert_eq!(DPath::parse("a[*].*").expect("wild").steps.len(), 3);
        for bad in [
            "$.a..b",
            "$.a[0:2]",
            "$.é",
            "$.a.",
            "$.'x",
            "$.a where b",
            "$.a[1,2]",
        ] {
            assert!(DPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_take_the_first_match_as_jsonpath_ng() {
        assert_eq!(read("a: {b: 1}", ".a.b").unwrap(), Some("1".into()));
        assert_eq!(
            read("a: {b: 1}", ".").unwrap(),
            Some(r#"{"a":{"b":1}}"#.into())
        );
        assert_eq!(read("a: [1, 2, 3]", ".a[-1]").unwrap(), Some("3".into()));
        assert_eq!(read("a: abc", ".a[1]").unwrap(), Some(r#""b""#.into()));
        assert_eq!(read("a: [x]", ".a[5]").unwrap(), None);
        assert_eq!(read("a: {'0': 5}", ".a.0").unwrap(), Some("5".into()));
        assert_eq!(read("a: 1", "a").unwrap(), Some("1".into()));
        assert_eq!(read("a: {x: 1, y: 2}", ".a.*").unwrap(), Some("1".into()));
        assert!(read("a: {x: 1}", ".a[0]").is_err(), "KeyError");
        assert!(read("a: 5", ".a[0]").is_err(), "TypeError");
        assert!(read("a: [1]", ".a[-3]").is_err(), "IndexError");
        assert_eq!(read("a: 0", ".a[0]").unwrap(), None, "falsy: no match");
    }

    #[test]
    fn writes_create_missing_keys_and_pad_lists() {
        assert_eq!(
            write("a: {b: 1}", ".c[2].d", "5").unwrap(),
            r#"{"a":{"b":1},"c":[{},{},{"d":5}]}"#
        );
        assert_eq!(
            write("a: {b: 1}", ".'x:y'.z", "5").unwrap(),
            r#"{"a":{"b":1},"x:y":{"z":5}}"#
        );
        assert_eq!(write("a: 1", ".", "[1]").unwrap(), "[1]");
        // A list written at an index gives its first item (jsonpath-ng pops it).
        assert_eq!(
            write("a: [{x: 1}]", ".a[0]", "[7, 8]").unwrap(),
            r#"{"a":[7]}"#
        );
        assert!(write("a: [{x: 1}]", ".a[0]", "[]").is_err());
        // `$.$` finds the data and writes nothing.
        assert_eq!(write("a: 1", ".$", "2").unwrap(), r#"{"a":1}"#);
        // The second index of `a[0][1]` is not created: the write then finds nothing.
        assert!(write("{}", ".a[0][1]", "5").is_ok());
        assert!(
            write("a: text", ".a.b", "5").is_err(),
            "a path into a string"
        );
        assert!(write("a: 3", ".a.b", "5").is_err(), "a path into a number");
        assert_eq!(
            write("l: [1, 2]", ".l[*]", "[5, 6]").unwrap(),
            r#"{"l":[5,6]}"#
        );
    }

    #[test]
    fn expansion_follows_the_text_like_deckhand() {
        let mut d = doc("{}");
        expand(&mut d, "$.a.b").unwrap();
        assert_eq!(flow(&d), r#"{"a":{"b":{}}}"#);
        let mut d = doc("l: [1]");
        expand(&mut d, "$.l[3]").unwrap();
        assert_eq!(flow(&d), r#"{"l":[1,{},{},{}]}"#);
        let mut d = doc("l: {x: 1}");
        assert!(expand(&mut d, "$.l[3]").is_err());
        assert_eq!(py_int(" 1_0 "), Some(10));
        assert_eq!(py_int("1__0"), None);
        assert!(is_array_piece("a[10]"));
        assert!(!is_array_piece("a[]"));
    }
}
