//! What "Download all" saves beside the files, as `request.json`: for each
//! task, what was asked, its id and status, and each result file with the
//! name it has in the archive (none when the page could not read it), the
//! gateway's kept copy and the service's own URL.

use serde::Serialize;

use crate::any_task::AnyTask;
use crate::kept::{result_files, ResultFiles};
use crate::request::Request;

/// The name of the manifest in the archive.
pub const MANIFEST_NAME: &str = "request.json";

/// `request.json`: the tasks saved, in the order they were given.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    /// Each task.
    pub tasks: Vec<ManifestTask>,
}

/// One task in `request.json`.
#[derive(Debug, Clone, Serialize)]
pub struct ManifestTask {
    /// Its kind (`image_generate`).
    pub kind: &'static str,
    /// The service's id for it.
    pub task_id: String,
    /// Its status when saved.
    pub status: String,
    /// The request as submitted (its JSON body), when known here.
    pub request: Option<serde_json::Value>,
    /// Its result files.
    pub files: Vec<ManifestFile>,
}

/// One result file in `request.json`.
#[derive(Debug, Clone, Serialize)]
pub struct ManifestFile {
    /// The task's field it is (`video_url`).
    pub field: &'static str,
    /// Its name in the archive; `null` when the page could not read it
    /// (the URLs still say where it is).
    pub file: Option<String>,
    /// The gateway's kept copy, when it kept one.
    pub kept_url: Option<String>,
    /// The service's own URL.
    pub service_url: String,
}

impl ManifestTask {
    /// `task`, asked as `request`; `saved_as` gives the archive's name for
    /// the file at an address (the one a page shows), if it was saved.
    pub fn new(
        request: Option<&Request>,
        task: &AnyTask,
        saved_as: impl Fn(&str) -> Option<String>,
    ) -> ManifestTask {
        let files = result_files(task)
            .into_iter()
            .map(|(field, service_url)| ManifestFile {
                field: field.name(),
                file: saved_as(task.shown(field)),
                kept_url: task
                    .kept_files()
                    .and_then(|kept| kept.get(field))
                    .map(str::to_owned),
                service_url: service_url.to_owned(),
            })
            .collect();
        ManifestTask {
            kind: task.kind().as_str(),
            task_id: task.task_id().to_owned(),
            status: task.status().as_str().to_owned(),
            request: request.map(Request::to_json),
            files,
        }
    }
}

impl Manifest {
    /// The manifest as the archive holds it: JSON, indented for people.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Through a `Value`: a page already writes those, indented, so
        // this adds no second writer to it.
        serde_json::to_value(self)
            .and_then(|value| serde_json::to_vec_pretty(&value))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kept::{ByMediaField, MediaField};
    use crate::{ImageGenerateRequest, ImageGenerateTask, TaskStatus};

    #[test]
    fn the_manifest_names_each_file_with_its_kept_and_service_urls() {
        let mut task = AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "ig-1".into(),
            status: TaskStatus::Succeeded,
            image_url: "https://cdn.example/i.png".into(),
            thumbnail_url: "https://cdn.example/t.png".into(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        let mut kept = ByMediaField::default();
        kept.set(MediaField::ImageUrl, "https://gw.example/kept/a/ig-1.png");
        task.set_kept(kept, ByMediaField::default());
        let request = Request::ImageGenerate(ImageGenerateRequest {
            prompt: "A lighthouse".into(),
            ..ImageGenerateRequest::default()
        });
        let entry = ManifestTask::new(Some(&request), &task, |url| {
            (url == "https://gw.example/kept/a/ig-1.png")
                .then(|| "image_generate-ig-1.png".to_owned())
        });
        let json = serde_json::to_value(Manifest { tasks: vec![entry] }).unwrap();
        let saved = &json["tasks"][0];
        assert_eq!(saved["kind"], "image_generate");
        assert_eq!(saved["task_id"], "ig-1");
        assert_eq!(saved["status"], "SUCCEEDED");
        assert_eq!(saved["request"]["prompt"], "A lighthouse");
        assert_eq!(
            saved["files"],
            serde_json::json!([
                { "field": "image_url", "file": "image_generate-ig-1.png",
                  "kept_url": "https://gw.example/kept/a/ig-1.png", "service_url": "https://cdn.example/i.png" },
                { "field": "thumbnail_url", "file": null,
                  "kept_url": null, "service_url": "https://cdn.example/t.png" },
            ])
        );
    }
}
