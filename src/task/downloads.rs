//! "Download all": every result file of a submission or of the filtered
//! board in one `.zip` ([`super::archive`]), each under a name that says
//! what it is: `{kind}-{task id}.{ext}`, with the language for a
//! translation; file by file when a `.zip` cannot hold them.

use leptos::prelude::*;
use media_gen_api::kept::{MediaField, ResultFiles};
use media_gen_api::validate::url_extension;
use media_gen_api::{AnyTask, TaskStatus};
use media_gen_client::media;
use wasm_bindgen::{JsCast, JsValue};

use media_gen_ui::components::safe_url::safe_url;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::count;

use super::archive::{save_archive, Archived, NotArchived};
use media_gen_api::export::{Manifest, ManifestTask, MANIFEST_NAME};

/// One file to save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultFile {
    /// Where it is (an http(s) URL).
    pub url: String,
    /// The name it is saved under.
    pub name: String,
}

/// Letters, digits, `-`, `_` and `.` only: ids and languages come from the
/// service and end up in a file name.
pub fn file_safe(text: &str) -> String {
    media_gen_api::path::file_safe(text, '_')
}

fn file(url: &str, stem: &str, default_extension: &str) -> Option<ResultFile> {
    let url = safe_url(url)?;
    let extension = url_extension(&url)
        .filter(|extension| extension.len() <= 5)
        .unwrap_or_else(|| default_extension.to_owned());
    Some(ResultFile {
        name: format!("{}.{}", file_safe(stem), file_safe(&extension)),
        url,
    })
}

/// The result files of a finished task: the video, the translated video
/// and its captions, or the image. None for a task that did not succeed.
pub fn result_files(task: &AnyTask) -> Vec<ResultFile> {
    if *task.status() != TaskStatus::Succeeded {
        return Vec::new();
    }
    let stem = format!("{}-{}", task.kind(), task.task_id());
    match task {
        AnyTask::ImageToVideo(task) => file(task.shown(MediaField::VideoUrl), &stem, "mp4")
            .into_iter()
            .collect(),
        AnyTask::VideoTranslate(task) => {
            let stem = format!("{stem}-{}", task.language);
            [
                file(task.shown(MediaField::VideoUrl), &stem, "mp4"),
                file(task.shown(MediaField::CaptionUrl), &stem, "ass"),
            ]
            .into_iter()
            .flatten()
            .collect()
        }
        AnyTask::ImageGenerate(task) => file(task.shown(MediaField::ImageUrl), &stem, "png")
            .into_iter()
            .collect(),
    }
}

/// Every result file of `records`, in their order.
pub fn files_of<'a>(records: impl IntoIterator<Item = &'a TaskRecord>) -> Vec<ResultFile> {
    records
        .into_iter()
        .filter_map(|record| record.task.as_ref())
        .flat_map(result_files)
        .collect()
}

/// Click a link that saves `href` as `name`.
pub(super) fn click_download(href: &str, name: &str, new_tab: bool) -> Result<(), JsValue> {
    let anchor: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    anchor.set_href(href);
    anchor.set_download(name);
    if new_tab {
        anchor.set_target("_blank");
        anchor.set_rel("noopener noreferrer");
    }
    anchor.click();
    Ok(())
}

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
        let files = files_of(&chosen);
        busy.set(true);
        state.set(Some(format!(
            "Saving {}…",
            count(files.len(), "file", "files")
        )));
        leptos::task::spawn_local(async move {
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
            let said = match save_archive(&name, &files, manifest).await {
                Ok(done) => archived_summary(&name, &done),
                Err(NotArchived::Full(full)) => {
                    let done = download_all(&files).await;
                    format!("Not one .zip: {full}. {}", summary(done))
                }
                Err(NotArchived::Browser) => {
                    let done = download_all(&files).await;
                    format!("The browser could not make a .zip. {}", summary(done))
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{ImageGenerateTask, VideoTranslateTask};

    fn translation(status: TaskStatus) -> AnyTask {
        AnyTask::VideoTranslate(VideoTranslateTask {
            task_id: "vt-9".into(),
            name: "clip".into(),
            language: "pt-BR".into(),
            status,
            video_url: "https://cdn.x/out/v.mp4?sig=1".into(),
            caption_url: "https://cdn.x/out/captions".into(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        })
    }

    #[test]
    fn files_are_named_after_kind_task_and_language() {
        let files = result_files(&translation(TaskStatus::Succeeded));
        assert_eq!(
            files,
            [
                ResultFile {
                    url: "https://cdn.x/out/v.mp4?sig=1".into(),
                    name: "video_translate-vt-9-pt-BR.mp4".into()
                },
                ResultFile {
                    url: "https://cdn.x/out/captions".into(),
                    name: "video_translate-vt-9-pt-BR.ass".into()
                },
            ]
        );
        assert!(result_files(&translation(TaskStatus::Generating)).is_empty());
    }

    #[test]
    fn unsafe_urls_and_odd_ids_never_reach_a_download() {
        let task = AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "../ig 1".into(),
            status: TaskStatus::Succeeded,
            image_url: "https://x.io/a.JPEG".into(),
            thumbnail_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        assert_eq!(result_files(&task)[0].name, "image_generate-.._ig_1.jpeg");
        let hostile = AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "ig-2".into(),
            status: TaskStatus::Succeeded,
            image_url: "javascript:alert(1)".into(),
            thumbnail_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        assert!(result_files(&hostile).is_empty());
    }
}
