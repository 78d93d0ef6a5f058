//! `lookup_options`: looked up once with a `hash` merge over every level (so an entry in a
//! more specific level replaces the whole entry, and the merged hash lists the lowest level's
//! keys first), then split into exact keys and `^` patterns (Ruby regexes, matched unanchored
//! against the root key, first match in hash order wins, an exact key always first). Also
//! `convert_to` for the few types strata converts.

use super::behave::{Behaviour, Name};
use super::lookup::Hiera;
use super::report::say;
use super::ruby;
use crate::error::{Error, ErrorKind, Result};
use crate::strategy::Origin;
use crate::value::{Kind, Node, Span};
use regex::Regex;
use rustc_hash::FxHashMap;

/// One options entry and where its key was written.
#[derive(Clone, Debug)]
struct Entry {
    key: String,
    value: Node,
    at: Span,
}

/// The compiled `lookup_options`.
#[derive(Debug, Default)]
pub struct Options {
    exact: FxHashMap<String, Entry>,
    patterns: Vec<(Regex, Entry)>,
}

impl Options {
    fn entry_for(&self, root: &str) -> Option<&Entry> {
        self.exact.get(root).or_else(|| {
            self.patterns
                .iter()
                .find(|(re, _)| re.is_match(root))
                .map(|(_, e)| e)
        })
    }

    /// The behaviour the entry for `root` sets (`None`: no entry, or no `merge` in it).
    pub fn behaviour_for(&self, root: &str) -> Option<Result<Behaviour>> {
        let e = self.entry_for(root)?;
        let merge = e.value.get("merge")?;
        if merge.is_null() {
            return None;
        }
        let source = format!("lookup_options['{}']", e.key);
        Some(
            Behaviour::parse(merge, source.clone(), Origin::At(e.at)).map_err(|m| {
                Error::new(ErrorKind::Directive, format!("{source}: {m}"))
                    .at(merge.span)
                    .hint("write merge: first | unique | hash | deep, or {strategy: deep, knockout_prefix: '--'}")
            }),
        )
    }

    /// The `convert_to` of the entry for `root`.
    pub fn convert_to(&self, root: &str) -> Option<(Node, Span)> {
        let e = self.entry_for(root)?;
        let c = e.value.get("convert_to")?;
        Some((c.clone(), c.span))
    }
}

impl Hiera<'_> {
    /// Looks `lookup_options` up (once) and compiles it.
    pub fn gather_options(&mut self) -> Result<()> {
        if self.options.is_some() {
            return Ok(());
        }
        self.options = Some(Options::default());
        say(&mut self.log, || "Searching for \"lookup_options\"".into());
        if let Some(l) = self.log.as_mut() {
            l.push();
        }
        let trace = self.trace.take();
        let hash = Behaviour {
            name: Name::Hash,
            ..Behaviour::first()
        };
        let found = self.checked("lookup_options", Span::NONE, |h| {
            h.search("lookup_options", &hash)
        });
        self.trace = trace;
        if let Some(l) = self.log.as_mut() {
            l.pop();
        }
        let Some(found) = found? else {
            return Ok(());
        };
        let Kind::Map(m) = &found.kind else {
            return Err(Error::new(
                ErrorKind::Directive,
                format!(
                    "value of lookup_options must be a hash, not {}",
                    found.kind_phrase()
                ),
            )
            .at(found.span));
        };
        let mut opts = Options::default();
        for (k, v) in m.iter() {
            let key = crate::merge::key_text(&k.0);
            let entry = Entry {
                key: key.clone(),
                value: v.clone(),
                at: k.span(),
            };
            if key.starts_with('^') {
                let re = Regex::new(&key).map_err(|e| {
                    Error::new(
                        ErrorKind::Directive,
                        format!("lookup_options key '{key}' is not a regular expression: {e}"),
                    )
                    .at(k.span())
                    .hint("keys starting with '^' are patterns; escape special characters, or do not start the key with '^'")
                })?;
                opts.patterns.push((re, entry));
            } else {
                opts.exact.insert(key, entry);
            }
        }
        self.options = Some(opts);
        Ok(())
    }
}

/// `convert_to`: `Array` (a hash becomes `[key, value]` pairs, a scalar a one-item array),
/// `String` and `Integer` / `Float` / `Numeric` from their usual forms.
pub fn convert(ty: &Node, v: Node, at: Span) -> Result<Node> {
    let ty_text = match &ty.kind {
        Kind::List(items) => items.first().and_then(ruby::text).unwrap_or_default(),
        _ => ruby::text(ty).unwrap_or_default(),
    };
    let fail = |m: String| Error::new(ErrorKind::Directive, m).at(at);
    let span = v.span;
    match ty_text {
        "Array" => Ok(match v.kind {
            Kind::List(_) => v,
            Kind::Map(m) => Node::list(
                m.into_iter()
                    .map(|(k, v)| Node::list(vec![k.0, v], span))
                    .collect::<Vec<_>>(),
                span,
            ),
            kind => Node::list(vec![Node::new(kind, span)], span),
        }),
        "String" => Ok(match &v.kind {
            Kind::Str(_) => v,
            _ => Node::str(ruby::to_s(&v), span),
        }),
        "Integer" | "Float" | "Numeric" => {
            let t = ruby::text(&v).map(|s| s.trim().to_string());
            let n = match (&v.kind, t) {
                (Kind::Int(i), _) if ty_text != "Float" => Some(Kind::Int(*i)),
                (Kind::Int(i), _) => Some(Kind::Float(*i as f64)),
                (Kind::Float(f), _) if ty_text == "Integer" => Some(Kind::Int(f.trunc() as i64)),
                (Kind::Float(f), _) => Some(Kind::Float(*f)),
                (_, Some(s)) if ty_text != "Float" && s.parse::<i64>().is_ok() => {
                    s.parse::<i64>().ok().map(Kind::Int)
                }
                (_, Some(s)) => s.parse::<f64>().ok().map(Kind::Float),
                _ => None,
            };
            n.map(|k| Node::new(k, span)).ok_or_else(|| {
                fail(format!(
                    "The convert_to lookup_option raised error: cannot convert {} to {ty_text}",
                    ruby::inspect(&v)
                ))
            })
        }
        other => Err(fail(format!(
            "convert_to '{other}' is not supported by strata (it converts to Array, String, Integer, Float, Numeric)"
        ))),
    }
}
