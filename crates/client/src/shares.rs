//! The signed-in person's shared links on a gateway that offers them
//! (`/capabilities` says `sharing`): their links, a new one, and one taken
//! back. The answers are the contract's (`media_gen_api::share`).

use media_gen_api::retry::RequestKind;
use media_gen_api::share::{NewShare, Share, SHARES_PATH};

use crate::{Client, ClientError};

impl Client {
    /// The person's links, newest first.
    pub async fn shares(&self) -> Result<Vec<Share>, ClientError> {
        self.call(RequestKind::Read, SHARES_PATH, None, None)
            .await
            .map(|(shares, _)| shares)
    }

    /// A new link, as `asked`.
    pub async fn share(&self, asked: &NewShare) -> Result<Share, ClientError> {
        let body = serde_json::to_string(asked).map_err(|_| ClientError::Aborted)?;
        self.call(RequestKind::Submit, SHARES_PATH, Some(body), None)
            .await
            .map(|(share, _)| share)
    }

    /// Take the link `token` back.
    pub async fn take_back_share(&self, token: &str) -> Result<(), ClientError> {
        let path = format!("{SHARES_PATH}/{token}");
        self.call::<serde::de::IgnoredAny>(RequestKind::Remove, &path, None, None)
            .await
            .map(drop)
    }
}
