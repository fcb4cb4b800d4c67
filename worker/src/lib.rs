//! The web workers' modules: `run(job)` decodes a `dp_playground::jobs::Job`, runs it, and posts each
//! update back to the page as postcard bytes (the buffer is transferred, not copied). One module per
//! `dp_playground::jobs::WorkerModule` (`src/bin/`: a lab's page loads only its group's), and one of
//! every job (`src/main.rs`, for the single-file build). The page's pool (web/pool-start.js,
//! web/src/platform/pool.rs) starts each worker from a Blob holding wasm-bindgen's no-modules glue and
//! a bootstrap, so it works from any sub-path, in cross-origin iframes and from file://, with no
//! special headers.

/// Runs one encoded job of the kinds `KINDS` (`dp_playground::jobs::kind`) to the end, posting every
/// update.
#[cfg(target_arch = "wasm32")]
pub fn serve<const KINDS: u32>(job: &[u8]) {
    use dp_playground::jobs::{decode, encode, run_only, Job, Update};
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let mut post = |u: Update| {
        let bytes = js_sys::Uint8Array::from(&encode(&u)[..]);
        let transfer = js_sys::Array::of1(&bytes.buffer());
        // A closed page cannot receive anything: nothing to do about a failed post.
        let _ = scope.post_message_with_transfer(&bytes, &transfer);
    };
    match decode::<Job>(job) {
        Ok(job) => run_only::<KINDS>(job, &mut post),
        Err(e) => post(Update::Error(e)),
    }
}

/// A worker module's entry point: `worker_module!(kinds)` exports `run` for jobs of those kinds.
#[macro_export]
macro_rules! worker_module {
    ($kinds:expr) => {
        #[cfg(target_arch = "wasm32")]
        mod exported {
            use wasm_bindgen::prelude::*;

            /// Runs one encoded job to the end, posting every update.
            #[wasm_bindgen]
            pub fn run(job: &[u8]) {
                $crate::serve::<{ $kinds }>(job)
            }
        }

        // Natively an empty program (so `cargo test --workspace` builds it).
        fn main() {}
    };
}
