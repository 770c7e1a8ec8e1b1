//! Results that last, in the release build through a gateway that keeps
//! them, in front of a sandbox whose media answer 404 after a few seconds
//! (`--media-ttl`): a request of three images and a video succeed, their
//! files are kept (the same bytes the sandbox served), and after the
//! sandbox's URLs are gone the task pages, the board's thumbnails, the full
//! view and a reload still show every result, all from the gateway (the
//! browser asks the sandbox for none). "Make a video of it" puts the kept
//! image in the new form, and the sandbox fetches it from the gateway.
//! "Download all" saves one `.zip`: the kept images and `request.json`.

use std::time::Duration;

use media_gen_e2e::{dist_dir, start_gateway_at, test_folder, Browser};
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use sha2::{Digest, Sha256};

/// How long the sandbox's media live here.
const MEDIA_TTL_SECONDS: u64 = 12;

/// The addresses of the media elements matching `css` on the page.
async fn sources(browser: &Browser, css: &str) -> Vec<String> {
    let found = browser
        .eval(&format!(
            "[...document.querySelectorAll(\"{css}\")].map((m) => m.currentSrc || m.src)"
        ))
        .await;
    serde_json::from_value(found).unwrap()
}

/// Whether every image matching `css` is loaded and drawn, as a script.
fn all_drawn(css: &str) -> String {
    format!(
        "(() => {{ const all = [...document.querySelectorAll(\"{css}\")]; \
         return all.length > 0 && all.every((i) => i.complete && i.naturalWidth > 0); }})()"
    )
}

/// Resources the page fetched from `origin` since it loaded.
fn fetched_from(origin: &str) -> String {
    format!(
        "performance.getEntriesByType('resource').filter((e) => e.name.startsWith('{origin}')).length"
    )
}

/// The release build through a gateway in front of `sandbox` that keeps
/// results (in a folder of its own, removed when dropped), `change`d; its
/// base URL and the folder.
async fn keeping_site(
    sandbox: &str,
    change: impl FnOnce(&mut KeepSettings),
) -> (String, tempfile::TempDir) {
    let dir = test_folder("kept");
    let base = start_gateway_at(sandbox, Some(dist_dir()), |settings, base| {
        let mut keep = KeepSettings::new(b"e2e");
        change(&mut keep);
        settings.keep = Some(keep);
        settings.uploads = Some(UploadSettings::new(dir.path().to_owned(), base.to_owned()));
    })
    .await;
    (base, dir)
}

/// Click `button` with downloads recorded instead of saved: the one `.zip`
/// it saves.
async fn saved_zip(browser: &Browser, button: &str) -> Vec<u8> {
    let (name, bytes) = crate::common::saved_file(browser, button).await;
    assert!(name.ends_with(".zip"), "{name}");
    bytes
}

fn sha256(bytes: &[u8]) -> Vec<u8> {
    Sha256::digest(bytes).to_vec()
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn results_outlive_the_services_urls_served_by_the_gateway() {
    let sandbox = media_gen_sandbox::spawn_local(media_gen_sandbox::Config {
        media_ttl: Some(MEDIA_TTL_SECONDS),
        fetch_inputs: true,
        fetch_private: true,
        ..media_gen_e2e::sandbox_config(300)
    })
    .await
    .unwrap();
    let (base, _dir) = keeping_site(&sandbox, |_| {}).await;
    let kept = format!("{base}/kept/");
    let browser = Browser::start().await;
    browser
        .open_app_page(&base, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "Three boats at dawn").await;
    browser.type_into("#count", "3").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "three images succeeded",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 3",
        )
        .await;
    browser.click("li.task-group a.open").await;
    browser
        .wait_for_text("main h2", "The 3 images of this request")
        .await;
    let images = sources(&browser, ".gallery img").await;
    assert_eq!(images.len(), 3, "{images:?}");
    assert!(
        images.iter().all(|src| src.starts_with(&kept)),
        "{images:?}"
    );
    let task_page = browser.address().await;

    // The kept copies are the bytes the sandbox served: read the sandbox's
    // own file while it lives, through the task's status read.
    let id = task_page.rsplit('/').next().unwrap();
    let read: serde_json::Value = reqwest::get(format!("{base}/v1/image_generate/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let original = read["data"]["image_url"].as_str().unwrap().to_owned();
    let copy = read["data"]["kept"]["image_url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(original.starts_with(&sandbox), "{original}");
    let served = reqwest::get(&original)
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let kept_bytes = reqwest::get(&copy).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&kept_bytes), sha256(&served));

    // "Make a video of it": the form holds the kept copy, and the sandbox
    // (which fetches inputs) makes the video from it.
    browser.click(".next-jobs a:nth-child(1)").await;
    browser.wait_for_text("main h1", "Image to video").await;
    let frame = browser
        .eval("document.querySelector('#image_url').value")
        .await;
    assert!(frame.as_str().unwrap().starts_with(&kept), "{frame}");
    browser.click("#model-S").await;
    browser.type_into("#prompt", "The boats drift").await;
    browser.submit_form().await;
    browser
        .find("li.task-row[data-kind='image_to_video'][data-status='SUCCEEDED']")
        .await;
    // Every task ended by now: the sandbox's TTL counts from each one's end.
    let all_ended = std::time::Instant::now();
    // The sandbox made the video from the gateway's copy: the bytes it
    // fetched are the kept image's.
    let frame = frame.as_str().unwrap().to_owned();
    let fetched = crate::common::fetched_hash(&sandbox, &frame).await;
    let kept_frame = reqwest::get(&frame).await.unwrap().bytes().await.unwrap();
    assert_eq!(fetched, Some(crate::common::sha256(&kept_frame)), "{frame}");

    // The sandbox's media are gone now.
    let ttl = Duration::from_secs(MEDIA_TTL_SECONDS + 1);
    tokio::time::sleep(ttl.saturating_sub(all_ended.elapsed())).await;
    let gone = reqwest::get(&original).await.unwrap().status();
    assert_eq!(gone, 404, "the service's URL no longer answers");

    // A reload: the board's thumbnails, then each page, all from the gateway.
    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser
        .wait_until("the board's thumbnails drawn", &all_drawn("main li img"))
        .await;
    let thumbnails = sources(&browser, "main li img").await;
    assert!(thumbnails.len() >= 3, "{thumbnails:?}");
    assert!(
        thumbnails.iter().all(|src| src.starts_with(&kept)),
        "{thumbnails:?}"
    );
    // The newest row: the video.
    browser
        .click("li.task-row[data-kind='image_to_video'] a.open")
        .await;
    browser
        .wait_until(
            "the kept video plays",
            "(() => { const v = document.querySelector('video'); return !!v && v.readyState >= 1; })()",
        )
        .await;
    let video = sources(&browser, "video").await;
    assert!(video[0].starts_with(&kept), "{video:?}");
    let asked_sandbox = browser.eval(&fetched_from(&sandbox)).await;
    assert_eq!(
        asked_sandbox, 0,
        "the board and the video's page after a reload"
    );
    // The video's page links back to the image it was made from.
    let back = browser
        .eval("document.querySelector('#made-from a')?.getAttribute('href') ?? ''")
        .await;
    let back = back.as_str().unwrap().to_owned();
    assert!(back.contains("/tasks/image_generate/"), "{back}");

    // The images' page, opened anew, and the full view.
    browser.open(&format!("{base}{task_page}")).await;
    browser
        .wait_for_text("main h2", "The 3 images of this request")
        .await;
    browser
        .wait_until("the three kept images drawn", &all_drawn(".gallery img"))
        .await;
    // "Download all": one .zip, read as an unzip tool reads it.
    let zip = saved_zip(&browser, ".task-detail__downloads button").await;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let mut names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    names.sort();
    assert_eq!(names.len(), 4, "three images and request.json: {names:?}");
    assert_eq!(names[3], "request.json");
    let manifest: serde_json::Value = {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("request.json").unwrap(), &mut text)
            .unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let tasks = manifest["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 3, "{manifest}");
    for task in tasks {
        assert_eq!(task["status"], "SUCCEEDED");
        assert_eq!(task["request"]["prompt"], "Three boats at dawn");
        let image = &task["files"][0];
        assert_eq!(image["field"], "image_url");
        let kept_url = image["kept_url"].as_str().unwrap();
        assert!(kept_url.starts_with(&kept), "{image}");
        assert!(image["service_url"].as_str().unwrap().starts_with(&sandbox));
        // The entry holds the kept copy's bytes, whole.
        let name = image["file"].as_str().unwrap();
        let mut entry = Vec::new();
        std::io::Read::read_to_end(&mut archive.by_name(name).unwrap(), &mut entry).unwrap();
        let copy = reqwest::get(kept_url).await.unwrap().bytes().await.unwrap();
        assert_eq!(sha256(&entry), sha256(&copy), "{name}");
    }
    browser
        .wait_for_text(
            ".task-detail__downloads .download-all__state",
            &format!("Saved image_generate-{id}.zip: 3 files and request.json."),
        )
        .await;

    browser.click(".gallery__thumb").await;
    browser
        .wait_until("the full view drawn", &all_drawn("dialog[open] img"))
        .await;
    let full = sources(&browser, "dialog[open] img").await;
    assert!(full[0].starts_with(&kept), "{full:?}");
    // The full view offers its image to the next job, the kept copy in it.
    browser
        .wait_for_text("dialog[open] .next-jobs a", "Make a video of it")
        .await;
    let next = browser
        .eval("document.querySelector('dialog[open] .next-jobs a').getAttribute('href')")
        .await;
    let next = next.as_str().unwrap().to_owned();
    assert!(
        next.starts_with("/new/image-to-video?image_url=")
            && next.contains(&media_gen_api::path::segment(&full[0])),
        "{next}"
    );
    let asked_sandbox = browser.eval(&fetched_from(&sandbox)).await;
    assert_eq!(
        asked_sandbox, 0,
        "no request to the service's media after its TTL"
    );
    browser
        .run_async("document.querySelector('dialog[open]')?.close();")
        .await;
    browser.resize(360, 800).await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "the page with kept copies at 360 px"
    );
    browser.resize(1280, 800).await;
    browser
        .check_accessibility("a task page showing kept copies")
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_result_read_before_its_copy_was_made_shows_the_copy_when_its_page_opens() {
    let sandbox = media_gen_sandbox::spawn_local(media_gen_e2e::sandbox_config(300))
        .await
        .unwrap();
    // Reads answer at once, before any copy is whole (as for a large
    // video): the board learns the service's URLs only.
    let (base, _dir) = keeping_site(&sandbox, |keep| keep.wait = Duration::ZERO).await;
    let kept = format!("{base}/kept/");
    let browser = Browser::start().await;
    browser
        .open_app_page(&base, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "A late copy").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until("the thumbnail drawn", &all_drawn("li.task-row img"))
        .await;
    let thumbnail = sources(&browser, "li.task-row img").await;
    assert!(thumbnail[0].starts_with(&sandbox), "{thumbnail:?}");
    // Its page reads it once more and shows the copy made since.
    browser.click("li.task-row a.open").await;
    browser
        .wait_until(
            "the kept image shown",
            &format!(
                "[...document.querySelectorAll('.gallery img')].some((i) => i.src.startsWith('{kept}'))"
            ),
        )
        .await;
    // The board has it too, after a reload.
    browser.open(&format!("{base}/")).await;
    browser
        .wait_until("the board's thumbnail drawn", &all_drawn("li.task-row img"))
        .await;
    let thumbnail = sources(&browser, "li.task-row img").await;
    assert!(thumbnail[0].starts_with(&kept), "{thumbnail:?}");
    browser.close().await;
}
