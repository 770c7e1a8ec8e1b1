//! The image-to-video form.

mod state;
mod view;

pub use state::ImageToVideoForm;
pub use view::ImageToVideoView;
