//! `Map`, the value tree's order-keeping map. Most maps in configuration files are small, so a
//! map is a vector of entries searched in order; from `INDEX_FROM` entries on it also keeps a
//! hash index of positions (hashbrown's `HashTable`, Fx hashing). Keys compare and hash with
//! Python's dict equality (`Key`; NaN keys are one key, as PyYAML's `.nan` is): inserting an
//! existing key replaces the value and keeps the first key object and its position, as Python
//! does.

use super::{hash_key, Key, KeyRef, Kind, Node};
use hashbrown::HashTable;
use std::hash::{Hash, Hasher};

/// Maps with this many entries or more keep a hash index.
const INDEX_FROM: usize = 9;

/// Order-keeping map from keys to values.
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Key, Node)>,
    index: Option<Box<HashTable<u32>>>,
}

/// Something a map can be searched with: a `Key` or a borrowed `KeyRef`.
pub trait Lookup {
    /// The key's node.
    fn node(&self) -> &Node;
}

impl Lookup for Key {
    fn node(&self) -> &Node {
        &self.0
    }
}

impl Lookup for KeyRef<'_> {
    fn node(&self) -> &Node {
        self.0
    }
}

fn hash_of(node: &Node) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    hash_key(node, &mut h);
    h.finish()
}

fn slot(i: usize) -> u32 {
    u32::try_from(i).expect("a map holds fewer than 2^32 entries")
}

/// Iterator over `(&key, &value)` in order.
pub(super) type Iter<'a> =
    std::iter::Map<std::slice::Iter<'a, (Key, Node)>, fn(&(Key, Node)) -> (&Key, &Node)>;

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Room for `n` more entries (the block may grow by more).
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    /// Room for exactly `n` more entries (no doubling): for merges that know what they add.
    pub fn reserve_exact(&mut self, n: usize) {
        self.entries.reserve_exact(n);
    }

    /// The position of a key.
    pub fn get_index_of<Q: Lookup + ?Sized>(&self, key: &Q) -> Option<usize> {
        let key = key.node();
        self.position(key, self.index.as_ref().map(|_| hash_of(key)))
    }

    /// The position of a key, through the index with `hash` (given exactly when there is one),
    /// else by comparing in order.
    fn position(&self, key: &Node, hash: Option<u64>) -> Option<usize> {
        match (&self.index, hash) {
            (Some(index), Some(hash)) => index
                .find(hash, |&i| {
                    self.entries
                        .get(i as usize)
                        .is_some_and(|(k, _)| k.0.key_eq(key))
                })
                .map(|&i| i as usize),
            _ => self.entries.iter().position(|(k, _)| k.0.key_eq(key)),
        }
    }

    /// The value of a string key, found without building a key node (a key longer than an
    /// inline string would be allocated for every lookup). Only a string key equals a string
    /// under Python's `==`, so this is `get(&Key::str(key))`.
    pub fn get_str(&self, key: &str) -> Option<&Node> {
        let is = |k: &Key| matches!(&k.0.kind, Kind::Str(s) if s.as_str() == key);
        let i = match &self.index {
            Some(index) => {
                // `hash_key` of a string node.
                let mut h = rustc_hash::FxHasher::default();
                h.write_u8(0);
                key.hash(&mut h);
                index
                    .find(h.finish(), |&i| {
                        self.entries.get(i as usize).is_some_and(|(k, _)| is(k))
                    })
                    .map(|&i| i as usize)
            }
            None => self.entries.iter().position(|(k, _)| is(k)),
        }?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// Whether `key` is in the map.
    pub fn contains_key<Q: Lookup + ?Sized>(&self, key: &Q) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The value at `key`.
    pub fn get<Q: Lookup + ?Sized>(&self, key: &Q) -> Option<&Node> {
        let i = self.get_index_of(key)?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// The value at `key`, to change.
    pub fn get_mut<Q: Lookup + ?Sized>(&mut self, key: &Q) -> Option<&mut Node> {
        let i = self.get_index_of(key)?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Key, &Node)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    /// The entry at position `i`, its value to change.
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Key, &mut Node)> {
        self.entries.get_mut(i).map(|(k, v)| (&*k, v))
    }

    /// Sets a key's value. An existing equal key keeps its object and position and the old
    /// value is returned; a new key goes last.
    pub fn insert(&mut self, key: Key, value: Node) -> Option<Node> {
        // Hashed once, for both the lookup and the index entry.
        let hash = self.index.as_ref().map(|_| hash_of(&key.0));
        if let Some(i) = self.position(&key.0, hash) {
            return self
                .entries
                .get_mut(i)
                .map(|(_, v)| std::mem::replace(v, value));
        }
        self.push_new(key, value, hash);
        None
    }

    /// `insert` that gives the key back when an equal key was there (its value replaced, the
    /// first key object kept): one search where a lookup then an insert make two.
    pub fn insert_or_return(&mut self, key: Key, value: Node) -> Option<Key> {
        let hash = self.index.as_ref().map(|_| hash_of(&key.0));
        if let Some(i) = self.position(&key.0, hash) {
            if let Some((_, v)) = self.entries.get_mut(i) {
                *v = value;
            }
            return Some(key);
        }
        self.push_new(key, value, hash);
        None
    }

    /// Appends a key found missing, `hash` its hash when the map has an index.
    fn push_new(&mut self, key: Key, value: Node, hash: Option<u64>) {
        let at = self.entries.len();
        self.entries.push((key, value));
        match (self.index.as_mut(), hash) {
            (Some(index), Some(hash)) => {
                let entries = &self.entries;
                index.insert_unique(hash, slot(at), |&i| {
                    entries.get(i as usize).map_or(0, |(k, _)| hash_of(&k.0))
                });
            }
            _ if self.entries.len() >= INDEX_FROM => self.reindex(),
            _ => {}
        }
    }

    /// Adds a key the caller knows is not in the map (no search for it), last.
    pub fn insert_new(&mut self, key: Key, value: Node) {
        debug_assert!(
            !self.contains_key(&key),
            "insert_new of a key the map holds"
        );
        let at = self.entries.len();
        self.entries.push((key, value));
        if let Some(index) = self.index.as_mut() {
            let entries = &self.entries;
            let hash = entries.get(at).map_or(0, |(k, _)| hash_of(&k.0));
            index.insert_unique(hash, slot(at), |&i| {
                entries.get(i as usize).map_or(0, |(k, _)| hash_of(&k.0))
            });
        } else if self.entries.len() >= INDEX_FROM {
            self.reindex();
        }
    }

    /// Removes a key, shifting the later entries down (order kept).
    pub fn shift_remove<Q: Lookup + ?Sized>(&mut self, key: &Q) -> Option<Node> {
        let i = self.get_index_of(key)?;
        self.shift_remove_index(i).map(|(_, v)| v)
    }

    /// Removes the entry at position `i`, shifting the later entries down (order kept).
    pub fn shift_remove_index(&mut self, i: usize) -> Option<(Key, Node)> {
        if i >= self.entries.len() {
            return None;
        }
        let removed = self.entries.remove(i);
        self.reindex();
        Some(removed)
    }

    /// Keeps the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Node) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.reindex();
        }
    }

    /// Sorts the entries (stably) by a key computed once per entry.
    pub fn sort_by_cached_key<K: Ord>(&mut self, mut f: impl FnMut(&Key, &Node) -> K) {
        self.entries.sort_by_cached_key(|(k, v)| f(k, v));
        self.reindex();
    }

    /// Rebuilds the index after entries moved (or drops it for a small map).
    fn reindex(&mut self) {
        if self.entries.len() < INDEX_FROM {
            self.index = None;
            return;
        }
        let mut index = HashTable::with_capacity(self.entries.len());
        for (i, (k, _)) in self.entries.iter().enumerate() {
            let entries = &self.entries;
            index.insert_unique(hash_of(&k.0), slot(i), |&j| {
                entries.get(j as usize).map_or(0, |(k, _)| hash_of(&k.0))
            });
        }
        self.index = Some(Box::new(index));
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The entries in order, values to change.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&Key, &mut Node)> + '_ {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Node> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, to change.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Node> + '_ {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The keys in order, taken.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> {
        self.entries.into_iter().map(|(k, _)| k)
    }

    /// The values in order, taken.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Node> {
        self.entries.into_iter().map(|(_, v)| v)
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl IntoIterator for Map {
    type Item = (Key, Node);
    type IntoIter = std::vec::IntoIter<(Key, Node)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Node);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Extend<(Key, Node)> for Map {
    fn extend<I: IntoIterator<Item = (Key, Node)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl FromIterator<(Key, Node)> for Map {
    fn from_iter<I: IntoIterator<Item = (Key, Node)>>(items: I) -> Map {
        let mut map = Map::new();
        map.extend(items);
        map
    }
}

#[cfg(test)]
mod tests {
    use super::{Map, INDEX_FROM};
    use crate::value::{Key, Kind, Node, Span};

    fn int(i: i64) -> Node {
        Node::new(Kind::Int(i), Span::NONE)
    }

    /// `get_str` finds what `get(&Key::str(..))` finds, in small and indexed maps, among keys
    /// of every kind (a number, a timestamp spelled like the string, long and short strings).
    #[test]
    fn string_lookups_agree_with_key_lookups() {
        for n in [3usize, INDEX_FROM - 1, INDEX_FROM, 50] {
            let mut m = Map::new();
            for i in 0..n {
                let key = match i % 4 {
                    0 => Key(int(i as i64)),
                    1 => Key::str(&format!("k{i}")),
                    2 => Key::str(&format!("a long key that is not inline {i}")),
                    _ => Key(Node::new(
                        Kind::Timestamp(format!("2001-01-0{}", i % 9).into()),
                        Span::NONE,
                    )),
                };
                m.insert(key, Node::str(format!("v{i}"), Span::NONE));
            }
            let probes = (0..n + 3).flat_map(|i| {
                [
                    format!("k{i}"),
                    format!("a long key that is not inline {i}"),
                    format!("2001-01-0{}", i % 9),
                    i.to_string(),
                ]
            });
            for p in probes {
                let want = m.get(&Key::str(&p)).and_then(Node::as_str);
                assert_eq!(m.get_str(&p).and_then(Node::as_str), want, "{n} {p}");
            }
        }
    }

    /// Small and indexed maps behave alike: Python equality (1 == 1.0 == True), first key
    /// object kept on re-insert, order kept through removal, retain and sort.
    #[test]
    fn small_and_indexed_maps_agree() {
        for n in [4usize, INDEX_FROM - 1, INDEX_FROM, 40] {
            let mut m = Map::new();
            for i in 0..n {
                assert!(m
                    .insert(Key(int(i as i64)), Node::str(format!("v{i}"), Span::NONE))
                    .is_none());
            }
            let one_float = Key(Node::new(Kind::Float(1.0), Span::NONE));
            let old = m.insert(one_float.clone(), Node::str("float", Span::NONE));
            assert_eq!(
                old.and_then(|o| o.as_str().map(str::to_string)),
                Some("v1".into())
            );
            assert!(matches!(
                m.get_index(1).map(|(k, _)| &k.0.kind),
                Some(Kind::Int(1))
            ));
            let t = Key(Node::new(Kind::Bool(true), Span::NONE));
            assert_eq!(m.get(&t).and_then(Node::as_str), Some("float"));
            // One search: the key given is handed back, the first key object stays.
            let back = m.insert_or_return(t.clone(), Node::str("bool", Span::NONE));
            assert!(matches!(back.map(|k| k.0.kind), Some(Kind::Bool(true))));
            assert_eq!(m.get(&one_float).and_then(Node::as_str), Some("bool"));
            assert!(m
                .insert_or_return(Key(int(-1)), Node::null(Span::NONE))
                .is_none());
            assert!(m.shift_remove(&Key(int(-1))).is_some());
            assert_eq!(m.len(), n);
            assert!(m.shift_remove(&Key(int(0))).is_some());
            assert_eq!(m.get_index_of(&one_float), Some(0));
            for i in 1..n {
                assert_eq!(
                    m.get_index_of(&Key(int(i as i64))),
                    Some(i - 1),
                    "n={n} i={i}"
                );
            }
            m.retain(|k, _| !matches!(k.0.kind, Kind::Int(2)));
            assert!(!m.contains_key(&Key(int(2))));
            m.sort_by_cached_key(|k, _| match k.0.kind {
                Kind::Int(i) => -i,
                _ => 0,
            });
            let last = n as i64 - 1;
            assert_eq!(m.get_index_of(&Key(int(last))), Some(0), "n={n}");
            for (i, (k, _)) in m.iter().enumerate() {
                assert_eq!(m.get_index_of(k), Some(i), "n={n}");
            }
            assert!(m.get(&Key(int(n as i64))).is_none());
            // NaN keys are one key (PyYAML's `.nan` is one object), whatever their bits.
            let nan = |f: f64| Key(Node::new(Kind::Float(f), Span::NONE));
            assert!(m.insert(nan(f64::NAN), int(1)).is_none());
            assert!(m.insert(nan(-f64::NAN), int(2)).is_some(), "n={n}");
            assert!(m.contains_key(&nan(f64::from_bits(0x7ff8_0000_0000_0001))));
            assert_eq!(
                m.keys()
                    .filter(|k| k.0.key_eq(&nan(f64::NAN.copysign(-1.0)).0))
                    .count(),
                1
            );
        }
    }
}
