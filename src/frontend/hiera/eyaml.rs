//! hiera-eyaml values (`lookup_key: eyaml_lookup_key`): finding `ENC[...]` tokens in a string
//! as hiera-eyaml 3.3.0's Hiera parser finds them, and decrypting its PKCS7 blocks — CMS /
//! PKCS#7 EnvelopedData, RSA PKCS#1 v1.5 key transport, AES-CBC content (what
//! `OpenSSL::PKCS7::encrypt` writes for `eyaml encrypt`) — in pure Rust. Nothing here reads a
//! file or prints: the private key's PEM text is given, and errors never hold plaintext.

use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey};
use std::ops::Range;

/// Why a value could not be decrypted (never holds any plaintext).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EyamlError {
    #[error("Could not parse the PKCS7: {0}")]
    Parse(String),
    #[error("unsupported hiera-eyaml encryption method {0}: strata decrypts PKCS7 only (hiera-eyaml: cannot load such file -- hiera/backend/eyaml/encryptors/{1})")]
    Method(String, String),
    #[error("{0}")]
    Unsupported(String),
    #[error("the private key does not decrypt this value (bad decrypt: the value was encrypted for another key, or is damaged)")]
    BadDecrypt,
    #[error("the decrypted value is not UTF-8 text")]
    NotText,
    #[error("cannot read the private key: {0}")]
    Key(String),
}

/// One `ENC[...]` token of a string: its bytes in the string, the scheme (`PKCS7` when none
/// is written) and the base64 text with whitespace removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub range: Range<usize>,
    pub scheme: String,
    pub base64: String,
}

/// Puppet's `encrypted?`: `/.*ENC\[.*?\]/`, an `ENC[` and a later `]` on one line.
pub fn is_encrypted(s: &str) -> bool {
    s.split('\n').any(|line| {
        line.find("ENC[")
            .is_some_and(|i| line[i + 4..].contains(']'))
    })
}

/// The tokens hiera-eyaml's Hiera parser finds, leftmost first: `ENC\[(\w+,)?([a-zA-Z0-9+/
/// =\n]+?)\]` (Ruby's `\w` on ASCII), then, with every whitespace removed,
/// `ENC\[(\w+,)?([a-zA-Z0-9+/=]+?)\]` (which always matches what the first matched).
pub fn tokens(s: &str) -> Vec<Token> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = s[from..].find("ENC[").map(|i| i + from) {
        match token_at(b, i) {
            Some(t) => {
                from = t.range.end;
                out.push(t);
            }
            None => from = i + 1,
        }
    }
    out
}

fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn body(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b' ' | b'=' | b'\n')
}

/// A token starting at `i` (at `ENC[`), as the regex would match there.
fn token_at(b: &[u8], i: usize) -> Option<Token> {
    let start = i + 4;
    // `(\w+,)?`: taken when word characters then a comma follow and the rest matches.
    let w = b[start..].iter().take_while(|&&c| word(c)).count();
    let mut tries = Vec::with_capacity(2);
    if w > 0 && b.get(start + w) == Some(&b',') {
        tries.push((Some(start..start + w), start + w + 1));
    }
    tries.push((None, start));
    for (scheme, at) in tries {
        let n = b[at..].iter().take_while(|&&c| body(c)).count();
        if n > 0 && b.get(at + n) == Some(&b']') {
            let scheme = scheme.map_or_else(
                || "PKCS7".to_string(),
                |r| String::from_utf8_lossy(&b[r]).into_owned(),
            );
            let base64 = b[at..at + n]
                .iter()
                .filter(|c| !c.is_ascii_whitespace())
                .map(|&c| char::from(c))
                .collect();
            return Some(Token {
                range: i..at + n + 1,
                scheme,
                base64,
            });
        }
    }
    None
}

/// A private key as `OpenSSL::PKey::RSA.new` reads it: PEM, PKCS#1 (`eyaml createkeys`) or
/// PKCS#8, unencrypted.
pub struct PrivateKey(RsaPrivateKey);

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PrivateKey(..)")
    }
}

impl PrivateKey {
    pub fn from_pem(text: &str) -> Result<PrivateKey, EyamlError> {
        let text = text.trim_start_matches('\u{feff}');
        if text.contains("ENCRYPTED") {
            return Err(EyamlError::Key(
                "the key is protected by a passphrase, which strata cannot ask for".into(),
            ));
        }
        RsaPrivateKey::from_pkcs1_pem(text)
            .or_else(|_| RsaPrivateKey::from_pkcs8_pem(text))
            .map(PrivateKey)
            .map_err(|_| {
                EyamlError::Key("not an RSA private key in PEM form (BEGIN RSA PRIVATE KEY or BEGIN PRIVATE KEY)".into())
            })
    }
}

/// Ruby's `Base64.decode64`: characters outside the alphabet skipped, padding optional, a
/// lone last character dropped.
fn decode64(text: &str) -> Vec<u8> {
    let mut s: String = text
        .split('=')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '+' || *c == '/')
        .collect();
    if s.len() % 4 == 1 {
        s.pop();
    }
    let engine = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    engine.decode(s.as_bytes()).unwrap_or_default()
}

/// Decrypts one token's text with `key`.
pub fn decrypt_token(t: &Token, key: &PrivateKey) -> Result<String, EyamlError> {
    if !t.scheme.eq_ignore_ascii_case("PKCS7") {
        return Err(EyamlError::Method(
            t.scheme.clone(),
            t.scheme.to_ascii_lowercase(),
        ));
    }
    let plain = decrypt_der(&decode64(&t.base64), key)?;
    String::from_utf8(plain).map_err(|_| EyamlError::NotText)
}

/// The scheme of every token of `s` is one strata can decrypt (checked before a key is read).
pub fn check_schemes(s: &str) -> Result<(), EyamlError> {
    for t in tokens(s) {
        if !t.scheme.eq_ignore_ascii_case("PKCS7") {
            return Err(EyamlError::Method(
                t.scheme.clone(),
                t.scheme.to_ascii_lowercase(),
            ));
        }
    }
    Ok(())
}

/// The string with each token replaced by its plaintext, then chomped (one final `\n`,
/// `\r\n` or `\r` removed), as `tokens.map(&:to_plain_text).join.chomp`; and each token's
/// plaintext.
pub fn decrypt_string(s: &str, key: &PrivateKey) -> Result<(String, Vec<String>), EyamlError> {
    let mut out = String::with_capacity(s.len());
    let mut parts = Vec::new();
    let mut last = 0;
    for t in tokens(s) {
        out.push_str(&s[last..t.range.start]);
        let p = decrypt_token(&t, key)?;
        out.push_str(&p);
        parts.push(p);
        last = t.range.end;
    }
    out.push_str(&s[last..]);
    Ok((chomp(out), parts))
}

/// Ruby's `String#chomp`: one final `\r\n`, `\n` or `\r` removed.
pub fn chomp(mut s: String) -> String {
    if s.ends_with("\r\n") {
        s.truncate(s.len() - 2);
    } else if s.ends_with('\n') || s.ends_with('\r') {
        s.pop();
    }
    s
}

const ENVELOPED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.3");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const AES128_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
const AES192_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.22");
const AES256_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

fn bad(what: &str) -> EyamlError {
    EyamlError::Parse(format!("not a PKCS7 EnvelopedData ({what})"))
}

fn any<'a>(r: &mut SliceReader<'a>, what: &str) -> Result<AnyRef<'a>, EyamlError> {
    AnyRef::decode(r).map_err(|_| bad(what))
}

fn reader<'a>(a: AnyRef<'a>, tag: Tag, what: &str) -> Result<SliceReader<'a>, EyamlError> {
    if a.tag() != tag {
        return Err(bad(what));
    }
    SliceReader::new(a.value()).map_err(|_| bad(what))
}

fn oid(a: AnyRef<'_>, what: &str) -> Result<ObjectIdentifier, EyamlError> {
    a.decode_as::<ObjectIdentifier>().map_err(|_| bad(what))
}

fn context(n: TagNumber, constructed: bool) -> Tag {
    Tag::ContextSpecific {
        constructed,
        number: n,
    }
}

/// Decrypts a DER `ContentInfo` holding an `EnvelopedData` with `key`.
pub fn decrypt_der(der_bytes: &[u8], key: &PrivateKey) -> Result<Vec<u8>, EyamlError> {
    if der_bytes.is_empty() {
        return Err(EyamlError::Parse("no data".into()));
    }
    let mut top = SliceReader::new(der_bytes).map_err(|_| bad("too long"))?;
    let mut ci = reader(any(&mut top, "ContentInfo")?, Tag::Sequence, "ContentInfo")?;
    if oid(any(&mut ci, "content type")?, "content type")? != ENVELOPED_DATA {
        return Err(EyamlError::Unsupported(
            "the PKCS7 is not EnvelopedData (hiera-eyaml writes enveloped data only)".into(),
        ));
    }
    let mut wrap = reader(
        any(&mut ci, "content")?,
        context(TagNumber::N0, true),
        "content",
    )?;
    let mut ed = reader(
        any(&mut wrap, "EnvelopedData")?,
        Tag::Sequence,
        "EnvelopedData",
    )?;
    let _version = any(&mut ed, "version")?;
    let mut next = any(&mut ed, "recipientInfos")?;
    if next.tag() == context(TagNumber::N0, true) {
        next = any(&mut ed, "recipientInfos")?; // CMS originatorInfo
    }
    let mut ris = reader(next, Tag::Set, "recipientInfos")?;
    let mut eci = reader(
        any(&mut ed, "encryptedContentInfo")?,
        Tag::Sequence,
        "encryptedContentInfo",
    )?;
    let _content_type = any(&mut eci, "content type")?;
    let mut alg = reader(
        any(&mut eci, "content encryption algorithm")?,
        Tag::Sequence,
        "content encryption algorithm",
    )?;
    let alg_oid = oid(any(&mut alg, "algorithm")?, "algorithm")?;
    let iv = any(&mut alg, "IV")?;
    if iv.tag() != Tag::OctetString || iv.value().len() != 16 {
        return Err(bad("IV"));
    }
    let content = any(&mut eci, "encrypted content")?;
    let ciphertext = if content.tag() == context(TagNumber::N0, false) {
        content.value().to_vec()
    } else if content.tag() == context(TagNumber::N0, true) {
        let mut parts = SliceReader::new(content.value()).map_err(|_| bad("encrypted content"))?;
        let mut all = Vec::new();
        while !parts.is_finished() {
            all.extend_from_slice(any(&mut parts, "encrypted content")?.value());
        }
        all
    } else {
        return Err(bad("encrypted content"));
    };
    // Each KeyTransRecipientInfo in turn (hiera-eyaml writes one).
    let mut cek = None;
    let mut rsa_seen = false;
    while !ris.is_finished() {
        let mut ri = reader(
            any(&mut ris, "recipientInfo")?,
            Tag::Sequence,
            "recipientInfo",
        )?;
        let _v = any(&mut ri, "recipientInfo version")?;
        let _rid = any(&mut ri, "recipient identifier")?;
        let mut kalg = reader(
            any(&mut ri, "key encryption algorithm")?,
            Tag::Sequence,
            "key encryption algorithm",
        )?;
        if oid(any(&mut kalg, "algorithm")?, "algorithm")? != RSA_ENCRYPTION {
            continue;
        }
        rsa_seen = true;
        let ek = any(&mut ri, "encrypted key")?;
        if ek.tag() != Tag::OctetString {
            return Err(bad("encrypted key"));
        }
        if let Ok(k) = key.0.decrypt(Pkcs1v15Encrypt, ek.value()) {
            cek = Some(k);
            break;
        }
    }
    if !rsa_seen {
        return Err(EyamlError::Unsupported(
            "no recipient uses RSA (PKCS#1 v1.5) key transport, the only one hiera-eyaml writes"
                .into(),
        ));
    }
    let cek = cek.ok_or(EyamlError::BadDecrypt)?;
    let iv = iv.value();
    let plain = match (alg_oid, cek.len()) {
        (AES256_CBC, 32) => cbc_decrypt::<aes::Aes256>(&cek, iv, ciphertext),
        (AES192_CBC, 24) => cbc_decrypt::<aes::Aes192>(&cek, iv, ciphertext),
        (AES128_CBC, 16) => cbc_decrypt::<aes::Aes128>(&cek, iv, ciphertext),
        (AES256_CBC | AES192_CBC | AES128_CBC, _) => Err(EyamlError::BadDecrypt),
        (other, _) => Err(EyamlError::Unsupported(format!(
            "content encrypted with {other}: strata decrypts AES-CBC (hiera-eyaml writes AES-256-CBC)"
        ))),
    }?;
    Ok(plain)
}

fn cbc_decrypt<C>(key: &[u8], iv: &[u8], mut buf: Vec<u8>) -> Result<Vec<u8>, EyamlError>
where
    C: cbc::cipher::BlockDecryptMut + cbc::cipher::BlockCipher + cbc::cipher::KeyInit,
{
    use cbc::cipher::{block_padding::Pkcs7, BlockDecryptMut, KeyIvInit};
    let d = cbc::Decryptor::<C>::new_from_slices(key, iv).map_err(|_| EyamlError::BadDecrypt)?;
    let n = d
        .decrypt_padded_mut::<Pkcs7>(&mut buf)
        .map_err(|_| EyamlError::BadDecrypt)?
        .len();
    buf.truncate(n);
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_as_the_hiera_parser_finds_them() {
        let t = tokens("a ENC[PKCS7,QUJD\n  REVG] b ENC[QUJD] ENC[x!] ENC[GPG,eA==]");
        let got: Vec<_> = t
            .iter()
            .map(|t| (t.scheme.as_str(), t.base64.as_str()))
            .collect();
        assert_eq!(
            got,
            [("PKCS7", "QUJDREVG"), ("PKCS7", "QUJD"), ("GPG", "eA==")]
        );
        assert!(tokens("ENC[]").is_empty());
        assert!(tokens("ENC[PKCS7,]").is_empty());
        assert!(is_encrypted("x ENC[a]"));
        assert!(!is_encrypted("ENC[a\n]"));
    }

    #[test]
    fn ruby_base64() {
        assert_eq!(decode64("QUJD"), b"ABC");
        assert_eq!(decode64("QUI"), b"AB");
        assert_eq!(decode64("QUJDR"), b"ABC");
        assert_eq!(decode64("QU=JD"), b"A");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let pem = include_str!("../../../fixtures/hiera/eyaml/site/keys/private_key.pkcs7.pem");
        let key = PrivateKey::from_pem(pem).unwrap();
        for bytes in [&b""[..], b"\x30", b"\x30\x03\x06\x01\x00", &[0u8; 40]] {
            assert!(decrypt_der(bytes, &key).is_err());
        }
        assert!(PrivateKey::from_pem("-----BEGIN RSA PRIVATE KEY-----\nAA==\n").is_err());
    }
}
