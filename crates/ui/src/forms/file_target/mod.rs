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
//!
//! The field's state and every change to it are [`state::FileField`]'s;
//! this component and [`rows`] only draw it and call its methods.

mod picked;
pub mod progress_text;
mod rows;
mod shrink;
mod state;

use std::rc::Rc;

use crate::chunk::from_chunk;
use crate::forms::MakeFormClient;
use crate::{chunk, drawn};
use leptos::prelude::*;
use media_gen_api::media_inputs::InputKind;
use media_gen_api::relay::UploadsInfo;
use wasm_bindgen::JsCast;
use web_sys::{File, FileList};

use rows::{refusal_line, sending_row};
use state::FileField;

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
///
/// The control shows at once; the file controls come once the gateway
/// says it takes uploads, from a chunk of their own in a split build
/// ([`file_controls`]). A file dropped or pasted before they have come
/// waits for them, never leaving the page.
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
    let offered = move || uploads.offered.get().is_some();
    // What takes files once the controls have come; files given before
    // wait for it.
    let taker = StoredValue::new_local(None::<Taker>);
    let waiting = StoredValue::new_local(Vec::<File>::new());
    let take = move |files: Vec<File>| match taker.get_value() {
        Some(take) => take(files),
        None => waiting.update_value(|waiting| waiting.extend(files)),
    };
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
    // Come: the files given meanwhile go to them, and so do the next.
    let arrived = move |Controls { view, take }: Controls| {
        let given = waiting.try_update_value(std::mem::take).unwrap_or_default();
        if !given.is_empty() {
            take(given);
        }
        taker.set_value(Some(take));
        view
    };
    // Where they did not come the field works as a URL field alone; a file
    // given to it is not taken, and the person is told why.
    let missing = move || {
        view! {
            <p class="hint" role="alert" id=format!("{field}-files-missing")>
                "Files cannot be taken here: part of the page did not load. "
                "Type the file's address, or reload the page."
            </p>
        }
        .into_any()
    };
    let controls = move || {
        offered().then(|| {
            from_chunk(
                async move {
                    drawn!(file_controls(value, kind, field, many, more, uploads)).map(arrived)
                },
                missing,
            )
        })
    };
    view! {
        <div class="file-target" on:drop=on_drop on:dragover=on_dragover on:paste=on_paste>
            {children()}
            {controls}
        </div>
    }
    .into_any()
}

/// What takes a field's files once its controls have come.
type Taker = Rc<dyn Fn(Vec<File>)>;

/// A field's file controls, from their chunk: what they show and what
/// takes files given to the field.
pub struct Controls {
    view: AnyView,
    take: Taker,
}

chunk! {
    /// The file controls of a field whose gateway takes uploads
    /// ([`controls`]): a chunk of its own in a split build, fetched only
    /// where the gateway takes uploads.
    file_controls(
        value: RwSignal<String>,
        kind: InputKind,
        field: &'static str,
        many: bool,
        more: Option<RwSignal<Vec<String>>>,
        uploads: FormUploads
    ) in file_controls, preload_file_controls -> Controls =>
        controls(value, kind, field, many, more, uploads)
}

/// A field's file controls: its state ([`FileField`]), its picker, the
/// offer of one task per image, each upload's row and the files refused.
fn controls(
    value: RwSignal<String>,
    kind: InputKind,
    field: &'static str,
    many: bool,
    more: Option<RwSignal<Vec<String>>>,
    uploads: FormUploads,
) -> Controls {
    let target = FileField::new(value, kind, field, many, more, uploads);
    let FileField {
        offer,
        sending,
        refused,
        ..
    } = target;
    // Leaving the page (Back, a link) stops its uploads; each stays kept in
    // the browser and goes on when the form is opened again.
    on_cleanup(move || target.stop_all());
    let take = move |files: Vec<File>| target.take(files);
    let answer = move |each: bool| target.answer(each);
    Effect::new(move |_| target.resume_kept());

    let input_ref = NodeRef::<leptos::html::Input>::new();
    let accept = match kind {
        InputKind::Image => "image/*",
        InputKind::Video => "video/*",
    };
    let picker_id = format!("{field}-file");
    let rows = move || {
        sending
            .get()
            .into_iter()
            .map(|item| sending_row(item, target))
            .collect_view()
    };
    let view = view! {
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
                            .map(|(index, refusal)| refusal_line(refusal, index, target))
                            .collect_view()
                    }}
                </div>
    };
    Controls {
        view: view.into_any(),
        take: Rc::new(take),
    }
}
