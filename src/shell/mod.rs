//! What surrounds every page: the loading state before the app starts, the
//! header, keyboard shortcuts, the live region that announces changes,
//! notifications, the panic banner, and the page for addresses of no page.

pub mod announcer;
pub mod boot;
pub mod header;
pub mod not_found;
pub mod notifications;
pub mod panic_banner;
pub mod shortcuts;
