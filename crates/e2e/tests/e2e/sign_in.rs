//! A gateway that asks for a person (`--access keys`), as a visitor meets
//! it: the sign-in page in place of the page opened, a wrong key named,
//! the right one landing on that page, the header naming the person and
//! what is left of their day, a reload keeping the session, Sign out
//! ending it, and a key revoked while the page is open bringing the
//! sign-in page back with every stored task kept.

use std::time::Duration;

use media_gen_e2e::{dist_dir, start_site_configured, test_folder, Browser, STORED_TASKS};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;

use crate::common::person_says;

/// At a 360 px phone's width `what` does not scroll sideways (a
/// screenshot `phone-<name>` kept); then back to a desktop's width.
async fn fits_a_phone(browser: &Browser, name: &str) {
    browser.resize(360, 780).await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "{name} scrolls sideways at 360 px"
    );
    browser.screenshot(&format!("phone-{name}")).await;
    browser.resize(1280, 800).await;
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn a_visitor_signs_in_with_a_key_works_and_signs_out() {
    let dir = test_folder("keys");
    let keys = KeyFile::new(dir.path());
    let key = keys.add("ada", Some(5), 0).unwrap();
    let site = start_site_configured(dist_dir(), 300, |settings| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(dir.path().to_owned());
    })
    .await;
    let browser = Browser::start().await;

    // A deep link: the sign-in page stands in for it.
    browser
        .open(&format!("{}/new/image-generate", site.base_url))
        .await;
    browser.wait_for_text("main h1", "Sign in").await;
    browser.watch_for_errors().await;
    browser.check_accessibility("the sign-in page").await;
    fits_a_phone(&browser, "sign-in").await;
    let reads = "performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/v1/')).length";
    assert_eq!(
        browser.eval(reads).await,
        0,
        "nothing of the service before signing in"
    );

    // A wrong key is named; Enter in the field sends it.
    browser.type_into("#access-key", "mgk_not-the-key").await;
    browser.click("#sign-in").await;
    browser
        .wait_until(
            "the wrong key named",
            "document.querySelector('#access-key-problem').textContent.includes('not valid')",
        )
        .await;
    browser
        .client
        .find(fantoccini::Locator::Css("#access-key"))
        .await
        .unwrap()
        .clear()
        .await
        .unwrap();
    browser
        .type_into("#access-key", &format!("{key}\u{E007}"))
        .await;

    // In, on the page opened, the header naming the person and their day.
    browser.wait_for_text("main h1", "Image generation").await;
    assert_eq!(browser.address().await, "/new/image-generate");
    person_says(&browser, "ada").await;
    person_says(&browser, "5 of 5 tasks left today").await;
    browser.check_accessibility("the signed-in header").await;
    fits_a_phone(&browser, "signed-in").await;

    // A submit says what it costs of the day before it is made, and
    // counts against it.
    browser
        .type_into("#prompt", "A lighthouse, signed in")
        .await;
    browser
        .wait_for_text("#submit-cost", "Creates 1 task · 4 of your 5 left today")
        .await;
    browser.find("#count").await.clear().await.unwrap();
    browser.type_into("#count", "4").await;
    browser
        .wait_for_text("#submit-cost", "Creates 4 tasks · 1 of your 5 left today")
        .await;
    browser.find("#count").await.clear().await.unwrap();
    browser.type_into("#count", "1").await;
    browser.submit_and_wait("SUCCEEDED").await;
    person_says(&browser, "4 of 5 tasks left today").await;
    assert_eq!(browser.eval(STORED_TASKS).await, 1);

    // A reload keeps the session.
    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    person_says(&browser, "ada").await;

    // Sign out: the sign-in page, also after a reload.
    browser.click("#sign-out").await;
    browser.wait_for_text("main h1", "Sign in").await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Sign in").await;

    // In again; the owner revokes the key while the page is open: its next
    // call is refused and the sign-in page comes back, the task kept.
    browser
        .type_into("#access-key", &format!("{key}\u{E007}"))
        .await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.watch_for_errors().await;
    // The keys live in the library's database once the gateway started.
    let library = media_gen_gateway::library::Library::open(
        &media_gen_gateway::library::LibraryAt::in_dir(dir.path()),
    )
    .await
    .unwrap();
    library.revoke_key("ada").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    browser
        .click("#main-nav a[href='/new/image-generate']")
        .await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser.type_into("#prompt", "After the revoke").await;
    browser.click("#submit").await;
    browser.wait_for_text("main h1", "Sign in").await;
    assert_eq!(browser.eval(STORED_TASKS).await, 1, "no stored task lost");
    browser.assert_still_working("a revoked key").await;
    browser.close().await;
}
