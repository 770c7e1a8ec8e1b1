//! A widget's options read from JavaScript, in one place for both modules:
//! the widgets' module mounts with them, and the client module checks them
//! before the widgets' module has loaded, so the package's
//! `mountSubmitWidget`, `mountStatusWidget` and a handle's `update` throw at
//! once for wrong options.

use media_gen_api::relay::is_capability;
use media_gen_api::{Request, TaskKind};
use wasm_bindgen::prelude::*;

use super::bridge::options_error;
use super::connection::{optional_string, Connection};
use super::object::property;
use super::read::{parse_kind, request_from_js, task_ids};

/// A submit widget's options (`C`: the connection as read; a check that
/// only validates reads the base URL alone).
pub struct SubmitOptions<C = Connection> {
    /// The kind of form.
    pub kind: TaskKind,
    /// Where requests go.
    pub connection: C,
    /// The request to start from; `initial: null` (what `reset()` asks for)
    /// or none is an empty form.
    pub initial: Option<Request>,
}

/// Read a submit widget's `options`; errors name the option.
pub fn submit_options(options: &JsValue) -> Result<SubmitOptions, JsValue> {
    read_submit_options(options, Connection::from_js)
}

/// [`submit_options`], with the connection read by `connect`.
fn read_submit_options<C>(
    options: &JsValue,
    connect: impl FnOnce(&JsValue) -> Result<C, JsValue>,
) -> Result<SubmitOptions<C>, JsValue> {
    let kind = parse_kind(&property(options, "kind"), "kind")?;
    let connection = connect(options)?;
    let initial = property(options, "initial");
    let initial = if initial.is_undefined() || initial.is_null() {
        None
    } else {
        Some(request_from_js(kind, &initial)?)
    };
    Ok(SubmitOptions {
        kind,
        connection,
        initial,
    })
}

/// A status widget's options (`C` as in [`SubmitOptions`]).
pub struct StatusOptions<C = Connection> {
    /// The tasks' kind.
    pub kind: TaskKind,
    /// The tasks followed: `taskId`, or `taskIds`.
    pub task_ids: Vec<String>,
    /// Where reads go.
    pub connection: C,
    /// The capability the site's gateway relays these tasks' callbacks
    /// under (`relay` of the submit widget's `media-gen-submitted`): they
    /// are then heard of, not read.
    pub relay: Option<String>,
}

/// Read a status widget's `options`; errors name the option.
pub fn status_options(options: &JsValue) -> Result<StatusOptions, JsValue> {
    read_status_options(options, Connection::from_js)
}

/// [`status_options`], with the connection read by `connect`.
fn read_status_options<C>(
    options: &JsValue,
    connect: impl FnOnce(&JsValue) -> Result<C, JsValue>,
) -> Result<StatusOptions<C>, JsValue> {
    Ok(StatusOptions {
        kind: parse_kind(&property(options, "kind"), "kind")?,
        task_ids: task_ids(options)?,
        connection: connect(options)?,
        relay: relay_option(options)?,
    })
}

/// The `relay` option: a submit's capability (`relay` of
/// `media-gen-submitted`); none when missing, `null` or empty. Anything
/// else is an error naming it.
pub fn relay_option(options: &JsValue) -> Result<Option<String>, JsValue> {
    match optional_string(options, "relay")? {
        Some(relay) if relay.is_empty() => Ok(None),
        Some(relay) if is_capability(&relay) => Ok(Some(relay)),
        Some(_) => Err(options_error(
            "relay",
            "must be the relay a submit named (32 lowercase hexadecimal digits)",
        )),
        None => Ok(None),
    }
}

/// The `kind: "options"` error naming `field` and its `rule`, as every
/// part of the package makes it (for the package's JavaScript: an element
/// a widget cannot mount in, a handle used after unmount).
#[cfg(feature = "exports")]
#[wasm_bindgen(js_name = optionsError, skip_typescript)]
pub fn options_error_js(field: &str, rule: &str) -> JsValue {
    super::bridge::options_error(field, rule)
}

/// Throw the `kind: "options"` error mounting a submit widget with
/// `options` would throw; nothing when they are right.
#[cfg(feature = "exports")]
#[wasm_bindgen(js_name = checkSubmitWidgetOptions, skip_typescript)]
pub fn check_submit_widget_options(options: JsValue) -> Result<(), JsValue> {
    read_submit_options(&options, Connection::check).map(drop)
}

/// Throw the `kind: "options"` error mounting a status widget with
/// `options` would throw; nothing when they are right.
#[cfg(feature = "exports")]
#[wasm_bindgen(js_name = checkStatusWidgetOptions, skip_typescript)]
pub fn check_status_widget_options(options: JsValue) -> Result<(), JsValue> {
    read_status_options(&options, Connection::check).map(drop)
}
