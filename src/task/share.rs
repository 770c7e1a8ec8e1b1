//! Sharing from the app, where the site offers it (it keeps the person's
//! library and their results): on a task's page, a link to its request
//! made with how long it lives and what it shows, then copied; and the
//! person's links, each with when it ends and how often it was opened,
//! taken back with one click. A site that does not share (`/shares`
//! answers 404) shows none of it.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::library::RequestId;
use media_gen_api::share::{NewShare, Share, ShareLife};
use media_gen_ui::components::curl_copy::absolute_url;
use media_gen_ui::components::CopyButton;
use wasm_bindgen::JsValue;

use crate::settings::Settings;
use crate::shell::access::Access;

/// The person's links as last read: `None` while reading, or where the
/// site shares nothing.
#[derive(Debug, Clone, Copy)]
struct Links {
    shares: RwSignal<Option<Vec<Share>>>,
    problem: RwSignal<Option<String>>,
}

impl Links {
    /// Read the person's links, when the site keeps their library and
    /// results.
    fn read(settings: Settings) -> Links {
        let links = Links {
            shares: RwSignal::new(None),
            problem: RwSignal::new(None),
        };
        let access = Access::expect();
        if access.library_of().is_none() || !access.keeps_results() {
            return links;
        }
        let client = settings.client();
        spawn_local(async move {
            // 404: this site does not share; a list otherwise.
            if let Ok(shares) = client.shares().await {
                links.shares.try_set(Some(shares));
            }
        });
        links
    }

    /// Take `token` back, and mark it so in the list.
    fn take_back(self, settings: Settings, token: String) {
        let client = settings.client();
        spawn_local(async move {
            match client.take_back_share(&token).await {
                Ok(()) => {
                    let now = js_sys::Date::now() as u64;
                    self.shares.update(|shares| {
                        if let Some(share) = shares
                            .iter_mut()
                            .flatten()
                            .find(|share| share.token == token)
                        {
                            share.ends = Some(now);
                        }
                    });
                }
                Err(error) => {
                    self.problem
                        .set(Some(format!("The link could not be taken back: {error}")));
                }
            }
        });
    }
}

/// A time as the reader's locale writes it.
fn local_time(ms: u64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
        .to_locale_string("default", &JsValue::UNDEFINED)
        .into()
}

/// What a link's line says of its life.
fn life_text(share: &Share, now: u64) -> String {
    match share.ends {
        Some(ends) if ends <= now => format!("Ended {}", local_time(ends)),
        Some(ends) => format!("Open until {}", local_time(ends)),
        None => "Open while the results are kept".to_owned(),
    }
}

/// One link: its address to copy, its life, how often it was opened, and
/// taking it back.
fn link_row(links: Links, settings: Settings, share: Share) -> impl IntoView {
    let now = js_sys::Date::now() as u64;
    let address = absolute_url(&settings.base_url.get_untracked(), &share.path);
    let live = share.ends.is_none_or(|ends| ends > now);
    let opened = match share.views {
        1 => "Opened once".to_owned(),
        views => format!("Opened {views} times"),
    };
    let token = share.token.clone();
    let who = if share.team {
        "People signed in to this site"
    } else {
        "Anyone with the link"
    };
    view! {
        <li class="share-link" data-live=live.to_string()>
            <input class="share-link__address" readonly value=address.clone()
                aria-label="Shared link"
                on:focus=|event| {
                    event_target::<web_sys::HtmlInputElement>(&event).select();
                }
            />
            <CopyButton text=address detail="shared link".to_owned() idle="Copy link"/>
            <span class="hint">{who}" · "{life_text(&share, now)}" · "{opened}</span>
            {live.then(|| view! {
                <button type="button" class="share-link__take-back"
                    on:click=move |_| links.take_back(settings, token.clone())>
                    "Take back"
                </button>
            })}
        </li>
    }
}

/// The life a choice's value names.
fn life_of(value: &str) -> ShareLife {
    match value {
        "day" => ShareLife::Day,
        "month" => ShareLife::Month,
        "kept" => ShareLife::Kept,
        _ => ShareLife::Week,
    }
}

/// "Share this request" on a task's page: a new link to `request`, and
/// the links to it already made.
#[component]
pub fn SharePanel(
    /// The request's id in the person's library.
    request: String,
) -> impl IntoView {
    let settings = Settings::expect();
    let links = Links::read(settings);
    let Some(request_id) = RequestId::parse(&request) else {
        return ().into_any();
    };
    let life = RwSignal::new("week".to_owned());
    let asked = RwSignal::new(false);
    let team = RwSignal::new(false);
    let making = RwSignal::new(false);
    let request_id = StoredValue::new(request_id);
    let create = Callback::new(move |()| {
        // One link a press: a second press while one is made does nothing.
        if making.get_untracked() {
            return;
        }
        making.set(true);
        links.problem.set(None);
        let new = NewShare {
            requests: vec![request_id.get_value()],
            tasks: Vec::new(),
            life: life_of(&life.get_untracked()),
            asked: asked.get_untracked(),
            team: team.get_untracked(),
        };
        let client = settings.client();
        spawn_local(async move {
            match client.share(&new).await {
                Ok(share) => links.shares.update(|shares| {
                    shares.get_or_insert_with(Vec::new).insert(0, share);
                }),
                Err(error) => links
                    .problem
                    .set(Some(format!("No link was made: {error}"))),
            }
            making.set(false);
        });
    });
    let mine = move || {
        links.shares.with(|shares| {
            shares
                .iter()
                .flatten()
                .filter(|share| request_id.with_value(|id| share.requests.contains(id)))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || links.shares.with(Option::is_some)>
            <section class="share" aria-labelledby="share-title">
                <h2 id="share-title">"Share this request"</h2>
                <form class="share__form" on:submit=move |event| {
                    event.prevent_default();
                    create.run(());
                }>
                    <label>"Open for "
                        <select id="share-life" prop:value=move || life.get()
                            on:change=move |event| life.set(event_target_value(&event))>
                            <option value="day">"a day"</option>
                            <option value="week">"a week"</option>
                            <option value="month">"30 days"</option>
                            <option value="kept">"as long as the results are kept"</option>
                        </select>
                    </label>
                    <label><input type="checkbox" id="share-asked" prop:checked=move || asked.get()
                        on:change=move |event| asked.set(event_target_checked(&event))/>
                        " Show what was asked (the prompt, the settings)"</label>
                    <label><input type="checkbox" id="share-team" prop:checked=move || team.get()
                        on:change=move |event| team.set(event_target_checked(&event))/>
                        " Only people signed in to this site"</label>
                    <button type="submit" id="share-create" prop:disabled=move || making.get()>
                        {move || if making.get() { "Making the link…" } else { "Make a link" }}
                    </button>
                </form>
                {move || links.problem.get().map(|problem| view! { <p class="notice" role="alert">{problem}</p> })}
                <ul id="share-links" aria-label="Links to this request">
                    {move || mine().into_iter().map(|share| link_row(links, settings, share)).collect_view()}
                </ul>
            </section>
        </Show>
    }
    .into_any()
}

/// Every link the person made, on the settings page.
#[component]
pub fn SharedLinks() -> impl IntoView {
    let settings = Settings::expect();
    let links = Links::read(settings);
    view! {
        <Show when=move || links.shares.with(Option::is_some)>
            <section class="share" aria-labelledby="shared-links-title">
                <h2 id="shared-links-title">"Shared links"</h2>
                {move || links.problem.get().map(|problem| view! { <p class="notice" role="alert">{problem}</p> })}
                {move || {
                    let all = links.shares.get().unwrap_or_default();
                    if all.is_empty() {
                        view! { <p class="hint">"No link made yet: “Share this request” on a task's page makes one."</p> }.into_any()
                    } else {
                        view! {
                            <ul id="shared-links">
                                {all.into_iter().map(|share| link_row(links, settings, share)).collect_view()}
                            </ul>
                        }.into_any()
                    }
                }}
            </section>
        </Show>
    }
}
