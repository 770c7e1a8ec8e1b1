//! One task: its page (`/tasks/{kind}/{id}`), the page that submits a new
//! one (`/new/{kind}`), and what can be done with it (actions, downloads).

mod actions;
pub mod downloads;
mod form_host;
mod new_page;
mod page;

pub use actions::TaskActions;
pub use new_page::NewTask;
pub use page::TaskPage;
