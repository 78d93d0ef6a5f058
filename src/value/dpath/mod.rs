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

mod eval;
mod expand;
mod lex;

pub use eval::{get, get_mut, pointer};
pub use expand::expand;

use super::Node;
use eval::{find_steps, step_update, Writer};
use lex::{bracket, lex, parse_error, Tok};
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

#[cfg(test)]
mod tests {
    use super::expand::{is_array_piece, py_int};
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
