//! The index of a Hiera data file as the `Files` store keeps it (`slice` decides what goes in
//! it): a header — magic and format version, the stamp of the bytes and loading rules, the
//! text's length, a hash of everything after it, the record count, the whole file's sequence
//! layout, the file's identity (zeros: none) and a hash of the loading rules alone — then one
//! 16-byte record per top-level key, sorted: the key's hash, its entry's start and end. Keys
//! are filed by hash, so an index holds no key text; two keys sharing a hash make the lookup
//! parse the file whole.

use std::hash::Hasher;

/// The first bytes of an index (its format's version is the last digit).
const MAGIC: &[u8; 20] = b"strata-hiera-index4\n";
/// Where the header's fields are: stamp, text length, hash of the rest (from the count on),
/// record count, how block sequences are indented (0 unknown, 1 not, 2 indented), the
/// file's identity when the index was made (`Files::identity`; zeros: none).
const STAMP_AT: usize = MAGIC.len();
const LEN_AT: usize = STAMP_AT + 8;
const SUM_AT: usize = LEN_AT + 8;
const COUNT_AT: usize = SUM_AT + 8;
const SEQ_AT: usize = COUNT_AT + 4;
const IDENT_AT: usize = SEQ_AT + 1;
/// A hash of the loading rules alone (`stamp` of no bytes), checked with the identity.
const RULES_AT: usize = IDENT_AT + 40;
/// Bytes before the records.
const HEAD: usize = RULES_AT + 8;
/// One record: the key's hash, its entry's start and end in the text.
const RECORD: usize = 16;

/// The index bytes for `entries` (key, entry start, entry end) of a text of `len` bytes.
pub fn encode(
    entries: &[(&str, u32, u32)],
    (stamp, rules): (u64, u64),
    len: usize,
    seq_indent: Option<bool>,
) -> Option<Vec<u8>> {
    let mut records: Vec<(u64, u32, u32)> = entries
        .iter()
        .map(|(name, start, end)| (key_hash(name), *start, *end))
        .collect();
    records.sort_unstable();
    let mut out = Vec::with_capacity(HEAD + records.len() * RECORD);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&stamp.to_le_bytes());
    out.extend_from_slice(&(len as u64).to_le_bytes());
    out.extend_from_slice(&[0; 8]); // the hash of what follows, below
    out.extend_from_slice(&u32::try_from(records.len()).ok()?.to_le_bytes());
    out.push(match seq_indent {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    });
    out.extend_from_slice(&[0; 40]);
    out.extend_from_slice(&rules.to_le_bytes());
    for (hash, start, end) in &records {
        out.extend_from_slice(&hash.to_le_bytes());
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&end.to_le_bytes());
    }
    let sum = checksum(&out[COUNT_AT..]);
    out[SUM_AT..COUNT_AT].copy_from_slice(&sum.to_le_bytes());
    Some(out)
}

/// Records in an index the identity the file had before it was read and still has after it
/// was parsed: the index can then be trusted from the identity alone (`Index::trusted`).
pub fn set_identity(index: &mut [u8], identity: [u64; 5]) {
    if index.len() < HEAD {
        return;
    }
    for (i, n) in identity.iter().enumerate() {
        index[IDENT_AT + i * 8..IDENT_AT + i * 8 + 8].copy_from_slice(&n.to_le_bytes());
    }
    let sum = checksum(&index[COUNT_AT..]);
    index[SUM_AT..COUNT_AT].copy_from_slice(&sum.to_le_bytes());
}

/// A hash of an index's records and keys: a damaged index is refused as a whole.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.write_usize(bytes.len());
    h.finish()
}

/// An index checked against the text it is for.
pub struct Index {
    bytes: Vec<u8>,
    count: usize,
}

impl Index {
    /// The index in `bytes` if it was made for a text of this `len` with this `stamp` and
    /// is whole (its hash matches); anything else: `None` (the file is parsed whole).
    pub fn read(bytes: Vec<u8>, stamp: u64, len: usize) -> Option<Index> {
        let head = bytes.get(..HEAD)?;
        if word(head, STAMP_AT, 8) != stamp || word(head, LEN_AT, 8) != len as u64 {
            return None;
        }
        Index::whole(bytes)
    }

    /// The index in `bytes` if it was made for the file with this identity (the file is not
    /// read: its identity says its bytes are those the index was made for).
    pub fn trusted(bytes: Vec<u8>, identity: [u64; 5], rules: u64) -> Option<Index> {
        let head = bytes.get(..HEAD)?;
        let kept: Vec<u64> = (0..5).map(|i| word(head, IDENT_AT + i * 8, 8)).collect();
        if kept != identity
            || identity[0] != word(head, LEN_AT, 8)
            || word(head, RULES_AT, 8) != rules
        {
            return None;
        }
        Index::whole(bytes)
    }

    /// Whether the index records the file's identity.
    pub fn has_identity(&self) -> bool {
        self.bytes[IDENT_AT..IDENT_AT + 40].iter().any(|&b| b != 0)
    }

    /// The index's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes as an index, if they are one and whole (the hash matches).
    fn whole(bytes: Vec<u8>) -> Option<Index> {
        let head = bytes.get(..HEAD)?;
        if &head[..MAGIC.len()] != MAGIC || word(head, SUM_AT, 8) != checksum(&bytes[COUNT_AT..]) {
            return None;
        }
        let count = usize::try_from(word(head, COUNT_AT, 4)).ok()?;
        let size = HEAD.checked_add(count.checked_mul(RECORD)?)?;
        (bytes.len() == size).then_some(Index { bytes, count })
    }

    /// The length of the text the index was made for.
    pub fn text_len(&self) -> usize {
        usize::try_from(word(&self.bytes, LEN_AT, 8)).unwrap_or(usize::MAX)
    }

    /// Record `i`: key hash, entry start, entry end.
    fn record(&self, i: usize) -> (u64, usize, usize) {
        let at = HEAD + i * RECORD;
        let b = &self.bytes[at..at + RECORD];
        let n =
            |r: std::ops::Range<usize>| b[r].iter().rev().fold(0u64, |a, &x| a << 8 | u64::from(x));
        (n(0..8), n(8..12) as usize, n(12..16) as usize)
    }

    /// Whether the whole text indents block sequences under keys (`None`: it has none).
    pub fn seq_indent(&self) -> Option<bool> {
        match self.bytes[SEQ_AT] {
            1 => Some(false),
            2 => Some(true),
            _ => None,
        }
    }

    /// The range of the text's last entry (the one that holds its closing comments).
    pub fn last(&self) -> Option<(usize, usize)> {
        let i = (0..self.count).max_by_key(|&i| self.record(i).1)?;
        let (_, start, end) = self.record(i);
        Some((start, end))
    }

    /// Where `key`'s entry is.
    pub fn find(&self, key: &str) -> Found {
        let hash = key_hash(key);
        let first = {
            let (mut lo, mut hi) = (0, self.count);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.record(mid).0 < hash {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let same = |i: usize| i < self.count && self.record(i).0 == hash;
        match (same(first), same(first + 1)) {
            (false, _) => Found::Missing,
            (true, false) => {
                let (_, start, end) = self.record(first);
                Found::At(start, end)
            }
            (true, true) => Found::Unsure,
        }
    }
}

/// The little-endian number of `n` bytes at `at` (the caller checked the length).
fn word(bytes: &[u8], at: usize, n: usize) -> u64 {
    bytes[at..at + n]
        .iter()
        .rev()
        .fold(0u64, |acc, &x| acc << 8 | u64::from(x))
}

/// What an index says of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The text has no such top-level key.
    Missing,
    /// The key's entry, if any, is this range (the entry read alone says whether it is).
    At(usize, usize),
    /// Two keys of the text share the hash: parse the text whole.
    Unsure,
}

/// The hash a key is filed under.
fn key_hash(key: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(key.as_bytes());
    h.write_usize(key.len());
    h.finish()
}
