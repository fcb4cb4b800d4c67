//! The worker module of the labs whose jobs are `WorkerModule::Images`'s (see the crate's docs).
dp_playground_worker::worker_module!(dp_playground::jobs::WorkerModule::Images.kinds());
