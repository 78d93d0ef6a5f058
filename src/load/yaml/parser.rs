//! The YAML parser: tokens → events, PyYAML's LL(1) state machine (no recursion). It settles
//! what the scanner leaves open: implicit and explicit documents, `%YAML` / `%TAG`
//! directives and tag handles, node properties (anchor and tag in either order), empty
//! nodes, indentless sequences under a mapping key, and flow-sequence entries that are
//! single-pair mappings (`[a: 1]`). Error messages are PyYAML's.

use super::scanner::{Directive, Result, Scanner, Style, SyntaxError, Tok, Token};
use std::borrow::Cow;

/// A node's anchor and tag as written; the tag with its handle already expanded.
#[derive(Debug, Default)]
pub(super) struct Props<'a> {
    pub anchor: Option<&'a str>,
    /// `!` alone stays `"!"` (the non-specific tag).
    pub tag: Option<Cow<'a, str>>,
    /// Where the tag was written, when there is one.
    pub tag_at: Option<usize>,
    /// Where the anchor (`&name`) was written, when there is one.
    pub anchor_at: Option<(usize, usize)>,
}

/// What the parser reports.
#[derive(Debug)]
pub(super) enum Event<'a> {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(&'a str),
    Scalar {
        props: Props<'a>,
        /// PyYAML's `implicit[0]`: the value is typed by the plain-scalar rules.
        plain: bool,
        value: Cow<'a, str>,
    },
    SequenceStart(Props<'a>),
    SequenceEnd,
    MappingStart(Props<'a>),
    MappingEnd,
}

/// An event and the bytes it covers (for a node: from its tag, or its own first token).
#[derive(Debug)]
pub(super) struct Spanned<'a> {
    pub event: Event<'a>,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

/// Which token kinds `check` looks for (PyYAML's `check_token(*choices)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum K {
    StreamEnd,
    Directive,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias,
    Anchor,
    Tag,
    Scalar,
}

fn kind(t: &Tok<'_>) -> Option<K> {
    Some(match t {
        Tok::StreamStart => return None,
        Tok::StreamEnd => K::StreamEnd,
        Tok::Directive(_) => K::Directive,
        Tok::DocumentStart => K::DocumentStart,
        Tok::DocumentEnd => K::DocumentEnd,
        Tok::BlockSequenceStart => K::BlockSequenceStart,
        Tok::BlockMappingStart => K::BlockMappingStart,
        Tok::BlockEnd => K::BlockEnd,
        Tok::FlowSequenceStart => K::FlowSequenceStart,
        Tok::FlowMappingStart => K::FlowMappingStart,
        Tok::FlowSequenceEnd => K::FlowSequenceEnd,
        Tok::FlowMappingEnd => K::FlowMappingEnd,
        Tok::BlockEntry => K::BlockEntry,
        Tok::FlowEntry => K::FlowEntry,
        Tok::Key => K::Key,
        Tok::Value => K::Value,
        Tok::Alias(_) => K::Alias,
        Tok::Anchor(_) => K::Anchor,
        Tok::Tag { .. } => K::Tag,
        Tok::Scalar { .. } => K::Scalar,
    })
}

pub(super) struct Parser<'a> {
    pub scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    /// Where each open collection started (for "while parsing a block mapping" messages).
    marks: Vec<usize>,
    /// `%TAG` handles of the current document (plus `!` and `!!`).
    tag_handles: Vec<(String, String)>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str) -> Parser<'a> {
        Parser {
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_handles: default_handles(),
        }
    }

    fn check(&mut self, kinds: &[K]) -> Result<bool> {
        Ok(match self.scanner.peek_token()? {
            Some(t) => kind(&t.tok).is_some_and(|k| kinds.contains(&k)),
            None => false,
        })
    }

    fn peek(&mut self) -> Result<(usize, usize, &'static str)> {
        match self.scanner.peek_token()? {
            Some(t) => Ok((t.start, t.end, t.tok.id())),
            None => Ok((self.scanner.pos, self.scanner.pos, "<stream end>")),
        }
    }

    fn take(&mut self) -> Result<Token<'a>> {
        let pos = self.scanner.pos;
        Ok(self.scanner.next_token()?.unwrap_or(Token {
            tok: Tok::StreamEnd,
            start: pos,
            end: pos,
        }))
    }

    fn pop_state(&mut self) -> State {
        self.states.pop().unwrap_or(State::End)
    }

    /// The next event, or `None` after the stream's end.
    pub(super) fn next_event(&mut self) -> Result<Option<Spanned<'a>>> {
        let ev = match self.state {
            State::End => return Ok(None),
            State::StreamStart => {
                let t = self.take()?;
                self.state = State::ImplicitDocumentStart;
                at(Event::StreamStart, t.start, t.end)
            }
            State::ImplicitDocumentStart => {
                if self.check(&[K::Directive, K::DocumentStart, K::StreamEnd])? {
                    self.document_start()?
                } else {
                    self.tag_handles = default_handles();
                    let (start, _, _) = self.peek()?;
                    self.states.push(State::DocumentEnd);
                    self.state = State::BlockNode;
                    at(Event::DocumentStart, start, start)
                }
            }
            State::DocumentStart => self.document_start()?,
            State::DocumentEnd => {
                let (start, mut end, _) = self.peek()?;
                end = end.max(start);
                if self.check(&[K::DocumentEnd])? {
                    end = self.take()?.end;
                } else {
                    end = start.min(end);
                }
                self.state = State::DocumentStart;
                at(Event::DocumentEnd, start, end)
            }
            State::DocumentContent => {
                if self.check(&[K::Directive, K::DocumentStart, K::DocumentEnd, K::StreamEnd])? {
                    let (start, _, _) = self.peek()?;
                    self.state = self.pop_state();
                    empty_scalar(start)
                } else {
                    self.node(true, false)?
                }
            }
            State::BlockNode => self.node(true, false)?,
            State::BlockSequenceFirstEntry => {
                let t = self.take()?;
                self.marks.push(t.start);
                self.block_sequence_entry()?
            }
            State::BlockSequenceEntry => self.block_sequence_entry()?,
            State::IndentlessSequenceEntry => {
                if self.check(&[K::BlockEntry])? {
                    let t = self.take()?;
                    if self.check(&[K::BlockEntry, K::Key, K::Value, K::BlockEnd])? {
                        self.state = State::IndentlessSequenceEntry;
                        empty_scalar(t.end)
                    } else {
                        self.states.push(State::IndentlessSequenceEntry);
                        self.node(true, false)?
                    }
                } else {
                    let (start, _, _) = self.peek()?;
                    self.state = self.pop_state();
                    at(Event::SequenceEnd, start, start)
                }
            }
            State::BlockMappingFirstKey => {
                let t = self.take()?;
                self.marks.push(t.start);
                self.block_mapping_key()?
            }
            State::BlockMappingKey => self.block_mapping_key()?,
            State::BlockMappingValue => {
                if self.check(&[K::Value])? {
                    let t = self.take()?;
                    if self.check(&[K::Key, K::Value, K::BlockEnd])? {
                        self.state = State::BlockMappingKey;
                        empty_scalar(t.end)
                    } else {
                        self.states.push(State::BlockMappingKey);
                        self.node(true, true)?
                    }
                } else {
                    self.state = State::BlockMappingKey;
                    let (start, _, _) = self.peek()?;
                    empty_scalar(start)
                }
            }
            State::FlowSequenceFirstEntry => {
                let t = self.take()?;
                self.marks.push(t.start);
                self.flow_sequence_entry(true)?
            }
            State::FlowSequenceEntry => self.flow_sequence_entry(false)?,
            State::FlowSequenceEntryMappingKey => {
                let t = self.take()?;
                if self.check(&[K::Value, K::FlowEntry, K::FlowSequenceEnd])? {
                    self.state = State::FlowSequenceEntryMappingValue;
                    empty_scalar(t.end)
                } else {
                    self.states.push(State::FlowSequenceEntryMappingValue);
                    self.node(false, false)?
                }
            }
            State::FlowSequenceEntryMappingValue => {
                if self.check(&[K::Value])? {
                    let t = self.take()?;
                    if self.check(&[K::FlowEntry, K::FlowSequenceEnd])? {
                        self.state = State::FlowSequenceEntryMappingEnd;
                        empty_scalar(t.end)
                    } else {
                        self.states.push(State::FlowSequenceEntryMappingEnd);
                        self.node(false, false)?
                    }
                } else {
                    self.state = State::FlowSequenceEntryMappingEnd;
                    let (start, _, _) = self.peek()?;
                    empty_scalar(start)
                }
            }
            State::FlowSequenceEntryMappingEnd => {
                self.state = State::FlowSequenceEntry;
                let (start, _, _) = self.peek()?;
                at(Event::MappingEnd, start, start)
            }
            State::FlowMappingFirstKey => {
                let t = self.take()?;
                self.marks.push(t.start);
                self.flow_mapping_key(true)?
            }
            State::FlowMappingKey => self.flow_mapping_key(false)?,
            State::FlowMappingValue => {
                if self.check(&[K::Value])? {
                    let t = self.take()?;
                    if self.check(&[K::FlowEntry, K::FlowMappingEnd])? {
                        self.state = State::FlowMappingKey;
                        empty_scalar(t.end)
                    } else {
                        self.states.push(State::FlowMappingKey);
                        self.node(false, false)?
                    }
                } else {
                    self.state = State::FlowMappingKey;
                    let (start, _, _) = self.peek()?;
                    empty_scalar(start)
                }
            }
            State::FlowMappingEmptyValue => {
                self.state = State::FlowMappingKey;
                let (start, _, _) = self.peek()?;
                empty_scalar(start)
            }
        };
        Ok(Some(ev))
    }

    fn document_start(&mut self) -> Result<Spanned<'a>> {
        while self.check(&[K::DocumentEnd])? {
            self.take()?;
        }
        if self.check(&[K::StreamEnd])? {
            let t = self.take()?;
            self.state = State::End;
            return Ok(at(Event::StreamEnd, t.start, t.end));
        }
        let (start, _, _) = self.peek()?;
        self.process_directives()?;
        if !self.check(&[K::DocumentStart])? {
            let (at_, _, id) = self.peek()?;
            return Err(SyntaxError::new(
                None,
                format!("expected '<document start>', but found '{id}'"),
                at_,
            ));
        }
        let t = self.take()?;
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        Ok(at(Event::DocumentStart, start, t.end))
    }

    fn process_directives(&mut self) -> Result<()> {
        let mut version_seen = false;
        let mut handles: Vec<(String, String)> = Vec::new();
        while self.check(&[K::Directive])? {
            let t = self.take()?;
            match t.tok {
                Tok::Directive(Directive::Yaml(major)) => {
                    if version_seen {
                        return Err(SyntaxError::new(
                            None,
                            "found duplicate YAML directive",
                            t.start,
                        ));
                    }
                    if major != 1 {
                        return Err(SyntaxError::new(
                            None,
                            "found incompatible YAML document (version 1.* is required)",
                            t.start,
                        ));
                    }
                    version_seen = true;
                }
                Tok::Directive(Directive::Tag(handle, prefix)) => {
                    if handles.iter().any(|(h, _)| h == handle) {
                        return Err(SyntaxError::new(
                            None,
                            format!("duplicate tag handle '{handle}'"),
                            t.start,
                        ));
                    }
                    handles.push((handle.to_string(), prefix.into_owned()));
                }
                _ => {}
            }
        }
        for (h, p) in default_handles() {
            if !handles.iter().any(|(x, _)| *x == h) {
                handles.push((h, p));
            }
        }
        self.tag_handles = handles;
        Ok(())
    }

    /// A node: an alias, or properties followed by content (or nothing: an empty scalar).
    fn node(&mut self, block: bool, indentless: bool) -> Result<Spanned<'a>> {
        if self.check(&[K::Alias])? {
            let t = self.take()?;
            self.state = self.pop_state();
            let Tok::Alias(name) = t.tok else {
                return Err(SyntaxError::new(None, "expected an alias", t.start));
            };
            return Ok(at(Event::Alias(name), t.start, t.end));
        }
        let mut props = Props::default();
        let mut start: Option<usize> = None;
        let mut end = 0;
        let mut raw_tag: Option<(Option<&'a str>, Cow<'a, str>)> = None;
        for _ in 0..2 {
            if props.anchor.is_none() && self.check(&[K::Anchor])? {
                let t = self.take()?;
                start.get_or_insert(t.start);
                end = t.end;
                if let Tok::Anchor(name) = t.tok {
                    props.anchor = Some(name);
                    props.anchor_at = Some((t.start, t.end));
                }
            } else if raw_tag.is_none() && self.check(&[K::Tag])? {
                let t = self.take()?;
                start.get_or_insert(t.start);
                end = t.end;
                props.tag_at = Some(t.start);
                if let Tok::Tag { handle, suffix } = t.tok {
                    raw_tag = Some((handle, suffix));
                }
            } else {
                break;
            }
        }
        if let Some((handle, suffix)) = raw_tag {
            props.tag = Some(match handle {
                None => suffix,
                Some(h) => match self.tag_handles.iter().find(|(x, _)| x == h) {
                    Some((_, prefix)) => Cow::Owned(format!("{prefix}{suffix}")),
                    None => {
                        return Err(SyntaxError::new(
                            Some(("while parsing a node", start.unwrap_or(0))),
                            format!("found undefined tag handle '{h}'"),
                            props.tag_at.unwrap_or(0),
                        ))
                    }
                },
            });
        }
        let has_props = start.is_some();
        let (next_start, next_end, id) = self.peek()?;
        let start = start.unwrap_or(next_start);
        if !has_props {
            end = next_start;
        }
        let non_specific = props.tag.as_deref() == Some("!");
        if indentless && self.check(&[K::BlockEntry])? {
            self.state = State::IndentlessSequenceEntry;
            return Ok(at(Event::SequenceStart(props), start, next_end));
        }
        if self.check(&[K::Scalar])? {
            let t = self.take()?;
            let Tok::Scalar { value, style } = t.tok else {
                return Err(SyntaxError::new(None, "expected a scalar", t.start));
            };
            let plain = (style == Style::Plain && props.tag.is_none()) || non_specific;
            self.state = self.pop_state();
            // A scalar's text starts at its tag (so the span reads back as the same value),
            // else at the scalar itself (an anchor before it is not part of the value).
            let from = props.tag_at.unwrap_or(t.start);
            return Ok(at(
                Event::Scalar {
                    props,
                    plain,
                    value,
                },
                from,
                t.end,
            ));
        }
        if self.check(&[K::FlowSequenceStart])? {
            self.state = State::FlowSequenceFirstEntry;
            return Ok(at(Event::SequenceStart(props), next_start, next_end));
        }
        if self.check(&[K::FlowMappingStart])? {
            self.state = State::FlowMappingFirstKey;
            return Ok(at(Event::MappingStart(props), next_start, next_end));
        }
        if block && self.check(&[K::BlockSequenceStart])? {
            self.state = State::BlockSequenceFirstEntry;
            return Ok(at(Event::SequenceStart(props), next_start, next_start));
        }
        if block && self.check(&[K::BlockMappingStart])? {
            self.state = State::BlockMappingFirstKey;
            return Ok(at(Event::MappingStart(props), next_start, next_start));
        }
        if has_props {
            // An empty scalar may carry a tag or an anchor.
            self.state = self.pop_state();
            let from = props.tag_at.unwrap_or(end);
            return Ok(at(
                Event::Scalar {
                    plain: props.tag.is_none() || non_specific,
                    props,
                    value: Cow::Borrowed(""),
                },
                from,
                end,
            ));
        }
        let context = if block {
            "while parsing a block node"
        } else {
            "while parsing a flow node"
        };
        Err(SyntaxError::new(
            Some((context, start)),
            format!("expected the node content, but found '{id}'"),
            next_start,
        ))
    }

    fn block_sequence_entry(&mut self) -> Result<Spanned<'a>> {
        if self.check(&[K::BlockEntry])? {
            let t = self.take()?;
            if self.check(&[K::BlockEntry, K::BlockEnd])? {
                self.state = State::BlockSequenceEntry;
                return Ok(empty_scalar(t.end));
            }
            self.states.push(State::BlockSequenceEntry);
            return self.node(true, false);
        }
        if !self.check(&[K::BlockEnd])? {
            let (start, _, id) = self.peek()?;
            return Err(SyntaxError::new(
                Some((
                    "while parsing a block collection",
                    self.marks.last().copied().unwrap_or(0),
                )),
                format!("expected <block end>, but found '{id}'"),
                start,
            ));
        }
        let t = self.take()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(at(Event::SequenceEnd, t.start, t.end))
    }

    fn block_mapping_key(&mut self) -> Result<Spanned<'a>> {
        if self.check(&[K::Key])? {
            let t = self.take()?;
            if self.check(&[K::Key, K::Value, K::BlockEnd])? {
                self.state = State::BlockMappingValue;
                return Ok(empty_scalar(t.end));
            }
            self.states.push(State::BlockMappingValue);
            return self.node(true, true);
        }
        if !self.check(&[K::BlockEnd])? {
            let (start, _, id) = self.peek()?;
            return Err(SyntaxError::new(
                Some((
                    "while parsing a block mapping",
                    self.marks.last().copied().unwrap_or(0),
                )),
                format!("expected <block end>, but found '{id}'"),
                start,
            ));
        }
        let t = self.take()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(at(Event::MappingEnd, t.start, t.end))
    }

    fn flow_sequence_entry(&mut self, first: bool) -> Result<Spanned<'a>> {
        if !self.check(&[K::FlowSequenceEnd])? {
            if !first {
                if self.check(&[K::FlowEntry])? {
                    self.take()?;
                } else {
                    let (start, _, id) = self.peek()?;
                    return Err(SyntaxError::new(
                        Some((
                            "while parsing a flow sequence",
                            self.marks.last().copied().unwrap_or(0),
                        )),
                        format!("expected ',' or ']', but got '{id}'"),
                        start,
                    ));
                }
            }
            if self.check(&[K::Key])? {
                let (start, end, _) = self.peek()?;
                self.state = State::FlowSequenceEntryMappingKey;
                return Ok(at(Event::MappingStart(Props::default()), start, end));
            }
            if !self.check(&[K::FlowSequenceEnd])? {
                self.states.push(State::FlowSequenceEntry);
                return self.node(false, false);
            }
        }
        let t = self.take()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(at(Event::SequenceEnd, t.start, t.end))
    }

    fn flow_mapping_key(&mut self, first: bool) -> Result<Spanned<'a>> {
        if !self.check(&[K::FlowMappingEnd])? {
            if !first {
                if self.check(&[K::FlowEntry])? {
                    self.take()?;
                } else {
                    let (start, _, id) = self.peek()?;
                    return Err(SyntaxError::new(
                        Some((
                            "while parsing a flow mapping",
                            self.marks.last().copied().unwrap_or(0),
                        )),
                        format!("expected ',' or '}}', but got '{id}'"),
                        start,
                    ));
                }
            }
            if self.check(&[K::Key])? {
                let t = self.take()?;
                if self.check(&[K::Value, K::FlowEntry, K::FlowMappingEnd])? {
                    self.state = State::FlowMappingValue;
                    return Ok(empty_scalar(t.end));
                }
                self.states.push(State::FlowMappingValue);
                return self.node(false, false);
            }
            if !self.check(&[K::FlowMappingEnd])? {
                self.states.push(State::FlowMappingEmptyValue);
                return self.node(false, false);
            }
        }
        let t = self.take()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(at(Event::MappingEnd, t.start, t.end))
    }
}

fn default_handles() -> Vec<(String, String)> {
    vec![
        ("!".into(), "!".into()),
        ("!!".into(), "tag:yaml.org,2002:".into()),
    ]
}

fn at(event: Event<'_>, start: usize, end: usize) -> Spanned<'_> {
    Spanned { event, start, end }
}

fn empty_scalar<'a>(at_: usize) -> Spanned<'a> {
    at(
        Event::Scalar {
            props: Props::default(),
            plain: true,
            value: Cow::Borrowed(""),
        },
        at_,
        at_,
    )
}
