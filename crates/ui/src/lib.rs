//! The Leptos views both browser hosts share: the app (`media-gen`) and the
//! JavaScript widgets (`media-gen-widgets`).
//!
//! The three submit forms, the views of a task (progress, result, problems),
//! and the task store (records, the browser storage they live in, tab sync).
//! Requests go through `media-gen-client`; rules come from `media-gen-api`.
//! Nothing here knows which host it runs in: a host hands its choices in
//! through [`forms::FormHost`].

pub mod chunk;
pub mod components;
pub mod forms;
pub mod hooks;
pub mod store;
pub mod text;
