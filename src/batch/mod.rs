//! Many jobs at once (`/batch`): a list pasted (one prompt a line) or a
//! CSV dropped, each row checked by the contract's rules as the form
//! checks one (`media_gen_api::batch`), its problems in its cells and
//! mended there; then sent one at a time with one progress line, stopped
//! at a word, landing as one collection where the site keeps a library.

mod files;
mod page;
mod send;
mod table;

pub use page::BatchPage;
