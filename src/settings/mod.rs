//! The settings (`/settings`): where the service is, the token, the
//! notification opt-in; the state every page reads them from.

mod page;
mod state;

pub use page::SettingsPage;
pub use state::{provide_settings, Connection, Settings};
