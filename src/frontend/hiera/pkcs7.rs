//! hiera-eyaml's PKCS7 encryptor (`encryptors/pkcs7.rb`) in pure Rust: the private key as
//! `OpenSSL::PKey::RSA.new` reads it, the certificate as `OpenSSL::X509::Certificate.new`
//! reads it, and `OpenSSL::PKCS7#decrypt(key, cert)` on a DER block — CMS / PKCS#7
//! EnvelopedData, RSA PKCS#1 v1.5 key transport, AES-CBC content, what
//! `OpenSSL::PKCS7::encrypt` writes for `eyaml encrypt`. OpenSSL's order of checks is kept:
//! the block parses, the key pairs with the certificate (`private key does not match
//! certificate`), a recipient names the certificate's issuer and serial (`decrypt error`),
//! the key opens the content key (`bad decrypt`). Nothing here reads a file or prints.

use super::eyaml::EyamlError;
use base64::Engine as _;
use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey};
use rsa::pkcs8::DecodePrivateKey;
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};

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
                EyamlError::Key("Neither PUB key nor PRIV key: unsupported (OpenSSL's words: not an RSA private key in PEM form, BEGIN RSA PRIVATE KEY or BEGIN PRIVATE KEY)".into())
            })
    }
}

/// A certificate as `OpenSSL::X509::Certificate.new` reads it (DER, or the first
/// `CERTIFICATE` PEM block): what decryption needs of it, its issuer and serial number (the
/// recipient it names) and its RSA public key (`None`: not RSA).
#[derive(Debug, Clone)]
pub struct Certificate {
    issuer: Vec<u8>,
    serial: Vec<u8>,
    public: Option<RsaPublicKey>,
}

fn cert_error(what: &str) -> EyamlError {
    EyamlError::Key(format!("PEM_read_bio_X509: {what}"))
}

impl Certificate {
    pub fn read(bytes: &[u8]) -> Result<Certificate, EyamlError> {
        if let Ok(c) = Certificate::from_der(bytes) {
            return Ok(c);
        }
        let text = String::from_utf8_lossy(bytes);
        let mut rest = text.as_ref();
        loop {
            let Some(at) = rest.find("-----BEGIN ") else {
                return Err(cert_error("no start line"));
            };
            rest = &rest[at + 11..];
            let Some(end) = rest.find("-----") else {
                return Err(cert_error("no start line"));
            };
            let label = &rest[..end];
            rest = &rest[end + 5..];
            if !matches!(
                label,
                "CERTIFICATE" | "X509 CERTIFICATE" | "TRUSTED CERTIFICATE"
            ) {
                continue;
            }
            let Some(stop) = rest.find("-----END ") else {
                return Err(cert_error("bad end line"));
            };
            let body: String = rest[..stop]
                .chars()
                .filter(|c| !c.is_ascii_whitespace())
                .collect();
            let der = base64::engine::general_purpose::STANDARD
                .decode(body.as_bytes())
                .map_err(|_| cert_error("bad base64 decode"))?;
            return Certificate::from_der(&der)
                .map_err(|_| cert_error("ASN1 lib (not an X.509 certificate)"));
        }
    }

    /// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serial,
    /// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }
    fn from_der(der: &[u8]) -> Result<Certificate, EyamlError> {
        let mut top = SliceReader::new(der).map_err(|_| bad("certificate"))?;
        let mut cert = reader(any(&mut top, "certificate")?, Tag::Sequence, "certificate")?;
        let mut tbs = reader(any(&mut cert, "certificate")?, Tag::Sequence, "certificate")?;
        let mut serial = any(&mut tbs, "certificate")?;
        if serial.tag() == context(TagNumber::N0, true) {
            serial = any(&mut tbs, "certificate")?;
        }
        if serial.tag() != Tag::Integer {
            return Err(bad("certificate"));
        }
        let _signature = any(&mut tbs, "certificate")?;
        let issuer = any(&mut tbs, "certificate")?;
        let _validity = any(&mut tbs, "certificate")?;
        let _subject = any(&mut tbs, "certificate")?;
        let mut spki = reader(any(&mut tbs, "certificate")?, Tag::Sequence, "certificate")?;
        let mut alg = reader(any(&mut spki, "certificate")?, Tag::Sequence, "certificate")?;
        let bits = any(&mut spki, "certificate")?;
        let public = match oid(any(&mut alg, "certificate")?, "certificate")? {
            RSA_ENCRYPTION if bits.tag() == Tag::BitString => bits
                .value()
                .split_first()
                .and_then(|(_, k)| RsaPublicKey::from_pkcs1_der(k).ok()),
            _ => None,
        };
        Ok(Certificate {
            issuer: issuer.value().to_vec(),
            serial: serial.value().to_vec(),
            public,
        })
    }

    /// OpenSSL's `X509_check_private_key`: the key is the certificate's pair.
    fn pairs_with(&self, key: &PrivateKey) -> bool {
        self.public
            .as_ref()
            .is_some_and(|p| *p == key.0.to_public_key())
    }
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

/// One KeyTransRecipientInfo: the issuer and serial it names, whether it uses RSA, the
/// encrypted content key.
struct Recipient<'a> {
    issuer: &'a [u8],
    serial: &'a [u8],
    rsa: bool,
    key: &'a [u8],
}

/// Decrypts a DER `ContentInfo` holding an `EnvelopedData` with `key` and, as hiera-eyaml
/// gives it, the certificate (`None`: every RSA recipient is tried with the key).
pub fn decrypt_der(
    der_bytes: &[u8],
    key: &PrivateKey,
    cert: Option<&Certificate>,
) -> Result<Vec<u8>, EyamlError> {
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
    let mut recipients = Vec::new();
    while !ris.is_finished() {
        let mut ri = reader(
            any(&mut ris, "recipientInfo")?,
            Tag::Sequence,
            "recipientInfo",
        )?;
        let _v = any(&mut ri, "recipientInfo version")?;
        let rid = any(&mut ri, "recipient identifier")?;
        let (issuer, serial) = if rid.tag() == Tag::Sequence {
            let mut ias = reader(rid, Tag::Sequence, "recipient identifier")?;
            let issuer = any(&mut ias, "recipient identifier")?.value();
            (issuer, any(&mut ias, "recipient identifier")?.value())
        } else {
            (&[][..], &[][..]) // CMS subjectKeyIdentifier: names no issuer
        };
        let mut kalg = reader(
            any(&mut ri, "key encryption algorithm")?,
            Tag::Sequence,
            "key encryption algorithm",
        )?;
        let rsa = oid(any(&mut kalg, "algorithm")?, "algorithm")? == RSA_ENCRYPTION;
        let ek = any(&mut ri, "encrypted key")?;
        if ek.tag() != Tag::OctetString {
            return Err(bad("encrypted key"));
        }
        recipients.push(Recipient {
            issuer,
            serial,
            rsa,
            key: ek.value(),
        });
    }
    if let Some(cert) = cert {
        if !cert.pairs_with(key) {
            return Err(EyamlError::Mismatch);
        }
        recipients.retain(|r| r.issuer == cert.issuer && r.serial == cert.serial);
        if recipients.is_empty() {
            return Err(EyamlError::NoRecipient);
        }
    }
    if !recipients.iter().any(|r| r.rsa) {
        return Err(EyamlError::Unsupported(
            "no recipient uses RSA (PKCS#1 v1.5) key transport, the only one hiera-eyaml writes"
                .into(),
        ));
    }
    let cek = recipients
        .iter()
        .filter(|r| r.rsa)
        .find_map(|r| key.0.decrypt(Pkcs1v15Encrypt, r.key).ok());
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

    const KEY: &str = include_str!("../../../fixtures/hiera/eyaml/site/keys/private_key.pkcs7.pem");
    const CERT: &str = include_str!("../../../fixtures/hiera/eyaml/site/keys/public_key.pkcs7.pem");
    const OTHER: &str =
        include_str!("../../../fixtures/hiera/eyaml/site/otherkeys/private_key.pkcs7.pem");

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let key = PrivateKey::from_pem(KEY).unwrap();
        let cert = Certificate::read(CERT.as_bytes()).unwrap();
        for bytes in [&b""[..], b"\x30", b"\x30\x03\x06\x01\x00", &[0u8; 40]] {
            assert!(decrypt_der(bytes, &key, None).is_err());
            assert!(decrypt_der(bytes, &key, Some(&cert)).is_err());
            assert!(Certificate::read(bytes).is_err());
        }
        assert!(PrivateKey::from_pem("-----BEGIN RSA PRIVATE KEY-----\nAA==\n").is_err());
        let e = Certificate::read(b"garbage").unwrap_err().to_string();
        assert!(e.contains("PEM_read_bio_X509: no start line"), "{e}");
        let e =
            Certificate::read(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assert!(e.is_err());
    }

    #[test]
    fn the_certificate_pairs_with_its_key_only() {
        let cert = Certificate::read(CERT.as_bytes()).unwrap();
        assert!(cert.pairs_with(&PrivateKey::from_pem(KEY).unwrap()));
        assert!(!cert.pairs_with(&PrivateKey::from_pem(OTHER).unwrap()));
        // `eyaml createkeys`: subject and issuer `/` (an empty name), serial 1.
        assert_eq!(cert.serial, [1]);
        assert!(cert.issuer.is_empty());
    }
}
