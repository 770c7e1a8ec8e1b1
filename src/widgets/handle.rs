//! `mountSubmitWidget`, `mountStatusWidget` and the handle they return.

use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::connection::{has, property, Connection};
use super::js_client::parse_kind;
use super::mounted::Mounted;
use super::{status, submit};

/// Which widget a handle drives.
enum Widget {
    Submit(submit::Live),
    Status,
}

/// A mounted widget: `update(options)` changes it, `unmount()` removes it.
#[wasm_bindgen]
pub struct WidgetHandle {
    element: Element,
    options: JsValue,
    widget: Widget,
    mounted: Option<Mounted>,
}

/// `Object.assign({}, old, new)`: options given to `update` replace those given before.
fn merged(old: &JsValue, new: &JsValue) -> JsValue {
    let target = js_sys::Object::new();
    let target = js_sys::Object::assign(&target, &js_sys::Object::from(old.clone()));
    js_sys::Object::assign(&target, &js_sys::Object::from(new.clone())).into()
}

/// Mount the submit form for `options.kind` into `element` (in its shadow
/// root). Options: `kind`, `baseUrl`, `token` or `getToken`, `initial` (a
/// request to start from). Throws an `Error` naming the field when the
/// options are wrong.
#[wasm_bindgen(js_name = mountSubmitWidget)]
pub fn mount_submit_widget(
    element: Element,
    #[wasm_bindgen(unchecked_param_type = "SubmitWidgetOptions")] options: JsValue,
) -> Result<WidgetHandle, JsValue> {
    let (mounted, live) = submit::mount(&element, &options)?;
    Ok(WidgetHandle {
        element,
        options,
        widget: Widget::Submit(live),
        mounted: Some(mounted),
    })
}

/// Mount the status view of `options.taskId` (or `taskIds`) of
/// `options.kind` into `element`, and follow the tasks until they end.
#[wasm_bindgen(js_name = mountStatusWidget)]
pub fn mount_status_widget(
    element: Element,
    #[wasm_bindgen(unchecked_param_type = "StatusWidgetOptions")] options: JsValue,
) -> Result<WidgetHandle, JsValue> {
    let mounted = status::mount(&element, &options)?;
    Ok(WidgetHandle {
        element,
        options,
        widget: Widget::Status,
        mounted: Some(mounted),
    })
}

#[wasm_bindgen]
impl WidgetHandle {
    /// Change some options; the others stay. A submit widget keeps what was
    /// typed when only the connection changes (`baseUrl`, `token`,
    /// `getToken`); a new `kind` or `initial` starts the form again. A status
    /// widget follows the new tasks. Throws on wrong options and then keeps
    /// the widget as it was.
    pub fn update(
        &mut self,
        #[wasm_bindgen(
            unchecked_param_type = "Partial<SubmitWidgetOptions> | Partial<StatusWidgetOptions>"
        )]
        options: JsValue,
    ) -> Result<(), JsValue> {
        if self.mounted.is_none() {
            return Err(super::bridge::options_error("widget", "is unmounted"));
        }
        let next = merged(&self.options, &options);
        match &self.widget {
            Widget::Submit(live)
                if !has(&options, "initial")
                    && parse_kind(&property(&next, "kind"), "kind")? == live.kind =>
            {
                live.reconnect(Connection::from_js(&next)?);
            }
            Widget::Submit(_) => {
                // Check first: a wrong option leaves the widget as it was.
                parse_kind(&property(&next, "kind"), "kind")?;
                Connection::from_js(&next)?;
                self.unmount_inner();
                let (mounted, live) = submit::mount(&self.element, &next)?;
                self.mounted = Some(mounted);
                self.widget = Widget::Submit(live);
            }
            Widget::Status => {
                parse_kind(&property(&next, "kind"), "kind")?;
                Connection::from_js(&next)?;
                self.unmount_inner();
                self.mounted = Some(status::mount(&self.element, &next)?);
            }
        }
        self.options = next;
        Ok(())
    }

    /// Remove the widget: its nodes, timers, listeners and requests end.
    /// Calling it again does nothing.
    pub fn unmount(&mut self) {
        self.unmount_inner();
    }

    fn unmount_inner(&mut self) {
        if let Some(mounted) = self.mounted.take() {
            mounted.unmount();
        }
    }
}
