//! One file per page.

mod board;
mod compare;
mod new_task;
mod not_found;
mod settings;
mod task;

pub use board::Board;
pub use compare::ComparePage;
pub use new_task::NewTask;
pub use not_found::NotFound;
pub use settings::SettingsPage;
pub use task::TaskPage;
