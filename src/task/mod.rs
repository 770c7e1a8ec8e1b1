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
