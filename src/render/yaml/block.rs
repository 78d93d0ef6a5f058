//! How a non-empty collection is written as a block: a map, a list, a set (`!!set`), a list of
//! pairs (`!!omap` / `!!pairs`) or a lone tuple.

use crate::value::{Key, Kind, Node};

/// How a non-empty collection is written as a block.
#[derive(Clone, Copy)]
pub(super) enum Block {
    Map,
    List,
    Set,
    /// A list of `(key, value)` tuples: `!!omap`, or `!!pairs` when a key repeats.
    Pairs(&'static str),
    /// A tuple outside such a list: no tag a safe loader reads makes one, so it is written
    /// as the list of its items.
    Tuple,
}

impl Block {
    pub(super) fn tag(self) -> &'static str {
        match self {
            Block::Set => "!!set",
            Block::Pairs(t) => t,
            Block::Map | Block::List | Block::Tuple => "",
        }
    }

    pub(super) fn tag_after_space(self) -> &'static str {
        match self {
            Block::Set => " !!set",
            Block::Pairs("!!pairs") => " !!pairs",
            Block::Pairs(_) => " !!omap",
            Block::Map | Block::List | Block::Tuple => "",
        }
    }
}

pub(super) fn block_tag(n: &Node) -> Option<Block> {
    match &n.kind {
        Kind::Map(m) if !m.is_empty() => Some(Block::Map),
        Kind::Set(m) if !m.is_empty() => Some(Block::Set),
        Kind::List(l) if !l.is_empty() => Some(pairs_tag(l).map_or(Block::List, Block::Pairs)),
        Kind::Tuple(l) if !l.is_empty() => Some(Block::Tuple),
        _ => None,
    }
}

/// `!!omap` / `!!pairs` when every item is a two-item tuple.
/// Asked of every list the writer meets: nothing is allocated unless every item is such a pair.
pub(super) fn pairs_tag(items: &[Node]) -> Option<&'static str> {
    let pairs = items
        .iter()
        .all(|item| matches!(&item.kind, Kind::Tuple(kv) if kv.len() == 2));
    if !pairs {
        return None;
    }
    let mut keys = std::collections::HashSet::with_capacity(items.len());
    let mut repeats = false;
    for item in items {
        if let Kind::Tuple(kv) = &item.kind {
            repeats |= !keys.insert(Key(kv[0].clone()));
        }
    }
    Some(if repeats { "!!pairs" } else { "!!omap" })
}
