//! `Client`: one method per endpoint, with timeouts, retries and cancel.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use gloo_net::http::Method;
use media_gen_api::decode::decode_data_in;
use media_gen_api::relay::{offers_nothing, Capabilities, CAPABILITIES_PATH};
use media_gen_api::retry::{parse_http_date, Missed, RequestKind, Retry, RetryPlan};
use media_gen_api::{
    AnyTask, ImageGenerateRequest, ImageGenerateTask, ImageToVideoRequest, ImageToVideoTask,
    Request, ResponseError, TaskIds, TaskKind, TranslationTaskRef, VideoTranslateRequest,
    VideoTranslateTask, TARGET_LANGUAGES_PATH,
};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use crate::attempt::{Attempt, Heard, NoAnswer};
use crate::error::ClientError;
use crate::options::{Auth, ClientOptions};
use crate::value_reader::Parsed;
use crate::{abort, now_ms};

/// Takes an answer's status and body (as `JSON.parse` read it); its error
/// decides whether to retry.
type Decode<'a> = dyn FnMut(u16, &JsValue) -> Result<(), ResponseError> + 'a;

/// The future of [`Client::retrying`]: what the answer that decoded said
/// beside its body.
type Retrying<'a> = Pin<Box<dyn Future<Output = Result<Heard, ClientError>> + 'a>>;

/// What a submit made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    /// The new tasks' ids, in the service's order.
    pub task_ids: Vec<String>,
    /// The capability under which a gateway relays their callbacks
    /// (`media-gen-relay`), when it does.
    pub relay: Option<String>,
    /// The request's id in the person's library, when the gateway keeps
    /// one (`media-gen-library-request`).
    pub library: Option<String>,
    /// The service's answer as it came: `{ task_ids }`, or for a
    /// translation one `{ task_id, language }` per language.
    pub answer: serde_json::Value,
}

/// A client of the Media Generation Service. Cheap to clone.
///
/// Every method takes an optional `AbortSignal`: aborting it cancels the
/// request in flight and any wait between retries. Reads are retried on
/// network failures, timeouts, 408, 429 and 5xx; submits only on 429 and 503
/// that carry `Retry-After` (the service did no work), never after a 500 or a
/// dropped connection, where tasks may already exist.
#[derive(Clone)]
pub struct Client {
    options: Rc<ClientOptions>,
    /// The last page token a call carried: what the relay's event stream
    /// names in its address (an `EventSource` sends no `Authorization`).
    page_token: Rc<RefCell<Option<String>>>,
}

impl std::fmt::Debug for Client {
    // Never print a token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client with these options.
    pub fn new(options: ClientOptions) -> Self {
        Client {
            options: Rc::new(options),
            page_token: Rc::default(),
        }
    }

    /// The page token the last call carried, if it carried one (a gateway
    /// that asks for keys gives them to other sites' pages).
    pub fn page_token(&self) -> Option<String> {
        self.page_token.borrow().clone()
    }

    /// Whether calls carry a token (given, or from `getToken`).
    pub(crate) fn carries_token(&self) -> bool {
        !matches!(self.options.auth, Auth::None)
    }

    /// Get the token a call would carry now, so a stream opened next can
    /// name it when it is a page token ([`Client::page_token`]).
    pub(crate) async fn refresh_token(&self) {
        self.token().await;
    }

    /// The base URL requests go to (without a trailing slash).
    pub fn base_url(&self) -> &str {
        &self.options.base_url
    }

    /// The token a call carries now (given, or from `getToken`).
    pub(crate) async fn token(&self) -> Option<String> {
        let token = match &self.options.auth {
            Auth::None => None,
            Auth::Token(token) => Some(token.clone()),
            Auth::Provider(provider) => provider().await,
        };
        *self.page_token.borrow_mut() = token
            .clone()
            .filter(|token| media_gen_api::relay::is_page_token(token));
        token
    }

    /// Send one call with the retry policy; its `data` as the browser
    /// parsed it, for a caller that reads it in parts (no typed reader of
    /// the whole in the wasm).
    #[cfg(feature = "access")]
    pub(crate) async fn call_for_value(
        &self,
        kind: RequestKind,
        path: &str,
        body: Option<String>,
    ) -> Result<JsValue, ClientError> {
        let mut data = None;
        let mut decode = |status: u16, body: &JsValue| {
            decode_data_in::<serde::de::IgnoredAny>(status, &Parsed(body)).map(|_| {
                data = js_sys::Reflect::get(body, &JsValue::from_str("data")).ok();
            })
        };
        self.retrying(kind, path, body, None, &mut decode).await?;
        data.ok_or(ClientError::Aborted)
    }

    /// Send one call with the retry policy, and decode its `data`; with
    /// the relay's capability the answer named, if any.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        kind: RequestKind,
        path: &str,
        body: Option<String>,
        cancel: Option<&AbortSignal>,
    ) -> Result<(T, Heard), ClientError> {
        let mut data = None;
        let mut decode = |status: u16, body: &JsValue| {
            decode_data_in::<T>(status, &Parsed(body)).map(|decoded| data = Some(decoded))
        };
        let heard = self.retrying(kind, path, body, cancel, &mut decode).await?;
        data.map(|data| (data, heard)).ok_or(ClientError::Aborted)
    }

    /// The retry loop of [`Client::call`], apart from the payload's type: one
    /// copy in the wasm for every endpoint (boxed, so it is not inlined into
    /// each caller). `decode` takes the answer; its error decides the retry.
    fn retrying<'a>(
        &'a self,
        kind: RequestKind,
        path: &'a str,
        body: Option<String>,
        cancel: Option<&'a AbortSignal>,
        decode: &'a mut Decode<'a>,
    ) -> Retrying<'a> {
        Box::pin(async move {
            let options = &self.options;
            let url = format!("{}{path}", options.base_url);
            let mut plan = RetryPlan::new(kind, options.retry, now_ms() as u64, options.deadline);
            let method = match kind {
                RequestKind::Read => Method::GET,
                RequestKind::Submit => Method::POST,
                RequestKind::Remove => Method::DELETE,
                RequestKind::Change => Method::PATCH,
                RequestKind::Replace => Method::PUT,
            };
            loop {
                if cancel.is_some_and(AbortSignal::aborted) {
                    return Err(ClientError::Aborted);
                }
                let token = self.token().await;
                let attempt = Attempt {
                    method: method.clone(),
                    url: &url,
                    body: body.as_deref(),
                    token: token.as_deref(),
                    timeout: options.attempt_timeout,
                };
                let (error, missed) = match attempt.send(cancel).await {
                    Ok(answer) => match decode(answer.status, &answer.body) {
                        Ok(()) => return Ok(answer.heard),
                        Err(error) => (
                            ClientError::from(error),
                            Missed::Answer {
                                status: answer.status,
                                retry_after: answer.retry_after,
                            },
                        ),
                    },
                    Err(NoAnswer::Aborted) => return Err(ClientError::Aborted),
                    Err(NoAnswer::Timeout) => {
                        let seconds = options.attempt_timeout.as_secs();
                        (ClientError::Timeout { seconds }, Missed::TimedOut)
                    }
                    Err(NoAnswer::Network) => {
                        (ClientError::Network { url: url.clone() }, Missed::NoAnswer)
                    }
                };
                let retry = plan.missed(
                    missed,
                    now_ms() as u64,
                    js_sys::Math::random(),
                    parse_http_date,
                );
                let Retry::After(wait) = retry else {
                    return Err(error);
                };
                if abort::sleep(wait, cancel).await.is_err() {
                    return Err(ClientError::Aborted);
                }
            }
        })
    }

    async fn read<T: DeserializeOwned>(
        &self,
        path: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<T, ClientError> {
        Ok(self.call(RequestKind::Read, path, None, cancel).await?.0)
    }

    async fn submit<T: DeserializeOwned>(
        &self,
        kind: TaskKind,
        request: &impl serde::Serialize,
        cancel: Option<&AbortSignal>,
    ) -> Result<T, ClientError> {
        Ok(self.submit_relayed(kind, request, cancel).await?.0)
    }

    /// Submit `request` to `kind`'s endpoint: the service's answer (`T`,
    /// the shape `kind` answers with) and what a gateway said of it (the
    /// relay's capability to listen with, the request's id in the library).
    pub async fn submit_relayed<T: DeserializeOwned>(
        &self,
        kind: TaskKind,
        request: &impl serde::Serialize,
        cancel: Option<&AbortSignal>,
    ) -> Result<(T, Heard), ClientError> {
        let path = kind.submit_path();
        // Through `Value`, as `Request::to_json` writes requests for the
        // preview and the board: one serializer per request type in the wasm.
        let body = serde_json::to_value(request)
            .map(|json| json.to_string())
            .map_err(|error| ClientError::Shape {
                detail: error.to_string(),
            })?;
        self.call(RequestKind::Submit, &path, Some(body), cancel)
            .await
    }

    /// `GET /v1/video_translate/target_languages`.
    pub async fn target_languages(
        &self,
        cancel: Option<&AbortSignal>,
    ) -> Result<Vec<String>, ClientError> {
        self.read(TARGET_LANGUAGES_PATH, cancel).await
    }

    /// `POST /v1/image_to_video`: one task id per video.
    pub async fn submit_image_to_video(
        &self,
        request: &ImageToVideoRequest,
        cancel: Option<&AbortSignal>,
    ) -> Result<TaskIds, ClientError> {
        self.submit(TaskKind::ImageToVideo, request, cancel).await
    }

    /// `GET /v1/image_to_video/{task_id}`.
    pub async fn image_to_video(
        &self,
        task_id: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<ImageToVideoTask, ClientError> {
        self.read(&TaskKind::ImageToVideo.status_path(task_id), cancel)
            .await
    }

    /// `POST /v1/video_translate`: one task per language.
    pub async fn submit_video_translate(
        &self,
        request: &VideoTranslateRequest,
        cancel: Option<&AbortSignal>,
    ) -> Result<Vec<TranslationTaskRef>, ClientError> {
        self.submit(TaskKind::VideoTranslate, request, cancel).await
    }

    /// `GET /v1/video_translate/{task_id}`.
    pub async fn video_translate(
        &self,
        task_id: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<VideoTranslateTask, ClientError> {
        self.read(&TaskKind::VideoTranslate.status_path(task_id), cancel)
            .await
    }

    /// `POST /v1/image_generate`: one task id per image.
    pub async fn submit_image_generate(
        &self,
        request: &ImageGenerateRequest,
        cancel: Option<&AbortSignal>,
    ) -> Result<TaskIds, ClientError> {
        self.submit(TaskKind::ImageGenerate, request, cancel).await
    }

    /// `GET /v1/image_generate/{task_id}`.
    pub async fn image_generate(
        &self,
        task_id: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<ImageGenerateTask, ClientError> {
        self.read(&TaskKind::ImageGenerate.status_path(task_id), cancel)
            .await
    }

    /// Submit a request of any kind; returns the new task ids, in the
    /// service's order (one per language for a translation).
    pub async fn submit_request(
        &self,
        request: &Request,
        cancel: Option<&AbortSignal>,
    ) -> Result<Vec<String>, ClientError> {
        Ok(self.submit_any(request, cancel).await?.task_ids)
    }

    /// Submit a request of any kind; returns the new task ids and, through
    /// a gateway that relays callbacks, the capability to listen with.
    pub async fn submit_any(
        &self,
        request: &Request,
        cancel: Option<&AbortSignal>,
    ) -> Result<Submitted, ClientError> {
        let kind = request.kind();
        let (task_ids, heard, answer) = match request {
            Request::ImageToVideo(request) => {
                let (ids, heard) = self
                    .submit_relayed::<TaskIds>(kind, request, cancel)
                    .await?;
                let answer = serde_json::to_value(&ids).unwrap_or_default();
                (ids.task_ids, heard, answer)
            }
            Request::VideoTranslate(request) => {
                let (tasks, heard) = self
                    .submit_relayed::<Vec<TranslationTaskRef>>(kind, request, cancel)
                    .await?;
                let answer = serde_json::to_value(&tasks).unwrap_or_default();
                let ids = tasks.into_iter().map(|task| task.task_id).collect();
                (ids, heard, answer)
            }
            Request::ImageGenerate(request) => {
                let (ids, heard) = self
                    .submit_relayed::<TaskIds>(kind, request, cancel)
                    .await?;
                let answer = serde_json::to_value(&ids).unwrap_or_default();
                (ids.task_ids, heard, answer)
            }
        };
        Ok(Submitted {
            task_ids,
            relay: heard.relay,
            library: heard.library,
            answer,
        })
    }

    /// What the base URL's server offers beyond the documented calls: a
    /// gateway's relay, if any. A server without `/capabilities` (the
    /// service itself, an older gateway) offers nothing.
    pub async fn capabilities(
        &self,
        cancel: Option<&AbortSignal>,
    ) -> Result<Capabilities, ClientError> {
        match self.read(CAPABILITIES_PATH, cancel).await {
            Err(ClientError::Http { status, .. }) if offers_nothing(status) => {
                Ok(Capabilities::default())
            }
            other => other,
        }
    }

    /// The status of any task, as its kind's task object.
    pub async fn task(
        &self,
        kind: TaskKind,
        task_id: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<AnyTask, ClientError> {
        Ok(match kind {
            TaskKind::ImageToVideo => {
                AnyTask::ImageToVideo(self.image_to_video(task_id, cancel).await?)
            }
            TaskKind::VideoTranslate => {
                AnyTask::VideoTranslate(self.video_translate(task_id, cancel).await?)
            }
            TaskKind::ImageGenerate => {
                AnyTask::ImageGenerate(self.image_generate(task_id, cancel).await?)
            }
        })
    }
}
