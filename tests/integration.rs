//! The native integration tests, built as one binary (each file below is a module): one link
//! rather than one per file, which CI's clean build pays for. `cargo test --test integration
//! <module>` runs one file's tests.

mod accountant_reference;
mod allocation;
mod attack_reference;
mod audit_soundness;
mod compose_invariants;
mod dpsgd_accounting;
mod golden_numbers;
mod lab_keys;
mod replace_one;
mod rr_statistics;
mod samplers;
mod shuffle_reference;
mod truncated;
mod users_tuning;
mod wdp_reference;
