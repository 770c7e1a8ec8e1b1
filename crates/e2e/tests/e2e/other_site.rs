//! The widgets on another site's page, against a gateway that asks for
//! access keys: the gateway names that site (`--allow-origin`), the site's
//! server trades its key for a short-lived page token, and the page's
//! widgets submit with it (`getToken`), the key never in the page. A page
//! of a site not named is refused by the browser itself. A relaying
//! gateway's stream follows that page's tasks across origins, its page
//! token in the stream's address.

use media_gen_e2e::{
    npm_scratch_dir, start_gateway, start_sandbox, test_folder, Browser, Redis, RelayGateway,
    RelayOptions,
};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::keys_cli::{run, KeysAction, KeysAt};
use serde_json::Value;

use crate::common::{heard_not_read, page_token};

/// The npm package's test page served by a site of its own (a gateway on
/// another port: another origin), whose pages may call any loopback port.
async fn other_site() -> String {
    let sandbox = start_sandbox(100).await;
    start_gateway(&sandbox, Some(npm_scratch_dir()), |settings| {
        settings.connect_src.push("http://127.0.0.1:*".to_owned());
    })
    .await
}

/// On the page: a form for `window.gateway` that gets `window.pageToken`
/// from `getToken` (as from its site's server), a prompt sent; the
/// submitted event's detail, or the error's.
const SUBMIT: &str = "
    const form = widgets.mountSubmitWidget(document.querySelector('#submit-a'),
      { baseUrl: window.gateway, kind: 'image_generate', getToken: async () => window.pageToken });
    await form.ready;
    const outcome = new Promise((resolve) => {
      document.addEventListener('media-gen-submitted', (event) => resolve({ submitted: event.detail }), { once: true });
      document.addEventListener('media-gen-error', (event) => resolve({ error: event.detail.error }), { once: true });
    });
    const field = document.querySelector('#submit-a').shadowRoot.querySelector('#prompt');
    field.value = 'From another site';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    form.submit();
    return await outcome;";

/// Open the test page of `site`, point it at `gateway` with `token`, submit.
async fn submit_from(site: &str, gateway: &str, token: &str) -> Value {
    let browser = Browser::start().await;
    browser.open(&format!("{site}/index.html")).await;
    browser
        .wait_until("the package", "window.ready === true")
        .await;
    browser
        .run_async(&format!(
            "window.gateway = '{gateway}'; window.pageToken = '{token}';"
        ))
        .await;
    let outcome = browser.run_async(SUBMIT).await;
    browser.close().await;
    outcome
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn another_sites_page_submits_with_a_page_token_and_an_unnamed_one_cannot() {
    let dir = test_folder("other-site");
    let key = KeyFile::new(dir.path()).add("host", None, 0).unwrap();
    let (named, unnamed) = (other_site().await, other_site().await);
    let sandbox = start_sandbox(100).await;
    let gateway = start_gateway(&sandbox, None, {
        let (dir, named) = (dir.path().to_owned(), named.clone());
        move |settings| {
            settings.access = AccessMode::Keys;
            settings.data_dir = Some(dir);
            settings.allowed_origins = vec![named];
        }
    })
    .await;

    // The named site's server trades its key for a page token.
    let token = page_token(&gateway, &key).await;

    let outcome = submit_from(&named, &gateway, &token).await;
    assert_eq!(
        outcome["submitted"]["taskIds"].as_array().map(Vec::len),
        Some(1),
        "{outcome}"
    );
    // A site the gateway does not name: the browser blocks the call.
    let refused = submit_from(&unnamed, &gateway, &token).await;
    assert_eq!(refused["error"]["kind"], "network", "{refused}");
}

#[tokio::test]
#[ignore = "needs redis-server, the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn another_sites_status_widget_hears_its_tasks_end_through_the_relay() {
    let redis = Redis::start().await;
    let add = KeysAction::Add {
        name: "host".to_owned(),
        tasks_per_day: None,
    };
    let key = run(&add, &KeysAt::redis(redis.url.clone()), 50)
        .await
        .unwrap();
    let site = other_site().await;
    let sandbox = start_sandbox(1_500).await;
    let gateway = RelayGateway::start(RelayOptions {
        redis: Some(redis.url.clone()),
        access: AccessMode::Keys,
        allowed_origins: vec![site.clone()],
        ..RelayOptions::new(&sandbox)
    })
    .await;
    gateway.ready().await;
    let token = page_token(&gateway.base_url, key.trim()).await;

    let browser = Browser::start().await;
    browser.open(&format!("{site}/index.html")).await;
    browser
        .wait_until("the package", "window.ready === true")
        .await;
    let submitted = browser
        .run_async(&format!(
            "const connection = {{ baseUrl: '{gateway}', getToken: async () => '{token}' }};
             const client = widgets.createClient(connection);
             const submitted = await client.submitImageGenerate({{ prompt: 'Followed from another site', generate_count: 2 }});
             window.follow = widgets.mountStatusWidget(document.querySelector('#status'),
               {{ ...connection, kind: 'image_generate', taskIds: submitted.taskIds, relay: submitted.relay }});
             return submitted;",
            gateway = gateway.base_url
        ))
        .await;
    assert!(submitted["relay"].is_string(), "{submitted}");
    browser
        .wait_until(
            "both tasks heard to end",
            "events.filter((e) => e.type === 'media-gen-complete').length === 2",
        )
        .await;
    heard_not_read(&browser, &sandbox, 2).await;
    browser.close().await;
}
