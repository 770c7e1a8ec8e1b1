//! The signed-in person's shared links on a gateway that offers them
//! (`/capabilities` says `sharing`): their links, a new one, and one taken
//! back. The shapes are the contract's (`media_gen_api::share`). A link
//! is read property by property from what the browser parsed, as the
//! library's pages are: a typed reader of the whole would cost the page
//! more than the panel that shows it.

use js_sys::{Array, Reflect};
use media_gen_api::library::RequestId;
use media_gen_api::retry::RequestKind;
use media_gen_api::share::{NewShare, Share, SHARES_PATH};
use wasm_bindgen::JsValue;

use crate::{Client, ClientError};

/// One link of `GET /shares` as the browser parsed it; `None` when a
/// property is missing or of another kind.
fn share_of(value: &JsValue) -> Option<Share> {
    let get = |name: &str| Reflect::get(value, &JsValue::from_str(name)).ok();
    let text = |name: &str| get(name)?.as_string();
    // Whole milliseconds and counts, as JSON numbers.
    let whole = |name: &str| get(name)?.as_f64().filter(|n| *n >= 0.0).map(|n| n as u64);
    let flag = |name: &str| get(name)?.as_bool();
    let requests = get("requests").filter(Array::is_array)?;
    Some(Share {
        token: text("token")?,
        path: text("path")?,
        created: whole("created")?,
        ends: whole("ends"),
        views: whole("views")?,
        asked: flag("asked")?,
        team: flag("team")?,
        requests: Array::from(&requests)
            .iter()
            .filter_map(|id| RequestId::parse(&id.as_string()?))
            .collect(),
        tasks: whole("tasks")? as u32,
    })
}

impl Client {
    /// The person's links, newest first. A gateway that shares nothing
    /// answers 404 ([`ClientError::Http`]).
    pub async fn shares(&self) -> Result<Vec<Share>, ClientError> {
        let data = self
            .call_for_value(RequestKind::Read, SHARES_PATH, None)
            .await?;
        let shares = Array::is_array(&data).then(|| {
            Array::from(&data)
                .iter()
                .map(|share| share_of(&share))
                .collect()
        });
        shares.flatten().ok_or_else(|| ClientError::Shape {
            detail: "`data` is not a list of links".to_owned(),
        })
    }

    /// Make a link as `asked`; [`Client::shares`] then lists it first.
    pub async fn share(&self, asked: &NewShare) -> Result<(), ClientError> {
        self.call_for_value(RequestKind::Submit, SHARES_PATH, Some(asked.to_json()))
            .await
            .map(drop)
    }

    /// Take the link `token` back: its page and files are gone at once.
    pub async fn take_back_share(&self, token: &str) -> Result<(), ClientError> {
        let path = format!("{SHARES_PATH}/{token}");
        self.call_for_value(RequestKind::Remove, &path, None)
            .await
            .map(drop)
    }
}
