//! Heat's `merge_environments` loop for one file: each section in file order; `parameters` and
//! `parameter_defaults` through `merge_parameters` (validate every strategy of the section
//! first, take the section whole while the accumulated one is empty, else merge declared,
//! non-null parameters by type and strategy); every other section through a one-level
//! `merge_map`.

use super::crash::Site;
use super::env::{describe, truthy, EnvFile, Section};
use super::specs::{added_entries, How};
use super::strategy::{FileStrategies, Name};
use super::types::PType;
use super::Heat;
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::merge::{Outcome, RuleRef};
use crate::strategy::Origin;
use crate::value::key_text;
use crate::value::{Key, Kind, Node};

impl Heat<'_> {
    /// Merges one environment file into the accumulated sections.
    pub fn merge_file(&mut self, file: EnvFile, strategies: &FileStrategies) -> Result<()> {
        let name = file.name.clone();
        for (section, _key, value) in file.sections {
            if !truthy(&value) {
                continue;
            }
            self.path.push_key(section.name());
            let result = match section {
                Section::Parameters | Section::ParameterDefaults => {
                    self.merge_parameters(section, value, strategies, &name)
                }
                _ => self.merge_other(section, value),
            };
            self.path.pop();
            result?;
        }
        Ok(())
    }

    /// The rule recorded for a parameter, if it has one.
    fn rule_of(&self, key: &Key) -> Option<RuleRef> {
        self.registry.get(key).map(|r| r.choice.rule())
    }

    fn merge_parameters(
        &mut self,
        section: Section,
        new: Node,
        strategies: &FileStrategies,
        file: &str,
    ) -> Result<()> {
        let Kind::Map(new_map) = new.kind else {
            return Ok(());
        };
        for (key, value) in new_map.iter() {
            if value.is_null() || self.schema.get(key).is_none() {
                continue;
            }
            let resolved = strategies.resolve(key, &self.registry);
            self.registry
                .check(key, key.span(), resolved, file, &*self.sources)?;
        }
        let slot = section.index();
        let old_empty = !self.sections.get(slot).is_some_and(truthy);
        if old_empty {
            let whole = Node::new(Kind::Map(new_map), new.span);
            let registry = &self.registry;
            added_entries(&mut self.trace, &self.path, &whole, &mut |k| {
                let value = whole.as_map().and_then(|m| m.get(k))?;
                if value.is_null() {
                    return None;
                }
                registry.get(k).map(|r| r.choice.rule())
            });
            self.warn_undeclared_in_whole(section, &whole);
            if let Some(s) = self.sections.get_mut(slot) {
                *s = whole;
            }
            return Ok(());
        }
        let mut old = self
            .sections
            .get_mut(slot)
            .map(Node::take)
            .unwrap_or_else(|| Node::empty_map(new.span));
        let mut result = Ok(());
        for (key, value) in new_map.into_iter() {
            self.path.push_key(&key_text(&key.0));
            result = self.merge_one(&mut old, key, value, file);
            self.path.pop();
            if result.is_err() {
                break;
            }
        }
        if let Some(s) = self.sections.get_mut(slot) {
            *s = old;
        }
        result
    }

    /// Undeclared names in a section taken whole are kept (Heat does), with a warning.
    fn warn_undeclared_in_whole(&mut self, section: Section, whole: &Node) {
        if self.schema.inferred {
            return;
        }
        for k in whole.as_map().into_iter().flat_map(|m| m.keys()) {
            if self.schema.get(k).is_none() {
                let mut path = self.path.clone();
                path.push_key(&key_text(&k.0));
                self.warnings.push(Warning::new(WarnKind::UndeclaredParameter,
                    format!("parameter '{}' is not declared in the template: Heat keeps it only because this is the first file with a non-empty '{}' (in later files it is ignored)", key_text(&k.0), section.name()),
                    k.span(),
                ).with_path(path));
            }
        }
    }

    /// One parameter of a later file.
    fn merge_one(&mut self, old: &mut Node, key: Key, value: Node, file: &str) -> Result<()> {
        let Some(ptype) = self.schema.get(&key) else {
            self.warnings.push(
                Warning::new(
                    WarnKind::UndeclaredParameter,
                    format!(
                        "parameter '{}' is not declared in the template: Heat ignores it here",
                        key_text(&key.0)
                    ),
                    key.span(),
                )
                .with_path(self.path.clone()),
            );
            return Ok(());
        };
        let Some(map) = old.as_map_mut() else {
            return Ok(());
        };
        if value.is_null() {
            if let Some(kept) = map.get(&key) {
                let rule = self.rule_of(&key);
                self.record(Outcome::Kept, rule, kept.span, &[&value]);
                self.warnings.push(
                    Warning::new(WarnKind::NullIgnored,
                        format!(
                            "null for '{}' is ignored: Heat cannot unset a parameter an earlier file or -P set",
                            key_text(&key.0)
                        ),
                        value.span,
                    )
                    .with_path(self.path.clone()),
                );
            }
            return Ok(());
        }
        let Some(choice) = self.registry.get(&key).map(|r| r.choice.clone()) else {
            return Ok(());
        };
        let site = Site {
            param: key_text(&key.0),
            ptype,
            file: file.to_string(),
            rule: choice.rule(),
        };
        let previous = map.get_mut(&key).map(Node::take);
        let how = match choice.name {
            Name::DeepMerge => How::DeepMerge,
            Name::Merge => How::Merge,
            Name::Overwrite | Name::Other(_) => {
                let merged = self.merge_value(How::Overwrite, &site, previous, value)?;
                map.insert(key, merged);
                return Ok(());
            }
        };
        let parsed = self.parse_param(value, &site, &choice.origin)?;
        let merged = match ptype {
            PType::Json | PType::List | PType::String | PType::Number => {
                self.merge_value(how, &site, previous, parsed)?
            }
            PType::Boolean => {
                return Err(Error::new(
                    ErrorKind::Merge,
                    format!("Invalid merge strategy 'merge' for parameter '{}'.", site.param),
                )
                .code("InvalidMergeStrategyForParam")
                .at(parsed.span)
                .with_path(self.path.clone())
                .hint(format!(
                    "Heat cannot merge Boolean parameters{}; give '{}' the strategy overwrite (its strategy '{}' was {})",
                    if &*site.rule.text == "merge" { "" } else { " (its message says 'merge' for every strategy)" },
                    site.param,
                    site.rule.text,
                    self.set_at(&choice.origin)
                )))
            }
        };
        map.insert(key, merged);
        Ok(())
    }

    /// "set at file:line:col" for a strategy's origin.
    pub fn set_at(&self, origin: &Origin) -> String {
        match origin {
            Origin::At(span) => match self.sources.locate(*span) {
                Some(loc) => format!("set at {loc}"),
                None => "set in a file".into(),
            },
            Origin::Default(d) => d.to_string(),
        }
    }

    /// `parse_param`: a Json value round-trips through JSON (a string is parsed); any other
    /// type must be a string or a list.
    fn parse_param(&mut self, value: Node, site: &Site, origin: &Origin) -> Result<Node> {
        if site.ptype == PType::Json {
            return match value.as_str() {
                Some("") => Ok(value),
                Some(text) => super::json::parse_string(text, &value, site, self),
                None => Ok(super::json::round_trip(value)),
            };
        }
        if matches!(value.kind, Kind::Str(_) | Kind::List(_)) {
            return Ok(value);
        }
        Err(Error::new(
            ErrorKind::Merge,
            format!(
                "cannot merge {} parameter '{}' given as {} with strategy '{}': Heat rejects it with \"Invalid parameter in environment .\"",
                site.ptype.name(),
                site.param,
                describe(&value),
                site.rule.text
            ),
        )
        .code("ValueError")
        .at(value.span)
        .with_path(self.path.clone())
        .hint(format!(
            "Heat merges only strings, lists and maps; give '{}' the strategy overwrite (its strategy '{}' was {})",
            site.param,
            site.rule.text,
            self.set_at(origin)
        )))
    }

    /// A section other than the parameters: `merge_map(old, new)` without `deep_merge`.
    fn merge_other(&mut self, section: Section, new: Node) -> Result<()> {
        let rule = RuleRef {
            text: "update".into(),
            origin: Origin::Default(
                "Heat: sections other than the parameters are updated one level deep".into(),
            ),
        };
        let slot = section.index();
        let Some(old) = self.sections.get(slot) else {
            return Ok(());
        };
        if !truthy(old) {
            added_entries(&mut self.trace, &self.path, &new, &mut |_| {
                Some(rule.clone())
            });
            if let Some(old) = self.sections.get_mut(slot) {
                *old = new;
            }
            return Ok(());
        }
        if old.as_map().is_none() || new.as_map().is_none() {
            let first = match self.sources.locate(old.span) {
                Some(loc) => format!(" by {loc}"),
                None => String::new(),
            };
            return Err(Error::new(
                ErrorKind::Merge,
                format!(
                    "'{}' is already set{first}: Heat cannot merge a second '{}' list (it crashes with AttributeError: 'list' object has no attribute 'items')",
                    section.name(),
                    section.name()
                ),
            )
            .at(new.span)
            .with_path(self.path.clone())
            .hint(format!("put every entry of '{}' into one environment file", section.name())));
        }
        let old = self
            .sections
            .get_mut(slot)
            .map(Node::take)
            .unwrap_or_else(|| Node::empty_map(new.span));
        let merged = self.update_section(&rule, old, new);
        if let Some(s) = self.sections.get_mut(slot) {
            *s = merged;
        }
        Ok(())
    }
}
