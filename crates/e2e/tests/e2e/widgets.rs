//! The npm package as a JavaScript developer uses it: installed with npm from
//! the packed tarball, imported by a plain page the gateway serves, in
//! headless Chromium, the sandbox behind the gateway. No token in the page:
//! the gateway adds it. `cargo xtask test` packs and installs it first.

use std::path::PathBuf;
use std::time::Duration;

use media_gen_e2e::{
    folder_copy, inject_faults, npm_scratch_dir, start_fetching_sandbox, start_relay_site,
    start_site_serving, test_folder, Browser, RelayGateway, RelayOptions, Site,
};
use serde_json::Value;

use crate::common::{fetched_hash_soon, sha256, slow_line, DROP_FILE, MAKE_FILE, RECORD_PATCHES};

/// The test page with the package loaded; returns the site and the browser.
async fn page(task_ms: u64) -> (Site, Browser) {
    let site = start_site_serving(npm_scratch_dir(), task_ms).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/index.html", site.base_url)).await;
    browser
        .wait_until("the package to load", "window.ready === true")
        .await;
    (site, browser)
}

/// A gateway serving `site` that takes uploads (into a folder named
/// after `name`), in front of a sandbox fetching inputs as the service
/// does: the sandbox's address, the gateway and the uploads' folder
/// (removed when dropped, so kept to the test's end).
async fn uploading_site(site: PathBuf, name: &str) -> (String, RelayGateway, tempfile::TempDir) {
    let sandbox = start_fetching_sandbox(100).await;
    let uploads = test_folder(&format!("{name}-uploads"));
    let gateway = RelayGateway::start(RelayOptions {
        static_dir: Some(site),
        uploads: Some(media_gen_gateway::uploads::UploadSettings::new(
            uploads.path().to_owned(),
            String::new(),
        )),
        ..RelayOptions::new(&sandbox)
    })
    .await;
    (sandbox, gateway, uploads)
}

/// How many nodes the shadow root of the element `element` (a JavaScript
/// expression) still holds: none once its widget is unmounted.
async fn nodes_left(browser: &Browser, element: &str) -> Value {
    browser
        .eval(&format!("{element}.shadowRoot.childNodes.length"))
        .await
}

/// The page that imports only the client entry (`window.client`).
async fn client_page() -> (Site, Browser) {
    let site = start_site_serving(npm_scratch_dir(), 100).await;
    let browser = Browser::start().await;
    browser
        .open(&format!("{}/client.html", site.base_url))
        .await;
    browser
        .wait_until("the client entry to load", "window.ready === true")
        .await;
    (site, browser)
}

/// `{ baseUrl }` for the page's own site (its gateway adds the token), as JavaScript.
fn connection() -> String {
    "{ baseUrl: location.origin }".to_owned()
}

/// Mount an image generation form in `host` as `window[name]`, and wait
/// for it to render.
async fn mount_form(browser: &Browser, host: &str, name: &str) {
    browser
        .run_async(&format!(
            "window.{name} = widgets.mountSubmitWidget(document.querySelector('{host}'),
               {{ ...{conn}, kind: 'image_generate' }});",
            conn = connection()
        ))
        .await;
    browser
        .wait_until(
            "the form in the shadow root",
            &format!("inWidget('{host}', '#prompt') !== null"),
        )
        .await;
}

/// Submit one image of `prompt` through the client entry, follow it in a
/// status widget in `#status` (`window.follow`), and wait for the image.
async fn follow_one_image(browser: &Browser, prompt: &str) {
    browser
        .run_async(&format!(
            "const ids = await widgets.createClient({conn}).submitImageGenerate({{ prompt: '{prompt}', image_quality: '1K' }});
             window.follow = widgets.mountStatusWidget('#status', {{ ...{conn}, kind: 'image_generate', taskIds: ids.taskIds }});
             await window.follow.ready;",
            conn = connection()
        ))
        .await;
    browser
        .wait_until(
            "the finished image",
            "document.querySelector('#status').shadowRoot.querySelectorAll('.gallery img').length === 1",
        )
        .await;
}

/// Wait until the form in `#submit-a` may be sent, then click its Submit
/// button, as a person does.
async fn click_submit_once_enabled(browser: &Browser) {
    browser
        .wait_until(
            "submit enabled",
            "!inWidget('#submit-a', '#submit').disabled",
        )
        .await;
    browser
        .run_async("inWidget('#submit-a', '#submit').click();")
        .await;
}

/// Click `#submit-a`'s Submit and wait until the page hears it was taken.
async fn submit_and_hear_it(browser: &Browser) {
    browser
        .run_async("inWidget('#submit-a', '#submit').click();")
        .await;
    browser
        .wait_until(
            "the submitted event",
            "events.some((e) => e.type === 'media-gen-submitted')",
        )
        .await;
}

/// The events the page has heard, by type.
async fn events(browser: &Browser, kind: &str) -> Vec<Value> {
    let all = browser.eval("window.events").await;
    all.as_array()
        .expect("an array of events")
        .iter()
        .filter(|event| event["type"] == kind)
        .cloned()
        .collect()
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn submit_then_status_widget_with_every_event() {
    let (_, browser) = page(300).await;
    mount_form(&browser, "#submit-a", "submitA").await;
    // Live rules inside the widget: an empty prompt blocks submit.
    browser
        .wait_until(
            "submit disabled",
            "inWidget('#submit-a', '#submit').disabled",
        )
        .await;
    browser
        .run_async(
            "typeInto('#submit-a', '#prompt', 'A red kite'); typeInto('#submit-a', '#count', '2');",
        )
        .await;
    browser
        .wait_until(
            "submit enabled",
            "!inWidget('#submit-a', '#submit').disabled",
        )
        .await;
    browser.screenshot("widget-submit").await;
    submit_and_hear_it(&browser).await;
    let submitted = events(&browser, "media-gen-submitted").await;
    let event = &submitted[0];
    assert_eq!(
        (&event["target"], &event["bubbles"], &event["composed"]),
        (
            &Value::from("submit-a"),
            &Value::from(true),
            &Value::from(true)
        )
    );
    assert_eq!(event["detail"]["kind"], "image_generate");
    assert_eq!(event["detail"]["request"]["prompt"], "A red kite");
    let ids = event["detail"]["taskIds"].as_array().unwrap().clone();
    assert_eq!(ids.len(), 2);

    // The handle is dropped (`window.status` keeps only a string): the widget
    // lives until `unmount()`, whatever happens to its handle.
    browser
        .run_async(&format!(
            "window.status = widgets.mountStatusWidget(document.querySelector('#status'),
               {{ ...{conn}, kind: 'image_generate', taskIds: {ids} }});",
            conn = connection(),
            ids = Value::from(ids.clone())
        ))
        .await;
    browser
        .wait_until(
            "both tasks complete",
            "events.filter((e) => e.type === 'media-gen-complete').length === 2",
        )
        .await;
    let complete = events(&browser, "media-gen-complete").await;
    for event in &complete {
        assert_eq!(event["target"], "status");
        assert_eq!(event["detail"]["status"], "SUCCEEDED");
        assert_eq!(event["detail"]["task"]["status"], "SUCCEEDED");
        assert!(ids.contains(&event["detail"]["taskId"]));
    }
    let status_events = events(&browser, "media-gen-status").await;
    assert!(
        status_events.len() >= 2,
        "a status event per change: {status_events:?}"
    );
    browser
        .wait_until(
            "the images in the status widget",
            "document.querySelector('#status').shadowRoot.querySelectorAll('.gallery img').length === 2",
        )
        .await;
    browser.screenshot("widget-status").await;

    // A task that cannot be read is an error event naming it.
    browser
        .run_async(&format!(
            "widgets.mountStatusWidget(document.querySelector('#submit-b'),
               {{ ...{conn}, kind: 'image_to_video', taskId: 'i2v-missing' }});",
            conn = connection()
        ))
        .await;
    browser
        .wait_until(
            "the error event",
            "events.some((e) => e.type === 'media-gen-error')",
        )
        .await;
    let error = &events(&browser, "media-gen-error").await[0];
    assert_eq!(error["detail"]["taskId"], "i2v-missing");
    assert_eq!(error["detail"]["error"]["status"], 404);
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn update_keeps_input_and_unmount_leaves_nothing_running() {
    // Long tasks: the status widget is still polling when it is unmounted.
    let (site, browser) = page(20_000).await;
    mount_form(&browser, "#submit-a", "form").await;
    browser
        .run_async("typeInto('#submit-a', '#prompt', 'kept');")
        .await;
    // A new connection keeps what was typed.
    browser
        .run_async("form.update({ baseUrl: location.origin + '/' });")
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        browser.eval("inWidget('#submit-a', '#prompt').value").await,
        "kept"
    );
    // A new kind is a new form; bad options throw and change nothing.
    let thrown = browser
        .run_async("try { form.update({ kind: 'nope' }); return null; } catch (e) { return [e.kind, e.field]; }")
        .await;
    assert_eq!(thrown, serde_json::json!(["options", "kind"]));
    browser
        .run_async("form.update({ kind: 'video_translate' });")
        .await;
    browser
        .wait_until(
            "the translation form",
            "inWidget('#submit-a', '#video_url') !== null",
        )
        .await;
    // Taken down while the cursor is in one of its fields: the page (and
    // every widget on it) keeps working.
    browser.watch_for_errors().await;
    browser
        .run_async("inWidget('#submit-a', '#video_url').focus(); typeInto('#submit-a', '#video_url', 'https://e');")
        .await;
    browser.run_async("form.unmount(); form.unmount();").await;
    assert_eq!(
        nodes_left(&browser, "document.querySelector('#submit-a')").await,
        0
    );
    browser
        .assert_still_working("unmounting a widget with the cursor in it")
        .await;

    // A status widget polls; after unmount, no request reaches the sandbox.
    let id = browser
        .run_async(&format!(
            "const client = widgets.createClient({conn});
             const ids = await client.submitImageGenerate({{ prompt: 'slow' }});
             window.follow = widgets.mountStatusWidget(document.querySelector('#status'),
               {{ ...{conn}, kind: 'image_generate', taskId: ids.taskIds[0] }});
             return ids.taskIds[0];",
            conn = connection()
        ))
        .await;
    assert!(id.is_string());
    browser
        .wait_until(
            "a first read",
            "events.some((e) => e.type === 'media-gen-status')",
        )
        .await;
    browser.run_async("follow.unmount();").await;
    let reads = || async {
        let stats = browser
            .run_async(&format!(
                "return (await fetch('{}/sandbox/stats')).json();",
                site.sandbox_url
            ))
            .await;
        stats["data"]["v1_requests"]
            .as_u64()
            .expect("a request count")
    };
    let before = reads().await;
    // Longer than the poller's longest wait between reads (15 s) would be
    // slow; its first waits are 1 s growing ×1.5, so 4 s covers two reads.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(reads().await, before, "nothing polls after unmount");
    assert_eq!(
        nodes_left(&browser, "document.querySelector('#status')").await,
        0
    );
    browser.close().await;
}

/// On one page of the package (`index.html`), each part in its own
/// element: the client and the rules work from JavaScript; custom elements
/// work from plain HTML (attributes reflect, removing one unmounts it); a
/// status widget follows new tasks after `update`; two submit widgets are
/// independent, the one submitted sending the page's only
/// `media-gen-submitted`.
#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_elements_and_widgets_work_side_by_side_on_one_page() {
    let (_, browser) = page(100).await;
    // The client and the rules, from JavaScript (no element).
    let result = browser
        .run_async(&format!(
            "const client = widgets.createClient({conn});
             const ids = await client.submitImageGenerate({{ prompt: 'A lighthouse', image_quality: '1K' }});
             let task;
             for (let i = 0; i < 100; i++) {{
               task = await client.imageGenerate(ids.taskIds[0]);
               if (task.status === 'SUCCEEDED') break;
               await new Promise((r) => setTimeout(r, 50));
             }}
             const languages = await client.targetLanguages();
             let failure;
             try {{ await client.videoTranslate('vt-unknown'); }} catch (error) {{
               failure = {{ message: error.message, kind: error.kind, status: error.status, retryable: error.retryable, isError: error instanceof Error }};
             }}
             let bad;
             try {{ widgets.createClient({{ baseUrl: 'ftp://x' }}); }} catch (error) {{ bad = {{ kind: error.kind, field: error.field }}; }}
             let shape;
             try {{ widgets.validateImageGenerate({{ prompt: 'p', generate_count: 'two' }}); }} catch (error) {{ shape = error.field; }}
             const problems = widgets.validateImageToVideo({{ model: 'S', prompt: '', aspect_resolution: '4k', duration: 5 }});
             return {{
               plain: Object.getPrototypeOf(task) === Object.prototype,
               status: task.status, image: task.image_url, languages: languages.length,
               failure, bad, shape, problems,
               rule: widgets.validate('image_generate', {{ prompt: '' }})[0].rule,
             }};",
            conn = connection()
        ))
        .await;
    assert_eq!(result["plain"], true, "plain objects, not Maps: {result}");
    assert_eq!(result["status"], "SUCCEEDED");
    assert!(result["image"].as_str().unwrap().contains(".png"));
    assert!(result["languages"].as_u64().unwrap() > 3);
    let failure = &result["failure"];
    assert_eq!(
        (
            &failure["kind"],
            &failure["status"],
            &failure["retryable"],
            &failure["isError"]
        ),
        (
            &Value::from("http"),
            &Value::from(404),
            &Value::from(false),
            &Value::from(true)
        ),
        "{failure}"
    );
    assert_eq!(result["bad"]["kind"], "options");
    assert_eq!(result["bad"]["field"], "baseUrl");
    assert_eq!(result["shape"], "request.generate_count");
    let fields: Vec<&str> = result["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect();
    assert!(
        fields.contains(&"prompt")
            && fields.contains(&"aspect_resolution")
            && fields.contains(&"duration"),
        "{fields:?}"
    );
    assert_eq!(result["rule"], "required");

    // Custom elements from plain HTML, in `#elements`.
    let id = browser
        .run_async(&format!(
            "const ids = await widgets.createClient({conn}).submitImageGenerate({{ prompt: 'element' }});
             document.querySelector('#elements').innerHTML =
               `<media-gen-submit id=\"el-submit\" kind=\"image_generate\"></media-gen-submit>
                <media-gen-task id=\"el-task\" kind=\"image_generate\" task-id=\"${{ids.taskIds[0]}}\"></media-gen-task>`;
             return ids.taskIds[0];",
            conn = connection(),
        ))
        .await;
    browser
        .wait_until(
            "the element's form",
            "inWidget('#el-submit', '#prompt') !== null",
        )
        .await;
    browser
        .wait_until(
            "the element's task to complete",
            &format!("events.some((e) => e.type === 'media-gen-complete' && e.target === 'el-task' && e.detail.taskId === {id})"),
        )
        .await;
    // Attributes reflect as properties and back; a new kind is a new form.
    browser
        .run_async("document.querySelector('#el-submit').kind = 'image_to_video';")
        .await;
    assert_eq!(
        browser
            .eval("document.querySelector('#el-submit').getAttribute('kind')")
            .await,
        "image_to_video"
    );
    browser
        .wait_until(
            "the model cards",
            "inWidget('#el-submit', '#model-S') !== null",
        )
        .await;
    browser.screenshot("widget-elements").await;
    // Removing the element unmounts it.
    browser
        .run_async(
            "const el = document.querySelector('#el-submit'); el.remove(); window.removed = el;",
        )
        .await;
    assert_eq!(nodes_left(&browser, "window.removed").await, 0);

    // A status widget follows new tasks after `update`, in `#status`.
    let ids = browser
        .run_async(&format!(
            "const client = widgets.createClient({conn});
             const first = await client.submitImageGenerate({{ prompt: 'first' }});
             const second = await client.submitImageGenerate({{ prompt: 'second' }});
             window.follow = widgets.mountStatusWidget(document.querySelector('#status'),
               {{ ...{conn}, kind: 'image_generate', taskId: first.taskIds[0] }});
             return [first.taskIds[0], second.taskIds[0]];",
            conn = connection()
        ))
        .await;
    let shown = |id: &Value| {
        format!(
            "document.querySelector('#status').shadowRoot.querySelector('li[data-task-id={id}][data-status=SUCCEEDED]')"
        )
    };
    browser.wait_until("the first task", &shown(&ids[0])).await;
    browser
        .run_async(&format!("follow.update({{ taskId: {} }});", ids[1]))
        .await;
    browser.wait_until("the second task", &shown(&ids[1])).await;
    assert_eq!(
        browser
            .eval("document.querySelector('#status').shadowRoot.querySelectorAll('li.widget-task').length")
            .await,
        1,
        "only the task it follows now"
    );

    // Two submit widgets, in `#submit-a` and `#submit-b`, are independent:
    // last, as its submit is the page's only `media-gen-submitted`.
    browser
        .run_async(&format!(
            "for (const id of ['#submit-a', '#submit-b']) {{
               widgets.mountSubmitWidget(document.querySelector(id), {{ ...{conn}, kind: 'image_generate' }});
             }}",
            conn = connection()
        ))
        .await;
    browser
        .wait_until(
            "both forms",
            "inWidget('#submit-a', '#prompt') && inWidget('#submit-b', '#prompt')",
        )
        .await;
    browser
        .run_async("typeInto('#submit-a', '#prompt', 'only in A');")
        .await;
    browser
        .wait_until("A valid", "!inWidget('#submit-a', '#submit').disabled")
        .await;
    assert_eq!(
        browser.eval("inWidget('#submit-b', '#prompt').value").await,
        ""
    );
    assert_eq!(
        browser
            .eval("inWidget('#submit-b', '#submit').disabled")
            .await,
        true
    );
    submit_and_hear_it(&browser).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let submitted = events(&browser, "media-gen-submitted").await;
    assert_eq!(submitted.len(), 1);
    assert_eq!(submitted[0]["target"], "submit-a");
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_example_page_mounts_both_widgets() {
    let site = start_site_serving(npm_scratch_dir(), 100).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/embed/", site.base_url)).await;
    browser
        .wait_until(
            "the example's form",
            "document.querySelector('#submit').shadowRoot?.querySelector('#prompt')",
        )
        .await;
    browser
        .run_async(
            "const field = document.querySelector('#submit').shadowRoot.querySelector('#prompt');
             field.value = 'From the example';
             field.dispatchEvent(new Event('input', { bubbles: true }));",
        )
        .await;
    browser
        .wait_until(
            "submit enabled",
            "!document.querySelector('#submit').shadowRoot.querySelector('#submit').disabled",
        )
        .await;
    browser
        .run_async("document.querySelector('#submit').shadowRoot.querySelector('#submit').click();")
        .await;
    browser
        .wait_until(
            "the status widget's image",
            "document.querySelector('#status').shadowRoot?.querySelector('.gallery img')",
        )
        .await;
    browser
        .wait_until(
            "the completion in the log",
            "document.querySelector('#log').textContent.includes('media-gen-complete')",
        )
        .await;
    browser
        .wait_until(
            "the custom element's form",
            "document.querySelector('#element-form').shadowRoot?.querySelector('#prompt')",
        )
        .await;
    browser.screenshot("widgets-example").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn widgets_work_with_no_token_in_the_page() {
    let (_, browser) = page(100).await;
    browser
        .run_async(
            "window.form = widgets.mountSubmitWidget(document.querySelector('#submit-a'),
               { baseUrl: location.origin, kind: 'image_generate' });",
        )
        .await;
    browser
        .wait_until("the form", "inWidget('#submit-a', '#prompt') !== null")
        .await;
    browser
        .run_async("typeInto('#submit-a', '#prompt', 'no token here');")
        .await;
    click_submit_once_enabled(&browser).await;
    browser
        .wait_until(
            "the submitted event",
            "events.some((e) => e.type === 'media-gen-submitted')",
        )
        .await;
    browser
        .run_async(
            "const { kind, taskIds } = events.find((e) => e.type === 'media-gen-submitted').detail;
             widgets.mountStatusWidget(document.querySelector('#status'), { baseUrl: location.origin, kind, taskIds });",
        )
        .await;
    browser
        .wait_until(
            "the task to complete",
            "events.some((e) => e.type === 'media-gen-complete')",
        )
        .await;
    browser.close().await;
}

/// The names of the wasm modules the page has fetched so far, once each
/// fetch (a module fetched twice is named twice).
const FETCHED_MODULES: &str = "performance.getEntriesByType('resource')
    .map((entry) => entry.name.split('/').pop())
    .filter((name) => name.endsWith('.wasm'))";

/// The wasm files the page has fetched so far, sorted, by name without
/// `.wasm` or the hash a bundler adds (`…_bg-DOTQ1eKF.wasm`), checked to
/// be fetched once each. Code the widgets' chunks share (`…_chunk_N`,
/// numbered by the split, and inlined by a bundler when small) is checked
/// but not named: what is named is the modules and the chunks' own parts.
async fn fetched_once(browser: &Browser) -> Vec<String> {
    let fetched = browser.eval(FETCHED_MODULES).await;
    let mut names: Vec<String> = fetched
        .as_array()
        .expect("a list of names")
        .iter()
        .map(|name| {
            let name = name.as_str().expect("a name");
            let stem = name.strip_suffix(".wasm").unwrap_or(name);
            stem.split('-').next().unwrap_or(stem).to_owned()
        })
        .collect();
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "each module fetched once: {fetched}");
    names.retain(|name| !name.starts_with("media_gen_widgets_chunk_"));
    names
}

/// On the page that imports only the client entry (`client.html`): the
/// client calls and watches and loads no views (only the client module is
/// fetched, so this comes first); it reads what the page gives as
/// `JSON.stringify` would and waits as the service asks; and elements
/// reflect their properties and keep those set before they were defined
/// (last: this imports the widgets module).
#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_entry_alone_calls_reads_and_waits_and_elements_keep_early_properties() {
    let (site, browser) = client_page().await;
    // Calls and watches, with no views loaded.
    let result = browser
        .run_async(&format!(
            "const api = client.createClient({conn});
             const ids = await api.submitImageGenerate({{ prompt: 'watched', image_quality: '1K', generate_count: 2 }});
             const updates = [];
             const ended = new Promise((resolve) => {{
               api.watch('image_generate', ids.taskIds[0], (update) => {{
                 updates.push(update);
                 if (update.done) resolve();
               }});
             }});
             // Stopped at once: this one hears nothing.
             const stopped = [];
             api.watch('image_generate', ids.taskIds[1], (update) => stopped.push(update)).stop();
             await ended;
             await new Promise((r) => setTimeout(r, 300));
             let bad;
             try {{ api.watch('audio', 'x', () => {{}}); }} catch (error) {{ bad = [error.kind, error.field, client.isMediaGenError(error)]; }}
             let rejected;
             try {{ await api.task('video_translate', 'vt-unknown'); }} catch (error) {{
               rejected = [error instanceof client.MediaGenError, error instanceof Error, error.status];
             }}
             return {{ updates, stopped: stopped.length, bad, modules: {FETCHED_MODULES}, rejected,
                       guard: [client.isMediaGenError(new Error('x')), client.isMediaGenError(null),
                               new Error('x') instanceof client.MediaGenError] }};",
            conn = connection()
        ))
        .await;
    let updates = result["updates"].as_array().expect("updates");
    let last = updates.last().expect("at least one update");
    assert_eq!(last["done"], true, "{result}");
    assert_eq!(last["task"]["status"], "SUCCEEDED", "{result}");
    assert!(last["task"]["image_url"].as_str().unwrap().contains(".png"));
    assert!(
        updates.iter().all(|u| u["kind"] == "image_generate"),
        "{result}"
    );
    assert_eq!(result["stopped"], 0, "{result}");
    assert_eq!(result["bad"], serde_json::json!(["options", "kind", true]));
    assert_eq!(result["guard"], serde_json::json!([false, false, false]));
    assert_eq!(result["rejected"], serde_json::json!([true, true, 404]));
    assert_eq!(
        result["modules"],
        serde_json::json!(["media_gen_client_bg.wasm"]),
        "only the client module"
    );

    // Reads what the page gives, and waits as the service asks.
    // What the page passes is read as `JSON.stringify` would write it: an
    // `undefined` or a function is absent, a number that is not finite is
    // null; a number with a fraction where a whole one goes is named
    // without printing it.
    let read = browser
        .run_async(
            "const fraction = (() => {
               try { client.validateImageGenerate({ prompt: 'p', generate_count: 1.25 }); return null; }
               catch (error) { return [error.kind, error.field, error.message]; }
             })();
             const loose = client.validateImageGenerate({
               prompt: 'a lighthouse', image_quality: '1K', seed: undefined,
               generate_count: Number.NaN, extra: () => 1,
             });
             const wrong = (() => {
               try { client.validate('image_to_video', { prompt: 'p', model: 'S', duration: '4' }); return null; }
               catch (error) { return [error.field, error.message]; }
             })();
             return { fraction, loose, wrong };",
        )
        .await;
    assert_eq!(read["fraction"][0], "options", "{read}");
    assert_eq!(read["fraction"][1], "request.generate_count", "{read}");
    let message = read["fraction"][2].as_str().unwrap();
    assert!(
        message.contains("a number with a fraction") && !message.contains("1.25"),
        "{message}"
    );
    assert_eq!(read["loose"], serde_json::json!([]), "{read}");
    assert_eq!(
        read["wrong"],
        serde_json::json!([
            "request.duration",
            "request.duration: invalid type: string \"4\", expected i64"
        ]),
        "{read}"
    );

    // A read the service turns away with 429 and `Retry-After: 1` is sent
    // again after that second, and resolves.
    inject_faults(
        &site.sandbox_url,
        &serde_json::json!({ "http_429": 1.0, "retry_after_secs": 1, "limit": 1 }),
    )
    .await;
    let waited = browser
        .run_async(&format!(
            "const api = client.createClient({conn});
             const started = performance.now();
             const languages = await api.targetLanguages();
             return {{ count: languages.length, waited: performance.now() - started }};",
            conn = connection()
        ))
        .await;
    assert!(waited["count"].as_u64().unwrap() > 3, "{waited}");
    assert!(waited["waited"].as_f64().unwrap() >= 900.0, "{waited}");

    // A submit refused in a 200 answer is a business error with its code,
    // and is not sent again.
    inject_faults(
        &site.sandbox_url,
        &serde_json::json!({ "business_error": 1.0, "limit": 1 }),
    )
    .await;
    let refused = browser
        .run_async(&format!(
            "const api = client.createClient({conn});
             try {{ await api.submitImageGenerate({{ prompt: 'refused' }}); return null; }}
             catch (error) {{ return [error.kind, typeof error.code, error.retryable, error.message]; }}",
            conn = connection()
        ))
        .await;
    assert_eq!(refused[0], "business", "{refused}");
    assert_eq!(refused[1], "number", "{refused}");
    assert_eq!(refused[2], false, "{refused}");

    // Elements reflect their properties, those set before they were
    // defined too.
    let result = browser
        .run_async(
            "const early = document.createElement('media-gen-task');
             early.kind = 'image_generate';
             early.taskIds = ['ig-a', 'ig-b'];
             early.baseUrl = location.origin;
             document.body.append(early);
             const widgets = await import('./node_modules/@media-gen/widgets/index.js');
             widgets.defineElements();
             const upgraded = [early instanceof widgets.MediaGenTaskElement, early.getAttribute('kind'),
                               early.getAttribute('task-ids'), early.taskIds];
             early.taskIds = null;
             early.taskId = 'ig-c';
             early.kind = null;
             return { upgraded, cleared: [early.hasAttribute('task-ids'), early.getAttribute('task-id'),
                                          early.hasAttribute('kind'), early.taskIds] };",
        )
        .await;
    assert_eq!(
        result["upgraded"],
        serde_json::json!([true, "image_generate", "ig-a ig-b", ["ig-a", "ig-b"]])
    );
    assert_eq!(
        result["cleared"],
        serde_json::json!([false, "ig-c", false, null])
    );
    browser.close().await;
}

/// A site's `/capabilities` is asked once per page: clients share the
/// answer, one caller giving up does not cancel it for the others, and an
/// ask that failed is not kept.
#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_entry_asks_a_site_what_it_offers_once_and_again_after_a_failure() {
    let (_site, browser) = client_page().await;
    let result = browser
        .run_async(&format!(
            "// The page's own fetch, counting the asks; the first is refused.
             let asks = 0;
             const realFetch = window.fetch;
             window.fetch = (input, init) => {{
               if (!String(input).endsWith('/capabilities')) return realFetch(input, init);
               asks += 1;
               return asks === 1
                 ? Promise.resolve(new Response('{{}}', {{ status: 400, headers: {{ 'Content-Type': 'application/json' }} }}))
                 : realFetch(input, init);
             }};
             const api = client.createClient({conn});
             const other = client.createClient({conn});
             let refused = null;
             try {{ await api.capabilities(); }} catch (error) {{ refused = error.kind; }}
             const stop = new AbortController();
             const first = api.capabilities(stop.signal);
             const second = other.capabilities();
             stop.abort();
             let stopped = null;
             try {{ await first; }} catch (error) {{ stopped = error.kind; }}
             const offers = await second;
             await api.capabilities();
             await other.capabilities();
             return {{ refused, stopped, offered: Object.keys(offers).length > 0, asks }};",
            conn = connection()
        ))
        .await;
    assert_eq!(
        result,
        serde_json::json!({ "refused": "http", "stopped": "aborted", "offered": true, "asks": 2 }),
        "a refused ask, then one ask for four calls"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_widgets_module_loads_on_the_first_mount_once() {
    let (_, browser) = page(100).await;
    assert_eq!(
        browser.eval(FETCHED_MODULES).await,
        serde_json::json!(["media_gen_client_bg.wasm"]),
        "importing the widgets' entry fetches no views"
    );
    mount_form(&browser, "#submit-a", "formA").await;
    mount_form(&browser, "#submit-b", "formB").await;
    browser
        .run_async("await widgets.preload(); await widgets.preload({ forms: true });")
        .await;
    assert_eq!(
        fetched_once(&browser).await,
        [
            "media_gen_client_bg",
            "media_gen_widgets_bg",
            "media_gen_widgets_split_widget_submit"
        ],
        "one fetch of the widgets' module and of the forms for two forms and \
         two preloads; no file controls, as this site takes no uploads"
    );
    // One stylesheet, adopted by both shadow roots; no <style> copies.
    let sheets = browser
        .eval(
            "(() => {
               const [a, b] = ['#submit-a', '#submit-b'].map((id) => document.querySelector(id).shadowRoot);
               return [a.adoptedStyleSheets.length, a.adoptedStyleSheets[0] === b.adoptedStyleSheets[0],
                       a.querySelectorAll('style').length + b.querySelectorAll('style').length];
             })()",
        )
        .await;
    assert_eq!(sheets, serde_json::json!([1, true, 0]));
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_that_only_follows_tasks_fetches_no_forms() {
    let (_, browser) = page(100).await;
    follow_one_image(&browser, "followed").await;
    assert_eq!(
        fetched_once(&browser).await,
        ["media_gen_client_bg", "media_gen_widgets_bg"],
        "the status widget's page fetches no form"
    );
    // The first submit widget fetches the forms, and is drawn whole when
    // its `ready` settles.
    let drawn = browser
        .run_async(&format!(
            "const form = widgets.mountSubmitWidget('#submit-a', {{ ...{conn}, kind: 'image_to_video' }});
             await form.ready;
             return inWidget('#submit-a', '#prompt') !== null;",
            conn = connection()
        ))
        .await;
    assert_eq!(drawn, true, "the form is on the page as `ready` settles");
    assert_eq!(
        fetched_once(&browser).await,
        [
            "media_gen_client_bg",
            "media_gen_widgets_bg",
            "media_gen_widgets_split_widget_submit"
        ]
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn a_submit_widget_whose_forms_did_not_load_says_so_and_the_next_mount_loads_them() {
    // The test page and the package, without the forms' chunk.
    let scratch = npm_scratch_dir();
    let (folder, missing) = folder_copy(
        &scratch,
        "widgets-forms-gone",
        |path| {
            path == "index.html"
                || path == "node_modules"
                || path.starts_with("node_modules/@media-gen")
        },
        |path| path.contains("media_gen_widgets_split_widget_submit"),
    );
    assert_eq!(missing.len(), 1, "the package has the forms' chunk");
    let site = start_site_serving(folder.path().to_owned(), 100).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/index.html", site.base_url)).await;
    browser
        .wait_until("the package to load", "window.ready === true")
        .await;
    let mount = |host: &str| {
        format!(
            "const form = widgets.mountSubmitWidget('{host}', {{ ...{conn}, kind: 'image_generate' }});
             try {{ await form.ready; return 'ready'; }} catch (error) {{ return error.message; }}",
            conn = connection()
        )
    };
    let said = browser.run_async(&mount("#submit-a")).await;
    assert!(
        said.as_str()
            .is_some_and(|message| message.contains("form did not load")),
        "`ready` rejects, saying what happened: {said}"
    );
    // The widget says so in place of its form.
    let shown = browser
        .eval("inWidget('#submit-a', '[role=alert]')?.textContent ?? null")
        .await;
    assert!(
        shown
            .as_str()
            .is_some_and(|text| text.starts_with("The form did not load")),
        "{shown}"
    );
    // The file is back (a deploy finished): the next widget loads it.
    for path in &missing {
        let inside = path.strip_prefix(folder.path()).expect("inside the copy");
        std::fs::copy(scratch.join(inside), path).expect("put the file back");
    }
    assert_eq!(browser.run_async(&mount("#submit-b")).await, "ready");
    browser
        .wait_until("the form", "inWidget('#submit-b', '#prompt') !== null")
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn a_submit_handle_says_when_it_is_ready_and_changes_and_can_send_reset_and_focus() {
    let (_, browser) = page(100).await;
    browser
        .run_async(&format!(
            "window.heard = [];
             for (const name of [widgets.EVENT_READY, widgets.EVENT_CHANGE]) {{
               document.addEventListener(name, (event) => heard.push({{ type: event.type, target: event.target.id, detail: event.detail }}));
             }}
             window.form = widgets.mountSubmitWidget('#submit-a', {{ ...{conn}, kind: 'image_generate' }});
             await form.ready;",
            conn = connection()
        ))
        .await;
    let ready = browser
        .eval("heard.filter((e) => e.type === 'media-gen-ready')")
        .await;
    assert_eq!(
        ready,
        serde_json::json!([{ "type": "media-gen-ready", "target": "submit-a", "detail": { "kind": "image_generate" } }])
    );
    // In parentheses: it is read with `.empty` after it.
    let last_change = "(heard.filter((e) => e.type === 'media-gen-change').at(-1)?.detail ?? null)";
    let changes = "heard.filter((e) => e.type === 'media-gen-change').length";
    // As it opens, the page hears the form's state: empty, not complete.
    browser
        .wait_until(
            "the form's state as it opens",
            &format!("{last_change} !== null"),
        )
        .await;
    let opened = browser.eval(last_change).await;
    assert_eq!(
        (&opened["empty"], &opened["complete"]),
        (&Value::from(true), &Value::from(false)),
        "{opened}"
    );
    browser
        .run_async("typeInto('#submit-a', '#prompt', 'a fox');")
        .await;
    browser
        .wait_until("a change", &format!("{last_change} !== null"))
        .await;
    let change = browser.eval(last_change).await;
    assert_eq!(
        (&change["kind"], &change["complete"], &change["empty"]),
        (
            &Value::from("image_generate"),
            &Value::from(true),
            &Value::from(false)
        ),
        "{change}"
    );
    browser
        .run_async("typeInto('#submit-a', '#prompt', '');")
        .await;
    browser
        .wait_until(
            "the form empty again",
            &format!("{last_change}?.empty === true"),
        )
        .await;
    let change = browser.eval(last_change).await;
    assert_eq!(change["complete"], false, "{change}");
    let fields: Vec<&str> = change["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|problem| problem["field"].as_str())
        .collect();
    assert!(fields.contains(&"prompt"), "{change}");

    // focus(), submit() and reset() act on the form in the shadow root.
    browser.run_async("form.focus();").await;
    assert_eq!(
        browser
            .eval("document.querySelector('#submit-a').shadowRoot.activeElement?.id ?? null")
            .await,
        "prompt"
    );
    browser
        .run_async("typeInto('#submit-a', '#prompt', 'sent by submit()');")
        .await;
    browser
        .wait_until(
            "submit enabled",
            "!inWidget('#submit-a', '#submit').disabled",
        )
        .await;
    browser.run_async("form.submit();").await;
    browser
        .wait_until(
            "the submitted event",
            "events.some((e) => e.type === 'media-gen-submitted' && e.detail.request.prompt === 'sent by submit()')",
        )
        .await;
    let before_reset = browser.eval(changes).await.as_u64().unwrap_or(0);
    browser.run_async("form.reset();").await;
    browser
        .wait_until(
            "an empty form",
            "inWidget('#submit-a', '#prompt')?.value === ''",
        )
        .await;
    // And hears that it is empty again, so its Save button follows.
    browser
        .wait_until(
            "a change after the reset",
            &format!("{changes} > {before_reset} && {last_change}?.empty === true && {last_change}?.complete === false"),
        )
        .await;

    // A disposed handle refuses, with the options error.
    let refused = browser
        .run_async(
            "form.unmount();
             const refused = (call) => { try { call(); return null; } catch (e) { return [e.kind, e.field]; } };
             return [refused(() => form.update({ baseUrl: '/x' })), refused(() => form.submit()), refused(() => form.focus())];",
        )
        .await;
    assert_eq!(
        refused,
        serde_json::json!([
            ["options", "widget"],
            ["options", "widget"],
            ["options", "widget"]
        ])
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn mounting_takes_a_selector_refuses_what_cannot_hold_a_widget_and_dispose_unmounts() {
    let (_, browser) = page(100).await;
    let result = browser
        .run_async(&format!(
            "const refused = (call) => {{ try {{ call(); return null; }} catch (e) {{ return [e.kind, e.field]; }} }};
             const input = document.createElement('input');
             document.body.append(input);
             const options = {{ ...{conn}, kind: 'image_generate' }};
             const intoInput = refused(() => widgets.mountSubmitWidget(input, options));
             const nowhere = refused(() => widgets.mountSubmitWidget('#no-such-element', options));
             window.bySelector = widgets.mountSubmitWidget('#submit-a', options);
             await bySelector.ready;
             const twice = refused(() => widgets.mountSubmitWidget('#submit-a', options));
             // A custom element of the page with its own shadow root: refused, not wiped.
             const card = document.createElement('my-card');
             card.attachShadow({{ mode: 'open' }}).innerHTML = '<p>the card</p>';
             document.body.append(card);
             const ownShadow = refused(() => widgets.mountSubmitWidget(card, options));
             const cardKept = card.shadowRoot.innerHTML;
             return {{ intoInput, nowhere, twice, ownShadow, cardKept }};",
            conn = connection()
        ))
        .await;
    assert_eq!(
        result["intoInput"],
        serde_json::json!(["options", "element"])
    );
    assert_eq!(result["nowhere"], serde_json::json!(["options", "element"]));
    assert_eq!(result["twice"], serde_json::json!(["options", "element"]));
    assert_eq!(
        result["ownShadow"],
        serde_json::json!(["options", "element"])
    );
    assert_eq!(result["cardKept"], "<p>the card</p>");
    assert_ne!(
        browser.eval("inWidget('#submit-a', '#prompt')").await,
        Value::Null,
        "mounted through its selector"
    );
    // Disposing the handle unmounts the widget; the element takes a new one.
    browser
        .run_async(
            "bySelector[Symbol.dispose]();
             window.again = widgets.mountStatusWidget('#submit-a',
               { baseUrl: location.origin, kind: 'image_generate', taskId: 'ig-x' });
             await again.ready;
             again.free();",
        )
        .await;
    assert_eq!(
        nodes_left(&browser, "document.querySelector('#submit-a')").await,
        0,
        "nothing left after dispose and free"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn what_vite_ships_of_the_client_entry_works_in_the_browser() {
    // The production build `cargo xtask npm` makes and the size budget
    // counts, served as a site of its own by the gateway.
    let dist = npm_scratch_dir().join("vite-client").join("dist");
    // What Vite put in the build: the client's module only.
    let wasm: Vec<String> = std::fs::read_dir(dist.join("assets"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".wasm"))
        .collect();
    assert_eq!(
        wasm.len(),
        1,
        "one wasm file shipped, the client's: {wasm:?}"
    );
    assert!(wasm[0].starts_with("media_gen_client_bg"), "{wasm:?}");
    // Through a gateway that relays (every submit names its capability)
    // and takes uploads, before a sandbox fetching inputs as the service does.
    let (sandbox, gateway, _uploads) = uploading_site(dist, "vite").await;
    let browser = Browser::start().await;
    browser
        .open(&format!("{}/index.html", gateway.base_url))
        .await;
    browser
        .wait_until(
            "the page's calls to finish",
            "window.viteClient !== undefined",
        )
        .await;
    let result = browser.eval("window.viteClient").await;
    // The file uploaded in pieces, its progress told, the task made from it.
    let upload = &result["upload"];
    let url = upload["url"].as_str().unwrap_or_default();
    assert!(
        url.starts_with(&format!("{}/uploads/", gateway.base_url)),
        "{result}"
    );
    assert_eq!(upload["type"], "image/png", "{result}");
    assert_eq!(upload["expiresInFuture"], true, "{result}");
    let progress: Vec<f64> = upload["progress"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    assert!(
        progress.len() > 3
            && progress.windows(2).all(|w| w[0] <= w[1])
            && progress.last() == Some(&1.0),
        "progress rises to the whole file: {progress:?}"
    );
    assert_eq!(upload["task"], 1, "{result}");
    assert_eq!(
        (&upload["refusedFile"][0], &upload["refusedFile"][1]),
        (&serde_json::json!("options"), &serde_json::json!("file")),
        "{result}"
    );
    assert!(
        upload["refusedFile"][2]
            .as_str()
            .unwrap_or_default()
            .starts_with("file: "),
        "{result}"
    );
    let served = reqwest::get(url).await.unwrap().bytes().await.unwrap();
    assert_eq!(
        served.len(),
        9 * 1024 * 1024 + 4321,
        "the gateway kept the whole file"
    );
    assert_eq!(
        fetched_hash_soon(&sandbox, url).await,
        Some(sha256(&served)),
        "the service fetched the file the page uploaded"
    );
    assert!(result["languages"].as_u64().unwrap() > 3, "{result}");
    assert!(
        result["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|count| count.as_u64().unwrap() > 0),
        "every validator finds the blank request's problems: {result}"
    );
    assert_eq!(result["read"].as_array().unwrap().len(), 3, "{result}");
    assert_eq!(result["again"], 1, "{result}");
    // One shape for every submit: kind, the relay, the ids, the request.
    assert_eq!(
        result["shapes"],
        serde_json::json!([
            ["image_generate", "string", 1, true],
            ["image_to_video", "string", 1, true],
            ["video_translate", "string", 1, true],
            ["image_generate", "string", 1, true],
        ]),
        "{result}"
    );
    assert!(
        result["relay"]
            .as_str()
            .is_some_and(|relay| relay.len() == 32 && relay.bytes().all(|b| b.is_ascii_hexdigit())),
        "a capability: {result}"
    );
    assert_eq!(result["done"], "SUCCEEDED", "{result}");
    assert_eq!(
        result["image"], true,
        "the watched task's own type: {result}"
    );
    assert_eq!(
        result["failure"],
        serde_json::json!([true, true]),
        "{result}"
    );
    assert_eq!(
        browser.eval(FETCHED_MODULES).await.as_array().map(Vec::len),
        Some(1),
        "one wasm module, the client's"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn what_vite_ships_of_the_widgets_works_in_the_browser() {
    // The production build of a page mounting both widgets and a custom
    // element (what the widgets page's size counts), served by the gateway.
    let dist = npm_scratch_dir().join("vite-widgets").join("dist");
    let site = start_relay_site(Some(dist), 100, Duration::from_secs(15)).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/index.html", site.base_url)).await;
    for _ in 0..200 {
        if browser.eval("window.viteWidgets !== undefined").await == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let step = browser.eval("window.viteWidgetsStep").await;
    assert_eq!(
        browser.eval("window.viteWidgets !== undefined").await,
        true,
        "the page's widgets did not finish; the page was at {step}"
    );
    let result = browser.eval("window.viteWidgets").await;
    let heard = &result["heard"];
    assert_eq!(
        heard["media-gen-ready"], 4,
        "three widgets and the element: {result}"
    );
    assert!(heard["media-gen-change"].as_u64() > Some(0), "{result}");
    assert_eq!(heard["media-gen-submitted"], 1, "{result}");
    assert_eq!(
        heard["media-gen-complete"], 3,
        "the two status widgets and the element: {result}"
    );
    assert_eq!(result["ids"], 1, "{result}");
    // Save, driven by `media-gen-change`: off as the form opens empty, on
    // once typed, off after `reset()`, on once typed again.
    assert_eq!(
        result["saveStates"],
        serde_json::json!([true, false, true, false]),
        "{result}"
    );
    // The form's event and the client's submit both name the relay, and
    // answer as the service did.
    for relay in result["relays"].as_array().unwrap() {
        assert_eq!(relay.as_str().map(str::len), Some(32), "{result}");
    }
    for answer in result["answers"].as_array().unwrap() {
        assert_eq!(
            answer["task_ids"].as_array().map(Vec::len),
            Some(1),
            "{result}"
        );
    }
    // The page's own custom element is refused, its content kept.
    assert_eq!(
        result["refused"],
        serde_json::json!(["options", "element"]),
        "{result}"
    );
    assert_eq!(result["cardKept"], "The page's own card", "{result}");
    // The status widget's "Make a video of it", routed to the form by the
    // page: the form turned to image-to-video with the image as its start.
    let used = &result["used"];
    assert_eq!(
        used["offered"],
        serde_json::json!(["Make a video of it", "Use as reference"]),
        "{result}"
    );
    assert_eq!(used["kind"], "image_to_video", "{result}");
    assert_eq!(used["field"], "image_url", "{result}");
    assert_eq!(used["source"]["kind"], "image_generate", "{result}");
    assert!(
        used["url"]
            .as_str()
            .is_some_and(|url| url.starts_with("http")),
        "{result}"
    );
    assert_eq!(used["startFrame"], used["url"], "{result}");
    assert_eq!(
        result["left"],
        serde_json::json!([0, 0, 0]),
        "unmounted handles leave nothing: {result}"
    );
    // Given the relay, no widget read a task: the gateway confirmed each once.
    crate::common::heard_not_read(&browser, &site.sandbox_url, 2).await;
    assert_eq!(
        fetched_once(&browser).await,
        [
            "media_gen_client_bg",
            "media_gen_widgets_bg",
            "media_gen_widgets_split_widget_submit"
        ],
        "the modules and the forms, no file controls: this site takes no uploads"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_widgets_wear_the_pages_theme_and_pass_the_accessibility_check() {
    let (_, browser) = page(100).await;
    mount_form(&browser, "#submit-a", "form").await;
    follow_one_image(&browser, "styled").await;
    // The page sets --media-gen-accent on the widgets' parent (#b0207a): the
    // shared stylesheet paints the submit button with it, in both widgets'
    // shadow roots alike.
    let painted = browser
        .eval(
            "[getComputedStyle(inWidget('#submit-a', '#submit')).backgroundColor,
              getComputedStyle(inWidget('#submit-a', '#prompt')).borderTopStyle]",
        )
        .await;
    assert_eq!(painted, serde_json::json!(["rgb(176, 32, 122)", "solid"]));
    browser.check_accessibility("the widgets").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_submit_widget_takes_a_file_when_its_site_takes_uploads() {
    let (sandbox, gateway, _uploads) = uploading_site(npm_scratch_dir(), "widget").await;
    let browser = Browser::start().await;
    browser
        .open(&format!("{}/index.html", gateway.base_url))
        .await;
    browser
        .wait_until("the package to load", "window.ready === true")
        .await;
    browser
        .run_async(&format!(
            "window.heardSubmit = null;
             const host = document.querySelector('#submit-a');
             host.addEventListener('media-gen-submitted', (event) => {{ window.heardSubmit = event.detail; }});
             window.form = widgets.mountSubmitWidget(host, {{ ...{conn}, kind: 'image_to_video' }});",
            conn = connection()
        ))
        .await;
    browser
        .wait_until(
            "the model cards",
            "inWidget('#submit-a', '#model-S') !== null",
        )
        .await;
    browser
        .run_async("inWidget('#submit-a', '#model-S').click();")
        .await;
    // The field offers a file once the site said it takes them.
    browser
        .wait_until(
            "the start frame's file control",
            "inWidget('#submit-a', '#image_url')?.closest('.file-target')?.querySelector('input[type=file]') != null",
        )
        .await;
    // A site that takes uploads gets the file controls too, once.
    assert_eq!(
        fetched_once(&browser).await,
        [
            "media_gen_client_bg",
            "media_gen_widgets_bg",
            "media_gen_widgets_split_file_controls",
            "media_gen_widgets_split_widget_submit"
        ],
        "the file controls' chunk, once"
    );
    let hash = browser
        .run_async(&MAKE_FILE.replace("NAME", "from the widget.png"))
        .await;
    browser
        .run_async(&DROP_FILE.replace("FIELD", "inWidget('#submit-a', '#image_url')"))
        .await;
    browser
        .wait_until(
            "the field to hold the upload's address",
            &format!(
                "inWidget('#submit-a', '#image_url').value.startsWith('{}/uploads/')",
                gateway.base_url
            ),
        )
        .await;
    let url = browser
        .eval("inWidget('#submit-a', '#image_url').value")
        .await
        .as_str()
        .unwrap()
        .to_owned();
    browser
        .run_async(
            "const field = inWidget('#submit-a', '#prompt');
             field.value = 'The photo from the widget moves';
             field.dispatchEvent(new Event('input', { bubbles: true }));",
        )
        .await;
    click_submit_once_enabled(&browser).await;
    browser
        .wait_until("the submit's event", "window.heardSubmit !== null")
        .await;
    let submitted = browser.eval("window.heardSubmit").await;
    assert_eq!(
        submitted["request"]["image_url"],
        url.as_str(),
        "{submitted}"
    );
    assert_eq!(
        fetched_hash_soon(&sandbox, &url).await.map(Value::from),
        Some(hash),
        "the service got the dropped bytes"
    );
    // The site was asked what it offers once: the widgets' build, the
    // form's file controls and the upload all read that one answer.
    assert_eq!(
        browser.eval(CAPABILITIES_ASKED).await,
        serde_json::json!(1),
        "`/capabilities` requests the page sent"
    );
    browser.close().await;
}

/// How many `/capabilities` requests the page has sent.
const CAPABILITIES_ASKED: &str = "performance.getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname.endsWith('/capabilities')).length";

/// On the client page: `makeFile()`, the same 6 MiB PNG on every load (a
/// person picking the same file again after a reload), and `hashOf(file)`.
const SAME_FILE: &str = "
    window.makeFile = () => {
      const bytes = new Uint8Array(6 * 1024 * 1024 + 777);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 13)) & 255;
      bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
      return new File([bytes], 'kept.png', { type: 'image/png' });
    };
    window.hashOf = async (file) => {
      const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    };";

/// The `PATCH`es the page sent since it loaded: `(offset, bytes)` each.
async fn patches_sent(browser: &Browser) -> Vec<(u64, u64)> {
    let sent = browser.eval("window.__patches").await;
    sent.as_array()
        .unwrap()
        .iter()
        .map(|patch| {
            (
                patch["offset"].as_u64().unwrap(),
                patch["bytes"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_entry_goes_on_with_an_upload_after_a_reload_and_a_gateway_restart() {
    let (_, mut gateway, _uploads) = uploading_site(npm_scratch_dir(), "client-resume").await;
    let browser = Browser::start().await;
    browser.before_every_page(RECORD_PATCHES).await;
    let page = format!("{}/client.html", gateway.base_url);
    browser.open(&page).await;
    browser
        .wait_until("the client entry to load", "window.ready === true")
        .await;
    browser.run_async(SAME_FILE).await;

    // A page keeps the address `onCreated` gives, and is reloaded a part
    // of the way through, on a slow line.
    slow_line(&browser, true).await;
    browser
        .run_async(
            "window.sent = 0;
             client.createClient({ baseUrl: location.origin }).upload(makeFile(), {
               onCreated: (url) => sessionStorage.setItem('upload', url),
               onProgress: (sent) => { window.sent = sent; },
             }).catch(() => {});",
        )
        .await;
    browser
        .wait_until("a megabyte on its way", "window.sent > 1024 * 1024")
        .await;
    browser.reload().await;
    browser
        .wait_until("the client entry to load again", "window.ready === true")
        .await;
    browser.run_async(SAME_FILE).await;
    slow_line(&browser, false).await;
    let resumed = browser
        .run_async(
            "const kept = sessionStorage.getItem('upload');
             const file = makeFile();
             const done = await client.createClient({ baseUrl: location.origin })
               .upload(file, { resume: kept });
             return { kept, url: done.url, hash: await hashOf(file), size: file.size };",
        )
        .await;
    assert_eq!(
        resumed["url"], resumed["kept"],
        "the same upload: {resumed}"
    );
    let after = patches_sent(&browser).await;
    let size = resumed["size"].as_u64().unwrap();
    let resent: u64 = after.iter().map(|(_, bytes)| bytes).sum();
    assert!(after[0].0 > 0, "went on where the gateway stood: {after:?}");
    assert!(
        resent < size,
        "less than the whole file sent again: {after:?}"
    );
    let url = resumed["url"].as_str().unwrap();
    let served = reqwest::get(url).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), resumed["hash"], "the whole file, once");

    // The gateway goes away a part of the way through: `onWaiting` says
    // so, and the upload goes on once it is back.
    slow_line(&browser, true).await;
    browser
        .run_async(
            "window.sent = 0; window.waits = []; window.done = null;
             client.createClient({ baseUrl: location.origin }).upload(makeFile(), {
               onProgress: (sent) => { window.sent = sent; },
               onWaiting: (waiting) => window.waits.push(waiting),
             }).then((done) => { window.done = done; }, (error) => { window.done = { error: error.message }; });",
        )
        .await;
    browser
        .wait_until("a megabyte on its way", "window.sent > 1024 * 1024")
        .await;
    gateway.stop().await;
    browser
        .wait_until("the upload to wait", "window.waits.includes(true)")
        .await;
    gateway.restart().await;
    slow_line(&browser, false).await;
    browser
        .wait_until("the upload to finish", "window.done !== null")
        .await;
    let finished = browser
        .run_async(
            "return { done: window.done, waits: window.waits, hash: await hashOf(makeFile()) };",
        )
        .await;
    let waits = finished["waits"].as_array().unwrap();
    assert_eq!(
        (waits.first(), waits.last()),
        (Some(&Value::from(true)), Some(&Value::from(false))),
        "waited, then went on: {finished}"
    );
    let url = finished["done"]["url"].as_str().expect("an address");
    let served = reqwest::get(url).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), finished["hash"], "the whole file, once");
    browser.close().await;
}
