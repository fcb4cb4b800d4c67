//! The worker module of every job (the single-file build's; see the crate's docs).
dp_playground_worker::worker_module!(dp_playground::jobs::kind::ALL);
