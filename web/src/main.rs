//! Entry point: the panic hook, then the app.

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start();
}
