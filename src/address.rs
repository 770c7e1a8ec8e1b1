//! Every address of the app: built here ([`form_path`], [`detail_path`],
//! [`edit_path`], [`compare_path`]) and read here ([`Page::from_path`]):
//! which page an address shows is one `match` on the path.
//!
//! A site may serve the app under a path (`https://example.com/media/`):
//! the page's `<base href>` names it ([`base_prefix`]), the router puts it
//! before every address the app writes, and [`app_path`] takes it off
//! before one is read.
//!
//! The router (`leptos_router::Router`) still keeps the location, follows
//! links, moves through history and reads queries; only the choice of page is
//! here. A route table (`FlatRoutes`) instantiates its matching and view
//! switching for every route: 19.3 KB of the gzipped app for seven pages.
//! What a route table also did, and [`crate::routes::Pages`] therefore does: tell the router
//! when a link's page is drawn, so it writes the address (`history.pushState`).

use std::borrow::Cow;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use media_gen_api::path::decode_segment;
use media_gen_api::{StartedFrom, TaskKey, TaskKind};

/// The path the site serves the app under, without its trailing slash
/// (`/media`; empty at a site's root), read once from the page's
/// `<base href>`, where the gateway writes it as a path.
pub fn base_prefix() -> &'static str {
    static BASE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let base = document()
            .query_selector("base[href]")
            .ok()
            .flatten()
            .and_then(|base| base.get_attribute("href"))
            .unwrap_or_default();
        base.trim_end_matches('/').to_owned()
    })
}

/// The site's address the app is served at (`https://example.com/media`):
/// where its gateway answers the documented calls, and where its pages' links begin.
pub fn site_url() -> String {
    let origin = window().location().origin().unwrap_or_default();
    format!("{origin}{}", base_prefix())
}

/// The `href` of a link to the app's `path` (`/settings` → `/media/settings`
/// under a base path). leptos_router puts the base before the addresses it
/// navigates to, but not before a link's `href`: every `<A>` takes one of these.
pub fn href(path: &str) -> String {
    format!("{}{path}", base_prefix())
}

/// leptos_router's `use_navigate` for the app's paths: each goes to its
/// [`href`], as a link's would. (The router's own resolving writes the
/// board under a base path as `/media`, without the slash the links and
/// the site give it.)
pub fn use_app_navigate() -> impl Fn(&str, NavigateOptions) + Clone {
    let navigate = use_navigate();
    move |path: &str, options: NavigateOptions| {
        let options = NavigateOptions {
            resolve: false,
            ..options
        };
        navigate(&href(path), options);
    }
}

/// The app's own path in a location's path (`/media/tasks/…` → `/tasks/…`).
pub fn app_path(pathname: &str) -> &str {
    media_gen_api::path::under_base(base_prefix(), pathname).unwrap_or(pathname)
}

/// The app route of the kind's submit form.
pub fn form_path(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => "/new/image-to-video",
        TaskKind::VideoTranslate => "/new/video-translate",
        TaskKind::ImageGenerate => "/new/image-generate",
    }
}

/// The app route of one task's detail page.
pub fn detail_path(kind: TaskKind, task_id: &str) -> String {
    format!(
        "/tasks/{}/{}",
        kind.as_str(),
        media_gen_api::path::segment(task_id)
    )
}

/// The form route filled in from a stored task ("edit and re-run").
pub fn edit_path(kind: TaskKind, task_id: &str) -> String {
    format!(
        "{}?from={}",
        form_path(kind),
        media_gen_api::path::segment(task_id)
    )
}

/// The form of `kind` filled in with the settings of the board's task
/// `task_id`, its media left for the person to choose ("Use these
/// settings").
pub fn settings_path(kind: TaskKind, task_id: &str) -> String {
    format!(
        "{}?settings={}",
        form_path(kind),
        media_gen_api::path::segment(task_id)
    )
}

/// The form route a task's result starts ("Make a video of it"), its
/// address written by the contract ([`StartedFrom::query`]).
pub fn next_job_path(started: &StartedFrom) -> String {
    format!("{}?{}", form_path(started.job.kind()), started.query())
}

/// The comparison page of two tasks (each written `kind:id` in the query).
pub fn compare_path(a: &TaskKey, b: &TaskKey) -> String {
    let encode = |task: &TaskKey| media_gen_api::path::segment(&task.to_string());
    format!("/compare?a={}&b={}", encode(a), encode(b))
}

/// A page of the app, read from the path of its address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page {
    /// `/`: the task board.
    Board,
    /// `/new/{kind}`: the submit form of one kind.
    NewTask(TaskKind),
    /// `/tasks/{kind}/{id}`, both decoded. The kind is left as text so the
    /// page can name one that does not exist.
    Task {
        /// The kind's path segment, e.g. `image_to_video`.
        kind: String,
        /// The task id.
        id: String,
    },
    /// `/settings`.
    Settings,
    /// `/compare` (which tasks: the query).
    Compare,
    /// `/batch` (which kind: `?kind=`).
    Batch,
    /// Anything else.
    NotFound,
}

/// A kind written in an address either way: as the app's form links spell
/// it (`image-generate`) or as the service does (`image_generate`).
fn kind_in_address(text: &str) -> Option<TaskKind> {
    text.replace('-', "_").parse().ok()
}

/// The address the app itself writes for `path` (still percent-encoded),
/// when that differs: no trailing slash, a form's kind hyphenated
/// (`/new/image_generate` → `/new/image-generate`), a task's kind as the
/// service spells it (`/tasks/image-generate/…` → `/tasks/image_generate/…`).
/// The task id's segment is kept as typed. Addresses of no page are left alone.
pub fn canonical_path(path: &str) -> Option<String> {
    let trimmed = match path.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed,
        _ => path,
    };
    let canonical: Cow<str> = if let Some(kind) = trimmed.strip_prefix("/new/") {
        match kind_in_address(kind) {
            Some(kind) => Cow::Borrowed(form_path(kind)),
            None => Cow::Borrowed(trimmed),
        }
    } else if let Some((kind, id)) = trimmed
        .strip_prefix("/tasks/")
        .and_then(|rest| rest.split_once('/'))
    {
        match kind_in_address(kind) {
            Some(kind) => Cow::Owned(format!("/tasks/{kind}/{id}")),
            None => Cow::Borrowed(trimmed),
        }
    } else {
        Cow::Borrowed(trimmed)
    };
    (canonical != path && Page::read(&canonical) != Page::NotFound).then(|| canonical.into_owned())
}

impl Page {
    /// The page at `path` (a location's path, still percent-encoded). A
    /// trailing slash is allowed, as people type them, and so is either
    /// spelling of a kind (see [`canonical_path`]).
    pub fn from_path(path: &str) -> Page {
        match canonical_path(path) {
            Some(canonical) => Page::read(&canonical),
            None => Page::read(path),
        }
    }

    /// The page at a canonical `path`.
    fn read(path: &str) -> Page {
        match path {
            "" | "/" => return Page::Board,
            "/settings" => return Page::Settings,
            "/compare" => return Page::Compare,
            "/batch" => return Page::Batch,
            _ => {}
        }
        if let Some(&kind) = TaskKind::ALL.iter().find(|&&kind| form_path(kind) == path) {
            return Page::NewTask(kind);
        }
        let task = path
            .strip_prefix("/tasks/")
            .and_then(|rest| rest.split_once('/'))
            .filter(|(kind, id)| !kind.is_empty() && !id.is_empty() && !id.contains('/'));
        match task {
            Some((kind, id)) => Page::Task {
                kind: decode_segment(kind),
                id: decode_segment(id),
            },
            None => Page::NotFound,
        }
    }
}

/// A location's search (without its `?`) as the part of an address it is:
/// `?a=1`, or nothing.
pub fn query_part(search: &str) -> String {
    if search.is_empty() {
        String::new()
    } else {
        format!("?{search}")
    }
}

/// Put `address` in the address bar in place of the current one: no new
/// history entry, no scroll (another spelling of the same page, filters as
/// they change).
pub fn replace_address(navigate: &impl Fn(&str, NavigateOptions), address: &str) {
    let quietly = NavigateOptions {
        replace: true,
        scroll: false,
        ..Default::default()
    };
    navigate(address, quietly);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_escapes_each_side() {
        let a = TaskKey::new(TaskKind::ImageGenerate, "ig 1");
        let b = TaskKey::new(TaskKind::ImageToVideo, "i2v&2");
        assert_eq!(
            compare_path(&a, &b),
            "/compare?a=image_generate%3Aig%201&b=image_to_video%3Ai2v%262"
        );
    }

    fn task(kind: &str, id: &str) -> Page {
        Page::Task {
            kind: kind.into(),
            id: id.into(),
        }
    }

    #[test]
    fn every_page_has_its_address() {
        assert_eq!(Page::from_path("/"), Page::Board);
        assert_eq!(Page::from_path(""), Page::Board);
        assert_eq!(
            Page::from_path("/new/image-to-video"),
            Page::NewTask(TaskKind::ImageToVideo)
        );
        assert_eq!(
            Page::from_path("/new/video-translate"),
            Page::NewTask(TaskKind::VideoTranslate)
        );
        assert_eq!(
            Page::from_path("/new/image-generate"),
            Page::NewTask(TaskKind::ImageGenerate)
        );
        assert_eq!(Page::from_path("/settings"), Page::Settings);
        assert_eq!(Page::from_path("/compare"), Page::Compare);
        assert_eq!(Page::from_path("/batch/"), Page::Batch);
        assert_eq!(
            Page::from_path("/tasks/image_to_video/i2v-1"),
            task("image_to_video", "i2v-1")
        );
    }

    #[test]
    fn a_trailing_slash_is_the_same_page() {
        assert_eq!(Page::from_path("/settings/"), Page::Settings);
        assert_eq!(
            Page::from_path("/new/image-generate/"),
            Page::NewTask(TaskKind::ImageGenerate)
        );
        assert_eq!(Page::from_path("/tasks/k/id/"), task("k", "id"));
    }

    #[test]
    fn task_ids_are_decoded_from_their_segment() {
        let id = "English-my clip/2?";
        let path = format!(
            "/tasks/video_translate/{}",
            media_gen_api::path::segment(id)
        );
        assert_eq!(Page::from_path(&path), task("video_translate", id));
        // An unknown kind still reaches the task page, which names it.
        assert_eq!(Page::from_path("/tasks/movie/1"), task("movie", "1"));
    }

    #[test]
    fn either_spelling_of_a_kind_is_the_same_page() {
        assert_eq!(
            Page::from_path("/new/image_generate"),
            Page::NewTask(TaskKind::ImageGenerate)
        );
        assert_eq!(
            Page::from_path("/new/video_translate/"),
            Page::NewTask(TaskKind::VideoTranslate)
        );
        assert_eq!(
            Page::from_path("/tasks/image-to-video/i2v-1"),
            task("image_to_video", "i2v-1")
        );
    }

    #[test]
    fn other_spellings_have_one_canonical_address() {
        for (path, canonical) in [
            ("/new/image_generate", "/new/image-generate"),
            ("/new/image_to_video/", "/new/image-to-video"),
            ("/settings/", "/settings"),
            (
                "/tasks/video-translate/a%2Fb",
                "/tasks/video_translate/a%2Fb",
            ),
            ("/tasks/image_generate/x/", "/tasks/image_generate/x"),
        ] {
            assert_eq!(canonical_path(path).as_deref(), Some(canonical), "{path}");
            assert_eq!(canonical_path(canonical), None, "{canonical} is canonical");
        }
        // Canonical addresses, and addresses of no page, stay as they are.
        for path in [
            "/",
            "/compare",
            "/new/image-to-video",
            "/tasks/movie/1",
            "/nope/",
            "/new/movie",
        ] {
            assert_eq!(canonical_path(path), None, "{path}");
        }
    }

    #[test]
    fn other_addresses_are_not_found() {
        for path in [
            "/nope",
            "/new",
            "/new/",
            "/new/movie",
            "/tasks",
            "/tasks/",
            "/tasks/image_to_video",
            "/tasks/image_to_video/",
            "/tasks//id",
            "/tasks/image_to_video/a/b",
            "/settings/more",
        ] {
            assert_eq!(Page::from_path(path), Page::NotFound, "{path}");
        }
    }
}
