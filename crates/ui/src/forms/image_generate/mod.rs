//! The image generation form.

mod state;
mod view;

pub use state::ImageGenerateForm;
pub use view::ImageGenerateView;
