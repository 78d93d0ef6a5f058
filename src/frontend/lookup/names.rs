//! Datum's names for the ranked merge behaviours (`strategy::ranked`): the settings
//! `merge_hash`, `merge_basetype_array`, `merge_hash_array` and their values, the presets
//! (`MostSpecific`, `hash`, `deep`, `Unique`), and how Datum reads a name (case-insensitive,
//! some names matched by their start only). Everything Datum-specific about a rule's words
//! lives here; the engine sees only the behaviours.

use crate::error::{WarnKind, Warning};
use crate::merge::{Notice, NoticeKind};
use crate::strategy::ranked::{
    Field, ListMode, MapListMode, MapMode, RankedStrategy, RuleId, Shape,
};
use crate::strategy::{Merger, MergerSpec, Origin};

/// The rule recorded where the more specific of two scalars is kept.
pub(crate) fn scalar_rule() -> Merger {
    Merger {
        spec: MergerSpec::Ranked(RuleId(0)),
        text: "MostSpecific (base types are never merged)".into(),
        origin: Origin::Default("Datum: the most specific scalar wins".into()),
    }
}

/// Datum's name of a shape (`Get-DatumType`).
fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Scalar => "baseType",
        Shape::Map => "hashtable",
        Shape::ScalarList => "baseType_array",
        Shape::MapList => "hash_array",
    }
}

/// A notice of the ranked merge, in Datum's terms.
pub(crate) fn notice_warning(n: Notice) -> Warning {
    let kind = match &n.what {
        NoticeKind::ShapeMismatch { .. } | NoticeKind::KindChanged { .. } => WarnKind::KindChange,
        NoticeKind::JoinedWithoutSeparator { .. } => WarnKind::StringJoin,
        NoticeKind::ItemWithoutKey { .. }
        | NoticeKind::ItemsComparedWhole { .. }
        | NoticeKind::ItemKeysFromFirst { .. } => WarnKind::TupleKeys,
    };
    let message = match n.what {
        NoticeKind::ShapeMismatch { at, first, other } => format!(
            "cannot merge different types in path '{at}': the more specific value is a {} and a \
             less specific layer has a {}; the most specific value is returned, as Datum does",
            shape_name(first),
            shape_name(other)
        ),
        NoticeKind::ItemWithoutKey { at, key } => format!(
            "an item of '{at}' has no tuple key '{key}': it matches no other item and is kept \
             as it is, as Datum does"
        ),
        NoticeKind::ItemsComparedWhole { at } => format!(
            "UniqueKeyValTuples at '{at}' has no merge_options.tuple_keys: items are compared \
             whole"
        ),
        NoticeKind::ItemKeysFromFirst { at, keys } => format!(
            "DeepTuple at '{at}' has no merge_options.tuple_keys: items are matched on the \
             keys of the first more specific item ({}), as Datum does",
            keys.join(", ")
        ),
        NoticeKind::KindChanged { old, new, .. } => {
            format!("{old} is replaced by {new}")
        }
        NoticeKind::JoinedWithoutSeparator { rule, old, new } => {
            format!("strings joined without a separator under '{rule}': '{old}' + '{new}'")
        }
    };
    Warning::new(kind, message, n.span).with_path(n.path)
}

impl MapMode {
    pub fn name(self) -> &'static str {
        match self {
            MapMode::KeepFirst => "MostSpecific",
            MapMode::TopKeys => "hash",
            MapMode::Deep => "deep",
        }
    }
}

impl ListMode {
    pub fn name(self) -> &'static str {
        match self {
            ListMode::KeepFirst => "MostSpecific",
            ListMode::Union => "Unique",
            ListMode::Concat => "Sum",
        }
    }
}

impl MapListMode {
    pub fn name(self) -> &'static str {
        match self {
            MapListMode::KeepFirst => "MostSpecific",
            MapListMode::Concat => "Sum",
            MapListMode::FirstByKeys => "UniqueKeyValTuples",
            MapListMode::MergeByKeys => "DeepTuple",
        }
    }
}

/// The named presets a rule may be written as (`NetworkConfig: hash`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    MostSpecific,
    Hash,
    Deep,
    /// `Key: Unique`, the per-key shorthand of the "Merging Strategies" document.
    Unique,
}

impl Preset {
    /// Reads a preset name as Datum does (case-insensitive, whole string). `None` for names
    /// Datum does not know (it treats them as MostSpecific).
    pub fn parse(text: &str) -> Option<Preset> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "mostspecific" | "first" => Some(Preset::MostSpecific),
            "hash" | "mergetopkeys" => Some(Preset::Hash),
            "deep" | "mergerecursively" => Some(Preset::Deep),
            "unique" => Some(Preset::Unique),
            _ => None,
        }
    }

    pub fn modes(self) -> (MapMode, ListMode, MapListMode) {
        match self {
            Preset::MostSpecific => (
                MapMode::KeepFirst,
                ListMode::KeepFirst,
                MapListMode::KeepFirst,
            ),
            Preset::Hash => (
                MapMode::TopKeys,
                ListMode::KeepFirst,
                MapListMode::KeepFirst,
            ),
            Preset::Deep => (MapMode::Deep, ListMode::Union, MapListMode::MergeByKeys),
            Preset::Unique => (MapMode::KeepFirst, ListMode::Union, MapListMode::KeepFirst),
        }
    }

    /// The knockout prefix the preset turns on.
    pub fn knockout_prefix(self) -> Option<&'static str> {
        match self {
            Preset::Hash | Preset::Deep => Some("--"),
            Preset::MostSpecific | Preset::Unique => None,
        }
    }

    /// Tuple keys the preset sets (Datum's `deep`: Name, Version).
    pub fn tuple_keys(self) -> Option<[&'static str; 2]> {
        match self {
            Preset::Deep => Some(["Name", "Version"]),
            _ => None,
        }
    }
}

/// How a behaviour name was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameMatch {
    /// A documented name or alias.
    Exact,
    /// Datum matched only the start of the name (`Uniquely` is Unique).
    Prefix,
    /// Datum does not know the name; the value is its fallback.
    Fallback,
}

fn starts_ci(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text
            .get(..prefix.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// Reads `merge_hash` (Datum: `^MostSpecific$|^First` keeps, `deep` recurses, anything else —
/// including a typo — merges top keys).
pub(crate) fn parse_hash_mode(text: &str) -> (MapMode, NameMatch) {
    let t = text.trim();
    let exact = |m| (m, NameMatch::Exact);
    for (name, mode) in [
        ("MostSpecific", MapMode::KeepFirst),
        ("First", MapMode::KeepFirst),
        ("hash", MapMode::TopKeys),
        ("MergeTopKeys", MapMode::TopKeys),
        ("deep", MapMode::Deep),
        ("MergeRecursively", MapMode::Deep),
    ] {
        if t.eq_ignore_ascii_case(name) {
            return exact(mode);
        }
    }
    if starts_ci(t, "First") {
        return (MapMode::KeepFirst, NameMatch::Prefix);
    }
    if starts_ci(t, "hash") || starts_ci(t, "MergeTopKeys") {
        return (MapMode::TopKeys, NameMatch::Prefix);
    }
    (MapMode::TopKeys, NameMatch::Fallback)
}

/// Reads `merge_basetype_array` (Datum: `^MostSpecific$|^First`, `^Unique`, `^Sum|^Add`;
/// anything else keeps the most specific array).
pub(crate) fn parse_array_mode(text: &str) -> (ListMode, NameMatch) {
    let t = text.trim();
    for (name, mode) in [
        ("MostSpecific", ListMode::KeepFirst),
        ("First", ListMode::KeepFirst),
        ("Unique", ListMode::Union),
        ("Sum", ListMode::Concat),
        ("Add", ListMode::Concat),
    ] {
        if t.eq_ignore_ascii_case(name) {
            return (mode, NameMatch::Exact);
        }
    }
    for (prefix, mode) in [
        ("First", ListMode::KeepFirst),
        ("Unique", ListMode::Union),
        ("Sum", ListMode::Concat),
        ("Add", ListMode::Concat),
    ] {
        if starts_ci(t, prefix) {
            return (mode, NameMatch::Prefix);
        }
    }
    (ListMode::KeepFirst, NameMatch::Fallback)
}

/// Reads `merge_hash_array` (Datum: `^MostSpecific|^First`, `^UniqueKeyValTuples`,
/// `^DeepTuple|^DeepItemMergeByTuples`, `^Sum`; anything else keeps the most specific array).
pub(crate) fn parse_hash_array_mode(text: &str) -> (MapListMode, NameMatch) {
    let t = text.trim();
    let table = [
        ("MostSpecific", MapListMode::KeepFirst),
        ("First", MapListMode::KeepFirst),
        ("UniqueKeyValTuples", MapListMode::FirstByKeys),
        ("DeepTuple", MapListMode::MergeByKeys),
        ("DeepItemMergeByTuples", MapListMode::MergeByKeys),
        ("Sum", MapListMode::Concat),
    ];
    for (name, mode) in table {
        if t.eq_ignore_ascii_case(name) {
            return (mode, NameMatch::Exact);
        }
    }
    for (name, mode) in table {
        if starts_ci(t, name) {
            return (mode, NameMatch::Prefix);
        }
    }
    (MapListMode::KeepFirst, NameMatch::Fallback)
}

/// The names each behaviour documents, for hints.
pub(crate) const HASH_NAMES: &str = "MostSpecific, hash, deep";
pub(crate) const ARRAY_NAMES: &str = "MostSpecific, Unique, Sum";
pub(crate) const HASH_ARRAY_NAMES: &str = "MostSpecific, Sum, UniqueKeyValTuples, DeepTuple";

/// A trace entry for one behaviour: `merge_hash: deep (exact rule 'X')`.
pub(crate) fn field_rule(
    id: RuleId,
    field: &str,
    value: &str,
    label: &str,
    origin: Origin,
) -> Merger {
    Merger {
        spec: MergerSpec::Ranked(id),
        text: format!("{field}: {value} ({label})").into(),
        origin,
    }
}

impl RankedStrategy {
    /// A strategy from a preset written at `origin`; `label` says which rule it is.
    pub fn from_preset(id: RuleId, preset: Preset, label: &str, origin: &Origin) -> RankedStrategy {
        let (h, a, ha) = preset.modes();
        let f = |field: &str, value: &str| field_rule(id, field, value, label, origin.clone());
        RankedStrategy {
            id,
            maps: Field {
                value: h,
                rule: f("merge_hash", h.name()),
            },
            lists: Field {
                value: a,
                rule: f("merge_basetype_array", a.name()),
            },
            map_lists: Field {
                value: ha,
                rule: f("merge_hash_array", ha.name()),
            },
            knockout_prefix: preset.knockout_prefix().map(|p| Field {
                value: p.into(),
                rule: f("knockout_prefix", p),
            }),
            item_keys: preset.tuple_keys().map(|keys| Field {
                value: keys.iter().map(|k| Box::<str>::from(*k)).collect(),
                rule: f("tuple_keys", &keys.join(", ")),
            }),
        }
    }

    /// The strategy `strata merge --rules` uses where no rule and no default is written: maps
    /// merge recursively, arrays come from the most specific file, no knockouts.
    pub fn plain_deep(id: RuleId, origin: &Origin) -> RankedStrategy {
        let mut s =
            RankedStrategy::from_preset(id, Preset::MostSpecific, "strata merge default", origin);
        s.maps = Field {
            value: MapMode::Deep,
            rule: field_rule(
                id,
                "merge_hash",
                "deep",
                "strata merge default",
                origin.clone(),
            ),
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_datum_reads_them() {
        assert_eq!(
            parse_array_mode("unique"),
            (ListMode::Union, NameMatch::Exact)
        );
        assert_eq!(
            parse_array_mode("Uniquely"),
            (ListMode::Union, NameMatch::Prefix)
        );
        assert_eq!(
            parse_array_mode("Merge"),
            (ListMode::KeepFirst, NameMatch::Fallback)
        );
        assert_eq!(
            parse_hash_array_mode("Merge"),
            (MapListMode::KeepFirst, NameMatch::Fallback)
        );
        assert_eq!(parse_hash_mode("Deep"), (MapMode::Deep, NameMatch::Exact));
        assert_eq!(
            parse_hash_mode("dep"),
            (MapMode::TopKeys, NameMatch::Fallback)
        );
        assert_eq!(Preset::parse("MergeTopKeys"), Some(Preset::Hash));
        assert_eq!(Preset::parse("whatever"), None);
    }
}
