//! Training split over the worker pool, the workers passing the shares among themselves (issue 52,
//! item 3). Each step's batch is cut into one contiguous share per worker, sized by the workers'
//! measured speeds ([`Balance`]); each worker sums its share's clipped gradients exactly
//! ([`crate::learning::clipped`]) and adds the noise of its share of the coordinates, each block's
//! from its own place in the step's stream. It sends the share to every other worker of the run (a
//! gang: [`crate::jobs::gang`]), adds theirs to its own, and takes the step. Integer sums do not
//! depend on how the batch and the coordinates were cut, nor on the order the shares arrive in, so
//! every worker holds the same model and a seeded run is the same, bit for bit, on any number of
//! workers.
//!
//! The page's thread carries no share: it starts the run's [`Stretch`] on each worker, sends the
//! files to a worker that asks ([`ImagesUpdate::NeedFiles`]), and reads small reports
//! ([`Stepped`]): part 0's progress every step and its checkpoint every [`CHECKPOINT_EVERY`] steps,
//! every part's test chunks at each epoch's end. A [`Conductor`] (the page's side, which native tests
//! drive the same way) turns them into events. Until stage 64 the page relayed every share (four
//! 1.9 MB messages a step on two workers for the MLP): a third of a core on a two-core machine.

use super::jobs::{
    mistakes, Digit, EpochPoint, Features, ImageFiles, ImagesCheckpoint, ImagesUpdate,
};
use super::{check, ImageModel, ImagesParams};
use crate::error::{Error, Result};
use crate::jobs::gang::{Balance, Clock, GangMember, GangOut};
use crate::jobs::{decode, encode};
use crate::learning::clipped::FixedSum;
use crate::learning::data::Examples;
use crate::learning::dpsgd::{evaluate_rows, Trainer};
use crate::learning::images::{ImageRows, ImageSplit};
use crate::learning::model::Architecture;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// Steps between the checkpoints part 0 reports (and at each epoch's end and the stretch's): the
/// page needs one for a pause, not every step's (1.9 MB for the MLP). A pause resumes from the last
/// one, bit for bit.
pub const CHECKPOINT_EVERY: u64 = 10;

/// Test rows per evaluation chunk: each part evaluates whole chunks, summed in chunk order, so the
/// mean test loss too is the same on any number of workers.
const TEST_CHUNK: usize = 500;

/// One worker's part of a run, from a checkpoint to the stretch's last step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stretch {
    /// The link's parameters.
    pub params: ImagesParams,
    /// The page's name for the files it fetched (a worker keeps data prepared from them).
    pub data: u64,
    /// The run's checkpoint the stretch starts from ([`ImagesCheckpoint`] as postcard bytes: the
    /// page passes it on without reading it).
    pub at: ByteBuf,
    /// This part, of `parts`.
    pub part: usize,
    /// Parts the batch is cut into (the gang's workers).
    pub parts: usize,
    /// The step the stretch ends at.
    pub last: u64,
    /// Part 0 reports its checkpoint after steps that are multiples of this (and at each epoch's
    /// end and the stretch's).
    pub checkpoint_every: u64,
}

/// What a part reports after a step: part 0 after every step, the others at each epoch's end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stepped {
    /// Steps done.
    pub step: u64,
    /// Part 0's checkpoint after the step, when due (empty otherwise).
    #[serde(with = "serde_bytes")]
    pub at: Vec<u8>,
    /// At an epoch's end, the test chunks it evaluated: (chunk, loss sum, right, rows).
    pub tested: Vec<Chunk>,
    /// Part 0, at the stretch's end: the first test images the model gets wrong.
    pub mistakes: Option<Vec<Digit>>,
}

/// A test chunk's evaluation: (chunk, loss sum, right, rows).
pub type Chunk = (usize, f64, u64, u64);

/// A part's share of a step, as the other parts read it, in place (postcard: two varints, the time,
/// then the sum's bytes after their length).
#[derive(Debug, Serialize, Deserialize)]
struct Share<'a> {
    /// The step it is a share of.
    step: u64,
    /// Whose.
    part: usize,
    /// Milliseconds its part took (for the next step's split: [`Balance`]).
    took: f64,
    /// [`FixedSum::to_bytes`].
    #[serde(with = "serde_bytes")]
    sum: &'a [u8],
}

impl Share<'_> {
    /// The message of part `part`'s share `sum` of step `step`, which took `took` ms: [`Share`]'s
    /// postcard bytes, the sum written once, straight after the header (not formed, then copied).
    fn message(step: u64, part: usize, took: f64, sum: &FixedSum) -> Vec<u8> {
        let mut bytes = encode(&(step, part, took, sum.byte_len()));
        sum.write_bytes(&mut bytes);
        bytes
    }
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
fn kept(p: &ImagesParams, data: u64, c: &ImagesCheckpoint) -> Option<Rc<Prepared>> {
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

/// One worker's part of a stretch: it waits for the files if it lacks them, then steps as the
/// shares arrive.
pub struct Member {
    s: Stretch,
    arch: Architecture,
    c: ImagesCheckpoint,
    data: Option<Rc<Prepared>>,
    /// Its own share of the next step, with the others' added as they came.
    total: Option<FixedSum>,
    /// For each part whose share `total` holds, the milliseconds it took.
    counted: Vec<Option<f64>>,
    /// Shares of the step after the next, from faster parts, with their times.
    early: BTreeMap<usize, (Vec<u8>, f64)>,
    /// How the batch is split between the parts (the same in every part).
    balance: Balance,
    /// Times its own shares.
    clock: Clock,
}

impl Member {
    /// Starts part `s.part`: asks the page for the files if this worker does not hold the run's
    /// data, else computes and sends its first share (and, alone, runs the whole stretch). It times
    /// its shares on `clock`, which moves the split of the batch but never the run's bits.
    ///
    /// # Errors
    /// Parameters out of range, a malformed checkpoint, or a model that diverged.
    pub fn start(
        s: Stretch,
        clock: Clock,
        out: &mut dyn FnMut(GangOut<ImagesUpdate>),
    ) -> Result<Self> {
        check(&s.params)?;
        if s.parts == 0 || s.part >= s.parts {
            return Err(Error::invalid(
                "part",
                s.part,
                format!("a run of {} parts has no such part", s.parts),
            ));
        }
        let c: ImagesCheckpoint = decode(&s.at)?;
        let data = kept(&s.params, s.data, &c);
        let mut m = Member {
            arch: s.params.architecture(),
            counted: vec![None; s.parts],
            balance: Balance::even(s.parts),
            clock,
            s: Stretch {
                at: ByteBuf::new(),
                ..s
            },
            c,
            data,
            total: None,
            early: BTreeMap::new(),
        };
        if m.data.is_none() {
            out(GangOut::Page(ImagesUpdate::NeedFiles));
        } else {
            m.begin(out)?;
        }
        Ok(m)
    }

    /// The files, or a share of another part.
    fn take(
        &mut self,
        from: usize,
        bytes: &[u8],
        out: &mut dyn FnMut(GangOut<ImagesUpdate>),
    ) -> Result<()> {
        if from == self.s.part {
            if self.data.is_some() {
                return Ok(());
            }
            let files: ImageFiles = decode(bytes)?;
            self.data = Some(keep(&self.s.params, self.s.data, &self.c, files.parse()?));
            return self.begin(out);
        }
        let share: Share = decode(bytes)?;
        let next = self.c.at.step + 1;
        if share.part >= self.s.parts || share.part == self.s.part {
            return Err(Error::invalid(
                "part",
                share.part,
                "a share from no other part of the run",
            ));
        }
        if share.step == next + 1 {
            self.early
                .insert(share.part, (share.sum.to_vec(), share.took));
            return Ok(());
        }
        if share.step != next || self.counted[share.part].is_some() {
            return Err(Error::invalid(
                "step",
                share.step,
                format!("a share out of turn (the next step is {next})"),
            ));
        }
        self.add(share.part, share.sum, share.took)?;
        self.advance(out)
    }

    /// Adds another part's share (bytes, read in place) to the next step's sum (the first one
    /// received becomes it), and its time.
    fn add(&mut self, part: usize, sum: &[u8], took: f64) -> Result<()> {
        match &mut self.total {
            Some(total) => total.add_bytes(sum)?,
            None => self.total = Some(FixedSum::from_bytes(sum)?),
        }
        self.counted[part] = Some(took);
        Ok(())
    }

    /// Computes and sends its share of the next step (unless the stretch is over), then steps.
    fn begin(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        if self.c.at.step < self.s.last {
            self.share(out)?;
        }
        self.advance(out)
    }

    /// Its own share of the next step: sent to the others, and counted.
    fn share(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        let Some(data) = self.data.clone() else {
            return Ok(());
        };
        let mut trainer = trainer(&self.arch, &self.s.params, &data)?;
        let (part, bounds) = (self.s.part, self.balance.bounds());
        let began = (self.clock)();
        let mut sum = trainer
            .share_between(&self.c.at, bounds[part], bounds[part + 1])
            .0;
        let took = (self.clock)() - began;
        if self.s.parts > 1 {
            out(GangOut::Peers(Share::message(
                self.c.at.step + 1,
                part,
                took,
                &sum,
            )));
        }
        if let Some(others) = self.total.take() {
            sum.merge(&others)?;
        }
        self.total = Some(sum);
        self.counted[part] = Some(took);
        Ok(())
    }

    /// Takes every step whose shares are all in (alone: the whole stretch), reporting each.
    fn advance(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        while let Some(took) = self.counted.iter().copied().collect::<Option<Vec<f64>>>() {
            let (Some(total), Some(data)) = (self.total.take(), self.data.clone()) else {
                return Ok(());
            };
            self.counted.fill(None);
            self.balance.update(&took);
            let p = &self.s.params;
            let mut trainer = trainer(&self.arch, p, &data)?;
            trainer.set_lr(p.learning_rate(self.c.at.step as f64 / p.steps_per_epoch() as f64))?;
            trainer.finish(&mut self.c.at, &total)?;
            self.report(&data, out);
            if self.c.at.step < self.s.last {
                self.share(out)?;
                for (part, (sum, took)) in std::mem::take(&mut self.early) {
                    self.add(part, &sum, took)?;
                }
            }
        }
        Ok(())
    }

    /// Reports the step just taken: part 0 always (its checkpoint when due, the mistakes at the
    /// end), every part its test chunks at an epoch's end.
    fn report(&self, data: &Prepared, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) {
        let (p, s) = (&self.s.params, &self.s);
        let step = self.c.at.step;
        let epoch_end = step.is_multiple_of(p.steps_per_epoch());
        if s.part != 0 && !epoch_end {
            return;
        }
        let arch = &self.arch;
        let test = data.features.test();
        let tested = if epoch_end {
            let chunks = test.rows().div_ceil(TEST_CHUNK);
            let mine = chunks * s.part / s.parts..chunks * (s.part + 1) / s.parts;
            mine.map(|k| {
                let rows = k * TEST_CHUNK..((k + 1) * TEST_CHUNK).min(test.rows());
                let (loss, right) = evaluate_rows(arch, &self.c.at.theta[0], test, rows.clone());
                (k, loss, right, rows.len() as u64)
            })
            .collect()
        } else {
            Vec::new()
        };
        let first = s.part == 0;
        let due = step == s.last || epoch_end || step.is_multiple_of(s.checkpoint_every.max(1));
        out(GangOut::Page(ImagesUpdate::Stepped(Box::new(Stepped {
            step,
            at: if first && due {
                encode(&self.c)
            } else {
                Vec::new()
            },
            tested,
            mistakes: (first && step == s.last)
                .then(|| mistakes(arch, &self.c.at.theta[0], test, &data.test)),
        }))));
    }
}

/// The exact trainer at the run's settings, over its prepared data.
fn trainer<'a>(
    arch: &'a Architecture,
    p: &ImagesParams,
    data: &'a Prepared,
) -> Result<Trainer<'a, dyn Examples + 'a>> {
    Ok(Trainer::new(arch, data.features.train(), p.hyper(), p.seed)?.exact())
}

impl GangMember<ImagesUpdate> for Member {
    fn part(&self) -> usize {
        self.s.part
    }

    fn receive(
        &mut self,
        from: usize,
        bytes: &[u8],
        out: &mut dyn FnMut(GangOut<ImagesUpdate>),
    ) -> Result<()> {
        self.take(from, bytes, out)
    }

    fn done(&self) -> bool {
        self.c.at.step >= self.s.last
    }
}

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
}

impl Conductor {
    /// A run on the files named `data`, from checkpoint `at` (postcard bytes of an
    /// [`ImagesCheckpoint`] at `step`) to the end of epoch `until` (at most the link's), cut into
    /// `parts` (at least 1).
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
    /// test chunks (summed in chunk order: the same on any number of parts).
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
            events.push(RunEvent::Mistakes(m));
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A share's message is [`Share`]'s postcard bytes, read back in place.
    #[test]
    fn a_share_message_is_its_postcard_bytes() {
        let mut sum = FixedSum::new(300, 600, 1.0);
        sum.add_noise(0..300, 1.0, &mut ChaCha8Rng::seed_from_u64(1));
        let bytes = sum.to_bytes();
        let message = Share::message(1 << 40, 3, 12.5, &sum);
        let share = Share {
            step: 1 << 40,
            part: 3,
            took: 12.5,
            sum: &bytes,
        };
        assert_eq!(message, encode(&share));
        let read: Share = decode(&message).unwrap();
        assert_eq!(
            (read.step, read.part, read.took, read.sum),
            (1 << 40, 3, 12.5, &bytes[..])
        );
    }
}
