//! The few browser calls the components need, each failing softly (a missing API never panics).

use wasm_bindgen::JsCast;

/// Milliseconds since page load, for the timings the page shows.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The page's full address, as the user would share it.
pub fn current_href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Loads the page again, so that `index.html` picks the module holding the lab `key` (a lab another
/// module holds was opened by a link inside the page). A link whose first `lab` value is not exactly
/// `key` (written in a way `index.html` might read differently) is first rewritten to the plain key, so
/// the loader and the core always agree and the page cannot reload in a loop.
pub fn load_module_for(key: &str) {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let mut query =
        dp_playground::link::query::Query::parse(&location.search().unwrap_or_default());
    if query.get("lab") == Some(key) {
        let _ = location.reload();
    } else {
        query.set("lab", key);
        let pathname = location.pathname().unwrap_or_default();
        let href = dp_playground::link::href::same_page_href(&pathname, &query.to_query_string());
        let _ = location.replace(&href);
    }
}

/// Copies `text` to the clipboard; resolves to whether it worked.
pub async fn copy_text(text: String) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Offers `contents` as a file download named `filename`.
pub fn download(filename: &str, mime: &str, contents: &str) {
    let result = (|| -> Option<()> {
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(contents));
        let options = web_sys::BlobPropertyBag::new();
        options.set_type(mime);
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
        let anchor: web_sys::HtmlAnchorElement = web_sys::window()?
            .document()?
            .create_element("a")
            .ok()?
            .dyn_into()
            .ok()?;
        anchor.set_href(&url);
        anchor.set_download(filename);
        anchor.click();
        web_sys::Url::revoke_object_url(&url).ok()
    })();
    if result.is_none() {
        leptos::logging::warn!("could not offer {filename} for download");
    }
}

/// A fresh random seed from the browser's crypto API (0 if it is unavailable).
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes) % 1_000_000_000,
        Err(_) => 0,
    }
}

/// The device-pixel ratio (1 where unknown).
pub fn device_pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0)
}

/// In an iframe, tells the parent page this document's height whenever it changes (a `postMessage`
/// of `{type: "dp-playground:height", height}` to any origin: the height is not a secret, and the
/// embedding page may live anywhere). Does nothing outside an iframe.
///
/// A ResizeObserver reports changes, but browsers skip rendering (and so resize observations) in
/// cross-origin iframes scrolled out of view, so a once-a-second check backs it up.
pub fn report_height_to_parent() {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsValue;
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    // The body's own height, not the document's scroll height: that is at least the frame's height,
    // so once the host had grown the frame it never shrank again (200–440 px of blank after a panel
    // closed).
    let Some(body) = window.document().and_then(|d| d.body()) else {
        return;
    };
    let last = Rc::new(Cell::new(-1));
    let measured = body.clone();
    let send = Closure::<dyn FnMut()>::new(move || {
        let height = measured.get_bounding_client_rect().height().ceil() as i32;
        if height == last.get() {
            return;
        }
        last.set(height);
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(
            &message,
            &"type".into(),
            &dp_playground::link::embed::HEIGHT_MESSAGE.into(),
        );
        let _ = js_sys::Reflect::set(&message, &"height".into(), &JsValue::from(height));
        let _ = parent.post_message(&message, "*");
    });
    let callback: &js_sys::Function = send.as_ref().unchecked_ref();
    let _ = callback.call0(&JsValue::NULL);
    {
        if let Ok(observer) = web_sys::ResizeObserver::new(callback) {
            observer.observe(&body);
            // The observer lives as long as the page (a dropped handle could let it be collected).
            std::mem::forget(observer);
        }
    }
    let _ = window.set_interval_with_callback_and_timeout_and_arguments_0(callback, 1000);
    send.forget();
}

/// Watches an element's content width (CSS pixels) with a ResizeObserver, which reports after the
/// browser's own layout (so the reader never forces one); stops watching when dropped.
pub struct WidthObserver {
    observer: web_sys::ResizeObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl WidthObserver {
    /// Calls `seen` with the width now (at the next layout) and after every change; `None` if the
    /// browser has no ResizeObserver.
    pub fn new(el: &web_sys::Element, seen: impl Fn(f64) + 'static) -> Option<Self> {
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let last = entries.get(entries.length().saturating_sub(1));
                if let Ok(entry) = last.dyn_into::<web_sys::ResizeObserverEntry>() {
                    seen(entry.content_rect().width());
                }
            },
        );
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(el);
        Some(WidthObserver {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for WidthObserver {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Watches whether an element is within `margin` CSS pixels of the viewport (an IntersectionObserver,
/// which reports after the browser's own layout); stops watching when dropped.
pub struct ViewObserver {
    observer: web_sys::IntersectionObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl ViewObserver {
    /// Calls `seen` with whether the element is in view now (at the next layout) and after every
    /// change; `None` if the browser has no IntersectionObserver.
    pub fn new(el: &web_sys::Element, margin: f64, seen: impl Fn(bool) + 'static) -> Option<Self> {
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let last = entries.get(entries.length().saturating_sub(1));
                if let Ok(entry) = last.dyn_into::<web_sys::IntersectionObserverEntry>() {
                    seen(entry.is_intersecting());
                }
            },
        );
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(&format!("{margin}px 0px"));
        let observer = web_sys::IntersectionObserver::new_with_options(
            callback.as_ref().unchecked_ref(),
            &options,
        )
        .ok()?;
        observer.observe(el);
        Some(ViewObserver {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for ViewObserver {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Offers a URL (a `data:` URL of a rendered image) as a file download named `filename`.
pub fn download_url(filename: &str, url: &str) {
    let anchor = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    match anchor {
        Some(a) => {
            a.set_href(url);
            a.set_download(filename);
            a.click();
        }
        None => leptos::logging::warn!("could not offer {filename} for download"),
    }
}

/// `canvas`'s 2-D drawing context (`None` where the browser gives none).
pub fn context_2d(
    canvas: &web_sys::HtmlCanvasElement,
) -> Option<web_sys::CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
}

/// A detached canvas element of the given pixel size (for exports drawn off screen).
pub fn offscreen_canvas(width: u32, height: u32) -> Option<web_sys::HtmlCanvasElement> {
    let canvas: web_sys::HtmlCanvasElement = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()?;
    canvas.set_width(width);
    canvas.set_height(height);
    Some(canvas)
}

/// Scrolls the element whose id or test id is `target` into view, opening any collapsed section
/// around it, and gives it the focus where it can take it.
pub fn bring_into_view(target: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let found = doc.get_element_by_id(target).or_else(|| {
        doc.query_selector(&format!("[data-testid=\"{target}\"]"))
            .ok()
            .flatten()
    });
    let Some(el) = found else { return };
    let mut up = el.parent_element();
    while let Some(p) = up {
        if let Ok(details) = p.clone().dyn_into::<web_sys::HtmlDetailsElement>() {
            details.set_open(true);
        }
        up = p.parent_element();
    }
    el.scroll_into_view();
    if let Ok(html) = el.dyn_into::<web_sys::HtmlElement>() {
        let _ = html.focus();
    }
}

/// The bytes of the gzip file at `address` (relative to the page), fetched (the browser's cache
/// keeps it) and decompressed by the browser's `DecompressionStream`: any static server will do, as
/// the files are served as they are.
///
/// # Errors
/// A failed request or status, or bytes that are not gzip, as a sentence.
pub async fn fetch_gunzip(address: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen_futures::JsFuture;
    let fail = |what: &str, e: wasm_bindgen::JsValue| {
        format!(
            "{address}: {what} ({})",
            e.as_string().unwrap_or_else(|| format!("{e:?}"))
        )
    };
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(address))
        .await
        .map_err(|e| fail("could not be fetched", e))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("{address}: HTTP {}", response.status()));
    }
    let body = response
        .body()
        .ok_or_else(|| format!("{address}: empty response"))?;
    // `new DecompressionStream('gzip')`, through Reflect: web-sys has it only behind its unstable
    // APIs' cfg. The stream is a {readable, writable} pair, which `pipeThrough` takes.
    let no_stream = |e| fail("no DecompressionStream in this browser", e);
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &"DecompressionStream".into())
            .map_err(no_stream)?
            .dyn_into()
            .map_err(no_stream)?;
    let pair: web_sys::ReadableWritablePair =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&"gzip".into()))
            .map_err(no_stream)?
            .unchecked_into();
    let plain = web_sys::Response::new_with_opt_readable_stream(Some(&body.pipe_through(&pair)))
        .map_err(|e| fail("could not be read", e))?;
    let buffer = JsFuture::from(
        plain
            .array_buffer()
            .map_err(|e| fail("could not be read", e))?,
    )
    .await
    .map_err(|e| fail("is not a gzip file", e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
