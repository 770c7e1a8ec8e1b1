//! The batch page: what a batch is made of (its kind, a list or a CSV),
//! the table of its rows, what sending it costs, and its progress.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use media_gen_api::batch::{columns, list_column, starting_request, Batch, MAX_ROWS};
use media_gen_api::cost::cost_of;
use media_gen_api::validate::Context;
use media_gen_api::TaskKind;
use wasm_bindgen::JsCast;

use crate::task::read_request;

use super::files::Dropped;
use super::send::Sending;
use super::table::{BatchTable, Read};
use crate::kind_text;
use crate::shell::access::Access;

/// How the text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A row a line, in the kind's [`list_column`].
    Lines,
    /// A CSV whose header names the fields.
    Csv,
}

/// `text` read as a batch of `kind`; nothing for no text.
fn read_text(kind: TaskKind, shape: Shape, text: &str) -> Option<Result<Batch, String>> {
    if text.trim().is_empty() {
        return None;
    }
    let base = starting_request(kind);
    let read_row = |kind, fields: serde_json::Value| read_request(kind, &fields);
    let context = Context::default();
    let read = match shape {
        Shape::Lines => Batch::from_lines(&base, text, &context, read_row),
        Shape::Csv => Batch::from_csv(&base, text, &context, read_row),
    };
    Some(read.map_err(|error| error.to_string()))
}

/// An example of the CSV a kind reads: its header, then a row.
fn example(kind: TaskKind) -> String {
    let header: Vec<&str> = columns(kind).iter().map(|(name, _)| *name).collect();
    format!("Columns: {}", header.join(", "))
}

/// A time as the reader's locale writes it.
fn local_now() -> String {
    js_sys::Date::new_0()
        .to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED)
        .into()
}

/// The batch page.
#[component]
pub fn BatchPage() -> impl IntoView {
    let access = Access::expect();
    let query = use_query_map();
    let start_kind = query
        .with_untracked(|query| query.get("kind"))
        .and_then(|kind| kind.replace('-', "_").parse().ok())
        .unwrap_or(TaskKind::ImageGenerate);
    let kind = RwSignal::new(start_kind);
    let shape = RwSignal::new(Shape::Lines);
    let text = RwSignal::new(String::new());
    let read = Read::new();
    let sending = Sending::new();
    let dropped = Dropped::new();
    let reread = move || {
        read.set(text.with_untracked(|text| {
            media_gen_ui::components::marks::measured(
                media_gen_ui::components::marks::BATCH_CHECKED,
                || read_text(kind.get_untracked(), shape.get_untracked(), text),
            )
        }));
        dropped.upload_named(read.batch);
    };
    let read_csv = move |file: web_sys::File| {
        let promise = file.text();
        leptos::task::spawn_local(async move {
            if let Ok(contents) = wasm_bindgen_futures::JsFuture::from(promise).await {
                text.set(contents.as_string().unwrap_or_default());
                shape.set(Shape::Csv);
                reread();
            }
        });
    };
    // Files chosen or dropped: the CSV is read; the others are kept, to
    // be uploaded where its rows name them.
    let on_files = move |files: web_sys::FileList| {
        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        let (csv, media): (Vec<_>, Vec<_>) = files.into_iter().partition(|file| {
            file.name().to_lowercase().ends_with(".csv") || file.type_() == "text/csv"
        });
        dropped.keep(media);
        match csv.into_iter().next() {
            Some(csv) => read_csv(csv),
            None => dropped.upload_named(read.batch),
        }
    };
    let counts = move || {
        read.batch.with(|batch| match batch {
            Some(Ok(batch)) => batch.counts(),
            _ => (0, 0),
        })
    };
    let tasks = move || {
        read.batch.with(|batch| match batch {
            Some(Ok(batch)) => batch
                .rows
                .iter()
                .filter_map(|row| row.request.as_ref())
                .map(|request| request.tasks_created())
                .sum::<u64>(),
            _ => 0,
        })
    };
    let cost = move || cost_of(tasks(), access.allowance());
    let can_send = move || {
        let (ready, not) = counts();
        ready > 0 && not == 0 && cost().refused.is_none() && !sending.is_sending()
    };
    let send = move || {
        if !can_send() {
            return;
        }
        let requests = read
            .batch
            .with_untracked(|batch| match batch {
                Some(Ok(batch)) => batch.requests(),
                _ => None,
            })
            .unwrap_or_default();
        let collection = access
            .library_of()
            .map(|_| format!("Batch of {}, {}", requests.len(), local_now()));
        sending.start(requests, collection);
    };
    let progress = move || {
        sending.run.with(|run| {
            run.as_ref().map(|run| {
                let mut line = run.progress();
                match (run.stopped(), run.is_over()) {
                    (Some(_), false) => line.push_str(". Stopping: the row being sent ends first."),
                    (Some(why), true) => line = format!("{line}. {why}."),
                    (None, true) => line.push_str(". Done: they are on the board."),
                    (None, false) => {}
                }
                if let Some(name) = sending.collection.get() {
                    line.push_str(&format!(" In the collection “{name}”."));
                }
                line
            })
        })
    };
    let label = move || match counts() {
        (ready, 0) => format!("Submit {ready} {}", if ready == 1 { "job" } else { "jobs" }),
        (_, not) => format!(
            "Mend {not} {} to submit",
            if not == 1 { "row" } else { "rows" }
        ),
    };
    view! {
        <section class="batch" aria-labelledby="batch-title">
            <h1 id="batch-title">"Many jobs at once"</h1>
            <p class="lead">
                "Paste a list, one prompt a line, or drop a CSV whose columns are the service's field names. "
                "Every row is checked as the form checks one; mend a cell in the table, then send them all."
            </p>
            <div class="batch__source">
                <div class="field">
                    <label for="batch-kind">"What each row makes"</label>
                    <select id="batch-kind" on:change=move |event| {
                        if let Ok(chosen) = event_target_value(&event).parse() {
                            kind.set(chosen);
                            reread();
                        }
                    }>
                        {TaskKind::ALL.iter().map(|&option| view! {
                            <option value=option.as_str() selected=option == start_kind>{kind_text::title(option)}</option>
                        }).collect_view()}
                    </select>
                </div>
                <fieldset class="batch__shape">
                    <legend>"The text is"</legend>
                    <label><input type="radio" name="batch-shape" id="batch-lines"
                        prop:checked=move || shape.get() == Shape::Lines
                        on:change=move |_| { shape.set(Shape::Lines); reread(); }/>
                        {move || format!(" a line a {}", list_column(kind.get()).replace('_', " "))}</label>
                    <label><input type="radio" name="batch-shape" id="batch-csv"
                        prop:checked=move || shape.get() == Shape::Csv
                        on:change=move |_| { shape.set(Shape::Csv); reread(); }/>
                        " a CSV with a header"</label>
                </fieldset>
                <div class="field">
                    <label for="batch-text">"The list"</label>
                    <textarea id="batch-text" rows="8" spellcheck="false"
                        aria-describedby="batch-columns"
                        prop:value=move || text.get()
                        on:input=move |event| { text.set(event_target_value(&event)); reread(); }
                        on:dragover=|event: web_sys::DragEvent| event.prevent_default()
                        on:drop=move |event: web_sys::DragEvent| {
                            event.prevent_default();
                            if let Some(files) = event.data_transfer().and_then(|data| data.files()) {
                                on_files(files);
                            }
                        }>
                    </textarea>
                    <p class="hint" id="batch-columns">{move || format!("{} Up to {MAX_ROWS} rows; a list's items are separated by “;”.", example(kind.get()))}</p>
                </div>
                <div class="field">
                    <label for="batch-file">"Or choose a CSV file, with the files it names"</label>
                    <input type="file" id="batch-file" multiple accept=".csv,text/csv,image/*,video/*" on:change=move |event| {
                        let input = event.target().and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok());
                        if let Some(files) = input.and_then(|input| input.files()) {
                            on_files(files);
                        }
                    }/>
                    {move || dropped.said.get().map(|said| view! { <p class="hint" id="batch-files" role="status">{said}</p> })}
                </div>
            </div>
            {move || read.batch.with(|batch| match batch {
                Some(Err(error)) => Some(view! { <p class="notice" role="alert" id="batch-error">{error.clone()}</p> }),
                _ => None,
            })}
            <BatchTable read/>
            <div class="batch__send">
                <button type="button" id="batch-submit" class="primary"
                    prop:disabled=move || !can_send()
                    on:click=move |_| send()>
                    {label}
                </button>
                <span class="hint" id="batch-cost">{move || (counts().0 > 0).then(|| cost().said)}</span>
                {move || cost().refused.map(|why| view! { <p class="notice" role="alert" id="batch-refused">{why}</p> })}
                {move || sending.is_sending().then(|| view! {
                    <button type="button" id="batch-stop" on:click=move |_| sending.stop()>"Stop"</button>
                })}
            </div>
            <p id="batch-progress" role="status" aria-live="polite">{progress}</p>
            {move || sending.problem.get().map(|problem| view! { <p class="notice" role="alert">{problem}</p> })}
        </section>
    }
}
