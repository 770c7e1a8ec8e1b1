//! `/compare?a={kind}:{id}&b={kind}:{id}`: two results side by side; two
//! images also overlaid with a slider that moves the split between them.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;
use media_gen_api::TaskKey;

use crate::board::compare::{media_of, Media};
use crate::board::Board;
use crate::kind_text;
use media_gen_ui::store::record::TaskRecord;

/// The words under one side: kind and id, linking to the task.
fn caption(side: &'static str, record: &TaskRecord) -> impl IntoView {
    view! {
        <figcaption>
            <strong>{side}</strong>" "
            <A href=crate::address::href(&crate::address::detail_path(record.kind, &record.task_id))>
                {format!("{} {}", kind_text::title(record.kind), record.task_id)}
            </A>
        </figcaption>
    }
}

fn side(label: &'static str, record: &TaskRecord, media: Media) -> impl IntoView {
    let shown = match media {
        Media::Image(src) => view! { <img src=src alt=format!("{label}: task {}", record.task_id)/> }.into_any(),
        Media::Video(src) => view! { <video class="compare-video" controls preload="metadata" playsinline src=src></video> }.into_any(),
    };
    view! { <figure class="compare-side">{shown}{caption(label, record)}</figure> }
}

/// Two images on top of each other; the slider shows `a` left of the split.
fn slider(a: &str, b: &str) -> impl IntoView {
    let split = RwSignal::new(50u8);
    view! {
        <div class="compare-slider">
            <img class="compare-slider__under" src=b.to_owned() alt=""/>
            <img class="compare-slider__over" id="compare-over" src=a.to_owned() alt=""
                style:clip-path=move || format!("inset(0 {}% 0 0)", 100 - split.get())/>
            <span class="compare-slider__line" style:left=move || format!("{}%", split.get())></span>
            <span class="compare-slider__tag" style="left: 0.5rem">"A"</span>
            <span class="compare-slider__tag" style="right: 0.5rem">"B"</span>
        </div>
        <label class="compare-split">
            "A ← split → B "
            <input id="compare-split" type="range" min="0" max="100"
                prop:value=move || split.get().to_string()
                on:input=move |ev| {
                    if let Ok(value) = event_target_value(&ev).parse::<u8>() { split.set(value.min(100)) }
                }/>
        </label>
    }
}

/// Start both videos together from the beginning.
fn play_both() {
    if let Ok(videos) = document().query_selector_all(".compare-video") {
        for index in 0..videos.length() {
            if let Some(video) = videos.get(index).and_then(|node| {
                wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlMediaElement>(node).ok()
            }) {
                video.set_current_time(0.0);
                let _ = video.play();
            }
        }
    }
}

/// The comparison page.
#[component]
pub fn ComparePage() -> impl IntoView {
    let query = use_query_map();
    let board = Board::expect();
    let chosen = move || {
        let pick = |name: &str| {
            query
                .with(|q| q.get(name))
                .and_then(|text| text.parse::<TaskKey>().ok())
        };
        let find = |pick: Option<TaskKey>| {
            let pick = pick?;
            let record = board.find(pick.kind, &pick.id)?;
            let media = media_of(&record)?;
            Some((record, media))
        };
        (find(pick("a")), find(pick("b")))
    };
    let body = move || match chosen() {
        (Some((a, media_a)), Some((b, media_b))) => {
            let overlay = match (&media_a, &media_b) {
                (Media::Image(first), Media::Image(second)) => Some(slider(first, second)),
                _ => None,
            };
            let videos = matches!((&media_a, &media_b), (Media::Video(_), Media::Video(_)));
            view! {
                {overlay}
                {videos.then(|| view! {
                    <button type="button" class="secondary" id="play-both" on:click=move |_| play_both()>"Play both from the start"</button>
                })}
                <div class="compare-pair">
                    {side("A", &a, media_a)}
                    {side("B", &b, media_b)}
                </div>
            }
            .into_any()
        }
        _ => view! {
            <p class="notice" role="alert" id="compare-missing">
                "Choose two finished tasks on the board to compare (tick “Compare” on each)."
            </p>
        }
        .into_any(),
    };
    view! {
        <section class="compare" aria-labelledby="compare-title">
            <h1 id="compare-title">"Compare"</h1>
            {body}
            <p><A href=crate::address::href("/")>"Back to the tasks"</A>" (Esc)"</p>
        </section>
    }
}
