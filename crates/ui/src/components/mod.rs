//! Reusable views, one file each, shared by the app's pages and the widgets.

pub mod copy_button;
pub mod curl_copy;
pub mod field;
pub mod marks;
pub mod problems;
pub mod progress;
pub mod redrawn;
pub mod safe_url;
pub mod subtitles;
pub mod task_result;

pub use copy_button::CopyButton;
pub use curl_copy::CurlCopy;
pub use field::Field;
pub use problems::{problems_id, FieldProblems, Touched};
pub use progress::TaskProgress;
pub use redrawn::redrawn;
pub use task_result::{FailureMessage, ImageGallery, TaskResult};
