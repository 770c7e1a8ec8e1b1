//! The browser's `URL` reads URLs as the `url` crate does, for every case
//! the contract's native tests hold that crate to, and the rules use it.

use media_gen_api::url_parts::{misread_cases, parity_cases};
use media_gen_api::validate::{is_http_url, url_extension};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn the_browser_reads_the_shared_cases_as_the_url_crate_does() {
    media_gen_client::use_browser_urls();
    assert!(parity_cases().len() > 20);
    let misread = misread_cases();
    assert!(misread.is_empty(), "(text, expected, read): {misread:#?}");
    // The rules read through it.
    assert!(is_http_url(" https://cdn.test/a.mp4 "));
    assert!(!is_http_url("javascript:alert(1)"));
    assert_eq!(
        url_extension("https://x.io/a/b.PNG?x=1.gif").as_deref(),
        Some("png")
    );
}
