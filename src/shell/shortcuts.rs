//! Keyboard shortcuts for the whole app: `/` filters the task board, `?`
//! lists the shortcuts, Esc leaves a task's page for the board. Nothing is
//! cancelled by Esc: the task goes on and stays followed. Ctrl/⌘+Enter,
//! which submits a form, lives with the forms (`forms/shell.rs`).

use gloo_events::{EventListener, EventListenerOptions};
use leptos::html::Dialog;
use leptos::prelude::*;
use leptos_router::hooks::use_location;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::address::Page;

/// Every shortcut, as listed by `?`.
pub const SHORTCUTS: [(&str, &str); 4] = [
    ("Ctrl+Enter or ⌘+Enter", "Submit the form"),
    ("/", "Filter the tasks on the board"),
    ("Esc", "Close a task's page (the task goes on)"),
    ("?", "Show this list"),
];

/// What a key press asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortcut {
    /// Focus the board's text filter (opening the board if need be).
    FocusFilter,
    /// Show the list of shortcuts.
    ShowHelp,
    /// Leave a task's (or the comparison's) page for the board.
    CloseDetail,
}

/// The shortcut for `key` pressed with or without Ctrl, ⌘ or Alt
/// (`modified`), while typing in a field or not, on the page at `path`.
/// Keys typed into fields stay theirs.
pub fn shortcut(key: &str, modified: bool, typing: bool, path: &str) -> Option<Shortcut> {
    if modified || typing {
        return None;
    }
    match key {
        "/" => Some(Shortcut::FocusFilter),
        "?" => Some(Shortcut::ShowHelp),
        "Escape" if matches!(Page::from_path(path), Page::Task { .. } | Page::Compare) => {
            Some(Shortcut::CloseDetail)
        }
        _ => None,
    }
}

/// Whether the key press happened in a field that takes text.
fn typing(event: &KeyboardEvent) -> bool {
    let Some(element) = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let tag = element.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select")
        || element.get_attribute("contenteditable").is_some()
}

/// The board's text filter as `/` reaches it: focused at once when the
/// board shows it, else as soon as the board draws it after the navigation
/// `/` starts. Provided by the app; the board page draws its filter with
/// [`FilterFocus::input`] and calls [`FilterFocus::attach`].
#[derive(Clone, Copy)]
pub struct FilterFocus {
    wanted: RwSignal<bool>,
    /// The board's filter, while the board page shows it.
    pub input: NodeRef<leptos::html::Input>,
}

impl FilterFocus {
    /// Nothing wanted yet.
    pub fn new() -> FilterFocus {
        FilterFocus {
            wanted: RwSignal::new(false),
            input: NodeRef::new(),
        }
    }

    /// On the board page: the filter takes the focus `/` asked for before
    /// it was drawn.
    pub fn attach(self) {
        Effect::new(move || {
            if self.wanted.get() {
                if let Some(input) = self.input.get() {
                    let _ = input.focus();
                    self.wanted.set(false);
                }
            }
        });
    }

    /// Focus the filter now if the page shows it; else when it is drawn.
    fn request(self) -> bool {
        // The reference outlives the board page: only a filter still in the
        // document counts.
        match self.input.get_untracked() {
            Some(input) if input.is_connected() => input.focus().is_ok(),
            _ => {
                self.wanted.set(true);
                false
            }
        }
    }
}

impl Default for FilterFocus {
    fn default() -> Self {
        FilterFocus::new()
    }
}

/// Listens for the shortcuts (inside the router) and holds the list `?` shows.
#[component]
pub fn Shortcuts() -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    let filter_focus = expect_context::<FilterFocus>();
    let location = use_location();
    let navigate = crate::address::use_app_navigate();
    // Not passive (gloo's default): the keys handled here cancel the
    // browser's own action (`/` is Quick Find in Firefox); others pass untouched.
    let options = EventListenerOptions::enable_prevent_default();
    let listener = EventListener::new_with_options(&window(), "keydown", options, move |event| {
        let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        let modified = event.ctrl_key() || event.meta_key() || event.alt_key();
        let path = location.pathname.get_untracked();
        let path = crate::address::app_path(&path);
        let Some(wanted) = shortcut(&event.key(), modified, typing(event), path) else {
            return;
        };
        // A modal (the shortcut list, an image's full view) handles its own Esc.
        let modal_open = document()
            .query_selector("dialog[open]")
            .ok()
            .flatten()
            .is_some();
        match wanted {
            Shortcut::FocusFilter => {
                event.prevent_default();
                if !filter_focus.request() {
                    navigate("/", Default::default());
                }
            }
            Shortcut::ShowHelp => {
                event.prevent_default();
                if let Some(dialog) = dialog.get_untracked() {
                    if !dialog.open() {
                        let _ = dialog.show_modal();
                    }
                }
            }
            Shortcut::CloseDetail if !modal_open => {
                event.prevent_default();
                navigate("/", Default::default());
            }
            Shortcut::CloseDetail => {}
        }
    });
    let listener = StoredValue::new_local(Some(listener));
    on_cleanup(move || listener.update_value(|listener| drop(listener.take())));
    let close = move |_| {
        if let Some(dialog) = dialog.get_untracked() {
            dialog.close();
        }
    };
    let open = move |_| {
        if let Some(dialog) = dialog.get_untracked() {
            let _ = dialog.show_modal();
        }
    };
    view! {
        <button type="button" class="link-button shortcuts-open keyboard-only" id="shortcuts-open" aria-keyshortcuts="?"
            on:click=open>"Keyboard shortcuts (?)"</button>
        <dialog class="shortcuts" id="shortcuts" node_ref=dialog aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">"Keyboard shortcuts"</h2>
            <table>
                <tbody>
                    {SHORTCUTS.iter().map(|(keys, what)| view! {
                        <tr><th scope="row"><kbd>{*keys}</kbd></th><td>{*what}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <button type="button" class="secondary" on:click=close>"Close"</button>
        </dialog>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_shortcuts_outside_fields() {
        assert_eq!(
            shortcut("/", false, false, "/"),
            Some(Shortcut::FocusFilter)
        );
        assert_eq!(
            shortcut("/", false, false, "/settings"),
            Some(Shortcut::FocusFilter)
        );
        assert_eq!(shortcut("?", false, false, "/"), Some(Shortcut::ShowHelp));
        assert_eq!(
            shortcut("Escape", false, false, "/tasks/image_generate/ig-1"),
            Some(Shortcut::CloseDetail)
        );
        assert_eq!(
            shortcut("Escape", false, false, "/compare"),
            Some(Shortcut::CloseDetail)
        );
    }

    #[test]
    fn fields_modifiers_and_other_pages_keep_their_keys() {
        assert_eq!(shortcut("/", false, true, "/"), None);
        assert_eq!(shortcut("?", false, true, "/"), None);
        assert_eq!(shortcut("/", true, false, "/"), None);
        assert_eq!(shortcut("Escape", false, false, "/"), None);
        assert_eq!(
            shortcut("Escape", false, false, "/new/image-generate"),
            None
        );
        assert_eq!(shortcut("a", false, false, "/"), None);
    }
}
