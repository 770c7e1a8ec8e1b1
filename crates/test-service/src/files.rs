//! The result files the tasks name (`/sandbox/media/…?task=…`, the
//! model's addresses), answered with the samples' bytes; each image drawn
//! once. A file the model says is no longer served answers 404.

use media_gen_api::service::media::parse_ratio;
use media_gen_api::{ImageQuality, TaskKind};

use super::{Answer, TestService};

/// Where the result files live under the base URL.
pub const MEDIA_PATH: &str = "/sandbox/media/";

/// A file's answer.
fn served(mime: &str, bytes: Vec<u8>) -> Answer {
    Answer {
        mime: mime.to_owned(),
        body: bytes,
        ..Answer::empty(200)
    }
}

/// The 404 of a file, saying why.
fn missing(why: &str) -> Answer {
    served("text/plain; charset=utf-8", why.as_bytes().to_vec()).with_status(404)
}

impl Answer {
    fn with_status(mut self, status: u16) -> Answer {
        self.status = status;
        self
    }
}

impl TestService {
    /// The file at `rest` (the path after [`MEDIA_PATH`], its query
    /// naming its task) at `now`.
    pub(super) fn file(&mut self, rest: &str, now: u64) -> Answer {
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        let task = query.split('&').find_map(|pair| pair.strip_prefix("task="));
        let segments: Vec<&str> = path.split('/').collect();
        let kind = match segments.first() {
            Some(&"video") => TaskKind::ImageToVideo,
            Some(&"image") => TaskKind::ImageGenerate,
            Some(&"translated") => TaskKind::VideoTranslate,
            _ => return missing("No such media file"),
        };
        if let Err(gone) = self.model.media_served(kind, task, now) {
            return missing(&gone.to_string());
        }
        let file = match segments[..] {
            ["video", name] => media_gen_samples::video(name),
            ["translated", language, name] => media_gen_samples::translated(language, name),
            ["image", quality, name] => {
                return self.image(quality, name.strip_suffix(".png"), false)
            }
            ["image", quality, ratio, "thumbnail.png"] => {
                return self.image(quality, Some(ratio), true)
            }
            _ => None,
        };
        match file {
            Some(file) => served(file.mime, file.bytes.into_owned()),
            None => missing("No such media file"),
        }
    }

    /// An image of `quality` and the ratio `ratio` names (its thumbnail when
    /// `thumbnail`), drawn the first time it is asked for.
    fn image(&mut self, quality: &str, ratio: Option<&str>, thumbnail: bool) -> Answer {
        let (Ok(quality), Some(ratio)) =
            (quality.parse::<ImageQuality>(), ratio.and_then(parse_ratio))
        else {
            return missing("No such media file");
        };
        let key = format!("{quality}/{ratio}/{thumbnail}");
        let bytes = self
            .images
            .entry(key)
            .or_insert_with(|| media_gen_samples::image(quality, ratio, thumbnail))
            .clone();
        if bytes.is_empty() {
            return missing("The image could not be made");
        }
        served("image/png", bytes)
    }
}
