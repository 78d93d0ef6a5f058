//! The one strategy representation every front-end compiles its directives into: a `Stack` of
//! merger specs named by behaviour (map / list / string / Python's `+`, with their options)
//! plus where each was written, and the `RuleSet` a merge runs under (rules chosen by path are
//! `selector::PathRules`, the one selector). Plain data:
//! the engine in `merge` acts on it. docs/ARCHITECTURE.md shows what each system compiles to.

#![warn(missing_docs)]

pub mod ranked;
pub mod selector;

use crate::value::Span;
use std::fmt;

/// What a dict merger does at a key both sides have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictMethod {
    /// cloud-init `replace`: take the new value as-is.
    Replace,
    /// cloud-init `no_replace` (its default): keep old unless recursion applies.
    NoReplace,
    /// Deep merge: recurse when both are maps, otherwise the new value replaces.
    Deep,
    /// Recurse by the NEW value's type: a map, list or string goes to the stack's merger for
    /// that type (even when the key is new or the old value is of another type), anything else
    /// replaces (Heat's `deep_merge`).
    ByNewType,
}

/// A map merger: what it does at a key both sides have, and its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictOpts {
    /// What happens at a key both sides have.
    pub method: DictMethod,
    /// A null new value removes the key (cloud-init `allow_delete`).
    pub allow_delete: bool,
    /// A list at a key goes to the list merger (cloud-init `recurse_list`/`recurse_array`).
    pub recurse_list: bool,
    /// A string at a key goes to the string merger (cloud-init `recurse_str`).
    pub recurse_str: bool,
    /// A null new value is skipped: the old value stays, a missing key stays missing (Heat).
    pub skip_null: bool,
    /// An old value Python counts as false (null, false, 0, '', [], {}) is replaced whole.
    pub replace_falsy_old: bool,
    /// A non-map on either side is the error Python raises (`AttributeError: ... 'items'`,
    /// `... does not support item assignment`) instead of keeping or replacing.
    pub strict_types: bool,
}

impl DictOpts {
    /// `method` with every option off.
    pub const fn new(method: DictMethod) -> DictOpts {
        DictOpts {
            method,
            allow_delete: false,
            recurse_list: false,
            recurse_str: false,
            skip_null: false,
            replace_falsy_old: false,
            strict_types: false,
        }
    }
}

/// What a list merger does with an old list and a new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListMethod {
    /// The new items after the old ones (cloud-init `append`).
    Append,
    /// The new items before the old ones (cloud-init `prepend`).
    Prepend,
    /// cloud-init `replace` (its default): index-wise overwrite, old length kept.
    Replace,
    /// The old list stays (cloud-init `no_replace`).
    NoReplace,
    /// The new value replaces the old list whole.
    Whole,
    /// Python's `old.extend(new)` for two lists and `','.join([old, new])` for two strings (a
    /// comma-delimited list as one string); a falsy old value is replaced whole; any other pair
    /// is the error Python raises (Heat's `merge_list`).
    Extend,
    /// The old items, then the new ones, each kept at its first occurrence by strict equality
    /// (`merge::union`; Puppet's `unique`).
    Union,
}

/// A list merger: its method and which new item types recurse (index-wise `replace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListOpts {
    /// What happens to the old list.
    pub method: ListMethod,
    /// Under `replace`, a list item merges with the old item at its index.
    pub recurse_list: bool,
    /// Under `replace`, a string item merges with the old item at its index.
    pub recurse_str: bool,
    /// Under `replace`, a map item merges with the old item at its index.
    pub recurse_dict: bool,
}

/// What a string merger does with an old string and a new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrMethod {
    /// The new value (of any type) wins.
    Replace,
    /// cloud-init `str(append)`: strings are joined; a non-string new value is a TypeError.
    Append,
    /// Python's `''.join([old, new])`: both must be strings (else the TypeError Python
    /// raises); an empty old string is replaced (Heat's String merge).
    Join,
}

/// A string merger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrOpts {
    /// What it does.
    pub method: StrMethod,
}

/// One merger with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergerSpec {
    /// Merges maps (an old map, or by `Stack::by_new_type` a new one).
    Dict(DictOpts),
    /// Merges lists (and tuples).
    List(ListOpts),
    /// Merges strings.
    Str(StrOpts),
    /// Python's `old + new` (a missing old value is `0`): two strings as `Str(Join)`, two
    /// lists as `List(Extend)`, any other pair the TypeError Python raises (Heat's Number).
    Plus,
    /// The ranked merge (`ranked`): the OLD value ranks first; the rule is
    /// `PathRules::strategy(id)` of the engine's `merge::ranked::RankCtx`, re-selected by path
    /// below; it handles values of every type.
    Ranked(ranked::RuleId),
    /// The deep_merge gem's `deep_merge!(new, old)` (`merge::gem`): Ruby truthiness, arrays
    /// united, knockouts, and the effects of Ruby's object identity; values of every type.
    Gem(GemOpts),
}

/// The deep_merge gem's options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GemOpts {
    /// `knockout_prefix`: `--x` items, a bare prefix, `--x` strings knock out (`merge::knockout`).
    pub knockout: Option<Knockout>,
    /// `sort_merged_arrays`: merged arrays are sorted (a failure where Ruby cannot compare).
    pub sort_merged_arrays: bool,
    /// `merge_hash_arrays`: two arrays of hashes merge index by index.
    pub merge_hash_arrays: bool,
}

/// A knockout prefix, and the regex `^prefix` Ruby builds from it (multi-line `^`).
#[derive(Clone, Debug)]
pub struct Knockout {
    /// The prefix as written (`--`).
    pub prefix: std::sync::Arc<str>,
    /// `^prefix`, multi-line, as the gem matches it.
    pub re: regex::Regex,
}

impl PartialEq for Knockout {
    fn eq(&self, other: &Knockout) -> bool {
        self.prefix == other.prefix
    }
}

impl Eq for Knockout {}

impl MergerSpec {
    /// The Python type name (as cloud-init dispatches) this merger handles.
    pub fn handles(&self) -> &'static str {
        match self {
            MergerSpec::Dict(_) => "map",
            MergerSpec::List(_) => "list",
            MergerSpec::Str(_) => "str",
            MergerSpec::Plus | MergerSpec::Ranked(_) | MergerSpec::Gem(_) => "any",
        }
    }

    /// Whether a merge by this spec can never fail when its children's merges cannot (so a
    /// layer merged only by such specs needs no checking pass first).
    pub fn infallible(&self) -> bool {
        match self {
            MergerSpec::Dict(o) => !o.strict_types,
            MergerSpec::List(o) => matches!(
                o.method,
                ListMethod::Whole | ListMethod::Replace | ListMethod::Union
            ),
            MergerSpec::Str(o) => o.method == StrMethod::Replace,
            MergerSpec::Plus | MergerSpec::Ranked(_) | MergerSpec::Gem(_) => false,
        }
    }
}

/// Where a rule was written, for `--explain` and error messages.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// Written in an input at this span.
    At(Span),
    /// Not written anywhere: a built-in default, described in words.
    Default(std::sync::Arc<str>),
}

/// A merger as written: its spec, its text (`list(append)`) and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Merger {
    /// What it does.
    pub spec: MergerSpec,
    /// Its text as written (`list(append)`), for `--explain`.
    pub text: std::sync::Arc<str>,
    /// Where it was written.
    pub origin: Origin,
}

/// An ordered merger list; dispatch takes the first merger that handles the old value's type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stack {
    /// The mergers, first match wins.
    pub mergers: Vec<Merger>,
    /// When no merger handles the old value's type: `false` keeps the old value (cloud-init),
    /// `true` lets the new value replace it (plain deep merge).
    pub replace_unhandled: bool,
    /// Dispatch on the NEW value's type instead of the old one's (Heat's `deep_merge` picks
    /// `merge_map`, `merge_list` or `''.join` by the new value).
    pub by_new_type: bool,
}

impl Stack {
    /// The merger for an old value of this type, if any. A tuple goes to the list merger
    /// (cloud-init's `m_list` has `_on_tuple`).
    pub fn for_type(&self, type_name: &str) -> Option<&Merger> {
        let type_name = if type_name == "tuple" {
            "list"
        } else {
            type_name
        };
        self.mergers
            .iter()
            .find(|m| m.spec.handles() == type_name || m.spec.handles() == "any")
    }

    /// The generic "merge these files" default: maps merge deeply, anything else replaces.
    pub fn deep_default() -> Stack {
        Stack::deep(
            "deep",
            Origin::Default("strata default for merge without --how".into()),
        )
    }

    /// A plain deep merge as the rule `text` written at `origin`: maps recurse where both
    /// sides are maps, anything else (lists whole) is replaced by the new value.
    pub fn deep(text: impl Into<String>, origin: Origin) -> Stack {
        let text = text.into();
        Stack {
            mergers: vec![
                Merger {
                    spec: MergerSpec::Dict(DictOpts::new(DictMethod::Deep)),
                    text: text.clone().into(),
                    origin: origin.clone(),
                },
                Merger {
                    spec: MergerSpec::List(ListOpts {
                        method: ListMethod::Whole,
                        recurse_list: false,
                        recurse_str: false,
                        recurse_dict: false,
                    }),
                    text: text.into(),
                    origin,
                },
            ],
            replace_unhandled: true,
            by_new_type: false,
        }
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<&str> = self.mergers.iter().map(|m| &*m.text).collect();
        f.write_str(&texts.join("+"))
    }
}

/// The stack a merge runs under. Rules chosen by path are `selector::PathRules` (the one
/// selector: exact, regex, default, optionally case-folded), which the ranked merge consults.
#[derive(Clone, Debug, Default)]
pub struct RuleSet {
    /// The stack every node is merged under.
    pub root: Stack,
}

impl RuleSet {
    /// One merger for every path and type it handles (no fallback for the others).
    pub fn one(merger: Merger) -> RuleSet {
        RuleSet::single(Stack {
            mergers: vec![merger],
            replace_unhandled: false,
            by_new_type: false,
        })
    }

    /// The rules of one stack.
    pub fn single(root: Stack) -> RuleSet {
        RuleSet { root }
    }

    /// Whether no merge under these rules can fail (`MergerSpec::infallible` everywhere).
    pub fn infallible(&self) -> bool {
        self.root.mergers.iter().all(|m| m.spec.infallible())
    }
}
