//! The board's organising tools, a chunk of their own (fetched once the
//! person opens them or chooses a row): the filters that organise
//! (starred, a collection, a model, days, a kept copy), the collection
//! shown with its name, renamed or removed there, a new collection, and
//! what is done to the requests chosen.

use leptos::html;
use leptos::prelude::*;
use media_gen_api::library::Day;
use media_gen_api::{Model, TaskKey};
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::count;

use super::collections::{Collections, Named};
use super::filters::Organised;
use super::organise::Selection;
use super::page::Filters;
use super::{Board, Library};
use crate::task::downloads::{has_results, DownloadAll};

/// The tools; `open` says whether the filters and collections show (the
/// chosen rows' actions show whenever a row is chosen).
#[component]
pub fn Organise(filters: Filters, open: RwSignal<bool>) -> impl IntoView {
    let library = Library::expect();
    let collections = Collections::read(Memo::new(move |_| library.is_on()));
    let selection = Selection::expect();
    let any_chosen = Memo::new(move |_| selection.chosen.with(|chosen| !chosen.is_empty()));
    view! {
        <Show when=move || open.get()>
            <OrganiseFilters filters collections/>
        </Show>
        <ShownCollection filters collections/>
        {move || collections.problem.get().map(|problem| view! {
            <p class="notice" role="alert" id="organise-problem">{problem}</p>
        })}
        <Show when=move || any_chosen.get()>
            <ChosenActions filters collections/>
        </Show>
    }
}

/// Set one organising filter with `change`.
fn set(filters: Filters, change: impl FnOnce(&mut Organised)) {
    filters.organised.update(change);
}

/// The filters that organise, and a new collection.
#[component]
fn OrganiseFilters(filters: Filters, collections: Collections) -> impl IntoView {
    let organised = filters.organised;
    let library = Library::expect();
    let day = move |pick: fn(&Organised) -> &Option<Day>| {
        move || {
            organised.with(|o| {
                pick(o)
                    .as_ref()
                    .map(|d| d.as_str().to_owned())
                    .unwrap_or_default()
            })
        }
    };
    let set_day = move |name: &'static str, value: String| {
        let day = Day::parse(name, &value).ok();
        set(filters, |o| match name {
            "from" => o.from = day,
            _ => o.to = day,
        });
    };
    let where_kept = move || {
        (!collections.in_library.get()).then(|| view! {
        <p class="hint" id="organise-where">
            "Stars and collections are kept in this browser only: on a site that keeps your library they follow you to every device."
        </p>
    })
    };
    view! {
        <div class="organise" id="organise" role="group" aria-label="Organise">
            <div class="filters organise__filters" role="group" aria-label="More filters">
                <label class="organise__check">
                    <input type="checkbox" id="filter-starred"
                        prop:checked=move || organised.with(|o| o.starred)
                        on:change=move |ev| set(filters, |o| o.starred = event_target_checked(&ev))/>
                    " Starred"
                </label>
                <label class="organise__field">"Collection"
                    <select id="filter-collection" on:change=move |ev| {
                        let id = event_target_value(&ev);
                        set(filters, |o| o.collection = (!id.is_empty()).then_some(id));
                    }>
                        <option value="" selected=move || organised.with(|o| o.collection.is_none())>"Any collection"</option>
                        {move || collections.list.get().into_iter().map(|Named { id, name }| {
                            let chosen = id.clone();
                            view! {
                                <option value=id selected=move || organised.with(|o| o.collection.as_deref() == Some(chosen.as_str()))>{name}</option>
                            }
                        }).collect_view()}
                    </select>
                </label>
                <label class="organise__field">"Model"
                    <select id="filter-model" on:change=move |ev| {
                        let model = event_target_value(&ev).parse::<Model>().ok();
                        set(filters, |o| o.model = model);
                    }>
                        <option value="" selected=move || organised.with(|o| o.model.is_none())>"Any model"</option>
                        {Model::ALL.iter().map(|&model| view! {
                            <option value=model.as_str() selected=move || organised.with(|o| o.model == Some(model))>{model.as_str()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="organise__field">"From"
                    <input type="date" id="filter-from" prop:value=day(|o| &o.from)
                        on:change=move |ev| set_day("from", event_target_value(&ev))/>
                </label>
                <label class="organise__field">"To"
                    <input type="date" id="filter-to" prop:value=day(|o| &o.to)
                        on:change=move |ev| set_day("to", event_target_value(&ev))/>
                </label>
                {move || library.is_on().then(|| view! {
                    <label class="organise__check">
                        <input type="checkbox" id="filter-kept"
                            prop:checked=move || organised.with(|o| o.kept)
                            on:change=move |ev| set(filters, |o| o.kept = event_target_checked(&ev))/>
                        " Kept on this site"
                    </label>
                })}
            </div>
            <NewCollection collections/>
            {where_kept}
        </div>
    }
}

/// A name and "Make a collection"; with `chosen`, made holding the rows
/// chosen.
#[component]
fn NewCollection(
    collections: Collections,
    #[prop(optional)] chosen: Option<Selection>,
) -> impl IntoView {
    let name = NodeRef::<html::Input>::new();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(input) = name.get() else { return };
        let rows: Vec<TaskKey> = chosen.map(|s| s.chosen.get_untracked()).unwrap_or_default();
        collections.make(&input.value(), rows, move |_| input.set_value(""));
    };
    let (id, label, button) = if chosen.is_some() {
        (
            "chosen-new-collection",
            "Or a new collection",
            "Make it with them",
        )
    } else {
        ("new-collection-name", "New collection", "Make a collection")
    };
    view! {
        <form class="organise__new" on:submit=on_submit>
            <label class="organise__field">{label}
                <input id=id node_ref=name type="text" autocomplete="off"
                    maxlength=media_gen_api::organise::ORGANISE_NAME_MAX_CHARS.to_string()/>
            </label>
            <button type="submit" class="secondary">{button}</button>
        </form>
    }
}

/// The collection the board shows, by its name, with Rename and Remove.
#[component]
fn ShownCollection(filters: Filters, collections: Collections) -> impl IntoView {
    let shown = Memo::new(move |_| filters.organised.with(|o| o.collection.clone()));
    move || {
        let id = shown.get()?;
        let renaming = RwSignal::new(false);
        let field = NodeRef::<html::Input>::new();
        // The id kept where the buttons' handlers find it: they stay `Copy`.
        let shown_id = StoredValue::new(id.clone());
        let name_id = id.clone();
        let name = Memo::new(move |_| {
            collections
                .name_of(&name_id)
                .unwrap_or_else(|| "…".to_owned())
        });
        // Removed on another device while shown: said, with the way back.
        let gone =
            Memo::new(move |_| collections.known.get() && collections.name_of(&id).is_none());
        let on_rename = move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            if let Some(field) = field.get() {
                collections.rename(shown_id.get_value(), &field.value());
                renaming.set(false);
            }
        };
        let remove = move |_| {
            collections.remove(shown_id.get_value());
            set(filters, |o| o.collection = None);
        };
        let leave = move |_| set(filters, |o| o.collection = None);
        Some(view! {
            <div class="collection-head">
                <Show when=move || !gone.get()
                    fallback=move || view! {
                        <h2 id="collection-title">"This collection was removed"</h2>
                        <p class="hint">"Its requests are still on the board."</p>
                        <button type="button" class="secondary" id="collection-leave" on:click=leave>
                            "Show every task"
                        </button>
                    }>
                    <h2 id="collection-title">"Collection: " {name}</h2>
                    <Show when=move || renaming.get()
                        fallback=move || view! {
                            <button type="button" class="secondary" id="collection-rename" on:click=move |_| renaming.set(true)>"Rename"</button>
                        }>
                        <form class="organise__new" on:submit=on_rename>
                            <label for="collection-name">"Name"</label>
                            <input id="collection-name" node_ref=field type="text" prop:value=name autofocus/>
                            <button type="submit">"Save the name"</button>
                        </form>
                    </Show>
                    <button type="button" class="secondary" id="collection-remove" on:click=remove>
                        "Remove the collection"
                    </button>
                </Show>
            </div>
        })
    }
}

/// What is done to the requests chosen: star, collect, remove, download
/// as one zip, share.
#[component]
fn ChosenActions(filters: Filters, collections: Collections) -> impl IntoView {
    let board = Board::expect();
    let selection = Selection::expect();
    let chosen = move || selection.chosen.get();
    // The chosen requests' tasks as they stand: a task that ends or is
    // kept while chosen is saved and shared as it is now.
    let records = Signal::derive(move || {
        board.records.track();
        board.tasks_of(&chosen())
    });
    let with_results = Signal::derive(move || {
        records.with(|records| {
            records
                .iter()
                .filter(|r| has_results(r))
                .cloned()
                .collect::<Vec<TaskRecord>>()
        })
    });
    let result_count = Signal::derive(move || with_results.with(Vec::len));
    let target = NodeRef::<html::Select>::new();
    let collect = move |_| {
        let Some(target) = target.get() else { return };
        let id = target.value();
        if !id.is_empty() {
            board.collect(&selection.chosen.get_untracked(), &id, true);
        }
    };
    let in_collection = Memo::new(move |_| filters.organised.with(|o| o.collection.clone()));
    let said = move || {
        let rows = selection.chosen.with(Vec::len);
        format!("{} chosen", count(rows, "request", "requests"))
    };
    view! {
        <div class="chosen" id="chosen-actions" role="toolbar" aria-label="The chosen requests">
            <span class="hint" id="chosen-count" role="status">{said}</span>
            <button type="button" class="secondary" id="choose-all" on:click=move |_| selection.all_shown()>"Select all shown"</button>
            <button type="button" class="secondary" id="choose-none" on:click=move |_| selection.clear()>"Clear"</button>
            <button type="button" id="chosen-star" on:click=move |_| board.star(&selection.chosen.get_untracked(), true)>"Star"</button>
            <button type="button" class="secondary" id="chosen-unstar" on:click=move |_| board.star(&selection.chosen.get_untracked(), false)>"Take the star off"</button>
            <label for="chosen-collection" class="visually-hidden">"Collection to add them to"</label>
            <select id="chosen-collection" node_ref=target>
                {move || collections.list.get().into_iter().map(|Named { id, name }| view! { <option value=id>{name}</option> }).collect_view()}
            </select>
            <button type="button" class="secondary" id="chosen-collect" on:click=collect
                disabled=move || collections.list.with(Vec::is_empty)>"Add to the collection"</button>
            <NewCollection collections chosen=selection/>
            {move || in_collection.get().map(|id| view! {
                <button type="button" class="secondary" id="chosen-take-out"
                    on:click=move |_| board.collect(&selection.chosen.get_untracked(), &id, false)>
                    "Take out of this collection"
                </button>
            })}
            <button type="button" class="secondary" id="chosen-remove" on:click=move |_| {
                board.remove_requests(&selection.chosen.get_untracked());
                selection.clear();
            }>"Remove"</button>
            <DownloadAll records=with_results tasks=result_count archive="media-gen-chosen.zip" label="Download as one zip"/>
            <ShareChosen records/>
        </div>
    }
}

/// "Share" for the chosen requests, where the site shares: those the
/// library holds.
#[component]
fn ShareChosen(records: Signal<Vec<TaskRecord>>) -> impl IntoView {
    let requests = Memo::new(move |_| {
        records.with(|records| {
            let mut ids: Vec<String> = Vec::new();
            for id in records.iter().filter_map(|r| r.library.clone()) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            ids
        })
    });
    let tasks = Memo::new(move |_| records.with(Vec::len));
    move || {
        let requests = requests.get();
        (!requests.is_empty()).then(|| {
            view! { <crate::task::share::SharePanel requests task=None tasks=tasks.get_untracked()/> }
        })
    }
}
