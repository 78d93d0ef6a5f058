//! The MIME multipart parser and the bounded gunzip on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::load::mime;

fuzz_target!(|data: &[u8]| {
    let _ = mime::is_mime(data);
    if mime::is_gzip(data) {
        let _ = mime::gunzip(data, 1 << 20);
    }
    if let Ok(parts) = mime::parse(data) {
        for part in &parts {
            assert!(part.offset <= data.len(), "part offset past the end");
            for h in &part.headers {
                assert!(h.offset <= data.len(), "header offset past the end");
            }
            if mime::is_gzip(&part.body) {
                let _ = mime::gunzip(&part.body, 1 << 20);
            }
        }
    }
});
