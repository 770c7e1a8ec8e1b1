//! `{ baseUrl, token?, getToken? }` from JavaScript: how a widget or client
//! reaches the service. Kept in one place a widget's `update()` can change.

use std::cell::RefCell;
use std::rc::Rc;

use media_gen_api::validate::is_http_url;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::bridge::options_error;
use media_gen_client::{Auth, Client, ClientOptions, TokenProvider};

/// Read property `name` of a JavaScript object.
pub fn property(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Whether the options object sets `name` (to anything but `undefined`).
pub fn has(object: &JsValue, name: &str) -> bool {
    !property(object, name).is_undefined()
}

/// An optional string property; anything else set there is an error naming it.
pub fn optional_string(object: &JsValue, name: &str) -> Result<Option<String>, JsValue> {
    let value = property(object, name);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| options_error(name, "must be a string"))
}

/// Where requests go and how they are authorised.
#[derive(Clone)]
pub struct Connection {
    base_url: String,
    auth: Auth,
}

impl Connection {
    /// Read `baseUrl`, `token` and `getToken` from `options`.
    ///
    /// `baseUrl` is an absolute `http(s)` URL, a path on this site (`/api`,
    /// for a proxy that adds the token server-side), or `""` for this page's
    /// origin. `getToken` is called before each request and may return a
    /// Promise; `token` is a fixed token. Neither: no `Authorization` header.
    pub fn from_js(options: &JsValue) -> Result<Connection, JsValue> {
        let base_url = Connection::check(options)?;
        let token = optional_string(options, "token")?;
        let get_token = property(options, "getToken");
        let auth = if let Some(function) = get_token.dyn_ref::<js_sys::Function>() {
            Auth::Provider(provider(function.clone()))
        } else {
            match token {
                Some(token) if !token.is_empty() => Auth::Token(token),
                _ => Auth::None,
            }
        };
        Ok(Connection { base_url, auth })
    }

    /// Check `baseUrl`, `token` and `getToken` as [`Connection::from_js`]
    /// reads them: the base URL, without a trailing slash. (What a caller
    /// that asks for tokens itself needs, without the provider.)
    pub fn check(options: &JsValue) -> Result<String, JsValue> {
        let base_url = optional_string(options, "baseUrl")?.ok_or_else(|| {
            options_error("baseUrl", "is required (use \"\" for this page's origin)")
        })?;
        let base_url = base_url.trim().trim_end_matches('/').to_owned();
        if !(base_url.is_empty() || base_url.starts_with('/') || is_http_url(&base_url)) {
            return Err(options_error(
                "baseUrl",
                "must be an http(s) URL, a path on this site such as /api, or \"\"",
            ));
        }
        optional_string(options, "token")?;
        let get_token = property(options, "getToken");
        if !(get_token.is_function() || get_token.is_undefined() || get_token.is_null()) {
            return Err(options_error("getToken", "must be a function"));
        }
        Ok(base_url)
    }

    /// A client for this connection.
    pub fn client(&self) -> Client {
        Client::new(ClientOptions::new(self.base_url.clone(), self.auth.clone()))
    }

    /// The token for "copy as cURL": the fixed token, `""` when one is
    /// fetched per request (`getToken`: only the masked form can be given),
    /// `None` without one.
    pub fn curl_token(&self) -> Option<String> {
        match &self.auth {
            Auth::Token(token) => Some(token.clone()),
            Auth::Provider(_) => Some(String::new()),
            Auth::None => None,
        }
    }

    /// The base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

/// `getToken` as a token provider: its result, awaited when it is a Promise;
/// a throw or a non-string means no token for that request.
fn provider(function: js_sys::Function) -> TokenProvider {
    Rc::new(move || {
        let result = function.call0(&JsValue::NULL);
        Box::pin(async move {
            let value = match result {
                Ok(value) if value.is_instance_of::<js_sys::Promise>() => {
                    JsFuture::from(value.unchecked_into::<js_sys::Promise>())
                        .await
                        .ok()?
                }
                Ok(value) => value,
                Err(_) => return None,
            };
            value.as_string().filter(|token| !token.is_empty())
        })
    })
}

/// A connection a widget shares with its views; `update()` replaces it and
/// the next request uses the new one.
pub type SharedConnection = Rc<RefCell<Connection>>;
