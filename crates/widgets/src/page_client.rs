//! The page's JavaScript client (the client entry's `MediaGenClient`), as
//! the widgets use it: a widget submits, follows tasks, reads the language
//! list and the site's offers and uploads files through it, so a page with
//! widgets carries one client, the client module's, and its widgets behave
//! as `createClient` does. The package's `index.js` hands each mount the
//! entry's `createClient`; a widget makes its client from its options.

use futures::future::LocalBoxFuture;
use media_gen_api::relay::Capabilities;
#[cfg(feature = "uploads")]
use media_gen_client::upload::{UploadError, UploadWatch, Uploaded};
use media_gen_client::value_reader::read;
use media_gen_js::bridge::message_of;
#[cfg(feature = "uploads")]
use media_gen_js::object::property;
use media_gen_js::object::set_property as set;
use media_gen_ui::forms::FormClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// A `MediaGenClient` of the client entry.
    #[derive(Clone)]
    pub type PageClient;

    #[wasm_bindgen(method, js_name = targetLanguages)]
    fn target_languages_js(this: &PageClient) -> js_sys::Promise;

    #[wasm_bindgen(method, js_name = capabilities)]
    fn capabilities_js(this: &PageClient) -> js_sys::Promise;

    #[wasm_bindgen(method, catch, js_name = submit)]
    fn submit_js(
        this: &PageClient,
        kind: &str,
        request: &JsValue,
    ) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = watch)]
    fn watch_js(
        this: &PageClient,
        kind: &str,
        task_id: &str,
        on_update: &js_sys::Function,
        options: &JsValue,
    ) -> Result<JsValue, JsValue>;

    #[cfg(feature = "uploads")]
    #[wasm_bindgen(method, js_name = upload)]
    fn upload_js(this: &PageClient, file: &web_sys::File, options: &JsValue) -> js_sys::Promise;
}

impl PageClient {
    /// The client `make` (the entry's `createClient`) makes for `options`.
    pub fn make(make: &js_sys::Function, options: &JsValue) -> Result<PageClient, JsValue> {
        Ok(make.call1(&JsValue::NULL, options)?.unchecked_into())
    }

    /// Submit `request` (its JSON body as a JavaScript value) of `kind`:
    /// what every submit resolves to, or the failure.
    pub async fn submit(&self, kind: &str, request: &JsValue) -> Result<JsValue, JsValue> {
        JsFuture::from(self.submit_js(kind, request)?).await
    }

    /// Follow task `task_id` of `kind`: `on_update` hears each update; the
    /// `TaskWatch` to stop it with.
    pub fn watch(
        &self,
        kind: &str,
        task_id: &str,
        on_update: &js_sys::Function,
        relay: Option<&str>,
    ) -> Result<JsValue, JsValue> {
        let options = js_sys::Object::new();
        if let Some(relay) = relay {
            set(&options, "relay", &JsValue::from_str(relay));
        }
        self.watch_js(kind, task_id, on_update, &options)
    }
}

impl FormClient for PageClient {
    fn target_languages(&self) -> LocalBoxFuture<'static, Result<Vec<String>, String>> {
        let asked = JsFuture::from(self.target_languages_js());
        Box::pin(async move {
            let languages = asked.await.map_err(|error| message_of(&error))?;
            read(&languages).map_err(|error| error.to_string())
        })
    }

    fn capabilities(&self) -> LocalBoxFuture<'static, Capabilities> {
        let asked = JsFuture::from(self.capabilities_js());
        Box::pin(async move {
            let offered = asked.await.unwrap_or_default();
            read(&offered).unwrap_or_default()
        })
    }

    /// The client entry's `upload`: it asks the site where it takes
    /// uploads and names the file by its own name (`path` and `name` are
    /// the same values, read by the form).
    #[cfg(feature = "uploads")]
    fn upload(
        &self,
        _path: String,
        file: web_sys::File,
        _name: String,
        resume: Option<String>,
        watch: UploadWatch,
        cancel: web_sys::AbortSignal,
    ) -> LocalBoxFuture<'static, Result<Uploaded, UploadError>> {
        let progress = watch.progress.clone();
        let on_progress = Closure::<dyn Fn(f64)>::new(move |sent: f64| progress(sent as u64));
        let created = watch.created.clone();
        let on_created = Closure::<dyn Fn(String)>::new(move |url: String| created(url.as_str()));
        let waiting = watch.waiting.clone();
        let on_waiting = Closure::<dyn Fn(bool)>::new(move |now: bool| waiting(now));
        let options = js_sys::Object::new();
        set(&options, "onProgress", on_progress.as_ref());
        set(&options, "onCreated", on_created.as_ref());
        set(&options, "onWaiting", on_waiting.as_ref());
        set(&options, "signal", &cancel);
        if let Some(resume) = resume {
            set(&options, "resume", &JsValue::from_str(&resume));
        }
        let sent = JsFuture::from(self.upload_js(&file, &options));
        Box::pin(async move {
            let outcome = sent.await;
            // Heard until the upload ends.
            drop((on_progress, on_created, on_waiting));
            let uploaded =
                outcome.map_err(
                    |error| match property(&error, "kind").as_string().as_deref() {
                        Some("network") => UploadError::Network,
                        Some("aborted") => UploadError::Aborted,
                        _ => UploadError::Refused(message_of(&error)),
                    },
                )?;
            let expires = property(&uploaded, "expiresAt")
                .dyn_into::<js_sys::Date>()
                .ok()
                .map(|date| String::from(date.to_utc_string()));
            Ok(Uploaded {
                url: property(&uploaded, "url").as_string().unwrap_or_default(),
                expires,
            })
        })
    }
}
