//! YAML → `Node` with a span on every node: granit-parser events, our own scalar resolver
//! (`resolve.rs`), anchors and aliases (with an expansion budget), `<<` merge keys applied as
//! PyYAML's `flatten_mapping` does, duplicate keys (last wins, with a warning), multi-document
//! streams and a nesting-depth limit. No recursion on input depth.

use super::resolve::{self, resolve_plain};
use super::{check_text, LoadOptions};
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::value::{Key, KeyRef, Kind, Map, Node, SourceId, Span};
use granit_parser::{Event, Parser, ScalarStyle, Tag};
use std::collections::HashMap;

/// Loads every document of a YAML stream. An empty stream gives no documents.
pub fn load_stream(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Node>> {
    check_text(text, source)?;
    let mut b = Builder {
        opts,
        warnings,
        stack: Vec::new(),
        items: Vec::new(),
        pairs: Vec::new(),
        anchors: HashMap::new(),
        expanded: 0,
        docs: Vec::new(),
        root: None,
    };
    let mut popts = granit_parser::Options::default();
    popts.block_nesting_limit = opts.max_depth + 16;
    popts.flow_nesting_limit = opts.max_depth + 16;
    for item in Parser::new_from_str_with_options(text, popts) {
        let (event, span) = item.map_err(|e| scan_error(&e, source, text))?;
        let range = span
            .byte_range()
            .unwrap_or(span.start.index()..span.end.index());
        b.event(event, Span::new(source, range.start, range.end))?;
    }
    Ok(b.docs)
}

/// Loads a stream that must hold at most one document, as PyYAML's `safe_load` does.
/// `Ok(None)` for an empty stream.
pub fn load_single(
    text: &str,
    source: SourceId,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Node>> {
    let mut docs = load_stream(text, source, opts, warnings)?;
    if docs.len() > 1 {
        let second = docs[1].span;
        return Err(Error::new(
            ErrorKind::Parse,
            "expected a single document in the stream, but found another document",
        )
        .at(Span {
            end: second.start,
            ..second
        })
        .hint("remove the '---' separator, or split the documents into separate files"));
    }
    Ok(docs.pop())
}

fn scan_error(e: &granit_parser::ScanError, source: SourceId, text: &str) -> Error {
    let m = e.marker();
    let offset = m.byte_offset().unwrap_or(m.index()).min(text.len());
    let info = e.info();
    let mut message = info.lines().next().unwrap_or("invalid YAML").to_string();
    if message.contains("recursion limit") || message.contains("nesting limit") {
        return Error::new(ErrorKind::Limit, "nesting deeper than the limit (YAML)")
            .at(Span::new(source, offset, offset + 1))
            .hint("flatten the structure; no real configuration nests this deep");
    }
    let mut offset = offset;
    let hint = if message.contains("unknown anchor") {
        "define the anchor (&name) before the alias (*name) in the same document"
    } else if message.contains("tab") {
        if let Some(at) = tab_near(text, offset) {
            if at != offset && message.contains("scanning a plain scalar") {
                // The scalar before the tab is fine; the tab is the problem (PyYAML's words).
                message = "found a tab character that cannot start any token".into();
            }
            offset = at;
        }
        "YAML does not allow tabs for indentation: indent with spaces"
    } else if offset >= text.len() {
        "the document ends early: is the file truncated, or a quote or bracket left open?"
    } else {
        "check the indentation and quoting around this position"
    };
    Error::new(ErrorKind::Parse, format!("invalid YAML: {message}"))
        .at(Span::new(source, offset, offset + 1))
        .hint(hint)
}

/// The tab a tab error is about: one in the indentation of the line the parser stopped on,
/// else the next one (the parser may stop at the scalar before a tab-indented line).
fn tab_near(text: &str, offset: usize) -> Option<usize> {
    let before = text.get(..offset)?;
    let line = before.rfind('\n').map_or(0, |i| i + 1);
    let rest = text.get(line..)?;
    let indent = rest.find(|c| c != ' ' && c != '\t').unwrap_or(rest.len());
    if let Some(i) = rest.get(..indent).and_then(|r| r.find('\t')) {
        return Some(line + i);
    }
    text.get(offset..)?.find('\t').map(|i| offset + i)
}

/// An open collection. Its members wait in the builder's shared `items` / `pairs` stacks from
/// `from` on, and move into one exactly sized block when it closes: no per-collection growth.
enum Frame {
    Seq {
        from: usize,
        start: u32,
        anchor: usize,
        set_like: bool,
    },
    Map {
        from: usize,
        merges: Vec<Node>,
        key: Option<Node>,
        key_is_merge: bool,
        start: u32,
        anchor: usize,
        tag: MapTag,
    },
}

#[derive(Clone, Copy, PartialEq)]
enum MapTag {
    Map,
    Set,
}

struct Builder<'a> {
    opts: &'a LoadOptions,
    warnings: &'a mut Vec<Warning>,
    stack: Vec<Frame>,
    items: Vec<Node>,
    pairs: Vec<(Node, Node)>,
    anchors: HashMap<usize, (Node, usize)>,
    expanded: usize,
    docs: Vec<Node>,
    root: Option<Node>,
}

impl Builder<'_> {
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<()> {
        match event {
            Event::StreamStart
            | Event::StreamEnd
            | Event::Anchor(..)
            | Event::UnresolvedAlias(_) => {}
            Event::DocumentStart(..) => {
                self.anchors.clear();
                self.root = None;
            }
            Event::DocumentEnd => {
                let doc = self.root.take().unwrap_or_else(|| {
                    Node::null(Span {
                        end: span.start,
                        ..span
                    })
                });
                if self.docs.len() >= self.opts.max_documents {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!(
                            "more than {} YAML documents in one stream",
                            self.opts.max_documents
                        ),
                    )
                    .at(span)
                    .hint("split the stream into several files"));
                }
                self.docs.push(doc);
            }
            Event::Alias(id) => {
                let Some((node, count)) = self.anchors.get(&id) else {
                    return Err(Error::new(ErrorKind::Parse, "alias refers to an anchor that is not defined yet (or to its own enclosing node)")
                        .at(span)
                        .hint("define the anchor (&name) before using the alias (*name); recursive aliases are not supported"));
                };
                self.expanded = self.expanded.saturating_add(*count);
                if self.expanded > self.opts.alias_budget {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!(
                            "alias expansion exceeds {} nodes (a \"billion laughs\" document?)",
                            self.opts.alias_budget
                        ),
                    )
                    .at(span)
                    .hint("aliases here expand to more nodes than any real configuration needs"));
                }
                // The copy nests as deep as its anchor did, below wherever the alias stands
                // (fuzz finding: anchors aliased inside anchors nested past the limit and
                // overflowed the stack of every recursive pass).
                if self.stack.len() + tree_depth(node) > self.opts.max_depth {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!(
                            "nesting deeper than {} levels (through aliases)",
                            self.opts.max_depth
                        ),
                    )
                    .at(span)
                    .hint("flatten the structure; no real configuration nests this deep"));
                }
                let mut node = node.clone();
                // A copied container is shown where the alias was written; its members (and
                // copied scalars) keep the anchor's positions, the text that holds them.
                if !node.is_scalar() {
                    node.span = span;
                }
                self.add(node, span)?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                let kind = self.scalar_kind(&text, style, tag.as_deref(), span)?;
                let node = Node::new(kind, span);
                let is_merge = style == ScalarStyle::Plain && tag.is_none() && &*text == "<<";
                if anchor != 0 {
                    self.anchors.insert(anchor, (node.clone(), 1));
                }
                self.add_with_merge_flag(node, span, is_merge)?;
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.check_depth(span)?;
                let set_like = match tag.as_deref() {
                    None => false,
                    Some(t) if t.is_yaml_core_schema_tag("seq") => false,
                    Some(t) if matches!(t.core_suffix(), Some("omap" | "pairs")) => true,
                    Some(t) if is_non_specific(t) => false,
                    Some(t) => return Err(unknown_tag(t, span)),
                };
                self.stack.push(Frame::Seq {
                    from: self.items.len(),
                    start: span.start,
                    anchor,
                    set_like,
                });
            }
            Event::MappingStart(_, anchor, tag) => {
                self.check_depth(span)?;
                let tag = match tag.as_deref() {
                    None => MapTag::Map,
                    Some(t) if t.is_yaml_core_schema_tag("map") || is_non_specific(t) => {
                        MapTag::Map
                    }
                    Some(t) if t.core_suffix() == Some("set") => MapTag::Set,
                    Some(t) => return Err(unknown_tag(t, span)),
                };
                self.stack.push(Frame::Map {
                    from: self.pairs.len(),
                    merges: Vec::new(),
                    key: None,
                    key_is_merge: false,
                    start: span.start,
                    anchor,
                    tag,
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq {
                    from,
                    start,
                    anchor,
                    set_like,
                }) = self.stack.pop()
                {
                    let span = Span {
                        start,
                        end: span.end.max(start),
                    };
                    let items: Vec<Node> = self.items.drain(from..).collect();
                    let items = if set_like {
                        pairs_from_omap(items, span)?
                    } else {
                        items
                    };
                    let node = Node::list(items, span);
                    self.finish(node, anchor, span)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map {
                    from,
                    merges,
                    start,
                    anchor,
                    tag,
                    ..
                }) = self.stack.pop()
                {
                    let span = Span {
                        start,
                        end: span.end.max(start),
                    };
                    let map = self.build_map(from, merges, tag)?;
                    self.finish(Node::map(map, span), anchor, span)?;
                }
            }
            // Comment events (a disabled feature) and any later additions carry no data.
            #[allow(unreachable_patterns)]
            _ => {}
        }
        Ok(())
    }

    fn check_depth(&self, span: Span) -> Result<()> {
        if self.stack.len() >= self.opts.max_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("nesting deeper than {} levels", self.opts.max_depth),
            )
            .at(span)
            .hint("flatten the structure; no real configuration nests this deep"));
        }
        Ok(())
    }

    fn finish(&mut self, node: Node, anchor: usize, span: Span) -> Result<()> {
        if anchor != 0 {
            let count = count_nodes(&node);
            self.anchors.insert(anchor, (node.clone(), count));
        }
        self.add(node, span)
    }

    fn add(&mut self, node: Node, span: Span) -> Result<()> {
        self.add_with_merge_flag(node, span, false)
    }

    fn add_with_merge_flag(&mut self, node: Node, span: Span, is_merge: bool) -> Result<()> {
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { .. }) => self.items.push(node),
            Some(Frame::Map {
                merges,
                key,
                key_is_merge,
                ..
            }) => match key.take() {
                None => {
                    if !node.is_scalar() {
                        return Err(Error::new(
                            ErrorKind::Parse,
                            "found unhashable key: a list or mapping cannot be a mapping key",
                        )
                        .at(span)
                        .hint("use a string key"));
                    }
                    *key = Some(node);
                    *key_is_merge = is_merge;
                }
                Some(k) => {
                    if std::mem::take(key_is_merge) {
                        merges.push(node);
                    } else {
                        self.pairs.push((k, node));
                    }
                }
            },
        }
        Ok(())
    }

    /// PyYAML: merged pairs first (later merge sources before earlier ones, so earlier win),
    /// then the mapping's own pairs; a repeated key keeps its first position and takes the
    /// later value.
    fn build_map(&mut self, from: usize, merges: Vec<Node>, _tag: MapTag) -> Result<Map> {
        let count = self.pairs.len().saturating_sub(from);
        let mut map = if merges.is_empty() {
            Map::default()
        } else {
            Map::with_capacity(count)
        };
        for merge in merges {
            let sources: Vec<Node> = match merge.kind {
                Kind::Map(_) => vec![merge],
                Kind::List(items) => {
                    let mut items = Vec::from(items);
                    if let Some(bad) = items.iter().find(|n| n.as_map().is_none()) {
                        return Err(merge_error(bad.span));
                    }
                    items.reverse();
                    items
                }
                _ => return Err(merge_error(merge.span)),
            };
            for src in sources {
                if let Kind::Map(m) = src.kind {
                    for (k, v) in *m {
                        map.insert(k, v);
                    }
                }
            }
        }
        let mut own = Map::with_capacity(count);
        for (k, v) in self.pairs.drain(from..) {
            let key_span = k.span;
            if let Some(old) = own.get_mut(&KeyRef(&k)) {
                let name = describe_key(&k);
                self.warnings.push(Warning::new(
                    format!(
                        "duplicate key {name}: the later value wins (PyYAML keeps the last one)"
                    ),
                    key_span,
                ));
                *old = v;
            } else {
                own.insert(Key(k), v);
            }
        }
        if map.is_empty() {
            return Ok(own);
        }
        for (k, v) in own {
            map.insert(k, v);
        }
        Ok(map)
    }

    fn scalar_kind(
        &self,
        text: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        span: Span,
    ) -> Result<Kind> {
        let Some(tag) = tag else {
            return Ok(if style == ScalarStyle::Plain {
                resolve_plain(text, self.opts.version)
            } else {
                Kind::Str(text.into())
            });
        };
        if is_non_specific(tag) {
            return Ok(Kind::Str(text.into()));
        }
        let bad = |what: &str| {
            Error::new(ErrorKind::Parse, format!("'{text}' is not a valid {what}"))
                .at(span)
                .hint("remove the tag or fix the value")
        };
        Ok(match tag.core_suffix() {
            Some("str") | Some("binary") => Kind::Str(text.into()),
            Some("null") => Kind::Null,
            Some("bool") => match resolve_plain(text, self.opts.version) {
                k @ Kind::Bool(_) => k,
                _ => return Err(bad("!!bool")),
            },
            Some("int") => match resolve::int_11(text) {
                Some(k) => k,
                None => match resolve_plain(text, resolve::YamlVersion::V1_2) {
                    k @ (Kind::Int(_) | Kind::BigInt(_)) => k,
                    _ => return Err(bad("!!int")),
                },
            },
            Some("float") => match resolve::float_11(text).or_else(|| {
                resolve::int_11(text).and_then(|k| match k {
                    Kind::Int(i) => Some(i as f64),
                    _ => None,
                })
            }) {
                Some(f) => Kind::Float(f),
                None => return Err(bad("!!float")),
            },
            Some("timestamp") if resolve::is_timestamp(text) => Kind::Timestamp(text.into()),
            Some("timestamp") => return Err(bad("!!timestamp")),
            _ => return Err(unknown_tag(tag, span)),
        })
    }
}

fn is_non_specific(tag: &Tag) -> bool {
    tag.handle() == "!" && tag.suffix().is_empty()
}

fn unknown_tag(tag: &Tag, span: Span) -> Error {
    Error::new(
        ErrorKind::Parse,
        format!(
            "could not determine a constructor for the tag '{}'",
            tag.original()
        ),
    )
    .at(span)
    .hint("safe YAML loaders (PyYAML safe_load) accept only the standard tags: remove the tag")
}

fn merge_error(span: Span) -> Error {
    Error::new(
        ErrorKind::Parse,
        "expected a mapping or list of mappings for merging ('<<')",
    )
    .at(span)
    .hint("'<<' takes an alias of a mapping (<<: *base) or a list of them")
}

/// `!!omap` / `!!pairs`: a list of one-pair mappings becomes a list of `[key, value]` lists.
fn pairs_from_omap(items: Vec<Node>, span: Span) -> Result<Vec<Node>> {
    items
        .into_iter()
        .map(|item| match item.kind {
            Kind::Map(m) if m.len() == 1 => {
                let (k, v) = m
                    .into_iter()
                    .next()
                    .map(|(k, v)| (k.0, v))
                    .unwrap_or((Node::null(span), Node::null(span)));
                Ok(Node::list(vec![k, v], item.span))
            }
            _ => Err(Error::new(
                ErrorKind::Parse,
                "expected a single mapping item in an ordered map (!!omap / !!pairs)",
            )
            .at(item.span)),
        })
        .collect()
}

fn describe_key(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => format!("'{s}'"),
        _ => format!("{:?}", k.kind).to_lowercase(),
    }
}

/// Deepest nesting of lists and maps in a tree (a scalar is 0). Iterative.
pub fn tree_depth(node: &Node) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(node, 0usize)];
    while let Some((n, depth)) = todo.pop() {
        let children: Box<dyn Iterator<Item = &Node>> = match &n.kind {
            Kind::List(items) => Box::new(items.iter()),
            Kind::Map(m) => Box::new(m.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        todo.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

/// Number of nodes in a tree (for the alias expansion budget). Iterative.
pub fn count_nodes(node: &Node) -> usize {
    let mut count = 0usize;
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        count += 1;
        match &n.kind {
            Kind::List(items) => todo.extend(items.iter()),
            Kind::Map(m) => {
                count += m.len();
                todo.extend(m.values());
            }
            _ => {}
        }
    }
    count
}
