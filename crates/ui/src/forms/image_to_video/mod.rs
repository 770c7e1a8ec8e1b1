//! The image-to-video form.

mod state;
mod view;

pub use state::ImageToVideoState;
pub use view::ImageToVideoForm;
