//! Training split over the worker pool, step by step (issue 52, item 3). Each step's batch is cut
//! into one contiguous share per worker; each worker sums its share's clipped gradients exactly
//! ([`crate::learning::clipped`]) and adds the noise of its share of the coordinates, each block's
//! from its own place in the step's stream; every worker then takes the same step from the merged
//! sum. Integer sums do not depend on how the batch and the coordinates were cut, so a seeded run is
//! the same, bit for bit, on any number of workers.
//!
//! A round is one job per worker: it finishes the previous step from the shares (when there are
//! any) and computes its share of the next; the page adds the shares up in between, in place (one
//! sum per worker to send, whatever their number). A worker keeps the run's prepared data
//! (`PREPARED`) and its checkpoint after the last step it took (`STATE`), so that a round sends each
//! worker the summed shares alone. A worker that lacks either (a new worker, or one that took
//! another part of the same round) answers [`ImagesUpdate::NeedFiles`] or [`ImagesUpdate::NeedState`]
//! and is sent them: the files, or the checkpoint part 0 returns every [`CHECKPOINT_EVERY`] steps
//! (the page rewinds to it when the step asked for is later). The page drives the rounds with a
//! [`Conductor`], which native tests drive the same way.

use super::jobs::{
    mistakes, Digit, EpochPoint, Features, ImageFiles, ImagesCheckpoint, ImagesUpdate,
};
use super::{check, ImageModel, ImagesParams};
use crate::error::Result;
use crate::jobs::{decode, encode};
use crate::learning::clipped::FixedSum;
use crate::learning::dpsgd::{evaluate_rows, Trainer};
use crate::learning::images::{ImageRows, ImageSplit};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// Steps between the checkpoints part 0 returns (and at each epoch's end and the stretch's): the
/// page needs one for a pause and for a worker that lost its state, not every step's (1.9 MB for the
/// MLP, a part 0 slower than the others). A pause resumes from the last one, bit for bit.
pub const CHECKPOINT_EVERY: u64 = 10;

/// Test rows per evaluation chunk: each part evaluates whole chunks, summed in chunk order, so the
/// mean test loss too is the same on any number of workers.
const TEST_CHUNK: usize = 500;

/// One worker's part of one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The link's parameters.
    pub params: ImagesParams,
    /// The page's name for the files it fetched (a worker keeps data prepared from them).
    pub data: u64,
    /// The files, for a worker that does not hold them.
    pub files: Option<Box<ImageFiles>>,
    /// The page's name for this run (a worker keeps its checkpoint per run and step).
    pub run: u64,
    /// The step the round starts from.
    pub step: u64,
    /// The run's checkpoint at `step` ([`ImagesCheckpoint`] as postcard bytes: the page passes it
    /// on without reading it), for a worker that does not hold it.
    pub at: Option<ByteBuf>,
    /// The sum of every part's share of step `at.step + 1` ([`FixedSum::to_bytes`]), when the round
    /// finishes that step.
    pub total: Option<ByteBuf>,
    /// This part, of `parts`.
    pub part: usize,
    /// Parts the batch is cut into.
    pub parts: usize,
    /// The step this stretch of the run ends at.
    pub last: u64,
    /// Part 0 returns its checkpoint after steps that are multiples of this (and at each epoch's
    /// end and the stretch's).
    pub checkpoint_every: u64,
}

/// What one part of a round sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundOut {
    /// Steps done after the round.
    pub step: u64,
    /// Part 0's checkpoint after the step it finished, when due (empty otherwise).
    #[serde(with = "serde_bytes")]
    pub at: Vec<u8>,
    /// Its share of the next step ([`FixedSum::to_bytes`]), unless the stretch is over.
    pub share: Option<ByteBuf>,
    /// At an epoch's end, the test chunks it evaluated: (chunk, loss sum, right, rows).
    pub tested: Vec<(usize, f64, u64, u64)>,
    /// Part 0, at the stretch's end: the first test images the model gets wrong.
    pub mistakes: Option<Vec<Digit>>,
}

/// The data a worker prepared for a run: its features, and the test images' pixels (for mistakes).
pub(super) struct Prepared {
    key: (u64, u64, ImageModel, u64),
    features: Features,
    test: ImageRows,
}

thread_local! {
    /// The last run's prepared data in this worker (a worker serves one page).
    static PREPARED: RefCell<Option<Rc<Prepared>>> = const { RefCell::new(None) };
    /// The run this worker last stepped, and its checkpoint after that step.
    static STATE: RefCell<Option<(u64, ImagesCheckpoint)>> = const { RefCell::new(None) };
}

/// Forgets this worker's prepared data (as a new worker would start).
#[cfg(test)]
pub(super) fn forget() {
    PREPARED.with_borrow_mut(|p| *p = None);
    STATE.with_borrow_mut(|s| *s = None);
}

/// A projection's identity: a hash of its bits (FNV-1a), 0 without one.
fn projection_key(c: &ImagesCheckpoint) -> u64 {
    c.projection.as_ref().map_or(0, |p| {
        p.directions.iter().fold(0xcbf2_9ce4_8422_2325, |h, v| {
            (h ^ v.to_bits()).wrapping_mul(0x0100_0000_01b3)
        })
    })
}

/// The run's data as this worker keeps it, or prepared from `files` (`None`: neither).
fn prepared(
    p: &ImagesParams,
    data: u64,
    c: &ImagesCheckpoint,
    files: Option<&ImageFiles>,
) -> Result<Option<Rc<Prepared>>> {
    let key = (data, p.rows, p.model, projection_key(c));
    if let Some(p) = PREPARED.with_borrow(|p| p.clone()).filter(|p| p.key == key) {
        return Ok(Some(p));
    }
    match files {
        Some(files) => Ok(Some(keep(p, data, c, files.parse()?))),
        None => Ok(None),
    }
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

/// Runs one part of a round: [`ImagesUpdate::Round`], or [`ImagesUpdate::NeedFiles`].
///
/// # Errors
/// Malformed files or bytes, parameters out of range, or a model that diverged.
pub fn run_round(r: &Round) -> Result<ImagesUpdate> {
    let p = &r.params;
    check(p)?;
    let kept = STATE.with_borrow_mut(|s| {
        s.take()
            .filter(|(run, c)| *run == r.run && c.at.step == r.step)
    });
    let mut c = match (kept, &r.at) {
        (Some((_, c)), _) => c,
        (None, Some(at)) => decode(at)?,
        (None, None) => return Ok(ImagesUpdate::NeedState),
    };
    let Some(data) = prepared(p, r.data, &c, r.files.as_deref())? else {
        // Kept for the answer with the files.
        STATE.with_borrow_mut(|s| *s = Some((r.run, c)));
        return Ok(ImagesUpdate::NeedFiles);
    };
    let arch = p.architecture();
    let mut trainer = Trainer::new(&arch, data.features.train(), p.hyper(), p.seed)?.exact();
    let per_epoch = p.steps_per_epoch();
    let finishing = r.total.is_some();
    if let Some(total) = &r.total {
        let total = FixedSum::from_bytes(total)?;
        trainer.set_lr(p.learning_rate(c.at.step as f64 / per_epoch as f64))?;
        trainer.finish(&mut c.at, &total)?;
    }
    let step = c.at.step;
    let share =
        (step < r.last).then(|| ByteBuf::from(trainer.share(&c.at, r.part, r.parts).0.to_bytes()));
    let test = data.features.test();
    let tested = if finishing && step.is_multiple_of(per_epoch) {
        let chunks = test.rows().div_ceil(TEST_CHUNK);
        let mine = chunks * r.part / r.parts..chunks * (r.part + 1) / r.parts;
        mine.map(|k| {
            let rows = k * TEST_CHUNK..((k + 1) * TEST_CHUNK).min(test.rows());
            let (loss, right) = evaluate_rows(&arch, &c.at.theta[0], test, rows.clone());
            (k, loss, right, rows.len() as u64)
        })
        .collect()
    } else {
        Vec::new()
    };
    let last_part = r.part == 0 && finishing && step == r.last;
    let due = step == r.last
        || step.is_multiple_of(per_epoch)
        || step.is_multiple_of(r.checkpoint_every.max(1));
    let out = RoundOut {
        step,
        at: if r.part == 0 && finishing && due {
            encode(&c)
        } else {
            Vec::new()
        },
        share,
        tested,
        mistakes: last_part.then(|| mistakes(&arch, &c.at.theta[0], test, &data.test)),
    };
    STATE.with_borrow_mut(|s| *s = Some((r.run, c)));
    Ok(ImagesUpdate::Round(Box::new(out)))
}

/// What a round meant, for the page.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// Steps done.
    Progress(u64),
    /// An epoch ended.
    Epoch(EpochPoint),
    /// The stretch ended: the mistakes.
    Mistakes(Vec<Digit>),
}

/// The page's side of a run split into `parts`: the rounds to send and what came back.
#[derive(Debug, Clone)]
pub struct Conductor {
    params: ImagesParams,
    data: u64,
    run: u64,
    parts: usize,
    last: u64,
    /// The last checkpoint part 0 returned (postcard bytes, shared with the page's pause rather than
    /// copied) and its step.
    at: Arc<Vec<u8>>,
    saved: u64,
    /// The last finished step.
    step: u64,
    /// The rounds' [`Round::checkpoint_every`]: [`CHECKPOINT_EVERY`], or 1 after a rewind.
    every: u64,
    /// The next step's summed shares, once a round computed them.
    total: Option<ByteBuf>,
}

impl Conductor {
    /// Run `run` from checkpoint `at` (postcard bytes of an [`ImagesCheckpoint`] at `step`) to the
    /// end of epoch `until` (at most the link's), cut into `parts` (at least 1); `run` names it to the
    /// workers (a new name for each start or resume).
    pub fn new(
        params: ImagesParams,
        (data, run): (u64, u64),
        parts: usize,
        at: Vec<u8>,
        step: u64,
        until: u64,
    ) -> Self {
        let last = until.min(params.epochs) * params.steps_per_epoch();
        Conductor {
            params,
            data,
            run,
            parts: parts.max(1),
            last,
            at: Arc::new(at),
            saved: step,
            step,
            every: CHECKPOINT_EVERY,
            total: None,
        }
    }

    /// Parts per round.
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// The last checkpoint, and its step (for a pause: at most [`CHECKPOINT_EVERY`] − 1 steps
    /// before the last finished one).
    pub fn checkpoint(&self) -> (Arc<Vec<u8>>, u64) {
        (self.at.clone(), self.saved)
    }

    /// Part `part`'s job of the next round (without the files; the checkpoint only in the first
    /// round, [`Conductor::with_state`] adds it), or `None` when the stretch is done.
    pub fn round(&self, part: usize) -> Option<Round> {
        (self.step < self.last || self.total.is_some()).then(|| Round {
            params: self.params.clone(),
            data: self.data,
            files: None,
            run: self.run,
            step: self.step,
            at: self
                .total
                .is_none()
                .then(|| ByteBuf::from(self.at.to_vec())),
            total: self.total.clone(),
            part,
            parts: self.parts,
            last: self.last,
            checkpoint_every: self.every,
        })
    }

    /// `round` with the checkpoint it starts from, for a worker that does not hold it; `None` when
    /// the page holds no checkpoint of that step (then [`Conductor::rewind`]).
    pub fn with_state(&self, mut round: Round) -> Option<Round> {
        (round.step == self.saved).then(|| {
            round.at = Some(ByteBuf::from(self.at.to_vec()));
            round
        })
    }

    /// Goes back to the last checkpoint, for a worker that lost its state between two: the next
    /// round sends it to every part, and from then on part 0 returns one every step (so that a worker
    /// lost again costs one step, not a rewind). The run's bits do not change.
    pub fn rewind(&mut self) {
        self.step = self.saved;
        self.total = None;
        self.every = 1;
    }

    /// Takes a round's answers, in part order: adds up their shares of the next step (integers: in
    /// any order, the same sum).
    ///
    /// # Errors
    /// Shares that are not sums of the same shape.
    pub fn take(&mut self, mut outs: Vec<RoundOut>) -> Result<Vec<RunEvent>> {
        let mut events = Vec::new();
        if let Some(first) = outs.first_mut().filter(|_| self.total.is_some()) {
            if !first.at.is_empty() {
                self.at = Arc::new(std::mem::take(&mut first.at));
                self.saved = first.step;
            }
            self.step = first.step;
            events.push(RunEvent::Progress(self.step));
        }
        let mut shares = outs.iter_mut().filter_map(|o| o.share.take());
        self.total = match shares.next() {
            Some(mut total) => {
                for s in shares {
                    FixedSum::add_bytes(&mut total, &s)?;
                }
                Some(total)
            }
            None => None,
        };
        let mut chunks: Vec<_> = outs.iter().flat_map(|o| o.tested.iter().copied()).collect();
        if !chunks.is_empty() {
            chunks.sort_by_key(|c| c.0);
            let rows: u64 = chunks.iter().map(|c| c.3).sum();
            let right: u64 = chunks.iter().map(|c| c.2).sum();
            let loss: f64 = chunks.iter().map(|c| c.1).sum();
            events.push(RunEvent::Epoch(EpochPoint {
                epoch: self.step / self.params.steps_per_epoch(),
                step: self.step,
                accuracy: right as f64 / rows as f64,
                loss: loss / rows as f64,
            }));
        }
        if let Some(m) = outs.into_iter().find_map(|o| o.mistakes) {
            events.push(RunEvent::Mistakes(m));
        }
        Ok(events)
    }
}
