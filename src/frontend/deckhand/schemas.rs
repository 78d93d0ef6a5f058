//! DataSchemas: `deckhand/DataSchema/v1` documents whose `metadata.name` is a document
//! schema (`a/B/v1`) and whose `data` is a JSON schema, compiled and applied to a document's
//! `data` (Draft 4, no format checks, as Deckhand's `DataSchemaValidator`): each violation
//! with the value's position, its JSON Pointer, the rule and where the rule is written.
//! `check` uses them for `--check-schemas`.

use crate::value::key_text;
use crate::value::{Kind, Node, Path, Seg, Span};
use rustc_hash::FxHashMap;
use serde_json::Value;

/// The DataSchemas of a document set, by the document schema they describe.
pub(super) struct DataSchemas {
    by_kind: FxHashMap<String, Node>,
}

/// A value as JSON data for the validator: timestamps as their text, keys as text.
pub(super) fn to_json(n: &Node) -> Value {
    match &n.kind {
        Kind::Null => Value::Null,
        Kind::Bool(b) => Value::Bool(*b),
        Kind::Int(i) => Value::from(*i),
        Kind::BigInt(s) => s.parse::<f64>().map_or(Value::Null, Value::from),
        Kind::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Kind::Str(s) => Value::String(s.to_string()),
        Kind::Timestamp(s) => Value::String(s.to_string()),
        Kind::List(items) => Value::Array(items.iter().map(to_json).collect()),
        Kind::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (key_text(&k.0), to_json(v)))
                .collect(),
        ),
        #[allow(unreachable_patterns)]
        _ => Value::String(crate::value::py::py_str(n)),
    }
}

/// The node at a JSON Pointer (keys matched by their text).
fn at_pointer<'a>(root: &'a Node, pointer: &str) -> &'a Node {
    let Ok(path) = Path::parse_pointer(pointer) else {
        return root;
    };
    let mut cur = root;
    for seg in &path.0 {
        let want = match seg {
            Seg::Key(k) => k.to_string(),
            Seg::Index(i) => i.to_string(),
        };
        let next = match &cur.kind {
            Kind::Map(m) => m
                .iter()
                .find(|(k, _)| key_text(&k.0) == want)
                .map(|(_, v)| v),
            Kind::List(l) => want.parse::<usize>().ok().and_then(|i| l.get(i)),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => break,
        }
    }
    cur
}

static NAME_RE: std::sync::LazyLock<Option<regex::Regex>> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"^[a-zA-Z]+/[a-zA-Z]+/v\d+$").ok());

impl DataSchemas {
    pub(super) fn from_nodes(nodes: &[Node]) -> DataSchemas {
        let mut by_kind = FxHashMap::default();
        for d in nodes {
            let is_schema = is_data_schema(d);
            let name = d
                .get("metadata")
                .and_then(|m| m.get("name"))
                .and_then(Node::as_str);
            let data = d.get("data").filter(|x| super::doc::truthy(x));
            if let (true, Some(name), Some(data)) = (is_schema, name, data) {
                if NAME_RE.as_ref().is_some_and(|r| r.is_match(name)) {
                    by_kind
                        .entry(name.to_string())
                        .or_insert_with(|| data.clone());
                }
            }
        }
        DataSchemas { by_kind }
    }

    /// The DataSchema of a document schema (`a/B/v1`, matched by namespace, kind and version).
    fn schema_for(&self, schema: &str) -> Option<&Node> {
        let parts: Vec<&str> = schema.split('/').collect();
        let (a, b, v) = (parts.first()?, parts.get(1)?, parts.get(2)?);
        self.by_kind.get(&format!("{a}/{b}/{v}"))
    }

    /// Violations of `data` against the DataSchema for `schema`: message (with the JSON
    /// Pointer) and the offending value's position.
    pub(super) fn violations(&self, schema: &str, data: &Node) -> Vec<(String, Span)> {
        self.violations_at(schema, data)
            .into_iter()
            .map(|(m, at, _)| (m, at))
            .collect()
    }

    /// Violations with the offending value's position and the rule's.
    pub(super) fn violations_at(&self, schema: &str, data: &Node) -> Vec<(String, Span, Span)> {
        let Some(rules) = self.schema_for(schema) else {
            return Vec::new();
        };
        let compiled = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft4)
            .should_validate_formats(false)
            .build(&to_json(rules));
        let validator = match compiled {
            Ok(v) => v,
            Err(e) => {
                return vec![(
                    format!("the DataSchema {schema} is not a valid JSON schema: {e}"),
                    rules.span,
                    rules.span,
                )]
            }
        };
        let instance = to_json(data);
        validator
            .iter_errors(&instance)
            .map(|err| {
                let pointer = err.instance_path().as_str().to_string();
                let value = at_pointer(data, &pointer);
                let rule = at_pointer(rules, err.schema_path().as_str());
                let shown = if pointer.is_empty() {
                    String::new()
                } else {
                    pointer
                };
                (
                    format!("/data{shown}: {err}"),
                    if value.span.is_none() {
                        data.span
                    } else {
                        value.span
                    },
                    rule.span,
                )
            })
            .collect()
    }
}

/// Whether a document is a `deckhand/DataSchema`.
pub(super) fn is_data_schema(doc: &Node) -> bool {
    doc.get("schema")
        .and_then(Node::as_str)
        .is_some_and(|s| s.starts_with("deckhand/DataSchema"))
}
