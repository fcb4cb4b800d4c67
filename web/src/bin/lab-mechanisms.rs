//! The page module for `?lab=mechanisms` alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::Mechanisms],
        dp_playground_web::labs::mechanisms,
    ));
}
