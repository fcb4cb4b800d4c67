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

/// The window's inner height in CSS pixels (a large value if unknown, so that charts still draw).
pub fn window_height() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(1e6)
}
