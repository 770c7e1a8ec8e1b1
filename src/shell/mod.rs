//! What surrounds every page: the loading state before the app starts, the
//! header, keyboard shortcuts, the live region that announces changes,
//! notifications, the panic banner, the page for addresses of no page, and
//! signing in to a gateway that asks for a person.

pub mod access;
pub mod announcer;
pub mod boot;
pub mod header;
pub mod not_found;
pub mod notifications;
pub mod panic_banner;
pub mod shortcuts;
pub mod sign_in;
