//! The image generation form.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use media_gen_api::{ImageQuality, ImageRatio, Module, TaskKind};

use crate::app::board::Board;
use crate::app::settings::Settings;
use crate::components::FieldProblems;
use crate::forms::image_generate::ImageGenerateForm;

/// A `<select>` over a closed value set, bound to `value`.
fn choice<T>(id: &'static str, all: &'static [T], value: RwSignal<T>) -> impl IntoView
where
    T: Copy + PartialEq + std::fmt::Display + std::str::FromStr + Send + Sync + 'static,
{
    view! {
        <select
            id=id
            on:change=move |ev| {
                if let Ok(parsed) = event_target_value(&ev).parse::<T>() {
                    value.set(parsed);
                }
            }
        >
            {all
                .iter()
                .map(|option| {
                    let option = *option;
                    view! {
                        <option value=option.to_string() selected=move || value.get() == option>
                            {option.to_string()}
                        </option>
                    }
                })
                .collect_view()}
        </select>
    }
}

/// The form: live validation from `media-gen-api`, submit disabled while
/// there are errors, Ctrl/Cmd+Enter submits; on success the tasks go on the
/// board and the board opens.
#[component]
pub fn ImageGenerateForm() -> impl IntoView {
    let (settings, board) = (Settings::expect(), Board::expect());
    let form = ImageGenerateForm::default();
    let problems = form.problems();
    let submitting = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    let blocked = move || submitting.get() || problems.with(|p| p.has_errors());

    let submit = move || {
        if blocked() {
            return;
        }
        let request = form.request();
        submitting.set(true);
        failure.set(None);
        let navigate = navigate.clone();
        spawn_local(async move {
            match settings
                .client()
                .submit_image_generate(&request, None)
                .await
            {
                Ok(ids) => {
                    let json = serde_json::to_value(&request).unwrap_or_default();
                    board.add_submitted(TaskKind::ImageGenerate, json, &ids.task_ids);
                    navigate("/", Default::default());
                }
                Err(error) => failure.set(Some(error.to_string())),
            }
            submitting.set(false);
        });
    };
    let submit_on_key = {
        let submit = submit.clone();
        move |ev: KeyboardEvent| {
            if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                ev.prevent_default();
                submit();
            }
        }
    };
    let count_text = move || form.prompt.with(|p| p.chars().count());
    let ratio_box = move || {
        let (w, h) = form.ratio.get().parts();
        let (w, h) = (f64::from(w), f64::from(h));
        let scale = 64.0 / w.max(h);
        format!("width: {:.0}px; height: {:.0}px", w * scale, h * scale)
    };
    let pixels = move || {
        let (w, h) = form.quality.get().image_size(form.ratio.get());
        format!("{w} × {h} pixels")
    };

    view! {
        <form class="task-form" on:submit=move |ev| { ev.prevent_default(); } on:keydown=submit_on_key>
            <div class="field">
                <label for="prompt">"Prompt"</label>
                <textarea
                    id="prompt"
                    rows="4"
                    aria-describedby="prompt-problems prompt-count"
                    prop:value=move || form.prompt.get()
                    on:input=move |ev| form.prompt.set(event_target_value(&ev))
                ></textarea>
                <p class="hint" id="prompt-count">{count_text}" / 1000 characters"</p>
                <FieldProblems problems field="prompt"/>
            </div>
            <div class="field">
                <label for="references">"Reference image URLs, one per line (up to 5)"</label>
                <textarea
                    id="references"
                    rows="3"
                    aria-describedby="reference_images-problems"
                    prop:value=move || form.references.get()
                    on:input=move |ev| form.references.set(event_target_value(&ev))
                ></textarea>
                <FieldProblems problems field="reference_images"/>
            </div>
            <div class="field-row">
                <div class="field">
                    <label for="module">"Model"</label>
                    {choice("module", Module::ALL, form.module)}
                </div>
                <div class="field">
                    <label for="count">"Images"</label>
                    <input
                        id="count"
                        type="number"
                        min="1"
                        max="8"
                        aria-describedby="generate_count-problems"
                        prop:value=move || form.count.get().to_string()
                        on:input=move |ev| form.count.set(event_target_value(&ev).parse().unwrap_or(0))
                    />
                    <FieldProblems problems field="generate_count"/>
                </div>
                <div class="field">
                    <label for="quality">"Quality"</label>
                    {choice("quality", ImageQuality::ALL, form.quality)}
                </div>
                <div class="field">
                    <label for="ratio">"Ratio"</label>
                    {choice("ratio", ImageRatio::ALL, form.ratio)}
                </div>
                <div class="ratio-preview" aria-hidden="true">
                    <div class="ratio-preview__shape" style=ratio_box></div>
                    <span class="hint">{pixels}</span>
                </div>
            </div>
            <div class="actions">
                <button id="submit" type="button" disabled=blocked on:click=move |_| submit()>
                    {move || if submitting.get() { "Submitting…" } else { "Generate" }}
                </button>
                <span class="hint">"Ctrl+Enter or ⌘+Enter"</span>
            </div>
            {move || failure.get().map(|message| view! { <p class="notice" role="alert">{message}</p> })}
        </form>
    }
}
