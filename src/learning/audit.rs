//! Auditing DP-SGD by training: many private runs with a canary and many without, each scored by an
//! adversary; the estimators in [`crate::attacks`] turn the scores into the ε an attack measures, to
//! set beside the ε the accountant promises.
//!
//! Each run is the DP-SGD the accountant accounts for: batches drawn by the run's sampler at rate q,
//! clipping to C, Gaussian noise of standard deviation σC on the sum, and the fixed normaliser qn. The
//! canary is one more record (add/remove): a run with it samples from the n + 1 records, the canary
//! the last of them, so it joins a batch exactly as the sampler lets any record join. A planted
//! [`Bug`] changes exactly one of these, as real implementations did.

use crate::accounting::samplers::Sampler;
use crate::error::{Error, Result};
use crate::learning::batches::Batches;
use crate::learning::data::Dataset;
use crate::learning::dpsgd::{
    add_clipped, descend, poisson_batch, stream, Hyper, FIRST_STEP_STREAM, INIT_STREAM,
};
use crate::learning::model::{log_loss, Architecture};
use crate::numerics::special::ln_add_exp;
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// The record whose membership the adversary tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Canary {
    /// A gradient of norm C on one coordinate, inserted whenever the canary is sampled (white-box:
    /// the worst case for DP-SGD, Nasr et al. 2023). Clipping leaves it unchanged.
    Dirac {
        /// The coordinate.
        coord: usize,
    },
    /// A record in input space (a mislabeled outlier); its gradient is clipped like every other.
    Row {
        /// Its features.
        x: Vec<f64>,
        /// Its label, 0 or 1.
        y: f64,
    },
}

/// What the adversary sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Threat {
    /// The final model only: the score is the canary's pull on it (its negated loss, or for a Dirac
    /// canary its coordinate's negated value).
    Final,
    /// Every step's update: for a Dirac canary the sum over steps of the subsampled Gaussian's
    /// log-likelihood ratio on the canary's coordinate (the Neyman–Pearson test when the other rows
    /// pull that coordinate little); for a record, the sum of its gradient's inner products with the
    /// updates.
    AllSteps,
    /// Every step's update, scored by its size: minus the sum over steps and coordinates of the
    /// squared noisy sum it reveals (read back with the fixed normaliser qn), in units of σC. Weak
    /// against a correct DP-SGD (the canary adds C² to a sum of d·σ²C²), it sees a normaliser that
    /// depends on the data: divided by the realised batch, the whole update shrinks when the canary
    /// joins.
    UpdateSize,
}

/// A planted implementation bug (the kinds audits have caught).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bug {
    /// None: the DP-SGD the accountant accounts for.
    None,
    /// Noise calibrated to the sum but added to the mean: its standard deviation divided by qn.
    MeanNoise,
    /// The canary's gradient escapes clipping.
    UnclippedCanary,
    /// The noisy sum divided by the realised batch size (canary included), not the fixed qn.
    RealisedBatch,
}

/// One audit's setting: the model, the training rows, the hyperparameters, the steps, the canary,
/// the adversary and the bug.
#[derive(Debug, Clone)]
pub struct AuditSetup<'a> {
    /// The model.
    pub arch: &'a Architecture,
    /// The training rows (without the canary).
    pub data: &'a Dataset,
    /// DP-SGD's hyperparameters.
    pub hyper: Hyper,
    /// Steps per run.
    pub steps: u64,
    /// The canary.
    pub canary: Canary,
    /// What the adversary sees.
    pub threat: Threat,
    /// The planted bug.
    pub bug: Bug,
    /// How each step's batch is drawn (the trainer's sampler).
    pub sampler: Sampler,
    /// Truncated Poisson's batch cap B (read by that sampler only).
    pub cap: u64,
}

/// `data` with one more feature, 0 in every row: its weight is a parameter no training row pulls
/// (the gradient of a row is proportional to its features), which the model otherwise ignores. The
/// Dirac canary sits there, as in a large model a random coordinate is nearly untouched by the others'
/// gradients; the adversary's test on it is then the subsampled Gaussian's own likelihood ratio.
pub fn with_blank_feature(data: &Dataset) -> Dataset {
    let dim = data.dim + 1;
    let mut x = Vec::with_capacity(data.rows() * dim);
    for i in 0..data.rows() {
        x.extend_from_slice(data.row(i));
        x.push(0.0);
    }
    let mut names = data.names.clone();
    names.push("canary feature (always 0)".into());
    Dataset {
        x,
        y: data.y.clone(),
        dim,
        names,
    }
}

/// The coordinate whose gradients over the training rows, at the initial parameters, are smallest in
/// total (0 for a weight of [`with_blank_feature`]'s feature): the Dirac canary's.
pub fn quietest_coordinate(arch: &Architecture, data: &Dataset) -> usize {
    let theta = arch.init(&mut stream(0, INIT_STREAM));
    let (mut ws, mut grad) = (arch.workspace(), vec![0.0; arch.params()]);
    let mut total = vec![0.0; arch.params()];
    for i in 0..data.rows() {
        arch.gradient(&theta, data.row(i), data.y[i], &mut grad, &mut ws);
        for (t, g) in total.iter_mut().zip(&grad) {
            *t += g.abs();
        }
    }
    (0..total.len())
        .min_by(|&a, &b| total[a].total_cmp(&total[b]))
        .unwrap_or(0)
}

/// What stays fixed over a private run's steps: the parameters the L2 term applies to, the
/// hyperparameters, the fixed normaliser qn and the planted bug.
pub(crate) struct NoisyStep<'a> {
    /// The parameters the L2 term applies to.
    pub penalised: &'a [bool],
    /// q, σ, C, η, λ.
    pub hyper: Hyper,
    /// The fixed normaliser qn.
    pub fixed: f64,
    /// The planted bug.
    pub bug: Bug,
}

impl NoisyStep<'_> {
    /// DP-SGD's noise and step once the batch's sum is in `sum`, each changed by the bug: noise of
    /// standard deviation σC on every coordinate (σC/qn under [`Bug::MeanNoise`]), then
    /// θ ← θ − η(sum/normaliser + λθ) with the normaliser qn (the `realised` batch size under
    /// [`Bug::RealisedBatch`]). Shared by the many-run and the one-run audits.
    ///
    /// # Errors
    /// Parameters that stopped being finite.
    pub(crate) fn apply<R: Rng + ?Sized>(
        &self,
        theta: &mut [f64],
        sum: &mut [f64],
        realised: usize,
        rng: &mut R,
    ) -> Result<()> {
        let Hyper {
            sigma,
            clip,
            lr,
            lambda,
            ..
        } = self.hyper;
        let noise_sd = match self.bug {
            Bug::MeanNoise => sigma * clip / self.fixed,
            _ => sigma * clip,
        };
        for s in sum.iter_mut() {
            *s += noise_sd * rng.sample::<f64, _>(StandardNormal);
        }
        let normaliser = match self.bug {
            Bug::RealisedBatch => realised.max(1) as f64,
            _ => self.fixed,
        };
        descend(theta, sum, self.penalised, lr, lambda, normaliser);
        if theta.iter().any(|w| !w.is_finite()) {
            return Err(Error::invalid(
                "lr",
                lr,
                "makes an audit run diverge: lower the learning rate",
            ));
        }
        Ok(())
    }
}

impl AuditSetup<'_> {
    /// Checks the setting once, before many runs.
    ///
    /// # Errors
    /// A canary that does not fit the model (coordinate out of range, feature count, label), no steps,
    /// or hyperparameters out of range.
    pub fn validate(&self) -> Result<()> {
        self.hyper.check()?;
        if self.steps == 0 {
            return Err(Error::invalid("steps", 0, "must be at least 1"));
        }
        match &self.canary {
            Canary::Dirac { coord } if *coord >= self.arch.params() => Err(Error::invalid(
                "canary",
                coord,
                format!(
                    "names a coordinate beyond the model's {}",
                    self.arch.params()
                ),
            )),
            Canary::Row { x, y } if x.len() != self.data.dim || !(*y == 0.0 || *y == 1.0) => {
                Err(Error::invalid(
                    "canary",
                    x.len(),
                    "must have the data's features and a 0/1 label",
                ))
            }
            _ => Ok(()),
        }
    }

    /// The runs' sampler. A fixed-size batch keeps the trainer's ⌊qn⌋ rows whether the canary is
    /// one of the records or not (the size is public; the accountant's neighbours hand the canary's
    /// slot to another record).
    fn batches(&self) -> Batches {
        let m = (self.hyper.q * self.data.rows() as f64).floor() as usize;
        Batches::new(self.sampler).capped(self.cap).sized(m)
    }

    /// Step t's batch of the data rows into `batch`, from the step's stream `rng`, and whether the
    /// canary joined it: the sampler draws from the n data rows, or in a run with the canary
    /// (`member`) from n + 1 records, the canary the last (index n).
    fn draw<R: Rng + ?Sized>(
        &self,
        batches: &mut Batches,
        t: u64,
        seed: u64,
        member: bool,
        rng: &mut R,
        batch: &mut Vec<usize>,
    ) -> bool {
        let (n, q) = (self.data.rows(), self.hyper.q);
        if self.sampler == Sampler::Poisson {
            // Poisson over the n + 1 records is Poisson over the n rows and an independent coin of
            // bias q for the canary: drawn so, the audit's numbers are those it always gave.
            poisson_batch(n, q, rng, batch);
            return member && rng.random::<f64>() < q;
        }
        batches.draw(t, n + usize::from(member), q, seed, rng, batch);
        let drawn = batch.len();
        batch.retain(|&i| i != n);
        batch.len() < drawn
    }

    /// One run from `seed`, with the canary (`member`) or without, and the adversary's score (higher
    /// means "member").
    ///
    /// # Errors
    /// A run whose parameters stopped being finite.
    pub fn score(&self, seed: u64, member: bool) -> Result<f64> {
        let Hyper {
            q,
            sigma,
            clip,
            lr,
            lambda,
        } = self.hyper;
        let (arch, data) = (self.arch, self.data);
        let mut theta = arch.init(&mut stream(seed, INIT_STREAM));
        let penalised = arch.penalised();
        let (mut ws, mut grad) = (arch.workspace(), vec![0.0; arch.params()]);
        let mut sum = vec![0.0; arch.params()];
        let mut batch = Vec::new();
        let mut score = 0.0;
        let fixed = q * data.rows() as f64;
        let mut batches = self.batches();
        let step = NoisyStep {
            penalised: &penalised,
            hyper: self.hyper,
            fixed,
            bug: self.bug,
        };
        for t in 1..=self.steps {
            let mut rng = stream(seed, FIRST_STEP_STREAM + t);
            let with_canary = self.draw(&mut batches, t, seed, member, &mut rng, &mut batch);
            sum.fill(0.0);
            for &i in &batch {
                arch.gradient(&theta, data.row(i), data.y[i], &mut grad, &mut ws);
                add_clipped(&mut sum, &grad, Some(clip));
            }
            // The record canary's gradient at this step's parameters (for its score too).
            let canary_grad = match &self.canary {
                Canary::Row { x, y } => {
                    let mut g = vec![0.0; arch.params()];
                    arch.gradient(&theta, x, *y, &mut g, &mut ws);
                    Some(g)
                }
                Canary::Dirac { .. } => None,
            };
            if with_canary {
                match (&self.canary, &canary_grad) {
                    (Canary::Dirac { coord }, _) => sum[*coord] += clip,
                    (_, Some(g)) => {
                        let clip = (self.bug != Bug::UnclippedCanary).then_some(clip);
                        add_clipped(&mut sum, g, clip);
                    }
                    _ => {}
                }
            }
            // Only the every-step adversary reads the update, so only it needs the parameters before.
            let before = (self.threat != Threat::Final).then(|| theta.clone());
            let realised = batch.len() + usize::from(with_canary);
            step.apply(&mut theta, &mut sum, realised, &mut rng)?;
            if let Some(before) = before {
                // The noisy sum the update reveals, read back as the adversary would (nominal
                // normaliser), along the canary's gradient.
                let revealed = |k: usize| {
                    let decay = if penalised[k] {
                        lambda * before[k]
                    } else {
                        0.0
                    };
                    ((before[k] - theta[k]) / lr - decay) * fixed
                };
                let unit = sigma.max(1e-300) * clip;
                score += match (&self.canary, &canary_grad) {
                    _ if self.threat == Threat::UpdateSize => -(0..theta.len())
                        .map(|k| (revealed(k) / unit).powi(2))
                        .sum::<f64>(),
                    (Canary::Dirac { coord }, _) => {
                        // x ~ N(0, 1) without the canary, N(1/σ, 1) with it (other rows aside).
                        let x = revealed(*coord) / unit;
                        let shift = 1.0 / sigma.max(1e-300);
                        ln_add_exp((-q).ln_1p(), q.ln() + shift * x - shift * shift / 2.0)
                    }
                    (_, Some(g)) => g
                        .iter()
                        .enumerate()
                        .map(|(k, gk)| gk * revealed(k))
                        .sum::<f64>(),
                    _ => 0.0,
                };
            }
        }
        if self.threat == Threat::Final {
            score = match &self.canary {
                Canary::Dirac { coord } => -theta[*coord],
                Canary::Row { x, y } => -log_loss(arch.logit(&theta, x, &mut ws), *y),
            };
        }
        Ok(score)
    }

    /// The scores of runs `seeds` with the canary and of the same seeds' runs without (different
    /// streams: seed 2s + 1 with it, 2s without).
    ///
    /// # Errors
    /// As [`AuditSetup::score`].
    pub fn scores(&self, seeds: std::ops::Range<u64>) -> Result<(Vec<f64>, Vec<f64>)> {
        let mut ins = Vec::with_capacity(seeds.clone().count());
        let mut outs = Vec::with_capacity(ins.capacity());
        for s in seeds {
            ins.push(self.score(2 * s + 1, true)?);
            outs.push(self.score(2 * s, false)?);
        }
        Ok((ins, outs))
    }
}

#[cfg(test)]
mod tests;
