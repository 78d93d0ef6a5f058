//! Parameter types, which drive Heat's merge: read from the template given with `--template`
//! (HOT `parameters: NAME: {type: T}`, or CFN `Parameters: NAME: {Type: T}`), or — without a
//! template — inferred from the first non-null value of each parameter.

use super::env::{describe, EnvFile, Section};
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Key, Kind, Node};
use rustc_hash::FxHashMap;

/// A Heat parameter type (the `Schema` type the merge code dispatches on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PType {
    String,
    Number,
    /// `CommaDelimitedList` (HOT `comma_delimited_list`).
    List,
    /// `Json` (HOT `json`).
    Json,
    Boolean,
}

impl PType {
    /// The name Heat's schema uses.
    pub fn name(self) -> &'static str {
        match self {
            PType::String => "String",
            PType::Number => "Number",
            PType::List => "CommaDelimitedList",
            PType::Json => "Json",
            PType::Boolean => "Boolean",
        }
    }

    /// HOT spelling (`string`, `comma_delimited_list`, ...) or schema spelling (`String`, ...).
    fn parse(text: &str) -> Option<PType> {
        Some(match text {
            "string" | "String" => PType::String,
            "number" | "Number" => PType::Number,
            "comma_delimited_list" | "CommaDelimitedList" => PType::List,
            "json" | "Json" => PType::Json,
            "boolean" | "Boolean" => PType::Boolean,
            _ => return None,
        })
    }

    /// The type strata assumes for a value when there is no template; `None` for null.
    pub fn infer(value: &Node) -> Option<PType> {
        Some(match value.kind {
            Kind::Null => return None,
            Kind::List(_) | Kind::Tuple(_) => PType::List,
            Kind::Map(_) | Kind::Set(_) => PType::Json,
            Kind::Int(_) | Kind::BigInt(_) | Kind::Float(_) => PType::Number,
            Kind::Bool(_) => PType::Boolean,
            Kind::Str(_) | Kind::Timestamp(_) | Kind::Bytes(_) => PType::String,
        })
    }
}

/// The declared parameters: Heat merges only these (outside the first file of a section).
#[derive(Debug, Default)]
pub struct Schema {
    types: FxHashMap<Key, PType>,
    /// Types were inferred (no `--template`).
    pub inferred: bool,
}

impl Schema {
    pub fn get(&self, key: &Key) -> Option<PType> {
        self.types.get(key).copied()
    }

    /// Reads the parameter types of a loaded template document.
    pub fn from_template(doc: &Node) -> Result<Schema> {
        let Some(top) = doc.as_map() else {
            return Err(Error::new(
                ErrorKind::Parse,
                format!("the template must be a mapping, not {}", describe(doc)),
            )
            .at(doc.span)
            .hint("give a HOT template: heat_template_version, parameters, resources"));
        };
        let (section, type_key) = match (
            top.get(&Key::str("parameters")),
            top.get(&Key::str("Parameters")),
        ) {
            (Some(p), _) => (p, "type"),
            (None, Some(p)) => (p, "Type"),
            (None, None) => return Ok(Schema::default()),
        };
        let mut schema = Schema::default();
        if section.is_null() {
            return Ok(schema);
        }
        let Some(params) = section.as_map() else {
            return Err(Error::new(
                ErrorKind::Parse,
                format!(
                    "the template's parameters must be a mapping, not {}",
                    describe(section)
                ),
            )
            .at(section.span)
            .hint("write parameters: {NAME: {type: string}, ...}"));
        };
        for (name, decl) in params.iter() {
            let ty = decl.get(type_key).ok_or_else(|| {
                Error::new(
                    ErrorKind::Parse,
                    format!(
                        "template parameter '{}' has no {type_key}",
                        crate::value::key_text(&name.0)
                    ),
                )
                .at(if decl.span.is_none() { name.span() } else { decl.span })
                .hint(format!(
                    "declare it as {}: {{{type_key}: string}} (or number, comma_delimited_list, json, boolean)",
                    crate::value::key_text(&name.0)
                ))
            })?;
            let parsed = ty.as_str().and_then(PType::parse).ok_or_else(|| {
                Error::new(
                    ErrorKind::Parse,
                    format!(
                        "template parameter '{}' has an unknown type {}",
                        crate::value::key_text(&name.0),
                        crate::render::yaml::to_string(ty, None).trim_end()
                    ),
                )
                .at(ty.span)
                .hint("Heat's parameter types are string, number, comma_delimited_list, json and boolean")
            })?;
            schema.types.insert(name.clone(), parsed);
        }
        Ok(schema)
    }

    /// Infers types from the values: environment files first (in order, each file's
    /// `parameters` / `parameter_defaults` in file order), then `-P` values (always strings).
    pub fn infer(files: &[EnvFile], base: &Node) -> Schema {
        let mut schema = Schema {
            types: FxHashMap::default(),
            inferred: true,
        };
        for file in files {
            for (section, _, value) in &file.sections {
                if !matches!(section, Section::Parameters | Section::ParameterDefaults) {
                    continue;
                }
                for (k, v) in value.as_map().into_iter().flat_map(|m| m.iter()) {
                    if !schema.types.contains_key(k) {
                        if let Some(t) = PType::infer(v) {
                            schema.types.insert(k.clone(), t);
                        }
                    }
                }
            }
        }
        for (k, v) in base.as_map().into_iter().flat_map(|m| m.iter()) {
            if !schema.types.contains_key(k) {
                if let Some(t) = PType::infer(v) {
                    schema.types.insert(k.clone(), t);
                }
            }
        }
        schema
    }
}
