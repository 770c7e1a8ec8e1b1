//! The Media Generation Service in the browser: the single-page app.
//!
//! The `media-gen-app` binary mounts [`App`]. The contract lives in
//! `media-gen-api`, the HTTP client and the polling engine in
//! `media-gen-client`, the forms, task views and task store in
//! `media-gen-ui`; this crate is the app's features over them, a folder
//! each: the board, a task (its page, the new-task page), the settings,
//! and the shell around every page. Every address is built and read in
//! [`address`]; [`routes`] draws the page of the current one.

pub mod address;
pub mod batch;
pub mod board;
pub mod chunks;
pub mod kind_text;
pub mod prefetch;
pub mod routes;
pub mod settings;
pub mod shell;
pub mod task;

use leptos::prelude::*;
use leptos_router::components::Router;

use routes::Pages;
use shell::announcer::LiveRegion;
use shell::header::Header;
use shell::shortcuts::Shortcuts;

/// "Skip to content": to this page's `#main`. Written out in full, as a
/// bare `#main` is read against the page's `<base href>`, which is the
/// board's address, not this page's.
#[component]
fn SkipLink() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    let href = move || {
        let search = location.search.with(|search| address::query_part(search));
        format!("{}{search}#main", location.pathname.get())
    };
    view! { <a class="skip-link" href=href>"Skip to content"</a> }
}

/// The whole app: the browser's URL parser for the rules, settings context,
/// and either the site or, on a gateway that asks for a person and has
/// none, the sign-in page in its place (at the same address).
#[component]
pub fn App() -> impl IntoView {
    media_gen_client::use_browser_urls();
    let settings = settings::provide_settings();
    let announcer = shell::announcer::provide_announcer();
    let notifier = shell::notifications::provide_notifier();
    let access = shell::access::provide_access(settings);
    provide_context(shell::shortcuts::FilterFocus::new());
    prefetch::start();
    let out = Memo::new(move |_| access.is_out());
    view! {
        <Router base=address::base_prefix()>
            <SkipLink/>
            <LiveRegion/>
            {media_gen_ui::components::redrawn(move || {
                if out.get() {
                    view! { <shell::sign_in::SignIn/> }.into_any()
                } else {
                    view! { <Site settings announcer notifier/> }.into_any()
                }
            })}
        </Router>
    }
}

/// The site once anyone may use it: the board (its tasks followed from
/// here on, so none is read while nobody is signed in), the header with
/// navigation, and the routed page.
#[component]
fn Site(
    settings: settings::Settings,
    announcer: shell::announcer::Announcer,
    notifier: shell::notifications::Notifier,
) -> impl IntoView {
    let board = board::provide_board(settings, announcer, notifier);
    board::provide_library(board, settings);
    view! {
        <Header/>
        <main id="main" class="page">
            <Pages/>
        </main>
        <board::UndoRemove/>
        // After the page, never over it: a floating link covered fields.
        <footer class="site-footer">
            <Shortcuts/>
        </footer>
    }
}
