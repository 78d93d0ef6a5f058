//! `--check-schemas`: each rendered, concrete document's `data` against the schema for its
//! kind, as Deckhand's post-render validation does: the built-in kinds (LayeringPolicy,
//! ValidationPolicy, the secret kinds) with Deckhand's own rules (`validate`), any other kind
//! with the DataSchema of the set (`schemas`; the first of a name wins). Every violation is
//! reported at once.

use super::fail;
use super::schemas::DataSchemas;
use crate::error::Result;
use crate::value::{Node, SourceMap, Span};

/// `--check-schemas` over the rendered documents.
/// `schema_docs`: the set's DataSchema documents as written.
pub(super) fn check(rendered: &[Node], schema_docs: &[Node], sources: &SourceMap) -> Result<()> {
    let schemas = DataSchemas::from_nodes(schema_docs);
    let mut found: Vec<(String, Span)> = Vec::new();
    for doc in rendered {
        let schema = doc.get("schema").and_then(Node::as_str).unwrap_or("");
        let name = doc
            .get("metadata")
            .and_then(|m| m.get("name"))
            .map_or(String::new(), super::doc::text);
        let data = doc.get("data").cloned().unwrap_or(Node::null(doc.span));
        let title = format!("[{schema}] {name}");
        let mut builtin = super::validate::builtin_violations(schema, &data);
        if let Some(v) = builtin.as_mut() {
            for (m, at) in v.drain(..) {
                found.push((
                    format!("{title} {m} (Deckhand's built-in schema for {schema})"),
                    at,
                ));
            }
            continue;
        }
        for (m, at, rule) in schemas.violations_at(schema, &data) {
            let rule_at = sources
                .locate(rule)
                .map_or_else(|| "(built in)".into(), |l| l.to_string());
            found.push((format!("{title} {m} (rule at {rule_at})"), at));
        }
    }
    let Some((first, at)) = found.first() else {
        return Ok(());
    };
    let mut e = fail(
        None,
        format!("{} value(s) violate their DataSchema: {first}", found.len()),
        *at,
    );
    for (m, at) in found.iter().skip(1) {
        e = e.note(m.clone(), *at);
    }
    Err(e.hint("fix the values, or the DataSchema (a deckhand/DataSchema/v1 document named after the document's schema)"))
}
