//! The web worker's module: `run(job)` decodes a `dp_playground::jobs::Job`, runs it, and posts each
//! update back to the page as postcard bytes (the buffer is transferred, not copied). The page's pool
//! (web/src/platform/pool.rs) starts the worker from a Blob holding wasm-bindgen's no-modules glue and a short
//! bootstrap, and hands it the already compiled module, so it works from any sub-path, in cross-origin
//! iframes and from file://, with no special headers.

#[cfg(target_arch = "wasm32")]
mod worker {
    use dp_playground::jobs::{decode, encode, run as run_job, Job, Update};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// Runs one encoded job to the end, posting every update.
    #[wasm_bindgen]
    pub fn run(job: &[u8]) {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let mut post = |u: Update| {
            let bytes = js_sys::Uint8Array::from(&encode(&u)[..]);
            let transfer = js_sys::Array::of1(&bytes.buffer());
            // A closed page cannot receive anything: nothing to do about a failed post.
            let _ = scope.post_message_with_transfer(&bytes, &transfer);
        };
        match decode::<Job>(job) {
            Ok(job) => run_job(job, &mut post),
            Err(e) => post(Update::Error(e)),
        }
    }
}

fn main() {}
