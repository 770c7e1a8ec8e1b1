//! What a form asks of the service besides its submit, through its host:
//! the language list, what the site offers (a sandbox's inbox, uploads)
//! and, with the `uploads` feature, a file's upload. The app answers with
//! its Rust client; a widget with the page's JavaScript client, so a page
//! with widgets carries one client.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use media_gen_api::relay::Capabilities;
#[cfg(feature = "uploads")]
use media_gen_client::upload::{UploadError, UploadWatch, Uploaded};
use media_gen_client::Client;

/// The service as a form reaches it.
pub trait FormClient {
    /// The target languages the service offers, or why they could not be read.
    fn target_languages(&self) -> LocalBoxFuture<'static, Result<Vec<String>, String>>;

    /// What the base URL's server offers beyond the documented calls
    /// (nothing, when it does not say or cannot be asked).
    fn capabilities(&self) -> LocalBoxFuture<'static, Capabilities>;

    /// Upload `file` as `name` to the site's tus `path`, or go on with the
    /// upload at `resume`, telling `watch` as it goes. A client that has no
    /// uploader (a build without file controls never asks) refuses.
    #[cfg(feature = "uploads")]
    fn upload(
        &self,
        path: String,
        file: web_sys::File,
        name: String,
        resume: Option<String>,
        watch: UploadWatch,
        cancel: web_sys::AbortSignal,
    ) -> LocalBoxFuture<'static, Result<Uploaded, UploadError>> {
        let _ = (path, file, name, resume, watch, cancel);
        Box::pin(async {
            Err(UploadError::Refused(
                "this page's widgets take no files".to_owned(),
            ))
        })
    }
}

/// How a host gives a form its client: made anew for each use, so a
/// change of the connection counts from the next request on.
pub type MakeFormClient = Rc<dyn Fn() -> Rc<dyn FormClient>>;

impl FormClient for Client {
    fn target_languages(&self) -> LocalBoxFuture<'static, Result<Vec<String>, String>> {
        let client = self.clone();
        Box::pin(async move {
            client
                .target_languages(None)
                .await
                .map_err(|error| error.to_string())
        })
    }

    fn capabilities(&self) -> LocalBoxFuture<'static, Capabilities> {
        let client = self.clone();
        Box::pin(async move { client.capabilities(None).await.unwrap_or_default() })
    }

    #[cfg(feature = "uploads")]
    fn upload(
        &self,
        path: String,
        file: web_sys::File,
        name: String,
        resume: Option<String>,
        watch: UploadWatch,
        cancel: web_sys::AbortSignal,
    ) -> LocalBoxFuture<'static, Result<Uploaded, UploadError>> {
        let client = self.clone();
        Box::pin(async move {
            client
                .upload(&path, &file, &name, resume, &watch, Some(&cancel))
                .await
        })
    }
}
