//! The page module for `?lab=images` alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::Images],
        dp_playground_web::labs::images,
    ));
}
