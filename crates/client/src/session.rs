//! Signing a page in to a gateway that asks for a person (`--access keys`):
//! the access key traded once for a session cookie the browser keeps (the
//! page never stores the key), and the session ended. The gateway is the
//! page's own site, so the cookie travels with every call by itself.

use std::time::Duration;

use gloo_net::http::Method;
use media_gen_api::relay::SESSION_PATH;
use media_gen_api::retry::RequestKind;

use crate::attempt::Attempt;
use crate::{Client, ClientError};

impl Client {
    /// Sign in with `key` (the person it names then comes with
    /// [`Client::capabilities`], already read as every page starts: one
    /// reader less in the wasm). A wrong or revoked key is the gateway's
    /// 401 (its message says which), too many wrong ones 429.
    pub async fn sign_in(&self, key: &str) -> Result<(), ClientError> {
        let body = serde_json::json!({ "key": key.trim() }).to_string();
        self.call::<serde::de::IgnoredAny>(RequestKind::Submit, SESSION_PATH, Some(body), None)
            .await
            .map(drop)
    }

    /// End the session: the gateway forgets it and takes the cookie back.
    /// Once, without retries: a page signing out goes to the sign-in page
    /// whatever the answer.
    pub async fn sign_out(&self) -> Result<(), ClientError> {
        let url = format!("{}{SESSION_PATH}", self.base_url());
        let attempt = Attempt {
            method: Method::DELETE,
            url: &url,
            body: None,
            token: None,
            timeout: Duration::from_secs(10),
        };
        match attempt.send(None).await {
            Ok(_) => Ok(()),
            Err(_) => Err(ClientError::Network { url }),
        }
    }
}
