//! The only code that speaks HTTP: to the service, and to its media hosts
//! for result files ([`media`]).
//!
//! [`Client`] has one method per endpoint; the decisions it follows (the
//! envelope rules, which failures to retry and how long to wait) live in
//! `media-gen-api`, where they are tested natively.

mod abort;
mod attempt;
pub mod clipboard;
mod error;
#[cfg(feature = "access")]
mod library;
pub mod media;
mod options;
mod poller;
pub mod relay_stream;
mod service;
#[cfg(feature = "access")]
mod session;
#[cfg(feature = "access")]
mod shares;
#[cfg(feature = "uploads")]
pub mod upload;
mod urls;
pub mod value_reader;
pub mod visibility;
pub mod web_lock;

pub use error::ClientError;
pub use media_gen_api::follow::{FollowOptions, WhileHidden};
pub use options::{Auth, ClientOptions, TokenProvider};
pub use poller::{Poller, TaskUpdate};
pub use service::{Client, Submitted};
pub use urls::use_browser_urls;

/// Now, in `Date.now()` milliseconds: the one clock the client and the app use.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
