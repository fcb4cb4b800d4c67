//! The landing view's descriptor: no keys, no numbers, no worker.

use crate::labs::descriptor::{Formula, LabInfo, NumberSide};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Never,
    worker: None,
    shared_keys: &[],
    printed_keys: &[],
    optional_keys: &[],
    embed_height: 900,
};

/// No formulas of its own.
pub const FORMULAS: &[Formula] = &[];

/// No numbers of its own.
pub const SIDES: &[NumberSide] = &[];
