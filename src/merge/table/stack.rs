//! The stack family's table: cloud-init's `dict` / `list` / `str` mergers and their options
//! (`ci("dict(...)+list(...)+str(...)")`: the string form, without its case and dash folding),
//! the plain deep merge (`strata merge` and Deckhand), Heat's Python-semantics specs
//! (`ByNewType`, `skip_null`, `replace_falsy_old`, `strict_types`, `Extend`, `Join`, `Plus`)
//! and the specs Hiera's `hash` and `unique` compile to. Expected results follow
//! docs/reference/{cloud-init,heat,hiera}.md (their verified examples are marked `ref`);
//! `scripts/check-table.py` replays the cloud-init and Heat cases through the real code.

use super::{merger, Entry};
use crate::strategy::{
    DictMethod, DictOpts, ListMethod, ListOpts, MergerSpec, RuleSet, Stack, StrMethod, StrOpts,
};

/// A cloud-init merger stack from its string form (`dict(no_replace,recurse_list)+list()`),
/// with cloud-init's option precedence (replace > no_replace; append > prepend > replace >
/// no_replace).
fn ci(text: &str) -> Entry {
    Entry::Rules(RuleSet::single(ci_stack(text)))
}

fn ci_stack(text: &str) -> Stack {
    let mut mergers = Vec::new();
    for piece in text.split('+').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, rest) = piece.split_once('(').unwrap_or((piece, ")"));
        let opts: Vec<&str> = rest
            .trim_end_matches(')')
            .split(',')
            .map(str::trim)
            .collect();
        let has = |o: &str| opts.contains(&o);
        let recurse_list = has("recurse_list") || has("recurse_array");
        let spec = match name {
            "dict" => MergerSpec::Dict(DictOpts {
                allow_delete: has("allow_delete"),
                recurse_list,
                recurse_str: has("recurse_str"),
                ..DictOpts::new(if has("replace") {
                    DictMethod::Replace
                } else {
                    DictMethod::NoReplace
                })
            }),
            "list" => MergerSpec::List(ListOpts {
                method: if has("append") {
                    ListMethod::Append
                } else if has("prepend") {
                    ListMethod::Prepend
                } else if has("replace") || !has("no_replace") {
                    ListMethod::Replace
                } else {
                    ListMethod::NoReplace
                },
                recurse_list,
                recurse_str: has("recurse_str"),
                recurse_dict: has("recurse_dict"),
            }),
            "str" => MergerSpec::Str(StrOpts {
                method: if has("append") {
                    StrMethod::Append
                } else {
                    StrMethod::Replace
                },
            }),
            other => panic!("not a cloud-init merger: {other}"),
        };
        mergers.push(merger(spec, piece));
    }
    Stack {
        mergers,
        replace_unhandled: false,
        by_new_type: false,
    }
}

/// The plain deep merge (`strata merge` without `--how`; Deckhand's `merge` action).
fn deep() -> Entry {
    Entry::Rules(RuleSet::single(Stack::deep_default()))
}

fn list(method: ListMethod) -> MergerSpec {
    MergerSpec::List(ListOpts {
        method,
        recurse_list: false,
        recurse_str: false,
        recurse_dict: false,
    })
}

fn string(method: StrMethod) -> MergerSpec {
    MergerSpec::Str(StrOpts { method })
}

/// Heat's `merge_map` (deep: `ByNewType`, else one-level `Replace`) with its options.
fn heat_map(deep: bool) -> MergerSpec {
    MergerSpec::Dict(DictOpts {
        skip_null: true,
        replace_falsy_old: true,
        strict_types: true,
        ..DictOpts::new(if deep {
            DictMethod::ByNewType
        } else {
            DictMethod::Replace
        })
    })
}

/// Heat's parameter stack, dispatched on the new value's type.
fn heat_stack(deep: bool) -> RuleSet {
    RuleSet::single(Stack {
        mergers: vec![
            merger(heat_map(deep), "map"),
            merger(list(ListMethod::Extend), "list"),
            merger(string(StrMethod::Join), "str"),
        ],
        replace_unhandled: true,
        by_new_type: true,
    })
}

fn heat(deep: bool) -> Entry {
    Entry::Rules(heat_stack(deep))
}

/// `merge_with` at the root with `top` forced (Heat's parameter merge by template type).
fn heat_top(top: MergerSpec) -> Entry {
    Entry::With(heat_stack(true), merger(top, "top"))
}

/// One spec alone (Hiera's `hash` and `unique`).
fn one(spec: MergerSpec) -> Entry {
    Entry::Rules(RuleSet::one(merger(spec, "one")))
}

#[test]
fn cloud_init_dict() {
    let part_default = ci("dict(replace)+list()+str()");
    // ref §4: the per-part default replaces top-level keys whole.
    merges!(part_default, "{a: {x: 1, y: 2}, b: [1, 2]}", "{a: {y: 3}, b: [9]}" => "{a: {y: 3}, b: [9]}", ["/a replaced", "/b replaced"]);
    merges!(part_default, "{b: 1, a: 2}", "{c: 3, a: 4}" => "{b: 1, a: 4, c: 3}", ["/c added", "/a replaced"]);
    // ref §4: no_replace keeps earlier scalars, lists and strings; new keys are added.
    merges!(ci("dict()"), "{a: [1], b: x}", "{a: [2], b: y, c: z}" => "{a: [1], b: x, c: z}", ["/a kept", "/b kept", "/c added"]);
    merges!(ci("dict(no_replace)"), "{a: 1, b: true}", "{a: 2, b: false}" => "{a: 1, b: true}");
    merges!(ci("dict()"), "{a: {x: 1, y: 2}}", "{a: {y: 3, z: 4}}" => "{a: {x: 1, y: 2, z: 4}}", ["/a/y kept", "/a/z added"]);
    // `recurse_dict` is accepted and changes nothing for dicts.
    merges!(ci("dict(recurse_dict)"), "{a: {x: 1}, b: 1}", "{a: {y: 2}, b: 2}" => "{a: {x: 1, y: 2}, b: 1}");
    // replace is tested before no_replace.
    merges!(ci("dict(no_replace,replace)"), "{a: 1}", "{a: 2}" => "{a: 2}");
    // ref §4 allow_delete.
    merges!(ci("dict(allow_delete)"), "{a: 1, b: 2}", "{a: null, c: null}" => "{b: 2, c: null}", ["/a deleted", "/c added"]);
    merges!(ci("dict(allow_delete)"), "{b: {x: 1, y: 2}}", "{b: {x: null}}" => "{b: {y: 2}}");
    merges!(ci("dict(allow_delete,replace)"), "{a: 1, b: {x: 1}}", "{a: null, b: {x: null}}" => "{b: {x: null}}");
    merges!(ci("dict()"), "{a: {x: 1}}", "{a: null}" => "{a: {x: 1}}", ["/a kept"]);
    merges!(ci("dict(replace)"), "{a: {x: 1}}", "{a: null}" => "{a: null}");
    // Dispatch on the OLD type: no merger for null / int / bool keeps the old value.
    merges!(ci("dict()+list()+str()"), "{a: null}", "{a: {x: 1}}" => "{a: null}", ["/a kept"]);
    merges!(ci("dict()+list()+str()"), "{a: 1}", "{a: {x: 1}}" => "{a: 1}");
    merges!(ci("dict()+list()+str()"), "{a: true}", "{a: {x: 1}}" => "{a: true}");
    // ref §4: an old string and a new mapping depend on the str merger.
    merges!(ci("dict()+str()"), "{a: s}", "{a: {x: 1}}" => "{a: {x: 1}}", ["/a replaced"]);
    merges!(ci("dict()"), "{a: s}", "{a: {x: 1}}" => "{a: s}", ["/a kept"]);
    merges!(ci("dict()+str(append)"), "{a: s}", "{a: {x: 1}}" => fails "can only concatenate str (not \"dict\")");
    // A new root that is not a mapping leaves the old mapping.
    merges!(ci("dict(replace)"), "{a: 1}", "[1]" => "{a: 1}", ["/ kept"]);
    // ref §3: a stack without a dict merger cannot merge the root: the part is a no-op.
    merges!(ci("list(append)"), "{a: [1], b: 1}", "{a: [2], c: 3}" => "{a: [1], b: 1}", ["/ kept"]);
    // ref §8: `true == 1` as keys; the first key object stays.
    merges!(ci("dict(replace)"), "{1: a}", "{true: b}" => "{1: b}");
    merges!(ci("dict(replace)"), "{1: a}", "{1.0: b, yes: c}" => "{1: c}");
    merges!(ci("dict()"), "{0: a}", "{false: b, off: c}" => "{0: a}");
}

#[test]
fn cloud_init_recurse_options() {
    // ref §5/§6: recurse_list / recurse_array send new lists to the list merger.
    merges!(ci("dict(recurse_list)+list(append)"), "{a: [1]}", "{a: [2]}" => "{a: [1, 2]}", ["/a/1 appended"]);
    merges!(ci("dict(recurse_array)+list(append)"), "{a: [1]}", "{a: [2]}" => "{a: [1, 2]}");
    merges!(ci("dict()+list(append)"), "{a: [1]}", "{a: [2]}" => "{a: [1]}", ["/a kept"]);
    // ref §5: replace never recurses.
    merges!(ci("dict(replace,recurse_list)+list(append)"), "{a: [1]}", "{a: [2]}" => "{a: [2]}");
    // ref §5: a new string reaches the list merger only under recurse_str.
    merges!(ci("dict(recurse_list)+list(append)"), "{a: [1]}", "{a: s}" => "{a: [1]}");
    merges!(ci("dict(recurse_str)+list(append)"), "{a: [1]}", "{a: xyz}" => "{a: [1, x, y, z]}", ["/a/1 appended", "/a/2 appended", "/a/3 appended"]);
    merges!(ci("dict(recurse_str)+list(prepend)"), "{a: [1]}", "{a: ab}" => "{a: [a, b, 1]}", ["/a/0 prepended", "/a/1 prepended"]);
    // ref §5: a new mapping always recurses; appended as its keys.
    merges!(ci("dict()+list(append)"), "{a: [1]}", "{a: {k1: 1, k2: 2}}" => "{a: [1, k1, k2]}");
    // ref §6: recurse_str joins strings under str(append); an old int is never joined.
    merges!(ci("dict(recurse_str)+str(append)"), "{a: {b: {c: x}}}", "{a: {b: {c: y}}}" => "{a: {b: {c: xy}}}", ["/a/b/c concatenated"]);
    merges!(ci("dict(recurse_str)+str(append)"), "{port: 22}", "{port: '2222'}" => "{port: 22}", ["/port kept"]);
    merges!(ci("dict(recurse_str)+str(append)"), "{name: web}", "{name: 42}" => "{name: web}");
    merges!(ci("dict(recurse_str)+str()"), "{a: x}", "{a: y}" => "{a: y}", ["/a replaced"]);
    merges!(ci("dict()+str(append)"), "{a: x}", "{a: y}" => "{a: x}", ["/a kept"]);
    merges!(ci("dict(replace,recurse_str)+str(append)"), "{a: x}", "{a: y}" => "{a: y}");
    // ref §6: str() returns the new value whatever its type; str(append) fails on a non-string.
    merges!(ci("dict(recurse_list)+str()"), "{s: abc}", "{s: [1]}" => "{s: [1]}");
    merges!(ci("dict(recurse_list)+str(append)"), "{s: abc}", "{s: [1]}" => fails "can only concatenate str (not \"list\")");
    // str's recurse_* options are accepted and ignored.
    merges!(ci("dict(recurse_str)+str(recurse_list,recurse_dict)"), "{a: x}", "{a: y}" => "{a: y}");
    // A failing key anywhere drops the whole merge (the old value is returned unchanged).
    merges!(ci("dict(recurse_str)+str(append)"), "{a: x, b: y}", "{a: z, b: {c: 1}}" => fails "TypeError in str(append)");
}

#[test]
fn cloud_init_list() {
    let l = |how: &str| ci(&format!("dict(recurse_list)+list({how})"));
    // ref §5: replace is index-wise and keeps the old length.
    merges!(l(""), "{a: [1, 2, 3]}", "{a: [9]}" => "{a: [9, 2, 3]}", ["/a/0 replaced"]);
    merges!(l(""), "{a: [1]}", "{a: [7, 8, 9]}" => "{a: [7]}", ["/a/0 replaced", "/a/1 kept", "/a/2 kept"]);
    merges!(l("replace"), "{a: []}", "{a: [1]}" => "{a: []}");
    merges!(l("no_replace"), "{a: [1, 2]}", "{a: [7, 8, 9]}" => "{a: [1, 2]}", ["/a kept"]);
    merges!(l("append"), "{a: [1, 2]}", "{a: [2, 3]}" => "{a: [1, 2, 2, 3]}");
    merges!(l("prepend"), "{a: [1, 2]}", "{a: [3, 4]}" => "{a: [3, 4, 1, 2]}", ["/a/0 prepended", "/a/1 prepended"]);
    // ref §5: precedence append > prepend > replace > no_replace, whatever the order written.
    merges!(l("prepend,append"), "{a: [1]}", "{a: [2]}" => "{a: [1, 2]}");
    merges!(l("no_replace,replace"), "{a: [1, 2]}", "{a: [9]}" => "{a: [9, 2]}");
    merges!(l("no_replace,prepend"), "{a: [1]}", "{a: [2]}" => "{a: [2, 1]}");
    // ref §5: replace with a new mapping returns it (the type changes).
    merges!(ci("dict()+list()"), "{a: [1]}", "{a: {x: 1}}" => "{a: {x: 1}}", ["/a replaced"]);
    // ref §5: no_replace indexes a new mapping by position: KeyError; an empty one is fine.
    merges!(ci("dict()+list(no_replace)"), "{a: [1]}", "{a: {x: 1}}" => fails "KeyError: 0");
    merges!(ci("dict()+list(no_replace)"), "{a: [1]}", "{a: {}}" => "{a: [1]}");
    merges!(ci("dict()+list(no_replace)"), "{a: [1, 2]}", "{a: {0: x, 1: y}}" => "{a: [1, 2]}");
    merges!(ci("dict(recurse_str)+list(no_replace)"), "{a: [1]}", "{a: s}" => "{a: [1]}");
    merges!(ci("dict(recurse_str)+list()"), "{a: [1]}", "{a: s}" => "{a: s}");
    // ref §5: list(recurse_str)+str(append) index-wise: strings joined, an old int kept.
    merges!(ci("dict(recurse_list)+list(recurse_str)+str(append)"), "{a: [1, a]}", "{a: [x, b]}" => "{a: [1, ab]}", ["/a/0 kept", "/a/1 concatenated"]);
    merges!(ci("dict(recurse_list)+list(recurse_str)+str(append)"), "{a: [a]}", "{a: [5]}" => "{a: [5]}");
    // recurse_dict (off by default for lists, unlike dict).
    merges!(l("recurse_dict"), "{a: [{x: 1}]}", "{a: [{y: 2}]}" => "{a: [{x: 1, y: 2}]}");
    merges!(l(""), "{a: [{x: 1}]}", "{a: [{y: 2}]}" => "{a: [{y: 2}]}");
    merges!(l("recurse_list"), "{a: [[1, 2]]}", "{a: [[9]]}" => "{a: [[9, 2]]}");
    merges!(l("recurse_array"), "{a: [[1, 2]]}", "{a: [[9]]}" => "{a: [[9, 2]]}");
    merges!(l(""), "{a: [[1, 2]]}", "{a: [[9]]}" => "{a: [[9]]}");
    // An item merged by recursion dispatches on the old item's type: an old int is kept.
    merges!(l("recurse_dict"), "{a: [1]}", "{a: [{y: 2}]}" => "{a: [1]}");
    // A tuple (`!!omap` pair) counts as a list: merged as one and made a tuple again.
    merges!(ci("dict(recurse_list)+list(recurse_list)"), "{a: !!omap [{x: 1}]}", "{a: [[9]]}" => "{a: !!omap [{9: 1}]}");
    merges!(ci("dict(recurse_list)+list(append)"), "{a: !!omap [{x: 1}]}", "{a: !!omap [{k: v}]}" => "{a: !!omap [{x: 1}, {k: v}]}");
    // ref §2: parts fold one after the other; the part being merged in decides.
    folds!(ci("dict(recurse_list)+list(append)"), ["{a: [1]}", "{a: [2]}", "{a: [3]}"] => "{a: [1, 2, 3]}");
    folds!(l(""), ["{a: [1, 2, 3]}", "{a: [9]}", "{a: [8, 7]}"] => "{a: [8, 7, 3]}");
}

#[test]
fn deep_default() {
    merges!(deep(), "{a: {x: 1}, b: [1]}", "{a: {y: 2}, b: [2]}" => "{a: {x: 1, y: 2}, b: [2]}", ["/a/y added", "/b replaced"]);
    merges!(deep(), "{a: {b: {c: 1, d: 2}}}", "{a: {b: {c: 3}}}" => "{a: {b: {c: 3, d: 2}}}", ["/a/b/c replaced"]);
    merges!(deep(), "{a: 1}", "{a: null}" => "{a: null}");
    merges!(deep(), "{a: 1}", "{a: {x: 1}}" => "{a: {x: 1}}", ["/a replaced"]);
    merges!(deep(), "{a: x}", "{a: 5}" => "{a: 5}");
    merges!(deep(), "{b: 1, a: 1}", "{c: 1, a: 2}" => "{b: 1, a: 2, c: 1}");
    merges!(deep(), "{a: {x: 1}}", "{a: {}}" => "{a: {x: 1}}", []);
    // A mapping replaced by a list, or a list by a mapping, is noticed.
    merges!(deep(), "{a: {x: 1}}", "{a: [1]}" => "{a: [1]}", notices ["/a kind-changed a mapping -> a list"]);
    merges!(deep(), "{a: [1]}", "{a: {x: 1}}" => "{a: {x: 1}}", notices ["/a kind-changed a list -> a mapping"]);
    merges!(deep(), "{a: 1}", "[1]" => "[1]", ["/ replaced"], notices ["/ kind-changed a mapping -> a list"]);
    merges!(deep(), "[1]", "[2]" => "[2]");
    merges!(deep(), "x", "{a: 1}" => "{a: 1}");
    // Deckhand's `merge` action at a path: the same merge, steps under the path.
    merges!(Entry::At(RuleSet::single(Stack::deep_default()), "/data/x"), "{a: {b: 1}}", "{a: {c: 2}, d: [1]}" => "{a: {b: 1, c: 2}, d: [1]}", ["/data/x/a/c added", "/data/x/d added"]);
    merges!(Entry::At(RuleSet::single(Stack::deep_default()), "/l/0"), "{a: 1}", "site" => "site", ["/l/0 replaced"]);
}

#[test]
fn heat_python_specs() {
    // ref §4 deep_merge: maps recurse, lists extend, strings concatenate, other values replace.
    merges!(heat(true), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1, y: 2}}");
    merges!(heat(true), "{a: [1]}", "{a: [2]}" => "{a: [1, 2]}", ["/a/1 appended"]);
    merges!(heat(true), "{a: x}", "{a: y}" => "{a: xy}", ["/a concatenated"], notices ["/a joined"]);
    merges!(heat(true), "{a: 1}", "{a: 0}" => "{a: 0}", ["/a replaced"]);
    merges!(heat(true), "{a: true}", "{a: false}" => "{a: false}");
    // A new string at a new key is joined with '' (no notice: nothing was joined).
    merges!(heat(true), "{a: 1}", "{b: y}" => "{a: 1, b: y}", ["/b added"]);
    // ref §4 nulls: ignored at existing and new keys.
    merges!(heat(true), "{a: 1}", "{a: null, b: null}" => "{a: 1}", ["/a kept"]);
    // replace_falsy_old: a falsy old value is replaced whole.
    merges!(heat(true), "{a: ''}", "{a: y}" => "{a: y}", ["/a replaced"]);
    merges!(heat(true), "{a: 0}", "{a: {x: 1}}" => "{a: {x: 1}}", ["/a replaced"]);
    merges!(heat(true), "{a: []}", "{a: [1]}" => "{a: [1]}");
    merges!(heat(true), "{}", "{a: 1}" => "{a: 1}", ["/ replaced"]);
    // strict_types: the errors Python raises.
    merges!(heat(true), "{a: s}", "{a: {x: 1}}" => fails "TypeError: 'str' object does not support item assignment");
    merges!(heat(true), "{a: s}", "{a: {x: {y: 1}}}" => fails "AttributeError: 'str' object has no attribute 'get'");
    merges!(heat(true), "{a: s}", "{a: {x: null}}" => "{a: s}");
    merges!(heat(true), "{a: [1]}", "{a: x}" => fails "sequence item 0: expected str instance, list found");
    merges!(heat(true), "{a: x}", "{a: [1]}" => fails "'str' object has no attribute 'extend'");
    merges!(heat(true), "{a: x}", "{a: 1}" => "{a: 1}");
    // merge (one level): nested maps replaced whole, nulls skipped.
    merges!(heat(false), "{a: {x: 1}, b: 1}", "{a: {y: 2}, b: null}" => "{a: {y: 2}, b: 1}", ["/a replaced", "/b kept"]);
    merges!(heat(false), "{a: x}", "{a: y}" => "{a: y}");
    // recording_containers: a step for each container merged into (Heat's trace).
    merges!(Entry::Recording(heat_stack(true)), "{a: {x: 1}, l: [1]}", "{a: {y: 2}, l: [2]}" => "{a: {x: 1, y: 2}, l: [1, 2]}", ["/ merged", "/a merged", "/a/y added", "/l appended", "/l/1 appended"]);
    merges!(heat(true), "{a: {x: 1}, l: [1]}", "{a: {y: 2}, l: [2]}" => "{a: {x: 1, y: 2}, l: [1, 2]}", ["/a/y added", "/l/1 appended"]);
    // The top spec forced by the parameter type (`merge_with`).
    merges!(heat_top(heat_map(true)), "{a: 1}", "[1]" => fails "AttributeError: 'list' object has no attribute 'items'");
    merges!(heat_top(list(ListMethod::Extend)), "'1,2'", "'5,6'" => "'1,2,5,6'", ["/ concatenated"]);
    merges!(heat_top(list(ListMethod::Extend)), "[1]", "[2]" => "[1, 2]");
    merges!(heat_top(list(ListMethod::Extend)), "''", "[2]" => "[2]", ["/ replaced"]);
    merges!(heat_top(list(ListMethod::Extend)), "'a,b'", "[c]" => fails "'str' object has no attribute 'extend'");
    merges!(heat_top(list(ListMethod::Extend)), "[a, b]", "'c,d'" => fails "sequence item 0: expected str instance, list found");
    merges!(heat_top(string(StrMethod::Join)), "string1", "string3" => "string1string3", notices ["/ joined"]);
    merges!(heat_top(string(StrMethod::Join)), "''", "y" => "y", ["/ replaced"]);
    merges!(heat_top(string(StrMethod::Join)), "", "y" => "y", ["/ added"]);
    merges!(heat_top(string(StrMethod::Join)), "", "5" => fails "sequence item 1: expected str instance, int found");
    merges!(heat_top(string(StrMethod::Join)), "x", "5" => fails "sequence item 1: expected str instance, int found");
    merges!(heat_top(string(StrMethod::Replace)), "[1]", "x" => "x", ["/ replaced"]);
    merges!(heat_top(string(StrMethod::Replace)), "", "x" => "x", ["/ added"]);
    // Plus: Python's `+`; two numbers are refused (Heat: a Number is not a Sequence).
    merges!(heat_top(MergerSpec::Plus), "a", "b" => "ab", notices ["/ joined"]);
    merges!(heat_top(MergerSpec::Plus), "[1]", "[2]" => "[1, 2]");
    // (Python's `1 + 2` is 3; Heat never gets there: a Number value must be a string or a list.)
    merges!(heat_top(MergerSpec::Plus), "1", "2" => fails "unsupported operand type(s) for +: 'int' and 'int'");
    merges!(heat_top(MergerSpec::Plus), "", "2" => fails "unsupported operand type(s) for +: 'int' and 'int'");
    merges!(heat_top(MergerSpec::Plus), "", "a" => fails "unsupported operand type(s) for +: 'int' and 'str'");
    merges!(heat_top(MergerSpec::Plus), "'5'", "'6'" => "'56'", notices ["/ joined"]);
    // A str or list on the left: Python's other wording.
    merges!(heat_top(MergerSpec::Plus), "a", "[1]" => fails "can only concatenate str (not \"list\") to str");
    merges!(heat_top(MergerSpec::Plus), "[1]", "a" => fails "can only concatenate list (not \"str\") to list");
}

/// A dict spec alone, with these options on `method`.
fn dict(method: DictMethod, set: fn(&mut DictOpts)) -> Entry {
    let mut opts = DictOpts::new(method);
    set(&mut opts);
    one(MergerSpec::Dict(opts))
}

/// `dict`, forced on top (`merge_with`).
fn dict_top(method: DictMethod, set: fn(&mut DictOpts)) -> Entry {
    let mut opts = DictOpts::new(method);
    set(&mut opts);
    Entry::With(RuleSet::default(), merger(MergerSpec::Dict(opts), "top"))
}

#[test]
fn dict_options_on_every_method() {
    // The options are orthogonal to the method.
    merges!(dict(DictMethod::Deep, |o| o.allow_delete = true), "{a: 1, b: 2}", "{a: null, c: null}" => "{b: 2, c: null}", ["/a deleted", "/c added"]);
    merges!(dict(DictMethod::Deep, |o| o.skip_null = true), "{a: 1}", "{a: null, b: null}" => "{a: 1}", ["/a kept"]);
    merges!(dict(DictMethod::Replace, |o| o.skip_null = true), "{a: {x: 1}}", "{a: null}" => "{a: {x: 1}}");
    merges!(dict(DictMethod::NoReplace, |o| o.replace_falsy_old = true), "{}", "{a: 1}" => "{a: 1}", ["/ replaced"]);
    merges!(dict(DictMethod::NoReplace, |o| o.replace_falsy_old = true), "{a: {}, b: 1}", "{a: {x: 1}, b: 2}" => "{a: {x: 1}, b: 1}", ["/a replaced", "/b kept"]);
    merges!(dict(DictMethod::Deep, |o| o.replace_falsy_old = true), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1, y: 2}}");
    // strict_types bites where the dict merger is picked for a non-map: by the new value's
    // type or forced on top (dispatch on an old string finds no merger here).
    merges!(dict(DictMethod::Replace, |o| o.strict_types = true), "x", "{a: 1}" => "x", ["/ kept"]);
    merges!(dict_top(DictMethod::Replace, |o| o.strict_types = true), "x", "{a: 1}" => fails "TypeError: 'str' object does not support item assignment");
    merges!(dict_top(DictMethod::Replace, |o| o.strict_types = true), "x", "{a: null}" => fails "does not support item assignment");
    merges!(dict_top(DictMethod::Replace, |o| { o.strict_types = true; o.skip_null = true }), "x", "{a: null}" => "x");
    merges!(dict(DictMethod::Replace, |o| o.strict_types = true), "{a: 1}", "x" => fails "AttributeError: 'str' object has no attribute 'items'");
    merges!(dict(DictMethod::Replace, |o| o.strict_types = true), "{a: 1}", "{a: [1]}" => "{a: [1]}");
    // A null at a new key: added, unless skipped (allow_delete has nothing to delete).
    merges!(dict(DictMethod::Replace, |o| o.allow_delete = true), "{a: 1}", "{b: null}" => "{a: 1, b: null}", ["/b added"]);
    merges!(dict(DictMethod::Replace, |o| o.skip_null = true), "{a: 1}", "{b: null}" => "{a: 1}", []);
    // allow_delete is checked before skip_null.
    merges!(dict(DictMethod::Replace, |o| { o.allow_delete = true; o.skip_null = true }), "{a: 1}", "{a: null}" => "{}", ["/a deleted"]);
}

#[test]
fn hiera_hash_and_unique() {
    // hash: `lower.merge(higher)` with the lower level as the old side.
    let hash = one(MergerSpec::Dict(DictOpts::new(DictMethod::Replace)));
    merges!(hash, "{c: common, b: role}", "{b: node, a: node}" => "{c: common, b: node, a: node}");
    merges!(hash, "{a: {x: 1, y: 2}}", "{a: {y: 3}}" => "{a: {y: 3}}");
    merges!(hash, "{a: 1}", "{a: null}" => "{a: null}");
    // unique: Ruby's `|` with `eql?`: first occurrence kept, 1, 1.0 and true distinct.
    let unique = one(list(ListMethod::Union));
    merges!(unique, "[a, b]", "[b, c]" => "[a, b, c]", ["/2 appended", "/ kept"]);
    merges!(unique, "[1, 2, 1]", "[2, 3, 3]" => "[1, 2, 3]", ["/2 appended", "/ kept", "/ kept"]);
    merges!(unique, "[1, 1.0, true]", "[1, '1', 1.0]" => "[1, 1.0, true, '1']");
    merges!(unique, "[null, a]", "[b, null]" => "[null, a, b]");
    merges!(unique, "[{a: 1, b: 2}]", "[{b: 2, a: 1}]" => "[{a: 1, b: 2}]");
    merges!(unique, "[[1, 2]]", "[[2, 1], [1, 2]]" => "[[1, 2], [2, 1]]");
    folds!(unique, ["[only-node]", "[from-role, only-node]", "[from-common]"] => "[only-node, from-role, from-common]");
}
