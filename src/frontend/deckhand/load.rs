//! Reading a Deckhand document set: every input is a YAML stream read as PyYAML's
//! `safe_load_all` reads it (YAML 1.1, one `Node` per document, positions on every node);
//! empty documents (a bare `---`, a trailing `...`) are dropped, as the API drops them. An
//! empty file holds no documents. Every document must then be a mapping with a string
//! `schema` (the engine reads `schema` of every document to find the LayeringPolicy).

use super::fail;
use crate::error::{Result, Warning};
use crate::frontend::{parse_inputs, Input, Settings};
use crate::load::yaml;
use crate::value::{Node, SourceMap};

/// Every non-empty document of every input, in order.
pub fn documents(
    inputs: Vec<Input>,
    sources: &mut SourceMap,
    settings: &Settings,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    // A file of only blank space holds no document (it is checked for size only).
    // One over the size limit stops the run where it stands in the inputs.
    let mut texts = Vec::with_capacity(inputs.len());
    let mut too_large = Ok(());
    for input in inputs {
        if !input.bytes.iter().all(u8::is_ascii_whitespace) {
            texts.push(input);
        } else if let Err(e) = crate::frontend::check_size(&input, settings) {
            too_large = Err(e);
            break;
        }
    }
    let parsed = parse_inputs(texts, sources, settings, |_, text, id, warnings| {
        yaml::load_stream(text, id, &settings.load, warnings)
    });
    if let Some(all) = crate::frontend::parse_failures(&parsed) {
        return Err(all);
    }
    let mut docs = Vec::new();
    for loaded in parsed {
        let loaded = loaded?;
        warnings.extend(loaded.warnings);
        docs.extend(loaded.value?.into_iter().filter(|d| !d.is_null()));
        if docs.len() > settings.load.max_documents {
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::Limit,
                format!("more than {} documents", settings.load.max_documents),
            )
            .in_file(sources.name(loaded.id))
            .hint("split the site, or render fewer documents at once"));
        }
    }
    too_large?;
    Ok(docs)
}

/// Each document is a mapping with a string `schema`: the engine calls
/// `doc.get('schema').startswith(...)` on every document (AttributeError otherwise).
pub fn check_schemas(docs: &[Node]) -> Result<()> {
    for (i, d) in docs.iter().enumerate() {
        if d.as_map().is_none() {
            return Err(fail(
                None,
                format!("document {} is {}, not a mapping", i + 1, d.kind_phrase()),
                d.span,
            )
            .hint("a Deckhand document is a mapping with schema, metadata and data"));
        }
        match d.get("schema") {
            None => return Err(
                fail(None, format!("document {} has no schema", i + 1), d.span).hint(
                    "add schema: <namespace>/<Kind>/v1 (Deckhand reads every document's schema)",
                ),
            ),
            Some(s) if s.as_str().is_none() => {
                return Err(fail(
                    None,
                    format!(
                        "the schema of document {} is {}, not a string",
                        i + 1,
                        s.kind_phrase()
                    ),
                    s.span,
                )
                .hint("write schema: <namespace>/<Kind>/v1"))
            }
            Some(_) => {}
        }
    }
    Ok(())
}
