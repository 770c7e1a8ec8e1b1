//! The image generation form.

mod state;
mod view;

pub use state::ImageGenerateState;
pub use view::ImageGenerateForm;
