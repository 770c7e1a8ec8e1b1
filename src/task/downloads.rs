//! "Download all": every result file of a submission or of the filtered
//! board in one `.zip` ([`super::archive`]), each under a name that says
//! what it is: `{kind}-{task id}.{ext}`, with the language for a
//! translation; file by file when a `.zip` cannot hold them.

use leptos::prelude::*;
use media_gen_api::TaskStatus;
use media_gen_client::media;

use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::count;

use super::archive::{save_archive, Archived, NotArchived};
use super::result_files::click_download;
pub use super::result_files::{file_safe, files_of, result_files, ResultFile};
use media_gen_api::export::{Manifest, ManifestTask, MANIFEST_NAME};

/// What "download all" did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Downloaded {
    /// Saved under their names.
    pub saved: usize,
    /// Not readable from this page (no CORS on their host): opened as plain
    /// links instead, where the browser picks the name.
    pub linked: usize,
}

/// Save every file, one after another (browsers refuse a burst of downloads).
pub async fn download_all(files: &[ResultFile]) -> Downloaded {
    let mut done = Downloaded::default();
    for file in files {
        // A link to another origin ignores its `download` name; a `blob:` URL of
        // this page keeps it.
        match media::fetch_blob_url(&file.url).await {
            Ok(blob) => {
                if click_download(&blob, &file.name, false).is_ok() {
                    done.saved += 1;
                }
                // The download has its bytes once started; free them a little later.
                let later = blob.clone();
                gloo_timers::callback::Timeout::new(60_000, move || {
                    media::revoke_blob_url(&later);
                })
                .forget();
            }
            Err(_) => {
                if click_download(&file.url, &file.name, true).is_ok() {
                    done.linked += 1;
                }
            }
        }
        gloo_timers::future::TimeoutFuture::new(150).await;
    }
    done
}

/// What to say after a "download all".
pub fn summary(done: Downloaded) -> String {
    match (done.saved, done.linked) {
        (saved, 0) => format!("Downloading {}.", count(saved, "file", "files")),
        (0, linked) => format!(
            "Opened {}: their host does not let this page save them under their names.",
            count(linked, "file", "files")
        ),
        (saved, linked) => format!(
            "Downloading {}; opened {linked} more whose host does not let this page name them.",
            count(saved, "file", "files")
        ),
    }
}

/// Whether `record` has results to download (cheap: no URL is read).
pub fn has_results(record: &TaskRecord) -> bool {
    record.status == TaskStatus::Succeeded && record.task.is_some()
}

/// The words after an archive was saved.
fn archived_summary(name: &str, done: &Archived) -> String {
    let saved = format!(
        "Saved {name}: {} and {MANIFEST_NAME}.",
        count(done.saved, "file", "files")
    );
    match done.unread {
        0 => saved,
        unread => format!(
            "{saved} {} could not be read by this page; {MANIFEST_NAME} says where.",
            count(unread, "file", "files")
        ),
    }
}

/// Save the results of `chosen` as one `.zip` named `name`, with
/// `request.json` (what was asked, each task's id, status and URLs), or
/// file by file where a `.zip` cannot hold them: what happened, in words.
pub async fn save_results(chosen: Vec<TaskRecord>, name: String) -> String {
    let files = files_of(&chosen);
    let manifest = |saved_as: &dyn Fn(&str) -> Option<String>| {
        let tasks = chosen
            .iter()
            .filter_map(|record| {
                let task = record.task.as_ref()?;
                Some(ManifestTask::new(record.request.as_ref(), task, saved_as))
            })
            .collect();
        Manifest { tasks }.to_bytes()
    };
    match save_archive(&name, &files, manifest).await {
        Ok(done) => archived_summary(&name, &done),
        Err(NotArchived::Full(full)) => {
            let done = download_all(&files).await;
            format!("Not one .zip: {full}. {}", summary(done))
        }
        Err(NotArchived::Browser) => {
            let done = download_all(&files).await;
            format!("The browser could not make a .zip. {}", summary(done))
        }
    }
}

/// "Download all (3 tasks)": saves the results of `records` as one `.zip`
/// named `archive`, with `request.json` (what was asked, each task's id,
/// status and URLs); then says what happened. An archive larger than a
/// `.zip` holds is saved file by file instead.
#[component]
pub fn DownloadAll(
    /// The tasks whose results are saved, read only when clicked.
    #[prop(into)]
    records: Signal<Vec<TaskRecord>>,
    /// How many tasks have results (see [`has_results`]): the button shows
    /// when there are some.
    #[prop(into)]
    tasks: Signal<usize>,
    /// The button's words before the count: "Download all", "Download results".
    label: &'static str,
    /// The archive's name, `.zip` included.
    #[prop(into)]
    archive: Signal<String>,
) -> impl IntoView {
    let state = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let start = move |_| {
        let chosen = records.get_untracked();
        let name = archive.get_untracked();
        busy.set(true);
        state.set(Some("Saving…".to_owned()));
        // The saving itself is a chunk: fetched the first time a person
        // saves, not with the board.
        leptos::task::spawn_local(async move {
            let said = match crate::chunks::drawn!(crate::chunks::save_results(chosen, name)) {
                Ok(saving) => saving.await,
                Err(_) => "The page could not fetch what saves the files: reload it and try again."
                    .to_owned(),
            };
            state.try_set(Some(said));
            busy.try_set(false);
        });
    };
    view! {
        <Show when=move || { tasks.get() > 0 }>
            <span class="download-all">
                <button type="button" class="secondary download-all__button" on:click=start disabled=move || busy.get()>
                    {move || format!("{label} ({})", count(tasks.get(), "task", "tasks"))}
                </button>
                <span class="hint download-all__state" role="status">{move || state.get()}</span>
            </span>
        </Show>
    }
}
