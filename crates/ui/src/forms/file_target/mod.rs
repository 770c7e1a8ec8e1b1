//! A media field that also takes a file from the person's computer, three
//! ways: "Choose file" (on a phone it offers the camera roll), dropped on
//! the field, or pasted into it. The file is judged before a byte is sent
//! (type and size by the contract's rules; an image over 20 MB can be
//! shrunk to fit instead), shown at once from the local
//! copy, and uploaded to the page's gateway as soon as it is picked, with a
//! progress bar (percent, size, speed, time left) and Cancel; the field
//! then holds the upload's address, editable as any URL. The form's Submit
//! waits for uploads under way. An upload under way survives a reload: its
//! file and address are kept in the browser (`store::uploads`) and the field
//! resumes it where the gateway stands. Without a gateway that takes uploads the
//! field is a URL field as before.

mod picked;
pub mod progress_text;
mod shrink;

use std::rc::Rc;

use crate::forms::MakeFormClient;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::media_inputs::InputKind;
use media_gen_api::relay::UploadsInfo;
use media_gen_client::upload::{UploadError, UploadWatch};
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use web_sys::{AbortController, File, FileList};

use crate::store::uploads as uploads_kept;
use progress_text::progress_text;

/// Where a page's gateway takes uploads, once its `/capabilities` said so
/// (the app provides it; without it no file controls show).
#[derive(Clone, Copy)]
pub struct UploadsOffered(pub Signal<Option<UploadsInfo>>);

/// One form's uploads: where they go and how many are under way (its
/// Submit waits for them). The form's frame provides it.
#[derive(Clone, Copy)]
pub struct FormUploads {
    /// Where the page's gateway takes uploads, if it does.
    pub offered: Signal<Option<UploadsInfo>>,
    /// The client uploads go through.
    pub client: StoredValue<MakeFormClient, LocalStorage>,
    /// Uploads under way in the form.
    pub under_way: RwSignal<usize>,
}

impl FormUploads {
    /// Provide a form's uploads, going through `client`: offered when the
    /// page says its gateway takes them.
    pub fn provide(client: MakeFormClient) -> FormUploads {
        let offered = use_context::<UploadsOffered>()
            .map_or_else(|| Signal::derive(|| None), |offered| offered.0);
        let uploads = FormUploads {
            offered,
            client: StoredValue::new_local(client),
            under_way: RwSignal::new(0),
        };
        provide_context(uploads);
        uploads
    }
}

/// One file on its way.
#[derive(Clone)]
struct Sending {
    key: u64,
    name: String,
    size: u64,
    /// A local address of the file, for the preview (images).
    preview: Option<String>,
    sent: RwSignal<u64>,
    started_ms: f64,
    waiting: RwSignal<bool>,
    failed: RwSignal<Option<String>>,
    /// Cancels it (a browser object: kept on the page's thread).
    cancel: SendWrapper<AbortController>,
}

fn now_ms() -> f64 {
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

/// The files of a `FileList`.
fn files_of(list: Option<FileList>) -> Vec<File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|index| list.get(index))
        .collect()
}

/// The field's control (`children`) with its file controls, when the
/// page's gateway takes uploads. `value` is the field's text: a finished
/// upload's address is put there (added as a line when `many`).
#[component]
pub fn FileTarget(
    /// The field's text.
    value: RwSignal<String>,
    /// What the field takes.
    kind: InputKind,
    /// The field's name, as its problems name it (`image_url`).
    field: &'static str,
    /// Whether it takes several (one address a line).
    #[prop(optional)]
    many: bool,
    /// Where the addresses of more files go when several are given to a
    /// field that takes one, and the person asks for one task per file.
    #[prop(default = None)]
    more: Option<RwSignal<Vec<String>>>,
    /// The field's control.
    children: Children,
) -> impl IntoView {
    let Some(uploads) = use_context::<FormUploads>() else {
        return children().into_any();
    };
    // Several files offered to a field that takes one: kept here until the
    // person says what to do with them.
    let offer = RwSignal::new(None::<Vec<SendWrapper<File>>>);
    // In a batch of one task per file, the first address still goes to
    // the field; the others to `more`.
    let first_of_batch = StoredValue::new(true);
    let sending = RwSignal::new(Vec::<Sending>::new());
    // Leaving the page (Back, a link) stops its uploads; each stays kept in
    // the browser and goes on when the form is opened again.
    on_cleanup(move || {
        sending.try_with_untracked(|all| {
            for item in all {
                item.cancel.abort();
            }
        });
    });
    let refused = RwSignal::new(Vec::<Refusal>::new());
    let next_key = StoredValue::new(0u64);
    let offered = move || uploads.offered.get().is_some();

    let finish = move |key: u64| {
        sending.try_update(|all| {
            if let Some(done) = all.iter().position(|sending| sending.key == key) {
                let done = all.remove(done);
                if let Some(preview) = &done.preview {
                    let _ = web_sys::Url::revoke_object_url(preview);
                }
            }
        });
    };
    let put = move |url: String| {
        if let Some(more) = more.filter(|_| !first_of_batch.try_get_value().unwrap_or(true)) {
            more.try_update(|all| all.push(url));
        } else if let Some(_batch) = more {
            first_of_batch.try_set_value(false);
            value.try_set(url);
        } else if many {
            value.try_update(|text| {
                if !text.trim().is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&url);
            });
        } else {
            value.try_set(url);
        }
    };
    let start = move |file: File, resume: Option<uploads_kept::Kept>| {
        let Some(info) = uploads.offered.get_untracked() else {
            return;
        };
        spawn_local(async move {
            if resume.is_none() {
                if let Err(why) = picked::judge(&file, field, kind, info.max_video_bytes).await {
                    let shrinkable = why.shrinkable.then(|| SendWrapper::new(file.clone()));
                    refused.try_update(|all| {
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
            let key = next_key.get_value();
            next_key.set_value(key + 1);
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
            sending.try_update(|all| all.push(item));
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
                    put(uploaded.url);
                    finish(key);
                }
                Err(UploadError::Aborted) => finish(key),
                Err(error) => {
                    failed.try_set(Some(format!("{field}: {}: {error}", file.name())));
                }
            }
        });
    };
    let take = move |files: Vec<File>| {
        refused.set(Vec::new());
        if more.is_some() && files.len() > 1 {
            offer.set(Some(files.into_iter().map(SendWrapper::new).collect()));
            return;
        }
        let files = if many {
            files
        } else {
            files.into_iter().take(1).collect()
        };
        first_of_batch.set_value(true);
        for file in files {
            start(file.clone(), None);
        }
    };
    // The person's answer to several files: one task each, or the first.
    let answer = move |each: bool| {
        let Some(files) = offer.get_untracked() else {
            return;
        };
        offer.set(None);
        first_of_batch.set_value(true);
        let count = if each { files.len() } else { 1 };
        for file in files.into_iter().take(count) {
            start(file.take(), None);
        }
    };
    // Uploads this field had under way before a reload go on, once the
    // gateway has said it takes uploads.
    let resumed = StoredValue::new(false);
    Effect::new(move |_| {
        if uploads.offered.get().is_none() || resumed.get_value() {
            return;
        }
        resumed.set_value(true);
        spawn_local(async move {
            for kept in uploads_kept::kept(&kept_prefix(field)).await {
                start(kept.file.clone(), Some(kept));
            }
        });
    });

    let input_ref = NodeRef::<leptos::html::Input>::new();
    let accept = match kind {
        InputKind::Image => "image/*",
        InputKind::Video => "video/*",
    };
    let picker_id = format!("{field}-file");
    let on_drop = move |ev: web_sys::DragEvent| {
        if !offered() {
            return;
        }
        ev.prevent_default();
        take(files_of(ev.data_transfer().and_then(|data| data.files())));
    };
    let on_dragover = move |ev: web_sys::DragEvent| {
        if offered() {
            ev.prevent_default();
        }
    };
    let on_paste = move |ev: web_sys::ClipboardEvent| {
        if !offered() {
            return;
        }
        let files = files_of(ev.clipboard_data().and_then(|data| data.files()));
        if !files.is_empty() {
            ev.prevent_default();
            take(files);
        }
    };
    let rows = move || {
        sending
            .get()
            .into_iter()
            .map(|item| sending_row(item, finish))
            .collect_view()
    };
    view! {
        <div class="file-target" on:drop=on_drop on:dragover=on_dragover on:paste=on_paste>
            {children()}
            <Show when=offered>
                <div class="file-pick">
                    <input
                        type="file"
                        class="visually-hidden"
                        id=picker_id.clone()
                        accept=accept
                        multiple=many || more.is_some()
                        node_ref=input_ref
                        tabindex="-1"
                        aria-hidden="true"
                        on:change=move |ev| {
                            let input = ev
                                .target()
                                .and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok());
                            if let Some(input) = input {
                                take(files_of(input.files()));
                                input.set_value("");
                            }
                        }
                    />
                    <button
                        type="button"
                        class="secondary"
                        id=format!("{field}-choose")
                        on:click=move |_| {
                            if let Some(input) = input_ref.get_untracked() {
                                input.click();
                            }
                        }
                    >
                        {if many { "Choose files" } else { "Choose file" }}
                    </button>
                    <span class="hint">"or drop or paste it here"</span>
                </div>
                {move || {
                    offer
                        .with(|files| files.as_ref().map(Vec::len))
                        .map(|count| {
                            view! {
                                <div class="file-offer" id=format!("{field}-offer") role="group" aria-label="Several images">
                                    <p class="hint">{format!("{count} images: one video from each, with the same prompt and settings?")}</p>
                                    <button type="button" class="secondary" id=format!("{field}-one-task-each") on:click=move |_| answer(true)>
                                        "Make one task per image"
                                    </button>
                                    <button type="button" class="link-button" on:click=move |_| answer(false)>
                                        "Use the first only"
                                    </button>
                                </div>
                            }
                        })
                }}
                <ul class="uploads" id=format!("{field}-uploads")>{rows}</ul>
                <div role="alert" id=format!("{field}-file-problems")>
                    {move || {
                        refused
                            .get()
                            .into_iter()
                            .enumerate()
                            .map(|(index, refusal)| refusal_line(refusal, index, refused, field, start))
                            .collect_view()
                    }}
                </div>
            </Show>
        </div>
    }
    .into_any()
}

/// A file not sent, and why; for an image only too large, "Shrink to fit",
/// which sends a fitted copy in its place.
#[derive(Clone)]
struct Refusal {
    message: String,
    shrinkable: Option<SendWrapper<File>>,
}

fn refusal_line(
    refusal: Refusal,
    index: usize,
    refused: RwSignal<Vec<Refusal>>,
    field: &'static str,
    start: impl Fn(File, Option<uploads_kept::Kept>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let Refusal {
        message,
        shrinkable,
    } = refusal;
    let shrinking = RwSignal::new(false);
    let fit = shrinkable.map(|file| {
        let on_click = move |_| {
            let file = (*file).clone();
            shrinking.set(true);
            spawn_local(async move {
                match shrink::shrink(&file).await {
                    Ok(fitted) => {
                        refused.try_update(|all| {
                            if index < all.len() {
                                all.remove(index);
                            }
                        });
                        start(fitted, None);
                    }
                    Err(why) => {
                        shrinking.try_set(false);
                        refused.try_update(|all| {
                            all.push(Refusal {
                                message: format!(
                                    "{field}: {}: could not be shrunk: {why}",
                                    file.name()
                                ),
                                shrinkable: None,
                            });
                        });
                    }
                }
            });
        };
        view! {
            <button
                type="button"
                class="secondary"
                id=format!("{field}-shrink")
                disabled=move || shrinking.get()
                on:click=on_click
            >
                {move || if shrinking.get() { "Shrinking…" } else { "Shrink to fit" }}
            </button>
        }
    });
    view! {
        <p class="problem problem--error">{message}</p>
        {fit}
    }
}

/// One upload's row: its preview, name, bar, progress line and Cancel (or
/// why it failed, and Remove).
fn sending_row(
    item: Sending,
    finish: impl Fn(u64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let Sending {
        key,
        name,
        size,
        preview,
        sent,
        started_ms,
        waiting,
        failed,
        cancel,
    } = item;
    let label = format!("Uploading {name}");
    let line = move || {
        let elapsed = (now_ms() - started_ms).max(0.0) as u64;
        let text = progress_text(sent.get(), size, elapsed);
        if waiting.get() {
            format!("{text} · waiting for the network")
        } else {
            text
        }
    };
    let percent = move || {
        (sent.get() * 100)
            .checked_div(size)
            .unwrap_or(100)
            .to_string()
    };
    view! {
        <li class="upload" data-state=move || if failed.get().is_some() { "failed" } else { "sending" }>
            {preview.map(|src| view! { <img class="upload__preview" src=src alt=format!("{name}, picked") /> })}
            <span class="upload__name">{name.clone()}</span>
            <progress max="100" value=percent aria-label=label></progress>
            <span class="upload__progress hint" aria-live="polite">{line}</span>
            {move || match failed.get() {
                Some(message) => view! {
                    <p class="problem problem--error" role="alert">{message}</p>
                    <button type="button" class="link-button" on:click=move |_| finish(key)>"Remove"</button>
                }
                .into_any(),
                None => {
                    let cancel = cancel.clone();
                    view! {
                        <button type="button" class="link-button upload__cancel" on:click=move |_| cancel.abort()>
                            "Cancel"
                        </button>
                    }
                    .into_any()
                }
            }}
        </li>
    }
}
