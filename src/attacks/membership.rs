//! Membership inference on ordinary records: K models, each trained on a random half of a pool of
//! records, and each model in turn the target whose members an attack guesses from the record's
//! logit-scaled confidence φ = ln(p/(1 − p)), p the model's probability of the record's true label.
//!
//! - Loss threshold (Yeom, Giacomelli, Fredrikson & Jha, CSF 2018): guess "member" when the loss is
//!   low. The log-loss is −ln p = ln(1 + e^{−φ}), decreasing in φ, so the score is φ itself.
//! - LiRA (Carlini, Chien, Nasr, Song, Terzis & Tramèr, S&P 2022): the other K − 1 models are the
//!   shadows. For each record, fit N(μ_in, σ_in²) to φ over the shadows that trained on it and
//!   N(μ_out, σ_out²) over those that did not; the online score is the log-likelihood ratio of the
//!   target's φ, the offline score the one-sided test against OUT alone, (φ − μ_out)/σ_out (monotone
//!   in their 1 − P(Z > φ) for Z ~ N(μ_out, σ_out²)). The variances are pooled over records and models
//!   (their "fixed variance" variant, meant for few shadow models): with tens of shadows a record's
//!   own variance is too noisy to divide by.
//!
//! The scores of every (target, record) pair are pooled into one ROC. A DP guarantee bounds it: each
//! record's test lies above the trade-off curve f, and f is convex, so the pooled test does too
//! (average FNR ≥ average f(FPRᵢ) ≥ f(average FPR)).

use crate::accounting::pld::dpsgd::dpsgd_plds;
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::tradeoff::{beta_both, TradeOff};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// What the attacks see: every model's φ on every record of the pool, and who trained on what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observations {
    /// Models.
    pub models: usize,
    /// Records of the pool.
    pub records: usize,
    /// φ of model k on record i at `k * records + i`.
    pub phi: Vec<f64>,
    /// Whether model k trained on record i, at the same index.
    pub member: Vec<bool>,
}

/// The LiRA variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lira {
    /// Shadows with and without the record: the likelihood ratio.
    Online,
    /// Shadows without the record only: the one-sided test.
    Offline,
}

/// The smallest variance an attack divides by (models that agree to rounding).
const MIN_VARIANCE: f64 = 1e-12;

impl Observations {
    /// Checks the shapes and values.
    ///
    /// # Errors
    /// Fewer than 2 models or 1 record, arrays of the wrong length, or a NaN φ.
    pub fn validate(&self) -> Result<()> {
        let cells = self.models * self.records;
        if self.models < 2 || self.records == 0 {
            return Err(Error::invalid(
                "shadows",
                self.models,
                "needs at least 2 models and a record",
            ));
        }
        if self.phi.len() != cells || self.member.len() != cells {
            return Err(Error::invalid(
                "observations",
                self.phi.len(),
                format!("must hold {cells} values"),
            ));
        }
        if self.phi.iter().any(|v| v.is_nan()) {
            return Err(Error::invalid("observations", "NaN", "φ must be numbers"));
        }
        Ok(())
    }

    /// The pairs' scores split by membership, (members', non-members').
    fn split(&self, score: impl Fn(usize, usize) -> f64) -> (Vec<f64>, Vec<f64>) {
        let (mut ins, mut outs) = (Vec::new(), Vec::new());
        for k in 0..self.models {
            for i in 0..self.records {
                let s = score(k, i);
                if self.member[k * self.records + i] {
                    ins.push(s);
                } else {
                    outs.push(s);
                }
            }
        }
        (ins, outs)
    }

    /// The loss-threshold attack's scores (φ), members' then non-members'.
    ///
    /// # Errors
    /// See [`Observations::validate`].
    pub fn loss_scores(&self) -> Result<(Vec<f64>, Vec<f64>)> {
        self.validate()?;
        Ok(self.split(|k, i| self.phi[k * self.records + i]))
    }

    /// LiRA's scores, members' then non-members', each target's against the other models (leave one
    /// out). A record no other model trained on (or every one did) falls back on the pool's mean for
    /// that side.
    ///
    /// # Errors
    /// See [`Observations::validate`].
    pub fn lira_scores(&self, variant: Lira) -> Result<(Vec<f64>, Vec<f64>)> {
        self.validate()?;
        let n = self.records;
        // Per record: count, sum and sum of squares of φ on each side, over all models.
        let mut side = vec![[(0.0f64, 0.0f64, 0.0f64); 2]; n];
        for k in 0..self.models {
            for (i, s) in side.iter_mut().enumerate() {
                let (phi, m) = (self.phi[k * n + i], self.member[k * n + i]);
                let acc = &mut s[usize::from(m)];
                acc.0 += 1.0;
                acc.1 += phi;
                acc.2 += phi * phi;
            }
        }
        // The pooled within-record variance of each side, and its overall mean (the fallback).
        let pooled = |m: usize| {
            let (mut ss, mut dof, mut sum, mut count) = (0.0, 0.0, 0.0, 0.0);
            for s in &side {
                let (c, t, t2) = s[m];
                if c >= 2.0 {
                    ss += (t2 - t * t / c).max(0.0);
                    dof += c - 1.0;
                }
                sum += t;
                count += c;
            }
            let var = if dof > 0.0 { ss / dof } else { 1.0 };
            (
                var.max(MIN_VARIANCE),
                if count > 0.0 { sum / count } else { 0.0 },
            )
        };
        let (var_out, mean_out) = pooled(0);
        let (var_in, mean_in) = pooled(1);
        let loo_mean = |i: usize, m: usize, own: Option<f64>, fallback: f64| {
            let (c, t, _) = side[i][m];
            let (c, t) = match own {
                Some(phi) => (c - 1.0, t - phi),
                None => (c, t),
            };
            if c > 0.0 {
                t / c
            } else {
                fallback
            }
        };
        Ok(self.split(|k, i| {
            let (phi, m) = (self.phi[k * n + i], self.member[k * n + i]);
            // The target's own φ leaves the side it sits on.
            let mu_out = loo_mean(i, 0, (!m).then_some(phi), mean_out);
            let z_out = (phi - mu_out) / var_out.sqrt();
            match variant {
                Lira::Offline => z_out,
                Lira::Online => {
                    let mu_in = loo_mean(i, 1, m.then_some(phi), mean_in);
                    let z_in = (phi - mu_in) / var_in.sqrt();
                    0.5 * (z_out * z_out - z_in * z_in) + 0.5 * (var_out / var_in).ln()
                }
            }
        }))
    }
}

/// What the certified trade-off curve allows any attack on the private models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cap {
    /// The largest TPR at FPR 0.1% and 1%.
    pub tpr_low_fpr: (f64, f64),
    /// The largest AUC (a lower Riemann sum of β, so an upper bound).
    pub auc: f64,
    /// The curve as (FPR, largest TPR), FPR from 10⁻⁵ to 1.
    pub roc: Vec<(f64, f64)>,
}

/// The cap the certified trade-off curve of Poisson DP-SGD (q, σ, T, add/remove; the PLD's upper side)
/// puts on any membership attack: the pooled ROC lies below it (see the module's docs). `None` when the
/// PLD has no curve for these parameters.
pub fn certified_cap(q: f64, sigma: f64, steps: u64, delta: f64) -> Option<Cap> {
    let (upper, _) = dpsgd_plds(q, sigma, steps, delta, DEFAULT_INTERVAL).ok()?;
    let curves: Vec<TradeOff> = upper.iter().map(TradeOff::from_pld).collect();
    let tpr = |a: f64| 1.0 - beta_both(&curves, a);
    // Log-spaced below 10⁻², linear above: the pieces are small where β changes fastest.
    let grid: Vec<f64> = (0..300)
        .map(|i| 10f64.powf(-5.0 + 3.0 * f64::from(i) / 300.0))
        .chain((10..=1000).map(|i| f64::from(i) / 1000.0))
        .collect();
    // β decreases: on [a, b] it is at least β(b), so Σ (b − a)·β(b) is a lower sum, 1 − it an upper
    // bound on the AUC (the first piece, [0, 10⁻⁵], counted with β(10⁻⁵) likewise).
    let auc = 1.0
        - grid
            .iter()
            .scan(0.0, |prev, &b| {
                let w = b - *prev;
                *prev = b;
                Some(w * (1.0 - tpr(b)))
            })
            .sum::<f64>();
    Some(Cap {
        tpr_low_fpr: (tpr(0.001), tpr(0.01)),
        auc,
        roc: grid.iter().map(|&a| (a, tpr(a))).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::scores::Sweep;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::StandardNormal;

    /// Records whose φ shifts by `gap` when trained on, each record with its own baseline (which a
    /// global threshold cannot see past, and LiRA's per-record means can).
    fn synthetic(models: usize, records: usize, gap: f64, seed: u64) -> Observations {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let base: Vec<f64> = (0..records)
            .map(|_| 3.0 * rng.sample::<f64, _>(StandardNormal))
            .collect();
        let (mut phi, mut member) = (Vec::new(), Vec::new());
        for _ in 0..models {
            for b in &base {
                let m = rng.random::<bool>();
                let noise: f64 = rng.sample(StandardNormal);
                phi.push(b + if m { gap } else { 0.0 } + 0.5 * noise);
                member.push(m);
            }
        }
        Observations {
            models,
            records,
            phi,
            member,
        }
    }

    #[test]
    fn lira_sees_past_each_records_baseline_and_the_loss_attack_does_not() {
        let obs = synthetic(64, 300, 1.0, 7);
        let auc = |(ins, outs): (Vec<f64>, Vec<f64>)| Sweep::new(&ins, &outs).unwrap().auc();
        let loss = auc(obs.loss_scores().unwrap());
        let online = auc(obs.lira_scores(Lira::Online).unwrap());
        let offline = auc(obs.lira_scores(Lira::Offline).unwrap());
        // Closed form: a shift of 1 in noise of sd 0.5 is separated with AUC Φ(1/(0.5√2)) = 0.921;
        // the baseline's sd 3 drowns it for a global threshold, Φ(1/√(2(9 + 0.25))) = 0.592.
        assert!((online - 0.921).abs() < 0.02, "online {online}");
        assert!((offline - 0.921).abs() < 0.02, "offline {offline}");
        assert!((loss - 0.592).abs() < 0.03, "loss {loss}");
    }

    #[test]
    fn no_signal_gives_a_coin_flip_and_bad_shapes_are_refused() {
        let obs = synthetic(32, 200, 0.0, 3);
        for (ins, outs) in [
            obs.loss_scores().unwrap(),
            obs.lira_scores(Lira::Online).unwrap(),
        ] {
            let auc = Sweep::new(&ins, &outs).unwrap().auc();
            // 6,400 pairs: the hull's AUC of pure noise sits a little above ½.
            assert!((0.49..0.53).contains(&auc), "{auc}");
        }
        let bad = Observations {
            phi: vec![f64::NAN; obs.phi.len()],
            ..obs.clone()
        };
        assert!(bad.lira_scores(Lira::Online).is_err());
        assert!(Observations {
            models: 1,
            ..obs.clone()
        }
        .loss_scores()
        .is_err());
        assert!(Observations { records: 3, ..obs }.loss_scores().is_err());
        // Every model trained on every record: no OUT side, the fallback mean, no panic or NaN.
        let all = Observations {
            models: 3,
            records: 2,
            phi: vec![1.0, 2.0, 1.5, 2.5, 0.5, 1.0],
            member: vec![true; 6],
        };
        let (ins, outs) = all.lira_scores(Lira::Online).unwrap();
        assert!(outs.is_empty() && ins.iter().all(|s| s.is_finite()));
    }
}
