//! `{ baseUrl, token?, getToken? }` from JavaScript, checked: where a widget
//! or client reaches the service, read in one place for both modules.

use media_gen_api::validate::is_http_url;
use wasm_bindgen::JsValue;

use super::bridge::options_error;
use super::object::property;

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

/// Where requests go, and what "copy as cURL" says of the token.
#[derive(Clone)]
pub struct Connection {
    base_url: String,
    curl_token: Option<String>,
}

impl Connection {
    /// Read `baseUrl`, `token` and `getToken` from `options`.
    ///
    /// `baseUrl` is an absolute `http(s)` URL, a path on this site (`/api`,
    /// for a proxy that adds the token server-side), or `""` for this page's
    /// origin. `getToken` is called before each request and may return a
    /// Promise; `token` is a fixed token. Neither: no `Authorization` header.
    /// (The client entry's JavaScript asks for the tokens; a widget's
    /// requests go through it.)
    pub fn from_js(options: &JsValue) -> Result<Connection, JsValue> {
        let base_url = Connection::check(options)?;
        let token = optional_string(options, "token")?.filter(|token| !token.is_empty());
        let curl_token = if property(options, "getToken").is_function() {
            Some(String::new())
        } else {
            token
        };
        Ok(Connection {
            base_url,
            curl_token,
        })
    }

    /// Check `baseUrl`, `token` and `getToken` as [`Connection::from_js`]
    /// reads them: the base URL, without a trailing slash.
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

    /// The token for "copy as cURL": the fixed token, `""` when one is
    /// fetched per request (`getToken`: only the masked form can be given),
    /// `None` without one.
    pub fn curl_token(&self) -> Option<String> {
        self.curl_token.clone()
    }

    /// The base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}
