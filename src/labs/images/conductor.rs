//! The page's side of a run split over a gang of workers ([`super::mesh`]): the stretches it starts,
//! and what the members' reports mean.

use super::jobs::{Digit, EpochPoint};
use super::mesh::{Chunk, Stepped, Stretch, CHECKPOINT_EVERY};
use super::ImagesParams;
use serde_bytes::ByteBuf;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a report meant, for the page.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// Steps done.
    Progress(u64),
    /// An epoch ended.
    Epoch(EpochPoint),
    /// The stretch ended: the mistakes.
    Mistakes(Vec<Digit>),
}

/// The page's side of a run split into `parts`: the stretches to start and what their reports mean.
#[derive(Debug, Clone)]
pub struct Conductor {
    params: ImagesParams,
    data: u64,
    parts: usize,
    last: u64,
    /// The last checkpoint part 0 reported (postcard bytes, shared with the page's pause rather than
    /// copied) and its step.
    at: Arc<Vec<u8>>,
    saved: u64,
    /// Each epoch's end still waiting for some parts' test chunks: the chunks so far, and how many
    /// parts reported.
    testing: BTreeMap<u64, (Vec<Chunk>, usize)>,
    /// Part 0's mistakes at the stretch's end and its step, held until that epoch's point is out
    /// (the events come in one order on any number of parts).
    mistakes: Option<(u64, Vec<Digit>)>,
}

impl Conductor {
    /// A run on the files named `data`, from checkpoint `at` (postcard bytes of an
    /// [`ImagesCheckpoint`](super::jobs::ImagesCheckpoint) at `step`) to the end of epoch `until`
    /// (at most the link's), cut into `parts` (at least 1).
    pub fn new(
        params: ImagesParams,
        data: u64,
        parts: usize,
        (at, step): (Vec<u8>, u64),
        until: u64,
    ) -> Self {
        let last = until.min(params.epochs) * params.steps_per_epoch();
        Conductor {
            params,
            data,
            parts: parts.max(1),
            last,
            at: Arc::new(at),
            saved: step,
            testing: BTreeMap::new(),
            mistakes: None,
        }
    }

    /// Parts of the run (workers of its gang).
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// The last checkpoint and its step (for a pause: at most [`CHECKPOINT_EVERY`] − 1 steps
    /// before the last finished one).
    pub fn checkpoint(&self) -> (Arc<Vec<u8>>, u64) {
        (self.at.clone(), self.saved)
    }

    /// Every part's job, in part order: the stretch from the last checkpoint to the end.
    pub fn stretches(&self) -> Vec<Stretch> {
        (0..self.parts)
            .map(|part| Stretch {
                params: self.params.clone(),
                data: self.data,
                at: ByteBuf::from(self.at.to_vec()),
                part,
                parts: self.parts,
                last: self.last,
                checkpoint_every: CHECKPOINT_EVERY,
            })
            .collect()
    }

    /// Takes part `part`'s report. An epoch's point is complete once every part has reported its
    /// test chunks (summed in chunk order: the same on any number of parts); the mistakes follow
    /// their epoch's point.
    pub fn take(&mut self, part: usize, mut r: Stepped) -> Vec<RunEvent> {
        let mut events = Vec::new();
        if part == 0 {
            if !r.at.is_empty() {
                self.at = Arc::new(std::mem::take(&mut r.at));
                self.saved = r.step;
            }
            events.push(RunEvent::Progress(r.step));
        }
        let per_epoch = self.params.steps_per_epoch();
        if r.step.is_multiple_of(per_epoch) {
            let (chunks, reported) = self.testing.entry(r.step).or_default();
            chunks.append(&mut r.tested);
            *reported += 1;
            if *reported == self.parts {
                let (mut chunks, _) = self.testing.remove(&r.step).unwrap_or_default();
                chunks.sort_by_key(|c| c.0);
                let rows: u64 = chunks.iter().map(|c| c.3).sum();
                let right: u64 = chunks.iter().map(|c| c.2).sum();
                let loss: f64 = chunks.iter().map(|c| c.1).sum();
                events.push(RunEvent::Epoch(EpochPoint {
                    epoch: r.step / per_epoch,
                    step: r.step,
                    accuracy: right as f64 / rows as f64,
                    loss: loss / rows as f64,
                }));
            }
        }
        if let Some(m) = r.mistakes {
            self.mistakes = Some((r.step, m));
        }
        if let Some((step, _)) = &self.mistakes {
            if !self.testing.contains_key(step) {
                events.extend(self.mistakes.take().map(|(_, m)| RunEvent::Mistakes(m)));
            }
        }
        events
    }
}
