//! Shared links through the gateway in `keys` mode against the sandbox:
//! a person shares a request of three images and a translation into three
//! languages; a visitor with no key opens both as plain pages (no script),
//! whose files come from the link's own address; the translation opens in
//! the visitor's language with its subtitles as WebVTT and SRT; a prompt
//! of HTML is escaped in the page and in its preview tags; guessed and cut
//! tokens, another person's taking back and a request that is not theirs
//! are refused; a team link needs a person; a link taken back is gone
//! (410), its files too.

use media_gen_api::library::LIBRARY_HEADER;
use media_gen_e2e::{
    dist_dir, serve_folder, start_gateway_at, start_sandbox, test_folder, Browser,
};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::eventually;

/// A prompt a careless page would run.
const PROMPT: &str = "A lighthouse <script>alert(1)</script> & \"quotes\"";

/// A gateway in `keys` mode in front of the sandbox, keeping each
/// person's library and their results, sharing or not (`--share-links`);
/// ada's and grace's keys.
struct SharingSite {
    base: String,
    sandbox: String,
    ada: String,
    grace: String,
    /// Its data, uploads and kept copies, removed when the test ends.
    _dir: tempfile::TempDir,
}

impl SharingSite {
    async fn start(share_links: bool) -> SharingSite {
        SharingSite::start_serving(share_links, None).await
    }

    /// The site, serving the app from `app` when given.
    async fn start_serving(share_links: bool, app: Option<std::path::PathBuf>) -> SharingSite {
        let sandbox = start_sandbox(300).await;
        let dir = test_folder("sharing");
        let data = dir.path().join("data");
        let keys = KeyFile::new(&data);
        let (ada, grace) = (
            keys.add("ada", None, 0).unwrap(),
            keys.add("grace", None, 0).unwrap(),
        );
        let uploads = dir.path().join("uploads");
        let base = start_gateway_at(&sandbox, app, |settings, base| {
            settings.access = AccessMode::Keys;
            settings.data_dir = Some(data.clone());
            settings.uploads = Some(UploadSettings::new(uploads.clone(), base.to_owned()));
            settings.keep = Some(KeepSettings::new(b"e2e"));
            settings.share_links = share_links;
        })
        .await;
        SharingSite {
            base,
            sandbox,
            ada,
            grace,
            _dir: dir,
        }
    }
}

/// Submit `body` of `kind` as `key`: the library's request id and the tasks.
pub(crate) async fn submit(
    base: &str,
    key: &str,
    kind: &str,
    body: Value,
) -> (String, Vec<String>) {
    let answer = reqwest::Client::new()
        .post(format!("{base}/v1/{kind}"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .unwrap();
    if answer.status() != StatusCode::OK {
        panic!(
            "{kind}: {}: {}",
            answer.status(),
            answer.text().await.unwrap()
        );
    }
    let request = answer.headers()[LIBRARY_HEADER]
        .to_str()
        .unwrap()
        .to_owned();
    let body = answer.bytes().await.unwrap();
    let kind = kind.parse().unwrap();
    let tasks = media_gen_gateway::relay::submit::created_ids(kind, 200, &body);
    (request, tasks)
}

/// `GET` `url` as `key`: the answer's JSON.
pub(crate) async fn read_as(url: &str, key: &str) -> Value {
    reqwest::Client::new()
        .get(url)
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Read `task` of `kind` as `key` until its files are kept.
pub(crate) async fn until_kept(base: &str, key: &str, kind: &str, task: &str) {
    eventually(&format!("{kind} {task} kept"), 15, || async {
        let read = read_as(&format!("{base}/v1/{kind}/{task}"), key).await;
        read["data"]["status"] == "SUCCEEDED"
            && read["data"]["kept"]
                .as_object()
                .is_some_and(|kept| !kept.is_empty())
    })
    .await;
}

/// `POST /shares` as `key`: the answer's status and body.
pub(crate) async fn share(base: &str, key: &str, asked: Value) -> (StatusCode, Value) {
    let answer = reqwest::Client::new()
        .post(format!("{base}/shares"))
        .bearer_auth(key)
        .json(&asked)
        .send()
        .await
        .unwrap();
    (answer.status(), answer.json().await.unwrap_or(Value::Null))
}

/// `DELETE /shares/{token}` as `key`: the answer's status.
pub(crate) async fn take_back(base: &str, key: &str, token: &str) -> StatusCode {
    reqwest::Client::new()
        .delete(format!("{base}/shares/{token}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .status()
}

/// A visitor's `GET`: status, content type and body.
pub(crate) async fn visit(url: &str, language: Option<&str>) -> (StatusCode, String, String) {
    let mut request = reqwest::Client::new().get(url);
    if let Some(language) = language {
        request = request.header("accept-language", language);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status();
    let kind = answer
        .headers()
        .get("content-type")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, kind, answer.text().await.unwrap_or_default())
}

/// The values of `attribute` in `html`, in order.
pub(crate) fn attributes(html: &str, attribute: &str) -> Vec<String> {
    let needle = format!("{attribute}=\"");
    html.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &html[at + needle.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

#[tokio::test]
#[ignore = "needs the sandbox: run through `cargo xtask test`"]
async fn a_shared_link_shows_kept_results_to_anyone_and_is_gone_once_taken_back() {
    let site = SharingSite::start(true).await;
    let (base, sandbox, ada, grace) = (&site.base, &site.sandbox, &site.ada, &site.grace);

    // Three images and a translation into three languages, kept.
    let (images, image_tasks) = submit(
        base,
        ada,
        "image_generate",
        json!({ "prompt": PROMPT, "generate_count": 3 }),
    )
    .await;
    assert_eq!(image_tasks.len(), 3, "{image_tasks:?}");
    let (translation, translated) = submit(
        base,
        ada,
        "video_translate",
        json!({ "video_url": "https://example.com/talk.mp4", "target_languages": ["Spanish", "French", "German"], "enable_caption": true }),
    )
    .await;
    for task in &image_tasks {
        until_kept(base, ada, "image_generate", task).await;
    }
    for task in &translated {
        until_kept(base, ada, "video_translate", task).await;
    }

    // The site says it shares, and where.
    let offered: Value = reqwest::get(format!("{base}/capabilities"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(offered["data"]["sharing"]["path"], "/shares", "{offered}");
    assert_eq!(offered["data"]["sharing"]["team"], true, "{offered}");

    // Shared with what was asked, the images first.
    let (status, made) = share(
        base,
        ada,
        json!({ "requests": [images, translation], "life": "week", "asked": true }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let token = made["data"]["token"].as_str().unwrap().to_owned();
    assert_eq!(made["data"]["path"], format!("/s/{token}"));
    assert_eq!(made["data"]["tasks"], 3 + translated.len());
    let page_url = format!("{base}/s/{token}");

    // A visitor with no key: plain HTML, the three images and one player.
    let (status, kind, page) = visit(&page_url, Some("fr-CH, fr;q=0.9, en;q=0.5")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(
        !page.contains("<script"),
        "no script runs, and the prompt's is escaped"
    );
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"),
        "{page}"
    );
    assert!(
        page.contains(r#"<meta name="robots" content="noindex">"#),
        "{page}"
    );
    let titles = attributes(&page, "content");
    assert!(
        titles.iter().any(|title| title
            == "A lighthouse &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"),
        "the preview's title is the prompt, escaped: {titles:?}"
    );
    let images_shown: Vec<String> = attributes(&page, "src")
        .into_iter()
        .filter(|src| src.ends_with("image.png"))
        .collect();
    assert_eq!(images_shown.len(), 3, "{page}");
    assert!(page.contains(r#"property="og:image" content=""#), "{page}");
    assert!(
        !page.contains("/kept/") && !page.contains(sandbox.as_str()),
        "only the link's own addresses: {page}"
    );
    for src in &images_shown {
        let (status, kind, _) = visit(&format!("{base}/s/{src}"), None).await;
        assert_eq!(
            (status, kind.as_str()),
            (StatusCode::OK, "image/png"),
            "{src}"
        );
    }
    // The translation plays in French, its subtitles a track; the other
    // languages are a link away.
    let videos: Vec<String> = attributes(&page, "src")
        .into_iter()
        .filter(|src| src.ends_with("video.mp4"))
        .collect();
    assert_eq!(videos.len(), 1, "one player: {page}");
    assert!(page.contains(r#"srclang="fr""#), "{page}");
    for language in ["es", "de"] {
        assert!(page.contains(&format!("?lang={language}")), "{page}");
    }
    let track = attributes(&page, "src")
        .into_iter()
        .find(|src| src.ends_with("captions.vtt"))
        .unwrap();
    let (status, kind, vtt) = visit(&format!("{base}/s/{track}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/vtt"), "{kind}");
    assert!(vtt.starts_with("WEBVTT"), "{vtt}");
    let (_, _, srt) = visit(&format!("{base}/s/{}", track.replace(".vtt", ".srt")), None).await;
    assert!(srt.starts_with("1\n00:"), "{srt}");
    // Asked in Spanish, the player opens in Spanish.
    let (_, _, spanish) = visit(&format!("{page_url}?lang=es"), None).await;
    assert!(spanish.contains(r#"srclang="es""#), "{spanish}");

    // Guessed and cut tokens are unknown.
    for guessed in [
        format!("{base}/s/ffffffffffffffffffffffffffffffff"),
        format!("{base}/s/{}", &token[..31]),
        format!("{base}/s/{}/0/image.png", &token[..16]),
    ] {
        assert_eq!(
            visit(&guessed, None).await.0,
            StatusCode::NOT_FOUND,
            "{guessed}"
        );
    }
    // Another person can neither share ada's request nor take her link back.
    let (status, refused) =
        share(base, grace, json!({ "requests": [images], "life": "day" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["msg"].as_str().unwrap().starts_with("requests:"),
        "{refused}"
    );
    assert_eq!(take_back(base, grace, &token).await, StatusCode::NOT_FOUND);
    assert_eq!(visit(&page_url, None).await.0, StatusCode::OK);

    // A team link: a person signed in to the site, nobody else.
    let (status, team) = share(
        base,
        ada,
        json!({ "requests": [images], "life": "day", "team": true }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{team}");
    let team_url = format!("{base}/s/{}", team["data"]["token"].as_str().unwrap());
    assert_eq!(visit(&team_url, None).await.0, StatusCode::UNAUTHORIZED);
    let signed_in = reqwest::Client::new()
        .get(&team_url)
        .bearer_auth(grace)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), StatusCode::OK);
    // Prompts only where asked: this one shows the results alone.
    assert!(!signed_in.text().await.unwrap().contains("lighthouse"));

    // The owner's list says how often each was opened.
    let listed = read_as(&format!("{base}/shares"), ada).await;
    let first = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|share| share["token"] == token.as_str())
        .unwrap();
    assert_eq!(first["views"], 3, "{listed}");

    // Embedded: the results without the page's chrome, in any site's frame.
    let embedded = reqwest::get(format!("{page_url}?embed")).await.unwrap();
    let policy = embedded.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("frame-ancestors *"), "{policy}");
    assert!(!embedded.text().await.unwrap().contains("<header>"));
    let framed = reqwest::get(&page_url).await.unwrap();
    assert!(framed.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'none'"));

    // Taken back: the page and its files are gone.
    assert_eq!(take_back(base, ada, &token).await, StatusCode::OK);
    assert_eq!(visit(&page_url, None).await.0, StatusCode::GONE);
    assert_eq!(
        visit(&format!("{base}/s/{}", images_shown[0]), None)
            .await
            .0,
        StatusCode::GONE
    );
}

#[tokio::test]
#[ignore = "needs the sandbox: run through `cargo xtask test`"]
async fn with_share_links_off_nothing_is_shared_and_the_site_says_so() {
    let site = SharingSite::start(false).await;
    let (base, ada) = (&site.base, &site.ada);
    let offered: Value = reqwest::get(format!("{base}/capabilities"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(offered["data"].get("sharing").is_none(), "{offered}");
    assert!(offered["data"].get("uploads").is_some(), "{offered}");
    let (images, _) = submit(base, ada, "image_generate", json!({ "prompt": "A quay" })).await;
    let (status, _) = share(base, ada, json!({ "requests": [images], "life": "day" })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        visit(&format!("{base}/s/0123456789abcdef0123456789abcdef"), None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn a_person_shares_from_the_app_and_a_stranger_on_a_phone_opens_it_without_the_app() {
    let site = SharingSite::start_serving(true, Some(dist_dir())).await;
    let (base, ada) = (&site.base, &site.ada);
    let (_, images) = submit(
        base,
        ada,
        "image_generate",
        json!({ "prompt": "A harbour at dawn, shared", "generate_count": 2 }),
    )
    .await;
    let (translation, translated) = submit(
        base,
        ada,
        "video_translate",
        json!({ "video_url": "https://example.com/talk.mp4", "target_languages": ["Spanish", "French"], "enable_caption": true }),
    )
    .await;
    for task in &images {
        until_kept(base, ada, "image_generate", task).await;
    }
    for task in &translated {
        until_kept(base, ada, "video_translate", task).await;
    }

    // The person, signed in, shares the whole request from a task's page,
    // with what was asked; the link is theirs to copy.
    let person = Browser::start().await;
    person.open(base).await;
    person.wait_for_text("main h1", "Sign in").await;
    person
        .type_into("#access-key", &format!("{ada}\u{E007}"))
        .await;
    person.wait_for_text("main h1", "Tasks").await;
    person
        .open(&format!("{base}/tasks/image_generate/{}", images[0]))
        .await;
    person.watch_for_errors().await;
    person.wait_for_text("#share-title", "Share").await;
    person
        .wait_for_text(
            "#share-what option[value='request']",
            "the whole request (2 tasks)",
        )
        .await;
    person.click("#share-asked").await;
    person.click("#share-create").await;
    let address = "document.querySelector('#share-links .share-link__address')";
    person
        .wait_until("the link made", &format!("{address} !== null"))
        .await;
    let link = person
        .eval(&format!("{address}.value"))
        .await
        .as_str()
        .unwrap()
        .to_owned();
    assert!(link.starts_with(&format!("{base}/s/")), "{link}");
    person
        .check_accessibility("a task's page with its Share panel")
        .await;
    person
        .assert_still_working("making a link on a task's page")
        .await;

    // The settings page lists it: for anyone, not opened yet.
    person.open(&format!("{base}/settings")).await;
    person
        .wait_until(
            "the link listed for anyone, not opened yet",
            "(() => { const said = document.querySelector('#shared-links .share-link .hint')?.textContent ?? ''; \
             return said.startsWith('Anyone with the link · open until ') && said.endsWith(' · opened 0 times'); })()",
        )
        .await;
    let translation_link = {
        let (status, made) = share(
            base,
            ada,
            json!({ "requests": [translation], "life": "day" }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        format!("{base}{}", made["data"]["path"].as_str().unwrap())
    };

    // A stranger on a phone who reads French: the page and its images, no
    // app at all.
    let stranger = Browser::start().await;
    stranger.resize(360, 780).await;
    stranger
        .devtools(
            "Network.setUserAgentOverride",
            json!({ "userAgent": "Mozilla/5.0 (Linux; Android 14) Mobile", "acceptLanguage": "fr-CH, fr;q=0.9, en;q=0.5" }),
        )
        .await;
    stranger.open(&link).await;
    stranger
        .wait_for_text("h1", "A harbour at dawn, shared")
        .await;
    stranger
        .wait_until(
            "both images drawn",
            "(() => { const all = [...document.querySelectorAll('main img')]; \
             return all.length === 2 && all.every((i) => i.complete && i.naturalWidth > 0); })()",
        )
        .await;
    let fetched = stranger
        .eval("performance.getEntriesByType('resource').map((e) => e.name)")
        .await;
    let fetched: Vec<String> = serde_json::from_value(fetched).unwrap();
    assert!(
        fetched
            .iter()
            .all(|name| !name.ends_with(".wasm") && !name.ends_with(".js")),
        "no script and no WebAssembly: {fetched:?}"
    );
    assert_eq!(stranger.sideways_overflow().await, 0, "fits 360 px");
    // The preview a chat app draws is the first image, at its own size.
    let preview = stranger
        .eval(
            "(() => { const meta = (name) => document.querySelector(`meta[property='og:image${name}']`)?.content; \
             const first = document.querySelector('main img'); \
             return [meta(':width'), meta(':height'), String(first.naturalWidth), String(first.naturalHeight), meta(''), first.src]; })()",
        )
        .await;
    let preview: Vec<Option<String>> = serde_json::from_value(preview).unwrap();
    assert!(preview[0].is_some(), "{preview:?}");
    assert_eq!(
        (&preview[0], &preview[1], &preview[4]),
        (&preview[2], &preview[3], &preview[5]),
        "og:image's size and address are the first image's"
    );
    stranger
        .check_accessibility("a shared page on a phone")
        .await;
    stranger.screenshot("shared-page").await;

    // The translation opens in French, its subtitles loaded as a track;
    // choosing Spanish switches the video and the subtitles.
    stranger.open(&translation_link).await;
    let track = "document.querySelector('main video track')";
    stranger
        .wait_until(
            "the French video and its subtitles",
            &format!("{track} !== null && {track}.srclang === 'fr'"),
        )
        .await;
    let french_video = stranger
        .eval("document.querySelector('main video').currentSrc || document.querySelector('main video').src")
        .await;
    stranger.click("main a[hreflang='es']").await;
    stranger
        .wait_until(
            "the Spanish video and its subtitles",
            &format!("location.search === '?lang=es' && {track}.srclang === 'es'"),
        )
        .await;
    let spanish_video = stranger
        .eval("document.querySelector('main video').src")
        .await;
    assert_ne!(spanish_video, french_video, "another language's video");
    stranger
        .wait_until(
            "the Spanish subtitles read as WebVTT",
            &format!("{track}.readyState === 2 && {track}.track.cues.length > 0"),
        )
        .await;
    stranger
        .check_accessibility("a shared translation on a phone")
        .await;

    // Embedded in another site's page: the frame shows the results.
    let other_site = test_folder("sharing-embed");
    std::fs::write(
        other_site.path().join("index.html"),
        format!(
            "<!doctype html><html lang=\"en\"><title>A blog</title>\
             <h1>A blog</h1><iframe src=\"{link}?embed\" title=\"Shared results\" width=\"340\" height=\"600\"></iframe></html>"
        ),
    )
    .unwrap();
    let (blog, _) = serve_folder(other_site.path().to_owned()).await;
    stranger.open(&format!("{blog}/index.html")).await;
    stranger.wait_for_text("h1", "A blog").await;
    stranger.client.enter_frame(0).await.unwrap();
    stranger
        .wait_until(
            "the embedded images drawn in the frame",
            "(() => { const all = [...document.querySelectorAll('main img')].filter((i) => i.src.includes('/s/')); \
             return all.length === 2 && all.every((i) => i.complete && i.naturalWidth > 0); })()",
        )
        .await;
    stranger.client.enter_parent_frame().await.unwrap();

    // Taken back from the settings page, read again: the link was opened
    // (on its page and in the frame), and the stranger's next look is gone.
    person.reload().await;
    person.watch_for_errors().await;
    let row = format!("#shared-links .share-link:has(input[value='{link}'])");
    person
        .wait_until(
            "the link's views counted",
            &format!("(document.querySelector(\"{row}\")?.textContent ?? 'opened 0 times').match(/opened (once|[2-9] times)/) !== null"),
        )
        .await;
    person.click(&format!("{row} .share-link__take-back")).await;
    person
        .wait_until(
            "the link marked taken back",
            &format!("document.querySelector(\"{row}\").dataset.live === 'false'"),
        )
        .await;
    stranger.open(&link).await;
    stranger
        .wait_for_text("h1", "This link was taken back")
        .await;
    stranger.check_accessibility("a link taken back").await;
    person.assert_still_working("sharing from the app").await;
}
