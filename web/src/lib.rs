//! The playground's front end: thin leptos components over the core crate (`dp_playground`), with charts
//! drawn by plotters. Natively only [`charts`] and [`format`](mod@format) build, so that the charts can be
//! smoke-tested with the SVG backend; everything that touches the browser builds for wasm32 only.
//!
//! - `labs/<lab>/`: one folder per lab, the same names as the core's `labs/` (`mod.rs` the page,
//!   `controls.rs` and `results.rs` its parts); `labs/mod.rs` lists them for the page modules.
//! - `widgets/`: fields bound to the link, stats, notices, canvases, the share panel.
//! - `platform/`: browser glue (URL state, worker pool, timers, drawing budget, canvas text).
//! - [`charts`]: plotters drawings generic over the backend, from data the core computed.
//! - `bin/lab-<lab>.rs`: one page module per lab; `main.rs` holds every lab (the single-file build).

pub mod charts;
pub mod format;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
pub mod labs;
#[cfg(target_arch = "wasm32")]
mod platform;
#[cfg(target_arch = "wasm32")]
mod widgets;

/// Installs the panic hook (panics go to the console) and mounts the app, showing `labs`, on `<body>`.
#[cfg(target_arch = "wasm32")]
pub fn start(labs: labs::Labs) {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(move || leptos::view! { <app::App labs=labs /> });
}
