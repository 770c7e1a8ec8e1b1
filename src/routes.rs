//! The page of the current address, drawn: which page an address shows is
//! read by [`crate::address::Page`]; this draws it, and tells the router
//! when it is drawn.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::location::{BrowserUrl, LocationProvider};
use media_gen_api::StartedFrom;
use media_gen_ui::components::redrawn;

use crate::address::{
    app_path, canonical_path, query_part, replace_address, use_app_navigate, Page,
};
use crate::board::BoardPage;
use crate::chunks::{self, FromChunk};
use crate::shell::not_found::NotFound;
use media_gen_ui::drawn;

/// The page of the current address, drawn anew when the page changes (not
/// when only the query does: the pages read it themselves, but for the form
/// filled in from `?from=`, which is drawn anew when that changes).
///
/// After every change of path it tells the router the page is drawn, which
/// is when leptos_router commits a link's address to the address bar (with
/// `pushState`; Back and Forward then walk the pages seen). An address in
/// another spelling is replaced by the app's own, keeping query and hash.
#[component]
pub fn Pages() -> impl IntoView {
    let location = use_location();
    let pathname = location.pathname;
    let page = Memo::new(move |_| pathname.with(|path| Page::from_path(app_path(path))));
    let router = use_context::<BrowserUrl>();
    let navigate = use_app_navigate();
    Effect::new(move |_| {
        let canonical = pathname.with(|path| canonical_path(app_path(path)));
        if let Some(router) = &router {
            router.ready_to_complete();
        }
        if let Some(canonical) = canonical {
            let query = location.search.with_untracked(|search| query_part(search));
            let address = format!("{canonical}{query}{}", location.hash.get_untracked());
            replace_address(&navigate, &address);
        }
    });
    let query = use_query_map();
    redrawn(move || match page.get() {
        Page::Board => view! { <BoardPage/> }.into_any(),
        // Drawn anew when the query changes: what the form starts from.
        Page::NewTask(kind) => redrawn(move || {
            let (from, next) = query.with(|query| {
                let next = StartedFrom::read(kind, |name| query.get(name));
                (query.get("from"), next)
            });
            view! { <FromChunk drawn=Box::pin(chunks::new_task(kind, from, next))/> }
        })
        .into_any(),
        Page::Task { kind, id } => {
            view! { <FromChunk drawn=Box::pin(async { drawn!(chunks::task(kind, id)) })/> }
                .into_any()
        }
        Page::Settings => {
            view! { <FromChunk drawn=Box::pin(async { drawn!(chunks::settings()) })/> }.into_any()
        }
        Page::Compare => {
            view! { <FromChunk drawn=Box::pin(async { drawn!(chunks::compare()) })/> }.into_any()
        }
        Page::Batch => {
            view! { <FromChunk drawn=Box::pin(async { drawn!(chunks::batch()) })/> }.into_any()
        }
        Page::NotFound => view! { <NotFound/> }.into_any(),
    })
}
