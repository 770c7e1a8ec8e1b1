//! The signed-in person's library on the board, on a gateway that keeps
//! one: its first page loaded as the app opens, then the next pages as the
//! person scrolls; the board's filters searched over the whole library.
//! Where the gateway relays, its stream tells each new task of the
//! person's and each change to one as it happens (from any device): a
//! change is taken in at once, a task not on the board brings the newest
//! requests; the newest are also read every minute, in case news was
//! lost. Where it does not, they are read every few seconds while the
//! page is in view. What was loaded is stored like any task, so the board
//! works offline from it. The tasks this browser knew before are offered
//! to the library once.

use gloo_timers::callback::Interval;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::library::{
    Cursor, LibraryQuery, IMPORT_MAX, PAGE_DEFAULT, QUERY_MAX_CHARS, QUERY_MAX_WORDS,
};
use media_gen_api::relay::RelayInfo;
use media_gen_api::{AnyTask, TaskStatus};
use media_gen_client::relay_stream::RelayStream;
use media_gen_ui::store::record::LibraryRequest;
use media_gen_ui::store::settings as stored;
use media_gen_ui::text::count;
use wasm_bindgen::JsValue;

use super::filters::{FilterQuery, StatusFilter};
use super::near_end::NearEnd;
use super::Board;
use crate::settings::Settings;
use crate::shell::access::Access;

/// How often the newest requests are read while the page is in view and
/// no stream tells the library's news.
const REFRESH_MS: u32 = 4_000;
/// How often they are read while a stream tells it: only news lost.
const REFRESH_STREAMED_MS: f64 = 60_000.0;
/// How many of the newest requests each of those reads.
const REFRESH_PAGE: u32 = 20;

/// The library's state on the board, as context.
#[derive(Clone, Copy)]
pub struct Library {
    /// Whose library the board shows, when the site keeps one.
    person: Memo<Option<String>>,
    /// The listing asked last, at its next page, while there is one.
    more: RwSignal<Option<LibraryQuery>>,
    /// The listing asked last (its first page), and how many were asked
    /// before it: a page of an older listing arriving late is taken in but
    /// does not say where the current one goes on.
    listing: StoredValue<(Option<LibraryQuery>, u32)>,
    /// A page is on its way.
    pub loading: RwSignal<bool>,
    /// Why the library could not be read just now.
    pub problem: RwSignal<Option<String>>,
    /// How many of this browser's tasks are offered to the library, while
    /// they are.
    pub offer: RwSignal<Option<usize>>,
    /// What the last addition did.
    pub said: RwSignal<Option<String>>,
    /// The relay's stream of the library's news is open.
    streamed: StoredValue<bool>,
    /// When the newest requests were last read (ms since 1970).
    last_read: StoredValue<f64>,
    /// The newest requests are being read for news, and news came since.
    catching_up: StoredValue<(bool, bool)>,
    board: Board,
    settings: Settings,
}

/// The listing that matches the board's filters, as far as the library
/// can ask it (in progress is two statuses: the board filters those). The
/// words go as typed, at most as many as the library takes: the gateway
/// lowercases them (no Unicode case tables in the wasm).
pub fn query_of(filters: &FilterQuery) -> LibraryQuery {
    let words = filters
        .text
        .split_whitespace()
        .take(QUERY_MAX_WORDS)
        .scan(0, |chars, word| {
            *chars += word.chars().count() + 1;
            (*chars <= QUERY_MAX_CHARS).then(|| word.to_owned())
        })
        .collect();
    LibraryQuery {
        kind: filters.kind,
        status: match filters.status {
            StatusFilter::Succeeded => Some(TaskStatus::Succeeded),
            StatusFilter::Failed => Some(TaskStatus::Failed),
            StatusFilter::All | StatusFilter::Active => None,
        },
        words,
        cursor: None,
        limit: PAGE_DEFAULT,
        starred: filters.organised.starred,
        collection: filters
            .organised
            .collection
            .as_deref()
            .and_then(media_gen_api::organise::CollectionId::parse),
        model: filters.organised.model,
        from: filters.organised.from.clone(),
        to: filters.organised.to.clone(),
        kept: filters.organised.kept,
    }
}

/// The newest requests, for news from another device.
fn newest() -> LibraryQuery {
    LibraryQuery {
        limit: REFRESH_PAGE,
        ..LibraryQuery::default()
    }
}

/// A page of the library as the browser parsed it: its requests (those
/// that read) and the cursor of the next.
fn page_of(data: &JsValue) -> (Vec<LibraryRequest>, Option<String>) {
    let get = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok();
    let items = get("items")
        .map(|items| js_sys::Array::from(&items))
        .map(|items| {
            items
                .iter()
                .filter_map(|item| LibraryRequest::from_value(&item).ok())
                .collect()
        })
        .unwrap_or_default();
    (items, get("next").and_then(|next| next.as_string()))
}

impl Library {
    /// The state provided by [`provide_library`].
    pub fn expect() -> Library {
        expect_context()
    }

    /// Whether the board is the person's library (tracked).
    pub fn is_on(self) -> bool {
        self.person.with(Option::is_some)
    }

    /// Whether another page of the listing can be loaded (tracked).
    pub fn has_more(self) -> bool {
        self.more.with(Option::is_some)
    }

    /// Load the listing `query` (its first page unless it holds a cursor)
    /// onto the board; `remember` keeps where it ends, for "Load more".
    fn load(self, query: LibraryQuery, remember: bool) {
        // Marked before the read starts, so a second "Load more" at once
        // waits for it.
        let listing = remember.then(|| self.begin_listing(&query));
        spawn_local(self.read(query, listing));
    }

    /// A page of the listing is on its way (only those are "loading": a
    /// read for news does not hold up "Load more"); a first page starts a
    /// new listing. The listing's number.
    fn begin_listing(self, query: &LibraryQuery) -> u32 {
        self.loading.set(true);
        let (_, mut number) = self.listing.get_value();
        if query.cursor.is_none() {
            number = number.wrapping_add(1);
            self.listing.set_value((Some(query.clone()), number));
        }
        number
    }

    /// [`Library::load`], done when the page is on the board; `listing`:
    /// the number of the listing it is a page of, if it is one.
    async fn read(self, query: LibraryQuery, listing: Option<u32>) {
        let client = self.settings.client();
        let remember = listing.is_some();
        if query.cursor.is_none() {
            self.last_read.set_value(js_sys::Date::now());
        }
        {
            let answer = client.library(&query).await;
            if remember {
                self.loading.try_set(false);
            }
            match answer {
                Ok(data) => {
                    let (items, next) = page_of(&data);
                    let whole = query.narrows_nothing();
                    self.board.take_in_library(&items, whole);
                    self.problem.try_set(None);
                    if listing.is_some_and(|number| self.listing.get_value().1 == number) {
                        let next =
                            next.as_deref()
                                .and_then(Cursor::parse)
                                .map(|cursor| LibraryQuery {
                                    cursor: Some(cursor),
                                    ..query.clone()
                                });
                        self.more.try_set(next);
                    }
                    if query.cursor.is_none() {
                        self.decide_offer();
                    }
                }
                Err(error) => {
                    self.problem.try_set(Some(format!(
                        "Your library could not be read just now ({error}): the board shows what this browser last loaded."
                    )));
                }
            }
        }
    }

    /// The listing the board's filters ask for, from its first page.
    /// The one already asked (the first page as the app opens) is not
    /// asked again.
    pub fn search(self, filters: &FilterQuery) {
        if !self.person.with_untracked(Option::is_some) {
            return;
        }
        let query = query_of(filters);
        if self.listing.get_value().0.as_ref() == Some(&query) {
            return;
        }
        self.load(query, true);
    }

    /// The next page of the listing asked last, unless one is on its way.
    pub fn load_more(self) {
        if self.loading.get_untracked() {
            return;
        }
        if let Some(query) = self.more.get_untracked() {
            self.load(query, true);
        }
    }

    /// The newest requests, taken in (tasks from another device appear),
    /// each tick while no stream tells the news, else once a minute.
    fn refresh(self) {
        if self.loading.get_untracked() || media_gen_client::visibility::page_hidden() {
            return;
        }
        let since = js_sys::Date::now() - self.last_read.get_value();
        if self.streamed.get_value() && since < REFRESH_STREAMED_MS {
            return;
        }
        self.load(newest(), false);
    }

    /// Listen to the library's news where `relay` tells them.
    fn listen(self, relay: &RelayInfo) -> Option<RelayStream> {
        let client = self.settings.client();
        let url = format!(
            "{}{}",
            client.base_url(),
            relay.library_path(client.page_token().as_deref())
        );
        RelayStream::open(
            &url,
            move || {
                self.streamed.try_set_value(true);
            },
            move |task| self.heard(&task),
            move || {
                self.streamed.try_set_value(false);
            },
        )
    }

    /// News of `task`: taken in when it is on the board, else the newest
    /// requests are read (it was just submitted elsewhere). News that
    /// changes nothing of a task the board holds tells of its request
    /// (a star, a collection, given on another device): it is read again.
    fn heard(self, task: &AnyTask) {
        let known = self.board.records.with_untracked(|records| {
            records
                .iter()
                .find(|r| r.is(task.kind(), task.task_id()))
                .map(|r| {
                    // A task not read yet is told as created, pending.
                    let unread = r.task.is_none() && *task.status() == TaskStatus::Pending;
                    (r.task.as_ref() == Some(task) || unread, r.library.clone())
                })
        });
        match known {
            Some((true, Some(request))) => self.read_request(request),
            Some(_) => self.board.reread(task),
            None => self.catch_up(),
        }
    }

    /// Read the library's request `request` again and take it in.
    fn read_request(self, request: String) {
        let Some(id) = media_gen_api::library::RequestId::parse(&request) else {
            return;
        };
        let client = self.settings.client();
        spawn_local(async move {
            if let Ok(item) = client.library_request(&id).await {
                if let Ok(item) = LibraryRequest::from_value(&item) {
                    self.board.take_in_library(&[item], false);
                    self.board.organised_elsewhere.update(|told| *told += 1);
                }
            }
        });
    }

    /// Read the newest requests, once more if news came meanwhile: news
    /// of several tasks at once is one read or two, never one each.
    fn catch_up(self) {
        let (busy, _) = self.catching_up.get_value();
        if busy {
            self.catching_up.set_value((true, true));
            return;
        }
        self.catching_up.set_value((true, false));
        spawn_local(async move {
            loop {
                self.read(newest(), None).await;
                let (_, again) = self.catching_up.get_value();
                self.catching_up.set_value((again, false));
                if !again {
                    break;
                }
            }
        });
    }

    /// Offer this browser's tasks the library does not name yet, once per
    /// person on this device.
    fn decide_offer(self) {
        let Some(person) = self.person.get_untracked() else {
            return;
        };
        if self.offer.get_untracked().is_some() || stored::library_offered(&person) {
            return;
        }
        let unknown = self
            .board
            .records
            .with_untracked(|records| records.iter().filter(|r| r.library.is_none()).count());
        if unknown > 0 {
            self.offer.set(Some(unknown));
        }
    }

    /// Add this browser's tasks to the library, then read it again.
    pub fn add_known(self) {
        let Some(person) = self.person.get_untracked() else {
            return;
        };
        let tasks: Vec<String> = self.board.records.with_untracked(|records| {
            records
                .iter()
                .filter(|r| r.library.is_none())
                .map(|record| record.known_json())
                .collect()
        });
        self.offer.set(None);
        let client = self.settings.client();
        spawn_local(async move {
            let mut added = 0;
            for chunk in tasks.chunks(IMPORT_MAX) {
                match client
                    .library_import(&format!("[{}]", chunk.join(",")))
                    .await
                {
                    Ok(imported) => added += imported.added,
                    Err(error) => {
                        self.said.try_set(Some(format!(
                            "The tasks could not all be added ({error}); they stay in this browser."
                        )));
                        return;
                    }
                }
            }
            stored::set_library_offered(&person);
            self.said.try_set(Some(format!(
                "Added {} this browser knew to your library.",
                count(added as usize, "task", "tasks")
            )));
            self.load(
                LibraryQuery {
                    limit: PAGE_DEFAULT,
                    ..LibraryQuery::default()
                },
                true,
            );
        });
    }

    /// Do not offer this browser's tasks again.
    pub fn decline(self) {
        if let Some(person) = self.person.get_untracked() {
            stored::set_library_offered(&person);
        }
        self.offer.set(None);
    }
}

/// Provide the library's state; while someone is signed in on a site that
/// keeps their library, load it, listen to its news where the site
/// relays, and read its newest requests as often as that leaves due.
pub fn provide_library(board: Board, settings: Settings) -> Library {
    let (person, news) = match use_context::<Access>() {
        Some(access) => (
            Memo::new(move |_| access.library_of()),
            Memo::new(move |_| access.library_news()),
        ),
        None => (Memo::new(|_| None), Memo::new(|_| None)),
    };
    let library = Library {
        person,
        more: RwSignal::new(None),
        listing: StoredValue::new((None, 0)),
        loading: RwSignal::new(false),
        problem: RwSignal::new(None),
        offer: RwSignal::new(None),
        said: RwSignal::new(None),
        streamed: StoredValue::new(false),
        last_read: StoredValue::new(0.0),
        catching_up: StoredValue::new((false, false)),
        board,
        settings,
    };
    provide_context(library);
    // The timer and the stream live as the effect's value: a sign-out
    // drops them.
    Effect::new(move |_: Option<Option<(Interval, Option<RelayStream>)>>| {
        person.get()?;
        let stream = news.get().and_then(|relay| library.listen(&relay));
        library.streamed.set_value(false);
        library.load(
            LibraryQuery {
                limit: PAGE_DEFAULT,
                ..LibraryQuery::default()
            },
            true,
        );
        Some((Interval::new(REFRESH_MS, move || library.refresh()), stream))
    });
    library
}

/// What the board says of the library: the offer of this browser's
/// tasks, what an addition did, and why the library could not be read.
#[component]
pub fn LibraryNotes() -> impl IntoView {
    let library = Library::expect();
    view! {
        {move || library.offer.get().map(|n| view! {
            <p class="hint library-offer" id="library-offer" role="status">
                {format!("Add the {} this browser knows to your library, so they follow you to every device? ", count(n, "task", "tasks"))}
                <button type="button" id="library-add" on:click=move |_| library.add_known()>"Add them"</button>
                " "
                <button type="button" class="secondary" id="library-decline" on:click=move |_| library.decline()>"Not now"</button>
            </p>
        })}
        {move || library.said.get().map(|said| view! { <p class="hint" id="library-said" role="status">{said}</p> })}
        {move || library.problem.get().map(|problem| view! { <p class="notice" id="library-problem" role="status">{problem}</p> })}
    }
}

/// "Load more from your library", at the foot of the board, while the
/// listing has more: the next page loads as the person scrolls near it,
/// and the button loads it for a keyboard or a browser that cannot watch.
#[component]
pub fn LoadMore() -> impl IntoView {
    let library = Library::expect();
    move || {
        library.has_more().then(|| {
            let button = NodeRef::<leptos::html::Button>::new();
            // Made again with the button after each page: one that stays
            // near the visible part (a tall screen) loads the next too.
            let near = StoredValue::new_local(None::<NearEnd>);
            Effect::new(move |_| {
                if let Some(button) = button.get() {
                    near.set_value(NearEnd::watch(&button, move || library.load_more()));
                }
            });
            view! {
                <p class="board__more">
                    <button type="button" class="secondary" id="library-more" node_ref=button
                        disabled=move || library.loading.get()
                        on:click=move |_| library.load_more()>
                        "Load more from your library"
                    </button>
                </p>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_filters_ask_the_library_what_it_can_answer() {
        let filters = FilterQuery {
            kind: Some(media_gen_api::TaskKind::ImageGenerate),
            status: StatusFilter::Failed,
            text: "  Red fox ".to_owned(),
            organised: Default::default(),
        };
        let query = query_of(&filters);
        assert_eq!(query.status, Some(TaskStatus::Failed));
        assert_eq!(query.words, ["Red", "fox"]);
        assert_eq!(query.kind, filters.kind);
        let active = FilterQuery {
            status: StatusFilter::Active,
            ..filters
        };
        assert_eq!(query_of(&active).status, None);
        let long = FilterQuery {
            text: "word ".repeat(20),
            ..active
        };
        assert_eq!(
            query_of(&long).words.len(),
            QUERY_MAX_WORDS,
            "no more than the library takes"
        );
    }
}
