//! The ranked family's table (Datum's `lookup_options`; `strata merge --rules`): the OLD side
//! is the more specific value. Maps `MostSpecific` / `hash` / `deep`, scalar lists `Unique` /
//! `Sum`, lists of maps `UniqueKeyValTuples` / `DeepTuple` / `Sum`, with and without
//! `tuple_keys`, knockout markers (raw, and stripped as a lookup's result is), rule selection
//! by path (exact, regex, default; case-folded or exact) and the notices. Expected results
//! follow docs/reference/datum.md where strata does not deviate on purpose
//! (docs/frontends/datum.md, "Deviations"; cases that pin a deviation say so).

use super::{merger, Entry};
use crate::strategy::ranked::{Field, ListMode, MapListMode, MapMode, RankedStrategy, RuleId};
use crate::strategy::selector::{PathRule, PathRules, RuleKind};
use crate::strategy::MergerSpec;
use crate::value::Span;

fn field<T>(value: T, id: RuleId, what: &str) -> Field<T> {
    Field {
        value,
        rule: merger(MergerSpec::Ranked(id), what),
    }
}

/// A strategy (its id is set when it is added to a table).
fn strat(maps: MapMode, lists: ListMode, map_lists: MapListMode) -> RankedStrategy {
    let id = RuleId(0);
    RankedStrategy {
        id,
        maps: field(maps, id, "merge_hash"),
        lists: field(lists, id, "merge_basetype_array"),
        map_lists: field(map_lists, id, "merge_hash_array"),
        knockout_prefix: None,
        item_keys: None,
    }
}

fn ko(mut s: RankedStrategy, prefix: &str) -> RankedStrategy {
    s.knockout_prefix = Some(field(prefix.into(), s.id, "knockout_prefix"));
    s
}

fn keys(mut s: RankedStrategy, names: &[&str]) -> RankedStrategy {
    let names = names.iter().map(|k| Box::<str>::from(*k)).collect();
    s.item_keys = Some(field(names, s.id, "tuple_keys"));
    s
}

fn most_specific() -> RankedStrategy {
    strat(
        MapMode::KeepFirst,
        ListMode::KeepFirst,
        MapListMode::KeepFirst,
    )
}

/// Datum's `hash` preset.
fn hash() -> RankedStrategy {
    ko(
        strat(
            MapMode::TopKeys,
            ListMode::KeepFirst,
            MapListMode::KeepFirst,
        ),
        "--",
    )
}

/// Datum's `deep` preset.
fn deep() -> RankedStrategy {
    keys(
        ko(
            strat(MapMode::Deep, ListMode::Union, MapListMode::MergeByKeys),
            "--",
        ),
        &["Name", "Version"],
    )
}

fn lists(mode: ListMode) -> RankedStrategy {
    strat(MapMode::KeepFirst, mode, MapListMode::KeepFirst)
}

fn map_lists(mode: MapListMode) -> RankedStrategy {
    strat(MapMode::KeepFirst, ListMode::KeepFirst, mode)
}

fn with_id(mut s: RankedStrategy, id: RuleId) -> RankedStrategy {
    s.id = id;
    for rule in [&mut s.maps.rule, &mut s.lists.rule, &mut s.map_lists.rule] {
        rule.spec = MergerSpec::Ranked(id);
    }
    s
}

/// A table: `default` for every path, then `rules` (`A\B` exact, `^...` regex) in order.
fn table(
    default: RankedStrategy,
    rules: Vec<(&str, RankedStrategy)>,
    fold: bool,
    strip: bool,
) -> Entry {
    let mut t = PathRules::new(
        fold,
        PathRule {
            name: "default".into(),
            kind: RuleKind::Default,
            span: Span::NONE,
            strategy: with_id(default, RuleId(0)),
        },
    );
    for (name, s) in rules {
        let kind = match name.strip_prefix('^') {
            Some(_) if fold => {
                RuleKind::Regex(regex::Regex::new(&format!("(?i){name}")).expect("a regex"))
            }
            Some(_) => RuleKind::Regex(regex::Regex::new(name).expect("a regex")),
            None => RuleKind::Exact(name.split('\\').map(|seg| t.norm(seg)).collect()),
        };
        let id = t.next_id();
        t.push(PathRule {
            name: name.into(),
            kind,
            span: Span::NONE,
            strategy: with_id(s, id),
        });
    }
    Entry::Ranked { rules: t, strip }
}

/// One strategy everywhere, case-folded (Datum).
fn r(s: RankedStrategy) -> Entry {
    table(s, Vec::new(), true, false)
}

/// `r`, the result stripped of knockout markers as a lookup's result is.
fn stripped(s: RankedStrategy) -> Entry {
    table(s, Vec::new(), true, true)
}

#[test]
fn maps_and_scalars() {
    // ref §3: scalars never merge, the more specific wins; a mismatch keeps it with a notice.
    merges!(r(most_specific()), "1", "2" => "1", ["/ kept"]);
    merges!(r(most_specific()), "false", "true" => "false");
    merges!(r(most_specific()), "{a: 1}", "{a: 2, b: 3}" => "{a: 1}", ["/ kept"]);
    merges!(r(most_specific()), "[1]", "[2]" => "[1]");
    merges!(r(most_specific()), "{a: 1}", "[1]" => "{a: 1}", notices ["/ shape-mismatch Map ScalarList"]);
    merges!(r(most_specific()), "x", "{a: 1}" => "x", notices ["/ shape-mismatch Scalar Map"]);
    merges!(r(most_specific()), "[]", "[{a: 1}]" => "[]", notices ["/ shape-mismatch ScalarList MapList"]);
    // ref §6 hash: top keys merged, reference keys first, nested maps kept whole.
    merges!(r(hash()), "{a: 1, b: {x: 1}}", "{b: {y: 2}, c: 3}" => "{a: 1, b: {x: 1}, c: 3}", ["/ merged", "/b kept", "/c added"]);
    merges!(r(hash()), "{b: 1}", "{a: 1, c: 1}" => "{b: 1, a: 1, c: 1}");
    merges!(r(hash()), "{a: null}", "{a: 1}" => "{a: null}");
    merges!(r(hash()), "{a: {x: 1}}", "{a: 2}" => "{a: {x: 1}}", notices ["/a shape-mismatch Map Scalar"]);
    // Nested lists under hash follow their own path's rule, else the default (here: hash's).
    merges!(r(hash()), "{a: [1]}", "{a: [2]}" => "{a: [1]}");
    merges!(table(hash(), vec![("a", lists(ListMode::Concat))], true, false), "{a: [1]}", "{a: [2]}" => "{a: [1, 2]}");
    // ref §6: hash never descends into nested maps, even when their path has a rule.
    merges!(table(hash(), vec![("a", r_deep())], true, false), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1}}");
    // deep: recursive; nested maps follow the parent's strategy unless their path has a rule.
    merges!(r(deep()), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1, y: 2}}", ["/ merged", "/a merged", "/a/y added"]);
    merges!(r(deep()), "{a: {b: {c: 1}}}", "{a: {b: {c: 2, d: 3}}}" => "{a: {b: {c: 1, d: 3}}}");
    merges!(table(deep(), vec![("a", most_specific())], true, false), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1}}");
    merges!(table(deep(), vec![(r"a\b", most_specific())], true, false), "{a: {b: {x: 1}, c: {x: 1}}}", "{a: {b: {y: 2}, c: {y: 2}}}" => "{a: {b: {x: 1}, c: {x: 1, y: 2}}}");
    // deviation 1: deep merges nested arrays with its own array behaviour (0.39: the default).
    merges!(r(deep()), "{a: [1, 2]}", "{a: [2, 3]}" => "{a: [1, 2, 3]}");
    // deviation 5: a mismatch deep inside keeps the more specific value (0.39 throws).
    merges!(r(deep()), "{a: {x: 1}}", "{a: [1]}" => "{a: {x: 1}}", notices ["/a shape-mismatch Map ScalarList"]);
    // Keys compare case-insensitively when the rules fold (Datum), exactly otherwise.
    merges!(r(hash()), "{Key: 1}", "{key: 2, other: 3}" => "{Key: 1, other: 3}");
    merges!(table(hash(), Vec::new(), false, false), "{Key: 1}", "{key: 2}" => "{Key: 1, key: 2}");
    merges!(r(deep()), "{A: {x: 1}}", "{a: {X: 2, y: 3}}" => "{A: {x: 1, y: 3}}");
    // ref §2: the result so far ranks first through a whole fold.
    folds!(r(deep()), ["{a: 1}", "{a: 2, b: 2}", "{a: 3, b: 3, c: 3}"] => "{a: 1, b: 2, c: 3}");
}

#[test]
fn the_map_walk_small_and_indexed() {
    // Above 16 keys the old map's folded keys are indexed; the answers must not change. A key
    // the walk has added is found again when a later key folds to it; a marker blocks its key
    // in either spelling.
    let keys = |n: usize| {
        (0..n)
            .map(|i| format!("K{i}: {i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for n in [1, 16, 17, 40] {
        let (old, want) = (
            format!("{{{}, --B: null}}", keys(n)),
            format!("{{{}, --B: null, c: 3}}", keys(n)),
        );
        merges!(r(hash()), old.as_str(), "{k0: x, b: 2, c: 3, C: 4}" => want.as_str());
        let want = format!("{{{}, c: 3}}", keys(n));
        merges!(stripped(hash()), old.as_str(), "{k0: x, b: 2, c: 3, C: 4}" => want.as_str());
    }
    // Exact keys: the marker blocks its own spelling only.
    merges!(table(hash(), Vec::new(), false, false), "{--b: null, a: 1}", "{b: 2, B: 3, a: 4}" => "{--b: null, a: 1, B: 3}");
}

fn r_deep() -> RankedStrategy {
    strat(MapMode::Deep, ListMode::KeepFirst, MapListMode::KeepFirst)
}

#[test]
fn knockouts() {
    // A `--key` marker blocks the key in less specific layers; markers stay in the merge and
    // a lookup strips them (deviation 1: Datum 0.39 keeps `--key: null` in the output).
    merges!(r(hash()), "{--b: null, a: 1}", "{b: 2, c: 3}" => "{--b: null, a: 1, c: 3}", ["/ merged", "/b deleted", "/c added"]);
    merges!(stripped(hash()), "{--b: null, a: 1}", "{b: 2, c: 3}" => "{a: 1, c: 3}");
    // ref §6: a knockout acts downwards only: a more specific value for the key stays.
    merges!(stripped(hash()), "{--b: null, b: 1}", "{b: 2}" => "{b: 1}");
    // A less specific marker for a key the reference lacks is carried down (and stripped).
    merges!(r(hash()), "{a: 1}", "{--b: null}" => "{a: 1, --b: null}");
    merges!(stripped(hash()), "{a: 1}", "{--b: null}" => "{a: 1}");
    // ... with its value (Datum 0.39 adds `--b: null`), blocking `b` further down.
    merges!(r(hash()), "{a: 1}", "{--b: 5}" => "{a: 1, --b: 5}");
    folds!(stripped(hash()), ["{a: 1}", "{--b: 5}", "{b: 2}"] => "{a: 1}");
    // Without a prefix `--b` is an ordinary key.
    merges!(r(strat(MapMode::TopKeys, ListMode::KeepFirst, MapListMode::KeepFirst)), "{--b: null}", "{b: 2}" => "{--b: null, b: 2}");
    merges!(stripped(strat(MapMode::TopKeys, ListMode::KeepFirst, MapListMode::KeepFirst)), "{--b: null}", "{b: 2}" => "{--b: null, b: 2}");
    // Another prefix.
    merges!(stripped(ko(r_deep(), "!")), "{'!b': 1, a: 1}", "{b: 2, --c: 3}" => "{a: 1, --c: 3}");
    // Markers compare case-insensitively when folding.
    merges!(stripped(hash()), "{--B: null}", "{b: 2}" => "{}");
    // deviation 6: a bare prefix knocks out the less specific value.
    merges!(r(hash()), "{a: '--', b: 1}", "{a: 5}" => "{a: '--', b: 1}", ["/ merged", "/a deleted"]);
    merges!(stripped(hash()), "{a: '--', b: 1}", "{a: 5}" => "{b: 1}");
    merges!(r(hash()), "'--'", "{a: 1}" => "'--'", ["/ deleted"]);
    merges!(stripped(deep()), "{a: {--x: null}}", "{a: {x: 1, y: 2}}" => "{a: {y: 2}}");
    // A marker keeps blocking every less specific layer.
    folds!(stripped(hash()), ["{--b: null}", "{b: 1}", "{b: 2, c: 3}"] => "{c: 3}");
    // Array items: the marker goes and (deviation 1) so does its target.
    merges!(r(ko(lists(ListMode::Union), "--")), "['--b', a]", "[b, c]" => "['--b', a, c]", ["/ merged", "/0 deleted", "/2 appended"]);
    merges!(stripped(ko(lists(ListMode::Union), "--")), "['--b', a]", "[b, c]" => "[a, c]");
    merges!(stripped(ko(lists(ListMode::Concat), "--")), "['--b', a]", "[b, c, b]" => "[a, c]");
    merges!(stripped(lists(ListMode::Union)), "['--b', a]", "[b]" => "['--b', a, b]");
    // Under MostSpecific arrays a marker is an ordinary item.
    merges!(stripped(ko(lists(ListMode::KeepFirst), "--")), "['--b', a]", "[b]" => "['--b', a]");
    // Hash-array items: a tuple value with the prefix knocks out the item it names.
    let tuples = |m| ko(keys(map_lists(m), &["Name"]), "--");
    merges!(r(tuples(MapListMode::FirstByKeys)), "[{Name: --b}, {Name: a}]", "[{Name: b, v: 1}, {Name: c}]" => "[{Name: --b}, {Name: a}, {Name: c}]");
    merges!(stripped(tuples(MapListMode::FirstByKeys)), "[{Name: --b}, {Name: a}]", "[{Name: b, v: 1}, {Name: c}]" => "[{Name: a}, {Name: c}]");
    merges!(stripped(tuples(MapListMode::MergeByKeys)), "[{Name: --B}, {Name: a}]", "[{Name: b, v: 1}, {Name: a, v: 2}]" => "[{Name: a, v: 2}]");
}

#[test]
fn scalar_lists() {
    let unique = r(lists(ListMode::Union));
    // ref §7 Unique: reference items first, first occurrence kept, case-sensitive.
    merges!(unique, "[a, b]", "[b, c]" => "[a, b, c]", ["/ merged", "/1 kept", "/2 appended"]);
    merges!(unique, "[A]", "[a]" => "[A, a]");
    merges!(unique, "[a, a]", "[b]" => "[a, b]");
    merges!(unique, "[1, '1', 1.0, true]", "[1]" => "[1, '1', 1.0, true]");
    merges!(unique, "[]", "[a]" => "[a]");
    merges!(unique, "[a, 1]", "[[x], 1]" => "[a, 1, [x]]");
    let sum = r(lists(ListMode::Concat));
    merges!(sum, "[a, b]", "[b]" => "[a, b, b]", ["/ merged", "/2 appended"]);
    merges!(sum, "[]", "[]" => "[]");
    // A list of maps and scalars is a scalar list.
    merges!(r(deep()), "[{a: 1}, 2]", "[3]" => "[{a: 1}, 2, 3]");
    folds!(unique, ["[a]", "[b, a]", "[c, b]"] => "[a, b, c]");
}

#[test]
fn lists_of_maps() {
    merges!(r(most_specific()), "[{a: 1}]", "[{a: 2}]" => "[{a: 1}]", ["/ kept"]);
    // Sum: more specific items first (0.39's Sum is broken; see the datum reference §8).
    merges!(r(map_lists(MapListMode::Concat)), "[{a: 1}]", "[{a: 1}, {b: 2}]" => "[{a: 1}, {a: 1}, {b: 2}]", ["/ merged", "/1 appended", "/2 appended"]);
    // ref §8 UniqueKeyValTuples: items never merged; duplicates within the reference go too.
    let ukvt = |ks: &[&str]| r(keys(map_lists(MapListMode::FirstByKeys), ks));
    merges!(ukvt(&["Name"]), "[{Name: a, v: 1}]", "[{Name: a, v: 2}, {Name: b}]" => "[{Name: a, v: 1}, {Name: b}]", ["/ merged", "/0 kept", "/1 appended"]);
    merges!(ukvt(&["Name"]), "[{Name: a, v: 1}, {Name: a, v: 2}]", "[{Name: b}]" => "[{Name: a, v: 1}, {Name: b}]");
    merges!(ukvt(&["Name", "Version"]), "[{Name: a, Version: 1}]", "[{Name: a, Version: 2}, {Name: a, Version: 1, x: 1}]" => "[{Name: a, Version: 1}, {Name: a, Version: 2}]");
    // ref §8: tuple values compare as PowerShell's -eq: case-insensitive, 1 -eq '1'.
    merges!(ukvt(&["Name"]), "[{Name: A}]", "[{name: a, v: 2}]" => "[{Name: A}]");
    merges!(ukvt(&["Name"]), "[{Name: 1}]", "[{Name: '1'}]" => "[{Name: 1}]");
    merges!(table(keys(map_lists(MapListMode::FirstByKeys), &["Name"]), Vec::new(), false, false), "[{Name: A}]", "[{Name: a}]" => "[{Name: A}, {Name: a}]");
    // ref §8: a map as a tuple value is compared on all its keys (folded).
    merges!(ukvt(&["Name"]), "[{Name: {a: 1}}]", "[{Name: {A: 1}, v: 1}, {Name: {a: 1, b: 2}}]" => "[{Name: {a: 1}}, {Name: {a: 1, b: 2}}]");
    // ref §8: a missing tuple key matches nothing (noticed once).
    merges!(ukvt(&["Name"]), "[{Name: a}, {v: 1}]", "[{v: 1}]" => "[{Name: a}, {v: 1}, {v: 1}]", notices ["/ item-without-key Name"]);
    // deviation 5: without tuple_keys items are compared whole (0.39 keeps only the first).
    merges!(r(map_lists(MapListMode::FirstByKeys)), "[{a: 1}, {a: 1}]", "[{a: 2}, {A: 1}]" => "[{a: 1}, {a: 2}]", notices ["/ compared-whole"]);
    // ref §8 DeepTuple: matching items merged into each reference item, the rest appended.
    let dt = |ks: &[&str]| r(keys(map_lists(MapListMode::MergeByKeys), ks));
    merges!(dt(&["Name"]), "[{Name: a, x: 1}]", "[{Name: a, y: 2}, {Name: b}]" => "[{Name: a, x: 1, y: 2}, {Name: b}]", ["/ merged", "/0 merged", "/0/Name kept", "/0/y added", "/1 appended"]);
    merges!(dt(&["Name"]), "[{Name: a, v: 1}]", "[{Name: a, v: 2}]" => "[{Name: a, v: 1}]");
    merges!(dt(&["Name"]), "[{Name: a, x: 1}, {Name: a, x: 2}]", "[{Name: a, y: 3}]" => "[{Name: a, x: 1, y: 3}, {Name: a, x: 2, y: 3}]");
    merges!(dt(&["Name"]), "[{Name: a}]", "[{Name: a, x: 1}, {Name: A, y: 2}]" => "[{Name: a, x: 1, y: 2}]");
    // deviation 2: matched items merge all the way down.
    merges!(dt(&["Name"]), "[{Name: a, s: {x: 1}}]", "[{Name: a, s: {y: 2}}]" => "[{Name: a, s: {x: 1, y: 2}}]");
    merges!(r(deep()), "[{Name: a, Version: 1, x: 1}]", "[{Name: a, Version: 2, y: 1}, {Name: a, Version: 1, z: 1}]" => "[{Name: a, Version: 1, x: 1, z: 1}, {Name: a, Version: 2, y: 1}]");
    // ref §8: without tuple_keys the first reference item's keys are used.
    merges!(r(map_lists(MapListMode::MergeByKeys)), "[{Name: a, v: 1}]", "[{Name: a, v: 1, w: 2}, {Name: a, v: 2}]" => "[{Name: a, v: 1, w: 2}, {Name: a, v: 2}]", notices ["/ keys-from-first Name,v"]);
    merges!(dt(&["Name"]), "[{x: 1}]", "[{Name: a}]" => "[{x: 1}, {Name: a}]", notices ["/ item-without-key Name"]);
}

#[test]
fn rule_selection() {
    let sum = lists(ListMode::Concat);
    // Exact path rules (folded), regexes in order, then the default.
    merges!(table(deep(), vec![(r"a\b", sum.clone())], true, false), "{a: {b: [1], c: [1]}}", "{a: {b: [1], c: [1, 2]}}" => "{a: {b: [1, 1], c: [1, 2]}}");
    merges!(table(deep(), vec![(r"A\B", sum.clone())], true, false), "{a: {b: [1]}}", "{a: {b: [1]}}" => "{a: {b: [1, 1]}}");
    merges!(table(deep(), vec![(r"A\B", sum.clone())], false, false), "{a: {b: [1]}}", "{a: {b: [1]}}" => "{a: {b: [1]}}");
    merges!(table(deep(), vec![(r"^a\\b", sum.clone())], true, false), "{a: {bc: [1]}}", "{a: {bc: [1]}}" => "{a: {bc: [1, 1]}}");
    merges!(table(deep(), vec![(r"^a\\b", sum.clone()), (r"^a\\", lists(ListMode::KeepFirst))], true, false), "{a: {b: [1]}}", "{a: {b: [1]}}" => "{a: {b: [1, 1]}}");
    merges!(table(deep(), vec![(r"^a\\", lists(ListMode::KeepFirst)), (r"^a\\b", sum.clone())], true, false), "{a: {b: [1]}}", "{a: {b: [2]}}" => "{a: {b: [1]}}");
    merges!(table(deep(), vec![(r"^a\\", lists(ListMode::KeepFirst)), (r"a\b", sum.clone())], true, false), "{a: {b: [1]}}", "{a: {b: [2]}}" => "{a: {b: [1, 2]}}");
    // Regexes are unanchored at the end: `^a` also rules `a` itself (maps kept whole) and `ab`.
    merges!(table(deep(), vec![(r"^a", lists(ListMode::Concat))], true, false), "{a: {x: 1}, ab: [1]}", "{a: {y: 2}, ab: [2]}" => "{a: {x: 1}, ab: [1, 2]}");
    // Items of a hash array are matched under the array's own path (no index).
    merges!(table(deep(), vec![(r"l\s", sum)], true, false), "{l: [{Name: a, Version: 1, s: [1]}]}", "{l: [{Name: a, Version: 1, s: [2]}]}" => "{l: [{Name: a, Version: 1, s: [1, 2]}]}");
}
