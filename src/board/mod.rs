//! The task board (`/`): every task followed in this browser, its state
//! kept across reloads and tabs, filters in the address, picks for
//! comparing two results (`/compare`), what an action made and "Undo"
//! after a removal; signed in on a site that keeps one, the person's
//! library, on every device.

mod collections;
pub mod compare;
mod compare_page;
pub mod filters;
mod library;
mod near_end;
pub mod notice;
pub mod organise;
mod organise_panel;
mod page;
mod request_row;
pub mod requests;
mod row_marks;
mod state;
mod steady;
mod task_row;
mod undo;

pub use compare_page::ComparePage;
pub use library::{provide_library, Library};
pub use notice::NoticeText;
pub use organise_panel::Organise;
pub use page::{BoardPage, Filters};
pub use state::{provide_board, Board, Notice, Removed};
pub use undo::UndoRemove;
