//! Key comparison for the ranked merge (case folding): exact, or case-folded (`eq_fold`), with an index of
//! folded key texts so that many case-insensitive lookups in one map cost linear time.

use crate::value::{Key, Map};

/// Case-insensitive string equality.
pub(crate) fn eq_fold(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        a.chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase))
    }
}

/// A key text folded the way `eq_fold` compares: `eq_fold(a, b)` exactly when
/// `fold_text(a) == fold_text(b)`.
pub(crate) fn fold_text(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.chars().flat_map(char::to_lowercase).collect()
    }
}

/// The position of each folded key text in a map (the first of keys that fold alike, as
/// `find_key` finds), so that many case-insensitive lookups cost linear time in all.
pub(crate) fn fold_index(map: &Map) -> rustc_hash::FxHashMap<String, usize> {
    let mut index = rustc_hash::FxHashMap::default();
    index.reserve(map.len());
    for (i, k) in map.keys().enumerate() {
        index.entry(fold_text(&key_str(k))).or_insert(i);
    }
    index
}

/// A key's text without allocating for string keys.
pub(crate) fn key_str(k: &Key) -> std::borrow::Cow<'_, str> {
    crate::value::key_cow(&k.0)
}

/// Finds a key in a map the way the rules compare keys.
pub(crate) fn find_key(map: &Map, key: &Key, fold: bool) -> Option<usize> {
    if !fold {
        return map.get_index_of(key);
    }
    let text = key_str(key);
    map.keys().position(|k| eq_fold(&key_str(k), &text))
}
