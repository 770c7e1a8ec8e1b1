//! One polite live region for the whole app: status changes are announced to
//! screen readers without moving focus.

use leptos::prelude::*;

/// The announcer, provided as context by [`provide_announcer`].
#[derive(Debug, Clone, Copy)]
pub struct Announcer {
    message: RwSignal<String>,
}

impl Announcer {
    /// The announcer provided by the app.
    pub fn expect() -> Self {
        expect_context::<Announcer>()
    }

    /// Say `message` through the live region.
    pub fn say(&self, message: impl Into<String>) {
        self.message.set(message.into());
    }
}

/// Provide the announcer; render [`LiveRegion`] once in the layout.
pub fn provide_announcer() -> Announcer {
    let announcer = Announcer {
        message: RwSignal::new(String::new()),
    };
    provide_context(announcer);
    announcer
}

/// The visually hidden live region that speaks the announcer's messages.
#[component]
pub fn LiveRegion() -> impl IntoView {
    let announcer = Announcer::expect();
    view! {
        <div id="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
            {move || announcer.message.get()}
        </div>
    }
}
