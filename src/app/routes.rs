//! Which page an address shows: one `match` on the path.
//!
//! The router (`leptos_router::Router`) still keeps the location, follows
//! links, moves through history and reads queries; only the choice of page is
//! here. A route table (`FlatRoutes`) instantiates its matching and view
//! switching for every route: 19.3 KB of the gzipped app for seven pages.

use leptos::prelude::*;
use leptos_router::hooks::use_location;
use media_gen_api::path::decode_segment;
use media_gen_api::TaskKind;

use super::kind_text;
use super::pages::{Board, ComparePage, NewTask, NotFound, SettingsPage, TaskPage};

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
    /// Anything else.
    NotFound,
}

impl Page {
    /// The page at `path` (a location's path, still percent-encoded). A
    /// trailing slash is allowed, as people type them.
    pub fn from_path(path: &str) -> Page {
        let path = match path.strip_suffix('/') {
            Some(trimmed) if !trimmed.is_empty() => trimmed,
            _ => path,
        };
        match path {
            "" | "/" => return Page::Board,
            "/settings" => return Page::Settings,
            "/compare" => return Page::Compare,
            _ => {}
        }
        if let Some(&kind) = TaskKind::ALL
            .iter()
            .find(|&&kind| kind_text::form_path(kind) == path)
        {
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

/// The page of the current address, drawn anew when the page changes (not
/// when only the query does: the pages read it themselves).
#[component]
pub fn Pages() -> impl IntoView {
    let pathname = use_location().pathname;
    let page = Memo::new(move |_| pathname.with(|path| Page::from_path(path)));
    move || match page.get() {
        Page::Board => view! { <Board/> }.into_any(),
        Page::NewTask(kind) => view! { <NewTask kind/> }.into_any(),
        Page::Task { kind, id } => view! { <TaskPage kind id/> }.into_any(),
        Page::Settings => view! { <SettingsPage/> }.into_any(),
        Page::Compare => view! { <ComparePage/> }.into_any(),
        Page::NotFound => view! { <NotFound/> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
