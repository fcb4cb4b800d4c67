//! Monte Carlo estimates of Theorem 3.1's R = max_x Σ_w q(w) r(w, x) (Remark 3.2(c)): from exact draws on
//! the grid, and from Langevin dynamics on the continuous parameter (Remark 3.1), with its trace.

use super::gibbs::Instance;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Indices of `count` exact draws from q on the grid (inverse CDF; ChaCha8 from `seed`).
pub fn grid_draws(log_q: &[f64], count: usize, seed: u64) -> Vec<usize> {
    let mut cdf = Vec::with_capacity(log_q.len());
    let mut total = 0.0;
    for l in log_q {
        total += l.exp();
        cdf.push(total);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let u = rng.random::<f64>() * total;
            cdf.partition_point(|&c| c <= u).min(log_q.len() - 1)
        })
        .collect()
}

/// Remark 3.2(c)'s estimator fed one sampled parameter at a time: for each candidate x the running mean
/// of r(w_s, x); R̂ is the largest mean.
#[derive(Debug, Clone)]
pub struct RunningR {
    cands: Vec<super::Point>,
    sums: Vec<f64>,
    /// Running sums of ∂ₓr(w_s, x_i) at the data points (Remark 3.4(b)).
    grad_sums: Vec<f64>,
    count: usize,
}

impl RunningR {
    /// An empty estimate over the instance's candidate set.
    pub fn new(inst: &Instance) -> Self {
        let cands = inst.candidates();
        RunningR {
            sums: vec![0.0; cands.len()],
            grad_sums: vec![0.0; inst.data.len()],
            cands,
            count: 0,
        }
    }

    /// Adds one sampled parameter.
    pub fn add(&mut self, inst: &Instance, w: (f64, f64)) {
        for (acc, &c) in self.sums.iter_mut().zip(&self.cands) {
            *acc += inst.risk_at(w, c);
        }
        for (acc, &x) in self.grad_sums.iter_mut().zip(&inst.data) {
            *acc += inst.risk_dx(w, x);
        }
        self.count += 1;
    }

    /// Samples added so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// R̂ (NaN before the first sample).
    pub fn value(&self) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        self.sums
            .iter()
            .fold(0.0_f64, |m, x| m.max(x / self.count as f64))
    }

    /// Remark 3.4(b): the estimate of Thm 3.3's R = ‖Σ_w q(w) r(w,·)‖_{Ḣ¹(p)}, i.e. the L²(p) norm of the
    /// sample means of ∂ₓr(w_s, x_i) (NaN before the first sample).
    pub fn value_h1(&self) -> f64 {
        if self.count == 0 || self.grad_sums.is_empty() {
            return f64::NAN;
        }
        let n = self.grad_sums.len() as f64;
        let c = self.count as f64;
        (self
            .grad_sums
            .iter()
            .map(|g| (g / c) * (g / c))
            .sum::<f64>()
            / n)
            .sqrt()
    }
}

/// Remark 3.2(c): R̂ = max over candidates of the sample mean of r(w_s, x), at each checkpoint
/// (number of draws used), as (draws, R̂).
pub fn estimate_r(
    inst: &Instance,
    params: &[(f64, f64)],
    draws: &[usize],
    checkpoints: &[usize],
) -> Vec<(usize, f64)> {
    let mut running = RunningR::new(inst);
    let mut out = Vec::new();
    for &w in draws {
        running.add(inst, params[w]);
        if checkpoints.contains(&running.count()) {
            out.push((running.count(), running.value()));
        }
    }
    out
}

/// Half-width h with P[|R̂ − R| > h] ≤ α for losses in [0, b] over k candidates from s draws: Hoeffding's
/// inequality for each candidate's mean and a union bound (a max of means moves by at most the largest move).
pub fn hoeffding_half_width(b: f64, k: usize, s: usize, alpha: f64) -> f64 {
    b * ((2.0 * k as f64 / alpha).ln() / (2.0 * s as f64)).sqrt()
}

/// Langevin dynamics for q ∝ exp(−β R(w)) on the box of the grid (reflected at its walls):
/// w ← w − h·β·∇R(w) + √(2h)·ξ, from the box's centre, `steps` steps of size `h`. Returns the trace.
/// Needs a loss with a useful gradient (the 0/1 loss has none: its chain is a plain random walk).
pub fn langevin(inst: &Instance, steps: usize, h: f64, seed: u64) -> Vec<(f64, f64)> {
    let mut chain = LangevinChain::new(inst, h, seed);
    chain.run(inst, steps)
}

/// A Langevin chain that can be run a few steps at a time (see [`langevin`]).
#[derive(Debug, Clone)]
pub struct LangevinChain {
    w: (f64, f64),
    h: f64,
    rng: ChaCha8Rng,
}

impl LangevinChain {
    /// A chain at the centre of the grid's box.
    pub fn new(inst: &Instance, h: f64, seed: u64) -> Self {
        let centre = 0.5 * (inst.wgrid.min + inst.wgrid.max);
        let second = if inst.model == super::Model::Linear2d {
            centre
        } else {
            0.0
        };
        LangevinChain {
            w: (centre, second),
            h,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Runs `steps` more steps; returns their states.
    pub fn run(&mut self, inst: &Instance, steps: usize) -> Vec<(f64, f64)> {
        let (lo, hi) = (inst.wgrid.min, inst.wgrid.max);
        let two_d = inst.model == super::Model::Linear2d;
        let reflect = |mut x: f64| {
            for _ in 0..4 {
                if x < lo {
                    x = 2.0 * lo - x;
                } else if x > hi {
                    x = 2.0 * hi - x;
                }
            }
            x.clamp(lo, hi)
        };
        let n = inst.data.len() as f64;
        let (h, noise) = (self.h, (2.0 * self.h).sqrt());
        let mut trace = Vec::with_capacity(steps);
        for _ in 0..steps {
            let (mut g0, mut g1) = (0.0, 0.0);
            for &p in &inst.data {
                let s = inst.loss.slope(inst.model.margin(self.w, p));
                let (d0, d1) = inst.model.margin_dw(p);
                g0 += s * d0;
                g1 += s * d1;
            }
            let z0: f64 = StandardNormal.sample(&mut self.rng);
            self.w.0 = reflect(self.w.0 - h * inst.beta * g0 / n + noise * z0);
            if two_d {
                let z1: f64 = StandardNormal.sample(&mut self.rng);
                self.w.1 = reflect(self.w.1 - h * inst.beta * g1 / n + noise * z1);
            }
            trace.push(self.w);
        }
        trace
    }
}

/// R̂ from a Langevin trace: max over candidates of the mean of r(w_t, x) over every `thin`-th state after
/// the first tenth (burn-in).
pub fn estimate_r_langevin(inst: &Instance, trace: &[(f64, f64)], thin: usize) -> f64 {
    let mut running = RunningR::new(inst);
    for &w in trace.iter().skip(trace.len() / 10).step_by(thin.max(1)) {
        running.add(inst, w);
    }
    running.value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tangent::gibbs::log_gibbs;
    use crate::tangent::norms::norms;
    use crate::tangent::{mixture, Grid, Loss, Model};

    fn inst(loss: Loss, beta: f64) -> Instance {
        Instance {
            model: Model::Threshold,
            loss,
            beta,
            data: mixture(100, 21),
            wgrid: Grid {
                min: -3.0,
                max: 3.0,
                count: 121,
            },
            xgrid: Grid {
                min: -3.0,
                max: 3.0,
                count: 7,
            },
        }
    }

    /// The grid estimate lies within its stated simultaneous error (α = 1e-6, so a false failure is rarer
    /// than one in a million; the seeds are fixed anyway) for every loss and several sample sizes.
    #[test]
    fn grid_estimate_is_within_its_stated_error() {
        for loss in [Loss::ZeroOne, Loss::Savage, Loss::Tangent] {
            let inst = inst(loss, 15.0);
            let params = inst.params();
            let lq = log_gibbs(inst.beta, &inst.risk(&params, &inst.uniform()));
            let exact = norms(&inst, &params, &lq);
            let draws = grid_draws(&lq, 4000, 9);
            let k = inst.candidates().len();
            for (s, est) in estimate_r(&inst, &params, &draws, &[100, 1000, 4000]) {
                let h = hoeffding_half_width(exact.r_max, k, s, 1e-6);
                assert!(
                    (est - exact.r_thm31).abs() <= h,
                    "{loss} s={s}: {est} vs {} ± {h}",
                    exact.r_thm31
                );
            }
        }
    }

    /// Remark 3.4(b)'s estimate converges to Thm 3.3's R (a loose check at 20 000 exact draws).
    #[test]
    fn gradient_estimate_approaches_theorem_33_r() {
        let inst = inst(Loss::Logistic, 8.0);
        let params = inst.params();
        let lq = log_gibbs(inst.beta, &inst.risk(&params, &inst.uniform()));
        let exact = norms(&inst, &params, &lq).r_thm33;
        let mut running = RunningR::new(&inst);
        for w in grid_draws(&lq, 20_000, 5) {
            running.add(&inst, params[w]);
        }
        assert!(
            (running.value_h1() - exact).abs() < 0.02 * exact,
            "{} vs {exact}",
            running.value_h1()
        );
    }

    /// Draws follow q: the empirical mean of w is within 6 standard errors of Σ q(w) w.
    #[test]
    fn grid_draws_follow_q() {
        let inst = inst(Loss::Logistic, 5.0);
        let params = inst.params();
        let lq = log_gibbs(inst.beta, &inst.risk(&params, &inst.uniform()));
        let q: Vec<f64> = lq.iter().map(|l| l.exp()).collect();
        let mean: f64 = q.iter().zip(&params).map(|(q, w)| q * w.0).sum();
        let var: f64 = q
            .iter()
            .zip(&params)
            .map(|(q, w)| q * (w.0 - mean).powi(2))
            .sum();
        let draws = grid_draws(&lq, 20_000, 1);
        let got = draws.iter().map(|&i| params[i].0).sum::<f64>() / 20_000.0;
        assert!(
            (got - mean).abs() < 6.0 * (var / 20_000.0).sqrt(),
            "{got} vs {mean}"
        );
    }

    /// Langevin at moderate β mixes: its R̂ approaches the exact R (a loose check: the chain's
    /// discretisation and autocorrelation are not in the stated error), and its trace stays in the box.
    #[test]
    fn langevin_estimate_approaches_the_exact_value() {
        let inst = inst(Loss::Savage, 10.0);
        let params = inst.params();
        let lq = log_gibbs(inst.beta, &inst.risk(&params, &inst.uniform()));
        let exact = norms(&inst, &params, &lq).r_thm31;
        let trace = langevin(&inst, 40_000, 0.005, 3);
        assert!(trace.iter().all(|w| (-3.0..=3.0).contains(&w.0)));
        let est = estimate_r_langevin(&inst, &trace, 10);
        assert!(
            (est - exact).abs() < 0.05 * exact + 0.01,
            "{est} vs {exact}"
        );
    }
}
