//! The playground's front end: thin leptos components over the core crate (`dp_playground`), with charts
//! drawn by plotters. Natively only [`charts`] builds, so that it can be smoke-tested with the SVG backend;
//! everything that touches the browser builds for wasm32 only.

pub mod charts;
pub mod format;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod draw_budget;
#[cfg(target_arch = "wasm32")]
mod fast_canvas;
#[cfg(target_arch = "wasm32")]
pub mod labs;
#[cfg(target_arch = "wasm32")]
mod pool;
#[cfg(target_arch = "wasm32")]
mod url;

/// Installs the panic hook (panics go to the console) and mounts the app, showing `labs`, on `<body>`.
#[cfg(target_arch = "wasm32")]
pub fn start(labs: labs::Labs) {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(move || leptos::view! { <app::App labs=labs /> });
}
