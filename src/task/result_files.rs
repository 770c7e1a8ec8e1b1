//! A finished task's result files: each under a name that says what it
//! is (`{kind}-{task id}.{ext}`, with the language for a translation), and
//! how one is saved by a link. What "Download all" and its `.zip` both
//! take.

use leptos::prelude::*;
use media_gen_api::kept::{MediaField, ResultFiles};
use media_gen_api::validate::url_extension;
use media_gen_api::{AnyTask, TaskStatus};
use wasm_bindgen::{JsCast, JsValue};

use media_gen_ui::components::safe_url::safe_url;
use media_gen_ui::store::record::TaskRecord;

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
