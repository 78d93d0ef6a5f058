//! A changed model file keeps what people wrote (issues 14 and 17): before a file's new content
//! is written, every part of it that the file already holds is taken from the file's own tree,
//! whose spans point into the file, so the YAML writer writes those parts with their comments
//! and spellings. The new content decides the values and their order; the old tree only lends
//! its nodes.
//!
//! Matching: map entries by key (the file's key node and the file's key order are kept; new
//! keys follow in the model's order); list items equal to an old item
//! first, then maps by the same `name` or `id` (the key fields Ardana's lists use), then by
//! position. A scalar that changed under a kept key keeps the old scalar's place, so the
//! comments of its line and above its key stay (its spelling does not: the value differs).

use crate::value::{Key, Kind, Map, Node};
use std::collections::HashMap;

/// `new`, with every part that `old` holds taken from `old`.
pub(super) fn graft(new: &Node, old: &Node) -> Node {
    if new == old {
        return old.clone();
    }
    match (&new.kind, &old.kind) {
        (Kind::Map(m), Kind::Map(o)) => {
            // The file's keys in the file's order, then the new ones in the model's.
            let mut out = Map::with_capacity(m.len());
            for (ok, ov) in o.iter() {
                if let Some(v) = m.get(ok) {
                    out.insert(ok.clone(), graft(v, ov));
                }
            }
            for (k, v) in m.iter() {
                if !o.contains_key(k) {
                    out.insert(k.clone(), v.clone());
                }
            }
            Node::map(out, old.span)
        }
        (Kind::List(items), Kind::List(o)) => Node::list(list(items, o), old.span),
        (_, _) if new.is_scalar() && old.is_scalar() => Node::new(new.kind.clone(), old.span),
        _ => new.clone(),
    }
}

fn list(items: &[Node], old: &[Node]) -> Vec<Node> {
    let mut used = vec![false; old.len()];
    let mut pick: Vec<Option<usize>> = vec![None; items.len()];
    // Equal scalars, then maps with the same name or id (each old item lends itself once).
    let keys: [fn(&Node) -> Option<&Node>; 3] = [
        |n| n.is_scalar().then_some(n),
        |n| n.get("name"),
        |n| n.get("id"),
    ];
    for key in keys {
        let mut index: HashMap<Key, Vec<usize>> = HashMap::new();
        for (i, o) in old.iter().enumerate().rev() {
            if let (false, Some(k)) = (used[i], key(o)) {
                index.entry(Key(k.clone())).or_default().push(i);
            }
        }
        for (n, item) in items.iter().enumerate() {
            let Some(k) = key(item).filter(|_| pick[n].is_none()) else {
                continue;
            };
            let Some(candidates) = index.get_mut(&Key(k.clone())) else {
                continue;
            };
            if let Some(pos) = candidates.iter().rposition(|&i| key(&old[i]) == Some(k)) {
                let i = candidates.remove(pos);
                used[i] = true;
                pick[n] = Some(i);
            }
        }
    }
    // The rest by position.
    for (n, p) in pick.iter_mut().enumerate() {
        if p.is_none() && n < old.len() && !used[n] && items[n].is_scalar() == old[n].is_scalar() {
            used[n] = true;
            *p = Some(n);
        }
    }
    items
        .iter()
        .zip(pick)
        .map(|(item, p)| match p {
            Some(i) => graft(item, &old[i]),
            None => item.clone(),
        })
        .collect()
}
