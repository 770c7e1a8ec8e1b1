//! The task board: every task on this device, filters, and "look up a task".

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_location, use_query_map};
use media_gen_api::TaskKind;

use super::filters::{FilterQuery, Organised, StatusFilter};
use super::library::{Library, LibraryNotes, LoadMore};
use super::organise::Selection;
use super::request_row::{Expanded, RequestRow};
use super::requests::by_request;
use super::steady::{GoneRow, Row, Steady};
use super::task_row::TaskRow;
use crate::address::{compare_path, query_part, replace_address};
use crate::board::compare::Picks;
use crate::board::{Board, NoticeText};
use crate::kind_text;
use crate::shell::shortcuts::FilterFocus;
use crate::task::downloads::{has_results, DownloadAll};
use media_gen_ui::components::marks;
use media_gen_ui::hooks::use_now;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::count;

/// Find a task by id, submitted here or elsewhere: opens its page.
#[component]
fn FindTask() -> impl IntoView {
    let kind = RwSignal::new(TaskKind::ImageToVideo);
    let id = RwSignal::new(String::new());
    let navigate = crate::address::use_app_navigate();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let task_id = id.get_untracked().trim().to_owned();
        if !task_id.is_empty() {
            navigate(
                &crate::address::detail_path(kind.get_untracked(), &task_id),
                Default::default(),
            );
        }
    };
    view! {
        <form class="lookup" id="lookup" on:submit=on_submit aria-label="Look up a task">
            <label for="lookup-kind">"Look up a task"</label>
            <select id="lookup-kind" on:change=move |ev| {
                if let Ok(parsed) = event_target_value(&ev).parse() { kind.set(parsed) }
            }>
                {TaskKind::ALL.iter().map(|k| view! {
                    <option value=k.as_str() selected=move || kind.get() == *k>{kind_text::title(*k)}</option>
                }).collect_view()}
            </select>
            <input id="lookup-id" type="text" placeholder="Task id" aria-label="Task id" autocomplete="off"
                prop:value=move || id.get() on:input=move |ev| id.set(event_target_value(&ev))/>
            <button type="submit" class="secondary" disabled=move || id.with(|id| id.trim().is_empty())>"Look up"</button>
        </form>
    }
}

/// The filters over the board.
fn filter_controls(filters: Filters) -> impl IntoView {
    let Filters {
        kind, status, text, ..
    } = filters;
    let focus = expect_context::<FilterFocus>();
    focus.attach();
    view! {
        <div class="filters" role="group" aria-label="Filter tasks">
            <label for="filter-text" class="visually-hidden">"Filter by id or text"</label>
            <input id="filter-text" node_ref=focus.input type="search" placeholder="Filter  /" autocomplete="off"
                aria-keyshortcuts="/" prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))/>
            <label for="filter-kind" class="visually-hidden">"Kind"</label>
            <select id="filter-kind" on:change=move |ev| kind.set(event_target_value(&ev).parse().ok())>
                <option value="" selected=move || kind.get().is_none()>"Any kind"</option>
                {TaskKind::ALL.iter().map(|k| view! {
                    <option value=k.as_str() selected=move || kind.get() == Some(*k)>{kind_text::title(*k)}</option>
                }).collect_view()}
            </select>
            <label for="filter-status" class="visually-hidden">"Status"</label>
            <select id="filter-status" on:change=move |ev| {
                if let Some(filter) = StatusFilter::from_value(&event_target_value(&ev)) { status.set(filter) }
            }>
                {StatusFilter::ALL.iter().map(|f| view! {
                    <option value=f.value() selected=move || status.get() == *f>{f.label()}</option>
                }).collect_view()}
            </select>
        </div>
    }
}

/// The board's filters.
#[derive(Clone, Copy)]
pub struct Filters {
    kind: RwSignal<Option<TaskKind>>,
    status: RwSignal<StatusFilter>,
    text: RwSignal<String>,
    /// The organising filters (set from the organise panel).
    pub organised: RwSignal<Organised>,
}

impl Filters {
    /// `f` of the tasks the filters let through, newest first, read in
    /// place: the list, the count and the downloads each take what they need
    /// without copying the board.
    fn with_matching<R>(
        self,
        board: Board,
        f: impl FnOnce(&mut dyn Iterator<Item = &TaskRecord>) -> R,
    ) -> R {
        let query = self.query();
        board.records.with(|records| {
            let mut matching = records.iter().rev().filter(|r| query.passes(r));
            f(&mut matching)
        })
    }

    /// The filters as they stand (tracked).
    pub fn query(self) -> FilterQuery {
        FilterQuery {
            kind: self.kind.get(),
            status: self.status.get(),
            text: self.text.get(),
            organised: self.organised.get(),
        }
    }
}

/// Set `signal` to `value` only when it differs: no redraw, no write back.
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    signal.maybe_update(|current| {
        let changed = *current != value;
        if changed {
            *current = value;
        }
        changed
    });
}

/// How long after the filters' last change the library is searched.
const SEARCH_DELAY_MS: u32 = 300;

/// Rows drawn at first, and added by each "Show more".
const PAGE: usize = 100;

/// The task board: the stored tasks, newest first, or the three kinds to start with.
#[component]
pub fn BoardPage() -> impl IntoView {
    let board = Board::expect();
    let now = use_now(1_000);
    // The filters follow the address (a link to "/" clears them) and are
    // written back to it (replacing, so typing leaves no trail in history).
    let query = use_query_map();
    let read =
        |query: &leptos_router::params::ParamsMap| FilterQuery::from_params(|name| query.get(name));
    let start = query.with_untracked(read);
    let kind = RwSignal::new(start.kind);
    let status = RwSignal::new(start.status);
    let text = RwSignal::new(start.text);
    let start_organised = start.organised.is_any();
    let organised = RwSignal::new(start.organised);
    let filters = Filters {
        kind,
        status,
        text,
        organised,
    };
    Effect::new(move |_| {
        let address = query.with(read);
        set_if_changed(kind, address.kind);
        set_if_changed(status, address.status);
        set_if_changed(text, address.text);
        set_if_changed(organised, address.organised);
    });
    // Signed in on a site that keeps a library: the filters search all
    // of it, a moment after the last keystroke.
    let library = Library::expect();
    Effect::new(move |_: Option<Option<gloo_timers::callback::Timeout>>| {
        let wanted = filters.query();
        library.is_on().then(|| {
            gloo_timers::callback::Timeout::new(SEARCH_DELAY_MS, move || library.search(&wanted))
        })
    });
    let search = use_location().search;
    let navigate = crate::address::use_app_navigate();
    Effect::new(move |_| {
        let wanted = filters.query().to_query();
        if search.with_untracked(|search| query_part(search)) != wanted {
            replace_address(&navigate, &format!("/{wanted}"));
        }
    });
    let selection = Selection::provide();
    // The organising tools, open from the start when the address filters
    // by them; their chunk is fetched once they open or a row is chosen.
    let organising = RwSignal::new(start_organised);
    let tools_wanted =
        Memo::new(move |_| organising.get() || selection.chosen.with(|chosen| !chosen.is_empty()));
    // Drawn as a page's chunk is, by the one `FromChunk` every page uses.
    let tools = move || {
        tools_wanted.get().then(|| {
            view! {
                <crate::chunks::FromChunk drawn=Box::pin(async move {
                    media_gen_ui::drawn!(crate::chunks::organise(filters, organising))
                })/>
            }
        })
    };
    let picks = Picks(RwSignal::new(Vec::new()));
    provide_context(picks);
    provide_context(Expanded(RwSignal::new(Vec::new())));
    let compare_link = move || {
        picks.0.with(|chosen| match chosen.as_slice() {
            [a, b] => Some(view! {
                <A href=crate::address::href(&compare_path(a, b)) attr:id="compare-link" attr:class="secondary">"Compare the two chosen"</A>
            }.into_any()),
            [_] => Some(view! { <span class="hint" id="compare-hint">"Choose one more to compare"</span> }.into_any()),
            _ => None,
        })
    };
    let has_tasks = move || !board.records.with(Vec::is_empty);
    let any_live = move || {
        board.records.with(|records| {
            records
                .iter()
                .any(|r| r.is_active() && board.is_relayed(r.kind, &r.task_id))
        })
    };
    // Drawn a page at a time: a board of a thousand tasks opens at once.
    let limit = RwSignal::new(PAGE);
    let steady = Steady::new();
    let rows = Memo::new(move |_| {
        let limit = limit.get();
        let requests = filters.with_matching(board, |matching| {
            let mut requests = by_request(matching);
            requests.truncate(limit);
            requests
        });
        steady.rows(board, requests)
    });
    Effect::new(move |_| {
        let shown = rows.with(|(rows, _)| {
            rows.iter()
                .filter_map(|row| row.first().map(TaskRecord::task_key))
                .collect()
        });
        selection.shown.set_value(shown);
    });
    let shown = move || rows.with(|(rows, _)| rows.clone());
    let waiting = move || rows.with(|(_, waiting)| *waiting);
    // Held from the pointer's first move over the list (it may already be
    // there when the board opens, with no "enter" to hear).
    let hold = move |_| {
        if !steady.is_held() {
            steady.hold(rows.with_untracked(|(rows, _)| {
                rows.iter()
                    .filter_map(|row| row.first().map(TaskRecord::task_key))
                    .collect()
            }))
        }
    };
    // Rows, not tasks: a request's tasks are one row.
    let matched = move || filters.with_matching(board, |matching| by_request(matching).len());
    let not_shown = move || matched().saturating_sub(limit.get());
    // What the filters let through, out of the board's whole: a collection
    // or a search counts its own tasks.
    let counts = move || {
        let total = board.records.with(Vec::len);
        let (matched, active) = filters.with_matching(board, |matching| {
            matching.fold((0, 0), |(matched, active), r| {
                (matched + 1, active + usize::from(r.is_active()))
            })
        });
        let new = match waiting() {
            0 => String::new(),
            n => format!(
                " · {} above when the pointer leaves the list",
                count(n, "new task", "new tasks")
            ),
        };
        let tasks = count(total, "task", "tasks");
        if matched == total {
            format!("{tasks}, {active} in progress{new}")
        } else {
            format!("{matched} of {tasks}, {active} in progress{new}")
        }
    };
    // Runs once, after the first draw: the board benchmark's first render.
    Effect::new(move |_| {
        if !board.records.with_untracked(Vec::is_empty) {
            marks::mark_once(marks::BOARD_RENDERED);
        }
    });
    view! {
        <section class="board" aria-labelledby="board-title">
            <h1 id="board-title">"Tasks"</h1>
            {move || board.storage_problem.get().map(|problem| view! { <p class="notice" role="alert">{problem}</p> })}
            {move || board.notice.get().map(|notice| view! { <p class="hint" id="board-notice" role="status"><NoticeText notice/></p> })}
            <LibraryNotes/>
            <Show when=move || !board.leading.get()>
                <p class="hint" id="follower-note">
                    "Another tab of this app is following these tasks; their changes show here as they happen."
                </p>
            </Show>
            <FindTask/>
            <Show
                when=has_tasks
                fallback=|| view! {
                    <p class="board__empty">"No tasks yet. Start one:"</p>
                    <ul class="kind-cards">
                        {TaskKind::ALL.iter().copied().map(|kind| view! {
                            <li class="kind-card">
                                <A href=crate::address::href(crate::address::form_path(kind))>
                                    <strong>{kind_text::title(kind)}</strong>
                                    <span>{kind_text::summary(kind)}</span>
                                </A>
                            </li>
                        }).collect_view()}
                    </ul>
                }
            >
                <div class="board__bar">
                    <p class="hint" id="board-counts">{counts}</p>
                    {filter_controls(filters)}
                    <button type="button" class="secondary" id="organise-open"
                        aria-expanded=move || organising.get().to_string() aria-controls="organise"
                        on:click=move |_| organising.update(|open| *open = !*open)>
                        "Organise"
                    </button>
                    <DownloadAll
                        records=Signal::derive(move || filters.with_matching(board, |matching| matching.filter(|r| has_results(r)).cloned().collect::<Vec<_>>()))
                        archive="media-gen-results.zip"
                        tasks=Signal::derive(move || filters.with_matching(board, |matching| matching.filter(|r| has_results(r)).count()))
                        label="Download results"/>
                </div>
                {tools}
                <Show when=any_live>
                    <p class="hint" id="live-legend">
                        <span class="task-row__live">"Live"</span>
                        " This site tells the page when such a task ends, so it is not polled."
                    </p>
                </Show>
                <ul class="task-list" on:pointerover=hold on:pointerleave=move |ev| steady.release(&ev)
                    on:pointerdown=move |ev| steady.pressed(&ev) on:keydown=move |ev| steady.pressed(&ev)>
                    <For
                        each=shown
                        key=Row::key
                        children=move |row| match row {
                            Row::Request(mut records) if records.len() == 1 => {
                                let record = records.remove(0);
                                view! { <TaskRow record now/> }.into_any()
                            }
                            Row::Request(records) => view! { <RequestRow records now/> }.into_any(),
                            Row::Gone(record) => view! { <GoneRow record=*record steady/> }.into_any(),
                        }
                    />
                </ul>
                // After the list, kept in view at the window's foot while
                // rows further down are ticked.
                <div class="compare-dock">{compare_link}</div>
                <Show when=move || { not_shown() > 0 }>
                    <p class="board__more">
                        <button type="button" class="secondary" id="show-more"
                            on:click=move |_| limit.update(|limit| *limit += PAGE)>
                            {move || format!("Show {} more ({} not shown)", not_shown().min(PAGE), not_shown())}
                        </button>
                    </p>
                </Show>
                <Show when=move || { !board.records.with(Vec::is_empty) && matched() == 0 }>
                    <p class="hint" id="no-match">"No task matches these filters."</p>
                </Show>
                // The library's next page once every row loaded is drawn.
                <Show when=move || { not_shown() == 0 }>
                    <LoadMore/>
                </Show>
            </Show>
        </section>
    }
}
