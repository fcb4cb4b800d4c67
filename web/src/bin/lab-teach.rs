//! The page module for `?lab=teach` (and the bare address with `tasks=`) alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::Teach],
        dp_playground_web::labs::teach,
    ));
}
