//! `GET /s/{token}`: a shared link's page, for someone who has never seen
//! the app. Plain HTML written here with maud (escaped by default, checked
//! at compile time) and no script: the results large, each with its
//! download; a translation as one player with a choice of language (its
//! subtitles a `<track>`), opening in the viewer's language
//! (`Accept-Language`, or `?lang=`). Its head carries Open Graph and
//! Twitter card tags, so a pasted link previews, and `noindex`. With
//! `?embed`, the same results without the page's chrome, allowed in any
//! site's frames; nothing else relaxed.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup, DOCTYPE};
use media_gen_api::kept::MediaField;
use media_gen_api::share::{language_tag, preferred_language};
use media_gen_api::{AnyTask, TaskKind};
use media_gen_gateway_access::admission::Admission;
use media_gen_gateway_base::offered::On;
use media_gen_gateway_base::refusal::Refusal;

use crate::files::name_of;
use crate::shown::{self, File, ShownRequest, ShownTask};
use crate::SharingState;

/// The page's own style: large results, a phone's width first.
const STYLE: &str =
    "body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#f6f6f8}\
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem}\
h1{font-size:1.4rem;margin:0}\
figure{margin:0 0 1.5rem;background:#fff;border-radius:.5rem;padding:.5rem}\
img,video{display:block;width:100%;height:auto;border-radius:.25rem;background:#000}\
figcaption{display:flex;flex-wrap:wrap;gap:.75rem;padding:.5rem 0 0}\
a{color:#1546b0}nav a{margin-right:.75rem}nav a[aria-current]{font-weight:700}\
blockquote{margin:0 0 1rem;padding:.5rem 1rem;background:#fff;border-left:4px solid #1546b0}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem}dt{font-weight:600}\
.note{color:#55555f}";

/// A page's head: for phones, never indexed, titled `title`, with
/// `tags` (the link's preview) and the page's style.
fn head(title: &str, tags: Markup) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="robots" content="noindex";
            title { (title) }
            (tags)
            style { (maud::PreEscaped(STYLE)) }
        }
    }
}

/// What the viewer asked for in the address.
#[derive(Debug, Default)]
struct Asked {
    embed: bool,
    language: Option<String>,
}

fn asked(query: Option<&str>) -> Asked {
    let mut asked = Asked::default();
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        match &*name {
            "embed" => asked.embed = true,
            "lang" if !value.is_empty() => asked.language = Some(value.into_owned()),
            _ => {}
        }
    }
    asked
}

/// A kind's words when nothing was asked to be shown.
fn kind_title(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageGenerate => "Images",
        TaskKind::ImageToVideo => "A video",
        TaskKind::VideoTranslate => "A translated video",
    }
}

/// The page's title: the first prompt shown, else the first kind's words.
fn title(requests: &[ShownRequest]) -> String {
    requests
        .iter()
        .find_map(|request| request.asked.as_ref().and_then(|asked| asked.prompt()))
        .map(|prompt| prompt.chars().take(120).collect())
        .or_else(|| {
            requests
                .first()
                .map(|request| kind_title(request.kind).to_owned())
        })
        .unwrap_or_else(|| "Shared results".to_owned())
}

/// A file's address under the link, relative to the page.
fn href(token: &str, task: &ShownTask, file: &File) -> String {
    format!("{token}/{}/{}", task.index, name_of(file))
}

fn file_of(task: &ShownTask, field: MediaField) -> Option<&File> {
    task.files.iter().find(|file| file.field == field)
}

/// The language a translation's task is in.
fn language_of(task: &ShownTask) -> Option<&str> {
    match &task.task {
        Some(AnyTask::VideoTranslate(translated)) => Some(translated.language.as_str()),
        _ => None,
    }
}

/// The settings shown beside a prompt: the request's own fields, but its
/// addresses (an input's URL, the callback), its prompt and its name.
fn settings(request: &ShownRequest) -> Vec<(String, String)> {
    let Some(serde_json::Value::Object(fields)) = &request.body else {
        return Vec::new();
    };
    fields
        .clone()
        .into_iter()
        .filter(|(name, _)| !matches!(name.as_str(), "prompt" | "callback_url" | "name"))
        .filter_map(|(name, value)| {
            let shown = match value {
                serde_json::Value::String(text) if !text.contains("://") && !text.is_empty() => {
                    text
                }
                serde_json::Value::Number(number) => number.to_string(),
                serde_json::Value::Bool(flag) => if flag { "yes" } else { "no" }.to_owned(),
                serde_json::Value::Array(items)
                    if items
                        .iter()
                        .all(|item| item.as_str().is_some_and(|text| !text.contains("://")))
                        && !items.is_empty() =>
                {
                    items
                        .iter()
                        .filter_map(|item| item.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
                _ => return None,
            };
            Some((name.replace('_', " "), shown))
        })
        .collect()
}

/// One task's files, large, each with its download.
fn results(token: &str, task: &ShownTask, alt: &str) -> Markup {
    let poster = file_of(task, MediaField::ThumbnailUrl).map(|file| href(token, task, file));
    html! {
        @if let Some(image) = file_of(task, MediaField::ImageUrl) {
            figure {
                img src=(href(token, task, image)) alt=(alt) loading="lazy";
                figcaption { a href=(href(token, task, image)) download { "Download the image" } }
            }
        }
        @if let Some(video) = file_of(task, MediaField::VideoUrl) {
            figure {
                video controls preload="metadata" poster=[poster.as_deref()] src=(href(token, task, video)) aria-label=(alt) {}
                figcaption { a href=(href(token, task, video)) download { "Download the video" } }
            }
        }
    }
}

/// A translation's tasks as one player: the chosen language's video with
/// its subtitles, the other languages a link away.
fn player(token: &str, request: &ShownRequest, chosen: Option<&str>, embed: bool) -> Markup {
    let playable: Vec<&ShownTask> = request
        .tasks
        .iter()
        .filter(|task| file_of(task, MediaField::VideoUrl).is_some())
        .collect();
    let languages: Vec<&str> = playable
        .iter()
        .filter_map(|task| language_of(task))
        .collect();
    // Asked by its tag (`fr`, from the address) or its name.
    let current = chosen
        .and_then(|wanted| {
            languages.iter().copied().find(|language| {
                language.eq_ignore_ascii_case(wanted)
                    || language_tag(language) == wanted.to_ascii_lowercase()
            })
        })
        .or_else(|| languages.first().copied());
    let current_tag = current.map(language_tag);
    let task = playable
        .iter()
        .copied()
        .find(|task| language_of(task) == current)
        .or_else(|| playable.first().copied());
    let embed_suffix = if embed { "&embed" } else { "" };
    html! {
        @if let Some(task) = task {
            @let video = file_of(task, MediaField::VideoUrl);
            @let captions = file_of(task, MediaField::CaptionUrl);
            figure {
                @if let Some(video) = video {
                    video controls preload="metadata" src=(href(token, task, video)) aria-label=(format!("The video in {}", current.unwrap_or("its language"))) {
                        @if captions.is_some() {
                            track kind="subtitles" default src=(format!("{token}/{}/captions.vtt", task.index)) srclang=[current_tag.as_deref()] label=[current];
                        }
                    }
                }
                figcaption {
                    @if languages.len() > 1 {
                        nav aria-label="Language" {
                            @for language in &languages {
                                @let tag = language_tag(language);
                                @if Some(*language) == current {
                                    a href=(format!("?lang={tag}{embed_suffix}")) hreflang=(tag) aria-current="true" { (language) }
                                } @else {
                                    a href=(format!("?lang={tag}{embed_suffix}")) hreflang=(tag) { (language) }
                                }
                            }
                        }
                    }
                    @if let Some(video) = video {
                        a href=(href(token, task, video)) download { "Download the video" }
                    }
                    @if captions.is_some() {
                        a href=(format!("{token}/{}/captions.vtt", task.index)) download { "Subtitles (WebVTT)" }
                        a href=(format!("{token}/{}/captions.srt", task.index)) download { "Subtitles (SRT)" }
                    }
                }
            }
        }
    }
}

/// The first image the page shows, or the first video's poster, for the
/// link's preview.
fn preview_image(requests: &[ShownRequest]) -> Option<(&ShownTask, &File)> {
    requests
        .iter()
        .flat_map(|request| request.tasks.iter())
        .find_map(|task| {
            file_of(task, MediaField::ImageUrl)
                .or_else(|| file_of(task, MediaField::ThumbnailUrl))
                .map(|file| (task, file))
        })
}

/// The link's preview: its image and video, their addresses from the
/// site's public one.
fn preview(site: &str, token: &str, requests: &[ShownRequest]) -> (Option<String>, Option<String>) {
    let absolute = |task: &ShownTask, file: &File| format!("{site}/s/{}", href(token, task, file));
    let image = preview_image(requests).map(|(task, file)| absolute(task, file));
    let video = requests
        .iter()
        .flat_map(|request| request.tasks.iter())
        .find_map(|task| file_of(task, MediaField::VideoUrl).map(|file| absolute(task, file)));
    (image, video)
}

/// The whole page.
fn render(
    site: &str,
    token: &str,
    requests: &[ShownRequest],
    asked: &Asked,
    accept_language: &str,
    image_size: Option<(usize, usize)>,
) -> Markup {
    let title = title(requests);
    let (image, video) = preview(site, token, requests);
    let left_out: usize = requests
        .iter()
        .flat_map(|request| &request.tasks)
        .map(|task| task.left_out)
        .sum();
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&title, html! {
                meta property="og:title" content=(title);
                meta property="og:type" content=(if video.is_some() { "video.other" } else { "website" });
                meta property="og:url" content=(format!("{site}/s/{token}"));
                @if let Some(image) = &image {
                    meta property="og:image" content=(image);
                    meta property="og:image:alt" content=(title);
                }
                @if let (Some(_), Some((width, height))) = (&image, image_size) {
                    meta property="og:image:width" content=(width);
                    meta property="og:image:height" content=(height);
                }
                @if let Some(video) = &video {
                    meta property="og:video" content=(video);
                }
                meta name="twitter:card" content=(if image.is_some() { "summary_large_image" } else { "summary" });
                meta name="twitter:title" content=(title);
                @if let Some(image) = &image {
                    meta name="twitter:image" content=(image);
                }
            }))
            body {
                @if !asked.embed {
                    header { h1 { (title) } }
                }
                main {
                    @for request in requests {
                        section {
                            @if let Some(prompt) = request.asked.as_ref().and_then(|asked| asked.prompt()) {
                                blockquote { (prompt) }
                            }
                            @let shown = settings(request);
                            @if !shown.is_empty() {
                                dl {
                                    @for (name, value) in &shown {
                                        dt { (name) } dd { (value) }
                                    }
                                }
                            }
                            @if request.kind == TaskKind::VideoTranslate {
                                @let languages: Vec<&str> = request.tasks.iter().filter_map(language_of).collect();
                                @let chosen = asked.language.as_deref().or_else(|| preferred_language(accept_language, &languages));
                                (player(token, request, chosen, asked.embed))
                            } @else {
                                @for (n, task) in request.tasks.iter().enumerate() {
                                    (results(token, task, &format!("{} {} of {}", kind_title(request.kind), n + 1, request.tasks.len())))
                                }
                            }
                        }
                    }
                    @if left_out > 0 {
                        p.note { (left_out) " of these results were not kept by the site and are not shared." }
                    }
                    @if requests.iter().all(|request| request.tasks.iter().all(|task| task.files.is_empty())) {
                        p.note { "Nothing kept is left to show here." }
                    }
                }
                @if !asked.embed {
                    footer.note { "Shared from Media Generation." }
                }
            }
        }
    }
}

/// A refusal of the page as a page a visitor reads (its status, and any
/// `Retry-After`, kept): a link taken back, one needing a person, none.
fn refused(refusal: Refusal) -> Response {
    let mut response = refusal.into_response();
    let status = response.status().as_u16();
    let (title, text) = match status {
        410 => (
            "This link was taken back",
            "The person who shared it took it back, or it has ended.",
        ),
        401 => (
            "Sign in to open this link",
            "Only people signed in to this site may open it.",
        ),
        404 => ("No link here", "Check the address you were given."),
        429 => ("Too many requests", "Try again in a moment."),
        _ => ("This link cannot be opened now", "Try again in a moment."),
    };
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            (head(title, html! {}))
            body {
                main {
                    h1 { (title) }
                    p { (text) }
                    @if status == 401 {
                        p { a href="../" { "Sign in to this site" } }
                    }
                }
            }
        }
    };
    *response.body_mut() = axum::body::Body::from(page.into_string());
    let headers = response.headers_mut();
    headers.remove(header::CONTENT_LENGTH);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /s/{token}`: the page, or a page saying why not.
pub async fn page(
    On(sharing): On<SharingState>,
    State(admission): State<Arc<Admission>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    shared_page(
        &sharing,
        &admission,
        peer,
        &token,
        query.as_deref(),
        &headers,
    )
    .await
    .unwrap_or_else(refused)
}

async fn shared_page(
    sharing: &crate::Sharing,
    admission: &Admission,
    peer: SocketAddr,
    token: &str,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<Response, Refusal> {
    let link = shown::link(sharing, token).await?;
    shown::let_in(admission, &link, headers, peer.ip()).await?;
    let requests = shown::shown(sharing, &link).await?;
    if let Err(error) = sharing.library.count_view(token).await {
        tracing::warn!(%error, "a shared page's opening could not be counted");
    }
    let asked = asked(query);
    let accept_language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let site = sharing
        .kept
        .uploads
        .settings()
        .public_url
        .trim_end_matches('/')
        .to_owned();
    // Read from the copy's record, as it was kept: no bytes read here.
    let image_size = preview_image(&requests)
        .and_then(|(_, file)| file.record.kept.as_ref()?.pixels)
        .map(|[width, height]| (width as usize, height as usize));
    let markup = render(&site, token, &requests, &asked, accept_language, image_size);
    let mut response = markup.into_response();
    let headers = response.headers_mut();
    let ancestors = if asked.embed { "*" } else { "'none'" };
    if let Ok(policy) = HeaderValue::from_str(&format!(
        "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; \
         base-uri 'none'; form-action 'none'; frame-ancestors {ancestors}"
    )) {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
