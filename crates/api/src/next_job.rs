//! A result straight into the next job: which jobs a finished task's file
//! can start, and the request each starts from. A generated image becomes
//! a video's start frame or a new image's reference; a video is translated.
//! The page carries the choice in the form's address (`?image_url=…`), so
//! the form it opens can be reloaded, shared and gone back to.

use crate::any_task::AnyTask;
use crate::image_generate::ImageGenerateRequest;
use crate::image_to_video::ImageToVideoRequest;
use crate::kept::ResultFiles;
use crate::kept::{result_files, MediaField};
use crate::kind::TaskKind;
use crate::path::segment;
use crate::request::Request;
use crate::task_key::TaskKey;
use crate::video_translate::VideoTranslateRequest;

/// A job a result can start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextJob {
    /// Image-to-video with the image as its start frame (`image_url`).
    VideoOfImage,
    /// Image generation with the image among its references
    /// (`reference_images`).
    ImageWithReference,
    /// Video translation with the video as its source (`video_url`).
    TranslateVideo,
}

impl NextJob {
    /// Every next job, in the order a page offers them.
    pub const ALL: [NextJob; 3] = [
        NextJob::VideoOfImage,
        NextJob::ImageWithReference,
        NextJob::TranslateVideo,
    ];

    /// What a button that starts it says.
    pub fn label(self) -> &'static str {
        match self {
            NextJob::VideoOfImage => "Make a video of it",
            NextJob::ImageWithReference => "Use as reference",
            NextJob::TranslateVideo => "Translate it",
        }
    }

    /// The kind of task it submits.
    pub fn kind(self) -> TaskKind {
        match self {
            NextJob::VideoOfImage => TaskKind::ImageToVideo,
            NextJob::ImageWithReference => TaskKind::ImageGenerate,
            NextJob::TranslateVideo => TaskKind::VideoTranslate,
        }
    }

    /// The name of the form address's query parameter that carries the
    /// file's URL: the request field it fills.
    pub fn parameter(self) -> &'static str {
        match self {
            NextJob::VideoOfImage => "image_url",
            NextJob::ImageWithReference => "reference_images",
            NextJob::TranslateVideo => "video_url",
        }
    }

    /// The jobs a file in `field` of a `kind` task can start.
    pub fn for_file(kind: TaskKind, field: MediaField) -> &'static [NextJob] {
        match (kind, field) {
            (TaskKind::ImageGenerate, MediaField::ImageUrl) => {
                &[NextJob::VideoOfImage, NextJob::ImageWithReference]
            }
            (TaskKind::ImageToVideo, MediaField::VideoUrl) => &[NextJob::TranslateVideo],
            _ => &[],
        }
    }

    /// The jobs `task`'s results can start, each with the file's URL: none
    /// until it has `SUCCEEDED`.
    pub fn offered(task: &AnyTask) -> Vec<(NextJob, &str)> {
        let kind = task.kind();
        result_files(task)
            .into_iter()
            .flat_map(|(field, _)| {
                // The kept copy first: it outlives the service's URL.
                let url = task.shown(field);
                Self::for_file(kind, field)
                    .iter()
                    .map(move |&job| (job, url))
            })
            .collect()
    }

    /// The request the form starts from: empty but for `url` in the job's
    /// field, so the rest is the person's to fill in.
    pub fn request(self, url: &str) -> Request {
        let url = url.trim().to_owned();
        match self {
            NextJob::VideoOfImage => Request::ImageToVideo(ImageToVideoRequest {
                image_url: Some(url),
                ..ImageToVideoRequest::default()
            }),
            NextJob::ImageWithReference => Request::ImageGenerate(ImageGenerateRequest {
                reference_images: vec![url],
                ..ImageGenerateRequest::default()
            }),
            NextJob::TranslateVideo => Request::VideoTranslate(VideoTranslateRequest {
                video_url: url,
                ..VideoTranslateRequest::default()
            }),
        }
    }
}

/// A form started from another task's result, as the form's address says
/// it: `/new/image-to-video?image_url=…&source=image_generate:i2is-1`.
/// Written and read here, so the link and the form agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedFrom {
    /// The job: which field the result fills.
    pub job: NextJob,
    /// The result's URL.
    pub url: String,
    /// The task that made it.
    pub source: TaskKey,
}

impl StartedFrom {
    /// The query of the form's address, without its `?`: the result's URL
    /// under the job's parameter, then the source task.
    pub fn query(&self) -> String {
        format!(
            "{}={}&source={}",
            self.job.parameter(),
            segment(&self.url),
            segment(&self.source.to_string())
        )
    }

    /// What a `kind` form's address says it starts from; `parameter` gives
    /// one of its query parameters, decoded. `None` when it names no job of
    /// that form, or no task it came from.
    pub fn read(kind: TaskKind, parameter: impl Fn(&str) -> Option<String>) -> Option<StartedFrom> {
        let source: TaskKey = parameter("source")?.parse().ok()?;
        NextJob::ALL
            .into_iter()
            .filter(|job| job.kind() == kind)
            .find_map(|job| {
                Some(StartedFrom {
                    job,
                    url: parameter(job.parameter())?,
                    source: source.clone(),
                })
            })
    }

    /// The request the form starts from ([`NextJob::request`]).
    pub fn request(&self) -> Request {
        self.job.request(&self.url)
    }

    /// What the result was to the task that made it: "its image".
    pub fn what(&self) -> &'static str {
        match self.job {
            NextJob::TranslateVideo => "its video",
            NextJob::VideoOfImage | NextJob::ImageWithReference => "its image",
        }
    }
}

/// The task among `tasks` whose result `request` was made from: one whose
/// result file (its kept copy or the service's URL) `request` names as an
/// input. A task's page links back to it, so a chain of jobs reads as one
/// story, after a reload too, from nothing stored beside the request.
pub fn made_from<'a>(
    request: &Request,
    tasks: impl IntoIterator<Item = &'a AnyTask>,
) -> Option<TaskKey> {
    let inputs = request.media_inputs();
    if inputs.is_empty() {
        return None;
    }
    tasks.into_iter().find_map(|task| {
        let made = result_files(task).into_iter().any(|(field, url)| {
            inputs
                .iter()
                .any(|input| input.url == url || input.url == task.shown(field))
        });
        made.then(|| TaskKey::new(task.kind(), task.task_id()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ImageGenerateTask, ImageToVideoTask, TaskStatus, VideoTranslateTask};

    fn image(status: TaskStatus) -> AnyTask {
        AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "img-1".into(),
            status,
            image_url: "https://cdn.example/i.png".into(),
            thumbnail_url: "https://cdn.example/i-small.png".into(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        })
    }

    #[test]
    fn an_image_starts_a_video_or_a_new_image_and_a_video_a_translation() {
        assert_eq!(
            NextJob::offered(&image(TaskStatus::Succeeded)),
            [
                (NextJob::VideoOfImage, "https://cdn.example/i.png"),
                (NextJob::ImageWithReference, "https://cdn.example/i.png")
            ],
            "the image itself, not its thumbnail"
        );
        let video = AnyTask::ImageToVideo(ImageToVideoTask {
            task_id: "i2v-1".into(),
            status: TaskStatus::Succeeded,
            video_url: "https://cdn.example/v.mp4".into(),
            thumbnail_url: "https://cdn.example/v.webp".into(),
            error_message: String::new(),
            duration: None,
            width: None,
            height: None,
            kept: None,
            not_kept: None,
        });
        assert_eq!(
            NextJob::offered(&video),
            [(NextJob::TranslateVideo, "https://cdn.example/v.mp4")]
        );
        let translation = AnyTask::VideoTranslate(VideoTranslateTask {
            task_id: "vt-1".into(),
            name: "French-clip".into(),
            language: "French".into(),
            status: TaskStatus::Succeeded,
            video_url: "https://cdn.example/t.mp4".into(),
            caption_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        assert!(NextJob::offered(&translation).is_empty());
    }

    #[test]
    fn nothing_is_offered_before_a_task_succeeds() {
        for status in [TaskStatus::Generating, TaskStatus::Failed] {
            assert!(
                NextJob::offered(&image(status.clone())).is_empty(),
                "{status}"
            );
        }
    }

    #[test]
    fn each_job_fills_its_field_and_leaves_the_rest_empty() {
        assert_eq!(
            NextJob::VideoOfImage.request(" https://cdn.example/i.png "),
            Request::ImageToVideo(ImageToVideoRequest {
                image_url: Some("https://cdn.example/i.png".into()),
                ..ImageToVideoRequest::default()
            })
        );
        assert_eq!(
            NextJob::ImageWithReference.request("https://cdn.example/i.png"),
            Request::ImageGenerate(ImageGenerateRequest {
                reference_images: vec!["https://cdn.example/i.png".into()],
                ..ImageGenerateRequest::default()
            })
        );
        assert_eq!(
            NextJob::TranslateVideo.request("https://cdn.example/v.mp4"),
            Request::VideoTranslate(VideoTranslateRequest {
                video_url: "https://cdn.example/v.mp4".into(),
                ..VideoTranslateRequest::default()
            })
        );
    }

    #[test]
    fn a_forms_address_names_a_job_by_the_field_it_fills() {
        // The query as a page reads it: each parameter decoded.
        let reader = |query: String| {
            move |name: &str| {
                query.split('&').find_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    (key == name).then(|| crate::path::decode_segment(value))
                })
            }
        };
        let source = TaskKey::new(TaskKind::ImageGenerate, "i2is-1 &2");
        for job in NextJob::ALL {
            let started = StartedFrom {
                job,
                url: "https://x.example/a?b=1&c=2".into(),
                source: source.clone(),
            };
            let query = started.query();
            assert_eq!(
                StartedFrom::read(job.kind(), reader(query.clone())),
                Some(started.clone()),
                "{query}"
            );
            assert_eq!(started.request().kind(), job.kind());
            assert_eq!(
                StartedFrom::read(job.kind(), reader(format!("{}=x", job.parameter()))),
                None,
                "no task it came from"
            );
        }
        let image = "image_url=x&source=image_generate%3Ai2is-1".to_owned();
        assert_eq!(
            StartedFrom::read(TaskKind::ImageGenerate, reader(image)),
            None
        );
        let edit = "from=x&source=image_generate%3Ai2is-1".to_owned();
        assert_eq!(
            StartedFrom::read(TaskKind::ImageToVideo, reader(edit)),
            None
        );
    }

    #[test]
    fn a_request_made_from_a_result_names_the_task_that_made_it() {
        let mut source = image(TaskStatus::Succeeded);
        let mut kept = crate::kept::ByMediaField::default();
        kept.set(
            MediaField::ImageUrl,
            "https://gw.example/kept/abc/img-1.png",
        );
        source.set_kept(kept, crate::kept::ByMediaField::default());
        let other = AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "img-2".into(),
            image_url: "https://cdn.example/other.png".into(),
            ..match image(TaskStatus::Succeeded) {
                AnyTask::ImageGenerate(task) => task,
                _ => unreachable!(),
            }
        });
        for url in [
            "https://gw.example/kept/abc/img-1.png",
            "https://cdn.example/i.png",
        ] {
            let request = NextJob::VideoOfImage.request(url);
            assert_eq!(
                made_from(&request, [&other, &source]),
                Some(TaskKey::new(TaskKind::ImageGenerate, "img-1")),
                "{url}"
            );
        }
        let unrelated = NextJob::VideoOfImage.request("https://elsewhere.example/x.png");
        assert_eq!(made_from(&unrelated, [&other, &source]), None);
        assert_eq!(
            made_from(
                &NextJob::VideoOfImage.request("https://cdn.example/i.png"),
                [&image(TaskStatus::Generating)]
            ),
            None,
            "a task not finished made nothing"
        );
    }
}
