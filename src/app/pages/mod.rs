//! One file per page.

mod board;
mod image_generate;
mod new_task;
mod not_found;
mod settings;

pub use board::Board;
pub use image_generate::ImageGenerateForm;
pub use new_task::NewTask;
pub use not_found::NotFound;
pub use settings::SettingsPage;
