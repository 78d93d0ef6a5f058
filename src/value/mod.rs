//! The value tree every loader produces and every merger consumes: `Node { kind, span }`.
//!
//! Maps keep insertion order and look keys up with Python's equality (`1 == 1.0 == True`, the
//! first-inserted key object is kept), because every system strata imitates reads YAML into
//! Python-like dictionaries. `PartialEq` on `Node` is structural, typed and span-blind.

#![warn(missing_docs)]

pub mod dpath;
mod key;
mod map;
mod path;
pub mod py;
pub(crate) mod ruby;
mod span;
pub mod style;
mod text;

pub use key::{float_text, key_cow, key_text};
pub use map::{Lookup, Map};
pub use path::{Path, Seg};
pub use span::{push_int, Location, Reload, Source, SourceId, SourceMap, Span};
pub use text::{Str, Thin};

/// A list's items: one block holding length, capacity and nodes, behind one thin pointer.
pub type List = thin_vec::ThinVec<Node>;

use std::hash::{Hash, Hasher};

/// One value and where it was written.
#[derive(Clone, Debug)]
pub struct Node {
    /// The value.
    pub kind: Kind,
    /// Where it is written (`Span::NONE`: made by strata, not read).
    pub span: Span,
}

/// The value itself. Timestamps keep their text but stay distinct from strings, so they are
/// written back unquoted and dispatch like Python's `date` (not like `str`). `Bytes`, `Set`
/// and `Tuple` are what PyYAML builds for `!!binary`, `!!set` and the pairs of `!!omap` /
/// `!!pairs` (a list of two-item tuples).
#[derive(Clone, Debug)]
pub enum Kind {
    /// `null`, `~`, empty.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer outside `i64`, as canonical decimal digits (with a leading `-` if negative).
    BigInt(Thin),
    /// A float.
    Float(f64),
    /// A string.
    Str(Str),
    /// A timestamp (or date), as its text.
    Timestamp(Thin),
    /// `!!binary` bytes.
    Bytes(thin_vec::ThinVec<u8>),
    /// A list.
    List(List),
    /// A map, keys in order.
    Map(Box<Map>),
    /// A set: its members are the keys (the values are nulls).
    Set(Box<Map>),
    /// A Python tuple: an item of an `!!omap` / `!!pairs` list, `(key, value)`.
    Tuple(List),
}

// Every kind's payload is one word (or a `Str`, whose length byte also holds the kind) and a
// span is two offsets, so a node is 24 bytes: W1's two trees are 1.2 million nodes each
// (docs/PERF.md, "Memory").
const _: () = assert!(std::mem::size_of::<Node>() == 24);

impl Node {
    /// A node of `kind` written at `span`.
    pub fn new(kind: Kind, span: Span) -> Node {
        Node { kind, span }
    }
    /// A null at `span`.
    pub fn null(span: Span) -> Node {
        Node::new(Kind::Null, span)
    }
    /// A string at `span`.
    pub fn str(s: impl Into<Str>, span: Span) -> Node {
        Node::new(Kind::Str(s.into()), span)
    }
    /// A list at `span`.
    pub fn list(items: impl Into<List>, span: Span) -> Node {
        Node::new(Kind::List(items.into()), span)
    }
    /// A map at `span`.
    pub fn map(map: Map, span: Span) -> Node {
        Node::new(Kind::Map(Box::new(map)), span)
    }
    /// An empty map at `span`.
    pub fn empty_map(span: Span) -> Node {
        Node::map(Map::default(), span)
    }

    /// Python's class name for the value, as cloud-init's dispatcher sees it.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "bool",
            Kind::Int(_) | Kind::BigInt(_) => "int",
            Kind::Float(_) => "float",
            Kind::Str(_) => "str",
            Kind::Timestamp(_) => "timestamp",
            Kind::Bytes(_) => "bytes",
            Kind::List(_) => "list",
            Kind::Map(_) => "map",
            Kind::Set(_) => "set",
            Kind::Tuple(_) => "tuple",
        }
    }

    /// Python's name for the value's type, for messages that quote Python's errors.
    pub fn py_type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "NoneType",
            Kind::Map(_) => "dict",
            Kind::Timestamp(_) => "datetime.date",
            _ => self.type_name(),
        }
    }

    /// The type in words with its article, for messages: "an integer", "a mapping", "null".
    pub fn kind_phrase(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) | Kind::BigInt(_) => "an integer",
            Kind::Float(_) => "a float",
            Kind::Str(_) => "a string",
            Kind::Timestamp(_) => "a timestamp",
            Kind::Bytes(_) => "binary data",
            Kind::List(_) => "a list",
            Kind::Map(_) => "a mapping",
            Kind::Set(_) => "a set",
            Kind::Tuple(_) => "a pair",
        }
    }

    /// Whether it is null.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }
    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The text of a string, a timestamp or a big integer (the kinds that keep text).
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            Kind::Timestamp(s) | Kind::BigInt(s) => Some(s),
            _ => None,
        }
    }
    /// The entries of a map.
    pub fn as_map(&self) -> Option<&Map> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }
    /// The entries of a map, to change.
    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match &mut self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }
    /// The items of a list.
    pub fn as_list(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::List(l) => Some(l),
            _ => None,
        }
    }
    /// Not a collection (a list, mapping, set or tuple).
    pub fn is_scalar(&self) -> bool {
        !matches!(
            self.kind,
            Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_)
        )
    }

    /// Looks up a string key in a map value.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?.get_str(key)
    }

    /// Takes the value out, leaving a null with the same span (for merging without clones).
    pub fn take(&mut self) -> Node {
        std::mem::replace(self, Node::null(self.span))
    }

    /// Python's `==`: numbers compare by value across bool / int / float; containers deeply.
    pub fn py_eq(&self, other: &Node) -> bool {
        use Kind::*;
        match (&self.kind, &other.kind) {
            // The common case (string map keys), without the numeric checks.
            (Str(a), Str(b)) => a == b,
            (Str(_), Int(_) | Float(_) | Bool(_) | Null) => false,
            (List(a), List(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.py_eq(y))
            }
            (Map(a), Map(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v.py_eq(w)))
            }
            (Set(a), Set(b)) => a.len() == b.len() && a.keys().all(|k| b.contains_key(k)),
            (Tuple(a), Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.py_eq(y))
            }
            _ => match (self.number(), other.number()) {
                (Some(x), Some(y)) => x == y,
                (None, None) => self == other,
                _ => false,
            },
        }
    }

    /// Equality of dict keys: Python's `==`, except that NaN keys are one key. PyYAML builds
    /// every `.nan` as the same float object, and a dict finds a key by identity before
    /// equality, so `{.nan: 1, .NaN: 2}` is one entry (also across layers merged in one
    /// process). Tuples compare their items the same way.
    pub fn key_eq(&self, other: &Node) -> bool {
        match (&self.kind, &other.kind) {
            // The common case first (string keys), as in `py_eq`.
            (Kind::Str(a), Kind::Str(b)) => a == b,
            (Kind::Float(a), Kind::Float(b)) if a.is_nan() => b.is_nan(),
            (Kind::Tuple(a), Kind::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.key_eq(y))
            }
            _ => self.py_eq(other),
        }
    }

    /// Numeric value of bool / int / float, for Python-style comparisons.
    fn number(&self) -> Option<Num> {
        match &self.kind {
            Kind::Bool(b) => Some(Num::Int(i64::from(*b))),
            Kind::Int(i) => Some(Num::Int(*i)),
            Kind::Float(f) => Some(Num::Float(*f)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        match (*self, *other) {
            (Num::Int(a), Num::Int(b)) => a == b,
            (Num::Float(a), Num::Float(b)) => a == b,
            // i64 -> f64 may round; compare exactly as Python does.
            (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
                f.fract() == 0.0
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
                    && f as i64 == i
            }
        }
    }
}

/// Typed, span-blind structural equality (`1 != 1.0 != true`; NaN equals NaN).
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        use Kind::*;
        match (&self.kind, &other.kind) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (Str(a), Str(b)) => a == b,
            (BigInt(a), BigInt(b)) | (Timestamp(a), Timestamp(b)) => a == b,
            (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Bytes(a), Bytes(b)) => a == b,
            (List(a), List(b)) | (Tuple(a), Tuple(b)) => a == b,
            (Set(a), Set(b)) => a.len() == b.len() && a.keys().all(|k| b.contains_key(k)),
            (Map(a), Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((ka, va), (kb, vb))| ka.0 == kb.0 && va == vb)
            }
            _ => false,
        }
    }
}

/// A map key: a scalar node hashed and compared the way Python compares dict keys.
#[derive(Clone, Debug)]
pub struct Key(pub Node);

impl Key {
    /// A string key made by strata (no span).
    pub fn str(s: &str) -> Key {
        Key(Node::str(s, Span::NONE))
    }
    /// The text of a string key.
    pub fn as_str(&self) -> Option<&str> {
        self.0.as_str()
    }
    /// Where the key is written.
    pub fn span(&self) -> Span {
        self.0.span
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.0.key_eq(&other.0)
    }
}
impl Eq for Key {}

/// A borrowed key: looks a node up in a [`Map`] as `Key` would, without cloning it into one.
pub struct KeyRef<'a>(pub &'a Node);

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_key(self.0, h);
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_key(&self.0, h);
    }
}

/// Python's dict-key hashing: numbers equal across bool / int / float hash alike; every NaN
/// alike (NaN keys are one key, `Node::key_eq`).
fn hash_key<H: Hasher>(node: &Node, h: &mut H) {
    match &node.kind {
        Kind::Str(s) => {
            h.write_u8(0);
            s.hash(h);
        }
        Kind::Bool(b) => {
            h.write_u8(1);
            h.write_i64(i64::from(*b));
        }
        Kind::Int(i) => {
            h.write_u8(1);
            h.write_i64(*i);
        }
        Kind::Float(f) => {
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                h.write_u8(1);
                h.write_i64(*f as i64);
            } else if f.is_nan() {
                h.write_u8(2);
                h.write_u64(f64::NAN.to_bits());
            } else {
                h.write_u8(2);
                h.write_u64(f.to_bits());
            }
        }
        Kind::Null => h.write_u8(3),
        Kind::BigInt(s) | Kind::Timestamp(s) => {
            h.write_u8(4);
            s.hash(h);
        }
        Kind::Bytes(b) => {
            h.write_u8(5);
            h.write(b);
        }
        Kind::Tuple(items) => {
            h.write_u8(6);
            items.iter().for_each(|i| hash_key(i, h));
        }
        // Unhashable in Python; loaders reject them as keys. Hash by length only.
        Kind::List(l) => h.write_usize(l.len()),
        Kind::Map(m) | Kind::Set(m) => h.write_usize(m.len()),
    }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The six bits a character of the standard base64 alphabet stands for (`None`: not one).
pub fn base64_sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Standard base64 with padding, on one line.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= n {
                out.push(BASE64[((v >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
