//! The deep_merge gem's table (Hiera's `deep`): `merges!(gem(..), dest, source => ..)` is
//! `DeepMerge.deep_merge!(source, dest)` with the lower level as the old side; `folds!` lists
//! Hiera's levels highest first. Ruby truthiness, `nil` never overriding, arrays united by
//! `eql?` (`dest | source`), `merge_hash_arrays`, `sort_merged_arrays`, knockouts and the
//! effects of Ruby's object identity. Expected results follow docs/reference/hiera.md (cases
//! marked `ref`) and agree with deep_merge 1.1.1 under Ruby (`scripts/check-table.py` replays
//! them).

use super::{merger, Entry};
use crate::strategy::{GemOpts, Knockout, MergerSpec, RuleSet};

fn with(opts: GemOpts) -> Entry {
    Entry::Gem(RuleSet::one(merger(MergerSpec::Gem(opts), "deep")))
}

/// No options.
fn gem() -> Entry {
    with(GemOpts::default())
}

fn knockout(prefix: &str) -> Option<Knockout> {
    Some(Knockout {
        prefix: prefix.into(),
        re: regex::Regex::new(&format!("(?m)^(?:{prefix})")).expect("a regex"),
    })
}

fn ko(prefix: &str) -> Entry {
    with(GemOpts {
        knockout: knockout(prefix),
        ..GemOpts::default()
    })
}

fn sorted() -> Entry {
    with(GemOpts {
        sort_merged_arrays: true,
        ..GemOpts::default()
    })
}

fn hash_arrays() -> Entry {
    with(GemOpts {
        merge_hash_arrays: true,
        ..GemOpts::default()
    })
}

#[test]
fn truthiness_and_hashes() {
    // ref: nil never overrides; a falsy dest (nil, false) is replaced; 0 and '' are truthy.
    merges!(gem(), "{a: 1}", "{a: null}" => "{a: 1}", []);
    merges!(gem(), "1", "null" => "1");
    merges!(gem(), "{a: false}", "{a: {k: v}}" => "{a: {k: v}}", ["/a replaced"]);
    merges!(gem(), "{a: null}", "{a: 1}" => "{a: 1}", ["/a replaced"]);
    merges!(gem(), "{a: 1}", "{a: 2}" => "{a: 2}", ["/a replaced"]);
    merges!(gem(), "{a: 1}", "{a: false}" => "{a: false}");
    merges!(gem(), "{a: ''}", "{a: x}" => "{a: x}");
    merges!(gem(), "{a: {x: 1}}", "{a: {y: 2}}" => "{a: {x: 1, y: 2}}", ["/a/y added"]);
    merges!(gem(), "{a: {x: 1, y: 2}}", "{a: {y: 3}}" => "{a: {x: 1, y: 3}}");
    // Key order: dest's keys, then source's new keys.
    merges!(gem(), "{c: 1, b: 1}", "{b: 2, a: 2}" => "{c: 1, b: 2, a: 2}");
    merges!(gem(), "{a: x}", "{a: {k: v}}" => "{a: {k: v}}", ["/a replaced"]);
    merges!(gem(), "{a: {k: v}}", "{a: x}" => "{a: x}");
    merges!(gem(), "{a: {k: v}}", "{a: [1]}" => "{a: [1]}");
    // Object identity: a value new at a key is merged with its own copy (duplicates go) ...
    merges!(gem(), "{a: 1}", "{b: [1, 1]}" => "{a: 1, b: [1]}", ["/b added"]);
    // ... and so is a value replacing a falsy dest (a truthy 0 is overwritten plainly).
    merges!(gem(), "{a: false}", "{a: [1, 1]}" => "{a: [1]}");
    merges!(gem(), "{a: 0}", "{a: [1, 1]}" => "{a: [1, 1]}");
    merges!(gem(), "false", "[1, 1]" => "[1, 1]");
    // A hash over a non-hash: later keys merge with themselves.
    merges!(gem(), "{a: x}", "{a: {k: v, j: [1, 1]}}" => "{a: {k: v, j: [1]}}");
    merges!(gem(), "{a: x}", "{a: {j: [1, 1]}}" => "{a: {j: [1, 1]}}");
    merges!(gem(), "{a: x}", "{a: {}}" => "{a: x}");
    // ref: levels fold highest first; the result so far is the source.
    folds!(gem(), ["{a: null}", "{a: from-role}", "{a: from-common}"] => "{a: from-role}");
    folds!(gem(), ["{a: 1}", "{b: 2}", "{a: 3, c: 3}"] => "{a: 1, c: 3, b: 2}");
}

#[test]
fn arrays() {
    // ref: `dest | source`: lower-priority items first, union by `eql?`.
    merges!(gem(), "[b, c, d]", "[a, b]" => "[b, c, d, a]", ["/ appended"]);
    merges!(gem(), "[a, a]", "[b]" => "[a, b]");
    merges!(gem(), "[1]", "[1.0, true, '1', 1]" => "[1, 1.0, true, '1']");
    merges!(gem(), "[{a: 1, b: 2}]", "[{b: 2, a: 1}]" => "[{a: 1, b: 2}]");
    merges!(gem(), "[null]", "[null, ~]" => "[null]");
    merges!(gem(), "{a: [x]}", "{a: [y, x]}" => "{a: [x, y]}");
    merges!(gem(), "{a: x}", "{a: [1]}" => "{a: [1]}", ["/a replaced"]);
    merges!(gem(), "{a: [1]}", "{a: x}" => "{a: x}");
    folds!(gem(), ["[a, b, '--c']", "[b, c, d]", "[z, a]"] => "[z, a, b, c, d, '--c']");
    // merge_hash_arrays: two arrays of hashes merge by index, extra source items appended.
    merges!(hash_arrays(), "[{name: n1, v: role}, {name: r2}]", "[{name: n1, v: node, extra: 1}]" => "[{name: n1, v: node, extra: 1}, {name: r2}]");
    merges!(hash_arrays(), "[{a: 1}]", "[{b: 1}, {c: 1}]" => "[{a: 1, b: 1}, {c: 1}]");
    merges!(hash_arrays(), "[{a: [1]}]", "[{a: [2]}]" => "[{a: [1, 2]}]");
    merges!(hash_arrays(), "[{a: 1}, x]", "[{a: 2}]" => "[{a: 1}, x, {a: 2}]");
    merges!(hash_arrays(), "[]", "[{a: 2}]" => "[{a: 2}]");
    merges!(gem(), "[{a: 1}]", "[{a: 2}]" => "[{a: 1}, {a: 2}]");
    // sort_merged_arrays: every merged array sorted, also one new at a key.
    merges!(sorted(), "[c, a]", "[b]" => "[a, b, c]");
    merges!(sorted(), "{a: 1}", "{b: [z, y]}" => "{a: 1, b: [y, z]}");
    merges!(sorted(), "[3, 1]", "[2.5]" => "[1, 2.5, 3]");
    merges!(sorted(), "[b]", "[1]" => fails "comparison of ");
    merges!(sorted(), "{a: x}", "{a: [z, y]}" => "{a: [z, y]}");
}

#[test]
fn knockouts() {
    // ref: a bare prefix empties dest and goes; `--x` removes x and `--x` from dest.
    merges!(ko("--"), "[r1, r2]", "['--', x]" => "[x]");
    merges!(ko("--"), "[b, c, d]", "[a, b, '--c']" => "[b, d, a]");
    merges!(ko("--"), "[b, '--c']", "['--c']" => "[b]");
    folds!(ko("--"), ["[a, b, '--c']", "[b, c, d]", "[z, a, c]"] => "[z, a, c, b, d]");
    folds!(ko("--"), ["['--', x]", "[r1, r2]", "[c1]"] => "[c1, x]");
    // ref: a string starting with the prefix makes "" (the key stays).
    merges!(ko("--"), "{gone: {deep: value}}", "{gone: '--'}" => "{gone: ''}");
    merges!(ko("--"), "{a: x}", "{a: '--y'}" => "{a: ''}");
    merges!(ko("--"), "{a: x}", "{a: \"y\\n--z\"}" => "{a: ''}");
    merges!(ko("--"), "{a: x}", "{a: 'y--'}" => "{a: 'y--'}");
    // ref: hash keys with the prefix are plain keys.
    merges!(ko("--"), "{bob: 1}", "{--bob: null}" => "{bob: 1, --bob: null}");
    // An array over a non-array loses its knockout items.
    merges!(ko("--"), "{a: x}", "{a: ['--y', z]}" => "{a: [z]}");
    // Object identity: an array new at a key loses its knockout items ...
    merges!(ko("--"), "{a: 1}", "{b: [x, '--y']}" => "{a: 1, b: [x]}");
    merges!(ko("--"), "{a: 1}", "{b: ['--', x]}" => "{a: 1, b: [x]}");
    // ... and one merged with itself under a hash over a non-hash is emptied by a bare prefix.
    merges!(ko("--"), "{a: s}", "{a: {k: 1, j: ['--', x]}}" => "{a: {k: 1, j: []}}");
    // The prefix is a regex, anchored at each line start.
    merges!(ko("!"), "[a, b]", "['!a']" => "[b]");
    merges!(ko("-+"), "[a, b]", "['---a']" => "[b]");
    merges!(ko("--"), "[a, b]", "[c]" => "[a, b, c]");
    merges!(gem(), "[a, b]", "['--a']" => "[a, b, '--a']");
    // Options together: knockouts before the index-wise merge, the sort last.
    let all = with(GemOpts {
        knockout: knockout("--"),
        sort_merged_arrays: true,
        merge_hash_arrays: true,
    });
    merges!(all, "[c, a, b]", "['--b', d]" => "[a, c, d]");
    merges!(all, "[{a: [y, x]}]", "[{a: ['--y', z]}]" => "[{a: [x, z]}]");
    merges!(all, "{a: [{k: 1}, {k: 2}]}", "{a: ['--', {k: 3}]}" => "{a: [{k: 3}]}");
}
