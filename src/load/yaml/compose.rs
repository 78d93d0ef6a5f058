//! Events → `Node` trees, as PyYAML's composer and `SafeConstructor` build them: anchors
//! (a duplicate in one document is an error) and aliases (copied, within an expansion
//! budget and the depth limit), `<<` merge keys applied as `flatten_mapping` does, `=` keys
//! read as strings, duplicate keys (the last value wins, at the first key's place, with a
//! warning), unhashable keys refused, and the collection tags `!!set`, `!!omap`, `!!pairs`.
//! Scalars are typed by `construct.rs`; closed mappings and `!!omap` / `!!pairs` items are
//! built in `compose/collections.rs`. With `LoadOptions::psych`, nodes are built as Ruby's
//! Psych builds them instead (`psych.rs`: tags, collection tags, merge keys where they stand).
//!
//! PyYAML composes a whole document before it constructs any value, so a constructor error
//! (`!!int abc`) is kept until the document ends: a syntax error later in the same document
//! is reported first, as PyYAML reports it.

use super::construct::{self, Special};
use super::parser::{Event, Props, Spanned};
use super::psych::{self, Mapping, Seq};
use super::record::Recorder;
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::load::LoadOptions;
use crate::value::{Kind, Node, SourceId, Span};
use std::collections::HashMap;

mod collections;

pub(super) use collections::describe_key;

/// What a sequence becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SeqKind {
    List,
    /// `!!omap` / `!!pairs`: single-pair mappings become `(key, value)` tuples; PyYAML's
    /// context for its errors (`an ordered map`, `pairs`).
    Pairs(&'static str),
    /// The value of a `<<` key, written in place (no anchor): a list whose items are taken
    /// as nodes, their tags ignored, as `flatten_mapping` takes them.
    Merge,
    /// Psych's `!!omap`: a mapping of each item's first child to its last.
    Omap,
}

/// What a mapping becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MapKind {
    Map,
    /// `!!set`: the keys.
    Set,
    /// An item of `!!omap` / `!!pairs`: its pairs taken as they are (no merge keys, any key).
    PairsItem,
    /// Psych's `!ruby/hash-with-ivars`: the mapping under its `elements` key.
    WithIvars,
    /// Psych's `!!str` on a mapping: the value of its `str` key.
    StrObject,
}

/// An open collection. Members wait in the composer's shared `items` / `pairs` stacks from
/// `from` on and move into one exactly sized block when it closes.
enum Frame<'a> {
    Seq {
        from: usize,
        start: u32,
        anchor: Option<&'a str>,
        kind: SeqKind,
    },
    Map {
        from: usize,
        merges: Vec<Node>,
        /// Psych: the `<<` pairs among the pairs (their index from `from`), and whether
        /// each value was an alias.
        merge_at: Vec<(usize, bool)>,
        key: Option<Node>,
        key_special: Special,
        start: u32,
        anchor: Option<&'a str>,
        kind: MapKind,
    },
}

/// An anchored node: `None` while it is still being built (an alias to it is recursive).
struct Anchored {
    node: Option<(Node, usize, Special)>,
}

/// One document's root and the first constructor error in it.
pub(super) struct Composed {
    pub root: Node,
    pub error: Option<Error>,
}

pub(super) struct Composer<'a, 'o> {
    source: SourceId,
    opts: &'o LoadOptions,
    pub warnings: &'o mut Vec<Warning>,
    stack: Vec<Frame<'a>>,
    items: Vec<Node>,
    pub(super) pairs: Vec<(Node, Node)>,
    anchors: HashMap<&'a str, Anchored>,
    expanded: usize,
    root: Option<Node>,
    pub(super) deferred: Option<Error>,
    documents: usize,
    /// Notes spellings and layout, when the run keeps what people wrote.
    pub record: Option<Recorder<'a>>,
    /// The node being added is an alias's copy (Psych merges differ).
    aliasing: bool,
}

impl<'a, 'o> Composer<'a, 'o> {
    pub(super) fn opts(&self) -> &'o LoadOptions {
        self.opts
    }

    /// Nodes that aliases have added so far in this stream (the alias budget's count).
    pub(super) fn expanded(&self) -> usize {
        self.expanded
    }

    pub(super) fn new(
        source: SourceId,
        opts: &'o LoadOptions,
        warnings: &'o mut Vec<Warning>,
    ) -> Self {
        Composer {
            source,
            opts,
            warnings,
            stack: Vec::new(),
            items: Vec::new(),
            pairs: Vec::new(),
            anchors: HashMap::new(),
            expanded: 0,
            root: None,
            deferred: None,
            documents: 0,
            record: None,
            aliasing: false,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.source, start, end.max(start))
    }

    /// Takes one event; returns the document it completes, if any.
    pub(super) fn event(&mut self, ev: Spanned<'a>) -> Result<Option<Composed>> {
        let span = self.span(ev.start, ev.end);
        match ev.event {
            Event::StreamStart | Event::StreamEnd => {}
            Event::DocumentStart => {
                self.anchors.clear();
                self.root = None;
                self.deferred = None;
            }
            Event::DocumentEnd => {
                self.documents += 1;
                if self.documents > self.opts.limits.max_documents {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!(
                            "more than {} YAML documents in one stream",
                            self.opts.limits.max_documents
                        ),
                    )
                    .at(span)
                    .hint("split the stream into several files"));
                }
                let root = self.root.take().unwrap_or_else(|| Node::null(span));
                return Ok(Some(Composed {
                    root,
                    error: self.deferred.take(),
                }));
            }
            Event::Alias(name) => self.alias(name, span)?,
            Event::Scalar {
                props,
                plain,
                value,
            } => {
                self.check_anchor(&props, span)?;
                let in_key = self.in_key_position();
                let tag = props.tag.as_deref();
                let (kind, special) = if self.merge_source(&props) {
                    // Never constructed: `flatten_mapping` refuses a scalar by its node kind.
                    (Kind::Null, Special::None)
                } else if self.opts.dialect.psych.is_some() {
                    self.psych_scalar(&value, plain, tag, in_key, span)
                } else {
                    match construct::scalar(&value, plain, tag, self.opts) {
                        Ok(k) => k,
                        Err(problem) => {
                            self.defer(problem, span);
                            (Kind::Null, Special::None)
                        }
                    }
                };
                if special != Special::None && !in_key {
                    self.defer(construct::no_constructor(special.tag()), span);
                }
                let node = Node::new(kind, span);
                if let Some(r) = self.record.as_mut() {
                    r.scalar(ev.start, ev.end, plain, props.tag.is_some(), &node);
                }
                if let Some(name) = props.anchor {
                    self.anchors.insert(
                        name,
                        Anchored {
                            node: Some((node.clone(), 1, special)),
                        },
                    );
                }
                self.add(node, span, special)?;
            }
            Event::SequenceStart(props) => {
                self.check_depth(span)?;
                self.check_anchor(&props, span)?;
                let merge_value = matches!(
                    self.stack.last(),
                    Some(Frame::Map {
                        key: Some(_),
                        key_special: Special::Merge,
                        ..
                    })
                );
                let kind = match props.tag.as_deref() {
                    tag if self.opts.dialect.psych.is_some() => match psych::sequence(tag) {
                        Ok(Seq::List) => SeqKind::List,
                        Ok(Seq::Omap) => SeqKind::Omap,
                        Err(fault) => {
                            self.defer_psych(&fault, span);
                            SeqKind::List
                        }
                    },
                    _ if self.merge_source(&props) && merge_value => SeqKind::Merge,
                    _ if self.merge_source(&props) => SeqKind::List,
                    None | Some("!" | construct::SEQ) => SeqKind::List,
                    Some(construct::OMAP) => SeqKind::Pairs("an ordered map"),
                    Some(construct::PAIRS) => SeqKind::Pairs("pairs"),
                    Some(tag) => {
                        self.defer(construct::wrong_node(tag, "sequence"), span);
                        SeqKind::List
                    }
                };
                self.open_anchor(props.anchor);
                self.record_open(ev.start, true, props.tag.is_some());
                self.stack.push(Frame::Seq {
                    from: self.items.len(),
                    start: span.start,
                    anchor: props.anchor,
                    kind,
                });
            }
            Event::MappingStart(props) => {
                self.check_depth(span)?;
                self.check_anchor(&props, span)?;
                let pairs_item = matches!(
                    self.stack.last(),
                    Some(Frame::Seq {
                        kind: SeqKind::Pairs(_),
                        ..
                    })
                );
                let kind = match props.tag.as_deref() {
                    tag if self.opts.dialect.psych.is_some() => match psych::mapping(tag) {
                        Ok(Mapping::Map) => MapKind::Map,
                        Ok(Mapping::WithIvars) => MapKind::WithIvars,
                        Ok(Mapping::StrObject) => MapKind::StrObject,
                        Err(fault) => {
                            self.defer_psych(&fault, span);
                            MapKind::Map
                        }
                    },
                    _ if pairs_item => MapKind::PairsItem,
                    _ if self.merge_source(&props) => MapKind::Map,
                    None | Some("!" | construct::MAP) => MapKind::Map,
                    Some(construct::SET) => MapKind::Set,
                    Some(tag) => {
                        self.defer(construct::wrong_node(tag, "mapping"), span);
                        MapKind::Map
                    }
                };
                self.open_anchor(props.anchor);
                self.record_open(ev.start, false, props.tag.is_some());
                self.stack.push(Frame::Map {
                    from: self.pairs.len(),
                    merges: Vec::new(),
                    merge_at: Vec::new(),
                    key: None,
                    key_special: Special::None,
                    start: span.start,
                    anchor: props.anchor,
                    kind,
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq {
                    from,
                    start,
                    anchor,
                    kind,
                }) = self.stack.pop()
                {
                    let span = Span {
                        start,
                        end: span.end.max(start),
                    };
                    let items: Vec<Node> = self.items.drain(from..).collect();
                    let node = match kind {
                        SeqKind::List | SeqKind::Merge => Node::list(items, span),
                        SeqKind::Pairs(what) => Node::list(self.pairs_items(items, what), span),
                        SeqKind::Omap => match psych::omap(items) {
                            Ok(map) => Node::map(map, span),
                            Err(fault) => {
                                self.defer_psych(&fault, span);
                                Node::empty_map(span)
                            }
                        },
                    };
                    if let Some(r) = self.record.as_mut() {
                        r.close(ev.end, &node);
                    }
                    self.finish(node, anchor, span)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map {
                    from,
                    merges,
                    merge_at,
                    start,
                    anchor,
                    kind,
                    ..
                }) = self.stack.pop()
                {
                    let span = Span {
                        start,
                        end: span.end.max(start),
                    };
                    let node = match kind {
                        _ if self.opts.dialect.psych.is_some() => {
                            self.psych_map(from, merge_at, kind, span)
                        }
                        MapKind::PairsItem => self.pairs_item(from, span),
                        MapKind::Map => Node::map(self.build_map(from, merges, span)?, span),
                        MapKind::Set => {
                            let mut map = self.build_map(from, merges, span)?;
                            for v in map.values_mut() {
                                *v = Node::null(v.span);
                            }
                            Node::new(Kind::Set(Box::new(map)), span)
                        }
                        MapKind::WithIvars | MapKind::StrObject => Node::null(span),
                    };
                    if let Some(r) = self.record.as_mut() {
                        r.close(ev.end, &node);
                    }
                    self.finish(node, anchor, span)?;
                }
            }
        }
        Ok(None)
    }

    /// Tells the recorder a collection opens at `start` (and its key, for a mapping value).
    fn record_open(&mut self, start: usize, seq: bool, tagged: bool) {
        if let Some(r) = self.record.as_mut() {
            let key = match self.stack.last() {
                Some(Frame::Map { key: Some(k), .. }) if !k.span.is_none() => {
                    Some(k.span.start.saturating_sub(self.source) as usize)
                }
                _ => None,
            };
            r.open(start, seq, key, tagged);
        }
    }

    /// Keeps the first constructor error of the document.
    fn defer(&mut self, problem: String, span: Span) {
        let hint = if problem.contains("for merging") {
            "'<<' takes an alias of a mapping (<<: *base) or a list of them"
        } else if problem.contains("unhashable key") {
            "a list or mapping cannot be a mapping key: use a string key"
        } else if problem.contains("could not determine a constructor") {
            "PyYAML's safe_load knows only the standard tags (!!str, !!int, !!binary, !!set, ...): remove the tag"
        } else {
            "PyYAML's safe_load cannot construct this value: fix or remove the tag or the value"
        };
        if self.deferred.is_none() {
            self.deferred = Some(
                Error::new(ErrorKind::Parse, format!("invalid YAML: {problem}"))
                    .at(span)
                    .hint(hint),
            );
        }
    }

    /// Whether the next node is a mapping key (where `<<` and `=` mean something).
    pub(super) fn in_key_position(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Map {
                key: None,
                kind: MapKind::Map | MapKind::Set,
                ..
            })
        )
    }

    fn check_anchor(&self, props: &Props<'a>, span: Span) -> Result<()> {
        if self.opts.dialect.psych.is_some() {
            // libyaml and Psych take a repeated anchor: the later one counts.
            return Ok(());
        }
        if let Some(name) = props.anchor {
            if self.anchors.contains_key(name) {
                // PyYAML points at the second `&name`.
                let at = match props.anchor_at {
                    Some((from, to)) => self.span(from, to),
                    None => span,
                };
                return Err(Error::new(
                    ErrorKind::Parse,
                    format!("invalid YAML: found duplicate anchor '{name}'; first occurrence earlier in this document, second occurrence here"),
                )
                .at(at)
                .hint("PyYAML refuses an anchor defined twice in one document: rename one of them"));
            }
        }
        Ok(())
    }

    /// Marks an anchor as being built, so an alias inside it is reported as recursive.
    fn open_anchor(&mut self, anchor: Option<&'a str>) {
        if let Some(name) = anchor {
            self.anchors.insert(name, Anchored { node: None });
        }
    }

    fn alias(&mut self, name: &'a str, span: Span) -> Result<()> {
        let (node, count, special) = match self.anchors.get(name) {
            Some(Anchored {
                node: Some((node, count, special)),
                ..
            }) => (node, *count, *special),
            Some(Anchored { node: None, .. }) => {
                return Err(Error::new(
                    ErrorKind::Parse,
                    format!("alias *{name} refers to the node that contains it"),
                )
                .at(span)
                .hint("recursive structures cannot be rendered: copy the values instead"))
            }
            None => {
                return Err(Error::new(
                    ErrorKind::Parse,
                    format!("invalid YAML: found undefined alias '{name}'"),
                )
                .at(span)
                .hint("define the anchor (&name) before the alias (*name), in the same document"))
            }
        };
        self.expanded = self.expanded.saturating_add(count);
        if self.expanded > self.opts.limits.alias_budget {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "alias expansion exceeds {} nodes (a \"billion laughs\" document?)",
                    self.opts.limits.alias_budget
                ),
            )
            .at(span)
            .hint("aliases here expand to more nodes than any real configuration needs"));
        }
        // The copy nests as deep as its anchor did, below wherever the alias stands.
        if self.stack.len() + super::tree_depth(node) > self.opts.limits.max_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "nesting deeper than {} levels (through aliases)",
                    self.opts.limits.max_depth
                ),
            )
            .at(span)
            .hint("flatten the structure; no real configuration nests this deep"));
        }
        let mut node = node.clone();
        // A copied container is shown where the alias was written; its members (and copied
        // scalars) keep the anchor's positions, the text that holds them.
        if !node.is_scalar() {
            node.span = span;
        }
        if special != Special::None && !self.in_key_position() {
            self.defer(construct::no_constructor(special.tag()), span);
        }
        self.aliasing = true;
        let added = self.add(node, span, special);
        self.aliasing = false;
        added
    }

    fn check_depth(&self, span: Span) -> Result<()> {
        if self.stack.len() >= self.opts.limits.max_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("nesting deeper than {} levels", self.opts.limits.max_depth),
            )
            .at(span)
            .hint("flatten the structure; no real configuration nests this deep"));
        }
        Ok(())
    }

    fn finish(&mut self, node: Node, anchor: Option<&'a str>, span: Span) -> Result<()> {
        if let Some(name) = anchor {
            let count = super::count_nodes(&node);
            if let Some(a) = self.anchors.get_mut(name) {
                a.node = Some((node.clone(), count, Special::None));
            }
        }
        self.add(node, span, Special::None)
    }

    fn add(&mut self, node: Node, span: Span, special: Special) -> Result<()> {
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { .. }) => self.items.push(node),
            Some(Frame::Map {
                from,
                merges,
                merge_at,
                key,
                key_special,
                kind,
                ..
            }) => match key.take() {
                None => {
                    if *kind != MapKind::PairsItem
                        && self.opts.dialect.psych.is_none()
                        && !is_hashable(&node)
                        && self.deferred.is_none()
                    {
                        self.deferred = Some(
                            Error::new(
                                ErrorKind::Parse,
                                "invalid YAML: while constructing a mapping: found unhashable key",
                            )
                            .at(span)
                            .hint("a list or mapping cannot be a mapping key: use a string key"),
                        );
                    }
                    let mut node = node;
                    if special == Special::Value {
                        // PyYAML reads a `=` key as the string "=".
                        node.kind = Kind::Str("=".into());
                    }
                    *key = Some(node);
                    *key_special = special;
                }
                Some(k) => {
                    if *key_special == Special::Merge && self.opts.dialect.psych.is_some() {
                        // Merged where it stands, when the pairs are built.
                        *key_special = Special::None;
                        merge_at.push((self.pairs.len() - *from, self.aliasing));
                        self.pairs.push((k, node));
                    } else if *key_special == Special::Merge {
                        *key_special = Special::None;
                        merges.push(node);
                    } else {
                        self.pairs.push((k, node));
                    }
                }
            },
        }
        Ok(())
    }
}

/// Whether Python could use the value as a dict key.
fn is_hashable(n: &Node) -> bool {
    match &n.kind {
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) => false,
        Kind::Tuple(items) => items.iter().all(is_hashable),
        _ => true,
    }
}
