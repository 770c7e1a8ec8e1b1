//! The single-page app: routes, layout and pages.

pub mod announcer;
pub mod board;
pub mod compare;
pub mod downloads;
mod filters;
mod form_host;
mod header;
mod kind_text;
mod leader;
pub mod notify;
mod pages;
pub mod panic_banner;
pub mod routes;
pub mod settings;
pub mod shortcuts;
mod task_actions;

use leptos::prelude::*;
use leptos_router::components::Router;

use announcer::LiveRegion;
use header::Header;
use routes::Pages;
use shortcuts::Shortcuts;

/// The whole app: settings context, header with navigation, and the routed page.
#[component]
pub fn App() -> impl IntoView {
    let settings = settings::provide_settings();
    let announcer = announcer::provide_announcer();
    let notifier = notify::provide_notifier();
    board::provide_board(settings, announcer, notifier);
    provide_context(shortcuts::FilterFocus::new());
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to content"</a>
            <Header/>
            <LiveRegion/>
            <main id="main" class="page">
                <Pages/>
            </main>
            // After the page, never over it: a floating link covered fields.
            <footer class="site-footer">
                <Shortcuts/>
            </footer>
        </Router>
    }
}
