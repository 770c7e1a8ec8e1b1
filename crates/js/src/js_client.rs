//! `createClient(options)`: the browser client for JavaScript, one method per
//! endpoint, each a Promise of plain objects.

use std::future::Future;
use std::pin::Pin;

use media_gen_api::{ImageGenerateRequest, ImageToVideoRequest, Request, VideoTranslateRequest};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

use super::bridge::{client_error, from_js, submitted_json, task_json, to_js};
use super::connection::Connection;
use super::read::{parse_kind, request_from_js};
use media_gen_client::{Client, ClientError};

/// A client of the Media Generation Service.
#[wasm_bindgen(js_name = MediaGenClient)]
pub struct JsClient {
    pub(crate) client: Client,
    /// The tasks `watch` follows, with one polling engine for all of them.
    pub(crate) watches: crate::watch::Watches,
}

/// A client for `{ baseUrl, token?, getToken? }`. Throws an `Error` with
/// `kind: "options"` naming the field when the options are wrong.
#[wasm_bindgen(js_name = createClient)]
pub fn create_client(
    #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
) -> Result<JsClient, JsValue> {
    Ok(JsClient {
        client: Connection::from_js(&options)?.client(),
        watches: crate::watch::Watches::default(),
    })
}

/// Run `call` as a Promise: its value as a plain object, or a rejection
/// with the error's `kind`, `status`, `code` and `retryable`.
fn promise<T, F>(call: F) -> js_sys::Promise
where
    T: Serialize,
    F: Future<Output = Result<T, ClientError>> + 'static,
{
    // Boxed, so the wasm carries one copy of the Promise plumbing for every
    // method rather than one per method.
    let call: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>> = Box::pin(async move {
        call.await
            .map(|value| to_js(&value))
            .map_err(|error| client_error(&error))
    });
    future_to_promise(call)
}

impl JsClient {
    /// Submit `request` as a Promise of what every submit resolves to
    /// (`{ kind, taskIds, relay, request, answer }`); the new tasks' relay,
    /// when the site relays them, is kept for `watch`.
    fn submit_request(&self, request: Request, signal: Option<AbortSignal>) -> js_sys::Promise {
        let (client, watches) = (self.client.clone(), self.watches.clone());
        promise(async move {
            let submitted = client.submit_any(&request, signal.as_ref()).await?;
            watches.remember(request.kind(), &submitted.task_ids, submitted.relay.clone());
            Ok(submitted_json(&request, &submitted))
        })
    }
}

#[wasm_bindgen(js_class = MediaGenClient)]
impl JsClient {
    /// `GET /v1/video_translate/target_languages`.
    #[wasm_bindgen(js_name = targetLanguages, unchecked_return_type = "Promise<string[]>")]
    pub fn target_languages(&self, signal: Option<AbortSignal>) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move { client.target_languages(signal.as_ref()).await })
    }

    /// `POST /v1/image_to_video`: one task id per video.
    #[wasm_bindgen(js_name = submitImageToVideo, unchecked_return_type = "Promise<Submitted<\"image_to_video\">>")]
    pub fn submit_image_to_video(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ImageToVideoRequest")] request: JsValue,
        signal: Option<AbortSignal>,
    ) -> Result<js_sys::Promise, JsValue> {
        let request: ImageToVideoRequest = from_js(&request, "request")?;
        Ok(self.submit_request(Request::ImageToVideo(request), signal))
    }

    /// `GET /v1/image_to_video/{task_id}`.
    #[wasm_bindgen(js_name = imageToVideo, unchecked_return_type = "Promise<ImageToVideoTask>")]
    pub fn image_to_video(&self, task_id: String, signal: Option<AbortSignal>) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move { client.image_to_video(&task_id, signal.as_ref()).await })
    }

    /// `POST /v1/video_translate`: one task per language.
    #[wasm_bindgen(js_name = submitVideoTranslate, unchecked_return_type = "Promise<Submitted<\"video_translate\">>")]
    pub fn submit_video_translate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "VideoTranslateRequest")] request: JsValue,
        signal: Option<AbortSignal>,
    ) -> Result<js_sys::Promise, JsValue> {
        let request: VideoTranslateRequest = from_js(&request, "request")?;
        Ok(self.submit_request(Request::VideoTranslate(request), signal))
    }

    /// `GET /v1/video_translate/{task_id}`.
    #[wasm_bindgen(js_name = videoTranslate, unchecked_return_type = "Promise<VideoTranslateTask>")]
    pub fn video_translate(&self, task_id: String, signal: Option<AbortSignal>) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move { client.video_translate(&task_id, signal.as_ref()).await })
    }

    /// `POST /v1/image_generate`: one task id per image.
    #[wasm_bindgen(js_name = submitImageGenerate, unchecked_return_type = "Promise<Submitted<\"image_generate\">>")]
    pub fn submit_image_generate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ImageGenerateRequest")] request: JsValue,
        signal: Option<AbortSignal>,
    ) -> Result<js_sys::Promise, JsValue> {
        let request: ImageGenerateRequest = from_js(&request, "request")?;
        Ok(self.submit_request(Request::ImageGenerate(request), signal))
    }

    /// `GET /v1/image_generate/{task_id}`.
    #[wasm_bindgen(js_name = imageGenerate, unchecked_return_type = "Promise<ImageGenerateTask>")]
    pub fn image_generate(&self, task_id: String, signal: Option<AbortSignal>) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move { client.image_generate(&task_id, signal.as_ref()).await })
    }

    /// Submit a request of any kind; resolves as every submit does.
    /// Declared in `types.d.ts`, generic over the kind.
    #[wasm_bindgen(skip_typescript)]
    pub fn submit(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TaskKind")] kind: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AnyRequest")] request: JsValue,
        signal: Option<AbortSignal>,
    ) -> Result<js_sys::Promise, JsValue> {
        let request = request_from_js(parse_kind(&kind, "kind")?, &request)?;
        Ok(self.submit_request(request, signal))
    }

    /// The status of a task of any kind, as that kind's task object.
    /// Declared in `types.d.ts`, generic over the kind.
    #[wasm_bindgen(skip_typescript)]
    pub fn task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TaskKind")] kind: JsValue,
        task_id: String,
        signal: Option<AbortSignal>,
    ) -> Result<js_sys::Promise, JsValue> {
        let kind = parse_kind(&kind, "kind")?;
        let client = self.client.clone();
        Ok(promise(async move {
            let task = client.task(kind, &task_id, signal.as_ref()).await?;
            Ok(task_json(&task))
        }))
    }
}
