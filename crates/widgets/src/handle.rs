//! `mountSubmitWidget`, `mountStatusWidget` and the handle they return.
//!
//! A mounted widget lives in a registry until `unmount()`, not in its handle:
//! a page that drops the handle (garbage collection frees it) keeps a working
//! widget, as it would keep any element it added. The package's JavaScript
//! handle (`npm/index.js`) unmounts when the page frees or disposes it.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::mounted::Mounted;
use super::page_client::PageClient;
use super::{status, submit};
use media_gen_js::object::has;
use media_gen_js::widget_options::submit_options;

/// Which widget a handle drives.
enum Widget {
    Submit(submit::Live),
    Status,
}

/// One mounted widget.
struct Entry {
    element: Element,
    options: JsValue,
    /// The client entry's `createClient`: each mount and update makes the
    /// widget's client with it.
    make_client: js_sys::Function,
    widget: Widget,
    mounted: Mounted,
}

thread_local! {
    /// Every mounted widget, by handle id.
    static WIDGETS: RefCell<HashMap<u32, Entry>> = RefCell::new(HashMap::new());
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

fn register(entry: Entry) -> WidgetHandle {
    let id = NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1));
        id
    });
    WIDGETS.with(|widgets| widgets.borrow_mut().insert(id, entry));
    WidgetHandle { id }
}

/// A mounted widget: `update(options)` changes it, `unmount()` removes it.
#[wasm_bindgen]
pub struct WidgetHandle {
    id: u32,
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
    #[wasm_bindgen(js_name = createClient)] make_client: js_sys::Function,
) -> Result<WidgetHandle, JsValue> {
    let (mounted, live) = submit::mount(&element, &options, &make_client)?;
    Ok(register(Entry {
        element,
        options,
        make_client,
        widget: Widget::Submit(live),
        mounted,
    }))
}

/// Mount the status view of `options.taskId` (or `taskIds`) of
/// `options.kind` into `element`, and follow the tasks until they end.
#[wasm_bindgen(js_name = mountStatusWidget)]
pub fn mount_status_widget(
    element: Element,
    #[wasm_bindgen(unchecked_param_type = "StatusWidgetOptions")] options: JsValue,
    #[wasm_bindgen(js_name = createClient)] make_client: js_sys::Function,
) -> Result<WidgetHandle, JsValue> {
    let mounted = status::mount(&element, &options, &make_client)?;
    Ok(register(Entry {
        element,
        options,
        make_client,
        widget: Widget::Status,
        mounted,
    }))
}

#[wasm_bindgen]
impl WidgetHandle {
    /// Change some options; the others stay. A submit widget keeps what was
    /// typed when only the connection changes (`baseUrl`, `token`,
    /// `getToken`); a new `kind` or `initial` starts the form again. A status
    /// widget follows the new tasks. Wrong options throw and leave the widget
    /// as it was.
    pub fn update(
        &self,
        #[wasm_bindgen(
            unchecked_param_type = "Partial<SubmitWidgetOptions> | Partial<StatusWidgetOptions>"
        )]
        options: JsValue,
    ) -> Result<(), JsValue> {
        let mut entry = WIDGETS
            .with(|widgets| widgets.borrow_mut().remove(&self.id))
            .ok_or_else(|| media_gen_js::bridge::options_error("widget", "is unmounted"))?;
        let result = update_entry(&mut entry, &options);
        WIDGETS.with(|widgets| widgets.borrow_mut().insert(self.id, entry));
        result
    }

    /// Remove the widget: its nodes, timers, listeners and requests end.
    /// Calling it again does nothing.
    pub fn unmount(&self) {
        let entry = WIDGETS.with(|widgets| widgets.borrow_mut().remove(&self.id));
        if let Some(entry) = entry {
            entry.mounted.unmount();
        }
    }
}

/// Apply `options` over the entry's; on error the entry is unchanged.
fn update_entry(entry: &mut Entry, options: &JsValue) -> Result<(), JsValue> {
    let next = merged(&entry.options, options);
    // Each branch reads all of `next` before it changes anything: wrong
    // options leave the widget as it was.
    match &entry.widget {
        Widget::Submit(live) => {
            let read = submit_options(&next)?;
            if !has(options, "initial") && read.kind == live.kind {
                let client = PageClient::make(&entry.make_client, &next)?;
                live.reconnect(read.connection, client);
            } else {
                let (mounted, live) = submit::mount(&entry.element, &next, &entry.make_client)?;
                std::mem::replace(&mut entry.mounted, mounted).unmount();
                entry.widget = Widget::Submit(live);
            }
        }
        Widget::Status => {
            let mounted = status::mount(&entry.element, &next, &entry.make_client)?;
            std::mem::replace(&mut entry.mounted, mounted).unmount();
        }
    }
    entry.options = next;
    Ok(())
}
