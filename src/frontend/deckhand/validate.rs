//! `--validate`: Deckhand's pre-validation (`DocumentValidation(documents,
//! pre_validate=True)`, what the conformance cases call `validate: true`). Per document: the
//! base schema (`schema`, `metadata`, `data` and nothing else; `schema` like `a/B/v1`), then,
//! if that passed, the schema of `metadata.schema` (`metadata/Document/v1`: `name`,
//! `storagePolicy`, `layeringDefinition.layer` required, no other keys, `parentSelector` and
//! `actions` together, action and substitution shapes; `metadata/Control/v1`: `name`, string
//! labels); a concrete control document's `data` against the built-in schema of its kind
//! (LayeringPolicy, ValidationPolicy, the secret kinds) or a DataSchema of the set; and no two
//! documents with the same `(schema, layer, name)`. Types are Python's as jsonschema's
//! Draft 4 sees them: a boolean is no integer, `1.0` is no integer, a date is nothing.
//! Every violation is reported at once as `InvalidDocumentFormat`.

use super::doc::{Doc, Meta};
use super::{fail, schemas};
use crate::error::{Error, Result};
use crate::value::{Key, Kind, Map, Node, Span};
use rustc_hash::FxHashSet;

/// One violation: what, and where.
struct Found {
    message: String,
    span: Span,
}

struct Check<'a> {
    found: Vec<Found>,
    doc: &'a Node,
}

fn type_name(n: &Node) -> &'static str {
    match n.kind {
        Kind::Null => "null",
        Kind::Bool(_) => "boolean",
        Kind::Int(_) | Kind::BigInt(_) => "integer",
        Kind::Float(_) => "number",
        Kind::Str(_) => "string",
        Kind::List(_) => "array",
        Kind::Map(_) => "object",
        _ => "date",
    }
}

/// Python's `re.search` with a pattern anchored by `^...$` (whose `$` also matches before a
/// final line break).
fn matches(pattern: &regex::Regex, s: &str) -> bool {
    pattern.is_match(s) || s.strip_suffix('\n').is_some_and(|t| pattern.is_match(t))
}

fn re(p: &str) -> regex::Regex {
    regex::Regex::new(p)
        .unwrap_or_else(|_| regex::Regex::new("$^").unwrap_or_else(|_| unreachable!()))
}

static SCHEMA_RE: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| re(r"^[A-Za-z]+/[A-Za-z]+/v\d+$"));

impl Check<'_> {
    fn bad(&mut self, message: String, at: &Node) {
        let span = if at.span.is_none() {
            self.doc.span
        } else {
            at.span
        };
        self.found.push(Found { message, span });
    }

    fn is(&mut self, n: &Node, want: &[&str]) -> bool {
        let t = type_name(n);
        if want.contains(&t) || (t == "integer" && want.contains(&"number")) {
            return true;
        }
        let list: Vec<String> = want.iter().map(|w| format!("'{w}'")).collect();
        self.bad(
            format!(
                "{} is not of type {}",
                crate::value::py::py_repr(n),
                list.join(", ")
            ),
            n,
        );
        false
    }

    fn string_like(&mut self, n: &Node, pattern: &regex::Regex, text: &str) {
        if self.is(n, &["string"]) {
            if let Some(s) = n.as_str() {
                if !matches(pattern, s) {
                    self.bad(format!("'{s}' does not match '{text}'"), n);
                }
            }
        }
    }

    fn required(&mut self, m: &Map, at: &Node, keys: &[&str]) {
        for k in keys {
            if !m.contains_key(&Key::str(k)) {
                self.bad(format!("'{k}' is a required property"), at);
            }
        }
    }

    fn only(&mut self, m: &Map, at: &Node, keys: &[&str]) {
        let extra: Vec<String> = m
            .keys()
            .filter(|k| !k.as_str().is_some_and(|s| keys.contains(&s)))
            .map(|k| format!("'{}'", crate::value::key_text(&k.0)))
            .collect();
        if !extra.is_empty() {
            let verb = if extra.len() == 1 { "was" } else { "were" };
            self.bad(
                format!(
                    "Additional properties are not allowed ({} {verb} unexpected)",
                    extra.join(", ")
                ),
                at,
            );
        }
    }

    /// The base schema, on the document as Deckhand hands it over: only `schema`, `metadata`
    /// and `data` (other keys dropped), each present (null when missing).
    fn base(&mut self, d: &Node) {
        let Some(m) = d.as_map() else {
            self.bad(format!("{} is not of type 'object'", type_name(d)), d);
            return;
        };
        let null = Node::null(d.span);
        let field = |k: &str| m.get(&Key::str(k)).unwrap_or(&null);
        let s = field("schema");
        self.string_like(s, &SCHEMA_RE, r"^[A-Za-z]+/[A-Za-z]+/v\d+$");
        let md = field("metadata");
        if self.is(md, &["object"]) {
            if let Some(mm) = md.as_map() {
                if let Some(n) = mm.get(&Key::str("name")) {
                    self.is(n, &["string"]);
                }
                if let Some(s) = mm.get(&Key::str("schema")) {
                    let ok = s.as_str().is_some_and(|t| {
                        matches(&re(r"^metadata/Document/v\d+$"), t)
                            || matches(&re(r"^metadata/Control/v\d+$"), t)
                    });
                    if !ok {
                        self.bad(
                            format!(
                                "{} is not valid under any of the given schemas",
                                crate::value::py::py_repr(s)
                            ),
                            s,
                        );
                    }
                }
                self.required(mm, md, &["name", "schema"]);
            }
        }
        self.is(
            field("data"),
            &["null", "string", "object", "array", "number", "boolean"],
        );
    }

    fn control_metadata(&mut self, md: &Node, m: &Map) {
        if let Some(s) = m.get(&Key::str("schema")) {
            self.string_like(
                s,
                &re(r"^metadata/Control/v\d+$"),
                r"^metadata/Control/v\d+$",
            );
        }
        if let Some(n) = m.get(&Key::str("name")) {
            self.is(n, &["string"]);
        }
        if let Some(l) = m.get(&Key::str("labels")) {
            if self.is(l, &["object"]) {
                for v in l.as_map().map(Map::values).into_iter().flatten() {
                    self.is(v, &["string"]);
                }
            }
        }
        self.required(m, md, &["schema", "name"]);
    }

    fn document_metadata(&mut self, md: &Node, m: &Map) {
        self.only(
            m,
            md,
            &[
                "schema",
                "name",
                "labels",
                "replacement",
                "layeringDefinition",
                "substitutions",
                "storagePolicy",
            ],
        );
        self.required(
            m,
            md,
            &["schema", "name", "storagePolicy", "layeringDefinition"],
        );
        if let Some(s) = m.get(&Key::str("schema")) {
            self.string_like(
                s,
                &re(r"^metadata/Document/v\d+$"),
                r"^metadata/Document/v\d+$",
            );
        }
        for (k, t) in [
            ("name", "string"),
            ("labels", "object"),
            ("replacement", "boolean"),
        ] {
            if let Some(v) = m.get(&Key::str(k)) {
                self.is(v, &[t]);
            }
        }
        if let Some(p) = m.get(&Key::str("storagePolicy")) {
            if self.is(p, &["string"]) && !matches!(p.as_str(), Some("encrypted" | "cleartext")) {
                self.bad(
                    format!(
                        "{} is not one of ['encrypted', 'cleartext']",
                        crate::value::py::py_repr(p)
                    ),
                    p,
                );
            }
        }
        if let Some(ld) = m.get(&Key::str("layeringDefinition")) {
            self.layering_definition(ld);
        }
        if let Some(subs) = m.get(&Key::str("substitutions")) {
            if self.is(subs, &["array"]) {
                for sub in subs.as_list().unwrap_or_default() {
                    self.substitution(sub);
                }
            }
        }
    }

    fn layering_definition(&mut self, ld: &Node) {
        if !self.is(ld, &["object"]) {
            return;
        }
        let Some(m) = ld.as_map() else { return };
        self.only(m, ld, &["layer", "abstract", "parentSelector", "actions"]);
        self.required(m, ld, &["layer"]);
        for (k, t) in [("layer", "string"), ("abstract", "boolean")] {
            if let Some(v) = m.get(&Key::str(k)) {
                self.is(v, &[t]);
            }
        }
        if let Some(sel) = m.get(&Key::str("parentSelector")) {
            if self.is(sel, &["object"]) && sel.as_map().is_some_and(Map::is_empty) {
                self.bad("{} does not have enough properties".into(), sel);
            }
        }
        if let Some(actions) = m.get(&Key::str("actions")) {
            if self.is(actions, &["array"]) {
                let items = actions.as_list().unwrap_or_default();
                if items.is_empty() {
                    self.bad("[] is too short".into(), actions);
                }
                for a in items {
                    if !self.is(a, &["object"]) {
                        continue;
                    }
                    let Some(am) = a.as_map() else { continue };
                    self.only(am, a, &["method", "path"]);
                    self.required(am, a, &["method", "path"]);
                    if let Some(meth) = am.get(&Key::str("method")) {
                        if !matches!(meth.as_str(), Some("replace" | "delete" | "merge")) {
                            self.bad(
                                format!(
                                    "{} is not one of ['replace', 'delete', 'merge']",
                                    crate::value::py::py_repr(meth)
                                ),
                                meth,
                            );
                        }
                    }
                    if let Some(p) = am.get(&Key::str("path")) {
                        self.is(p, &["string"]);
                    }
                }
            }
        }
        let has = |k: &str| m.contains_key(&Key::str(k));
        if has("parentSelector") && !has("actions") {
            self.bad("'actions' is a dependency of 'parentSelector'".into(), ld);
        }
        if has("actions") && !has("parentSelector") {
            self.bad("'parentSelector' is a dependency of 'actions'".into(), ld);
        }
    }

    /// `substitution_dest`, without recording: `anyOf` needs to know whether it passes.
    fn dest_ok(d: &Node) -> bool {
        let mut probe = Check {
            found: Vec::new(),
            doc: d,
        };
        probe.dest(d);
        probe.found.is_empty()
    }

    fn dest(&mut self, d: &Node) {
        if !self.is(d, &["object"]) {
            return;
        }
        let Some(m) = d.as_map() else { return };
        self.only(m, d, &["path", "pattern", "recurse"]);
        self.required(m, d, &["path"]);
        for k in ["path", "pattern"] {
            if let Some(v) = m.get(&Key::str(k)) {
                self.is(v, &["string"]);
            }
        }
        if let Some(r) = m.get(&Key::str("recurse")) {
            if self.is(r, &["object"]) {
                if let Some(rm) = r.as_map() {
                    self.required(rm, r, &["depth"]);
                    if let Some(depth) = rm.get(&Key::str("depth")) {
                        if self.is(depth, &["integer"])
                            && matches!(depth.kind, Kind::Int(i) if i < -1)
                        {
                            self.bad(
                                format!(
                                    "{} is less than the minimum of -1",
                                    crate::value::py::py_repr(depth)
                                ),
                                depth,
                            );
                        }
                    }
                }
            }
        }
    }

    fn substitution(&mut self, sub: &Node) {
        if !self.is(sub, &["object"]) {
            return;
        }
        let Some(m) = sub.as_map() else { return };
        self.only(m, sub, &["dest", "src"]);
        self.required(m, sub, &["dest", "src"]);
        if let Some(dest) = m.get(&Key::str("dest")) {
            let single = Self::dest_ok(dest);
            let list = dest
                .as_list()
                .is_some_and(|l| !l.is_empty() && l.iter().all(Self::dest_ok));
            if !single && !list {
                self.bad(
                    format!(
                        "{} is not valid under any of the given schemas",
                        crate::value::py::py_repr(dest)
                    ),
                    dest,
                );
            }
        }
        if let Some(src) = m.get(&Key::str("src")) {
            if self.is(src, &["object"]) {
                if let Some(sm) = src.as_map() {
                    self.only(
                        sm,
                        src,
                        &[
                            "schema",
                            "name",
                            "path",
                            "pattern",
                            "match_group",
                            "deepcopy",
                        ],
                    );
                    self.required(sm, src, &["schema", "name", "path"]);
                    if let Some(s) = sm.get(&Key::str("schema")) {
                        self.string_like(s, &SCHEMA_RE, r"^[A-Za-z]+/[A-Za-z]+/v\d+$");
                    }
                    for (k, t) in [
                        ("name", "string"),
                        ("path", "string"),
                        ("pattern", "string"),
                        ("match_group", "integer"),
                        ("deepcopy", "boolean"),
                    ] {
                        if let Some(v) = sm.get(&Key::str(k)) {
                            self.is(v, &[t]);
                        }
                    }
                }
            }
        }
    }

    /// The built-in schema of a control document's kind, on its `data`.
    fn control_data(&mut self, kind: &str, data: &Node) -> bool {
        match kind {
            "deckhand/LayeringPolicy/v1" => {
                if self.is(data, &["object"]) {
                    if let Some(m) = data.as_map() {
                        self.only(m, data, &["layerOrder"]);
                        self.required(m, data, &["layerOrder"]);
                        if let Some(lo) = m.get(&Key::str("layerOrder")) {
                            if self.is(lo, &["array"]) {
                                for l in lo.as_list().unwrap_or_default() {
                                    self.is(l, &["string"]);
                                }
                            }
                        }
                    }
                }
                true
            }
            "deckhand/ValidationPolicy/v1" => {
                if self.is(data, &["object"]) {
                    if let Some(m) = data.as_map() {
                        self.only(m, data, &["validations"]);
                        self.required(m, data, &["validations"]);
                        if let Some(vs) = m.get(&Key::str("validations")) {
                            if self.is(vs, &["array"]) {
                                for v in vs.as_list().unwrap_or_default() {
                                    if !self.is(v, &["object"]) {
                                        continue;
                                    }
                                    let Some(vm) = v.as_map() else { continue };
                                    self.only(vm, v, &["name", "expiresAfter"]);
                                    self.required(vm, v, &["name"]);
                                    if let Some(n) = vm.get(&Key::str("name")) {
                                        self.string_like(
                                            n,
                                            &re(r"^.*-(validation|verification)$"),
                                            r"^.*-(validation|verification)$",
                                        );
                                    }
                                    if let Some(e) = vm.get(&Key::str("expiresAfter")) {
                                        self.is(e, &["string"]);
                                    }
                                }
                            }
                        }
                    }
                }
                true
            }
            "deckhand/CertificateAuthority/v1"
            | "deckhand/CertificateAuthorityKey/v1"
            | "deckhand/Certificate/v1"
            | "deckhand/CertificateKey/v1"
            | "deckhand/Passphrase/v1"
            | "deckhand/PrivateKey/v1"
            | "deckhand/PublicKey/v1" => {
                self.is(data, &["string"]);
                true
            }
            _ => false,
        }
    }
}

/// A document of a built-in kind (LayeringPolicy, ValidationPolicy, the secret kinds)
/// against Deckhand's own rules for its data; `None` for any other kind.
pub(super) fn builtin_violations(kind: &str, data: &Node) -> Option<Vec<(String, Span)>> {
    let mut c = Check {
        found: Vec::new(),
        doc: data,
    };
    c.control_data(kind, data)
        .then(|| c.found.into_iter().map(|f| (f.message, f.span)).collect())
}

/// Runs the pre-validation over the loaded documents.
pub(super) fn pre_validate(nodes: &[Node]) -> Result<()> {
    let mut all: Vec<(String, Found)> = Vec::new();
    let mut seen: FxHashSet<Meta> = FxHashSet::default();
    let data_schemas = schemas::DataSchemas::from_nodes(nodes);
    for (i, d) in nodes.iter().enumerate() {
        if let Some(n) = d
            .get("schema")
            .filter(|n| super::doc::truthy(n) && n.as_str().is_none())
        {
            return Err(fail(None, format!("the schema of document {} is {}; Deckhand's pre-validation fails on it (AttributeError)", i + 1, n.kind_phrase()), n.span)
                .hint("write schema: <namespace>/<Kind>/v1"));
        }
        if let Some(s) = d
            .get("schema")
            .and_then(Node::as_str)
            .filter(|s| !s.is_empty())
        {
            if s.split('/').count() < 3 {
                return Err(fail(None, format!("the schema '{s}' of document {} is not <namespace>/<Kind>/<version>; Deckhand's pre-validation fails on it (IndexError)", i + 1), d.get("schema").map_or(d.span, |n| n.span))
                    .hint("write schema: <namespace>/<Kind>/v1"));
            }
        }
        let mut c = Check {
            found: Vec::new(),
            doc: d,
        };
        c.base(d);
        let label = d.get("metadata").and_then(|m| m.get("name")).map_or_else(
            || format!("document {}", i + 1),
            |n| {
                format!(
                    "[{}] {}",
                    d.get("schema").map_or(String::new(), super::doc::text),
                    super::doc::text(n)
                )
            },
        );
        if c.found.is_empty() {
            let md = d.get("metadata").cloned().unwrap_or(Node::null(d.span));
            let kind = md.get("schema").and_then(Node::as_str).unwrap_or("");
            let m = md.as_map().cloned().unwrap_or_default();
            match kind.splitn(3, '/').collect::<Vec<_>>().as_slice() {
                ["metadata", "Document", "v1"] => c.document_metadata(&md, &m),
                ["metadata", "Control", "v1"] => c.control_metadata(&md, &m),
                [a, b, v] => c.bad(format!("Invalid metadata schema {a}/{b} version {v} specified."), &md),
                _ => {
                    return Err(fail(None, format!("metadata.schema of {label} is '{kind}', not <namespace>/<Kind>/<version> (Deckhand's pre-validation fails on it: IndexError)"), md.span)
                        .hint("write metadata/Document/v1 or metadata/Control/v1"))
                }
            }
            let control = kind.starts_with("metadata/Control");
            let is_abstract = md
                .get("layeringDefinition")
                .and_then(|l| l.get("abstract"))
                .is_some_and(|a| matches!(a.kind, Kind::Bool(true)));
            if control && !is_abstract {
                let schema = d.get("schema").and_then(Node::as_str).unwrap_or("");
                let data = d.get("data").cloned().unwrap_or(Node::null(d.span));
                if !c.control_data(schema, &data) {
                    for (message, at) in data_schemas.violations(schema, &data) {
                        c.found.push(Found {
                            message,
                            span: if at.is_none() { d.span } else { at },
                        });
                    }
                }
            }
        }
        if let Ok(doc) = Doc::new(d.clone()) {
            if !seen.insert(doc.meta.clone()) {
                c.found.push(Found {
                    message: "Duplicate document exists".into(),
                    span: d.span,
                });
            }
        }
        all.extend(c.found.into_iter().map(|f| (label.clone(), f)));
    }
    let Some((label, first)) = all.first() else {
        return Ok(());
    };
    let mut e: Error = fail(
        Some("InvalidDocumentFormat"),
        format!(
            "The provided documents failed schema validation: {label}: {}",
            first.message
        ),
        first.span,
    );
    for (label, f) in all.iter().skip(1) {
        e = e.note(format!("{label}: {}", f.message), f.span);
    }
    Err(e.hint(format!(
        "{} violation(s) of Deckhand's document schemas; fix each",
        all.len()
    )))
}
