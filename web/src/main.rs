//! The all-labs page module, for the single-file build (each lab's own module is in `src/bin/`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::all());
}
