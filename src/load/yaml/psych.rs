//! The YAML loader's Psych dialect (`LoadOptions::psych`): what Ruby's Psych 4 `safe_load`
//! (Ruby 3.1, as Puppet 7 calls it for Hiera) builds from each node, where PyYAML's
//! `SafeConstructor` (`construct.rs`, `compose.rs`) builds something else. Plain scalars
//! are typed by `load::psych::tokenize`; this file owns the tags (`ToRuby#deserialize`), the
//! collection tags, and merge keys (`revive_hash`), for the composer to apply:
//!
//! - a quoted scalar without a tag is a string; with any tag other than the few Psych knows
//!   (`!!str`, `!!binary`, `!!float`, `!ruby/sym`, ...) it is typed like a plain one:
//!   `!!int "12"` is 12, `!Ref x` is "x", `!!timestamp 2024-01-01` a refused `Date`;
//! - `!!binary` is Ruby's lenient base64 (a string; bytes when not UTF-8);
//! - `!!set`, `!!omap` on a mapping, `!ruby/object:X`, `!ruby/regexp`, `!ruby/range`, ...
//!   name classes `safe_load` refuses (`Tried to load unspecified class: Psych::Set`); an
//!   `!!omap` sequence is a hash; any other tag on a collection is ignored;
//! - `<<` merges where it stands (a later key overrides a merged one, a merged one an earlier
//!   key); a quoted `'<<'` merges too, `!!str <<` does not; a value that is not a mapping (or
//!   a written list of them) stays as the key `<<`;
//! - keys of any type, a repeated anchor (the later one counts), no error for a repeated key.

use super::compose::{describe_key, Composer, MapKind};
use super::construct::Special;
use crate::error::{Error, ErrorKind, WarnKind, Warning};
use crate::load::psych::{self, Fault, Refusal, Token};
use crate::value::{Key, Kind, Map, Node, Span};

const STR: &str = "tag:yaml.org,2002:str";
const BINARY: &str = "tag:yaml.org,2002:binary";
const FLOAT: &str = "tag:yaml.org,2002:float";
const SET: &str = "tag:yaml.org,2002:set";
const OMAP: &str = "tag:yaml.org,2002:omap";

/// `undefined method 'allocate' for nil:NilClass`: a class-naming tag with an empty name.
fn no_class() -> Fault {
    Fault::Raised("undefined method `allocate' for nil:NilClass".into())
}

/// A class named by a tag: refused unless empty (`None`: the tag names none).
fn class(name: &str) -> Option<Fault> {
    (!name.is_empty()).then(|| Fault::Disallowed(name.to_string()))
}

/// The class suffix of `!str:X` / `!ruby/string:X` (`Some("")` without one), for the tags of
/// Ruby strings.
fn string_class(tag: &str) -> Option<&str> {
    let rest = tag
        .strip_prefix("!str")
        .or_else(|| tag.strip_prefix("!ruby/string"))?;
    match rest {
        "" => Some(""),
        _ => rest.strip_prefix(':'),
    }
}

/// A scalar: `plain` when it was written plain, `tag` its tag. `symbols`: Symbol is a
/// permitted class.
pub(super) fn scalar(
    text: &str,
    plain: bool,
    tag: Option<&str>,
    symbols: bool,
) -> Result<Token, Fault> {
    let value = |k| Ok(Token::Value(k));
    let Some(tag) = tag else {
        return if plain {
            psych::tokenize(text, symbols)
        } else {
            value(Kind::Str(text.into()))
        };
    };
    match tag {
        "!binary" | BINARY => {
            let bytes = psych::unpack_base64(text);
            return value(match String::from_utf8(bytes) {
                Ok(s) => Kind::Str(s.into()),
                Err(e) => Kind::Bytes(e.into_bytes().into()),
            });
        }
        STR => return value(Kind::Str(text.into())),
        "!ruby/object:BigDecimal" => return Err(Fault::Disallowed("BigDecimal".into())),
        "!ruby/object:DateTime" => return Err(Fault::Disallowed("DateTime".into())),
        "!ruby/encoding" => {
            return Err(Fault::Raised(format!(
                "strata does not build Ruby Encoding objects (!ruby/encoding {text})"
            )))
        }
        "!ruby/object:Complex" => return Err(Fault::Disallowed("Complex".into())),
        "!ruby/object:Rational" => return Err(Fault::Disallowed("Rational".into())),
        "!ruby/class" | "!ruby/module" => {
            return match class(text) {
                Some(f) => Err(f),
                None => value(Kind::Null),
            }
        }
        FLOAT | "!float" => {
            return psych::ruby_float(&psych::tokenize(text, symbols)?)
                .map(|f| Token::Value(Kind::Float(f)))
        }
        "!ruby/regexp" => return Err(Fault::Disallowed("Regexp".into())),
        "!ruby/range" => return Err(Fault::Disallowed("Range".into())),
        _ => {}
    }
    if let Some(name) = string_class(tag) {
        return match class(name) {
            Some(f) => Err(f),
            None => value(Kind::Str(text.into())),
        };
    }
    if tag.starts_with("!ruby/sym") {
        if !symbols {
            return Err(Fault::Disallowed("Symbol".into()));
        }
        return Ok(Token::Symbol(text.to_string()));
    }
    psych::tokenize(text, symbols)
}

/// Whether a key merges (`key == '<<'` and its tag is not `!!str`).
pub(super) fn is_merge_key(kind: &Kind, tag: Option<&str>) -> bool {
    matches!(kind, Kind::Str(s) if &**s == "<<") && tag != Some(STR)
}

/// What a tagged sequence becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Seq {
    List,
    /// `!!omap`: a hash of each item's first child to its last.
    Omap,
}

/// `visit_Psych_Nodes_Sequence` by tag.
pub(super) fn sequence(tag: Option<&str>) -> Result<Seq, Fault> {
    let Some(tag) = tag else { return Ok(Seq::List) };
    if tag == "!omap" || tag == OMAP {
        return Ok(Seq::Omap);
    }
    let named = tag
        .strip_prefix("!seq:")
        .or_else(|| tag.strip_prefix("!ruby/array:"));
    match named {
        Some(name) => Err(class(name).unwrap_or_else(no_class)),
        None => Ok(Seq::List),
    }
}

/// What a tagged mapping becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mapping {
    Map,
    /// `!ruby/hash-with-ivars`: the mapping under `elements`.
    WithIvars,
    /// `!!str` on a mapping: the value of its `str` key.
    StrObject,
}

/// `visit_Psych_Nodes_Mapping` by tag: refused classes, or what the mapping becomes.
pub(super) fn mapping(tag: Option<&str>) -> Result<Mapping, Fault> {
    let Some(tag) = tag else {
        return Ok(Mapping::Map);
    };
    let after = |prefix: &str| tag.strip_prefix(prefix);
    // `^!ruby/struct:?(.*)?$` and the like: the class after an optional colon.
    let optional_colon = |rest: &str| rest.strip_prefix(':').unwrap_or(rest).to_string();
    if let Some(rest) = after("!ruby/struct") {
        return Err(class(&optional_colon(rest)).unwrap_or(Fault::Disallowed("Struct".into())));
    }
    if let Some(rest) = after("!ruby/object") {
        return match optional_colon(rest).as_str() {
            "Hash" => Ok(Mapping::Map),
            "" => Err(Fault::Disallowed("Object".into())),
            name => Err(Fault::Disallowed(name.to_string())),
        };
    }
    if tag == STR {
        return Ok(Mapping::StrObject);
    }
    if let Some(name) = string_class(tag) {
        return match class(name) {
            Some(f) => Err(f),
            None => Ok(Mapping::StrObject),
        };
    }
    if let Some(name) = after("!ruby/array:") {
        return Err(class(name).unwrap_or_else(no_class));
    }
    if tag == "!ruby/range" {
        return Err(Fault::Disallowed("Range".into()));
    }
    if let Some(rest) = after("!ruby/exception") {
        return Err(class(&optional_colon(rest)).unwrap_or(Fault::Disallowed("Exception".into())));
    }
    if tag == "!set" || tag == SET {
        return Err(Fault::Disallowed("Psych::Set".into()));
    }
    if let Some(rest) = after("!ruby/hash-with-ivars") {
        return match rest.strip_prefix(':') {
            Some(name) if !name.is_empty() => Err(Fault::Disallowed(name.to_string())),
            _ if rest.is_empty() || rest == ":" => Ok(Mapping::WithIvars),
            _ => Ok(Mapping::Map),
        };
    }
    if let Some(name) = after("!map:").or_else(|| after("!ruby/hash:")) {
        return Err(class(name).unwrap_or_else(no_class));
    }
    if tag == "!omap" || tag == OMAP {
        return Err(Fault::Disallowed("Psych::Omap".into()));
    }
    if let Some(name) = after("!ruby/marshalable:") {
        return Err(class(name).unwrap_or_else(no_class));
    }
    Ok(Mapping::Map)
}

/// An `!!omap` sequence's hash: each item's first child as the key of its last (a mapping's
/// first key and last value; a list's first and last items).
pub(super) fn omap(items: Vec<Node>) -> Result<Map, Fault> {
    let mut map = Map::with_capacity(items.len());
    for item in items {
        let (key, value) = match item.kind {
            Kind::Map(m) => {
                let first = m.get_index(0).map(|(k, _)| k.0.clone());
                let last = m.get_index(m.len().wrapping_sub(1)).map(|(_, v)| v.clone());
                (first, last)
            }
            Kind::List(l) => (l.first().cloned(), l.last().cloned()),
            _ => {
                return Err(Fault::Raised(
                    "undefined method `first' for nil:NilClass".into(),
                ))
            }
        };
        let (Some(k), Some(v)) = (key, value) else {
            return Err(Fault::Raised(
                "undefined method `visit_NilClass' for Psych::Visitors::ToRuby".into(),
            ));
        };
        map.insert(Key(k), v);
    }
    Ok(map)
}

/// `!ruby/hash-with-ivars`: the mappings under its `elements` keys (its `ivars` are instance
/// variables, which data does not keep).
pub(super) fn with_ivars(map: Map) -> Map {
    let mut out = Map::new();
    for (k, v) in map {
        if k.as_str() == Some("elements") {
            if let Kind::Map(m) = v.kind {
                for (k, v) in *m {
                    out.insert(k, v);
                }
            }
        }
    }
    out
}

/// `!!str` on a mapping: its last `str` value; without one, nil when it is empty, else
/// Ruby's error for instance variables set on `nil`.
pub(super) fn str_object(map: Map) -> Result<Option<Node>, Fault> {
    let empty = map.is_empty();
    let value = map
        .into_iter()
        .filter(|(k, _)| k.as_str() == Some("str"))
        .map(|(_, v)| v)
        .next_back();
    match value {
        Some(v) => Ok(Some(v)),
        None if empty => Ok(None),
        None => Err(Fault::Raised("can't modify frozen NilClass: nil".into())),
    }
}

/// A `<<` value as `revive_hash` merges it: a mapping (written or an alias), or a written
/// list of mappings (earlier ones win); `Err` gives the value back when it is kept as the
/// key `<<` instead (Ruby's `merge!` raised a `TypeError`).
pub(super) fn merge_sources(value: Node, aliased: bool) -> Result<Map, Node> {
    match value.kind {
        Kind::Map(m) => Ok(*m),
        Kind::List(ref items)
            if !aliased && items.iter().all(|i| matches!(i.kind, Kind::Map(_))) =>
        {
            let mut merged = Map::new();
            for item in items.iter().rev() {
                if let Kind::Map(m) = &item.kind {
                    for (k, v) in m.iter() {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
            Ok(merged)
        }
        _ => Err(value),
    }
}

impl Composer<'_, '_> {
    /// A scalar event as Psych builds it; a Symbol is its name, noted by span.
    pub(super) fn psych_scalar(
        &mut self,
        text: &str,
        plain: bool,
        tag: Option<&str>,
        in_key: bool,
        span: Span,
    ) -> (Kind, Special) {
        let Some(options) = self.opts().dialect.psych.as_ref() else {
            return (Kind::Str(text.into()), Special::None);
        };
        match scalar(text, plain, tag, options.symbols) {
            Ok(Token::Value(kind)) => {
                let special = if in_key && is_merge_key(&kind, tag) {
                    Special::Merge
                } else {
                    Special::None
                };
                (kind, special)
            }
            Ok(Token::Symbol(name)) => {
                options.noted.note(span, Refusal::Symbol);
                (Kind::Str(name.into()), Special::None)
            }
            Err(fault) => {
                self.defer_psych(&fault, span);
                (Kind::Null, Special::None)
            }
        }
    }

    /// Keeps the document's first error: what Psych raises, and what Puppet then does.
    pub(super) fn defer_psych(&mut self, fault: &Fault, span: Span) {
        if self.deferred.is_some() {
            return;
        }
        let hint = match fault {
            Fault::Disallowed(c) if c == "Date" || c == "Time" => {
                "Psych builds a Date or a Time from an unquoted date or timestamp, which Puppet does not permit: quote it ('2025-06-01') to keep the text"
            }
            Fault::Disallowed(c) if c == "Symbol" => {
                "Puppet reads a facts file without Symbols: quote the value (':name' as a string)"
            }
            Fault::Disallowed(_) => {
                "Puppet's safe_load permits only plain data (and Symbols in Hiera data): remove the tag"
            }
            Fault::Raised(_) => "Psych cannot build this value: quote it to keep the text",
        };
        let message = format!(
            "Unable to parse: {} (Puppet reads YAML with Ruby's Psych, whose safe_load raises this: every lookup that reads the file fails)",
            fault.message()
        );
        self.deferred = Some(Error::new(ErrorKind::Parse, message).at(span).hint(hint));
    }

    /// A mapping's pairs from `from` on, as Psych's `revive_hash` builds them, and what its
    /// tag makes of them.
    pub(super) fn psych_map(
        &mut self,
        from: usize,
        merge_at: Vec<(usize, bool)>,
        kind: MapKind,
        span: Span,
    ) -> Node {
        let (map, lost) = self.revive_hash(from, merge_at);
        if let (Some(key), Some(options)) = (lost, self.opts().dialect.psych.as_ref()) {
            options.noted.note(span, Refusal::BooleanKey { key });
        }
        match kind {
            MapKind::WithIvars => Node::map(with_ivars(map), span),
            MapKind::StrObject => match str_object(map) {
                Ok(Some(node)) => node,
                Ok(None) => Node::null(span),
                Err(fault) => {
                    self.defer_psych(&fault, span);
                    Node::null(span)
                }
            },
            _ => Node::map(map, span),
        }
    }

    /// `revive_hash`: pairs in order, a later key replacing an earlier one's value at its
    /// place, `<<` pairs merged where they stand. A key written twice is warned of. Also
    /// gives a Boolean key the map merged into an equal number key (Ruby keeps both).
    fn revive_hash(&mut self, from: usize, merge_at: Vec<(usize, bool)>) -> (Map, Option<Span>) {
        let count = self.pairs.len().saturating_sub(from);
        let mut map = Map::with_capacity(count);
        // Keys written (not merged), to tell a repeated key from a merged one.
        let mut own = (!merge_at.is_empty()).then(Map::new);
        let mut merges = merge_at.into_iter().peekable();
        let mut repeated = Vec::new();
        let mut lost = None;
        for (i, (k, v)) in self.pairs.drain(from..).enumerate() {
            if let Some((_, aliased)) = merges.next_if(|&(at, _)| at == i) {
                match merge_sources(v, aliased) {
                    Ok(sources) => {
                        for (mk, mv) in sources {
                            map.insert(mk, mv);
                        }
                    }
                    Err(v) => {
                        map.insert(Key(k), v);
                    }
                }
                continue;
            }
            if matches!(k.kind, Kind::Bool(_)) && lost.is_none() {
                let kept = map
                    .get_index_of(&Key(k.clone()))
                    .and_then(|i| map.get_index(i));
                if kept.is_some_and(|(kept, _)| !matches!(kept.0.kind, Kind::Bool(_))) {
                    lost = Some(k.span);
                }
            }
            match own.as_mut() {
                Some(own) => {
                    if own.insert(Key(k.clone()), Node::null(Span::NONE)).is_some() {
                        repeated.push(k.clone());
                    }
                    map.insert(Key(k), v);
                }
                None => {
                    if let Some(Key(k)) = map.insert_or_return(Key(k), v) {
                        repeated.push(k);
                    }
                }
            }
        }
        for k in repeated {
            self.warnings.push(Warning::new(
                WarnKind::DuplicateKey,
                format!(
                    "duplicate key {}: the later value wins (Psych keeps the last one)",
                    describe_key(&k)
                ),
                k.span,
            ));
        }
        (map, lost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_as_psych_reads_them() {
        let s = |text, tag| format!("{:?}", scalar(text, false, Some(tag), true));
        assert_eq!(s("12", "tag:yaml.org,2002:int"), "Ok(Value(Int(12)))");
        assert_eq!(s("12", "tag:yaml.org,2002:str"), "Ok(Value(Str(\"12\")))");
        assert_eq!(s("foo", "!Ref"), "Ok(Value(Str(\"foo\")))");
        assert_eq!(s("1", "tag:yaml.org,2002:float"), "Ok(Value(Float(1.0)))");
        assert_eq!(s("foo", "!ruby/sym"), "Ok(Symbol(\"foo\"))");
        assert_eq!(s("/a/", "!ruby/regexp"), "Err(Disallowed(\"Regexp\"))");
        assert_eq!(s("x", "!ruby/string:String"), "Err(Disallowed(\"String\"))");
        assert_eq!(
            format!("{:?}", scalar("'12'", false, None, true)),
            "Ok(Value(Str(\"'12'\")))"
        );
        assert_eq!(
            mapping(Some(SET)),
            Err(Fault::Disallowed("Psych::Set".into()))
        );
        assert_eq!(
            mapping(Some("!ruby/object")),
            Err(Fault::Disallowed("Object".into()))
        );
        assert_eq!(mapping(Some("!ruby/object:Hash")), Ok(Mapping::Map));
        assert_eq!(mapping(Some("!foo")), Ok(Mapping::Map));
        assert_eq!(sequence(Some(OMAP)), Ok(Seq::Omap));
        assert_eq!(sequence(Some(SET)), Ok(Seq::List));
    }
}
