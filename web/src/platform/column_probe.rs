//! How tall an embedded view is in a course page's column: the view itself, loaded in a hidden
//! iframe of the column's width, reports its height as it does to any host page
//! ([`crate::platform::browser::report_height_to_parent`]). The share panel's snippet takes that
//! height rather than the author's window's (a 1280 px window measured RR at 1 641 px where a 760 px
//! column needs 2 743).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// A hidden iframe showing one embed, and the listener for its height; both go when dropped.
pub struct ColumnProbe {
    frame: web_sys::HtmlIFrameElement,
    listener: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl ColumnProbe {
    /// Loads `src` in an iframe `width` CSS pixels wide, off screen, and calls `seen` with each height
    /// it reports. `None` where the page cannot host one.
    pub fn new(src: &str, width: u32, seen: impl Fn(u32) + 'static) -> Option<Self> {
        let window = web_sys::window()?;
        let document = window.document()?;
        let frame: web_sys::HtmlIFrameElement =
            document.create_element("iframe").ok()?.dyn_into().ok()?;
        let _ = frame.set_attribute(
            "style",
            &format!(
                "position:absolute;left:-20000px;top:0;width:{width}px;height:600px;border:0;visibility:hidden"
            ),
        );
        let _ = frame.set_attribute("aria-hidden", "true");
        let _ = frame.set_attribute("tabindex", "-1");
        let _ = frame.set_attribute("data-testid", "share-column-probe");
        frame.set_title("Measuring the embed's height");
        let target = frame.clone();
        let listener =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let (Some(source), Some(own)) = (e.source(), target.content_window()) else {
                    return;
                };
                if !js_sys::Object::is(source.as_ref(), own.as_ref()) {
                    return;
                }
                let data = e.data();
                let kind = js_sys::Reflect::get(&data, &JsValue::from_str("type")).ok();
                if kind.and_then(|k| k.as_string()).as_deref()
                    != Some(dp_playground::link::embed::HEIGHT_MESSAGE)
                {
                    return;
                }
                if let Some(h) = js_sys::Reflect::get(&data, &JsValue::from_str("height"))
                    .ok()
                    .and_then(|h| h.as_f64())
                    .filter(|h| h.is_finite() && *h > 0.0 && *h < 1e6)
                {
                    seen(h.ceil() as u32);
                }
            });
        window
            .add_event_listener_with_callback("message", listener.as_ref().unchecked_ref())
            .ok()?;
        frame.set_src(src);
        document.body()?.append_child(&frame).ok()?;
        Some(ColumnProbe { frame, listener })
    }
}

impl Drop for ColumnProbe {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "message",
                self.listener.as_ref().unchecked_ref(),
            );
        }
        self.frame.remove();
    }
}
