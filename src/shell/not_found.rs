//! The page for addresses the app does not know.

use leptos::prelude::*;
use leptos_router::components::A;

/// Shown for unknown routes, with a way back.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section aria-labelledby="not-found-title">
            <h1 id="not-found-title">"Page not found"</h1>
            <p>"There is nothing at this address. " <A href=crate::address::href("/")>"Back to the tasks"</A></p>
        </section>
    }
}
