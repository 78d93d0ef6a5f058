//! Datum's merge strategies as plain data: the three behaviours (`merge_hash`,
//! `merge_basetype_array`, `merge_hash_array`) with `merge_options` (`knockout_prefix`,
//! `tuple_keys`), the presets, and how Datum reads a behaviour's name (case-insensitive, some
//! names matched by their start only). Every field keeps the trace text and origin of the place
//! that set it, so `--explain` can say which rule decided. Front-ends build these; the merger in
//! `merge::datum` acts on them.

use super::{Merger, MergerSpec, Origin};

/// `merge_hash`: what happens when both sides are maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashMode {
    /// The more specific map, whole.
    MostSpecific,
    /// Top-level keys merged; nested maps come whole from the more specific side.
    Hash,
    /// Recursive merge of nested maps (and arrays, with this rule's array behaviours).
    Deep,
}

/// `merge_basetype_array`: arrays of scalars (or mixed arrays, or empty arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayMode {
    MostSpecific,
    /// Union, first occurrence kept, most specific items first.
    Unique,
    /// Concatenation, most specific items first.
    Sum,
}

/// `merge_hash_array`: arrays whose items are all maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashArrayMode {
    MostSpecific,
    Sum,
    /// Items picked whole, the first per tuple-key value wins.
    UniqueKeyValTuples,
    /// Items with equal tuple-key values merged key by key.
    DeepTuple,
}

impl HashMode {
    pub fn name(self) -> &'static str {
        match self {
            HashMode::MostSpecific => "MostSpecific",
            HashMode::Hash => "hash",
            HashMode::Deep => "deep",
        }
    }
}

impl ArrayMode {
    pub fn name(self) -> &'static str {
        match self {
            ArrayMode::MostSpecific => "MostSpecific",
            ArrayMode::Unique => "Unique",
            ArrayMode::Sum => "Sum",
        }
    }
}

impl HashArrayMode {
    pub fn name(self) -> &'static str {
        match self {
            HashArrayMode::MostSpecific => "MostSpecific",
            HashArrayMode::Sum => "Sum",
            HashArrayMode::UniqueKeyValTuples => "UniqueKeyValTuples",
            HashArrayMode::DeepTuple => "DeepTuple",
        }
    }
}

/// Index of a rule in a [`super::selector::DatumRules`] table; `Copy`, so it fits a
/// `MergerSpec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleId(pub u32);

/// One behaviour and the rule that set it (its text and origin, ready for the trace).
#[derive(Clone, Debug)]
pub struct Field<T> {
    pub value: T,
    pub rule: Merger,
}

/// A whole Datum strategy: what one lookup_options entry (or the default) resolves to.
#[derive(Clone, Debug)]
pub struct DatumStrategy {
    pub id: RuleId,
    pub merge_hash: Field<HashMode>,
    pub merge_basetype_array: Field<ArrayMode>,
    pub merge_hash_array: Field<HashArrayMode>,
    /// `None`: knockouts are off under this rule.
    pub knockout_prefix: Option<Field<Box<str>>>,
    /// `None`: not configured (DeepTuple then uses the first item's keys, UniqueKeyValTuples
    /// whole items).
    pub tuple_keys: Option<Field<Vec<Box<str>>>>,
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

    pub fn modes(self) -> (HashMode, ArrayMode, HashArrayMode) {
        match self {
            Preset::MostSpecific => (
                HashMode::MostSpecific,
                ArrayMode::MostSpecific,
                HashArrayMode::MostSpecific,
            ),
            Preset::Hash => (
                HashMode::Hash,
                ArrayMode::MostSpecific,
                HashArrayMode::MostSpecific,
            ),
            Preset::Deep => (HashMode::Deep, ArrayMode::Unique, HashArrayMode::DeepTuple),
            Preset::Unique => (
                HashMode::MostSpecific,
                ArrayMode::Unique,
                HashArrayMode::MostSpecific,
            ),
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
pub enum NameMatch {
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
pub fn parse_hash_mode(text: &str) -> (HashMode, NameMatch) {
    let t = text.trim();
    let exact = |m| (m, NameMatch::Exact);
    for (name, mode) in [
        ("MostSpecific", HashMode::MostSpecific),
        ("First", HashMode::MostSpecific),
        ("hash", HashMode::Hash),
        ("MergeTopKeys", HashMode::Hash),
        ("deep", HashMode::Deep),
        ("MergeRecursively", HashMode::Deep),
    ] {
        if t.eq_ignore_ascii_case(name) {
            return exact(mode);
        }
    }
    if starts_ci(t, "First") {
        return (HashMode::MostSpecific, NameMatch::Prefix);
    }
    if starts_ci(t, "hash") || starts_ci(t, "MergeTopKeys") {
        return (HashMode::Hash, NameMatch::Prefix);
    }
    (HashMode::Hash, NameMatch::Fallback)
}

/// Reads `merge_basetype_array` (Datum: `^MostSpecific$|^First`, `^Unique`, `^Sum|^Add`;
/// anything else keeps the most specific array).
pub fn parse_array_mode(text: &str) -> (ArrayMode, NameMatch) {
    let t = text.trim();
    for (name, mode) in [
        ("MostSpecific", ArrayMode::MostSpecific),
        ("First", ArrayMode::MostSpecific),
        ("Unique", ArrayMode::Unique),
        ("Sum", ArrayMode::Sum),
        ("Add", ArrayMode::Sum),
    ] {
        if t.eq_ignore_ascii_case(name) {
            return (mode, NameMatch::Exact);
        }
    }
    for (prefix, mode) in [
        ("First", ArrayMode::MostSpecific),
        ("Unique", ArrayMode::Unique),
        ("Sum", ArrayMode::Sum),
        ("Add", ArrayMode::Sum),
    ] {
        if starts_ci(t, prefix) {
            return (mode, NameMatch::Prefix);
        }
    }
    (ArrayMode::MostSpecific, NameMatch::Fallback)
}

/// Reads `merge_hash_array` (Datum: `^MostSpecific|^First`, `^UniqueKeyValTuples`,
/// `^DeepTuple|^DeepItemMergeByTuples`, `^Sum`; anything else keeps the most specific array).
pub fn parse_hash_array_mode(text: &str) -> (HashArrayMode, NameMatch) {
    let t = text.trim();
    let table = [
        ("MostSpecific", HashArrayMode::MostSpecific),
        ("First", HashArrayMode::MostSpecific),
        ("UniqueKeyValTuples", HashArrayMode::UniqueKeyValTuples),
        ("DeepTuple", HashArrayMode::DeepTuple),
        ("DeepItemMergeByTuples", HashArrayMode::DeepTuple),
        ("Sum", HashArrayMode::Sum),
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
    (HashArrayMode::MostSpecific, NameMatch::Fallback)
}

/// The names each behaviour documents, for hints.
pub const HASH_NAMES: &str = "MostSpecific, hash, deep";
pub const ARRAY_NAMES: &str = "MostSpecific, Unique, Sum";
pub const HASH_ARRAY_NAMES: &str = "MostSpecific, Sum, UniqueKeyValTuples, DeepTuple";

/// A trace entry for one behaviour: `merge_hash: deep (exact rule 'X')`.
pub fn field_rule(id: RuleId, field: &str, value: &str, label: &str, origin: Origin) -> Merger {
    Merger {
        spec: MergerSpec::Datum(id),
        text: format!("{field}: {value} ({label})"),
        origin,
    }
}

impl DatumStrategy {
    /// A strategy from a preset written at `origin`; `label` says which rule it is.
    pub fn from_preset(id: RuleId, preset: Preset, label: &str, origin: &Origin) -> DatumStrategy {
        let (h, a, ha) = preset.modes();
        let f = |field: &str, value: &str| field_rule(id, field, value, label, origin.clone());
        DatumStrategy {
            id,
            merge_hash: Field {
                value: h,
                rule: f("merge_hash", h.name()),
            },
            merge_basetype_array: Field {
                value: a,
                rule: f("merge_basetype_array", a.name()),
            },
            merge_hash_array: Field {
                value: ha,
                rule: f("merge_hash_array", ha.name()),
            },
            knockout_prefix: preset.knockout_prefix().map(|p| Field {
                value: p.into(),
                rule: f("knockout_prefix", p),
            }),
            tuple_keys: preset.tuple_keys().map(|keys| Field {
                value: keys.iter().map(|k| Box::<str>::from(*k)).collect(),
                rule: f("tuple_keys", &keys.join(", ")),
            }),
        }
    }

    /// The strategy `strata merge --rules` uses where no rule and no default is written: maps
    /// merge recursively, arrays come from the most specific file, no knockouts.
    pub fn plain_deep(id: RuleId, origin: &Origin) -> DatumStrategy {
        let mut s =
            DatumStrategy::from_preset(id, Preset::MostSpecific, "strata merge default", origin);
        s.merge_hash = Field {
            value: HashMode::Deep,
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

    /// The rule that decides for a value of this shape, for the trace.
    pub fn rule_for(&self, value: &crate::value::Node) -> &Merger {
        match &value.kind {
            crate::value::Kind::Map(_) => &self.merge_hash.rule,
            crate::value::Kind::List(items)
                if !items.is_empty() && items.iter().all(|i| i.as_map().is_some()) =>
            {
                &self.merge_hash_array.rule
            }
            crate::value::Kind::List(_) => &self.merge_basetype_array.rule,
            _ => &self.merge_hash.rule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_datum_reads_them() {
        assert_eq!(
            parse_array_mode("unique"),
            (ArrayMode::Unique, NameMatch::Exact)
        );
        assert_eq!(
            parse_array_mode("Uniquely"),
            (ArrayMode::Unique, NameMatch::Prefix)
        );
        assert_eq!(
            parse_array_mode("Merge"),
            (ArrayMode::MostSpecific, NameMatch::Fallback)
        );
        assert_eq!(
            parse_hash_array_mode("Merge"),
            (HashArrayMode::MostSpecific, NameMatch::Fallback)
        );
        assert_eq!(parse_hash_mode("Deep"), (HashMode::Deep, NameMatch::Exact));
        assert_eq!(
            parse_hash_mode("dep"),
            (HashMode::Hash, NameMatch::Fallback)
        );
        assert_eq!(Preset::parse("MergeTopKeys"), Some(Preset::Hash));
        assert_eq!(Preset::parse("whatever"), None);
    }
}
