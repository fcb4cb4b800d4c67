//! Training split over the worker pool, the workers passing the shares among themselves (issue 52,
//! item 3). Each step's batch starts cut into one contiguous part per worker, sized by the workers'
//! measured speeds ([`Balance`]). Each worker sums its part's clipped gradients exactly
//! ([`crate::learning::clipped`]), with the noise on the same span of the coordinates' blocks (each
//! block's from its own place in the step's stream), a few milliseconds at a time ([`PIECE_MS`]).
//! One that runs low asks another for work; that one gives it the second half of a span it has not
//! started (`Note::Give`), so every item is summed by exactly one worker. Each sends its share to
//! every other worker of the run (a gang: [`crate::jobs::gang`]), adds theirs to its own, and takes
//! the step. Integer sums do not depend on how the batch and the coordinates were cut, nor on the
//! order the shares arrive in, so every worker holds the same model and a seeded run is the same,
//! bit for bit, on any number of workers.
//!
//! The page's thread carries no share: it starts the run's [`Stretch`] on each worker, sends the
//! files to a worker that asks ([`ImagesUpdate::NeedFiles`]), and reads small reports
//! ([`Stepped`]): part 0's progress every step and its checkpoint every [`CHECKPOINT_EVERY`] steps,
//! every part's test chunks at each epoch's end. A [`Conductor`] (the page's side, which native tests
//! drive the same way) turns them into events. Until stage 64 the page relayed every share (four
//! 1.9 MB messages a step on two workers for the MLP): a third of a core on a two-core machine.

pub use super::conductor::{Conductor, RunEvent};
use super::jobs::{mistakes, Digit, ImageFiles, ImagesCheckpoint, ImagesUpdate};
use super::prepared::{keep, kept, Prepared};
use super::{check, ImagesParams};
use crate::error::{Error, Result};
use crate::jobs::gang::{Balance, Clock, GangMember, GangOut};
use crate::jobs::{decode, encode};
use crate::learning::clipped::FixedSum;
use crate::learning::data::Examples;
use crate::learning::dpsgd::{evaluate_rows, DrawnStep, Trainer};
use crate::learning::model::Architecture;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use std::collections::BTreeMap;
use std::rc::Rc;

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

/// Milliseconds a member sums before it reads its messages again, near the end of its part: short
/// enough that a member out of work waits little for an answer. Earlier pieces are a quarter of
/// what is left (each yield to the message loop took 0.15-0.2 ms in Chromium's workers).
pub const PIECE_MS: f64 = 4.0;

/// A piece's fraction of the step while a member has not yet timed one (a stopped clock's too).
const FIRST_PIECE: f64 = 1.0 / 16.0;

/// A member keeps a span whose second half it would sum in less than this (milliseconds): a
/// message each way would cost about as much as it saves.
const GIVE_MS: f64 = 1.0;

/// What the members of a run send each other (postcard).
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Note<'a> {
    /// A part's share of a step, read in place: it summed fraction `done` of the step in `took` ms
    /// (for the next step's split: [`Balance`]).
    Share {
        step: u64,
        part: usize,
        done: f64,
        took: f64,
        /// [`FixedSum::to_bytes`].
        #[serde(with = "serde_bytes")]
        sum: &'a [u8],
    },
    /// A member running out of work for `step` asks for some.
    Ask { step: u64 },
    /// The answer: the span between fractions `from` and `to` of the step's batch is now the
    /// asker's (empty: none).
    Give { step: u64, from: f64, to: f64 },
}

impl Note<'_> {
    /// The message of part `part`'s share `sum` of step `step` ([`Note::Share`]'s postcard bytes),
    /// the sum written once, straight after the header (not formed, then copied).
    fn share(step: u64, part: usize, (done, took): (f64, f64), sum: &FixedSum) -> Vec<u8> {
        // Postcard writes the variant's index (0) as a varint, then the fields in order.
        let mut bytes = encode(&(0u32, step, part, done, took, sum.byte_len()));
        sum.write_bytes(&mut bytes);
        bytes
    }
}

/// A member's part of the step it is summing.
struct Summing {
    step: DrawnStep,
    sum: FixedSum,
    /// Spans of the batch (fractions) still to sum: summed from the front, given from the back.
    todo: Vec<(f64, f64)>,
    /// The fraction of the step it summed, and the milliseconds that took.
    done: f64,
    took: f64,
    /// Peers asked for work this step (each at most once), and whether the last has not answered.
    asked: usize,
    asking: bool,
}

impl Summing {
    /// The fraction of the step still to sum.
    fn left(&self) -> f64 {
        self.todo.iter().map(|(from, to)| to - from).sum()
    }

    /// This step's rate so far, else `rate` (fractions of the step per ms; 0: none measured).
    fn rate(&self, rate: f64) -> f64 {
        if self.took > 0.0 && self.done > 0.0 {
            self.done / self.took
        } else {
            rate
        }
    }

    /// The fraction of the step its last piece takes ([`PIECE_MS`] at its rate), and at least an
    /// item's (a piece of none would take time and do nothing).
    fn piece(&self, rate: f64) -> f64 {
        let rate = self.rate(rate);
        let piece = if rate.is_finite() && rate > 0.0 {
            rate * PIECE_MS
        } else {
            FIRST_PIECE
        };
        piece.max(1.0 / self.step.len().max(1) as f64)
    }

    /// The second half of its last span, now another's, if worth giving: an item on each side,
    /// and at least [`GIVE_MS`] of work at this step's rate.
    fn give(&mut self, rate: f64) -> Option<(f64, f64)> {
        let &(from, to) = self.todo.last()?;
        let mid = from + (to - from) / 2.0;
        let items = |a, b| self.step.items(a, b).len();
        let rate = self.rate(rate);
        let worth = items(from, mid) > 0
            && items(mid, to) > 0
            && (rate <= 0.0 || (to - mid) >= rate * GIVE_MS);
        if !worth {
            return None;
        }
        self.todo.last_mut()?.1 = mid;
        Some((mid, to))
    }
}

/// One worker's part of a stretch: it waits for the files if it lacks them, then steps as the
/// shares arrive.
pub struct Member {
    s: Stretch,
    arch: Architecture,
    c: ImagesCheckpoint,
    data: Option<Rc<Prepared>>,
    /// Its part of the next step, while it sums it.
    summing: Option<Summing>,
    /// Its rate over its last step: fractions of a step per millisecond (0: not measured).
    rate: f64,
    /// The next step's shares summed so far (its own, and the others' as they came).
    total: Option<FixedSum>,
    /// For each part whose share `total` holds, the fraction it summed and the ms that took.
    counted: Vec<Option<(f64, f64)>>,
    /// Shares of the step after the next, from faster parts, with their work.
    early: BTreeMap<usize, (Vec<u8>, (f64, f64))>,
    /// How each step's batch starts split between the parts (the same in every part).
    balance: Balance,
    /// Times its pieces.
    clock: Clock,
}

impl Member {
    /// Starts part `s.part`: asks the page for the files if this worker does not hold the run's
    /// data, else starts summing its part of the first step (alone, it runs the whole stretch). It
    /// times its pieces on `clock`, which moves the split of the batch but never the run's bits.
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
            summing: None,
            rate: 0.0,
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

    /// The files, or another part's note.
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
        let next = self.c.at.step + 1;
        match decode::<Note>(bytes)? {
            Note::Share {
                step,
                part,
                done,
                took,
                sum,
            } => {
                if part != from || part >= self.s.parts {
                    return Err(Error::invalid("part", part, "a share from no other part"));
                }
                if step == next + 1 {
                    self.early.insert(part, (sum.to_vec(), (done, took)));
                    return Ok(());
                }
                if step != next || self.counted[part].is_some() {
                    return Err(Error::invalid(
                        "step",
                        step,
                        format!("a share out of turn (the next step is {next})"),
                    ));
                }
                self.add(part, sum, (done, took))?;
            }
            Note::Ask { step } => {
                let rate = self.rate;
                let given = match &mut self.summing {
                    Some(m) if step == next => m.give(rate),
                    _ => None,
                };
                let (from_, to) = given.unwrap_or((0.0, 0.0));
                let answer = Note::Give {
                    step,
                    from: from_,
                    to,
                };
                out(GangOut::Peer(from, encode(&answer)));
                return Ok(());
            }
            Note::Give { step, from, to } => {
                let asked = self.summing.as_mut().filter(|m| m.asking && step == next);
                let Some(m) = asked else {
                    return Err(Error::invalid("step", step, "an answer to no ask"));
                };
                if !(0.0..=1.0).contains(&from) || !(0.0..=1.0).contains(&to) {
                    return Err(Error::invalid("span", from, "a span outside the step"));
                }
                m.asking = false;
                if from < to {
                    m.todo.push((from, to));
                }
                self.settle(out)?;
            }
        }
        self.advance(out)
    }

    /// Adds another part's share (bytes, read in place) to the next step's sum (the first one
    /// received becomes it), and its work.
    fn add(&mut self, part: usize, sum: &[u8], work: (f64, f64)) -> Result<()> {
        match &mut self.total {
            Some(total) => total.add_bytes(sum)?,
            None => self.total = Some(FixedSum::from_bytes(sum)?),
        }
        self.counted[part] = Some(work);
        Ok(())
    }

    /// Starts summing its part of the next step (unless the stretch is over), then steps.
    fn begin(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        if self.c.at.step < self.s.last {
            self.start_summing(out)?;
        }
        self.advance(out)
    }

    /// Draws the next step and takes its part of the split (alone: sums all of it at once).
    fn start_summing(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        let Some(data) = self.data.clone() else {
            return Ok(());
        };
        let mut trainer = trainer(&self.arch, &self.s.params, &data)?;
        let (part, bounds) = (self.s.part, self.balance.bounds());
        self.summing = Some(Summing {
            step: trainer.draw_step(&self.c.at),
            sum: trainer.empty_sum(),
            todo: vec![(bounds[part], bounds[part + 1])],
            done: 0.0,
            took: 0.0,
            asked: 0,
            asking: false,
        });
        for (part, (sum, work)) in std::mem::take(&mut self.early) {
            self.add(part, &sum, work)?;
        }
        if self.s.parts == 1 {
            self.sum_piece()?;
            self.settle(out)?;
        }
        Ok(())
    }

    /// Sums its next piece: about [`PIECE_MS`] of work (alone: the whole span).
    fn sum_piece(&mut self) -> Result<()> {
        let (Some(data), Some(m)) = (self.data.clone(), self.summing.as_mut()) else {
            return Ok(());
        };
        let Some(&(from, end)) = m.todo.first() else {
            return Ok(());
        };
        // A quarter of what is left, down to the last piece's size; that takes what is left
        // rather than leave a sliver.
        let piece = m.piece(self.rate).max(m.left() / 4.0);
        let to = if self.s.parts == 1 || end - from < 1.5 * piece {
            end
        } else {
            from + piece
        };
        let mut trainer = trainer(&self.arch, &self.s.params, &data)?;
        let began = (self.clock)();
        trainer.add_span(&self.c.at, &m.step, from, to, &mut m.sum);
        m.took += (self.clock)() - began;
        m.done += to - from;
        if to < end {
            m.todo[0].0 = to;
        } else {
            m.todo.remove(0);
        }
        Ok(())
    }

    /// Asks a peer for work once its own is down to a piece (so the answer comes as it finishes),
    /// and, with nothing left to sum and no one left to ask, sends its share and counts it.
    fn settle(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        let (part, parts, step) = (self.s.part, self.s.parts, self.c.at.step + 1);
        let Some(m) = self.summing.as_mut() else {
            return Ok(());
        };
        if !m.asking && m.asked + 1 < parts && m.left() <= m.piece(self.rate) {
            let peer = (part + 1 + m.asked) % parts;
            out(GangOut::Peer(peer, encode(&Note::Ask { step })));
            m.asked += 1;
            m.asking = true;
        }
        if m.asking || !m.todo.is_empty() {
            return Ok(());
        }
        self.rate = m.rate(self.rate);
        let Some(Summing {
            mut sum,
            done,
            took,
            ..
        }) = self.summing.take()
        else {
            return Ok(());
        };
        if parts > 1 {
            out(GangOut::Peers(Note::share(step, part, (done, took), &sum)));
        }
        if let Some(others) = self.total.take() {
            sum.merge(&others)?;
        }
        self.total = Some(sum);
        self.counted[part] = Some((done, took));
        Ok(())
    }

    /// Takes every step whose shares are all in (alone: the whole stretch), reporting each.
    fn advance(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        while let Some(work) = self.counted.iter().copied().collect::<Option<Vec<_>>>() {
            let (Some(total), Some(data)) = (self.total.take(), self.data.clone()) else {
                return Ok(());
            };
            self.counted.fill(None);
            self.balance.update(&work);
            let p = &self.s.params;
            let mut trainer = trainer(&self.arch, p, &data)?;
            trainer.set_lr(p.learning_rate(self.c.at.step as f64 / p.steps_per_epoch() as f64))?;
            trainer.finish(&mut self.c.at, &total)?;
            self.report(&data, out);
            if self.c.at.step < self.s.last {
                self.start_summing(out)?;
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

    fn busy(&self) -> bool {
        self.data.is_some()
            && (self.summing.as_ref()).is_some_and(|m| !m.todo.is_empty() || !m.asking)
    }

    fn work(&mut self, out: &mut dyn FnMut(GangOut<ImagesUpdate>)) -> Result<()> {
        self.sum_piece()?;
        self.settle(out)?;
        self.advance(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A share's message is [`Note::Share`]'s postcard bytes, read back in place.
    #[test]
    fn a_share_message_is_its_postcard_bytes() {
        let mut sum = FixedSum::new(300, 600, 1.0);
        sum.add_noise(0..300, 1.0, &mut ChaCha8Rng::seed_from_u64(1));
        let bytes = sum.to_bytes();
        let message = Note::share(1 << 40, 3, (0.25, 12.5), &sum);
        let share = Note::Share {
            step: 1 << 40,
            part: 3,
            done: 0.25,
            took: 12.5,
            sum: &bytes,
        };
        assert_eq!(message, encode(&share));
        let Note::Share {
            step,
            part,
            done,
            took,
            sum,
        } = decode(&message).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (step, part, done, took, sum),
            (1 << 40, 3, 0.25, 12.5, &bytes[..])
        );
    }
}
