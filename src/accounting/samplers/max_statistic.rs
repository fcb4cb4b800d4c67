//! Lower bounds for samplers whose exact PLD is not known: the worst pair of one epoch seen through one
//! statistic, the largest coordinate of the epoch's b noisy batch sums (Chua, Ghazi, Kamath, Kumar,
//! Manurangsi, Sinha & Zhang, "How private are DP-SGD implementations?", ICML 2024, Section 4).
//!
//! Within an epoch the record sits in one of b batches, uniformly. With every other record's gradient
//! fixed, the b sums, shifted by a known constant, are P = (1/b) Σ_t N(μ_P e_t, σ²I) against
//! Q = (1/b) Σ_t N(μ_Q e_t, σ²I). Their largest coordinate Y has
//! P(Y ≤ c) = Φ((c − μ)/σ) Φ(c/σ)^{b−1} (the same for every t). Binning Y is a post-processing, so the
//! binned pair is dominated by the true one and its ε is a lower bound; epochs reshuffled
//! independently compose (the composition of dominated pairs is dominated).

use crate::accounting::pld::dpsgd::{compose_capped, tails, Fit};
use crate::accounting::pld::{Pld, Side};
use crate::error::{Error, Result};
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::ln_normal_cdf;

/// Fewest bins of Y between the thresholds (plus one below and one above).
const MIN_BINS: usize = 4000;
/// Most bins.
const MAX_BINS: usize = 400_000;
/// The largest change of the loss across one bin that the bin count aims for.
const LOSS_STEP: f64 = 0.01;
/// The thresholds span where both distributions have all but e^{−TAIL_LN} of their mass.
const TAIL_LN: f64 = 60.0;
/// Atoms lighter than this are dropped (below any δ the accountant resolves, over any number of
/// epochs: dropping only lowers δ).
const MIN_MASS: f64 = 1e-30;

/// The largest loss kept (larger ones are lowered to it).
const MAX_LOSS: f64 = 200.0;

/// One epoch's pair seen through its largest batch sum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaxPair {
    /// Batches per epoch b.
    pub batches: u64,
    /// The record's shift of its batch's sum under P (in units of the clipping norm).
    pub mu_p: f64,
    /// Its shift under Q.
    pub mu_q: f64,
    /// The noise multiplier σ.
    pub sigma: f64,
}

impl MaxPair {
    /// ln P(Y ≤ c) when the record shifts its batch by μ: ln Φ((c − μ)/σ) + (b − 1) ln Φ(c/σ).
    fn ln_cdf(&self, mu: f64, c: f64) -> f64 {
        ln_normal_cdf((c - mu) / self.sigma)
            + (self.batches - 1) as f64 * ln_normal_cdf(c / self.sigma)
    }

    /// (P-mass, Q-mass) of each bin of Y, in increasing Y: differences of the distribution functions
    /// below the median and of the survival functions above it (so that neither tail cancels).
    fn bins(&self) -> Vec<(f64, f64)> {
        let (low_mu, high_mu) = (self.mu_p.min(self.mu_q), self.mu_p.max(self.mu_q));
        let spread = 40.0 * self.sigma + 10.0;
        // Both sides have at most e^{−60} of their mass below c_lo (the smaller shift has the most
        // there) and above c_hi (the larger shift has the most there).
        let c_lo = bisect(
            low_mu - spread,
            high_mu + spread,
            Split::Middle,
            Until::Steps(80),
            |c| self.ln_cdf(low_mu, c) > -TAIL_LN,
        )
        .lo;
        let c_hi = bisect(
            c_lo,
            high_mu + spread,
            Split::Middle,
            Until::Steps(80),
            |c| -self.ln_cdf(high_mu, c).exp_m1() < (-TAIL_LN).exp(),
        )
        .hi;
        // Enough bins that the loss moves by at most LOSS_STEP across one (it moves by about
        // |μ_P − μ_Q|·width/σ² near the top): coarser bins lose the test's resolution at small σ.
        let span = (c_hi - c_lo) * (high_mu - low_mu).max(1.0) / (self.sigma * self.sigma);
        let bins = ((span / LOSS_STEP).ceil() as usize).clamp(MIN_BINS, MAX_BINS);
        let step = (c_hi - c_lo) / bins as f64;
        let split = |mu: f64| {
            // Each threshold's (F, S); bins take F-differences while F < 1/2 and S-differences after.
            let fs: Vec<(f64, f64)> = (0..=bins)
                .map(|j| {
                    let ln_f = self.ln_cdf(mu, c_lo + j as f64 * step);
                    (ln_f.exp(), -ln_f.exp_m1())
                })
                .collect();
            let mut masses = Vec::with_capacity(bins + 2);
            masses.push(fs[0].0);
            for w in fs.windows(2) {
                masses.push(if w[1].0 < 0.5 {
                    w[1].0 - w[0].0
                } else {
                    w[0].1 - w[1].1
                });
            }
            masses.push(fs[bins].1);
            masses
        };
        let (p, q) = (split(self.mu_p), split(self.mu_q));
        p.into_iter().zip(q).collect()
    }

    /// The binned pair's exact privacy profiles, remove (P against Q) then add (Q against P).
    ///
    /// # Errors
    /// b = 0, or σ not finite and positive.
    pub fn profiles(&self) -> Result<[BinnedProfile; 2]> {
        if self.batches == 0 {
            return Err(Error::invalid(
                "batches",
                self.batches,
                "must be at least 1",
            ));
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return Err(Error::invalid(
                "sigma",
                self.sigma,
                "must be a finite number > 0",
            ));
        }
        let bins = self.bins();
        let swapped: Vec<(f64, f64)> = bins.iter().map(|&(p, q)| (q, p)).collect();
        Ok([BinnedProfile::new(&bins), BinnedProfile::new(&swapped)])
    }

    /// The larger direction's lower ε at δ of `epochs` epochs, each its own draw of the pair (0 for
    /// none). One epoch: read off each direction's binned profile exactly
    /// ([`BinnedProfile::epsilon_for_delta`]). Several: each direction's binned profile discretized
    /// from below ([`Pld::from_profile`], second order in the grid width; rounding each loss down
    /// instead drifts by E·h/2) and composed on a grid of width `interval` (widened to fit the FFT, as
    /// every PLD here).
    ///
    /// # Errors
    /// δ outside the PLD accountant's range, or the pair's own errors.
    pub fn lower_epsilon(&self, epochs: u64, delta: f64, interval: f64) -> Result<f64> {
        if epochs == 0 {
            return Ok(0.0);
        }
        let (step_tail, _) = tails(epochs, delta)?;
        let mut worst: f64 = 0.0;
        for profile in self.profiles()? {
            let eps = if epochs == 1 {
                // One epoch needs no composition: ε is read off the binned pair's exact profile.
                profile.epsilon_for_delta(delta)
            } else {
                let build = |width: f64, _: Side| profile.lower_pld(width, step_tail);
                compose_capped(&build, epochs, delta, interval, Side::Lower, Fit::Widen)?
                    .epsilon_for_delta(delta)
            };
            worst = worst.max(eps);
        }
        Ok(worst)
    }
}

/// The exact privacy profile of a binned pair: δ(ε) = Σ_j (p_j − e^ε q_j)₊, from sums over the bins
/// in decreasing loss (tiny masses summed from the top, so that they are not lost beside large ones).
#[derive(Debug, Clone)]
pub struct BinnedProfile {
    /// Each bin's loss ln(p/q), decreasing.
    losses: Vec<f64>,
    /// Σ p over the first k bins, at k.
    p_above: Vec<f64>,
    /// Σ q over the first k bins, at k.
    q_above: Vec<f64>,
}

impl BinnedProfile {
    /// From the bins' (p, q) masses. A bin's q is raised to p·e^{−MAX_LOSS} where it is smaller (or
    /// underflowed): raising a Q-mass only lowers δ, so the profile stays below the true one, and a
    /// tiny σ's losses (up to 1/σ²) stay on a grid of bounded length. Bins with p ≤ MIN_MASS are
    /// dropped (only lowers δ).
    fn new(bins: &[(f64, f64)]) -> BinnedProfile {
        let floor = (-MAX_LOSS).exp();
        let mut kept: Vec<(f64, f64, f64)> = bins
            .iter()
            .filter(|&&(p, _)| p > MIN_MASS)
            .map(|&(p, q)| {
                let q = q.max(p * floor);
                ((p / q).ln(), p, q)
            })
            .collect();
        kept.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (mut p_above, mut q_above) = (vec![0.0], vec![0.0]);
        for &(_, p, q) in &kept {
            p_above.push(p_above[p_above.len() - 1] + p);
            q_above.push(q_above[q_above.len() - 1] + q);
        }
        BinnedProfile {
            losses: kept.iter().map(|x| x.0).collect(),
            p_above,
            q_above,
        }
    }

    /// δ(ε), for every real ε.
    pub fn delta(&self, eps: f64) -> f64 {
        let k = self.losses.partition_point(|&l| l > eps);
        (self.p_above[k] - (eps + self.q_above[k].ln()).exp()).clamp(0.0, 1.0)
    }

    /// The binned pair's ε at δ: the smallest ε ≥ 0 with δ(ε) ≤ δ, bisected to adjacent floats and
    /// rounded down (the binned pair is a post-processing of the true one, so this is a lower bound of
    /// its ε). δ(ε) is continuous and decreasing, and 0 at the largest loss.
    pub fn epsilon_for_delta(&self, delta: f64) -> f64 {
        let top = self.losses.first().copied().unwrap_or(0.0);
        if top <= 0.0 || self.delta(0.0) <= delta {
            return 0.0;
        }
        bisect(0.0, top, Split::Middle, Until::Adjacent(200), |e| {
            self.delta(e) <= delta
        })
        .lo
    }

    /// The lower-side PLD on the grid of width `width`, dropping the mass where δ ≤ `tail`.
    pub(crate) fn lower_pld(&self, width: f64, tail: f64) -> Result<Pld> {
        let (Some(&top), Some(&bottom)) = (self.losses.first(), self.losses.last()) else {
            return Err(Error::invalid("sigma", 0.0, "leaves no mass to account"));
        };
        let hi = if self.delta(bottom) <= tail {
            bottom + width
        } else {
            bisect(bottom, top, Split::Middle, Until::Steps(60), |e| {
                self.delta(e) <= tail
            })
            .hi
        };
        Pld::from_profile(
            |e| self.delta(e),
            bottom,
            hi.max(bottom + width),
            width,
            Side::Lower,
            0.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::{subsampled_gaussian_delta, Direction};

    #[test]
    fn one_batch_is_the_gaussian_mechanism_from_below() {
        // b = 1: Y is the sum itself, N(μ, σ²): the pair is the Gaussian mechanism of sensitivity
        // μ_P − μ_Q (closed form, Balle & Wang 2018), which the binned pair approaches from below.
        let pair = MaxPair {
            batches: 1,
            mu_p: 1.0,
            mu_q: 0.0,
            sigma: 0.8,
        };
        let [remove, add] = pair.profiles().unwrap();
        for eps in [0.0, 0.5, 1.0, 2.0, 4.0] {
            let exact = subsampled_gaussian_delta(1.0, 0.8, eps, Direction::Remove);
            for profile in [&remove, &add] {
                let got = profile.delta(eps);
                assert!(
                    got <= exact * (1.0 + 1e-9) + 1e-15,
                    "ε {eps}: {got} > {exact}"
                );
                assert!(got >= 0.99 * exact - 1e-12, "ε {eps}: {got} ≪ {exact}");
            }
        }
    }

    #[test]
    fn masses_sum_to_one_and_stay_positive_for_many_batches() {
        for (b, sigma) in [(2, 0.5), (100, 1.0), (100_000, 3.0), (1000, 0.05)] {
            let pair = MaxPair {
                batches: b,
                mu_p: 2.0,
                mu_q: 1.0,
                sigma,
            };
            let bins = pair.bins();
            let (sp, sq): (f64, f64) = bins.iter().fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
            assert!(
                (sp - 1.0).abs() < 1e-9 && (sq - 1.0).abs() < 1e-9,
                "b {b}: {sp} {sq}"
            );
            assert!(bins.iter().all(|x| x.0 >= -1e-15 && x.1 >= -1e-15));
            assert!(pair.lower_epsilon(3, 1e-5, 1e-4).is_ok());
        }
    }
}
