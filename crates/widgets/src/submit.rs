//! The submit widget: one kind's form, with the same rules as the app; a
//! submit sends `media-gen-submitted` (or `media-gen-error`) from the host.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use media_gen_api::relay::UploadsInfo;
use media_gen_api::{Problems, Request, TaskKind};
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::events::{dispatch, CHANGE, ERROR, SUBMITTED};
use super::mounted::Mounted;
use media_gen_js::bridge::{client_error_detail, submitted_json, to_js};
use media_gen_js::connection::{Connection, SharedConnection};
use media_gen_js::widget_options::{submit_options, SubmitOptions};
use media_gen_ui::forms::file_target::UploadsOffered;
use media_gen_ui::forms::{form_for, FormHost};

/// What an `update()` can change without a new form: the connection.
#[derive(Clone)]
pub struct Live {
    /// The kind the form is for.
    pub kind: TaskKind,
    connection: SharedConnection,
    base_url: RwSignal<String>,
    token: RwSignal<Option<String>>,
    version: RwSignal<u64>,
}

impl Live {
    /// Use `connection` from the next request on; forms that read from the
    /// service (the language list) read again.
    pub fn reconnect(&self, connection: Connection) {
        self.base_url.set(connection.base_url().to_owned());
        self.token.set(connection.curl_token());
        *self.connection.borrow_mut() = connection;
        self.version.update(|version| *version += 1);
    }
}

/// The form's host: submits through the shared connection and tells the page.
fn host(kind: TaskKind, element: Element, live: &Live) -> FormHost {
    let connection = live.connection.clone();
    let reads = live.connection.clone();
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
            let client = connection.borrow().client();
            let target = element.clone();
            Box::pin(async move {
                match client.submit_any(&request, None).await {
                    Ok(submitted) => {
                        let detail = submitted_json(&request, &submitted);
                        dispatch(&target, SUBMITTED, &to_js(&detail));
                        Ok(())
                    }
                    Err(error) => {
                        let detail = serde_json::json!({
                            "kind": kind, "error": client_error_detail(&error),
                        });
                        dispatch(&target, ERROR, &to_js(&detail));
                        Err(error.to_string())
                    }
                }
            })
        }),
        client: Rc::new(move || reads.borrow().client()),
        base_url: live.base_url.into(),
        token: live.token.into(),
        connection_version: live.version.into(),
        on_change: Some(Rc::new(on_change)),
    }
}

/// Whether the site takes uploads, asked of its `/capabilities` now and
/// after each `update()` of the connection: its media fields then take
/// files as the app's do.
fn offer_uploads(live: &Live) -> RwSignal<Option<UploadsInfo>> {
    let offered = RwSignal::new(None);
    let (connection, version) = (live.connection.clone(), live.version);
    Effect::new(move |_| {
        version.track();
        let client = connection.borrow().client();
        leptos::task::spawn_local(async move {
            let uploads = client
                .capabilities(None)
                .await
                .ok()
                .and_then(|capabilities| capabilities.uploads);
            offered.try_set(uploads);
        });
    });
    offered
}

/// Mount the form for `options.kind` in `element`.
pub fn mount(element: &Element, options: &JsValue) -> Result<(Mounted, Live), JsValue> {
    let SubmitOptions {
        kind,
        connection,
        initial,
    } = submit_options(options)?;
    let mut mounted = Mounted::new(element)?;
    let live = mounted.with(|| Live {
        kind,
        base_url: RwSignal::new(connection.base_url().to_owned()),
        token: RwSignal::new(connection.curl_token()),
        connection: Rc::new(RefCell::new(connection)),
        version: RwSignal::new(0),
    });
    let host = host(kind, element.clone(), &live);
    let asking = live.clone();
    // Inside the view: its effects need the executor mounting starts.
    mounted.show(move || {
        provide_context(UploadsOffered(offer_uploads(&asking).into()));
        form_for(kind, host, initial)
    });
    Ok((mounted, live))
}
