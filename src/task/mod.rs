//! One task: its page (`/tasks/{kind}/{id}`), the page that submits a new
//! one (`/new/{kind}`), what it was asked to do, and what can be done with
//! it (actions, downloads, the next jobs its results start).

mod actions;
mod archive;
mod asked;
pub mod downloads;
mod every_model;
mod form_host;
mod new_page;
pub(crate) mod next_jobs;
mod page;
mod presets;
mod result_files;
pub(crate) mod share;
mod subtitle_files;

pub use actions::TaskActions;
pub use new_page::NewTask;
pub use page::TaskPage;

/// A request of `kind` from its JSON `body` (a row of a batch, saved
/// settings laid over a form), read as every request the page is given
/// is: the browser parses the text, the contract reads the parsed value.
/// No second JSON reader in the page.
pub(crate) fn read_request(
    kind: media_gen_api::TaskKind,
    body: &serde_json::Value,
) -> Result<media_gen_api::Request, String> {
    use media_gen_client::value_reader::{parse, Parsed};
    media_gen_api::Request::from_body(kind, &Parsed(&parse(&body.to_string())))
}
