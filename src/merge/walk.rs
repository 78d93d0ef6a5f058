//! The one walk over two maps that every family's map merge runs (`dict`, `ranked`, `gem`):
//! each key of the new map in order is found in the old map — exactly, or case-folded — or
//! found blocked by a knockout marker the old map holds (`<prefix><key>`), and is then added
//! (absent), merged or deleted (both have it); the result keeps the old map's order with added
//! keys last. The keys' matching and markers are data (`Keys`); what happens at each key is
//! the family's `KeyPolicy`. Positions, the folded-key index, reservation and the bookkeeping
//! after a deletion live here only.

use super::casefold::{find_key, fold_index, fold_text, key_str};
use crate::value::{Key, Map, Node};

/// How the keys of the two maps are matched.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keys<'a> {
    /// Case-insensitive keys (Datum's): `Name` and `name` are one key.
    pub fold: bool,
    /// A knockout prefix: an old key `<prefix><key>` blocks the new `key`.
    pub marker: Option<&'a str>,
}

impl Keys<'_> {
    /// Keys that match exactly, without markers.
    pub(super) const EXACT: Keys<'static> = Keys {
        fold: false,
        marker: None,
    };
}

/// What becomes of an old value both maps have a key for.
pub(super) enum Fate {
    /// It stays (as the policy left it in its slot).
    Stays,
    /// The key is removed.
    Deleted,
}

/// What a family does at each key; `enter`/`leave` bracket every key (the path).
pub(super) trait KeyPolicy {
    type Error;
    fn enter(&mut self, key: &Key);
    fn leave(&mut self);
    /// A new key the old map lacks: the value to add, `None` to leave it out.
    fn absent(&mut self, key: &Key, new: Node) -> Result<Option<Node>, Self::Error>;
    /// A key both maps have: merge `new` into the old value in its slot.
    fn both(&mut self, old: &mut Node, new: Node) -> Result<Fate, Self::Error>;
    /// The new value at a key blocked by the old map's marker `marker`.
    fn blocked(&mut self, _marker: &Key, _new: Node) {}
}

/// Merges the keys of `new` into `old` under `policy`.
pub(super) fn walk<P: KeyPolicy>(
    policy: &mut P,
    old: &mut Map,
    new: Map,
    keys: Keys<'_>,
) -> Result<(), P::Error> {
    if keys.fold {
        return walk_folded(policy, old, new, keys.marker);
    }
    // Each new key is looked up once: its position holds until an entry is deleted (an added
    // key goes last; the new map's keys are distinct).
    let found: Vec<Option<usize>> = new.keys().map(|k| old.get_index_of(k)).collect();
    let added = found.iter().filter(|i| i.is_none()).count();
    if added > 0 {
        // Room for exactly the keys this merge adds (doubling would leave a loaded map's block
        // half empty), but at least an eighth more, so a map that many layers each add a key
        // to still grows geometrically.
        old.reserve_exact(added.max(old.len() / 8));
    }
    let mut shifted = false;
    for ((k, nv), at) in new.into_iter().zip(found) {
        policy.enter(&k);
        if let Some(p) = keys.marker {
            let marker = Key::str(&format!("{p}{}", key_str(&k)));
            if let Some((mk, _)) = old.get_index_of(&marker).and_then(|i| old.get_index(i)) {
                policy.blocked(mk, nv);
                policy.leave();
                continue;
            }
        }
        let at = if shifted { old.get_index_of(&k) } else { at };
        let r = settle(policy, old, k, nv, at, &mut shifted);
        policy.leave();
        r?;
    }
    Ok(())
}

/// `walk` with case-folded keys: positions are found as the walk goes (a key added may be met
/// again spelled otherwise); a large old map gets an index of folded key texts.
fn walk_folded<P: KeyPolicy>(
    policy: &mut P,
    old: &mut Map,
    new: Map,
    marker: Option<&str>,
) -> Result<(), P::Error> {
    let mut index = (old.len() > 16).then(|| fold_index(old));
    let mut shifted = false;
    for (k, nv) in new {
        policy.enter(&k);
        if shifted {
            index = index.map(|_| fold_index(old));
            shifted = false;
        }
        let text = key_str(&k);
        if let Some(p) = marker {
            let at = match &index {
                Some(ix) => ix.get(&fold_text(&format!("{p}{text}"))).copied(),
                None => find_marker(old, p, &text),
            };
            if let Some((mk, _)) = at.and_then(|i| old.get_index(i)) {
                policy.blocked(mk, nv);
                policy.leave();
                continue;
            }
        }
        let at = match &index {
            Some(ix) => ix.get(&fold_text(&text)).copied(),
            None => find_key(old, &k, true),
        };
        if let (None, Some(ix)) = (at, index.as_mut()) {
            let (text, len) = (fold_text(&text), old.len());
            let added = policy.absent(&k, nv);
            policy.leave();
            if let Some(v) = added? {
                ix.entry(text).or_insert(len);
                old.insert_new(k, v);
            }
            continue;
        }
        let r = settle(policy, old, k, nv, at, &mut shifted);
        policy.leave();
        r?;
    }
    Ok(())
}

/// One key: added when absent (`at` is `None`), else merged into the old value at `at`.
fn settle<P: KeyPolicy>(
    policy: &mut P,
    old: &mut Map,
    k: Key,
    nv: Node,
    at: Option<usize>,
    shifted: &mut bool,
) -> Result<(), P::Error> {
    match at {
        None => {
            if let Some(v) = policy.absent(&k, nv)? {
                old.insert_new(k, v);
            }
        }
        Some(i) => {
            let Some((_, ov)) = old.get_index_mut(i) else {
                return Ok(());
            };
            if let Fate::Deleted = policy.both(ov, nv)? {
                old.shift_remove_index(i);
                *shifted = true;
            }
        }
    }
    Ok(())
}

/// The position of the knockout marker `<prefix><key>` in a map, keys compared case-folded.
fn find_marker(map: &Map, prefix: &str, key: &str) -> Option<usize> {
    map.keys().position(|k| {
        k.as_str()
            .and_then(|t| t.strip_prefix(prefix))
            .is_some_and(|rest| super::casefold::eq_fold(rest, key))
    })
}
