//! What surrounds every page: the header, keyboard shortcuts, the live
//! region that announces changes, notifications, the panic banner, and the
//! page for addresses of no page.

pub mod announcer;
pub mod header;
pub mod not_found;
pub mod notifications;
pub mod panic_banner;
pub mod shortcuts;
