//! The header: product name, navigation to every page, connection state.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::TaskKind;

use crate::kind_text;
use crate::settings::{Connection, Settings};

/// Who is signed in, what is left of their day, and "Sign out" (with a
/// key; behind an auth proxy, signing out is the proxy's).
#[component]
fn Person(settings: Settings) -> impl IntoView {
    let access = super::access::Access::expect();
    move || match access.get() {
        super::access::SignedIn::As { person, keys, .. } => {
            let left = format!(
                "{} of {} tasks left today",
                person.tasks_left_today, person.tasks_per_day
            );
            Some(view! {
                <span class="person" id="person">
                    <span class="person__name">{person.name}</span>
                    <span class="person__left">{left}</span>
                    {keys.then(|| view! {
                        <button type="button" class="secondary" id="sign-out"
                            on:click=move |_| access.sign_out(settings)>"Sign out"</button>
                    })}
                </span>
            })
        }
        _ => None,
    }
}

/// The site header with the main navigation.
#[component]
pub fn Header() -> impl IntoView {
    let settings = Settings::expect();
    let kind = settings.connection_kind();
    let connection = move || {
        let kind = kind.get();
        let class = match kind {
            Connection::NoToken => "connection connection--missing",
            Connection::Gateway | Connection::Direct => "connection connection--ok",
        };
        (class, kind.short())
    };
    // On a phone the navigation folds behind "Menu" (a wrapped row of links
    // pushed the page down by a third of the screen); it folds again once
    // a link is followed.
    let open = RwSignal::new(false);
    let pathname = leptos_router::hooks::use_location().pathname;
    Effect::new(move |_| {
        pathname.track();
        open.set(false);
    });
    view! {
        <header class="site-header" class:site-header--open=move || open.get()>
            <A href=crate::address::href("/") attr:class="brand">"Media Generation"</A>
            <button type="button" class="secondary menu-toggle" id="menu-toggle"
                aria-controls="main-nav" aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|open| *open = !*open)>
                "Menu"
            </button>
            <nav aria-label="Main" id="main-nav">
                <ul class="nav">
                    <li><A href=crate::address::href("/")>"Tasks"</A></li>
                    {TaskKind::ALL
                        .iter()
                        .copied()
                        .map(|kind| {
                            view! {
                                <li><A href=crate::address::href(crate::address::form_path(kind))>{kind_text::title(kind)}</A></li>
                            }
                        })
                        .collect_view()}
                    <li><A href=crate::address::href("/settings")>"Settings"</A></li>
                </ul>
            </nav>
            <A href=crate::address::href("/settings") attr:class=move || connection().0>
                {move || connection().1}
            </A>
            <Person settings/>
        </header>
    }
}
