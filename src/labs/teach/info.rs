//! The teaching view's descriptor: its keys (a problem set's), no numbers; the training lab's worker
//! module, for the exercises a training run answers (started only when one is checked).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{Formula, LabInfo, NumberSide};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Never,
    worker: Some(WorkerModule::Train),
    shared_keys: &[],
    printed_keys: &[],
    optional_keys: &["tasks", "seed", "vary"],
    embed_height: 1600,
};

/// No formulas of its own.
pub const FORMULAS: &[Formula] = &[];

/// No numbers of its own.
pub const SIDES: &[NumberSide] = &[];
