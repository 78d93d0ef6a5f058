//! hiera-eyaml values (`frontend::hiera::eyaml`) on arbitrary text: the `ENC[...]` token
//! finder returns in-bounds, ordered, non-overlapping tokens that start with `ENC[` and end
//! with `]`, and decrypting any string or any DER with the fixtures' test key gives a value
//! or an error, never a panic. An input starting with `0` is DER after that byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use strata::frontend::hiera::eyaml::{
    chomp, decrypt_der, decrypt_string, is_encrypted, tokens, PrivateKey,
};

fn key() -> &'static PrivateKey {
    static KEY: OnceLock<PrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        PrivateKey::from_pem(include_str!(
            "../../fixtures/hiera/eyaml/site/keys/private_key.pkcs7.pem"
        ))
        .expect("the fixtures' test key reads")
    })
}

fuzz_target!(|data: &[u8]| {
    if let Some((b'0', der)) = data.split_first() {
        let _ = decrypt_der(der, key(), None);
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let found = tokens(text);
    let mut last = 0;
    for t in &found {
        assert!(t.range.start >= last && t.range.end <= text.len());
        let s = &text[t.range.clone()];
        assert!(s.starts_with("ENC[") && s.ends_with(']'));
        assert!(!t.base64.chars().any(char::is_whitespace));
        last = t.range.end;
    }
    let _ = is_encrypted(text);
    match decrypt_string(text, key(), None) {
        Ok((plain, parts)) => {
            assert_eq!(parts.len(), found.len());
            if found.is_empty() {
                assert_eq!(plain, chomp(text.to_string()));
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
