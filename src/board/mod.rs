//! The task board (`/`): every task followed in this browser, its state
//! kept across reloads and tabs, filters in the address, picks for
//! comparing two results (`/compare`).

pub mod compare;
mod compare_page;
pub mod filters;
mod page;
mod state;

pub use compare_page::ComparePage;
pub use page::BoardPage;
pub use state::{provide_board, Board};
