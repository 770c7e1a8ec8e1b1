//! Uploads under way kept in the browser's IndexedDB: the file itself
//! (which a reload would otherwise lose: the page cannot pick it again by
//! itself) and its upload's address, under a key naming the page and the
//! field. A field that opens finds its uploads there and resumes them.
//! Anything IndexedDB refuses (a private window, no room) only means no
//! resume after a reload.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{File, IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

const DATABASE: &str = "media-gen-uploads";
const STORE: &str = "uploads";

/// An upload under way, as kept.
pub struct Kept {
    /// Its key.
    pub key: String,
    /// Its upload's address.
    pub url: String,
    /// The file.
    pub file: File,
}

/// The outcome of an IndexedDB request.
async fn outcome(request: &IdbRequest) -> Result<JsValue, JsValue> {
    let (done, finished) = oneshot::channel::<bool>();
    let done = Rc::new(RefCell::new(Some(done)));
    let end = |ok: bool| {
        let done = Rc::clone(&done);
        Closure::<dyn FnMut()>::new(move || {
            if let Some(done) = done.borrow_mut().take() {
                let _ = done.send(ok);
            }
        })
    };
    let (on_success, on_error) = (end(true), end(false));
    request.set_onsuccess(Some(on_success.as_ref().unchecked_ref()));
    request.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let ok = finished.await.unwrap_or(false);
    request.set_onsuccess(None);
    request.set_onerror(None);
    if ok {
        request.result()
    } else {
        Err(JsValue::NULL)
    }
}

/// The database, its store made on first use.
async fn open() -> Option<IdbDatabase> {
    let factory = web_sys::window()?.indexed_db().ok()??;
    let opening: IdbOpenDbRequest = factory.open_with_u32(DATABASE, 1).ok()?;
    let upgrade = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let database = event
            .target()
            .and_then(|target| target.dyn_into::<IdbOpenDbRequest>().ok())
            .and_then(|request| request.result().ok())
            .and_then(|result| result.dyn_into::<IdbDatabase>().ok());
        if let Some(database) = database {
            let _ = database.create_object_store(STORE);
        }
    });
    opening.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
    let database = outcome(&opening).await.ok()?.dyn_into::<IdbDatabase>().ok();
    opening.set_onupgradeneeded(None);
    database
}

/// The store, in a transaction of `mode`.
async fn store(mode: IdbTransactionMode) -> Option<web_sys::IdbObjectStore> {
    let database = open().await?;
    database
        .transaction_with_str_and_mode(STORE, mode)
        .ok()?
        .object_store(STORE)
        .ok()
}

/// Keep the upload at `url` of `file` under `key`.
pub async fn keep(key: &str, url: &str, file: &File) {
    let Some(store) = store(IdbTransactionMode::Readwrite).await else {
        return;
    };
    let record = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&record, &"url".into(), &url.into());
    let _ = js_sys::Reflect::set(&record, &"file".into(), file);
    if let Ok(request) = store.put_with_key(&record, &key.into()) {
        let _ = outcome(&request).await;
    }
}

/// Forget the upload kept under `key`.
pub async fn forget(key: &str) {
    let Some(store) = store(IdbTransactionMode::Readwrite).await else {
        return;
    };
    if let Ok(request) = store.delete(&key.into()) {
        let _ = outcome(&request).await;
    }
}

/// The uploads kept under keys that start with `prefix`.
pub async fn kept(prefix: &str) -> Vec<Kept> {
    let Some(store) = store(IdbTransactionMode::Readonly).await else {
        return Vec::new();
    };
    let (Ok(keys), Ok(values)) = (store.get_all_keys(), store.get_all()) else {
        return Vec::new();
    };
    let (Ok(keys), Ok(values)) = (outcome(&keys).await, outcome(&values).await) else {
        return Vec::new();
    };
    let (keys, values) = (js_sys::Array::from(&keys), js_sys::Array::from(&values));
    keys.iter()
        .zip(values.iter())
        .filter_map(|(key, value)| {
            let key = key.as_string().filter(|key| key.starts_with(prefix))?;
            let url = js_sys::Reflect::get(&value, &"url".into())
                .ok()?
                .as_string()?;
            let file = js_sys::Reflect::get(&value, &"file".into())
                .ok()?
                .dyn_into::<File>()
                .ok()?;
            Some(Kept { key, url, file })
        })
        .collect()
}
