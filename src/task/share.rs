//! Sharing from the app, where the site offers it (it keeps the person's
//! library and their results): on a task's page, a link to the task or its
//! whole request, made with how long it lives and what it shows, then
//! copied; and on the settings page, every link the person made, each with
//! when it ends and how often it was opened, taken back with one click. A
//! site that does not share (`/shares` answers 404) shows none of it.
//!
//! The form is read as it is sent (no signal per field) and the list is
//! read again after every change: the panel is a chunk every person
//! downloads, so it is kept to what it must do.

use std::future::Future;
use std::pin::Pin;

use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::library::RequestId;
use media_gen_api::share::{NewShare, Share, ShareLife};
use media_gen_client::ClientError;
use media_gen_ui::components::curl_copy::absolute_url;
use media_gen_ui::components::CopyButton;

use crate::settings::Settings;
use crate::shell::access::Access;
use crate::task::page::local_time;

/// A change to the person's links, under way.
type Change = Pin<Box<dyn Future<Output = Result<(), ClientError>>>>;

/// The person's links as last read (`None` until read, and where the site
/// shares nothing), and why the last change failed.
#[derive(Debug, Clone, Copy)]
struct Links {
    shares: RwSignal<Option<Vec<Share>>>,
    problem: RwSignal<Option<String>>,
    settings: Settings,
}

impl Links {
    /// The person's links, read once the site is known to keep their
    /// library and results (a page opened by its address learns that a
    /// moment after it is drawn).
    fn read() -> Links {
        let links = Links {
            shares: RwSignal::new(None),
            problem: RwSignal::new(None),
            settings: Settings::expect(),
        };
        let access = Access::expect();
        let offered = Memo::new(move |_| access.library_of().is_some() && access.keeps_results());
        Effect::new(move |_| {
            if offered.get() {
                links.reload();
            }
        });
        links
    }

    /// Read the list again; a site that does not share (404) leaves it
    /// unread, so nothing is shown.
    fn reload(self) {
        let client = self.settings.client();
        spawn_local(async move {
            if let Ok(shares) = client.shares().await {
                self.shares.try_set(Some(shares));
            }
        });
    }

    /// Carry out `change` (a link made or taken back), then read the list
    /// again; a failure is said with `failed` before it. Boxed: one copy
    /// of this for both changes.
    fn change(self, failed: &'static str, change: Change) {
        self.problem.set(None);
        spawn_local(async move {
            match change.await {
                Ok(()) => self.reload(),
                Err(error) => {
                    self.problem.try_set(Some(format!("{failed}: {error}")));
                }
            }
        });
    }

    /// Whether the site shares (its list was read), as a memo: what
    /// shows it is drawn once, not again with every change to the list.
    fn offered(self) -> Memo<bool> {
        Memo::new(move |_| self.shares.with(Option::is_some))
    }

    /// The last failure, said as an alert.
    fn problem_view(self) -> impl IntoView {
        move || {
            self.problem
                .get()
                .map(|problem| view! { <p class="notice" role="alert">{problem}</p> })
        }
    }
}

/// What a link's line says of who may open it, its life and its views.
fn link_facts(share: &Share, now: u64) -> String {
    let who = if share.team {
        "People signed in to this site"
    } else {
        "Anyone with the link"
    };
    let life = match share.ends {
        Some(ends) if ends <= now => format!("ended {}", local_time(ends as f64)),
        Some(ends) => format!("open until {}", local_time(ends as f64)),
        None => "open while the results are kept".to_owned(),
    };
    let opened = match share.views {
        1 => "opened once".to_owned(),
        views => format!("opened {views} times"),
    };
    format!("{who} · {life} · {opened}")
}

/// One link: its address to copy, what it is, and taking it back.
fn link_row(links: Links, share: Share) -> impl IntoView {
    let now = js_sys::Date::now() as u64;
    let address = absolute_url(&links.settings.base_url.get_untracked(), &share.path);
    let live = share.ends.is_none_or(|ends| ends > now);
    let facts = link_facts(&share, now);
    let token = share.token;
    view! {
        <li class="share-link" data-live=live.to_string()>
            <input class="share-link__address" readonly value=address.clone() aria-label="Shared link"/>
            <CopyButton text=address detail="shared link".to_owned() idle="Copy link"/>
            <span class="hint">{facts}</span>
            {live.then(|| view! {
                <button type="button" class="share-link__take-back"
                    on:click=move |_| {
                        let client = links.settings.client();
                        let token = token.clone();
                        links.change("The link could not be taken back", Box::pin(async move {
                            client.take_back_share(&token).await
                        }));
                    }>
                    "Take back"
                </button>
            })}
        </li>
    }
}

/// The rows of the links to every one of `requests` (every link when
/// there are none).
fn link_rows(links: Links, requests: Vec<RequestId>) -> impl IntoView {
    move || {
        links
            .shares
            .get()
            .unwrap_or_default()
            .into_iter()
            .filter(|share| requests.iter().all(|id| share.requests.contains(id)))
            .map(|share| link_row(links, share))
            .collect_view()
    }
}

/// "Share": on a task's page a new link to the task or its whole request
/// (`tasks` of them); on the board, to the requests chosen; and the links
/// to them already made.
#[component]
pub fn SharePanel(
    /// The requests' ids in the person's library.
    requests: Vec<String>,
    /// The task the page shows, which may be shared alone.
    task: Option<String>,
    /// How many tasks the requests made.
    tasks: usize,
) -> impl IntoView {
    let requests: Vec<RequestId> = requests
        .iter()
        .filter_map(|id| RequestId::parse(id))
        .collect();
    if requests.is_empty() {
        return ().into_any();
    }
    let links = Links::read();
    let (what, life, asked, team) = (
        NodeRef::<html::Select>::new(),
        NodeRef::<html::Select>::new(),
        NodeRef::<html::Input>::new(),
        NodeRef::<html::Input>::new(),
    );
    let making = RwSignal::new(false);
    let ids = requests.clone();
    let alone = task.clone();
    let on_submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        // One link a press: a second press while one is made does nothing.
        if making.get_untracked() {
            return;
        }
        let (Some(what), Some(life), Some(asked), Some(team)) =
            (what.get(), life.get(), asked.get(), team.get())
        else {
            return;
        };
        let new = NewShare {
            requests: ids.clone(),
            tasks: match &alone {
                Some(task) if what.value() == "task" => vec![task.clone()],
                _ => Vec::new(),
            },
            life: ShareLife::from_name(&life.value()).unwrap_or(ShareLife::Week),
            asked: asked.checked(),
            team: team.checked(),
        };
        making.set(true);
        let client = links.settings.client();
        links.change(
            "No link was made",
            Box::pin(async move {
                let made = client.share(&new).await;
                making.try_set(false);
                made
            }),
        );
    };
    let whole = match (requests.len(), tasks) {
        (1, 1) => "the whole request".to_owned(),
        (1, tasks) => format!("the whole request ({tasks} tasks)"),
        (chosen, tasks) => format!("the {chosen} requests chosen ({tasks} tasks)"),
    };
    let one_task = task.is_some();
    let rows = StoredValue::new(requests);
    let offered = links.offered();
    (move || {
        offered.get().then(|| {
            view! {
                <section class="share" aria-labelledby="share-title">
                    <h2 id="share-title">"Share"</h2>
                    <form class="share__form" on:submit=on_submit.clone()>
                        <label>"Share "
                            <select id="share-what" node_ref=what>
                                <option value="request">{whole.clone()}</option>
                                {one_task.then(|| view! { <option value="task">"this task only"</option> })}
                            </select>
                        </label>
                        <label>" for "
                            <select id="share-life" node_ref=life>
                                <option value="day">"a day"</option>
                                <option value="week" selected>"a week"</option>
                                <option value="month">"30 days"</option>
                                <option value="kept">"as long as the results are kept"</option>
                            </select>
                        </label>
                        <label><input type="checkbox" id="share-asked" node_ref=asked/>
                            " Show what was asked (the prompt, the settings)"</label>
                        <label><input type="checkbox" id="share-team" node_ref=team/>
                            " Only people signed in to this site"</label>
                        <button type="submit" id="share-create" prop:disabled=move || making.get()>
                            "Make a link"
                        </button>
                    </form>
                    {links.problem_view()}
                    <ul id="share-links" aria-label="Links to these results">
                        {link_rows(links, rows.get_value())}
                    </ul>
                </section>
            }
        })
    })
    .into_any()
}

/// Every link the person made, on the settings page.
#[component]
pub fn SharedLinks() -> impl IntoView {
    let links = Links::read();
    let offered = links.offered();
    let none = move || {
        links
            .shares
            .with(|shares| shares.as_ref().is_some_and(Vec::is_empty))
            .then(|| view! { <p class="hint">"No link made yet: “Share” on a task's page makes one."</p> })
    };
    move || {
        offered.get().then(|| {
            view! {
                <section class="share" aria-labelledby="shared-links-title">
                    <h2 id="shared-links-title">"Shared links"</h2>
                    {links.problem_view()}
                    {none}
                    <ul id="shared-links">{link_rows(links, Vec::new())}</ul>
                </section>
            }
        })
    }
}
