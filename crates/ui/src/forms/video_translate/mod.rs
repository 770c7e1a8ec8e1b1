//! The video translation form.

mod languages;
mod state;
mod view;

pub use state::{Offered, VideoTranslateForm};
pub use view::VideoTranslateView;
