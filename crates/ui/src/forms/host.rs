//! What a form needs from the page that hosts it: the app or a widget.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use media_gen_api::{Problems, Request};

use super::client::MakeFormClient;

/// Sends a valid request. `Err` carries the message shown on the form; the
/// fields keep their values, so nothing typed is lost.
pub type SubmitHandler = Rc<dyn Fn(Request) -> LocalBoxFuture<'static, Result<(), String>>>;

/// Hears of every change of the request a form makes, with its problems.
pub type ChangeHandler = Rc<dyn Fn(&Request, &Problems)>;

/// The host's side of a form.
#[derive(Clone)]
pub struct FormHost {
    /// Sends the request (and, in the app, puts the tasks on the board).
    pub submit: SubmitHandler,
    /// A client for what a form asks itself (the language list, the
    /// site's offers, uploads).
    pub client: MakeFormClient,
    /// The service's base URL, for "use the sandbox inbox" and "copy as cURL".
    pub base_url: Signal<String>,
    /// The token for "copy as cURL" (see [`crate::components::CurlCopy`]);
    /// `""` when one is used but not known here.
    pub token: Signal<Option<String>>,
    /// Changes whenever the connection does (base URL or token): a form that
    /// reads from the service (the language list) reads again. A token that
    /// arrives after the form opened is used at once. Only its changes mean
    /// anything: the app derives it from its settings, a widget counts its
    /// `update()`s.
    pub connection_version: Signal<u64>,
    /// Told of the request as the form opens, then of each change (the
    /// submit widget's `media-gen-change`); `None` for a host that does not
    /// ask.
    pub on_change: Option<ChangeHandler>,
}
