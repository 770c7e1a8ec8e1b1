//! What a task was asked to do, as a person reads it: the prompt, the
//! settings in words (defaults named as such), and the media it was given
//! as pictures (start and end frame, reference images, the source video).

use leptos::prelude::*;
use media_gen_api::validate::field_label;
use media_gen_api::{defaults, Request};

use media_gen_ui::components::safe_url::safe_url;

/// "yes" or "no".
fn yes_no(on: bool) -> &'static str {
    if on {
        "yes"
    } else {
        "no"
    }
}

/// A value the request gave, or the default it left to the service, said as such.
fn given_or<T: ToString>(given: Option<T>, default: impl ToString) -> String {
    match given {
        Some(value) => value.to_string(),
        None => format!("{} (default)", default.to_string()),
    }
}

/// Each setting of `request` with its value in words, in the form's order.
pub fn settings_in_words(request: &Request) -> Vec<(&'static str, String)> {
    match request {
        Request::ImageToVideo(r) => {
            let mut words = vec![
                (
                    "Model",
                    r.model
                        .map_or_else(|| "none".to_owned(), |m| format!("Model {m}")),
                ),
                (
                    "Aspect ratio",
                    given_or(r.aspect_ratio, defaults::ASPECT_RATIO),
                ),
                (
                    "Resolution",
                    r.aspect_resolution
                        .map_or_else(|| "none".to_owned(), |res| res.to_string()),
                ),
                (
                    "Length",
                    r.duration
                        .map_or_else(|| "the model's".to_owned(), |s| format!("{s} seconds")),
                ),
                (
                    "Videos",
                    given_or(r.generate_count, defaults::IMAGE_TO_VIDEO_COUNT),
                ),
            ];
            if let Some(audio) = r.generate_audio {
                words.push(("Audio", yes_no(audio).to_owned()));
            }
            words
        }
        Request::VideoTranslate(r) => vec![
            ("Languages", r.target_languages.join(", ")),
            (
                "Name",
                r.name
                    .clone()
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| "none (the service names it)".to_owned()),
            ),
            (
                "Speakers",
                r.speaker_num
                    .map_or_else(|| "detected by the service".to_owned(), |n| n.to_string()),
            ),
            (
                "Audio only",
                yes_no(
                    r.translate_audio_only
                        .unwrap_or(defaults::TRANSLATE_AUDIO_ONLY),
                )
                .to_owned(),
            ),
            (
                "Length follows speech",
                yes_no(
                    r.enable_dynamic_duration
                        .unwrap_or(defaults::ENABLE_DYNAMIC_DURATION),
                )
                .to_owned(),
            ),
            (
                "Subtitles",
                yes_no(r.enable_caption.unwrap_or(defaults::ENABLE_CAPTION)).to_owned(),
            ),
        ],
        Request::ImageGenerate(r) => vec![
            ("Model", given_or(r.module, defaults::IMAGE_GENERATE_MODULE)),
            (
                "Images",
                given_or(r.generate_count, defaults::IMAGE_GENERATE_COUNT),
            ),
            (
                "Quality",
                given_or(r.image_quality, defaults::IMAGE_QUALITY),
            ),
            ("Ratio", given_or(r.image_ratio, defaults::IMAGE_RATIO)),
        ],
    }
}

/// One medium a request was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputMedium {
    /// What it was for: "Start frame", "Reference image 2", "Source video".
    pub label: String,
    /// Its address.
    pub url: String,
    /// A video, not an image.
    pub video: bool,
}

/// The media `request` was given, in the form's order.
pub fn inputs(request: &Request) -> Vec<InputMedium> {
    let image = |label: String, url: &str| InputMedium {
        label,
        url: url.to_owned(),
        video: false,
    };
    let references = |urls: &[String]| {
        urls.iter()
            .enumerate()
            .map(|(index, url)| image(field_label(&format!("reference_images[{index}]")), url))
            .collect::<Vec<_>>()
    };
    let given = |url: &Option<String>| url.clone().filter(|url| !url.trim().is_empty());
    match request {
        Request::ImageToVideo(r) => {
            let mut media = Vec::new();
            if let Some(url) = given(&r.image_url) {
                media.push(image("Start frame".to_owned(), &url));
            }
            if let Some(url) = given(&r.end_image_url) {
                media.push(image("End frame".to_owned(), &url));
            }
            media.extend(references(&r.reference_images));
            media
        }
        Request::VideoTranslate(r) => vec![InputMedium {
            label: "Source video".to_owned(),
            url: r.video_url.clone(),
            video: true,
        }],
        Request::ImageGenerate(r) => references(&r.reference_images),
    }
}

/// "What was asked": the prompt, the settings and the input media.
#[component]
pub fn WhatWasAsked(
    /// The request as it was submitted.
    request: Request,
) -> impl IntoView {
    let prompt = request.prompt().map(|text| {
        view! { <blockquote class="asked__prompt">{text.to_owned()}</blockquote> }
    });
    let settings = settings_in_words(&request)
        .into_iter()
        .map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> })
        .collect_view();
    let media = inputs(&request)
        .into_iter()
        .map(|medium| {
            // An address that is not http(s) is named, not loaded.
            let alt = medium.label.clone();
            let shown = safe_url(&medium.url).map(|url| {
                if medium.video {
                    view! { <video src=url controls preload="metadata" playsinline></video> }.into_any()
                } else {
                    let link = url.clone();
                    view! { <a href=link target="_blank" rel="noopener"><img src=url alt=alt loading="lazy"/></a> }
                        .into_any()
                }
            });
            view! {
                <figure class="asked__medium">
                    {shown}
                    <figcaption>{medium.label.clone()}</figcaption>
                </figure>
            }
        })
        .collect_view();
    view! {
        <section class="asked" aria-labelledby="asked-title">
            <h2 id="asked-title">"What was asked"</h2>
            {prompt}
            <dl class="facts asked__settings">{settings}</dl>
            <div class="asked__media">{media}</div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{
        ImageGenerateRequest, ImageToVideoRequest, Model, Resolution, VideoTranslateRequest,
    };

    #[test]
    fn settings_read_as_words_with_defaults_named() {
        let request = Request::ImageToVideo(ImageToVideoRequest {
            model: Some(Model::S),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(8),
            image_url: Some("https://example.com/a.png".into()),
            ..Default::default()
        });
        assert_eq!(
            settings_in_words(&request),
            vec![
                ("Model", "Model S".to_owned()),
                ("Aspect ratio", "16:9 (default)".to_owned()),
                ("Resolution", "720p".to_owned()),
                ("Length", "8 seconds".to_owned()),
                ("Videos", "1 (default)".to_owned()),
            ]
        );
        let request = Request::ImageGenerate(ImageGenerateRequest {
            prompt: "x".into(),
            image_ratio: Some(media_gen_api::ImageRatio::R16x9),
            ..Default::default()
        });
        assert_eq!(settings_in_words(&request)[3], ("Ratio", "16:9".to_owned()));
        assert_eq!(
            settings_in_words(&request)[0],
            ("Model", "std (default)".to_owned())
        );
    }

    #[test]
    fn input_media_are_named_by_what_they_were_for() {
        let request = Request::ImageToVideo(ImageToVideoRequest {
            image_url: Some("https://e.com/start.png".into()),
            end_image_url: Some("  ".into()),
            reference_images: vec!["https://e.com/r1.png".into(), "https://e.com/r2.png".into()],
            ..Default::default()
        });
        let labels: Vec<String> = inputs(&request).into_iter().map(|m| m.label).collect();
        assert_eq!(
            labels,
            ["Start frame", "Reference image 1", "Reference image 2"]
        );
        let video = Request::VideoTranslate(VideoTranslateRequest {
            video_url: "https://e.com/v.mp4".into(),
            ..Default::default()
        });
        assert_eq!(
            inputs(&video),
            [InputMedium {
                label: "Source video".into(),
                url: "https://e.com/v.mp4".into(),
                video: true
            }]
        );
    }
}
