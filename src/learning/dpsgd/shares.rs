//! The exact sum in shares: a step's batch drawn once, summed in spans whose bounds any number of
//! workers can cut, into an integer sum whose bits do not depend on the cut ([`FixedSum`]), then
//! the step finished from the merged sum. The image lab's gang sums its steps this way; an exact
//! trainer's own [`Trainer::step`] is one share of the whole batch.

use super::{Checkpoint, Hyper, Trainer, Variant};
use crate::error::{Error, Result};
use crate::learning::clipped::{FixedSum, NOISE_BLOCK, NOISE_ROOM};
use crate::learning::data::Examples;
use rand_chacha::ChaCha8Rng;
use std::ops::Range;

/// A step's batch and random stream, drawn once ([`Trainer::draw_step`]) and summed in spans.
#[derive(Debug, Clone)]
pub struct DrawnStep {
    batch: Vec<usize>,
    rng: ChaCha8Rng,
}

impl DrawnStep {
    /// Rows in the step's batch.
    pub fn len(&self) -> usize {
        self.batch.len()
    }

    /// Whether the batch drew no row.
    pub fn is_empty(&self) -> bool {
        self.batch.is_empty()
    }

    /// The batch's items between fractions `from` and `to` of it ([`Trainer::add_span`]'s).
    pub fn items(&self, from: f64, to: f64) -> Range<usize> {
        span(self.batch.len(), from, to)
    }
}

/// Items `round(from·n)..round(to·n)` of `n`: fractions outside [0, 1] clamp (a NaN cuts at 0), a
/// span that runs backward is empty. `round` is monotone, so spans whose bounds meet tile `0..n`.
fn span(n: usize, from: f64, to: f64) -> Range<usize> {
    let cut = |x: f64| ((n as f64 * x.clamp(0.0, 1.0)).round() as usize).min(n);
    cut(from)..cut(to).max(cut(from))
}

impl<D: Examples + ?Sized> Trainer<'_, D> {
    /// Share `part` of `parts` of the next step's batch: [`Trainer::share_between`] an even split's
    /// bounds `part / parts` and `(part + 1) / parts` (a part past the last is empty).
    pub fn share(&mut self, at: &Checkpoint, part: usize, parts: usize) -> (FixedSum, u64) {
        let parts = parts.max(1);
        let bound = |k: usize| k.min(parts) as f64 / parts as f64;
        self.share_between(at, bound(part), bound(part + 1))
    }

    /// The share of the next step's batch between fractions `from` and `to` of it (items
    /// `round(from·n)..round(to·n)` of the batch's n, and the same span of the noise's blocks): the
    /// exact sum of its clipped gradients at the private model's `at.theta[0]`, with the step's
    /// independent noise on its blocks of coordinates, and how many were scaled: [`Trainer::add_span`]
    /// into [`Trainer::empty_sum`] for the drawn step ([`Trainer::draw_step`]).
    pub fn share_between(&mut self, at: &Checkpoint, from: f64, to: f64) -> (FixedSum, u64) {
        let step = self.draw_step(at);
        let mut sum = self.empty_sum();
        let scaled = self.add_span(at, &step, from, to, &mut sum);
        self.batch = step.batch;
        (sum, scaled)
    }

    /// The next step's batch and stream, drawn once for summing its shares in pieces
    /// ([`Trainer::add_span`]; a member of a gang sums its part a few milliseconds at a time, and
    /// hands spans it has not started to a member that ran out).
    pub fn draw_step(&mut self, at: &Checkpoint) -> DrawnStep {
        let rng = self.draw_batch(at.step + 1);
        DrawnStep {
            batch: std::mem::take(&mut self.batch),
            rng,
        }
    }

    /// An empty exact sum of this trainer's shape, room for every row's gradient and the noise.
    pub fn empty_sum(&self) -> FixedSum {
        let room = (NOISE_ROOM * self.hyper.sigma).ceil() as usize;
        let rows = self.data.rows().saturating_add(room);
        FixedSum::new(self.arch.params(), rows, self.hyper.clip)
    }

    /// Adds the span between fractions `from` and `to` of the drawn step to `sum` (see
    /// [`Trainer::share_between`]); returns how many gradients were scaled. Spans whose bounds meet
    /// (the same f64 ends one and starts the next, from 0 to 1) cover the step once: `round` is
    /// monotone, so their items and blocks tile the whole, and the integer sum does not depend on
    /// the cut nor on the order of the pieces. (Correlated noise needs the run's state: it is added
    /// by [`Trainer::finish`].)
    pub fn add_span(
        &mut self,
        at: &Checkpoint,
        step: &DrawnStep,
        from: f64,
        to: f64,
        sum: &mut FixedSum,
    ) -> u64 {
        let Hyper { sigma, clip, .. } = self.hyper;
        let len = self.arch.params();
        let mine = step.items(from, to);
        let mut scaled = 0;
        for &i in &step.batch[mine.clone()] {
            let x = self.data.features(i, &mut self.row);
            let y = self.data.label(i);
            scaled += u64::from(self.arch.add_clipped_gradient(
                &at.theta[0],
                x,
                y,
                clip,
                sum,
                &mut self.ws,
            ));
        }
        self.evaluations += mine.len() as u64;
        if self.correlated.is_none() {
            for k in span(len.div_ceil(NOISE_BLOCK), from, to) {
                let mut block = step.rng.clone();
                block.set_word_pos(u128::from(k as u64 + 1) << 40);
                sum.add_noise(
                    k * NOISE_BLOCK..(k + 1) * NOISE_BLOCK,
                    sigma * clip,
                    &mut block,
                );
            }
        }
        scaled
    }

    /// Takes step `at.step + 1` of an exact trainer from its batch's noisy sum (the merged
    /// [`Trainer::share`]s): descends (adding correlated noise first, for a trainer that has it).
    ///
    /// # Errors
    /// A model whose parameters stopped being finite, or a sum of another shape.
    pub fn finish(&mut self, at: &mut Checkpoint, total: &FixedSum) -> Result<()> {
        if total.len() != self.arch.params() {
            return Err(Error::invalid(
                "sum",
                total.len(),
                format!("must have {} coordinates", self.arch.params()),
            ));
        }
        let sum = &mut self.sums[Variant::Private as usize];
        sum.resize(total.len(), 0.0);
        total.write_to(sum);
        if self.correlated.is_some() {
            let mut rng = self.draw_batch(at.step + 1);
            self.add_noise(at, &mut rng);
        }
        self.descend_models(at)
    }
}
