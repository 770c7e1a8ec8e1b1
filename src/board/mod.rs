//! The task board (`/`): every task followed in this browser, its state
//! kept across reloads and tabs, filters in the address, picks for
//! comparing two results (`/compare`), what an action made and "Undo"
//! after a removal.

pub mod compare;
mod compare_page;
pub mod filters;
pub mod notice;
mod page;
mod request_row;
pub mod requests;
mod state;
mod steady;
mod undo;

pub use compare_page::ComparePage;
pub use notice::NoticeText;
pub use page::BoardPage;
pub use state::{provide_board, Board, Notice, Removed};
pub use undo::UndoRemove;
