//! The page module for `?lab=rr` alone (see `labs.rs`).

fn main() {
    #[cfg(target_arch = "wasm32")]
    dp_playground_web::start(dp_playground_web::labs::Labs::some(
        &[dp_playground::labs::Lab::RandomizedResponse],
        dp_playground_web::labs::rr,
    ));
}
