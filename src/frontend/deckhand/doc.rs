//! One Deckhand document as the engine's `DocumentDict` reads it: `schema`, `metadata.name`,
//! `metadata.layeringDefinition.{layer, abstract, parentSelector, actions}`, labels,
//! substitutions, `replacement`, `storagePolicy`, each with the engine's leniency (a missing
//! or empty value reads as `''` / `{}` / `[]`; only a literal `true` is true). Where the engine
//! would crash on a value of the wrong type, the accessor returns a clear error instead.

use super::fail;
use crate::error::Result;
use crate::value::{Key, Kind, Map, Node, Span};

/// Deckhand's identity of a document: `(schema, layer, name)`, compared as Python compares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Meta(pub Key, pub Key, pub Key);

/// `(schema, name)`: how substitution and replacement address a document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaName(pub Key, pub Key);

/// A loaded document.
#[derive(Debug)]
pub struct Doc {
    /// The whole document as written.
    pub node: Node,
    pub meta: Meta,
    /// `[schema, layer] name`, as Deckhand's messages name a document.
    pub title: String,
    /// Where `metadata` is among the document's entries, and `layeringDefinition` among
    /// metadata's: the accessors below are asked ~30 times per document, and finding each key
    /// by comparing strings again was 10 % of a 10 000-document render. `node` is not changed
    /// after `new` (only taken whole for the output, after which these find nothing).
    at: (Option<usize>, Option<usize>),
    /// The answers of the predicates every phase asks (`abstract`, `replacement`,
    /// `storagePolicy: encrypted`, a control document, a non-empty parentSelector), found once
    /// in `new`: each phase asking again walked every document's metadata anew, a cache miss
    /// at each step. `None` where the accessor reports an error (asked again then).
    flags: Flags,
}

#[derive(Debug, Default, Clone, Copy)]
struct Flags {
    is_abstract: bool,
    replacement: bool,
    encrypted: bool,
    control: Option<bool>,
    selector: Option<bool>,
}

pub(super) use crate::value::py::py_truthy as truthy;

/// `d.get(key)` on a mapping.
pub(super) fn get<'a>(map: Option<&'a Map>, key: &str) -> Option<&'a Node> {
    map.and_then(|m| m.get_str(key))
}

/// A value as text for messages: a string as it is, anything else as Python prints it.
pub(super) fn text(node: &Node) -> String {
    crate::value::py::py_str(node)
}

/// `x or ''`: the value when truthy, else the empty string.
fn or_empty(node: Option<&Node>) -> Node {
    match node {
        Some(n) if truthy(n) => n.clone(),
        _ => Node::str("", Span::NONE),
    }
}

impl Doc {
    /// Builds the document's identity.
    pub fn new(node: Node) -> Result<Doc> {
        let schema = or_empty(node.get("schema"));
        let meta_at = node
            .as_map()
            .and_then(|m| m.get_index_of(&Key::str("metadata")));
        let metadata = mapping_or_empty(entry(node.as_map(), meta_at), &node, "metadata")?;
        let ld_at = metadata.and_then(|m| m.get_index_of(&Key::str("layeringDefinition")));
        let ld = mapping_or_empty(entry(metadata, ld_at), &node, "metadata.layeringDefinition")?;
        let name = or_empty(get(metadata, "name"));
        let layer = or_empty(get(ld, "layer"));
        for (what, v) in [
            ("metadata.name", &name),
            ("metadata.layeringDefinition.layer", &layer),
        ] {
            if !v.is_scalar() {
                return Err(fail(
                    None,
                    format!("{what} is {}; Deckhand needs a scalar (it hashes it: TypeError: unhashable type)", v.kind_phrase()),
                    v.span,
                )
                .hint("write a string"));
            }
        }
        let title = format!("[{}, {}] {}", text(&schema), text(&layer), text(&name));
        let mut doc = Doc {
            meta: Meta(Key(schema), Key(layer), Key(name)),
            node,
            title,
            at: (meta_at, ld_at),
            flags: Flags::default(),
        };
        doc.flags = Flags {
            is_abstract: matches!(
                get(doc.ld(), "abstract").map(|n| &n.kind),
                Some(Kind::Bool(true))
            ),
            replacement: matches!(
                get(doc.metadata(), "replacement").map(|n| &n.kind),
                Some(Kind::Bool(true))
            ),
            encrypted: get(doc.metadata(), "storagePolicy").and_then(Node::as_str)
                == Some("encrypted"),
            control: doc.control().ok(),
            selector: doc
                .selector()
                .ok()
                .map(|m| m.is_some_and(|m| !m.is_empty()) && truthy(&doc.node)),
        };
        Ok(doc)
    }

    pub fn span(&self) -> Span {
        self.node.span
    }
    pub fn schema(&self) -> &Node {
        &self.meta.0 .0
    }
    pub fn layer(&self) -> &Node {
        &self.meta.1 .0
    }
    pub fn name(&self) -> &Node {
        &self.meta.2 .0
    }
    pub fn schema_name(&self) -> SchemaName {
        SchemaName(self.meta.0.clone(), self.meta.2.clone())
    }
    pub fn has_layer(&self) -> bool {
        truthy(self.layer())
    }

    /// `metadata`, when it is a non-empty mapping (checked in `new`).
    pub fn metadata(&self) -> Option<&Map> {
        entry(self.node.as_map(), self.at.0)?.as_map()
    }
    fn ld(&self) -> Option<&Map> {
        entry(self.metadata(), self.at.1)?.as_map()
    }
    /// Takes the `data` section out (`None` when the document has none), leaving a null in
    /// its place, so the entry keeps its position for the rendered data. Rendering owns it
    /// from then on (`Slot`): it changes it in place and drops what it no longer needs.
    pub fn take_data(&mut self) -> Option<Node> {
        let v = self.node.as_map_mut()?.get_mut(&Key::str("data"))?;
        let span = v.span;
        Some(std::mem::replace(v, Node::null(span)))
    }

    pub fn is_abstract(&self) -> bool {
        self.flags.is_abstract
    }
    pub fn is_replacement(&self) -> bool {
        self.flags.replacement
    }
    /// `storagePolicy: encrypted`.
    pub fn encrypted(&self) -> bool {
        self.flags.encrypted
    }

    /// A control document: `metadata.schema` starts with `metadata/Control`.
    pub fn is_control(&self) -> Result<bool> {
        match self.flags.control {
            Some(known) => Ok(known),
            None => self.control(),
        }
    }

    /// Whether the document has a non-empty parentSelector (and is not empty itself).
    pub fn has_selector(&self) -> Result<bool> {
        match self.flags.selector {
            Some(known) => Ok(known),
            None => Ok(self.selector()?.is_some_and(|m| !m.is_empty()) && truthy(&self.node)),
        }
    }

    fn control(&self) -> Result<bool> {
        match get(self.metadata(), "schema") {
            None => Ok(false),
            Some(n) => match n.as_str() {
                Some(s) => Ok(s.starts_with("metadata/Control")),
                None => Err(fail(
                    None,
                    format!(
                        "metadata.schema of {} is {}, not a string (Deckhand: AttributeError)",
                        self.title,
                        n.kind_phrase()
                    ),
                    n.span,
                )
                .hint("write metadata/Document/v1 or metadata/Control/v1")),
            },
        }
    }

    /// `metadata.labels` (`None` when empty).
    pub fn labels(&self) -> Result<Option<&Map>> {
        self.map_field(get(self.metadata(), "labels"), "metadata.labels")
    }

    /// `layeringDefinition.parentSelector` (`None` when empty).
    pub fn selector(&self) -> Result<Option<&Map>> {
        self.map_field(get(self.ld(), "parentSelector"), "parentSelector")
    }

    /// `layeringDefinition.actions` when truthy.
    pub fn actions(&self) -> Option<&Node> {
        get(self.ld(), "actions").filter(|n| truthy(n))
    }

    /// `metadata.substitutions` (absent: none). Null or a non-list is an error: Deckhand
    /// iterates it (TypeError).
    pub fn substitutions(&self) -> Result<&[Node]> {
        match get(self.metadata(), "substitutions") {
            None => Ok(&[]),
            Some(n) => n.as_list().ok_or_else(|| {
                fail(
                    None,
                    format!("metadata.substitutions of {} is {}, not a list (Deckhand cannot iterate it)", self.title, n.kind_phrase()),
                    n.span,
                )
                .hint("write a list of {src: ..., dest: ...} entries, or leave the key out")
            }),
        }
    }

    fn map_field<'a>(&self, n: Option<&'a Node>, what: &str) -> Result<Option<&'a Map>> {
        match n {
            None => Ok(None),
            Some(n) if !truthy(n) => Ok(None),
            Some(n) => n.as_map().map(Some).ok_or_else(|| {
                fail(
                    None,
                    format!(
                        "{what} of {} is {}, not a mapping (Deckhand: AttributeError)",
                        self.title,
                        n.kind_phrase()
                    ),
                    n.span,
                )
                .hint("write key: value pairs")
            }),
        }
    }
}

/// The value of a map's `i`-th entry.
fn entry(m: Option<&Map>, i: Option<usize>) -> Option<&Node> {
    Some(m?.get_index(i?)?.1)
}

/// `x or {}` where `x` must then be a mapping.
fn mapping_or_empty<'a>(n: Option<&'a Node>, doc: &Node, what: &str) -> Result<Option<&'a Map>> {
    match n {
        None => Ok(None),
        Some(n) if !truthy(n) => Ok(None),
        Some(n) => match n.as_map() {
            Some(m) => Ok(Some(m)),
            None => Err(fail(
                None,
                format!(
                    "{what} is {}, not a mapping (Deckhand: AttributeError)",
                    n.kind_phrase()
                ),
                if n.span.is_none() { doc.span } else { n.span },
            )
            .hint("write key: value pairs")),
        },
    }
}

/// Whether Deckhand can hash the document: `DocumentDict.__hash__` is
/// `hash(json.dumps(doc, sort_keys=True))`, which fails (TypeError) on a mapping whose keys
/// Python cannot sort (a string and a number, `null` beside another key) or JSON cannot write
/// (dates). Deckhand hashes every document a parent's labels point to. Returns the offending
/// mapping's position and why.
pub(super) fn json_hashable(node: &Node) -> std::result::Result<(), (Span, String)> {
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        match &n.kind {
            Kind::List(items) => todo.extend(items.iter()),
            Kind::Map(m) => {
                let (mut strs, mut nums, mut nulls, mut other) = (0, 0, 0, 0);
                for (k, v) in m.iter() {
                    match k.0.kind {
                        Kind::Str(_) => strs += 1,
                        Kind::Int(_) | Kind::BigInt(_) | Kind::Float(_) | Kind::Bool(_) => {
                            nums += 1
                        }
                        Kind::Null => nulls += 1,
                        _ => other += 1,
                    }
                    todo.push(v);
                }
                let why = if other > 0 {
                    Some("a key JSON cannot write (keys must be str, int, float, bool or None)")
                } else if (strs > 0 && nums > 0) || (nulls > 0 && m.len() > 1) {
                    Some("keys of types Python cannot sort ('<' not supported)")
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err((n.span, why.to_string()));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
