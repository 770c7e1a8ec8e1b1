//! The pages a visitor does not open first, each a chunk of its own in the
//! release build: loaded the first time its page opens (or before, when a
//! link to it is hovered or focused, or the page is idle), then at once.
//!
//! Each chunk is named after the leading segments of its page's address
//! (`new_image_to_video` for `/new/image-to-video`, `tasks` for
//! `/tasks/…`): the page the release build serves fetches the chunk of the
//! address it opens on beside the first module, by that name alone
//! (`xtask/src/dist.rs`), with no second table of the app's addresses.
//!
//! A chunk is a `#[wasm_split]` function (leptos's `wasm_split`, as
//! `#[lazy]` uses it) that draws its page. The release build turns on the
//! `split` feature and cuts the module at these functions
//! (`xtask/src/dist.rs`); every other build (the browser tests, `trunk
//! serve`) calls them directly, since a module with lazy points cannot run
//! until it is split. A chunk that does not load (the network, a deploy
//! that replaced it) is [`ChunkMissing`], drawn by [`FromChunk`] as the boot
//! page's message with a way to reload, never a blank page or a panic.

use leptos::prelude::*;
use media_gen_api::{StartedFrom, TaskKind};
use media_gen_ui::chunk::from_chunk;
use media_gen_ui::forms::{image_generate_form, image_to_video_form, video_translate_form};

use crate::address::Page;
use crate::batch::BatchPage;
use crate::board::{Board, ComparePage, Filters, Organise};
use crate::settings::SettingsPage;
use crate::shell::announcer::Announcer;
use crate::task::{NewTask, TaskPage};

use media_gen_ui::chunk;
pub use media_gen_ui::chunk::{ChunkMissing, Drawn};
pub use media_gen_ui::drawn;
use media_gen_ui::store::record::TaskRecord;

chunk! {
    /// The settings page.
    settings() in settings, preload_settings => view! { <SettingsPage/> }
}

chunk! {
    /// The image-to-video form's page, started from the board's task
    /// `from` or another task's result `next`.
    image_to_video(from: Option<String>, next: Option<StartedFrom>) in new_image_to_video,
        preload_image_to_video =>
        view! { <NewTask kind=TaskKind::ImageToVideo from next form=image_to_video_form/> }
}

chunk! {
    /// The video translation form's page, as [`image_to_video`]'s.
    video_translate(from: Option<String>, next: Option<StartedFrom>) in new_video_translate,
        preload_video_translate =>
        view! { <NewTask kind=TaskKind::VideoTranslate from next form=video_translate_form/> }
}

chunk! {
    /// The image generation form's page, as [`image_to_video`]'s.
    image_generate(from: Option<String>, next: Option<StartedFrom>) in new_image_generate,
        preload_image_generate =>
        view! { <NewTask kind=TaskKind::ImageGenerate from next form=image_generate_form/> }
}

chunk! {
    /// One task's page (its kind as the address spells it), with its
    /// players and what was asked.
    task(kind: String, id: String) in tasks, preload_task => view! { <TaskPage kind id/> }
}

chunk! {
    /// The page comparing two tasks.
    compare() in compare, preload_compare => view! { <ComparePage/> }
}

chunk! {
    /// The board's organising tools: filters, collections, and what is
    /// done to the rows chosen.
    organise(filters: Filters, open: RwSignal<bool>) in organise, preload_organise =>
        view! { <Organise filters open/> }
}

chunk! {
    /// Saving results as one `.zip` (or file by file): what it did, in
    /// words, once done.
    save_results(chosen: Vec<TaskRecord>, name: String) in downloads, preload_downloads
        -> std::pin::Pin<Box<dyn std::future::Future<Output = String>>> =>
        Box::pin(crate::task::downloads::save_results(chosen, name))
}

chunk! {
    /// A stored task's request submitted again, unchanged (see
    /// [`Board::rerun`]): its new tasks' ids, once answered.
    rerun(board: Board, record: TaskRecord) in rerun, preload_rerun
        -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<String>, String>>>> =>
        Box::pin(async move { board.rerun(&record).await })
}

chunk! {
    /// Signing out at the site's gateway: fetched when a person signs out.
    sign_out(settings: crate::settings::Settings) in sign_out, preload_sign_out
        -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> =>
        Box::pin(async move {
            let _ = settings.client().sign_out().await;
        })
}

chunk! {
    /// The page that makes many jobs at once.
    batch() in batch, preload_batch => view! { <BatchPage/> }
}

/// Fetch the chunk `page` draws from, if it has one, without drawing it.
pub fn preload(page: &Page) {
    match page {
        Page::NewTask(TaskKind::ImageToVideo) => fetch(preload_image_to_video()),
        Page::NewTask(TaskKind::VideoTranslate) => fetch(preload_video_translate()),
        Page::NewTask(TaskKind::ImageGenerate) => fetch(preload_image_generate()),
        Page::Task { .. } => fetch(preload_task()),
        Page::Settings => fetch(preload_settings()),
        Page::Compare => fetch(preload_compare()),
        Page::Batch => fetch(preload_batch()),
        Page::Board | Page::NotFound => {}
    }
}

/// Fetch the file controls' chunk (a form's page on a site that takes
/// uploads draws them).
pub fn preload_file_controls() {
    fetch(media_gen_ui::forms::file_target::preload_file_controls());
}

/// Fetch every page's chunk, the forms' first.
pub fn preload_all() {
    for page in [
        Page::NewTask(TaskKind::ImageToVideo),
        Page::NewTask(TaskKind::ImageGenerate),
        Page::NewTask(TaskKind::VideoTranslate),
        Page::Task {
            kind: String::new(),
            id: String::new(),
        },
        Page::Compare,
        Page::Settings,
        Page::Batch,
    ] {
        preload(&page);
    }
}

/// Run a chunk's fetch; one that fails is fetched again when its page
/// opens, which then says so if it fails again.
fn fetch<E>(load: impl std::future::Future<Output = Result<(), E>> + 'static) {
    leptos::task::spawn_local(async move {
        let _ = load.await;
    });
}

/// The form page of `kind`, drawn from its chunk.
pub async fn new_task(kind: TaskKind, from: Option<String>, next: Option<StartedFrom>) -> Drawn {
    match kind {
        TaskKind::ImageToVideo => drawn!(image_to_video(from, next)),
        TaskKind::VideoTranslate => drawn!(video_translate(from, next)),
        TaskKind::ImageGenerate => drawn!(image_generate(from, next)),
    }
}

/// What a page says while its chunk is slow to come (and the app's live
/// region says once).
const LOADING: &str = "Loading the page…";

/// How long a page's chunk may take before the page says it is loading:
/// shorter, and a chunk fetched ahead would flash the message.
const LOADING_AFTER_MS: u32 = 300;

/// What a page's chunk drew, once it has loaded, and the boot page's
/// message with a reload where it did not load. While it loads the header
/// stays; after [`LOADING_AFTER_MS`] the page says it is loading (a chunk
/// already loaded is drawn at once, and one fetched ahead seldom takes
/// that long).
#[component]
pub fn FromChunk(
    /// The chunk's drawing of its page.
    drawn: std::pin::Pin<Box<dyn std::future::Future<Output = Drawn>>>,
) -> impl IntoView {
    // Shown from the timer's end until the chunk's arrival, which stops
    // the timer: a page already drawn is never said to be loading.
    let loading = RwSignal::new(false);
    let announcer = use_context::<Announcer>();
    let timer = gloo_timers::callback::Timeout::new(LOADING_AFTER_MS, move || {
        loading.try_set(true);
        if let Some(announcer) = announcer {
            announcer.say(LOADING);
        }
    });
    let timer = StoredValue::new_local(Some(timer));
    let stop = move || {
        timer.try_update_value(|timer| timer.take().map(|timer| timer.cancel()));
    };
    on_cleanup(stop);
    let page = from_chunk(
        async move {
            let drawn = drawn.await;
            stop();
            loading.try_set(false);
            drawn
        },
        || view! { <ChunkFailed/> }.into_any(),
    );
    view! {
        {move || {
            loading
                .get()
                .then(|| view! { <p class="hint" id="chunk-loading">{LOADING}</p> })
        }}
        {page}
    }
}

/// The boot page's message where a chunk did not load.
#[component]
fn ChunkFailed() -> impl IntoView {
    let reload = |event: leptos::ev::MouseEvent| {
        event.prevent_default();
        let _ = window().location().reload();
    };
    view! {
        <div class="notice boot__failed" role="alert">
            <p>
                <strong>"This page could not start."</strong>
                " Part of the app did not load: the network, or a newer version of this site."
            </p>
            <p>
                <a href="" rel="external" on:click=reload>"Reload the page"</a>
            </p>
        </div>
    }
}
