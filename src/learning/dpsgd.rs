//! DP-SGD exactly as the accountants account for it (Abadi et al., CCS 2016, Algorithm 1, with Poisson
//! sampling as in the lecture's scenario 3 and dp_accounting's `PoissonSampledEvent`):
//!
//! θ ← θ − η·( (Σ_{i∈B} clip_C(∇f(θ; xᵢ)) + σC·Z) / (q·n) + λ·θ_w ),  Z ~ N(0, I),
//!
//! B a Poisson sample (each training row independently with probability q), clip_C(g) = g·min(1, C/‖g‖₂),
//! n the number of training rows and θ_w the weights (biases are not penalised). The sum is divided by
//! the *expected* batch size q·n, fixed before training: dividing by the realised |B|, or by a count
//! read from the data, makes the normaliser depend on the neighbouring data set, which the accounting
//! does not cover (audits of Opacus found exactly this: its issues #571 and #819). The L2 term reads no
//! data, so it costs no privacy.
//!
//! Beside the private model two others train on the same batches: "clipping only" (σ = 0) and the
//! non-private model (no clipping, no noise, the same normaliser), so that clipping's bias and the
//! noise's cost show apart.

use super::batches::Batches;
use super::correlated::{cyclic_poisson_batch, NoiseGen};
use super::data::{Dataset, Examples};
use super::model::{Architecture, Workspace};
use crate::accounting::samplers::Sampler;
use crate::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// The three models trained side by side, in this order in every array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// Clipping and noise: what the accountant's ε is about.
    Private = 0,
    /// Clipping without noise.
    ClipOnly = 1,
    /// Neither.
    NonPrivate = 2,
}

impl Variant {
    /// All three, in array order.
    pub const ALL: [Variant; 3] = [Variant::Private, Variant::ClipOnly, Variant::NonPrivate];

    /// The name on the page.
    pub fn title(self) -> &'static str {
        match self {
            Variant::Private => "DP-SGD",
            Variant::ClipOnly => "clipping only",
            Variant::NonPrivate => "non-private",
        }
    }
}

/// The update's hyperparameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hyper {
    /// Poisson sampling rate q.
    pub q: f64,
    /// Noise multiplier σ (noise standard deviation on the sum over C).
    pub sigma: f64,
    /// Clipping norm C.
    pub clip: f64,
    /// Learning rate η.
    pub lr: f64,
    /// The L2 term λ (on the weights).
    pub lambda: f64,
}

impl Hyper {
    /// Checks the hyperparameters (each must also be finite).
    ///
    /// # Errors
    /// q outside (0, 1], σ negative, C or η not positive, λ negative.
    pub fn check(&self) -> Result<()> {
        let Hyper {
            q,
            sigma,
            clip,
            lr,
            lambda,
        } = *self;
        let check = |name: &'static str, v: f64, ok: bool, reason: &str| {
            if v.is_finite() && ok {
                Ok(())
            } else {
                Err(Error::invalid(name, v, reason.to_owned()))
            }
        };
        check("q", q, q > 0.0 && q <= 1.0, "must be in (0, 1]")?;
        check("sigma", sigma, sigma >= 0.0, "must be ≥ 0")?;
        check("clip", clip, clip > 0.0, "must be > 0")?;
        check("lr", lr, lr > 0.0, "must be > 0")?;
        check("lambda", lambda, lambda >= 0.0, "must be ≥ 0")
    }
}

/// Adds `g` to `sum`, scaled down to norm `clip` when `clip` is `Some` and its norm exceeds it;
/// returns whether it was scaled.
pub fn add_clipped(sum: &mut [f64], g: &[f64], clip: Option<f64>) -> bool {
    let norm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
    let (f, clipped) = match clip {
        Some(c) if norm > c => (c / norm, true),
        _ => (1.0, false),
    };
    for (s, x) in sum.iter_mut().zip(g) {
        *s += f * x;
    }
    clipped
}

/// The gradient step θ ← θ − η(sum/normaliser + λθ), the L2 term on the `penalised` parameters only.
pub fn descend(
    theta: &mut [f64],
    sum: &[f64],
    penalised: &[bool],
    lr: f64,
    lambda: f64,
    normaliser: f64,
) {
    for ((w, s), pen) in theta.iter_mut().zip(sum).zip(penalised) {
        let decay = if *pen { lambda * *w } else { 0.0 };
        *w -= lr * (s / normaliser + decay);
    }
}

/// The random stream of the initial parameters (`seed`'s other streams: data and split in the lab,
/// step t's batch and noise in stream [`FIRST_STEP_STREAM`] + t).
pub const INIT_STREAM: u64 = 0;
/// Step t (1-based) draws its batch, then its noise, from stream `FIRST_STEP_STREAM + t` of the seed
/// (an exact trainer's noise block k from word 2⁴⁰(k + 1) of it, [`Trainer::share`]): a run paused
/// after any step and resumed gives the uninterrupted run's numbers bit for bit.
pub const FIRST_STEP_STREAM: u64 = 16;

/// A seed's generator on one of its streams (ChaCha8).
pub fn stream(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// Where three models' training stands: the steps taken and each model's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Steps taken.
    pub step: u64,
    /// Parameters of the private, clipping-only and non-private models.
    pub theta: [Vec<f64>; 3],
    /// The correlated noise's state after `step` ([`NoiseGen::state_len`]; empty for DP-SGD).
    pub noise: Vec<f64>,
}

impl Checkpoint {
    /// Step 0: the three models start from the same parameters, drawn from `seed`'s init stream.
    pub fn start(arch: &Architecture, seed: u64) -> Self {
        let theta = arch.init(&mut stream(seed, INIT_STREAM));
        Checkpoint {
            step: 0,
            theta: [theta.clone(), theta.clone(), theta],
            noise: Vec::new(),
        }
    }
}

/// One DP-SGD trainer: the model, the training rows and the hyperparameters, with buffers.
pub struct Trainer<'a, D: Examples + ?Sized = Dataset> {
    arch: &'a Architecture,
    data: &'a D,
    /// A row's features when `D` converts them.
    row: Vec<f64>,
    hyper: Hyper,
    seed: u64,
    penalised: Vec<bool>,
    ws: Workspace,
    grad: Vec<f64>,
    sums: [Vec<f64>; 3],
    batch: Vec<usize>,
    /// Per-example gradients computed so far (each model's count).
    pub evaluations: u64,
    /// The noisy sum's divisor: qn, n the training rows, unless set otherwise.
    normaliser: f64,
    /// How each step's batch is drawn (Poisson unless set otherwise).
    batches: Batches,
    /// Correlated noise instead of independent draws, and cyclic Poisson's groups and rate.
    correlated: Option<(NoiseGen, Option<(usize, f64)>)>,
    /// One step's noise.
    noise: Vec<f64>,
    /// Models trained: all three, or the private one alone.
    variants: usize,
    /// Whether the private model's clipped gradients are summed exactly ([`Trainer::exact`]).
    exact: bool,
}

impl<'a, D: Examples + ?Sized> Trainer<'a, D> {
    /// A trainer of `arch` on `data` (the training rows).
    ///
    /// # Errors
    /// q outside (0, 1], σ negative, C or η not positive, λ negative (each must also be finite).
    pub fn new(arch: &'a Architecture, data: &'a D, hyper: Hyper, seed: u64) -> Result<Self> {
        hyper.check()?;
        Ok(Trainer {
            arch,
            data,
            row: Vec::new(),
            hyper,
            seed,
            penalised: arch.penalised(),
            ws: arch.workspace(),
            // The buffers are sized on first use: an exact trainer needs one sum, no gradient.
            grad: Vec::new(),
            sums: Default::default(),
            batch: Vec::new(),
            evaluations: 0,
            normaliser: hyper.q * data.rows() as f64,
            batches: Batches::new(Sampler::Poisson),
            correlated: None,
            noise: Vec::new(),
            variants: Variant::ALL.len(),
            exact: false,
        })
    }

    /// The trainer stepping the private model alone (the clipping-only and non-private models keep
    /// their start): a third of the work, for data sets where every gradient counts.
    pub fn private_only(mut self) -> Self {
        self.variants = 1;
        self
    }

    /// The trainer stepping the private model alone and summing its clipped gradients exactly
    /// ([`FixedSum`](super::clipped::FixedSum), computed without forming them): a batch split into
    /// shares computed apart ([`Trainer::share`], on other workers) and merged in any order gives
    /// the same step bit for bit ([`Trainer::finish`]). Its runs differ from the formed sum's in the
    /// last bits.
    pub fn exact(mut self) -> Self {
        self.variants = 1;
        self.exact = true;
        self
    }

    /// Sets the learning rate for the next steps (a schedule's; privacy does not depend on it).
    ///
    /// # Errors
    /// A rate that is not finite and positive.
    pub fn set_lr(&mut self, lr: f64) -> Result<()> {
        Hyper { lr, ..self.hyper }.check()?;
        self.hyper.lr = lr;
        Ok(())
    }

    /// The trainer adding `gen`'s correlated noise ([`crate::learning::correlated`]) instead of
    /// independent draws; with `groups` = (b, q_b), drawing its batches by cyclic Poisson sampling
    /// over b groups at rate q_b (the normaliser stays qn = q_b·n/b when q_b = qb).
    pub fn with_correlated(mut self, gen: NoiseGen, groups: Option<(usize, f64)>) -> Self {
        self.correlated = Some((gen, groups));
        self
    }

    /// The trainer drawing its batches by `sampler` instead of Poisson sampling (truncated Poisson
    /// cutting batches to `cap`); the normaliser stays the fixed qn (shuffled batches hold n/b ± 1
    /// rows, a fixed-size batch round(qn)).
    pub fn with_sampler(mut self, sampler: Sampler, cap: u64) -> Self {
        self.batches = Batches::new(sampler).capped(cap);
        self
    }

    /// The trainer with a fixed divisor of its own instead of qn: for a trainer whose rows are a
    /// random subset (the membership attack's halves), whose size must not set the normaliser (it
    /// would depend on whether a record joined; the accounting assumes a fixed one).
    pub fn with_normaliser(mut self, normaliser: f64) -> Self {
        self.normaliser = normaliser;
        self
    }

    /// Takes step `at.step + 1` for all three models; `clipped` counts the private model's clipped
    /// gradients and its batch size.
    ///
    /// # Errors
    /// A model whose parameters stopped being finite (a learning rate that diverges).
    pub fn step(&mut self, at: &mut Checkpoint, clipped: &mut (u64, u64)) -> Result<()> {
        if self.exact {
            let (total, scaled) = self.share(at, 0, 1);
            *clipped = (clipped.0 + scaled, clipped.1 + self.batch.len() as u64);
            return self.finish(at, &total);
        }
        let mut rng = self.draw_batch(at.step + 1);
        let clip = self.hyper.clip;
        let p = self.arch.params();
        self.grad.resize(p, 0.0);
        for (v, theta) in at.theta.iter().enumerate().take(self.variants) {
            let sum = &mut self.sums[v];
            sum.clear();
            sum.resize(p, 0.0);
            for &i in &self.batch {
                let x = self.data.features(i, &mut self.row);
                self.arch
                    .gradient(theta, x, self.data.label(i), &mut self.grad, &mut self.ws);
                let clip = (v != Variant::NonPrivate as usize).then_some(clip);
                if add_clipped(sum, &self.grad, clip) && v == Variant::Private as usize {
                    clipped.0 += 1;
                }
            }
            self.evaluations += self.batch.len() as u64;
        }
        clipped.1 += self.batch.len() as u64;
        self.add_noise(at, &mut rng);
        self.descend_models(at)
    }

    /// Draws step t's batch into `self.batch`; returns the step's stream, its noise next.
    fn draw_batch(&mut self, t: u64) -> ChaCha8Rng {
        let mut rng = stream(self.seed, FIRST_STEP_STREAM + t);
        let rows = self.data.rows();
        match &self.correlated {
            Some((_, Some((groups, rate)))) => {
                cyclic_poisson_batch(t, rows, *groups, *rate, &mut rng, &mut self.batch);
            }
            _ => self
                .batches
                .draw(t, rows, self.hyper.q, self.seed, &mut rng, &mut self.batch),
        }
        rng
    }

    /// The private model's noise for step `at.step + 1` from `rng`, added to its sum in `self.sums`.
    fn add_noise(&mut self, at: &mut Checkpoint, rng: &mut ChaCha8Rng) {
        let t = at.step + 1;
        let noise_sd = self.hyper.sigma * self.hyper.clip;
        match &self.correlated {
            None => {
                for s in self.sums[Variant::Private as usize].iter_mut() {
                    *s += noise_sd * rng.sample::<f64, _>(StandardNormal);
                }
            }
            Some((gen, _)) => {
                self.noise.resize(self.arch.params(), 0.0);
                let need = gen.state_len(self.noise.len());
                if at.noise.len() != need {
                    at.noise = vec![0.0; need];
                }
                gen.next(t, self.seed, rng, &mut at.noise, &mut self.noise);
                for (s, w) in self.sums[Variant::Private as usize]
                    .iter_mut()
                    .zip(&self.noise)
                {
                    *s += noise_sd * w;
                }
            }
        }
    }

    /// The end of step `at.step + 1` once the models' (noisy) sums are in `self.sums`: each model's
    /// descent.
    fn descend_models(&mut self, at: &mut Checkpoint) -> Result<()> {
        let t = at.step + 1;
        let Hyper { lr, lambda, .. } = self.hyper;
        let normaliser = self.normaliser;
        for (v, theta) in at.theta.iter_mut().enumerate().take(self.variants) {
            descend(
                theta,
                &self.sums[v],
                &self.penalised,
                lr,
                lambda,
                normaliser,
            );
            if theta.iter().any(|w| !w.is_finite()) {
                return Err(Error::invalid(
                    "lr",
                    lr,
                    format!(
                        "makes the {} model diverge at step {t} (its parameters overflowed): lower the learning rate",
                        Variant::ALL[v].title()
                    ),
                ));
            }
        }
        at.step = t;
        Ok(())
    }

    /// Steps from `at` to step `steps`; false when a model diverged on the way (the run stops there).
    pub fn run_to(&mut self, at: &mut Checkpoint, steps: u64) -> bool {
        let mut clipped = (0, 0);
        while at.step < steps {
            if self.step(at, &mut clipped).is_err() {
                return false;
            }
        }
        true
    }

    /// The noisy sum's normaliser and the gradients' sum of step `at.step + 1` for the private model,
    /// before the update (for the statistical test of the step's distribution).
    #[cfg(test)]
    fn private_direction(&mut self, at: &Checkpoint) -> Result<Vec<f64>> {
        let mut copy = at.clone();
        let before = copy.theta[0].clone();
        self.step(&mut copy, &mut (0, 0))?;
        let Hyper { lr, lambda, .. } = self.hyper;
        Ok(before
            .iter()
            .zip(&copy.theta[0])
            .zip(&self.penalised)
            .map(|((b, a), pen)| (b - a) / lr - if *pen { lambda * b } else { 0.0 })
            .collect())
    }
}

/// A Poisson sample of 0..n: each index independently with probability q, drawn as geometric gaps
/// (the gap to the next index in the sample is Geometric(q): ⌊ln V / ln(1 − q)⌋ with V uniform on
/// (0, 1]), so a step costs O(qn) draws rather than n. q = 1 takes every index.
pub fn poisson_batch<R: Rng + ?Sized>(n: usize, q: f64, rng: &mut R, out: &mut Vec<usize>) {
    out.clear();
    if q >= 1.0 {
        out.extend(0..n);
        return;
    }
    let log_keep = (-q).ln_1p();
    let mut i = 0usize;
    while i < n {
        let v = 1.0 - rng.random::<f64>();
        let gap = (v.ln() / log_keep).floor();
        if gap >= (n - i) as f64 {
            break;
        }
        i += gap as usize;
        out.push(i);
        i += 1;
    }
}

/// Mean loss (log-loss, or cross-entropy for K classes) and accuracy (threshold ½, or the largest
/// logit) of parameters `theta` on `data`.
pub fn evaluate<D: Examples + ?Sized>(arch: &Architecture, theta: &[f64], data: &D) -> (f64, f64) {
    let (loss, right) = evaluate_rows(arch, theta, data, 0..data.rows());
    let n = data.rows().max(1) as f64;
    (loss / n, right as f64 / n)
}

/// The summed loss, in row order, and the count predicted right over `rows` of `data` (a share of
/// [`evaluate`]'s work).
pub fn evaluate_rows<D: Examples + ?Sized>(
    arch: &Architecture,
    theta: &[f64],
    data: &D,
    rows: std::ops::Range<usize>,
) -> (f64, u64) {
    let mut ws = arch.workspace();
    let mut row = Vec::new();
    let (mut loss, mut right) = (0.0, 0);
    for i in rows {
        let y = data.label(i);
        let (l, class) = arch.loss_and_class(theta, data.features(i, &mut row), y, &mut ws);
        loss += l;
        right += u64::from(class as f64 == y);
    }
    (loss, right)
}

/// Every training row's gradient norm ‖∇f(θ; xᵢ)‖₂ at `theta` (what clipping sees).
pub fn gradient_norms(arch: &Architecture, theta: &[f64], data: &Dataset) -> Vec<f64> {
    let mut ws = arch.workspace();
    let mut grad = vec![0.0; arch.params()];
    (0..data.rows())
        .map(|i| {
            arch.gradient(theta, data.row(i), data.y[i], &mut grad, &mut ws);
            grad.iter().map(|g| g * g).sum::<f64>().sqrt()
        })
        .collect()
}

mod shares;
#[cfg(test)]
mod tests;

pub use shares::DrawnStep;
