//! The video translation form.

mod languages;
mod state;
mod view;

pub use state::{Offered, VideoTranslateState};
pub use view::VideoTranslateForm;
