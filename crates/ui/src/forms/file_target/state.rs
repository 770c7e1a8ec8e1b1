//! One file field's state and what can happen to it: files taken (chosen,
//! dropped, pasted), each judged, then uploaded with its progress, its
//! address put in the field when done; several offered to a field that
//! takes one; uploads kept across a reload resumed. The views
//! ([`super::FileTarget`], [`super::rows`]) only draw it and call these.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::media_inputs::InputKind;
use media_gen_client::upload::{UploadError, UploadWatch};
use send_wrapper::SendWrapper;
use web_sys::{AbortController, File};

use super::{picked, FormUploads};
use crate::store::uploads as uploads_kept;

/// One file on its way.
#[derive(Clone)]
pub(super) struct Sending {
    pub key: u64,
    pub name: String,
    pub size: u64,
    /// A local address of the file, for the preview (images).
    pub preview: Option<String>,
    pub sent: RwSignal<u64>,
    pub started_ms: f64,
    pub waiting: RwSignal<bool>,
    pub failed: RwSignal<Option<String>>,
    /// Cancels it (a browser object: kept on the page's thread).
    pub cancel: SendWrapper<AbortController>,
}

/// A file not sent, and why; for an image only too large, "Shrink to fit",
/// which sends a fitted copy in its place.
#[derive(Clone)]
pub(super) struct Refusal {
    pub message: String,
    pub shrinkable: Option<SendWrapper<File>>,
}

/// The clock the progress lines read.
pub(super) fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Where a field's uploads are kept for a reload: under the page's path
/// and the field's name.
fn kept_prefix(field: &str) -> String {
    let page = web_sys::window()
        .and_then(|window| window.location().pathname().ok())
        .unwrap_or_default();
    format!("{page}|{field}|")
}

/// A file field: what it is, where its files go, and what it holds now.
#[derive(Clone, Copy)]
pub(super) struct FileField {
    /// The field's text: a finished upload's address goes there.
    pub value: RwSignal<String>,
    /// What the field takes.
    pub kind: InputKind,
    /// The field's name, as its problems name it (`image_url`).
    pub field: &'static str,
    /// Whether it takes several (one address a line).
    pub many: bool,
    /// Where the addresses of more files go, in a batch of one task per
    /// file.
    pub more: Option<RwSignal<Vec<String>>>,
    /// The form's uploads.
    pub uploads: FormUploads,
    /// Several files offered to a field that takes one: kept here until
    /// the person says what to do with them.
    pub offer: RwSignal<Option<Vec<SendWrapper<File>>>>,
    /// In a batch of one task per file, the first address still goes to
    /// the field; the others to `more`.
    first_of_batch: StoredValue<bool>,
    /// The files on their way.
    pub sending: RwSignal<Vec<Sending>>,
    /// The files refused, and why.
    pub refused: RwSignal<Vec<Refusal>>,
    next_key: StoredValue<u64>,
    /// Whether the uploads kept from before a reload were taken up.
    resumed: StoredValue<bool>,
}

impl FileField {
    /// A field holding nothing yet.
    pub fn new(
        value: RwSignal<String>,
        kind: InputKind,
        field: &'static str,
        many: bool,
        more: Option<RwSignal<Vec<String>>>,
        uploads: FormUploads,
    ) -> FileField {
        FileField {
            value,
            kind,
            field,
            many,
            more,
            uploads,
            offer: RwSignal::new(None),
            first_of_batch: StoredValue::new(true),
            sending: RwSignal::new(Vec::new()),
            refused: RwSignal::new(Vec::new()),
            next_key: StoredValue::new(0),
            resumed: StoredValue::new(false),
        }
    }

    /// Stop every upload under way (the page is left: each stays kept in
    /// the browser and goes on when the form is opened again).
    pub fn stop_all(self) {
        self.sending.try_with_untracked(|all| {
            for item in all {
                item.cancel.abort();
            }
        });
    }

    /// The upload `key` is over: off the list, its preview let go.
    pub fn finish(self, key: u64) {
        self.sending.try_update(|all| {
            if let Some(done) = all.iter().position(|sending| sending.key == key) {
                let done = all.remove(done);
                if let Some(preview) = &done.preview {
                    let _ = web_sys::Url::revoke_object_url(preview);
                }
            }
        });
    }

    /// A finished upload's address, where it goes: the field, a line of
    /// it, or the batch's others.
    fn put(self, url: String) {
        let first = self.first_of_batch.try_get_value().unwrap_or(true);
        if let Some(more) = self.more.filter(|_| !first) {
            more.try_update(|all| all.push(url));
        } else if self.more.is_some() {
            self.first_of_batch.try_set_value(false);
            self.value.try_set(url);
        } else if self.many {
            self.value.try_update(|text| {
                if !text.trim().is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&url);
            });
        } else {
            self.value.try_set(url);
        }
    }

    /// Files given to the field: several to a field that takes one (with
    /// a batch) are offered to the person; else each is sent.
    pub fn take(self, files: Vec<File>) {
        self.refused.set(Vec::new());
        if self.more.is_some() && files.len() > 1 {
            self.offer
                .set(Some(files.into_iter().map(SendWrapper::new).collect()));
            return;
        }
        let files = if self.many {
            files
        } else {
            files.into_iter().take(1).collect()
        };
        self.first_of_batch.set_value(true);
        for file in files {
            self.start(file, None);
        }
    }

    /// The person's answer to several files: one task each, or the first.
    pub fn answer(self, each: bool) {
        let Some(files) = self.offer.get_untracked() else {
            return;
        };
        self.offer.set(None);
        self.first_of_batch.set_value(true);
        let count = if each { files.len() } else { 1 };
        for file in files.into_iter().take(count) {
            self.start(file.take(), None);
        }
    }

    /// The uploads this field had under way before a reload go on, once:
    /// when the gateway has said it takes uploads (tracked).
    pub fn resume_kept(self) {
        if self.uploads.offered.get().is_none() || self.resumed.get_value() {
            return;
        }
        self.resumed.set_value(true);
        spawn_local(async move {
            for kept in uploads_kept::kept(&kept_prefix(self.field)).await {
                self.start(kept.file.clone(), Some(kept));
            }
        });
    }

    /// Judge `file` (unless it resumes `resume`, judged before), then
    /// upload it, its progress shown and its address put in the field.
    pub fn start(self, file: File, resume: Option<uploads_kept::Kept>) {
        let Some(info) = self.uploads.offered.get_untracked() else {
            return;
        };
        let FileField {
            field,
            kind,
            uploads,
            ..
        } = self;
        spawn_local(async move {
            if resume.is_none() {
                if let Err(why) = picked::judge(&file, field, kind, info.max_video_bytes).await {
                    let shrinkable = why.shrinkable.then(|| SendWrapper::new(file.clone()));
                    self.refused.try_update(|all| {
                        all.push(Refusal {
                            message: why.message,
                            shrinkable,
                        })
                    });
                    return;
                }
            }
            let Ok(cancel) = AbortController::new() else {
                return;
            };
            let key = self.next_key.get_value();
            self.next_key.set_value(key + 1);
            let (kept_key, resume_url) = match resume {
                Some(kept) => (kept.key, Some(kept.url)),
                None => (
                    format!("{}{}-{key}", kept_prefix(field), now_ms() as u64),
                    None,
                ),
            };
            let preview = (kind == InputKind::Image)
                .then(|| web_sys::Url::create_object_url_with_blob(&file).ok())
                .flatten();
            let item = Sending {
                key,
                name: file.name(),
                size: file.size() as u64,
                preview,
                sent: RwSignal::new(0),
                started_ms: now_ms(),
                waiting: RwSignal::new(false),
                failed: RwSignal::new(None),
                cancel: SendWrapper::new(cancel.clone()),
            };
            let (sent, waiting, failed) = (item.sent, item.waiting, item.failed);
            self.sending.try_update(|all| all.push(item));
            uploads.under_way.try_update(|n| *n += 1);
            let client = uploads.client.with_value(|client| client());
            let watch = UploadWatch {
                created: Rc::new({
                    let (kept_key, file) = (kept_key.clone(), file.clone());
                    move |url: &str| {
                        let (kept_key, url, file) =
                            (kept_key.clone(), url.to_owned(), file.clone());
                        spawn_local(
                            async move { uploads_kept::keep(&kept_key, &url, &file).await },
                        );
                    }
                }),
                progress: Rc::new(move |bytes| {
                    sent.try_set(bytes);
                }),
                waiting: Rc::new(move |now| {
                    waiting.try_set(now);
                }),
            };
            let signal = cancel.signal();
            let outcome = client
                .upload(
                    info.path.clone(),
                    file.clone(),
                    file.name(),
                    resume_url,
                    watch,
                    signal,
                )
                .await;
            // The page may be gone by now (Back, a link): then nothing of
            // it is touched, and an upload cut short by leaving stays kept,
            // to go on when the form is opened again.
            let here = uploads
                .under_way
                .try_update(|n| *n = n.saturating_sub(1))
                .is_some();
            let may_come_back = outcome == Err(UploadError::Network)
                || (!here && outcome == Err(UploadError::Aborted));
            if !may_come_back {
                uploads_kept::forget(&kept_key).await;
            }
            if !here {
                return;
            }
            match outcome {
                Ok(uploaded) => {
                    self.put(uploaded.url);
                    self.finish(key);
                }
                Err(UploadError::Aborted) => self.finish(key),
                Err(error) => {
                    failed.try_set(Some(format!("{field}: {}: {error}", file.name())));
                }
            }
        });
    }
}
