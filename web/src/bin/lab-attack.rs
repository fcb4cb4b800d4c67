//! The page module for `?lab=attack` alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::Attack],
        dp_playground_web::labs::attack,
    ));
}
