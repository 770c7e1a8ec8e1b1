//! A translation's subtitles saved as WebVTT or SRT, beside the service's
//! ASS: the caption file read once, converted by the contract
//! (`ass_to_vtt`, `vtt_to_srt`), and saved under the task's name. A file
//! this page cannot read (its host sends no CORS headers) is said so, with
//! the ASS link still there.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::kept::{MediaField, ResultFiles};
use media_gen_api::subtitles::vtt_to_srt;
use media_gen_api::{ass_to_vtt, AnyTask, TaskStatus};
use media_gen_client::media;

use super::result_files::{click_download, file_safe};

/// A subtitle format a person may save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    WebVtt,
    Srt,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::WebVtt => "vtt",
            Format::Srt => "srt",
        }
    }

    fn mime(self) -> &'static str {
        match self {
            Format::WebVtt => "text/vtt",
            Format::Srt => "application/x-subrip",
        }
    }
}

/// Read the captions at `url`, convert them to `format` and save them as
/// `{stem}.{extension}`; why not, when they could not be.
async fn save(url: &str, stem: &str, format: Format) -> Result<(), String> {
    let ass = media::fetch_text(url)
        .await
        .map_err(|_| "the caption file could not be read from this page".to_owned())?;
    let vtt = ass_to_vtt(&ass);
    if vtt.cues == 0 {
        return Err("the caption file has no lines to convert".to_owned());
    }
    let text = match format {
        Format::WebVtt => vtt.text,
        Format::Srt => vtt_to_srt(&vtt.text),
    };
    let blob = media::text_blob_url(&text, format.mime())
        .map_err(|_| "the browser could not hold the file".to_owned())?;
    let saved = click_download(&blob, &format!("{stem}.{}", format.extension()), false);
    media::revoke_blob_url(&blob);
    saved.map_err(|_| "the browser did not save it".to_owned())
}

/// "Subtitles as WebVTT · SRT" for a finished translation with captions;
/// nothing for any other task.
#[component]
pub fn SubtitleFiles(task: AnyTask) -> impl IntoView {
    let AnyTask::VideoTranslate(translated) = &task else {
        return None;
    };
    if translated.status != TaskStatus::Succeeded {
        return None;
    }
    let url = media_gen_ui::components::safe_url::safe_url(task.shown(MediaField::CaptionUrl))?;
    let stem = file_safe(&format!("{}-{}", translated.language, translated.task_id));
    let problem = RwSignal::new(None::<String>);
    let button = move |format: Format, label: &'static str| {
        let (url, stem) = (url.clone(), stem.clone());
        view! {
            <button type="button" class="link-button" id=format!("subtitles-{}", format.extension())
                on:click=move |_| {
                    let (url, stem) = (url.clone(), stem.clone());
                    problem.set(None);
                    spawn_local(async move {
                        if let Err(why) = save(&url, &stem, format).await {
                            problem.try_set(Some(format!("Not saved: {why}. The ASS file is linked above.")));
                        }
                    });
                }>
                {label}
            </button>
        }
    };
    Some(view! {
        <p class="task-detail__subtitles">
            "Subtitles as "{button(Format::WebVtt, "WebVTT")}" · "{button(Format::Srt, "SRT")}
            {move || problem.get().map(|why| view! { <span class="notice" role="alert">{why}</span> })}
        </p>
    })
}
