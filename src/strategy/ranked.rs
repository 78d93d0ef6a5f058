//! Layered merges where the earlier value ranks first (the more specific layer, folded from
//! most to least specific) and wins wherever two values cannot be combined, as plain data: what
//! happens to two maps (`MapMode`), two lists of scalars (`ListMode`) and two lists of maps
//! (`MapListMode`, items matched by the values of their `item_keys`), plus a knockout prefix.
//! Every field keeps the trace text and origin of the place that set it, so `--explain` can say
//! which rule decided. Front-ends build these (`frontend::lookup` from Datum's
//! `lookup_options`); the merger in `merge::ranked` acts on them.

use super::Merger;
use crate::value::{Kind, Node};

/// Two maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapMode {
    /// The first (more specific) map, whole.
    KeepFirst,
    /// Top-level keys merged; nested maps come whole from the first side.
    TopKeys,
    /// Recursive merge of nested maps (and lists, with this rule's list behaviours).
    Deep,
}

/// Two lists of scalars (or mixed lists, or empty lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListMode {
    /// The first (more specific) list, whole.
    KeepFirst,
    /// Union, first occurrence kept, first side's items first.
    Union,
    /// Concatenation, first side's items first.
    Concat,
}

/// Two lists whose items are all maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapListMode {
    /// The first (more specific) list, whole.
    KeepFirst,
    /// Concatenation, first side's items first.
    Concat,
    /// Items picked whole, the first per item-key values wins.
    FirstByKeys,
    /// Items with equal item-key values merged key by key.
    MergeByKeys,
}

/// The four shapes a ranked merge tells apart; values of different shapes never merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Not a map or a list (null included).
    Scalar,
    /// A map.
    Map,
    /// A list that is not a non-empty list of maps.
    ScalarList,
    /// A non-empty list whose items are all maps.
    MapList,
}

/// A map is a `Map`; a non-empty list of maps a `MapList`; any other list a `ScalarList`;
/// everything else (null included) a `Scalar`.
pub fn shape(n: &Node) -> Shape {
    match &n.kind {
        Kind::Map(_) => Shape::Map,
        Kind::List(items) if !items.is_empty() && items.iter().all(|i| i.as_map().is_some()) => {
            Shape::MapList
        }
        Kind::List(_) => Shape::ScalarList,
        _ => Shape::Scalar,
    }
}

/// Index of a rule in a `PathRules` table (`selector`); `Copy`, so it fits a
/// `MergerSpec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleId(pub u32);

/// One behaviour and the rule that set it (its text and origin, ready for the trace).
#[derive(Clone, Debug)]
pub struct Field<T> {
    /// The behaviour.
    pub value: T,
    /// The rule that set it (text and origin), for the trace.
    pub rule: Merger,
}

/// A whole strategy: what one rule (or the default) resolves to.
#[derive(Clone, Debug)]
pub struct RankedStrategy {
    /// The rule this strategy belongs to.
    pub id: RuleId,
    /// Two maps.
    pub maps: Field<MapMode>,
    /// Two lists of scalars.
    pub lists: Field<ListMode>,
    /// Two lists of maps.
    pub map_lists: Field<MapListMode>,
    /// `None`: knockouts are off under this rule.
    pub knockout_prefix: Option<Field<Box<str>>>,
    /// `None`: not configured (MergeByKeys then uses the first item's keys, FirstByKeys
    /// compares whole items).
    pub item_keys: Option<Field<Vec<Box<str>>>>,
}

impl RankedStrategy {
    /// The rule that decides for a value of this shape, for the trace.
    pub fn rule_for(&self, value: &Node) -> &Merger {
        match &value.kind {
            Kind::Map(_) => &self.maps.rule,
            Kind::List(items)
                if !items.is_empty() && items.iter().all(|i| i.as_map().is_some()) =>
            {
                &self.map_lists.rule
            }
            Kind::List(_) => &self.lists.rule,
            _ => &self.maps.rule,
        }
    }
}
