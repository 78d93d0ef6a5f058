//! The comparison walk: both results side by side, maps by key, lists of maps by the key the
//! systems name their entries with (a stream's documents by `schema` + `metadata.name`, other
//! lists by `name`, else `id`, when every item has a distinct one on both sides), other lists
//! by position. Keyed matching goes through a hash map: linear in the items. Each node's
//! provenance is looked up as `--explain` looks it up (its own last step, else its nearest
//! ancestor's), only where a change is reported.

use super::{At, Cause, CauseKind, Change, Kind, Provenance, Side};
use crate::merge::{Outcome, Step, Trace};
use crate::render::explain::{may_copy, short_value, shown_outcome, step_of, trace_of};
use crate::rendered::StreamDoc;
use crate::strategy::Origin;
use crate::value::key_cow;
use crate::value::{Kind as K, Node, Path, SourceMap, Span};
use rustc_hash::FxHashMap;

/// What a node inherits from where it sits on one side.
#[derive(Clone, Copy, Default)]
struct Cx<'t> {
    step: Option<&'t Step>,
    scope: Option<&'t StreamDoc>,
}

struct Walk<'a> {
    base: &'a Side<'a>,
    head: &'a Side<'a>,
    base_trace: &'a Trace,
    head_trace: &'a Trace,
    /// The head's deletions by path (outside streams), to name what removed a value.
    deletions: FxHashMap<String, &'a Step>,
    /// The files the head render read: a base value from any other file is gone with it.
    head_files: rustc_hash::FxHashSet<&'a str>,
    /// The head's steps are found by path too (`may_copy`).
    by_path: bool,
    moves: bool,
    out: Vec<Change>,
}

pub(super) fn changes(base: &Side<'_>, head: &Side<'_>, moves: bool) -> Vec<Change> {
    let head_trace = trace_of(head.rendered);
    let mut deletions = FxHashMap::default();
    if head.rendered.stream.is_none() {
        for s in head_trace
            .steps
            .iter()
            .filter(|s| s.outcome == Outcome::Deleted)
        {
            deletions.insert(s.path.to_string(), s);
        }
    }
    let mut walk = Walk {
        base,
        head,
        base_trace: trace_of(base.rendered),
        head_trace,
        deletions,
        head_files: head.sources.names().collect(),
        by_path: may_copy(head.sources),
        moves,
        out: Vec::new(),
    };
    let mut path = Path::root();
    let (old, new) = (&base.rendered.doc, &head.rendered.doc);
    let streams = base.rendered.stream.is_some() && head.rendered.stream.is_some();
    match (old.as_list(), new.as_list()) {
        (Some(o), Some(n)) if streams => walk.stream(o, n, &mut path),
        _ => walk.node(old, new, &mut path, Cx::default(), Cx::default(), None),
    }
    walk.out
}

/// How the items of two lists are matched.
#[derive(Clone, Copy)]
enum By {
    Document,
    Field(&'static str),
}

/// Each item's key, or `None` when some item has none or two share one.
fn keys(items: &[Node], by: By) -> Option<Vec<String>> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let k = match by {
            By::Field(f) => scalar_text(item.get(f)?)?,
            By::Document => {
                let schema = scalar_text(item.get("schema")?)?;
                let name = scalar_text(item.get("metadata")?.get("name")?)?;
                format!("{schema}\u{0}{name}")
            }
        };
        if !seen.insert(k.clone()) {
            return None;
        }
        out.push(k);
    }
    Some(out)
}

fn scalar_text(n: &Node) -> Option<String> {
    match &n.kind {
        K::Str(_) | K::Int(_) | K::BigInt(_) | K::Bool(_) | K::Timestamp(_) => {
            Some(key_cow(n).into_owned())
        }
        _ => None,
    }
}

/// A document's title when the stream names none: `schema name`.
fn title_of(doc: &Node) -> Option<String> {
    let schema = doc.get("schema")?.as_str()?;
    let name = doc.get("metadata")?.get("name")?.as_str()?;
    Some(format!("{schema} {name}"))
}

impl<'a> Walk<'a> {
    /// The documents of two streams, matched by schema and name (else by position).
    fn stream(&mut self, old: &'a [Node], new: &'a [Node], path: &mut Path) {
        let docs = |side: &'a Side<'a>| -> &'a [StreamDoc] {
            side.rendered.stream.as_ref().map_or(&[], |s| &s.docs[..])
        };
        let titles = |docs: &[StreamDoc], items: &[Node]| -> Vec<Option<String>> {
            items
                .iter()
                .enumerate()
                .map(|(i, n)| docs.get(i).map(|d| d.title.clone()).or_else(|| title_of(n)))
                .collect()
        };
        let (od, nd) = (docs(self.base), docs(self.head));
        let (ot, nt) = (titles(od, old), titles(nd, new));
        let pairs = self.pair(old, new, Some(By::Document));
        self.items(
            old,
            new,
            pairs,
            path,
            Around::Docs(od, &ot),
            Around::Docs(nd, &nt),
        );
    }

    /// The items of two lists, paired: each pair compared, each item without a partner added
    /// or removed.
    fn items(
        &mut self,
        old: &'a [Node],
        new: &'a [Node],
        pairs: Vec<Pair>,
        path: &mut Path,
        o: Around<'_, 'a>,
        n: Around<'_, 'a>,
    ) {
        for p in pairs {
            match p {
                Pair::Both(i, j) => {
                    path.push_index(j);
                    let ((oc, _), (nc, doc)) = (o.at(i), n.at(j));
                    self.node(&old[i], &new[j], path, oc, nc, doc);
                }
                Pair::Added(j) => {
                    path.push_index(j);
                    let (nc, doc) = n.at(j);
                    self.added(&new[j], path, nc, o.container(), doc);
                }
                Pair::Removed(i) => {
                    path.push_index(i);
                    let (oc, doc) = o.at(i);
                    self.removed(&old[i], path, oc, n.container(), doc);
                }
            }
            path.pop();
        }
    }

    /// Matches the items of two lists: by key when every item of both has a distinct one.
    fn pair(&self, old: &[Node], new: &[Node], by: Option<By>) -> Vec<Pair> {
        let all_maps = |l: &[Node]| l.iter().all(|n| matches!(n.kind, K::Map(_)));
        let choices: &[By] = match by {
            Some(b) => &[b][..],
            None if all_maps(old) && all_maps(new) => &[By::Field("name"), By::Field("id")],
            None => &[],
        };
        for &by in choices {
            let (Some(ok), Some(nk)) = (keys(old, by), keys(new, by)) else {
                continue;
            };
            let index: FxHashMap<&str, usize> = ok
                .iter()
                .enumerate()
                .map(|(i, k)| (k.as_str(), i))
                .collect();
            let mut matched = vec![false; old.len()];
            let mut out = Vec::with_capacity(new.len());
            for (j, k) in nk.iter().enumerate() {
                match index.get(k.as_str()) {
                    Some(&i) => {
                        matched[i] = true;
                        out.push(Pair::Both(i, j));
                    }
                    None => out.push(Pair::Added(j)),
                }
            }
            out.extend(
                matched
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| !**m)
                    .map(|(i, _)| Pair::Removed(i)),
            );
            return out;
        }
        if let (Some(ok), Some(nk)) = (scalar_keys(old), scalar_keys(new)) {
            return aligned(&ok, &nk);
        }
        let mut out = Vec::new();
        by_position(0, old.len(), 0, new.len(), &mut out);
        out
    }

    fn node(
        &mut self,
        old: &'a Node,
        new: &'a Node,
        path: &mut Path,
        oc: Cx<'a>,
        nc: Cx<'a>,
        doc: Option<&str>,
    ) {
        let oc = Cx {
            step: step_of(self.base_trace, old.span, oc.scope, None).or(oc.step),
            scope: oc.scope,
        };
        let nc = Cx {
            step: step_of(
                self.head_trace,
                new.span,
                nc.scope,
                self.by_path.then_some(path),
            )
            .or(nc.step),
            scope: nc.scope,
        };
        match (&old.kind, &new.kind) {
            (K::Map(om), K::Map(nm)) if !om.is_empty() || !nm.is_empty() => {
                for (k, v) in nm.iter() {
                    path.push_key(&key_cow(&k.0));
                    match om.get(k) {
                        Some(o) => self.node(o, v, path, oc, nc, doc),
                        None => self.added(v, path, nc, oc, doc),
                    }
                    path.pop();
                }
                for (k, v) in om.iter() {
                    if !nm.contains_key(k) {
                        path.push_key(&key_cow(&k.0));
                        self.removed(v, path, oc, nc, doc);
                        path.pop();
                    }
                }
            }
            (K::List(ol), K::List(nl)) if !ol.is_empty() || !nl.is_empty() => {
                let pairs = self.pair(ol, nl, None);
                let (o, n) = (Around::List(oc, doc), Around::List(nc, doc));
                self.items(ol, nl, pairs, path, o, n);
            }
            _ if old == new => {
                if !self.moved(old.span, new.span) {
                    return;
                }
                let (bp, hp) = (self.base_prov(old, oc), self.head_prov(new, nc));
                let cause = value_cause(&hp);
                self.push(
                    Kind::Moved,
                    path,
                    doc,
                    Some((old, bp)),
                    Some((new, hp)),
                    cause,
                );
            }
            _ => {
                let (bp, hp) = (self.base_prov(old, oc), self.head_prov(new, nc));
                let cause = match &bp.at {
                    // The base's value came from a file the head no longer reads.
                    Some(at) if self.moves && !self.head_files.contains(at.file.as_str()) => {
                        cause_at(Some(at), CauseKind::Gone)
                    }
                    _ => changed_cause(&bp, &hp),
                };
                self.push(
                    Kind::Changed,
                    path,
                    doc,
                    Some((old, bp)),
                    Some((new, hp)),
                    cause,
                );
            }
        }
    }

    /// A value the head has and the base has not; `oc` is the base's container around it.
    fn added(&mut self, new: &'a Node, path: &Path, nc: Cx<'a>, oc: Cx<'a>, doc: Option<&str>) {
        let nc = Cx {
            step: step_of(
                self.head_trace,
                new.span,
                nc.scope,
                self.by_path.then_some(path),
            )
            .or(nc.step),
            scope: nc.scope,
        };
        let hp = self.head_prov(new, nc);
        let around = provenance(self.base.sources, None, oc.step);
        let cause = rule_cause(&around, &hp).unwrap_or_else(|| value_cause(&hp));
        self.push(Kind::Added, path, doc, None, Some((new, hp)), cause);
    }

    /// A value the base has and the head has not; `nc` is the head's container around it.
    fn removed(&mut self, old: &'a Node, path: &Path, oc: Cx<'a>, nc: Cx<'a>, doc: Option<&str>) {
        let oc = Cx {
            step: step_of(self.base_trace, old.span, oc.scope, None).or(oc.step),
            scope: oc.scope,
        };
        let bp = self.base_prov(old, oc);
        let deleted = self.deletions.get(&path.to_string()).copied();
        let around = provenance(self.head.sources, None, nc.step);
        let cause = match deleted {
            Some(step) => {
                let hp = provenance(self.head.sources, None, Some(step));
                let at = hp.rule_at.or_else(|| at_of(self.head.sources, step.value));
                cause_at(at.as_ref(), CauseKind::Rule)
            }
            None => rule_cause(&bp, &around)
                .unwrap_or_else(|| cause_at(bp.at.as_ref(), CauseKind::Gone)),
        };
        self.push(Kind::Removed, path, doc, Some((old, bp)), None, cause);
    }

    /// Whether the same value now comes from another file.
    fn moved(&self, old: Span, new: Span) -> bool {
        if !self.moves {
            return false;
        }
        let (Some(o), Some(n)) = (self.base.sources.id_of(old), self.head.sources.id_of(new))
        else {
            return false;
        };
        self.base.sources.name(o) != self.head.sources.name(n)
    }

    fn base_prov(&self, node: &Node, cx: Cx<'_>) -> Provenance {
        provenance(self.base.sources, Some(node), cx.step)
    }

    fn head_prov(&self, node: &Node, cx: Cx<'_>) -> Provenance {
        provenance(self.head.sources, Some(node), cx.step)
    }

    /// A change at `path`: each side's value with where it came from (`None`: the side has
    /// no value there).
    fn push(
        &mut self,
        kind: Kind,
        path: &Path,
        doc: Option<&str>,
        base: Option<(&Node, Provenance)>,
        head: Option<(&Node, Provenance)>,
        cause: Cause,
    ) {
        let (old, base) = base.map_or((None, None), |(n, p)| (Some(n.clone()), Some(p)));
        let (new, head) = head.map_or((None, None), |(n, p)| (Some(n.clone()), Some(p)));
        self.out.push(Change {
            kind,
            path: path.clone(),
            document: doc.map(str::to_string),
            old,
            new,
            base,
            head,
            cause,
        });
    }
}

enum Pair {
    Both(usize, usize),
    Added(usize),
    Removed(usize),
}

/// What the items of a list inherit on one side.
#[derive(Clone, Copy)]
enum Around<'x, 'a> {
    /// Items of a list: the list's context, and the document it is in.
    List(Cx<'a>, Option<&'x str>),
    /// A stream's documents: each its own scope and title.
    Docs(&'a [StreamDoc], &'x [Option<String>]),
}

impl<'x, 'a> Around<'x, 'a> {
    /// Item `i`'s context and document.
    fn at(self, i: usize) -> (Cx<'a>, Option<&'x str>) {
        match self {
            Around::List(cx, doc) => (cx, doc),
            Around::Docs(docs, titles) => (
                Cx {
                    step: None,
                    scope: docs.get(i),
                },
                titles.get(i).and_then(Option::as_deref),
            ),
        }
    }

    /// The context of the list itself (a stream's root has none).
    fn container(self) -> Cx<'a> {
        match self {
            Around::List(cx, _) => cx,
            Around::Docs(..) => Cx::default(),
        }
    }
}

/// Items `old_at..+old_len` and `new_at..+new_len` paired by position, the rest added or
/// removed.
fn by_position(old_at: usize, old_len: usize, new_at: usize, new_len: usize, out: &mut Vec<Pair>) {
    let both = old_len.min(new_len);
    out.extend((0..both).map(|i| Pair::Both(old_at + i, new_at + i)));
    out.extend((new_at + both..new_at + new_len).map(Pair::Added));
    out.extend((old_at + both..old_at + old_len).map(Pair::Removed));
}

/// The longest list of scalars aligned item by item (an inserted item is one addition, not a
/// change at every later index).
const ALIGN_MAX: usize = 50_000;

/// Each item's type and text, when every item is a scalar (and the list is not huge).
fn scalar_keys(items: &[Node]) -> Option<Vec<String>> {
    if items.len() > ALIGN_MAX {
        return None;
    }
    items
        .iter()
        .map(|n| {
            n.is_scalar()
                .then(|| format!("{}:{}", n.type_name(), key_cow(n)))
        })
        .collect()
}

/// Two lists of scalars matched as a sequence diff does (patience: linear-logarithmic on
/// distinct items), replaced runs paired by position.
fn aligned(old: &[String], new: &[String]) -> Vec<Pair> {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let mut out = Vec::with_capacity(new.len());
    for op in capture_diff_slices(Algorithm::Patience, old, new) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => out.extend((0..len).map(|i| Pair::Both(old_index + i, new_index + i))),
            DiffOp::Delete {
                old_index, old_len, ..
            } => out.extend((old_index..old_index + old_len).map(Pair::Removed)),
            DiffOp::Insert {
                new_index, new_len, ..
            } => out.extend((new_index..new_index + new_len).map(Pair::Added)),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => by_position(old_index, old_len, new_index, new_len, &mut out),
        }
    }
    out
}

fn at_of(sources: &SourceMap, span: Span) -> Option<At> {
    let l = sources.locate(span)?;
    Some(At {
        file: l.file.to_string(),
        line: l.line,
        column: l.column,
    })
}

/// One side's value as `--explain` describes it.
fn provenance(sources: &SourceMap, node: Option<&Node>, step: Option<&Step>) -> Provenance {
    let mut p = Provenance {
        at: node.and_then(|n| at_of(sources, n.span)),
        ..Provenance::default()
    };
    let Some(step) = step else { return p };
    p.outcome = Some(match node {
        Some(n) => shown_outcome(step, n).as_str(),
        None => step.outcome.as_str(),
    });
    if let Some(r) = &step.rule {
        p.rule = Some(r.text.to_string());
        if let Origin::At(span) = r.origin {
            p.rule_at = at_of(sources, span);
        }
    }
    if node.is_some_and(|n| n.span == step.value) {
        let list = |priors: &[crate::merge::Prior]| {
            priors
                .iter()
                .map(|prior| (short_value(&prior.value), at_of(sources, prior.span)))
                .collect()
        };
        p.overrode = list(&step.overrode);
        p.parts = list(&step.others);
    }
    p
}

/// The cause of a changed value: the rule that decides it, when that changed; else the
/// head line it is written at; else (the same place on both sides: a value the merge made)
/// the first part joined into it that the base did not have.
fn changed_cause(bp: &Provenance, hp: &Provenance) -> Cause {
    if let Some(c) = rule_cause(bp, hp) {
        return c;
    }
    let line = |p: &Provenance| p.at.as_ref().map(|a| (a.file.clone(), a.line));
    if line(bp) == line(hp) {
        if let Some((_, at)) = hp.parts.iter().find(|part| !bp.parts.contains(part)) {
            return cause_at(at.as_ref(), CauseKind::Value);
        }
    }
    value_cause(hp)
}

/// When the rule deciding a value differs between the sides: its line (the head's, or where
/// the base's was when the head decides by a built-in one).
fn rule_cause(bp: &Provenance, hp: &Provenance) -> Option<Cause> {
    let at = hp.rule_at.as_ref().or(bp.rule_at.as_ref())?;
    (hp.rule != bp.rule).then(|| cause_at(Some(at), CauseKind::Rule))
}

fn cause_at(at: Option<&At>, by: CauseKind) -> Cause {
    match at {
        Some(a) => Cause {
            file: a.file.clone(),
            line: a.line,
            by,
        },
        None => Cause {
            file: String::new(),
            line: 0,
            by: CauseKind::Unknown,
        },
    }
}

fn value_cause(head: &Provenance) -> Cause {
    cause_at(head.at.as_ref(), CauseKind::Value)
}
