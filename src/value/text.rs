//! The value tree's strings, sized so a `Node` is 24 bytes: `Str` keeps up to 15 bytes inline
//! (most keys and many values in configuration files) and longer text behind one thin pointer;
//! `Thin` is that pointer (8 bytes: one block holding length, capacity and bytes), also used
//! alone by the rarer string-carrying kinds. Both read as `&str`.
//!
//! Reading the bytes back as `&str` is the crate's one kind of `unsafe`: they are only ever
//! copied from whole `&str`s, and checking them again on every read cost 11 % of W1's
//! instructions (docs/PERF.md, "Memory").

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use thin_vec::ThinVec;

/// Bytes a `Str` holds without allocating.
pub(super) const INLINE: usize = 15;

/// A string behind one thin pointer. Invariant: the bytes are UTF-8 (only `&str`s go in).
#[derive(Clone, PartialEq, Eq)]
pub struct Thin(ThinVec<u8>);

/// An immutable string of the value tree: inline up to [`INLINE`] bytes, else a [`Thin`].
#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    Inline(Len, [u8; INLINE]),
    Heap(Thin),
}

/// The length of an inline string. An enum, not a `u8`, so its unused values leave room for
/// the discriminants of `Repr` and of `Kind` in the same byte (`Node` stays 32 bytes).
#[derive(Clone, Copy)]
#[repr(u8)]
enum Len {
    L0,
    L1,
    L2,
    L3,
    L4,
    L5,
    L6,
    L7,
    L8,
    L9,
    L10,
    L11,
    L12,
    L13,
    L14,
    L15,
}

const LENS: [Len; INLINE + 1] = [
    Len::L0,
    Len::L1,
    Len::L2,
    Len::L3,
    Len::L4,
    Len::L5,
    Len::L6,
    Len::L7,
    Len::L8,
    Len::L9,
    Len::L10,
    Len::L11,
    Len::L12,
    Len::L13,
    Len::L14,
    Len::L15,
];

const _: () = assert!(std::mem::size_of::<Str>() == 16);
const _: () = assert!(std::mem::size_of::<Thin>() == 8);

impl Thin {
    /// A copy of `s`.
    pub fn new(s: &str) -> Thin {
        // Zeroed, then copied in one `memcpy`: thin-vec's `extend_from_slice` pushes a byte
        // at a time, storing the length after each, and whether the compiler turns that into
        // a copy depends on how it inlined it (W2: 18 M or 125 M instructions, docs/PERF.md
        // stop 35); a store of zeros costs less when it is not turned into a `memset`.
        let mut bytes = ThinVec::with_capacity(s.len());
        bytes.resize(s.len(), 0);
        bytes.copy_from_slice(s.as_bytes());
        Thin(bytes)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        debug_assert!(std::str::from_utf8(&self.0).is_ok());
        // SAFETY: the bytes were copied from `&str`s whole (`new`, `push_str`), never changed.
        #[allow(unsafe_code)]
        unsafe {
            std::str::from_utf8_unchecked(&self.0)
        }
    }

    /// Appends text in place; the block grows by doubling, so repeated appends stay linear.
    pub fn push_str(&mut self, tail: &str) {
        self.0.extend_from_slice(tail.as_bytes());
    }
}

impl Str {
    /// A copy of `s`.
    pub fn new(s: &str) -> Str {
        match LENS.get(s.len()) {
            Some(&len) => {
                let mut buf = [0u8; INLINE];
                buf[..s.len()].copy_from_slice(s.as_bytes());
                Str(Repr::Inline(len, buf))
            }
            None => Str(Repr::Heap(Thin::new(s))),
        }
    }

    /// Appends text in place (a long string's block grows by doubling: repeated appends, as
    /// `str(append)` does part after part, stay linear).
    pub fn push_str(&mut self, tail: &str) {
        match &mut self.0 {
            Repr::Heap(t) => t.push_str(tail),
            Repr::Inline(..) => {
                let mut t = Thin::new(self);
                t.push_str(tail);
                *self = if t.len() <= INLINE {
                    Str::new(&t)
                } else {
                    Str(Repr::Heap(t))
                };
            }
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline(len, buf) => {
                let bytes = &buf[..*len as usize];
                debug_assert!(std::str::from_utf8(bytes).is_ok());
                // SAFETY: an inline `Str` is only built by `Str::new`, which copies a whole
                // `&str` (valid UTF-8, `len` bytes) into `buf`; the bytes are never changed.
                #[allow(unsafe_code)]
                unsafe {
                    std::str::from_utf8_unchecked(bytes)
                }
            }
            Repr::Heap(t) => t,
        }
    }
}

impl Deref for Thin {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Thin {
    fn from(s: &str) -> Thin {
        Thin::new(s)
    }
}

impl From<String> for Thin {
    fn from(s: String) -> Thin {
        Thin::new(&s)
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::new(&s)
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

/// Hashes as the `str` it holds, so inline and heap forms of one text hash alike.
impl Hash for Str {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl Hash for Thin {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (**self).hash(h);
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Thin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for Thin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_heap_read_back_and_compare_alike() {
        for s in [
            "",
            "a",
            "exactly15bytes!",
            "sixteen bytes!!!",
            "ünïcödé ključ",
            "x".repeat(100).as_str(),
        ] {
            let a = Str::new(s);
            let b: Str = s.to_string().into();
            assert_eq!(&*a, s);
            assert_eq!(a, b);
            let hash = |v: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                v(&mut h);
                h.finish()
            };
            assert_eq!(hash(&|h| a.hash(h)), hash(&|h| s.hash(h)));
        }
        assert!(matches!(Str::new("exactly15bytes!").0, Repr::Inline(..)));
        assert!(matches!(Str::new("sixteen bytes!!!").0, Repr::Heap(_)));
    }
}
