//! `strata deckhand`: Airship Deckhand's rendering engine (`DocumentLayering.render()`),
//! offline. The model is `deckhand/engine/layering.py`, `secrets_manager.py`,
//! `_replacement.py` and `common/utils.py` at 08728d38; `shared/docs/reference/deckhand.md`
//! describes that code, and docs/frontends/deckhand.md what strata does.
//!
//! Flow: every input's YAML stream is loaded (`load`; empty documents dropped), optionally
//! pre-validated (`validate`); the LayeringPolicy is found; documents are read (`doc`),
//! indexed and given parents (`select`); replacement is checked and the processing order
//! worked out (`order`); then each document in that order is layered on its parent's rendered
//! data (`layer`) and receives its substitutions (`subst`). The result is a stream: every
//! concrete, non-replaced document in Deckhand's order, with its own `schema` and `metadata`
//! and its rendered `data`. `--check-schemas` then validates each against the DataSchemas
//! of the set (`schemas`).

mod check;
mod dest;
mod doc;
mod layer;
mod load;
mod order;
pub(crate) mod pyre;
mod redact;
mod schemas;
mod select;
mod subst;
mod validate;

use super::{Input, Rendered, Run, Stream, StreamDoc};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::merge::fold::Fold;
use crate::merge::{Outcome, RuleRef, Trace};
use crate::value::{Key, Kind, Node, Path, SourceMap, Span};
use doc::Doc;

/// What the CLI hands over for `strata deckhand`.
#[derive(Debug)]
pub struct DeckhandJob {
    /// Files (or stdin) in order; directories are expanded by the CLI.
    pub inputs: Vec<Input>,
    /// `--validate`: Deckhand's pre-validation.
    pub validate: bool,
    /// `--check-schemas`: validate each rendered document against its DataSchema.
    pub check_schemas: bool,
    /// `--allow-missing-substitution-source`: `fail_on_missing_sub_src=False`.
    pub lenient: bool,
}

/// A Deckhand error (`code` is the engine's exception class) or a clear error where the
/// engine would crash (`code` is `None`).
pub(crate) fn fail(code: Option<&'static str>, message: impl Into<String>, span: Span) -> Error {
    let e = Error::new(ErrorKind::Directive, message).at(span);
    match code {
        Some(c) => e.code(c),
        None => e,
    }
}

/// Warnings with the positions they name.
pub struct Warn<'s> {
    pub list: Vec<Warning>,
    sources: &'s SourceMap,
}

impl Warn<'_> {
    pub fn push(&mut self, kind: WarnKind, message: impl Into<String>, span: Span) {
        self.list.push(Warning::new(kind, message, span));
    }
    /// `file:line:col` of a span, for a message.
    pub fn at(&self, span: Span) -> String {
        self.sources
            .locate(span)
            .map_or_else(|| "(built in)".into(), |l| l.to_string())
    }
}

/// What rendering carries along: the trace, the warnings, the document being rendered.
pub struct Cx<'s> {
    pub trace: Option<Trace>,
    pub warn: Warn<'s>,
    pub parent_doc: Option<&'s Doc>,
    pub lenient: bool,
}

impl Cx<'_> {
    pub fn record(
        &mut self,
        path: Path,
        outcome: Outcome,
        rule: &RuleRef,
        value: Span,
        overrode: &[&Node],
    ) {
        self.record_with(path, outcome, rule, value, overrode, &[]);
    }

    pub fn record_with(
        &mut self,
        path: Path,
        outcome: Outcome,
        rule: &RuleRef,
        value: Span,
        overrode: &[&Node],
        others: &[&Node],
    ) {
        if let Some(t) = self.trace.as_mut() {
            t.record(&path, outcome, Some(rule.clone()), value, overrode, others);
        }
    }
}

/// A document's rendered state.
#[derive(Clone, Debug)]
pub struct Slot {
    /// Its data: the document's own (taken out of it, `Doc::take_data`), changed in place as
    /// rendering goes; `None` while it has none (Python's `None`).
    pub data: Option<Node>,
    /// Whether rendering set its data (a document without `data` then gets the key).
    pub set: bool,
    /// A substitution from an encrypted source made it `storagePolicy: encrypted`.
    pub encrypted: bool,
    /// Substitution entries from an encrypted source whose `src.path` and `dest.path` (the
    /// one dest, or dest `j` of a list) Deckhand redacts: `(entry, j)`.
    pub redact: Vec<(usize, Option<usize>)>,
}

impl Slot {
    fn new(data: Option<Node>) -> Slot {
        Slot {
            data,
            set: false,
            encrypted: false,
            redact: Vec::new(),
        }
    }

    /// The document's current data (`None`: it has none, Python's `None`).
    pub fn data(&self) -> Option<&Node> {
        self.data.as_ref()
    }

    /// The current data to change (a document without data gets a null to change).
    pub fn data_mut(&mut self) -> &mut Node {
        self.data.get_or_insert_with(|| Node::null(Span::NONE))
    }
}

/// Renders a Deckhand document set.
pub fn render(job: DeckhandJob, run: &mut Run<'_>) -> Result<Rendered> {
    let (sources, settings) = (&mut *run.sources, run.settings);
    let mut load_warnings = Vec::new();
    let nodes = load::documents(job.inputs, sources, settings, &mut load_warnings)?;
    let sources: &SourceMap = sources;
    if job.validate {
        validate::pre_validate(&nodes)?;
    }
    let set = load::read_set(nodes, settings.load.threads)
        .map_err(|e| e.after_warnings(std::mem::take(&mut load_warnings)))?;
    let (mut docs, policy_at) = (set.docs, set.policy_at);
    // --check-schemas reads the DataSchemas as written; rendering owns every document's data.
    let schema_docs: Vec<Node> = match job.check_schemas {
        true => docs
            .iter()
            .filter(|d| schemas::is_data_schema(&d.node))
            .map(|d| d.node.clone())
            .collect(),
        false => Vec::new(),
    };
    let own: Vec<Option<Node>> = docs.iter_mut().map(Doc::take_data).collect();
    let mut cx = Cx {
        trace: settings.explain.then(Trace::default),
        warn: Warn {
            list: load_warnings,
            sources,
        },
        parent_doc: None,
        lenient: job.lenient,
    };
    let policy = &docs[policy_at];
    let policies: Vec<&Doc> = docs
        .iter()
        .filter(|d| {
            d.schema()
                .as_str()
                .is_some_and(|s| s.starts_with("deckhand/LayeringPolicy"))
        })
        .collect();
    if policies.len() > 1 {
        for extra in policies.iter().skip(1) {
            let first = cx.warn.at(policy.span());
            cx.warn.push(WarnKind::Unlayered, format!("more than one LayeringPolicy: Deckhand uses the first ({} at {first}) and ignores {}", policy.title, extra.title), extra.span());
        }
    }
    let layered = (|| {
        let order = select::layer_order(policy, own[policy_at].as_ref())?;
        let site = select::Site::build(&docs, &own, &order, policy, &set.unhashable, &mut cx.warn)?;
        let plan = order::plan(&site)?;
        let slots = own.into_iter().map(Slot::new).collect();
        let slots = render_loop(&docs, &site, &plan, slots, &mut cx)?;
        Ok((site.parent, plan, slots))
    })();
    // A failure keeps the warnings gathered before it: they are printed before the error.
    let (parent, plan, slots) =
        layered.map_err(|e: Error| e.after_warnings(std::mem::take(&mut cx.warn.list)))?;
    let Cx { trace, warn, .. } = cx;
    let warnings = warn.list;
    let (list, stream) = output(&mut docs, &parent, &plan, slots);
    if job.check_schemas {
        check::check(&list, &schema_docs, sources)?;
    }
    Ok(Rendered::new(Node::list(list, Span::NONE), warnings, trace).with_stream(stream))
}

/// The render loop of `DocumentLayering.render()`.
fn render_loop<'d>(
    docs: &'d [Doc],
    site: &select::Site<'d>,
    plan: &order::Plan,
    mut slots: Vec<Slot>,
    cx: &mut Cx<'d>,
) -> Result<Vec<Slot>> {
    let null = Node::null(Span::NONE);
    // What a replaced parent's children see: the replacement's data.
    let mut seen_as: rustc_hash::FxHashMap<usize, Node> = rustc_hash::FxHashMap::default();
    for &d in &plan.sorted {
        let doc = &docs[d];
        if doc.is_control()? {
            continue;
        }
        // The trace layer of the document being rendered is its index in the input.
        Fold::layer(cx.trace.as_mut(), d);
        if doc.encrypted() && slots[d].data().is_some_and(barbican_ref) {
            return Err(encryption_error(doc, slots[d].data(), doc.span()));
        }
        let mut parent = None;
        if doc.has_selector()? {
            if let Some(&p) = site.parent.get(&d) {
                parent = Some(p);
                match doc.actions() {
                    Some(actions) => {
                        let base = match seen_as.get(&p) {
                            Some(seen) => seen.clone(),
                            None => slots[p].data().unwrap_or(&null).clone(),
                        };
                        // The document's own data is read by the actions, then dropped.
                        let own = slots[d].data.take();
                        cx.parent_doc = Some(&docs[p]);
                        let data = layer::apply(doc, actions, own.as_ref().unwrap_or(&null), base, cx)?;
                        cx.parent_doc = None;
                        slots[d].data = Some(data);
                        slots[d].set = true;
                    }
                    None => cx.warn.push(
                        WarnKind::Unlayered, format!("{} has a parent ({}) but no actions: Deckhand does not layer it, it keeps only its own data", doc.title, docs[p].title),
                        select::selector_span(doc),
                    ),
                }
            } else if doc.actions().is_some() {
                cx.warn.push(
                    WarnKind::Unlayered, format!("no document matches the parentSelector of {}: Deckhand renders it with its own data, without layering", doc.title),
                    select::selector_span(doc),
                );
            }
        }
        if !doc.substitutions()?.is_empty() {
            subst::substitute_all(d, docs, plan, &mut slots, cx)?;
        }
        if doc.is_replacement() {
            if let Some(p) = parent {
                seen_as.insert(p, slots[d].data().unwrap_or(&null).clone());
            }
        }
    }
    Ok(slots)
}

/// The rendered documents in Deckhand's order: concrete, not replaced, control documents
/// included, each with its own `schema` and `metadata` and its rendered `data`.
fn output(
    docs: &mut [Doc],
    parent: &rustc_hash::FxHashMap<usize, usize>,
    plan: &order::Plan,
    mut slots: Vec<Slot>,
) -> (Vec<Node>, Stream) {
    let mut list = Vec::new();
    let mut stream = Stream::default();
    // Positions first: a document moved into the result no longer has one.
    let spans: Vec<Span> = docs.iter().map(Doc::span).collect();
    for &d in &plan.sorted {
        stream
            .names
            .push((u32::try_from(d).unwrap_or(u32::MAX), docs[d].title.clone()));
    }
    for &d in &plan.sorted {
        let doc = &mut docs[d];
        if doc.is_abstract() || plan.replaced_by.contains_key(&d) {
            continue;
        }
        let (title, doc_at) = (doc.title.clone(), doc.span());
        let slot = std::mem::replace(&mut slots[d], Slot::new(None));
        let mut node = doc.node.take();
        if let Some(map) = node.as_map_mut() {
            if let Some(rendered) = slot.data {
                if slot.set || map.contains_key(&Key::str("data")) {
                    map.insert(Key::str("data"), rendered);
                }
            }
            if let Some(meta) = map
                .get_mut(&Key::str("metadata"))
                .and_then(Node::as_map_mut)
            {
                if slot.encrypted {
                    meta.insert(
                        Key::str("storagePolicy"),
                        Node::str("encrypted", Span::NONE),
                    );
                }
                redact_paths(meta, &slot.redact);
            }
        }
        list.push(node);
        let mut chain = Vec::new();
        let mut parents = Vec::new();
        let mut at = d;
        while let Some(&p) = parent.get(&at) {
            if chain.len() > docs.len() || chain.contains(&(p as u32)) {
                break;
            }
            chain.push(u32::try_from(p).unwrap_or(u32::MAX));
            parents.push((docs[p].title.clone(), spans[p]));
            at = p;
        }
        stream.docs.push(StreamDoc {
            layer: u32::try_from(d).unwrap_or(u32::MAX),
            chain,
            title,
            at: doc_at,
            parents,
        });
    }
    (list, stream)
}

/// Replaces the `src.path` and `dest.path` of the listed substitution entries by their
/// digests, as Deckhand does for substitutions from an encrypted source.
fn redact_paths(meta: &mut crate::value::Map, which: &[(usize, Option<usize>)]) {
    let Some(subs) = meta.get_mut(&Key::str("substitutions")) else {
        return;
    };
    let Kind::List(subs) = &mut subs.kind else {
        return;
    };
    let digest = |n: &mut Node, key: &str| {
        if let Some(m) = n.as_map_mut() {
            if let Some(v) = m.get_mut(&Key::str(key)) {
                *v = Node::str(redact::redact(v), Span::NONE);
            }
        }
    };
    let mut src_done = Vec::new();
    for &(i, j) in which {
        let Some(sub) = subs.get_mut(i).and_then(Node::as_map_mut) else {
            continue;
        };
        if !src_done.contains(&i) {
            if let Some(src) = sub.get_mut(&Key::str("src")) {
                digest(src, "path");
            }
            src_done.push(i);
        }
        if let Some(dest) = sub.get_mut(&Key::str("dest")) {
            match (j, &mut dest.kind) {
                (Some(j), Kind::List(items)) => {
                    if let Some(one) = items.get_mut(j) {
                        digest(one, "path");
                    }
                }
                (None, _) => digest(dest, "path"),
                _ => {}
            }
        }
    }
}

/// Deckhand's `has_barbican_ref`: a string URL with `secrets` in it whose last segment is a
/// UUID.
pub fn barbican_ref(data: &Node) -> bool {
    static URL: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^http[s]?://(?:[a-zA-Z]|[0-9]|[$-_@.&+]|[!*\(\),]|(?:%[0-9a-fA-F][0-9a-fA-F]))+",
        )
        .ok()
    });
    let Some(s) = data.as_str() else { return false };
    if !URL.as_ref().is_some_and(|r| r.is_match(s)) || !s.contains("secrets") {
        return false;
    }
    let last = s.rsplit('/').next().unwrap_or("");
    let hex: String = last
        .replace("urn:", "")
        .replace("uuid:", "")
        .trim_matches(['{', '}'])
        .replace('-', "")
        .to_ascii_lowercase();
    hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// An encrypted document holding a Barbican reference: offline there is no secret to fetch.
pub fn encryption_error(doc: &Doc, data: Option<&Node>, span: Span) -> Error {
    let reference = data.map_or_else(String::new, doc::text);
    fail(
        Some("EncryptionSourceNotFound"),
        format!(
            "Required encryption source reference could not be resolved into a secret because it was not found among encryption sources. Ref: {reference}. Referenced by: {}",
            doc.title
        ),
        span,
    )
    .hint("strata renders offline and cannot fetch a Barbican secret: give the secret's value in the document instead of the reference")
}
