//! MIME multipart user-data → flat list of leaf parts, the way cloud-init's
//! `UserDataProcessor` walks an email message: nested multiparts flattened depth-first in
//! document order, bodies decoded (base64, quoted-printable, charset), raw header names kept.
//! Also gzip detection and bounded decompression.

use std::io::Read;

/// A header line: the name as written, the decoded value, and where the line starts.
#[derive(Clone, Debug)]
pub struct MimeHeader {
    /// The name as written.
    pub name: String,
    /// The value, unfolded and decoded.
    pub value: String,
    /// Byte offset of the line in the raw message.
    pub offset: usize,
    /// Bytes of the line as written (with its continuation lines).
    pub len: usize,
}

/// One leaf part of a MIME message.
#[derive(Clone, Debug)]
pub struct MimePart {
    /// Header lines in order, names spelled as written.
    pub headers: Vec<MimeHeader>,
    /// Byte offset of the part in the raw message.
    pub offset: usize,
    /// Declared content type, lower-case (`text/plain` when absent).
    pub content_type: String,
    /// Filename from Content-Disposition, if any.
    pub filename: Option<String>,
    /// Decoded body.
    pub body: Vec<u8>,
    /// Where the body stands in the raw message when it is there byte for byte (no
    /// transfer encoding, no charset conversion); `None` for a decoded body.
    pub verbatim: Option<usize>,
    /// The transfer encoding the body was decoded from (`base64`, `quoted-printable`).
    pub encoding: Option<&'static str>,
}

/// A MIME problem, with the byte offset in the raw message where it was noticed.
#[derive(Debug)]
pub struct MimeError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the raw message where it was noticed.
    pub offset: usize,
}

/// cloud-init's test: `mime-version:` (any case) within the first 4096 bytes.
pub fn is_mime(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    // Compare only where an 'm' starts (found by memchr, not one byte at a time).
    memchr::memchr2_iter(b'm', b'M', head).any(|i| {
        head.get(i..i + 13)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"mime-version:"))
    })
}

/// Whether bytes start with the gzip magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Decompresses gzip data, refusing to produce more than `max` bytes.
pub fn gunzip(bytes: &[u8], max: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut reader = flate2::read::MultiGzDecoder::new(bytes).take(max as u64 + 1);
    reader
        .read_to_end(&mut out)
        .map_err(|e| format!("gzip data is corrupt: {e}"))?;
    if out.len() > max {
        return Err(format!("gzip data expands to more than {max} bytes"));
    }
    Ok(out)
}

/// Parses a MIME message into its leaf parts in document order.
pub fn parse(bytes: &[u8]) -> Result<Vec<MimePart>, MimeError> {
    // mailparse recurses once per nesting level; bound it before parsing.
    let nested = bytes
        .windows(9)
        .filter(|w| w.eq_ignore_ascii_case(b"boundary="))
        .count();
    if nested > 1000 {
        return Err(MimeError {
            message: format!("{nested} nested multipart boundaries: more than 1000"),
            offset: 0,
        });
    }
    let mail = mailparse::parse_mail(bytes).map_err(|e| MimeError {
        message: format!("not a valid MIME message: {e}"),
        offset: 0,
    })?;
    let mut parts = Vec::new();
    walk(&mail, bytes, &mut parts)?;
    Ok(parts)
}

fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(whole.as_ptr() as usize)
        .min(whole.len())
}

fn walk(
    mail: &mailparse::ParsedMail<'_>,
    whole: &[u8],
    out: &mut Vec<MimePart>,
) -> Result<(), MimeError> {
    let ctype = mail.ctype.mimetype.to_ascii_lowercase();
    if ctype.starts_with("multipart/") {
        if mail.subparts.is_empty() {
            let boundary = mail
                .ctype
                .params
                .get("boundary")
                .cloned()
                .unwrap_or_default();
            let message = if boundary.is_empty() {
                "multipart message has no boundary parameter".to_string()
            } else {
                format!("multipart boundary '{boundary}' never appears in the message body, so it has no parts")
            };
            return Err(MimeError {
                message,
                offset: offset_in(whole, mail.raw_bytes),
            });
        }
        for sub in &mail.subparts {
            walk(sub, whole, out)?;
        }
        return Ok(());
    }
    let headers: Vec<MimeHeader> = mail
        .headers
        .iter()
        .map(|h| MimeHeader {
            name: h.get_key(),
            value: h.get_value(),
            offset: offset_in(whole, h.get_key_raw()),
            len: h.get_key_raw().len(),
        })
        .collect();
    let declared = headers
        .iter()
        .any(|h| h.name.eq_ignore_ascii_case("content-type"));
    let content_type = if declared {
        ctype
    } else {
        "text/plain".to_string()
    };
    let charset = mail.ctype.charset.to_ascii_lowercase();
    let body = if matches!(
        charset.as_str(),
        "" | "utf-8" | "utf8" | "us-ascii" | "ascii"
    ) || !content_type.starts_with("text/")
    {
        mail.get_body_raw()
    } else {
        mail.get_body().map(String::into_bytes)
    }
    .map_err(|e| MimeError {
        message: format!("part body cannot be decoded: {e}"),
        offset: offset_in(whole, mail.raw_bytes),
    })?;
    let (verbatim, encoding) = match mail.get_body_encoded() {
        mailparse::body::Body::Base64(_) => (None, Some("base64")),
        mailparse::body::Body::QuotedPrintable(_) => (None, Some("quoted-printable")),
        mailparse::body::Body::SevenBit(b) | mailparse::body::Body::EightBit(b) => {
            let raw = b.get_raw();
            (
                (raw == body.as_slice()).then(|| offset_in(whole, raw)),
                None,
            )
        }
        mailparse::body::Body::Binary(b) => {
            let raw = b.get_raw();
            (
                (raw == body.as_slice()).then(|| offset_in(whole, raw)),
                None,
            )
        }
    };
    let filename = mail
        .get_content_disposition()
        .params
        .get("filename")
        .cloned();
    out.push(MimePart {
        headers,
        offset: offset_in(whole, mail.raw_bytes),
        content_type,
        filename,
        body,
        verbatim,
        encoding,
    });
    Ok(())
}
