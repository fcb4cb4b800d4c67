//! The three accountants of Figure 2 of Yang, Qi & Zhou (AAAI 2024), per step of subsampled-Gaussian
//! gradient descent: the moments accountant (DP, data-independent), the Bayesian accountant (BDP,
//! Triastcyn & Faltings 2020, from the pairwise gradient distances) and the Wasserstein accountant (WDP,
//! Corollary 1, from the same distances). The constants and estimator details follow the spec
//! `shared/specs/wdp-figures.md`, which fixes them from the authors' code where the paper is silent.

use super::moments::AbsMoment;
use crate::numerics::special::{ln_add_exp, students_t_upper_quantile};
use statrs::function::factorial::ln_binomial;

/// The accountants' constants (Figure 2's values in [`Default`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accounting {
    /// Sampling probability q.
    pub q: f64,
    /// Noise multiplier σ (the noise's standard deviation is σ·C).
    pub sigma: f64,
    /// Target δ.
    pub delta: f64,
    /// Moments order λ of DP and BDP (a whole number).
    pub lambda: u32,
    /// Order μ of WDP.
    pub mu: f64,
    /// β of WDP's tail bound (Theorem 3).
    pub beta: f64,
    /// Steps T (the BDP estimator scales its samples by T).
    pub steps: u32,
}

impl Default for Accounting {
    /// Figure 2: q = 1/1000, σ = 0.2, δ = 1e-5, λ = μ = 16, β = 1, T = 100.
    fn default() -> Self {
        Accounting {
            q: 1e-3,
            sigma: 0.2,
            delta: 1e-5,
            lambda: 16,
            mu: 16.0,
            beta: 1.0,
            steps: 100,
        }
    }
}

crate::choice! {
    /// How WDP's step term combines the pairs.
    #[derive(Debug)]
    pub enum PairRule {
        /// (Σ over pairs of E|Z_ab|^μ)^{1/μ}: what the authors' code (and the published figure) does.
        Sum = "sum" => "sum (authors' code, the figure)",
        /// min over pairs of (E|Z_ab|^μ)^{1/μ}: Corollary 1's "inf over d_t" read literally.
        Inf = "inf" | "min" => "inf (Corollary 1 literally)",
    }
}

impl Accounting {
    /// ln Σ_{k=0}^{λ+1} Binom(k; λ+1, q)·exp(k(k−1)·r²/(2σ²)) for a distance r in units of C.
    ///
    /// # Formula
    /// The moment bound of the subsampled Gaussian at order λ (Abadi et al. CCS 2016, Thm 2's proof, in the
    /// form Triastcyn & Faltings 2020 use for both the moments and the Bayesian accountant). Summed in log
    /// space, so r up to ~1e150 stays finite.
    pub fn ln_moment_bound(&self, r: f64) -> f64 {
        self.moment_bound().ln_at(r)
    }

    /// The moment bound's coefficients, computed once for many distances.
    pub fn moment_bound(&self) -> MomentBound {
        let n = u64::from(self.lambda) + 1;
        let (ln_q, ln_1q) = (self.q.ln(), (-self.q).ln_1p());
        let terms = (0..=n)
            .map(|k| {
                let kf = k as f64;
                let base = ln_binomial(n, k) + kf * ln_q + (n - k) as f64 * ln_1q;
                (base, kf * (kf - 1.0) / (2.0 * self.sigma * self.sigma))
            })
            .collect();
        MomentBound { terms }
    }

    /// The moments accountant's step cost: the worst case distance 2C (data-independent).
    pub fn dp_step(&self) -> f64 {
        self.ln_moment_bound(2.0)
    }

    /// ε after a total cost `c` (Σ of step costs) of DP or BDP: (c − ln δ)/λ.
    pub fn moments_epsilon(&self, total: f64) -> f64 {
        (total - self.delta.ln()) / f64::from(self.lambda)
    }

    /// ε after a total WDP cost: Σ w_t − (ln δ)/β (Corollary 1, eq. 16).
    pub fn wdp_epsilon(&self, total: f64) -> f64 {
        total - self.delta.ln() / self.beta
    }

    /// The Bayesian accountant's step cost from the pairwise distances `d` (absolute) and clipping norm C.
    ///
    /// # Formula
    /// Triastcyn & Faltings (2020), as the spec fixes it: c_ab = ln_moment_bound(d_ab/C); samples
    /// L_ab = T·c_ab (n pairs); lmm = logsumexp(L) − ln n (log of the sample mean of e^L);
    /// lsd = ½(2M − ln n + ln Σ(e^{2L−2M} − e^{2·lmm−2M})) (log of the sample s.d. of e^L, M = max L);
    /// pen = ln t_{n−1}.ppf(1 − 2⁻⁵³) + lsd − ½ ln(n − 1); b = logsumexp(lmm, pen)/T. With fewer than two
    /// pairs, or a spread of L below machine epsilon (where the s.d. is rounding noise), b = lmm/T.
    pub fn bdp_step(&self, d: &[f64], clip: f64) -> f64 {
        let t = f64::from(self.steps);
        let bound = self.moment_bound();
        let samples: Vec<f64> = d.iter().map(|&x| t * bound.ln_at(x / clip)).collect();
        let n = samples.len() as f64;
        let max = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lmm = max + samples.iter().map(|l| (l - max).exp()).sum::<f64>().ln() - n.ln();
        let mean = samples.iter().sum::<f64>() / n;
        let spread = (samples.iter().map(|l| (l - mean) * (l - mean)).sum::<f64>() / n).sqrt();
        if samples.len() < 2 || spread.is_nan() || spread < f64::EPSILON {
            return lmm / t;
        }
        let second = samples.iter().map(|l| (2.0 * (l - max)).exp()).sum::<f64>()
            - n * (2.0 * (lmm - max)).exp();
        if second.is_nan() || second <= 0.0 {
            return lmm / t;
        }
        let lsd = 0.5 * (2.0 * max - n.ln() + second.ln());
        let t_quantile = students_t_upper_quantile(n - 1.0, 2f64.powi(-53));
        let pen = t_quantile.ln() + lsd - 0.5 * (n - 1.0).ln();
        ln_add_exp(lmm, pen) / t
    }

    /// ln E|Z_ab|^μ for each pair, Z_ab ~ N(q·d_ab, (2 − 2q + 2q²)σ²C²) (Theorem 2, Lemma 1).
    pub fn wdp_ln_moments(&self, d: &[f64], clip: f64) -> Vec<f64> {
        let q = self.q;
        let s = ((2.0 - 2.0 * q + 2.0 * q * q) * self.sigma * self.sigma).sqrt() * clip;
        match AbsMoment::new(self.mu, s) {
            Some(moment) => d.iter().map(|&x| moment.ln_at(q * x)).collect(),
            None => vec![f64::NAN; d.len()],
        }
    }

    /// The Wasserstein accountant's step term from ln E|Z_ab|^μ over the pairs.
    ///
    /// # Formula
    /// Sum: (Σ_ab E|Z_ab|^μ)^{1/μ} = exp(logsumexp(ln m_ab)/μ), the authors' code; Inf: exp(min ln m_ab / μ).
    pub fn wdp_step(&self, ln_moments: &[f64], rule: PairRule) -> f64 {
        let ln_total = match rule {
            PairRule::Sum => ln_moments
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, ln_add_exp),
            PairRule::Inf => ln_moments.iter().copied().fold(f64::INFINITY, f64::min),
        };
        (ln_total / self.mu).exp()
    }
}

/// ln Σ_k e^{base_k + quad_k·r²}: the moment bound with its coefficients precomputed.
#[derive(Debug, Clone)]
pub struct MomentBound {
    terms: Vec<(f64, f64)>,
}

impl MomentBound {
    /// The bound at distance r (in units of C), by log-sum-exp over its λ + 2 terms.
    pub fn ln_at(&self, r: f64) -> f64 {
        let r2 = r * r;
        let max = self
            .terms
            .iter()
            .map(|(b, c)| b + c * r2)
            .fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            return max;
        }
        max + self
            .terms
            .iter()
            .map(|(b, c)| (b + c * r2 - max).exp())
            .sum::<f64>()
            .ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: [f64; 6] = [1.0, 1.5, 2.0, 0.5, 1.2, 1.8];

    fn close(got: f64, want: f64, rel: f64) -> bool {
        ((got - want) / want).abs() < rel
    }

    /// The spec's unit vector: pairs given directly, C = 1, Figure 2's constants.
    #[test]
    fn spec_unit_vector() {
        let acc = Accounting::default();
        let want_c = [
            3282.568160,
            7532.568160,
            13482.568160,
            732.568160,
            4778.568160,
            10898.568160,
        ];
        for (d, want) in D.iter().zip(want_c) {
            assert!((acc.ln_moment_bound(*d) - want).abs() < 1e-6, "d = {d}");
        }
        assert!((acc.dp_step() - 13_482.568_160_257).abs() < 1e-8);
        let b = acc.bdp_step(&D, 1.0);
        assert!((b - 13_482.628_220_880).abs() < 1e-8, "BDP step {b}");
        let w = acc.wdp_step(&acc.wdp_ln_moments(&D, 1.0), PairRule::Sum);
        assert!(close(w, 0.783_694_172_65, 1e-10), "WDP step {w}");
        assert!((acc.moments_epsilon(acc.dp_step()) - 843.380_07).abs() < 1e-5);
        assert!((acc.moments_epsilon(b) - 843.383_82).abs() < 1e-5);
        assert!((acc.wdp_epsilon(w) - 12.296_619_64).abs() < 1e-8);
        for (q, mu, want) in [
            (0.1, 2.5, 0.678_284_16),
            (0.5, 4.0, 1.350_812_78),
            (0.05, 16.0, 0.787_837_65),
        ] {
            let acc = Accounting {
                q,
                mu,
                ..Accounting::default()
            };
            let w = acc.wdp_step(&acc.wdp_ln_moments(&D, 1.0), PairRule::Sum);
            assert!(close(w, want, 1e-8), "q = {q}, μ = {mu}: {w}");
        }
    }

    /// The inf rule takes the closest pair alone, so it never exceeds the sum rule.
    #[test]
    fn inf_rule_is_the_smallest_pair() {
        let acc = Accounting::default();
        let ln_m = acc.wdp_ln_moments(&D, 1.0);
        let inf = acc.wdp_step(&ln_m, PairRule::Inf);
        let single = acc.wdp_step(&acc.wdp_ln_moments(&[0.5], 1.0), PairRule::Sum);
        assert!(close(inf, single, 1e-14));
        assert!(inf < acc.wdp_step(&ln_m, PairRule::Sum));
    }

    /// Degenerate inputs: one pair, equal distances (zero spread) give the plain log-mean.
    #[test]
    fn bdp_without_spread_is_the_log_mean() {
        let acc = Accounting::default();
        let one = acc.bdp_step(&[1.0], 1.0);
        assert!((one - acc.ln_moment_bound(1.0)).abs() < 1e-9);
        let same = acc.bdp_step(&[0.7; 10], 1.0);
        assert!((same - acc.ln_moment_bound(0.7)).abs() < 1e-9);
    }
}
