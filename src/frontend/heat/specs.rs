//! What Heat's merge functions are in the engine's behaviour-named specs, and the calls into
//! the engine with them (`merge::fold::merge_with`). A parameter's strategy compiles into one stack dispatched on the
//! NEW value's type (Heat's `deep_merge` picks the function by the new value):
//!
//! | Heat                          | spec                                                      |
//! | ----------------------------- | --------------------------------------------------------- |
//! | `merge_map(old, new, deep)`   | `Dict` `ByNewType` (deep) or `Replace` (one level), with `skip_null`, `replace_falsy_old`, `strict_types` |
//! | `merge_list(old, new)`        | `List` `Extend`                                           |
//! | `''.join([old, new])`         | `Str` `Join`                                              |
//! | `old.get(key, 0) + new`       | `Plus`                                                    |
//! | `overwrite` (and unknown names) | `Str` `Replace` (the new value wins whatever its type)  |
//!
//! The top of a parameter's merge is chosen by its template type, not by the value: Json →
//! the map spec, CommaDelimitedList → the list spec, String → the string spec, Number → `Plus`.
//! Sections other than the parameters are a one-level `Dict` `Replace` with `skip_null`.

use super::crash::{self, short, Site};
use super::types::PType;
use super::Heat;
use crate::error::{Result, WarnKind, Warning};
use crate::merge::fold::{self, Rules};
use crate::merge::{NoticeKind, Outcome, RuleRef};
use crate::strategy::{
    DictMethod, DictOpts, ListMethod, ListOpts, Merger, MergerSpec, RuleSet, Stack, StrMethod,
    StrOpts,
};
use crate::value::{Key, Node, Path};

/// How a parameter merges (its strategy's name, compiled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    Overwrite,
    /// `merge`: maps one level deep.
    Merge,
    DeepMerge,
}

fn merger(spec: MergerSpec, rule: &RuleRef) -> Merger {
    Merger {
        spec,
        text: rule.text.clone(),
        origin: rule.origin.clone(),
    }
}

/// Python's `merge_map`, one level (`Replace`) or deep (`ByNewType`).
fn map_spec(deep: bool) -> MergerSpec {
    let method = if deep {
        DictMethod::ByNewType
    } else {
        DictMethod::Replace
    };
    MergerSpec::Dict(DictOpts {
        skip_null: true,
        replace_falsy_old: true,
        strict_types: true,
        ..DictOpts::new(method)
    })
}

/// The stack a parameter's values merge with, dispatched on the new value's type.
fn stack(rule: &RuleRef, deep: bool) -> Stack {
    Stack {
        mergers: vec![
            merger(map_spec(deep), rule),
            merger(
                MergerSpec::List(ListOpts {
                    method: ListMethod::Extend,
                    recurse_list: false,
                    recurse_str: false,
                    recurse_dict: false,
                }),
                rule,
            ),
            merger(
                MergerSpec::Str(StrOpts {
                    method: StrMethod::Join,
                }),
                rule,
            ),
        ],
        replace_unhandled: true,
        by_new_type: true,
    }
}

/// The spec at the top of a parameter's merge.
fn top(how: How, ptype: PType) -> MergerSpec {
    match (how, ptype) {
        (How::Overwrite, _) => MergerSpec::Str(StrOpts {
            method: StrMethod::Replace,
        }),
        (_, PType::Json) => map_spec(how == How::DeepMerge),
        (_, PType::List) => MergerSpec::List(ListOpts {
            method: ListMethod::Extend,
            recurse_list: false,
            recurse_str: false,
            recurse_dict: false,
        }),
        (_, PType::String) => MergerSpec::Str(StrOpts {
            method: StrMethod::Join,
        }),
        (_, PType::Number | PType::Boolean) => MergerSpec::Plus,
    }
}

impl Heat<'_> {
    /// Merges a parameter's new value into its old one (`None`: not set yet) at `self.path`.
    pub fn merge_value(
        &mut self,
        how: How,
        site: &Site,
        old: Option<Node>,
        new: Node,
    ) -> Result<Node> {
        let rules = RuleSet::single(stack(&site.rule, how == How::DeepMerge));
        let spec = merger(top(how, site.ptype), &site.rule);
        self.run(&rules, &spec, old, new)
            .map_err(|e| crash::crash(e, site, self.sources))
    }

    /// A section other than the parameters: `merge_map(old, new)` one level deep.
    pub fn update_section(&mut self, rule: &RuleRef, old: Node, new: Node) -> Node {
        let spec = merger(
            MergerSpec::Dict(DictOpts {
                skip_null: true,
                ..DictOpts::new(DictMethod::Replace)
            }),
            rule,
        );
        let rules = RuleSet::single(Stack {
            mergers: vec![spec.clone()],
            replace_unhandled: true,
            by_new_type: false,
        });
        let span = old.span;
        // A one-level update without `strict_types` cannot fail.
        self.run(&rules, &spec, Some(old), new)
            .unwrap_or_else(|_| Node::empty_map(span))
    }

    fn run(
        &mut self,
        rules: &RuleSet,
        spec: &Merger,
        old: Option<Node>,
        new: Node,
    ) -> std::result::Result<Node, crate::merge::MergeError> {
        let rules = Rules::new(rules).recording_containers();
        let (merged, notices) =
            fold::merge_with(self.trace.as_mut(), rules, &self.path, spec, old, new);
        // Heat's stack has no ranked merger: a join is the only notice it can raise.
        for n in notices {
            if let NoticeKind::JoinedWithoutSeparator { rule, old, new } = n.what {
                let joined = format!("{old}{new}");
                self.warnings.push(
                    Warning::new(WarnKind::StringJoin,
                        format!(
                            "Heat concatenates strings under '{rule}' without a separator: '{}' = '{old}' + '{new}'",
                            short(&joined)
                        ),
                        n.span,
                    )
                    .with_path(n.path),
                );
            }
        }
        merged
    }

    /// Records one decision at the current path (nothing without `--explain`).
    pub fn record(
        &mut self,
        outcome: Outcome,
        rule: Option<RuleRef>,
        value: crate::value::Span,
        others: &[&Node],
    ) {
        if let Some(trace) = self.trace.as_mut() {
            trace.record(&self.path, outcome, rule, value, &[], others);
        }
    }
}

/// Records `Added` for every entry of a mapping taken whole (one level) at `path`, each with
/// the rule `rule_of` gives it.
pub(super) fn added_entries(
    trace: &mut Option<crate::merge::Trace>,
    path: &Path,
    node: &Node,
    rule_of: &mut dyn FnMut(&Key) -> Option<RuleRef>,
) {
    let Some(trace) = trace.as_mut() else {
        return;
    };
    match node.as_map() {
        Some(map) => {
            for (k, v) in map.iter() {
                let rule = rule_of(k);
                let mut at = path.clone();
                at.push_key(&crate::value::key_text(&k.0));
                trace.record(&at, Outcome::Added, rule, v.span, &[], &[]);
            }
        }
        None => {
            let rule = rule_of(&Key::str(""));
            trace.record(path, Outcome::Added, rule, node.span, &[], &[]);
        }
    }
}
