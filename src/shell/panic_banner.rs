//! A panic stops the app; the page must not just go dead. The hook logs the
//! panic (console) and puts a banner on the page that says what happened and
//! what to do. It uses plain DOM calls: after a panic the app's own views
//! cannot be trusted to render.

use wasm_bindgen::JsValue;

/// The banner's element id.
pub const BANNER_ID: &str = "panic-banner";

/// Show the banner (once): what happened, that tasks are kept, and a reload link.
pub fn show(detail: &str) -> Result<(), JsValue> {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return Ok(());
    };
    if document.get_element_by_id(BANNER_ID).is_some() {
        return Ok(());
    }
    let banner = document.create_element("div")?;
    banner.set_id(BANNER_ID);
    banner.set_attribute("role", "alert")?;
    banner.set_class_name("panic-banner");
    let title = document.create_element("strong")?;
    title.set_text_content(Some("Something went wrong and this page stopped working."));
    let advice = document.create_element("p")?;
    advice.set_text_content(Some(
        "Your tasks are saved in this browser and will be followed again after a reload.",
    ));
    let reload = document.create_element("a")?;
    let here = web_sys::window()
        .and_then(|window| window.location().href().ok())
        .unwrap_or_else(|| "/".to_owned());
    reload.set_attribute("href", &here)?;
    reload.set_text_content(Some("Reload the page"));
    let details = document.create_element("details")?;
    let summary = document.create_element("summary")?;
    summary.set_text_content(Some("Details for a bug report"));
    let text = document.create_element("pre")?;
    text.set_text_content(Some(detail));
    details.append_child(&summary)?;
    details.append_child(&text)?;
    for child in [&title, &advice, &reload, &details] {
        banner.append_child(child)?;
    }
    let body = document
        .body()
        .ok_or_else(|| JsValue::from_str("no body"))?;
    body.prepend_with_node_1(&banner)?;
    Ok(())
}

/// Install the hook: the console message, then the banner.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let _ = show(&info.to_string());
    }));
}
