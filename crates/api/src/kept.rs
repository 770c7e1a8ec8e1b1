//! Results kept by a gateway: which files of a finished task are its
//! results, what a kept copy must be, and the `kept` and `not_kept`
//! objects a status read forwarded by a gateway carries in its `data`.
//!
//! The service's interface document does not say how long a result's URL
//! lives. A gateway that keeps copies adds, beside the service's own
//! fields (which pass through unchanged), `kept`: an object with the same
//! names as the task's URL fields whose values are the gateway's addresses
//! of the copies made so far, and `not_kept`: the same names, each with
//! why that file could not be kept. A page shows the kept copy first and
//! falls back to the service's URL ([`shown_url`]); a task object without
//! either field (the service's own, or a record made before) reads as
//! nothing kept.

use std::fmt;

use crate::any_task::AnyTask;
pub use crate::media_field::{ByMediaField, MediaField};
use crate::media_type::MediaType;
use crate::size_text::sizes_apart;
use crate::status::TaskStatus;

/// The path a gateway serves its kept copies under.
pub const KEPT_PATH: &str = "/kept/";

/// The name of the field with the gateway's copies, in a task object.
pub const KEPT_FIELD: &str = "kept";

/// The name of the field with why a file was not kept, in a task object.
pub const NOT_KEPT_FIELD: &str = "not_kept";

impl MediaField {
    /// What the file must be, judged by its first bytes, to be kept.
    pub fn expected(self) -> Expected {
        match self {
            MediaField::VideoUrl => Expected::Video,
            MediaField::ThumbnailUrl | MediaField::ImageUrl => Expected::Image,
            MediaField::CaptionUrl => Expected::Captions,
        }
    }
}

/// What a result file must be for a copy to be kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// A video: MP4, MOV or WebM by its first bytes.
    Video,
    /// An image the service makes or takes, by its first bytes.
    Image,
    /// Subtitles: text, not markup (an HTML page is no subtitle file).
    Captions,
}

impl Expected {
    /// Whether a file opening with `head` is of this kind; `Err` says what
    /// it looked like instead.
    pub fn judge(self, head: &[u8]) -> Result<(), NotKept> {
        match self {
            Expected::Video | Expected::Image => {
                let wanted = |media: MediaType| match self {
                    Expected::Video => !media.is_image(),
                    _ => media.is_image(),
                };
                match MediaType::sniff(head) {
                    Some(media) if wanted(media) => Ok(()),
                    Some(media) => Err(NotKept::NotWhatItSaid {
                        expected: self,
                        found: media.extension().to_owned(),
                    }),
                    None => Err(NotKept::NotWhatItSaid {
                        expected: self,
                        found: looks_like(head).to_owned(),
                    }),
                }
            }
            Expected::Captions => match SubtitleFormat::sniff(head) {
                Some(_) => Ok(()),
                None => Err(NotKept::NotWhatItSaid {
                    expected: self,
                    found: looks_like(head).to_owned(),
                }),
            },
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Expected::Video => "a video",
            Expected::Image => "an image",
            Expected::Captions => "subtitles",
        }
    }
}

/// The subtitle formats a caption is kept in, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubtitleFormat {
    /// Advanced SubStation Alpha: opens with `[Script Info]`.
    Ass,
    /// SubRip: a cue number, then `00:00:01,000 --> 00:00:02,500`.
    Srt,
    /// WebVTT: opens with `WEBVTT`.
    WebVtt,
}

impl SubtitleFormat {
    /// The format of a file opening with `head`, if it reads as one (a
    /// byte order mark and blank lines before it allowed); none for
    /// anything else, a page, a metrics text or JSON among them.
    pub fn sniff(head: &[u8]) -> Option<SubtitleFormat> {
        if head.contains(&0) {
            return None;
        }
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        let mut lines = text.lines().map(str::trim);
        let first = lines.next()?;
        if first.eq_ignore_ascii_case("[script info]") {
            return Some(SubtitleFormat::Ass);
        }
        if first == "WEBVTT" || first.starts_with("WEBVTT ") || first.starts_with("WEBVTT\t") {
            return Some(SubtitleFormat::WebVtt);
        }
        let numbered = !first.is_empty() && first.bytes().all(|byte| byte.is_ascii_digit());
        let timed = lines.next().is_some_and(is_srt_timing);
        (numbered && timed).then_some(SubtitleFormat::Srt)
    }

    /// The type a copy is served as.
    pub fn mime(self) -> &'static str {
        match self {
            SubtitleFormat::WebVtt => "text/vtt; charset=utf-8",
            SubtitleFormat::Ass | SubtitleFormat::Srt => "text/plain; charset=utf-8",
        }
    }

    /// The extension a copy is named with.
    pub fn extension(self) -> &'static str {
        match self {
            SubtitleFormat::Ass => "ass",
            SubtitleFormat::Srt => "srt",
            SubtitleFormat::WebVtt => "vtt",
        }
    }
}

/// Whether `line` is a SubRip timing line: `HH:MM:SS,mmm --> HH:MM:SS,mmm`
/// (a full stop for the comma taken too).
fn is_srt_timing(line: &str) -> bool {
    let stamp = |text: &str| {
        let bytes = text.trim().as_bytes();
        bytes.len() == 12
            && bytes.iter().enumerate().all(|(at, byte)| match at {
                2 | 5 => *byte == b':',
                8 => *byte == b',' || *byte == b'.',
                _ => byte.is_ascii_digit(),
            })
    };
    match line.split_once("-->") {
        Some((start, end)) => {
            // Position settings may follow the end.
            let end = end.split_whitespace().next().unwrap_or_default();
            stamp(start) && stamp(end)
        }
        None => false,
    }
}

/// A word for what a file that is none of the expected kinds looks like.
fn looks_like(head: &[u8]) -> &'static str {
    let text = String::from_utf8_lossy(head)
        .trim_start()
        .to_ascii_lowercase();
    if text.starts_with("<!doctype html") || text.starts_with("<html") {
        "an HTML page"
    } else if text.starts_with('<') {
        "markup"
    } else if head.contains(&0) {
        "an unknown binary file"
    } else if head.is_empty() {
        "empty"
    } else {
        "text"
    }
}

/// The result files of `task`: each field naming one, with its URL, once
/// the task has `SUCCEEDED` (none before, and none of a failed task).
/// Empty fields are left out.
pub fn result_files(task: &AnyTask) -> Vec<(MediaField, &str)> {
    let (status, fields): (&TaskStatus, [(MediaField, &str); 2]) = match task {
        AnyTask::ImageToVideo(task) => (
            &task.status,
            [
                (MediaField::VideoUrl, &task.video_url),
                (MediaField::ThumbnailUrl, &task.thumbnail_url),
            ],
        ),
        AnyTask::VideoTranslate(task) => (
            &task.status,
            [
                (MediaField::VideoUrl, &task.video_url),
                (MediaField::CaptionUrl, &task.caption_url),
            ],
        ),
        AnyTask::ImageGenerate(task) => (
            &task.status,
            [
                (MediaField::ImageUrl, &task.image_url),
                (MediaField::ThumbnailUrl, &task.thumbnail_url),
            ],
        ),
    };
    if *status != TaskStatus::Succeeded {
        return Vec::new();
    }
    fields
        .into_iter()
        .filter(|(_, url)| !url.trim().is_empty())
        .collect()
}

/// Whether `task` has a result file that its gateway has neither kept nor
/// said it could not keep: its read came before the copy was whole, so a
/// page that shows it reads it once more (on a gateway that keeps results).
pub fn awaits_copies(task: &AnyTask) -> bool {
    let kept = task.kept_files();
    let not_kept = task.not_kept_files();
    result_files(task).into_iter().any(|(field, _)| {
        kept.and_then(|kept| kept.get(field)).is_none()
            && not_kept.and_then(|not_kept| not_kept.get(field)).is_none()
    })
}

/// Why a result file was not kept: the text `not_kept` carries for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotKept {
    /// Larger than the gateway keeps.
    TooLarge {
        /// The file's size as the service gave it (or as far as it was read).
        bytes: u64,
        /// The most the gateway keeps of one file.
        limit: u64,
    },
    /// Its first bytes were not what the field names.
    NotWhatItSaid {
        /// What the field names.
        expected: Expected,
        /// What the file looked like.
        found: String,
    },
    /// The service's URL was refused before fetching (not https while the
    /// service itself is).
    NotFetched {
        /// The rule it broke.
        rule: String,
    },
    /// The service did not give the file: an error status, no answer in
    /// time, or a failed connection.
    NotGiven {
        /// What happened.
        detail: String,
    },
    /// The gateway keeps no more results of this person's for now, or has
    /// no room.
    NoRoom {
        /// Whose budget or which quota.
        detail: String,
    },
}

impl fmt::Display for NotKept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotKept::TooLarge { bytes, limit } => {
                let (bytes, limit) = sizes_apart(*bytes, *limit);
                write!(f, "the service's file was {bytes}, over {limit}")
            }
            NotKept::NotWhatItSaid { expected, found } => {
                write!(f, "the service's file was {found}, not {}", expected.noun())
            }
            NotKept::NotFetched { rule } => write!(f, "not fetched: {rule}"),
            NotKept::NotGiven { detail } => {
                write!(f, "the service did not give the file: {detail}")
            }
            NotKept::NoRoom { detail } => write!(f, "no room to keep it: {detail}"),
        }
    }
}

/// The address a page shows for `field` of a task: the gateway's copy when
/// one was kept, else the service's URL.
pub fn shown_url<'a>(
    service_url: &'a str,
    kept: Option<&'a ByMediaField>,
    field: MediaField,
) -> &'a str {
    kept.and_then(|kept| kept.get(field))
        .filter(|address| !address.is_empty())
        .unwrap_or(service_url)
}

/// A task object's result files as a page shows them: the service's URL
/// for each field, and the gateway's copies beside them.
pub trait ResultFiles {
    /// The service's URL for `field` (empty when the task has none).
    fn service_url(&self, field: MediaField) -> &str;
    /// The gateway's copies, when it kept any.
    fn kept_files(&self) -> Option<&ByMediaField>;
    /// Why files were not kept, when any was not.
    fn not_kept_files(&self) -> Option<&ByMediaField>;

    /// The address to show for `field`: the kept copy first ([`shown_url`]).
    fn shown(&self, field: MediaField) -> &str {
        shown_url(self.service_url(field), self.kept_files(), field)
    }

    /// Why `field`'s file was not kept, if the gateway said.
    fn why_not_kept(&self, field: MediaField) -> Option<&str> {
        self.not_kept_files()
            .and_then(|not_kept| not_kept.get(field))
    }

    /// A line for each file that was not kept, as a task's page says it:
    /// "Video kept: no — the service's file was 3.1 GB, over 2 GB".
    fn not_kept_notes(&self) -> Vec<String> {
        MediaField::ALL
            .iter()
            .filter_map(|&field| {
                let why = self.why_not_kept(field)?;
                Some(format!("{} kept: no — {why}", field.label()))
            })
            .collect()
    }
}

macro_rules! result_files_of {
    ($task:ty, $($field:ident => $name:ident),+) => {
        impl ResultFiles for $task {
            fn service_url(&self, field: MediaField) -> &str {
                match field {
                    $(MediaField::$field => &self.$name,)+
                    #[allow(unreachable_patterns)]
                    _ => "",
                }
            }
            fn kept_files(&self) -> Option<&ByMediaField> {
                self.kept.as_ref()
            }
            fn not_kept_files(&self) -> Option<&ByMediaField> {
                self.not_kept.as_ref()
            }
        }
    };
}

result_files_of!(crate::ImageToVideoTask, VideoUrl => video_url, ThumbnailUrl => thumbnail_url);
result_files_of!(crate::VideoTranslateTask, VideoUrl => video_url, CaptionUrl => caption_url);
result_files_of!(crate::ImageGenerateTask, ImageUrl => image_url, ThumbnailUrl => thumbnail_url);

impl ResultFiles for AnyTask {
    fn service_url(&self, field: MediaField) -> &str {
        match self {
            AnyTask::ImageToVideo(task) => task.service_url(field),
            AnyTask::VideoTranslate(task) => task.service_url(field),
            AnyTask::ImageGenerate(task) => task.service_url(field),
        }
    }
    fn kept_files(&self) -> Option<&ByMediaField> {
        match self {
            AnyTask::ImageToVideo(task) => task.kept_files(),
            AnyTask::VideoTranslate(task) => task.kept_files(),
            AnyTask::ImageGenerate(task) => task.kept_files(),
        }
    }
    fn not_kept_files(&self) -> Option<&ByMediaField> {
        match self {
            AnyTask::ImageToVideo(task) => task.not_kept_files(),
            AnyTask::VideoTranslate(task) => task.not_kept_files(),
            AnyTask::ImageGenerate(task) => task.not_kept_files(),
        }
    }
}

impl AnyTask {
    /// Whether a gateway kept a copy of one of its results.
    pub fn has_kept(&self) -> bool {
        self.kept_files().is_some_and(|kept| !kept.is_empty())
    }

    /// Note what a gateway kept of it and why it kept no more (an empty
    /// object is left out, as a task nothing was kept of has neither).
    pub fn set_kept(&mut self, kept: ByMediaField, not_kept: ByMediaField) {
        let kept = (!kept.is_empty()).then_some(kept);
        let not_kept = (!not_kept.is_empty()).then_some(not_kept);
        match self {
            AnyTask::ImageToVideo(task) => (task.kept, task.not_kept) = (kept, not_kept),
            AnyTask::VideoTranslate(task) => (task.kept, task.not_kept) = (kept, not_kept),
            AnyTask::ImageGenerate(task) => (task.kept, task.not_kept) = (kept, not_kept),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ImageGenerateTask, ImageToVideoTask, VideoTranslateTask};

    fn video(status: TaskStatus) -> AnyTask {
        AnyTask::ImageToVideo(ImageToVideoTask {
            task_id: "i2v-1".into(),
            status,
            video_url: "https://cdn.example/v.mp4".into(),
            thumbnail_url: "https://cdn.example/v.webp".into(),
            error_message: String::new(),
            duration: Some(5),
            width: None,
            height: None,
            kept: None,
            not_kept: None,
        })
    }

    #[test]
    fn a_succeeded_tasks_result_files_are_its_non_empty_url_fields() {
        assert_eq!(
            result_files(&video(TaskStatus::Succeeded)),
            [
                (MediaField::VideoUrl, "https://cdn.example/v.mp4"),
                (MediaField::ThumbnailUrl, "https://cdn.example/v.webp")
            ]
        );
        let translation = AnyTask::VideoTranslate(VideoTranslateTask {
            task_id: "vt-1".into(),
            name: "English-clip".into(),
            language: "English".into(),
            status: TaskStatus::Succeeded,
            video_url: "https://cdn.example/t.mp4".into(),
            caption_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        assert_eq!(
            result_files(&translation),
            [(MediaField::VideoUrl, "https://cdn.example/t.mp4")],
            "no captions asked for: nothing to keep for them"
        );
        let image = AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "img-1".into(),
            status: TaskStatus::Succeeded,
            image_url: "https://cdn.example/i.png".into(),
            thumbnail_url: " ".into(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        });
        assert_eq!(
            result_files(&image),
            [(MediaField::ImageUrl, "https://cdn.example/i.png")]
        );
    }

    #[test]
    fn a_task_not_yet_succeeded_or_failed_has_no_result_files() {
        for status in [
            TaskStatus::Pending,
            TaskStatus::Generating,
            TaskStatus::Failed,
            TaskStatus::Other("QUEUED".into()),
        ] {
            assert!(result_files(&video(status.clone())).is_empty(), "{status}");
        }
    }

    #[test]
    fn kept_and_not_kept_read_and_write_with_the_task_fields_names() {
        let mut kept = ByMediaField::default();
        assert!(kept.is_empty());
        assert_eq!(serde_json::to_string(&kept).unwrap(), "{}");
        kept.set(MediaField::VideoUrl, "https://gw.example/kept/abc");
        let json = serde_json::to_value(&kept).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "video_url": "https://gw.example/kept/abc" })
        );
        let read: ByMediaField = serde_json::from_value(json).unwrap();
        assert_eq!(read, kept);
        for field in MediaField::ALL {
            let mut one = ByMediaField::default();
            one.set(field, "x");
            let json = serde_json::to_value(&one).unwrap();
            assert_eq!(json[field.name()], "x", "{field}");
            assert_eq!(one.get(field), Some("x"));
            assert_eq!(MediaField::from_name(field.name()), Some(field));
        }
    }

    #[test]
    fn a_page_shows_the_kept_copy_first_and_the_services_url_otherwise() {
        let service = "https://cdn.example/v.mp4";
        assert_eq!(shown_url(service, None, MediaField::VideoUrl), service);
        let mut kept = ByMediaField::default();
        assert_eq!(
            shown_url(service, Some(&kept), MediaField::VideoUrl),
            service
        );
        kept.set(MediaField::ThumbnailUrl, "https://gw.example/kept/t");
        assert_eq!(
            shown_url(service, Some(&kept), MediaField::VideoUrl),
            service
        );
        kept.set(MediaField::VideoUrl, "https://gw.example/kept/v");
        assert_eq!(
            shown_url(service, Some(&kept), MediaField::VideoUrl),
            "https://gw.example/kept/v"
        );
    }

    #[test]
    fn a_copy_is_judged_by_its_first_bytes_against_what_its_field_names() {
        let mp4 = b"\0\0\0\x20ftypisom\0\0\x02\0isomiso2avc1mp41";
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let html = b"<!DOCTYPE html><html><body>gone</body></html>";
        assert_eq!(MediaField::VideoUrl.expected().judge(mp4), Ok(()));
        assert_eq!(MediaField::ImageUrl.expected().judge(png), Ok(()));
        assert_eq!(MediaField::ThumbnailUrl.expected().judge(png), Ok(()));
        let refused = MediaField::VideoUrl.expected().judge(html).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the service's file was an HTML page, not a video"
        );
        assert_eq!(
            MediaField::VideoUrl
                .expected()
                .judge(png)
                .unwrap_err()
                .to_string(),
            "the service's file was png, not a video"
        );
        assert_eq!(
            MediaField::ImageUrl
                .expected()
                .judge(mp4)
                .unwrap_err()
                .to_string(),
            "the service's file was mp4, not an image"
        );
        let ass = "\u{feff}[Script Info]\nTitle: clip\n".as_bytes();
        assert_eq!(MediaField::CaptionUrl.expected().judge(ass), Ok(()));
        let srt = b"1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n";
        assert_eq!(MediaField::CaptionUrl.expected().judge(srt), Ok(()));
        let vtt = b"WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n";
        assert_eq!(MediaField::CaptionUrl.expected().judge(vtt), Ok(()));
        // What an internal address answers is text, but no subtitles.
        for not_subtitles in [
            &b"# HELP gateway_requests_total Requests.\n# TYPE gateway_requests_total counter\n"[..],
            b"{\"code\":0,\"data\":{\"token\":\"x\"}}",
            b"ami-id\nhostname\ninstance-id\n",
            b"1\nnot a timing\n",
            b"",
        ] {
            let refused = MediaField::CaptionUrl.expected().judge(not_subtitles);
            assert!(
                refused.is_err(),
                "{:?}",
                String::from_utf8_lossy(not_subtitles)
            );
        }
        assert!(MediaField::CaptionUrl.expected().judge(html).is_err());
        assert!(MediaField::CaptionUrl.expected().judge(png).is_err());
    }

    #[test]
    fn reasons_read_as_a_person_would_say_them() {
        assert_eq!(
            NotKept::TooLarge {
                bytes: 3_100_000_000,
                limit: 2_000_000_000
            }
            .to_string(),
            "the service's file was 3.1 GB, over 2.0 GB"
        );
        assert_eq!(
            NotKept::NotGiven {
                detail: "404 Not Found".into()
            }
            .to_string(),
            "the service did not give the file: 404 Not Found"
        );
    }

    #[test]
    fn a_task_shows_its_kept_copies_first_and_says_why_others_were_not() {
        let mut task = video(TaskStatus::Succeeded);
        assert_eq!(
            task.shown(MediaField::VideoUrl),
            "https://cdn.example/v.mp4"
        );
        assert_eq!(task.shown(MediaField::CaptionUrl), "", "no such field");
        let mut kept = ByMediaField::default();
        kept.set(MediaField::VideoUrl, "https://gw.example/kept/a/v.mp4");
        let mut not_kept = ByMediaField::default();
        not_kept.set(
            MediaField::ThumbnailUrl,
            "the service's file was text, not an image",
        );
        task.set_kept(kept, not_kept);
        assert_eq!(
            task.shown(MediaField::VideoUrl),
            "https://gw.example/kept/a/v.mp4"
        );
        assert_eq!(
            task.shown(MediaField::ThumbnailUrl),
            "https://cdn.example/v.webp"
        );
        assert_eq!(
            task.why_not_kept(MediaField::ThumbnailUrl),
            Some("the service's file was text, not an image")
        );
        assert_eq!(
            task.not_kept_notes(),
            ["Thumbnail kept: no — the service's file was text, not an image"]
        );
        let json = task.to_json().unwrap();
        assert!(
            json.contains(r#""kept":{"video_url":"https://gw.example/kept/a/v.mp4"}"#),
            "{json}"
        );
        let read = AnyTask::from_json(task.kind(), json.as_bytes()).unwrap();
        assert_eq!(read, task, "kept and not_kept are stored with the task");
        task.set_kept(ByMediaField::default(), ByMediaField::default());
        let json = task.to_json().unwrap();
        assert!(
            !json.contains("kept"),
            "nothing kept: neither field is written: {json}"
        );
    }

    #[test]
    fn a_succeeded_task_awaits_copies_until_each_file_is_kept_or_said_not_to_be() {
        let mut task = video(TaskStatus::Succeeded);
        assert!(awaits_copies(&task), "nothing kept yet");
        let mut kept = ByMediaField::default();
        kept.set(MediaField::VideoUrl, "https://gw.example/kept/a/v.mp4");
        task.set_kept(kept.clone(), ByMediaField::default());
        assert!(awaits_copies(&task), "the thumbnail is not named yet");
        let mut not_kept = ByMediaField::default();
        not_kept.set(
            MediaField::ThumbnailUrl,
            "the service did not give the file: it answered 404",
        );
        task.set_kept(kept, not_kept);
        assert!(!awaits_copies(&task));
        assert!(
            !awaits_copies(&video(TaskStatus::Generating)),
            "nothing to keep yet"
        );
    }
}
