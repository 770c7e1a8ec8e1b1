//! A widget's place in the page: a shadow root on the host element (so the
//! page's styles and the widget's stay apart), the widgets' stylesheet (one
//! constructed sheet every widget's shadow root adopts), and
//! a Leptos view under its own owner, so unmounting removes every node,
//! effect, timer and listener it made.

use std::any::Any;

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, ShadowRoot, ShadowRootInit, ShadowRootMode};

/// The widgets' styles: the shared views' (`media-gen-ui`), with the design
/// tokens taken from the page's `--media-gen-*` custom properties.
const STYLES: &str = concat!(
    include_str!("../style/widget.css"),
    include_str!("../../ui/style/ui.css")
);

thread_local! {
    /// The one stylesheet every widget adopts, made on the first mount;
    /// `None` where the browser cannot construct stylesheets.
    static SHEET: Option<JsValue> = constructed_sheet();
}

/// `new CSSStyleSheet()` holding [`STYLES`].
fn constructed_sheet() -> Option<JsValue> {
    let global = js_sys::global();
    let constructor: js_sys::Function =
        js_sys::Reflect::get(&global, &JsValue::from_str("CSSStyleSheet"))
            .ok()?
            .dyn_into()
            .ok()?;
    let sheet = js_sys::Reflect::construct(&constructor, &js_sys::Array::new()).ok()?;
    let replace: js_sys::Function = js_sys::Reflect::get(&sheet, &JsValue::from_str("replaceSync"))
        .ok()?
        .dyn_into()
        .ok()?;
    replace.call1(&sheet, &JsValue::from_str(STYLES)).ok()?;
    Some(sheet)
}

/// Give `root` the widgets' styles: the shared sheet where the browser
/// adopts sheets, else a `<style>` of its own (returned, to remove it with
/// the widget).
fn style(root: &ShadowRoot) -> Result<Option<Element>, JsValue> {
    let adopted = SHEET.with(|sheet| {
        sheet.as_ref().is_some_and(|sheet| {
            js_sys::Reflect::set(
                root,
                &JsValue::from_str("adoptedStyleSheets"),
                &js_sys::Array::of1(sheet),
            )
            .unwrap_or(false)
        })
    });
    if adopted {
        return Ok(None);
    }
    let document = window()
        .document()
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let style = document.create_element("style")?;
    style.set_text_content(Some(STYLES));
    root.append_child(&style)?;
    Ok(Some(style))
}

/// The element's open shadow root, made when it has none.
fn shadow_root(element: &Element) -> Result<ShadowRoot, JsValue> {
    match element.shadow_root() {
        Some(root) => Ok(root),
        None => element.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open)),
    }
}

/// A mounted widget.
pub struct Mounted {
    owner: Owner,
    container: HtmlElement,
    view: Option<Box<dyn Any>>,
    nodes: Vec<Element>,
    /// A status widget's watches (the client entry's `TaskWatch`es);
    /// stopped on unmount.
    pub watches: Vec<JsValue>,
    /// What a status widget's watches tell; dropped once they are stopped.
    pub on_update: Option<wasm_bindgen::closure::Closure<dyn Fn(JsValue)>>,
}

impl Mounted {
    /// Make `element`'s shadow root ready for a widget, replacing what was there.
    pub fn new(element: &Element) -> Result<Mounted, JsValue> {
        let root = shadow_root(element)?;
        root.set_inner_html("");
        let mut nodes: Vec<Element> = style(&root)?.into_iter().collect();
        let document = window()
            .document()
            .ok_or_else(|| JsValue::from_str("no document"))?;
        let container: HtmlElement = document.create_element("div")?.unchecked_into();
        container.set_class_name("media-gen");
        container.set_attribute("part", "root")?;
        root.append_child(&container)?;
        nodes.push(container.clone().unchecked_into());
        Ok(Mounted {
            owner: Owner::new(),
            container,
            view: None,
            nodes,
            watches: Vec::new(),
            on_update: None,
        })
    }

    /// Run `f` under the widget's owner: signals made there go with it.
    pub fn with<T>(&self, f: impl FnOnce() -> T) -> T {
        self.owner.with(f)
    }

    /// Render `view` in the widget.
    pub fn show<V: IntoView + 'static>(&mut self, view: impl FnOnce() -> V + 'static) {
        let container = self.container.clone();
        let handle = self.owner.with(|| leptos::mount::mount_to(container, view));
        self.view = Some(Box::new(handle));
    }

    /// Take it all down: requests and timers stop, nodes go.
    pub fn unmount(mut self) {
        for watch in self.watches.drain(..) {
            let stop = media_gen_js::object::property(&watch, "stop");
            if let Ok(stop) = stop.dyn_into::<js_sys::Function>() {
                let _ = stop.call0(&watch);
            }
        }
        drop(self.on_update.take());
        // The view's elements leave before its signals are disposed: taking
        // out a focused field fires its `focusout` and `change` handlers,
        // which must still find their signals (a page unmounting a widget
        // while someone types in it).
        drop(self.view.take());
        self.owner.cleanup();
        for node in &self.nodes {
            node.remove();
        }
    }
}
