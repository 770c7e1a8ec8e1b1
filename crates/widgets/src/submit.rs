//! The submit widget: one kind's form, with the same rules as the app; a
//! submit sends `media-gen-submitted` (or `media-gen-error`) from the host.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use media_gen_api::{Problems, Request, TaskKind};
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::events::{dispatch, CHANGE, ERROR, SUBMITTED};
use super::mounted::Mounted;
use super::page_client::PageClient;
use media_gen_js::bridge::to_js;
use media_gen_js::bridge::{error_detail, message_of};
use media_gen_js::connection::Connection;
use media_gen_js::object::set_property;
use media_gen_js::widget_options::{submit_options, SubmitOptions};
#[cfg(feature = "uploads")]
use media_gen_ui::forms::file_target::UploadsOffered;
use media_gen_ui::forms::FormHost;

/// What an `update()` can change without a new form: the connection, and
/// the page's client made for it.
#[derive(Clone)]
pub struct Live {
    /// The kind the form is for.
    pub kind: TaskKind,
    client: Rc<RefCell<PageClient>>,
    base_url: RwSignal<String>,
    token: RwSignal<Option<String>>,
    version: RwSignal<u64>,
}

impl Live {
    /// Use `connection` from the next request on; forms that read from the
    /// service (the language list) read again.
    pub fn reconnect(&self, connection: Connection, client: PageClient) {
        self.base_url.set(connection.base_url().to_owned());
        self.token.set(connection.curl_token());
        *self.client.borrow_mut() = client;
        self.version.update(|version| *version += 1);
    }
}

/// The form's host: submits through the page's client and tells the page.
fn host(kind: TaskKind, element: Element, live: &Live) -> FormHost {
    let client = live.client.clone();
    let reads = live.client.clone();
    let changed = element.clone();
    let on_change = move |request: &Request, problems: &Problems| {
        let detail = serde_json::json!({
            "kind": kind,
            "complete": !problems.has_errors(),
            "empty": request.is_blank(),
            "problems": problems,
        });
        dispatch(&changed, CHANGE, &to_js(&detail));
    };
    FormHost {
        submit: Rc::new(move |request: Request| {
            let client = client.borrow().clone();
            let target = element.clone();
            Box::pin(async move {
                let body = to_js(&request.to_json());
                match client.submit(kind.as_str(), &body).await {
                    // What every submit resolves to, as the event's detail.
                    Ok(submitted) => {
                        dispatch(&target, SUBMITTED, &submitted);
                        Ok(())
                    }
                    Err(error) => {
                        let detail = js_sys::Object::new();
                        set_property(&detail, "kind", &kind.as_str().into());
                        set_property(&detail, "error", &error_detail(&error));
                        dispatch(&target, ERROR, &detail);
                        Err(message_of(&error))
                    }
                }
            })
        }),
        client: Rc::new(move || Rc::new(reads.borrow().clone())),
        base_url: live.base_url.into(),
        token: live.token.into(),
        connection_version: live.version.into(),
        on_change: Some(Rc::new(on_change)),
    }
}

/// Whether the site takes uploads, asked of its `/capabilities` now and
/// after each `update()` of the connection: its media fields then take
/// files as the app's do (file controls are in a build with `uploads`).
#[cfg(feature = "uploads")]
fn offer_uploads(live: &Live) -> RwSignal<Option<media_gen_api::relay::UploadsInfo>> {
    use media_gen_ui::forms::FormClient as _;
    let offered = RwSignal::new(None);
    let (client, version) = (live.client.clone(), live.version);
    Effect::new(move |_| {
        version.track();
        let asked = client.borrow().capabilities();
        leptos::task::spawn_local(async move {
            offered.try_set(asked.await.uploads);
        });
    });
    offered
}

/// Mount the form for `options.kind` in `element`, talking to the service
/// through the client `make_client` (the entry's `createClient`) makes.
pub fn mount(
    element: &Element,
    options: &JsValue,
    make_client: &js_sys::Function,
) -> Result<(Mounted, Live), JsValue> {
    let SubmitOptions {
        kind,
        connection,
        initial,
    } = submit_options(options)?;
    let client = PageClient::make(make_client, options)?;
    let mut mounted = Mounted::new(element)?;
    let live = mounted.with(|| Live {
        kind,
        base_url: RwSignal::new(connection.base_url().to_owned()),
        token: RwSignal::new(connection.curl_token()),
        client: Rc::new(RefCell::new(client)),
        version: RwSignal::new(0),
    });
    let host = host(kind, element.clone(), &live);
    #[cfg(feature = "uploads")]
    let asking = live.clone();
    // Inside the view: its effects need the executor mounting starts.
    mounted.show(move || {
        #[cfg(feature = "uploads")]
        provide_context(UploadsOffered(offer_uploads(&asking).into()));
        crate::chunks::submit_form(kind, host, initial)
    });
    Ok((mounted, live))
}
