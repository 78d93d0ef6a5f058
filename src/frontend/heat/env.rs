//! One environment file: read (empty files allowed, as in Heat), YAML-loaded with timestamps
//! kept as strings (Heat's loader does that), and checked the way Heat's
//! `environment_format.parse` checks it — a mapping whose keys are known sections, none of them
//! null — plus strata's own type checks on the sections, where Heat would crash later.

use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{check_size, Input, Settings};
use crate::load::{self, yaml};
use crate::value::key_text;
use crate::value::{Kind, Node, SourceId, SourceMap, Span};

/// A section of the merged environment, in the order Heat's API creates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Parameters,
    ResourceRegistry,
    ParameterDefaults,
    EncryptedParamNames,
    EventSinks,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Parameters,
        Section::ResourceRegistry,
        Section::ParameterDefaults,
        Section::EncryptedParamNames,
        Section::EventSinks,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Parameters => "parameters",
            Section::ResourceRegistry => "resource_registry",
            Section::ParameterDefaults => "parameter_defaults",
            Section::EncryptedParamNames => "encrypted_param_names",
            Section::EventSinks => "event_sinks",
        }
    }

    pub fn index(self) -> usize {
        Section::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// Sections holding a list rather than a mapping.
    pub fn is_list(self) -> bool {
        matches!(self, Section::EncryptedParamNames | Section::EventSinks)
    }

    fn from_name(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.name() == name)
    }
}

pub(super) const STRATEGIES: &str = "parameter_merge_strategies";
/// The 2016 blueprint's proposed section, which Heat never shipped.
pub(super) const SEED: &str = "merge_strategy";

/// A checked environment file.
#[derive(Debug)]
pub struct EnvFile {
    pub source: SourceId,
    pub name: String,
    /// Sections in file order: which one, the span of its key, its (non-null) value.
    pub sections: Vec<(Section, Span, Node)>,
    /// `parameter_merge_strategies`, a mapping.
    pub strategies: Option<Node>,
    /// `merge_strategy` (the blueprint's form): the span of its key and its value.
    pub seed: Option<(Span, Node)>,
}

/// Reads, loads and checks one environment file.
pub(super) fn load(
    input: Input,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<EnvFile> {
    check_size(&input, settings)?;
    let name = input.name.clone();
    let source = match load::decode_utf8(input.bytes) {
        Ok(text) => sources.add(input.name, text),
        Err((lossy, at)) => {
            let id = sources.add(input.name, lossy);
            return Err(load::utf8_error(id, at));
        }
    };
    let doc = yaml::load_single(sources.text(source), source, &settings.load, warnings)?;
    let mut file = EnvFile {
        source,
        name,
        sections: Vec::new(),
        strategies: None,
        seed: None,
    };
    let doc = match doc {
        None => {
            // Heat reads it as `{}`; a file that says nothing is most likely not meant.
            warnings.push(crate::frontend::no_document(
                sources.name(source),
                crate::frontend::file_span(source),
                "Heat reads it as an empty environment, it adds nothing",
            ));
            return Ok(file);
        }
        Some(d) if d.is_null() => return Ok(file),
        Some(d) => d,
    };
    let Kind::Map(map) = doc.kind else {
        return Err(Error::new(
            ErrorKind::Parse,
            format!(
                "The environment is not a valid YAML mapping data type. ({} holds {})",
                file.name,
                describe(&doc)
            ),
        )
        .code("ValueError")
        .at(doc.span)
        .hint("an environment file is a mapping of sections: parameters, parameter_defaults, resource_registry, parameter_merge_strategies, encrypted_param_names, event_sinks"));
    };
    for (key, value) in map.into_iter() {
        let text = key_text(&key.0);
        let known = key.as_str().and_then(Section::from_name);
        let special = matches!(key.as_str(), Some(STRATEGIES | SEED));
        if known.is_none() && !special {
            return Err(wrong_section(&text, key.span()));
        }
        if value.is_null() {
            return Err(Error::new(
                ErrorKind::Parse,
                format!("environment has empty section \"{text}\""),
            )
            .code("ValueError")
            .at(key.span())
            .hint(format!(
                "give '{text}' a value, or remove the line: Heat rejects a section without one"
            )));
        }
        match known {
            Some(section) => {
                if let Some(value) = check_section(section, value, key.span(), warnings)? {
                    file.sections.push((section, key.span(), value));
                }
            }
            None if key.as_str() == Some(STRATEGIES) => {
                if value.as_map().is_none() {
                    return Err(Error::new(
                        ErrorKind::Directive,
                        format!("{STRATEGIES} must be a mapping, not {}", describe(&value)),
                    )
                    .at(value.span)
                    .hint(format!("write {STRATEGIES}: {{default: merge, SomeParameter: deep_merge}} (Heat crashes on anything else)")));
                }
                file.strategies = Some(value);
            }
            None => file.seed = Some((key.span(), value)),
        }
    }
    Ok(file)
}

/// `environment has wrong section "..."`, with a suggestion when the name is close to one.
fn wrong_section(text: &str, span: Span) -> Error {
    let names = Section::ALL.iter().map(|s| s.name()).chain([STRATEGIES]);
    let near = names
        .clone()
        .map(|n| (crate::error::edit_distance(text, n), n))
        .filter(|(d, n)| *d <= n.len() / 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n);
    let hint = match near {
        Some(n) => format!("did you mean '{n}'?"),
        None => format!(
            "the sections Heat knows are {}",
            names.collect::<Vec<_>>().join(", ")
        ),
    };
    Error::new(
        ErrorKind::Directive,
        format!("environment has wrong section \"{text}\""),
    )
    .code("ValueError")
    .at(span)
    .hint(hint)
}

/// strata's type check of a section: a mapping (or a list for `event_sinks` and
/// `encrypted_param_names`). Heat skips a falsy value of another type (warned here) and
/// crashes on a truthy one (an error here). `Ok(None)`: skip the section.
fn check_section(
    section: Section,
    value: Node,
    key: Span,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    let fits = if section.is_list() {
        value.as_list().is_some()
    } else {
        value.as_map().is_some()
    };
    if fits {
        return Ok(Some(value));
    }
    let want = if section.is_list() { "list" } else { "mapping" };
    if !truthy(&value) {
        warnings.push(Warning::new(
            WarnKind::SectionSkipped,
            format!(
                "section '{}' is {}, not a {want}: Heat skips it",
                section.name(),
                describe(&value)
            ),
            key,
        ));
        return Ok(None);
    }
    Err(Error::new(
        ErrorKind::Parse,
        format!(
            "section '{}' must be a {want}, not {}",
            section.name(),
            describe(&value)
        ),
    )
    .at(value.span)
    .hint(format!(
        "Heat fails on this section later (it is merged as given, then read as a {want})"
    )))
}

pub(super) use crate::value::py::py_truthy as truthy;

/// Python's type name, as Heat's crash messages show it (Heat reads timestamps as strings).
pub(super) fn pytype(n: &Node) -> &'static str {
    match n.kind {
        Kind::Null => "NoneType",
        Kind::Bool(_) => "bool",
        Kind::Int(_) | Kind::BigInt(_) => "int",
        Kind::Float(_) => "float",
        Kind::Str(_) | Kind::Timestamp(_) => "str",
        Kind::Bytes(_) => "bytes",
        Kind::List(_) => "list",
        Kind::Map(_) => "dict",
        Kind::Set(_) => "set",
        Kind::Tuple(_) => "tuple",
    }
}

/// A value's kind in words.
pub(super) fn describe(n: &Node) -> &'static str {
    match n.kind {
        Kind::Null => "null",
        Kind::Bool(_) => "a boolean",
        Kind::Int(_) | Kind::BigInt(_) | Kind::Float(_) => "a number",
        Kind::Str(_) | Kind::Timestamp(_) => "a string",
        Kind::Bytes(_) => "binary data",
        Kind::List(_) => "a list",
        Kind::Map(_) => "a mapping",
        Kind::Set(_) => "a set",
        Kind::Tuple(_) => "a pair",
    }
}
