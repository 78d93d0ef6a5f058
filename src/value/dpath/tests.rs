//! Unit tests of the path reader and writer; what jsonpath-ng and Deckhand do with whole
//! documents is checked in `tests/` (fixtures/deckhand/recorded, recorded from Deckhand).

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

/// The tree as jsonpath-ng's `repr` would name it, shortened.
fn tree(path: &str) -> String {
    fn show(e: &Expr) -> String {
        let two = |name: &str, l: &Expr, r: &Expr| format!("{name}({}, {})", show(l), show(r));
        let num = |n: &Option<Num>| n.as_ref().map_or("None".into(), |n| n.text.clone());
        match e {
            Expr::Root => "Root".into(),
            Expr::This => "This".into(),
            Expr::Parent => "Parent".into(),
            Expr::Fields(f) => format!("Fields({})", f.join(",")),
            Expr::Index(i) => format!(
                "Index({})",
                i.iter()
                    .map(|n| n.text.clone())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Expr::Slice(a, b, c) => format!("Slice({},{},{})", num(a), num(b), num(c)),
            Expr::Child(l, r) => two("Child", l, r),
            Expr::Descendants(l, r) => two("Descendants", l, r),
            Expr::Union(l, r) => two("Union", l, r),
            Expr::Intersect(l, r) => two("Intersect", l, r),
            Expr::Where(l, r) => two("Where", l, r),
            Expr::WhereNot(l, r) => two("WhereNot", l, r),
        }
    }
    match DPath::parse(path) {
        Ok(p) => show(&p.expr),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn parses_as_jsonpath_ngs_parser() {
    // Each tree as jsonpath-ng 1.8.0's `parse(text)` builds it (its repr, shortened).
    for (text, want) in [
        (
            "$.a.b[0]",
            "Child(Child(Child(Root, Fields(a)), Fields(b)), Index(0))",
        ),
        (
            "$..a[0].b",
            "Child(Child(Descendants(Root, Fields(a)), Index(0)), Fields(b))",
        ),
        ("$..a.b", "Descendants(Root, Child(Fields(a), Fields(b)))"),
        (
            "$.a|b.c",
            "Child(Child(Root, Union(Fields(a), Fields(b))), Fields(c))",
        ),
        (
            "$.a where b.c",
            "Child(Child(Root, Where(Fields(a), Fields(b))), Fields(c))",
        ),
        ("$.'a',\"b\"", "Child(Root, Fields(a,b))"),
        ("$[a,b]", "Child(Root, Fields(a,b))"),
        ("$.[0,1]", "Child(Root, Index(0,1))"),
        ("$.a[1:2:3]", "Child(Child(Root, Fields(a)), Slice(1,2,3))"),
        (
            "$.a[::]",
            "Child(Child(Root, Fields(a)), Slice(None,None,None))",
        ),
        ("$[*]", "Child(Root, Slice(None,None,None))"),
        (
            "a.(b|c).d",
            "Child(Child(Fields(a), Union(Fields(b), Fields(c))), Fields(d))",
        ),
        ("$.007", "Child(Root, Fields(7))"),
        ("$.-0", "Child(Root, Fields(0))"),
        ("$.a.-1", "Child(Child(Root, Fields(a)), Fields(-1))"),
        (
            "$.a[99999999999999999999999]",
            "Child(Child(Root, Fields(a)), Index(99999999999999999999999))",
        ),
        ("$.'*'", "Child(Root, Fields(*))"),
        ("`this`.a", "Child(This, Fields(a))"),
        (
            "$.a.`parent`.b",
            "Child(Child(Child(Root, Fields(a)), Parent), Fields(b))",
        ),
        ("$.a&b", "Child(Root, Intersect(Fields(a), Fields(b)))"),
        (
            "$.a wherenot b where c",
            "Child(Root, Where(WhereNot(Fields(a), Fields(b)), Fields(c)))",
        ),
        (
            "$.a where b wherenot c",
            "Child(Root, Where(Fields(a), WhereNot(Fields(b), Fields(c))))",
        ),
        ("$..[0]", "Descendants(Root, Index(0))"),
        (
            "$.(a.b)[0]",
            "Child(Child(Root, Child(Fields(a), Fields(b))), Index(0))",
        ),
        ("$..a|b", "Descendants(Root, Union(Fields(a), Fields(b)))"),
        (
            "$.a..b..c",
            "Descendants(Descendants(Child(Root, Fields(a)), Fields(b)), Fields(c))",
        ),
        ("$ . a\n.b", "Child(Child(Root, Fields(a)), Fields(b))"),
    ] {
        assert_eq!(tree(text), want, "{text}");
    }
}

#[test]
fn refuses_what_jsonpath_ng_refuses_with_its_words() {
    for (text, want) in [
        ("$.a[]", "Parse error at 1:4 near token ] (])"),
        (".b", "Parse error at 1:0 near token . (.)"),
        ("$.a..", "Parse error near the end of string!"),
        ("$.a b", "Parse error at 1:4 near token b (ID)"),
        ("$.where", "Parse error at 1:2 near token where (WHERE)"),
        ("$.a ~", "Parse error at 1:4 near token ~ (~)"),
        ("$.a.`foo`", "Unknown named operator `foo` at 1:8"),
        ("$.`foo`]", "Parse error at 1:7 near token ] (])"),
        (
            "$.'x",
            "JsonPathLexerError: Unexpected EOF in string literal or identifier",
        ),
        ("$.a.", "Parse error near the end of string!"),
        (
            "$.a.- b",
            "Error on line 1, col 4: Unexpected character: - ",
        ),
        ("$.é", "Error on line 1, col 2: Unexpected character: é "),
        (
            "$.a\n.%",
            "Error on line 2, col 2: Unexpected character: % ",
        ),
        ("", "Parse error near the end of string!"),
        ("$.a[1,2:3]", "Parse error at 1:7 near token : (:)"),
    ] {
        let got = tree(text);
        assert!(
            got.starts_with("error: ") && got.contains(want),
            "{text:?}: {got}"
        );
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
    // The rest of the grammar.
    let data = "a: {ntp: [1, 2]}\nb: {x: {ntp: 3}}\nl: [10, 20, 30, 40]";
    assert_eq!(read(data, "$..ntp").unwrap(), Some("[1,2]".into()));
    assert_eq!(read(data, ".l[1:3]").unwrap(), Some("20".into()));
    assert_eq!(read(data, ".l[2,1]").unwrap(), Some("30".into()));
    assert_eq!(read(data, ".l[::-1]").unwrap(), Some("40".into()));
    assert_eq!(
        read(data, ".b|a").unwrap(),
        Some(r#"{"x":{"ntp":3}}"#.into())
    );
    assert_eq!(
        read(data, ".a.`this`").unwrap(),
        Some(r#"{"ntp":[1,2]}"#.into())
    );
    assert_eq!(
        read(data, ".b.x.`parent`").unwrap(),
        Some(r#"{"x":{"ntp":3}}"#.into())
    );
    assert_eq!(read(data, ".l.$.a.ntp[1]").unwrap(), Some("2".into()));
    assert_eq!(
        read(data, "$.* where ntp").unwrap(),
        Some(r#"{"ntp":[1,2]}"#.into())
    );
    assert_eq!(
        read(data, "$.* wherenot ntp").unwrap(),
        Some(r#"{"x":{"ntp":3}}"#.into())
    );
    // A slice of a non-list wraps it: the mapping itself; its parent is the wrapping list.
    assert_eq!(
        read(data, ".a[*]").unwrap(),
        Some(r#"{"ntp":[1,2]}"#.into())
    );
    assert_eq!(
        read(data, ".a[*].`parent`").unwrap(),
        Some(r#"[{"ntp":[1,2]}]"#.into())
    );
    assert!(
        read(data, ".l[::0]").is_err(),
        "ValueError: slice step cannot be zero"
    );
    assert!(read(data, ".a&b").is_err(), "NotImplementedError");
    assert!(
        read(data, "$.`parent`").is_err(),
        "AttributeError: None has no value"
    );
    assert_eq!(
        read(data, "$.`parent`.`this`").unwrap(),
        Some("null".into())
    );
    assert!(
        read("a: 5\nb: [1]", "$..[0]").is_err(),
        "the top's key 0: KeyError"
    );
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
fn writes_follow_jsonpath_ngs_update() {
    // `..` writes every key it finds, looking again below each write.
    assert_eq!(
        write("x: 1\ny: {x: 2, z: [{x: 3}]}", "$..x", "0").unwrap(),
        r#"{"x":0,"y":{"x":0,"z":[{"x":0}]}}"#
    );
    // A value that holds what `..` looks for makes it write forever: RecursionError.
    assert!(write("x: 1", "$..x", "{x: 2}").is_err());
    // Slices and index lists write each index, a list value item by item.
    assert_eq!(
        write("l: [1, 2, 3, 4]", ".l[1:3]", "0").unwrap(),
        r#"{"l":[1,0,0,4]}"#
    );
    assert_eq!(
        write("l: [1, 2, 3]", ".l[2,0]", "[8, 9]").unwrap(),
        r#"{"l":[9,2,8]}"#
    );
    // A slice of a mapping writes its key 0 (the wrapped mapping's index 0).
    assert_eq!(
        write("m: {a: 1}", ".m[*]", "5").unwrap(),
        r#"{"m":{"a":1,"0":5}}"#
    );
    // Several names: the keys that exist.
    assert_eq!(
        write("a: 1\nb: 2", "$.a,b,c", "0").unwrap(),
        r#"{"a":0,"b":0}"#
    );
    // `where` writes the last step of each match into the value it was given.
    assert_eq!(
        write("a: {k: 1}\nb: {j: 1}", "$.* where k", "0").unwrap(),
        r#"{"a":0,"b":{"j":1}}"#
    );
    // Union and `parent` cannot update (NotImplementedError, whose message is empty).
    let e = write("a: 1\nb: 2", "$.a|b", "0").unwrap_err();
    assert_eq!(e.kind, PathErrorKind::NotImplemented);
    let e = write("a: {b: 1}", "$.a.b.`parent`", "0").unwrap_err();
    assert_eq!(e.kind, PathErrorKind::NotImplemented);
    // An `a` inside an `a` that the first write replaces: jsonpath-ng writes into the
    // replaced value; strata refuses.
    let e = write("a: {a: {a: {}}}", "$..a['a']", "{}").unwrap_err();
    assert_eq!(e.kind, PathErrorKind::Unsupported);
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
    let mut d = doc("{}");
    expand(&mut d, "$..ntp").unwrap();
    assert_eq!(flow(&d), r#"{"":{"ntp":{}}}"#);
    assert_eq!(py_int(" 1_0 "), Some(10));
    assert_eq!(py_int("1__0"), None);
    assert!(is_array_piece("a[10]"));
    assert!(!is_array_piece("a[]"));
}

#[test]
fn simple_paths_and_index_writes_are_told_apart() {
    let p = |t: &str| DPath::parse(t).expect("parses");
    assert!(p("$.a[0].b").is_simple());
    assert!(!p("$.a[*]").is_simple());
    assert!(!p("$..a").is_simple());
    assert!(!p("$.a,b").is_simple());
    assert!(p("$.a[0]").ends_in_index());
    assert!(p("$.a[1:2]").ends_in_index());
    assert!(!p("$.a[0].b").ends_in_index());
    assert_eq!(p("$..a.b").steps(), 3);
}
