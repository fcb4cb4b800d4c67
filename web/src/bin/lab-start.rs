//! The page module for the landing view (`?lab=start`, the bare address) alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::Start],
        dp_playground_web::labs::start,
    ));
}
