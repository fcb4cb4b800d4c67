//! The worker module of the labs whose jobs are `WorkerModule::Accounting`'s (see the crate's docs).
dp_playground_worker::worker_module!(dp_playground::jobs::WorkerModule::Accounting.kinds());
