//! The data a worker keeps for a run: prepared once from the page's files (and the checkpoint's
//! projection), reused by every stretch of the same run in that worker.

use super::jobs::{Features, ImagesCheckpoint};
use super::{ImageModel, ImagesParams};
use crate::learning::images::{ImageRows, ImageSplit};
use std::cell::RefCell;
use std::rc::Rc;

/// The data a worker prepared for a run: its features, and the test images' pixels (for mistakes).
pub(super) struct Prepared {
    key: (u64, u64, ImageModel, u64),
    pub(super) features: Features,
    pub(super) test: ImageRows,
}

thread_local! {
    /// The last run's prepared data in this worker (a worker serves one page).
    static PREPARED: RefCell<Option<Rc<Prepared>>> = const { RefCell::new(None) };
}

/// Forgets this worker's prepared data (as a new worker would start).
#[cfg(test)]
pub(super) fn forget() {
    PREPARED.with_borrow_mut(|p| *p = None);
}

/// A projection's identity: a hash of its bits (FNV-1a), 0 without one.
fn projection_key(c: &ImagesCheckpoint) -> u64 {
    c.projection.as_ref().map_or(0, |p| {
        p.directions.iter().fold(0xcbf2_9ce4_8422_2325, |h, v| {
            (h ^ v.to_bits()).wrapping_mul(0x0100_0000_01b3)
        })
    })
}

/// The run's data as this worker keeps it (`None`: it holds none for this run).
pub(super) fn kept(p: &ImagesParams, data: u64, c: &ImagesCheckpoint) -> Option<Rc<Prepared>> {
    let key = (data, p.rows, p.model, projection_key(c));
    PREPARED.with_borrow(|p| p.clone()).filter(|p| p.key == key)
}

/// Prepares the run's data from the parsed files (and the checkpoint's projection) and keeps it in
/// this worker.
pub(super) fn keep(
    p: &ImagesParams,
    data: u64,
    c: &ImagesCheckpoint,
    split: ImageSplit,
) -> Rc<Prepared> {
    let key = (data, p.rows, p.model, projection_key(c));
    let train = split.train.first(p.rows as usize);
    let features = match &c.projection {
        Some(proj) if p.model == ImageModel::Abadi => {
            Features::Projected(proj.project(&train), proj.project(&split.test))
        }
        _ => Features::Pixels(train, split.test.clone()),
    };
    let ready = Rc::new(Prepared {
        key,
        features,
        test: split.test,
    });
    PREPARED.with_borrow_mut(|slot| *slot = Some(ready.clone()));
    ready
}
