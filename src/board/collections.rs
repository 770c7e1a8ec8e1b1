//! The person's collections: named, made, renamed and removed from the
//! board. Where the site keeps the person's library they are the
//! library's (`/library/collections`, on every device); elsewhere this
//! browser keeps them (`media_gen_ui::store::settings`), with the
//! requests they hold written on the board's records.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::organise::{check_organise_name, COLLECTIONS_MAX};
use media_gen_ui::store::settings as stored;
use wasm_bindgen::JsValue;

use super::Board;
use crate::settings::Settings;

/// One collection: its id and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The library's id, or this browser's (`local-…`).
    pub id: String,
    /// What the person called it.
    pub name: String,
}

/// The collections as last read, and where they are kept.
#[derive(Clone, Copy)]
pub struct Collections {
    /// Every collection, oldest first.
    pub list: RwSignal<Vec<Named>>,
    /// Whether `list` was read yet (else a collection missing from it may
    /// only not be known yet).
    pub known: RwSignal<bool>,
    /// Why the last change failed.
    pub problem: RwSignal<Option<String>>,
    /// Kept by the library (else by this browser): known a moment after
    /// a page opened by its address is drawn.
    pub in_library: Memo<bool>,
    settings: Settings,
    board: Board,
    /// A read under way, and whether another was asked for meanwhile.
    reading: StoredValue<(bool, bool)>,
}

/// `value`'s text part `name`.
fn text(value: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(value, &JsValue::from_str(name))
        .ok()?
        .as_string()
}

/// A list of `{ id, name }` as parsed.
fn named_list(list: &JsValue) -> Vec<Named> {
    js_sys::Array::from(list)
        .iter()
        .filter_map(|item| {
            Some(Named {
                id: text(&item, "id")?,
                name: text(&item, "name")?,
            })
        })
        .collect()
}

/// The collections this browser keeps.
fn local() -> Vec<Named> {
    stored::local_collections()
        .and_then(|text| js_sys::JSON::parse(&text).ok())
        .map(|list| named_list(&list))
        .unwrap_or_default()
}

/// Keep `list` in this browser; `false` when storage refused.
fn save_local(list: &[Named]) -> bool {
    let items = js_sys::Array::new();
    for named in list {
        let item = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&item, &"id".into(), &named.id.as_str().into());
        let _ = js_sys::Reflect::set(&item, &"name".into(), &named.name.as_str().into());
        items.push(&item);
    }
    js_sys::JSON::stringify(&items)
        .ok()
        .and_then(|text| text.as_string())
        .is_some_and(|text| stored::set_local_collections(&text))
}

impl Collections {
    /// The collections, read now and again whenever `in_library` changes:
    /// the library's while it holds.
    pub fn read(in_library: Memo<bool>) -> Collections {
        let collections = Collections {
            list: RwSignal::new(Vec::new()),
            known: RwSignal::new(false),
            problem: RwSignal::new(None),
            in_library,
            settings: Settings::expect(),
            board: Board::expect(),
            reading: StoredValue::new((false, false)),
        };
        // Again when another device changed a request: a collection it is
        // in may have been renamed or removed there.
        Effect::new(move |was_in_library: Option<bool>| {
            let now_in_library = in_library.get();
            collections.board.organised_elsewhere.track();
            // Where they are kept changed: the list read from the other
            // place says nothing of a collection here.
            if was_in_library.is_some_and(|was| was != now_in_library) {
                collections.known.set(false);
            }
            collections.reload();
            now_in_library
        });
        collections
    }

    /// Read the list again: news of many requests at once is one read or
    /// two, never one each.
    pub fn reload(self) {
        // Called when a change's answer comes: the tools may have closed
        // meanwhile, their signals gone with them.
        let Some(in_library) = self.in_library.try_get_untracked() else {
            return;
        };
        if !in_library {
            self.list.try_set(local());
            self.known.try_set(true);
            return;
        }
        let Some((busy, _)) = self.reading.try_get_value() else {
            return;
        };
        self.reading.set_value((true, busy));
        if busy {
            return;
        }
        let client = self.settings.client();
        spawn_local(async move {
            loop {
                match client.collections().await {
                    Ok(list) => {
                        self.list.try_set(named_list(&list));
                        self.known.try_set(true);
                    }
                    Err(error) => {
                        self.problem
                            .try_set(Some(format!("Your collections could not be read: {error}")));
                    }
                }
                let Some((_, again)) = self.reading.try_get_value() else {
                    return;
                };
                self.reading.set_value((again, false));
                if !again {
                    return;
                }
            }
        });
    }

    /// The name of the collection `id`, once read.
    pub fn name_of(self, id: &str) -> Option<String> {
        self.list
            .with(|list| list.iter().find(|c| c.id == id).map(|c| c.name.clone()))
    }

    /// Make a collection named `name` holding the requests `rows`; `done`
    /// gets its id once made. A name the rules refuse is said, naming them.
    pub fn make(
        self,
        name: &str,
        rows: Vec<media_gen_api::TaskKey>,
        done: impl FnOnce(String) + 'static,
    ) {
        let Some(name) = self.checked_name(name) else {
            return;
        };
        if !self.in_library.get_untracked() {
            let mut list = local();
            if list.len() >= COLLECTIONS_MAX {
                return self.problem.set(Some(format!(
                    "This browser keeps at most {COLLECTIONS_MAX} collections; remove one first"
                )));
            }
            let id = format!("local-{}", js_sys::Date::now() as u64);
            list.push(Named {
                id: id.clone(),
                name,
            });
            if !save_local(&list) {
                return self.storage_refused();
            }
            self.list.set(list);
            self.board.collect(&rows, &id, true);
            return done(id);
        }
        let client = self.settings.client();
        let board = self.board;
        // Made with its requests: one call, and never an empty collection
        // left when a second call fails.
        let requests = board.library_ids(&rows);
        spawn_local(async move {
            match client.add_collection(&name, &requests).await {
                Ok(id) => {
                    board.collected_here(&rows, &id, true);
                    self.reload();
                    done(id);
                }
                Err(error) => {
                    self.problem
                        .try_set(Some(format!("The collection was not made: {error}")));
                }
            }
        });
    }

    /// Name the collection `id` anew.
    pub fn rename(self, id: String, name: &str) {
        let Some(name) = self.checked_name(name) else {
            return;
        };
        if !self.in_library.get_untracked() {
            let mut list = local();
            if let Some(named) = list.iter_mut().find(|c| c.id == id) {
                named.name = name;
            }
            if !save_local(&list) {
                return self.storage_refused();
            }
            return self.list.set(list);
        }
        let client = self.settings.client();
        spawn_local(async move {
            match client.rename_collection(&id, &name).await {
                Ok(()) => self.reload(),
                Err(error) => {
                    self.problem
                        .try_set(Some(format!("The collection was not renamed: {error}")));
                }
            }
        });
    }

    /// Remove the collection `id`; its requests stay on the board.
    pub fn remove(self, id: String) {
        self.problem.set(None);
        self.board.forget_collection(&id);
        if !self.in_library.get_untracked() {
            let mut list = local();
            list.retain(|c| c.id != id);
            if !save_local(&list) {
                return self.storage_refused();
            }
            return self.list.set(list);
        }
        let client = self.settings.client();
        spawn_local(async move {
            match client.remove_collection(&id).await {
                Ok(()) => self.reload(),
                Err(error) => {
                    self.problem
                        .try_set(Some(format!("The collection was not removed: {error}")));
                }
            }
        });
    }

    /// `name` as the rules take it; a name they refuse is said, naming
    /// the rule.
    fn checked_name(self, name: &str) -> Option<String> {
        let checked = check_organise_name(name);
        self.problem.set(
            checked
                .as_ref()
                .err()
                .map(|rule| format!("The collection's {rule}")),
        );
        checked.ok()
    }

    fn storage_refused(self) {
        self.problem.set(Some(
            "This browser's storage refused the change (a private window, or storage turned off)"
                .to_owned(),
        ));
    }
}
