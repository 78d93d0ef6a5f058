//! Rule selection by path (Datum's and Hiera's `lookup_options`): an exact key (`A\B`, `A/B` or a
//! JSON Pointer `/A/B`) wins, then the first regex key (`^...`) in file order that matches the
//! path written with `\` separators, then the default rule. With `fold` paths compare
//! case-insensitively; without it (`strata merge --rules`) exactly. Selections are memoised per
//! path, so hashing 100 000 array items does not run a regex 100 000 times.

use super::ranked::{RankedStrategy, RuleId};
use crate::value::Span;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// How a rule matches paths.
#[derive(Clone, Debug)]
pub enum RuleKind {
    /// The path's segments (folded when the table folds).
    Exact(Vec<Box<str>>),
    /// The path written with `\` separators matches (first in file order).
    Regex(regex::Regex),
    /// Every path no other rule matches.
    Default,
}

/// How the rule for a path was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selected {
    /// An exact rule.
    Exact,
    /// A regex rule.
    Regex,
    /// The default rule.
    Default,
}

impl Selected {
    /// The word `--explain` prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Selected::Exact => "exact",
            Selected::Regex => "regex",
            Selected::Default => "default",
        }
    }
}

/// One lookup_options entry (or the default), compiled.
#[derive(Clone, Debug)]
pub struct PathRule {
    /// The key as written (`WindowsFeatures\Name`, `^LCM_Config\\.*`).
    pub name: String,
    /// How it matches paths.
    pub kind: RuleKind,
    /// Where the key (or the default's value) is written; `Span::NONE` for built-in defaults.
    pub span: Span,
    /// What it does.
    pub strategy: RankedStrategy,
}

/// Every rule of one options file, in file order, plus the default (always rule 0).
#[derive(Debug)]
pub struct PathRules {
    /// Case-insensitive paths, keys and item-key values; `false` for exact ones.
    pub fold: bool,
    rules: Vec<PathRule>,
    /// Some rule names a knockout prefix.
    knockout: bool,
    exact: FxHashMap<Vec<Box<str>>, usize>,
    regexes: Vec<usize>,
    memo: RefCell<FxHashMap<String, (usize, Selected)>>,
}

impl PathRules {
    /// Whether any rule names a knockout prefix (else no value can hold a marker to strip).
    pub fn any_knockout(&self) -> bool {
        self.knockout
    }

    /// A table holding only its default rule (whose strategy id must be `RuleId(0)`).
    pub fn new(fold: bool, default: PathRule) -> PathRules {
        PathRules {
            fold,
            knockout: default.strategy.knockout_prefix.is_some(),
            rules: vec![default],
            exact: FxHashMap::default(),
            regexes: Vec::new(),
            memo: RefCell::new(FxHashMap::default()),
        }
    }

    /// The id the next pushed rule gets.
    pub fn next_id(&self) -> RuleId {
        RuleId(u32::try_from(self.rules.len()).unwrap_or(u32::MAX))
    }

    /// Adds a rule. An exact path already present keeps its first rule; `false` says so.
    pub fn push(&mut self, rule: PathRule) -> bool {
        let index = self.rules.len();
        match &rule.kind {
            RuleKind::Exact(segs) => {
                if self.exact.contains_key(segs) {
                    return false;
                }
                self.exact.insert(segs.clone(), index);
            }
            RuleKind::Regex(_) => self.regexes.push(index),
            RuleKind::Default => return false,
        }
        self.knockout |= rule.strategy.knockout_prefix.is_some();
        self.rules.push(rule);
        true
    }

    /// The default rule (rule 0).
    pub fn default_rule(&self) -> &PathRule {
        // Rule 0 always exists (see `new`).
        &self.rules[0]
    }

    /// Rule `id` (the default for an id out of range).
    pub fn rule(&self, id: RuleId) -> &PathRule {
        self.rules
            .get(id.0 as usize)
            .unwrap_or_else(|| self.default_rule())
    }

    /// Rule `id`'s strategy.
    pub fn strategy(&self, id: RuleId) -> &RankedStrategy {
        &self.rule(id).strategy
    }

    /// Every rule, the default first, then file order.
    pub fn rules(&self) -> &[PathRule] {
        &self.rules
    }

    /// A path segment as the table compares it.
    pub fn norm(&self, seg: &str) -> Box<str> {
        if self.fold {
            seg.to_lowercase().into()
        } else {
            seg.into()
        }
    }

    /// The rule for a path (segments as written in the data).
    pub fn select<S: AsRef<str>>(&self, path: &[S]) -> (&PathRule, Selected) {
        let joined = join(path);
        let memo_key = if self.fold {
            joined.to_lowercase()
        } else {
            joined.clone()
        };
        if let Some(&(i, how)) = self.memo.borrow().get(&memo_key) {
            return (
                self.rules.get(i).unwrap_or_else(|| self.default_rule()),
                how,
            );
        }
        let segs: Vec<Box<str>> = path.iter().map(|s| self.norm(s.as_ref())).collect();
        let (i, how) = if let Some(&i) = self.exact.get(&segs) {
            (i, Selected::Exact)
        } else if let Some(&i) = self.regexes.iter().find(|&&i| {
            matches!(self.rules.get(i).map(|r| &r.kind), Some(RuleKind::Regex(re)) if re.is_match(&joined))
        }) {
            (i, Selected::Regex)
        } else {
            (0, Selected::Default)
        };
        self.memo.borrow_mut().insert(memo_key, (i, how));
        (
            self.rules.get(i).unwrap_or_else(|| self.default_rule()),
            how,
        )
    }

    /// The written rules that no `select` has chosen so far, in file order (after a whole
    /// merge: the rules that match no path of its layers).
    pub fn unselected(&self) -> Vec<&PathRule> {
        let memo = self.memo.borrow();
        let used: rustc_hash::FxHashSet<usize> = memo.values().map(|&(i, _)| i).collect();
        self.rules
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(i, _)| !used.contains(i))
            .map(|(_, r)| r)
            .collect()
    }

    /// The rule written for exactly this path (exact or regex), if any.
    pub fn explicit<S: AsRef<str>>(&self, path: &[S]) -> Option<&PathRule> {
        match self.select(path) {
            (_, Selected::Default) => None,
            (rule, _) => Some(rule),
        }
    }
}

/// A path written with `\` separators, as the regex rules see it.
pub fn join<S: AsRef<str>>(path: &[S]) -> String {
    let mut out = String::new();
    for (i, s) in path.iter().enumerate() {
        if i > 0 {
            out.push('\\');
        }
        out.push_str(s.as_ref());
    }
    out
}

/// Splits a rule key or a lookup key into segments: a leading `/` makes it a JSON Pointer
/// (`~1` is `/`, `~0` is `~`); otherwise `\` and `/` both separate. Empty segments are dropped.
pub fn split_path(text: &str) -> Vec<String> {
    if let Some(rest) = text.strip_prefix('/') {
        return rest
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
    }
    text.split(['\\', '/'])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_paths_and_pointers() {
        assert_eq!(split_path(r"A\B/C"), ["A", "B", "C"]);
        assert_eq!(split_path("/a~1b/c"), ["a/b", "c"]);
        assert_eq!(split_path(r"Locations\"), ["Locations"]);
        assert_eq!(join(&["A", "B"]), r"A\B");
    }
}
