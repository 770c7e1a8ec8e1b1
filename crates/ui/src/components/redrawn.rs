//! A view drawn anew when what it reads changes, whose handlers never
//! outlive their signals.

use leptos::prelude::*;
use leptos::tachys::reactive_graph::OwnedView;

/// The view `draw` makes, drawn anew whenever a signal it reads changes
/// (a page per address, a form per query).
///
/// Each drawing gets an owner of its own, disposed only once the drawing's
/// DOM has left the page. A plain `move || view` disposes the old drawing's
/// signals first and removes its elements after; removing the focused field
/// fires its `focusout` and `change` handlers, which then read disposed
/// signals and stop the page (Enter, Ctrl+Enter or Back with the cursor in
/// a field). Here they run against live signals, as leptos_router's own
/// routes arrange it.
pub fn redrawn<V>(draw: impl Fn() -> V + Send + 'static) -> impl IntoView
where
    V: IntoView + 'static,
{
    // Drawings hang from the owner this is called under, not from the
    // effect that redraws: an effect disposes its children before it runs.
    let parent = Owner::current().unwrap_or_default();
    move || {
        let owner = parent.child();
        let view = owner.with(&draw);
        OwnedView::new_with_owner(view, owner)
    }
}
