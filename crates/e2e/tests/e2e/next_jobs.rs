//! A result straight into the next job: a generated image's page offers
//! "Make a video of it" and "Use as reference", a video's "Translate it";
//! each opens the job's form with the result in its field, an address that
//! Back and a reload keep, and a link back to the task it came from; the
//! links fit a phone's width.

use media_gen_e2e::{start_site, Browser};

/// The value of the form field `css`.
async fn value_of(browser: &Browser, css: &str) -> String {
    let value = browser
        .eval(&format!("document.querySelector(\"{css}\").value"))
        .await;
    value.as_str().unwrap_or_default().to_owned()
}

/// The task page's address, `/tasks/{kind}/{id}`.
async fn task_page(browser: &Browser) -> String {
    let address = browser.address().await;
    assert!(address.starts_with("/tasks/"), "{address}");
    address
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn an_image_becomes_a_video_and_the_video_a_translation() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "A lighthouse at dawn").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser.click("li.task-row a.open").await;
    let image_page = task_page(&browser).await;
    let image_id = image_page.rsplit('/').next().unwrap().to_owned();
    // The board's row offered the same jobs, each naming its task to a
    // screen reader.
    browser.client.back().await.expect("go back");
    browser.find("li.task-row .next-jobs a").await;
    let row_link = browser
        .eval(
            "document.querySelector('li.task-row .next-jobs a')?.getAttribute('aria-label') ?? ''",
        )
        .await;
    assert_eq!(row_link, format!("Make a video of it from task {image_id}"));
    browser.client.forward().await.expect("go forward");
    browser.wait_for_address(&image_page).await;
    // On a phone the links wrap within the page.
    browser.resize(390, 844).await;
    browser
        .wait_for_text(".next-jobs a:nth-child(2)", "Use as reference")
        .await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "the image's page at 390 px"
    );
    browser.resize(1280, 800).await;

    // "Use as reference": image generation with the image among its references.
    browser.click(".next-jobs a:nth-child(2)").await;
    browser.wait_for_text("main h1", "Image generation").await;
    let references = value_of(&browser, "#references").await;
    assert!(
        references.contains("/sandbox/media/image/") && references.contains(&image_id),
        "{references}"
    );
    browser.client.back().await.expect("go back");
    browser.wait_for_address(&image_page).await;

    // "Make a video of it": image-to-video with the image as its start frame.
    browser
        .wait_for_text(".next-jobs a:nth-child(1)", "Make a video of it")
        .await;
    browser.click(".next-jobs a:nth-child(1)").await;
    browser.wait_for_text("main h1", "Image to video").await;
    let address = browser.address().await;
    assert!(
        address.starts_with("/new/image-to-video?image_url=")
            && address.ends_with(&format!("&source=image_generate%3A{image_id}")),
        "{address}"
    );
    let frame = value_of(&browser, "#image_url").await;
    assert!(
        frame.contains("/sandbox/media/image/") && frame.contains(&image_id),
        "{frame}"
    );
    browser
        .wait_for_text(
            "#filled-from",
            &format!("From task {image_id}, its image: fill in the rest and submit."),
        )
        .await;
    // A reload keeps it: the address carries it.
    browser.reload().await;
    browser.wait_for_text("main h1", "Image to video").await;
    assert_eq!(value_of(&browser, "#image_url").await, frame);

    browser.click("#model-S").await;
    browser.type_into("#prompt", "The light turns slowly").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .click("li.task-row[data-kind='image_to_video'] a.open")
        .await;
    let video_page = task_page(&browser).await;
    assert!(
        video_page.starts_with("/tasks/image_to_video/"),
        "{video_page}"
    );
    // Its page links back to the image it was made from.
    browser.wait_for_text("#made-from a", &image_id).await;
    assert_eq!(
        browser
            .eval("document.querySelector('#made-from').textContent")
            .await,
        format!("Made from the result of task {image_id}")
    );

    // "Translate it": video translation with the video as its source.
    browser.wait_for_text(".next-jobs a", "Translate it").await;
    browser.click(".next-jobs a").await;
    browser.wait_for_text("main h1", "Video translation").await;
    let video = value_of(&browser, "#video_url").await;
    assert!(video.contains("/sandbox/media/video/"), "{video}");
    // The link back names the video's task and opens its page.
    browser.click("#filled-from a").await;
    browser.wait_for_address(&video_page).await;
    browser
        .check_accessibility("the translation form started from a video")
        .await;
    browser.close().await;
}
