//! hiera-eyaml values (`lookup_key: eyaml_lookup_key`): finding `ENC[...]` tokens in a string
//! as hiera-eyaml 3.3.0's Hiera parser finds them, and replacing each by its plaintext
//! (`pkcs7` decrypts a block). Nothing here reads a file or prints: the key and certificate
//! are given, and errors never hold plaintext.

pub use super::pkcs7::{decrypt_der, Certificate, PrivateKey};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
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
    #[error("private key does not match certificate (the private key is not the pair of the pkcs7_public_key certificate)")]
    Mismatch,
    #[error("decrypt error (the value was not encrypted for the pkcs7_public_key certificate: no recipient names its issuer and serial number)")]
    NoRecipient,
    #[error("source sequence is illegal/malformed utf-8: the decrypted value is not UTF-8 text (Puppet fails writing it: this with --render-as json, `invalid byte sequence in UTF-8` in YAML)")]
    NotText,
    /// The private key or the certificate could not be read (OpenSSL's words first).
    #[error("{0}")]
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

/// Decrypts one token's text with `key` (and the certificate, as hiera-eyaml does).
pub fn decrypt_token(
    t: &Token,
    key: &PrivateKey,
    cert: Option<&Certificate>,
) -> Result<String, EyamlError> {
    if !t.scheme.eq_ignore_ascii_case("PKCS7") {
        return Err(EyamlError::Method(
            t.scheme.clone(),
            t.scheme.to_ascii_lowercase(),
        ));
    }
    let plain = decrypt_der(&decode64(&t.base64), key, cert)?;
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
pub fn decrypt_string(
    s: &str,
    key: &PrivateKey,
    cert: Option<&Certificate>,
) -> Result<(String, Vec<String>), EyamlError> {
    let mut out = String::with_capacity(s.len());
    let mut parts = Vec::new();
    let mut last = 0;
    for t in tokens(s) {
        out.push_str(&s[last..t.range.start]);
        let p = decrypt_token(&t, key, cert)?;
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
}
