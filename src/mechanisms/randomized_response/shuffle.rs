//! The shuffle model: n users each send an ε0-LDP K-RR report, a shuffler hides who sent what, and the
//! analyst sees the multiset of reports. The central (ε, δ) it gets, three ways:
//!
//! - **Clone pairs** (upper bounds). Each reduces the shuffled output to a post-processing of one pair
//!   of distributions on two counts (N0, N1): each of the other n − 1 users is independently a
//!   "0-clone" or a "1-clone" with probability r each (else uninformative), and user 1 reports (0, 1,
//!   nothing) with probabilities (p·a, a, 1 − a − p·a) under P and (a, p·a, 1 − a − p·a) under Q,
//!   p = e^{ε0}. Feldman, McMillan & Talwar (FOCS 2021), "Hiding among the clones": a = 1/(p + 1),
//!   r = 1/(2p); their stronger clones (SODA 2023, the K-RR pair for K = 2): a = r = 1/(p + 1); the
//!   K-RR variation-ratio pair (Wang et al., VLDB 2024): a = r = 1/(p + K − 1).
//! - **The closed form** of Feldman et al. (2021, Thm 3.1), as Apple's `ml-shuffling-amplification`
//!   evaluates it.
//! - **A lower bound** for binary RR: the exact δ of one neighbouring pair (user 1's bit 0 or 1, every
//!   other user's 0), whose reports' count of ones is Bern + Bin(n − 1, 1/(p + 1)).
//!
//! Each pair's δ(ε) is a sum over the informative count m = N0 + N1 (the same law under P and Q) of
//! binomial tails: for fixed m the likelihood ratio is monotone in N0, so the set where P > e^ε Q is a
//! tail (see [`ClonePair::delta`]). Binomial probabilities and tails come from
//! [`crate::numerics::binomial`], accurate to about 10⁻¹² at n = 10⁷, where statrs' log-gammas and
//! incomplete beta function were off by 10⁻⁸ and more.

use crate::error::{Error, Result};
use crate::numerics::binomial::{
    self, lower_tail as binomial_lower, pmf as binomial_pmf, upper_tail as binomial_upper,
};
use crate::numerics::roots::illinois;
use crate::numerics::special::normal_upper_quantile;

crate::choice! {
    /// Which clone pair bounds the shuffled output.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Clones {
        /// Feldman, McMillan & Talwar 2021.
        Fmt2021 = "fmt2021" => "Feldman, McMillan & Talwar 2021 (hiding among the clones)",
        /// Feldman, McMillan & Talwar 2023 (stronger clones).
        Fmt2023 = "fmt2023" => "Feldman, McMillan & Talwar 2023 (stronger clones)",
        /// The K-RR pair (Wang et al. 2024).
        Krr = "krr" => "The K-RR pair (Wang et al. 2024)",
    }
}

/// A clone pair: user 1's informative probability a, each other user's clone probability r (per
/// side), and p = e^{ε0}.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClonePair {
    a: f64,
    r: f64,
    p: f64,
}

/// The counts of Bin(n, q) worth summing: mean ± (9 sd + 30), and a Bernstein bound on the mass
/// outside, 2 exp(−t²/(2(σ² + t/3))) (below e⁻⁴⁰ always), which the upper bounds add.
fn window(n: u64, q: f64) -> (i64, i64, f64) {
    let (mean, var) = (n as f64 * q, n as f64 * q * (1.0 - q));
    let t = 9.0 * var.sqrt() + 30.0;
    let lo = (mean - t).floor().max(0.0) as i64;
    let hi = (mean + t).ceil().min(n as f64) as i64;
    (lo, hi, 2.0 * (-t * t / (2.0 * (var + t / 3.0))).exp())
}

/// P(Bin(N, ½) ≥ k) and P(Bin(N, ½) = k − 1) along the clone pairs' sum, where N grows by one from
/// each m to the next and k by about one half: carried by Pascal's rule, P(Bin(N + 1, ½) ≥ k) =
/// P(Bin(N, ½) ≥ k) + ½·P(Bin(N, ½) = k − 1), and moved along k by one probability at a time, each
/// probability from its neighbour by the ratio of binomial coefficients (k/(N − k + 1)), instead of an
/// incomplete beta function and a log-gamma per m. Computed exactly at the start, after a jump of k,
/// when a subtraction cancels most of the tail or the carried value leaves [0, 1], and every
/// [`HalfTail::RESET`] steps (each step's relative error is a few ulps, amplified at most by the tail's
/// ratio between neighbours: over the 28,000 steps of n = 10⁷ the sum stays within 10⁻¹¹ of scipy's,
/// the size of its own rounding up). Periodic exact values every 128 steps cost half the time when
/// they were statrs' incomplete beta function, and added its error (up to 3·10⁻⁸ at n = 10⁷).
#[derive(Debug, Default)]
struct HalfTail {
    /// N, k, the tail P(Bin(N, ½) ≥ k) and the probability P(Bin(N, ½) = k), when carried.
    at: Option<(u64, i64, f64, f64)>,
    /// Steps since the exact value.
    carried: u32,
}

impl HalfTail {
    /// Steps between exact values (more than the largest window, 28,000 at n = 10⁷).
    const RESET: u32 = 1 << 16;

    /// (P(Bin(n, ½) ≥ k), P(Bin(n, ½) = k − 1)).
    fn at(&mut self, n: u64, k: i64) -> (f64, f64) {
        // The ends are exact (and a carried value there would be rounding noise).
        if k <= 0 || k > n as i64 {
            self.at = None;
            return if k <= 0 {
                (1.0, binomial_pmf(n, 0.5, k - 1))
            } else {
                (0.0, binomial_pmf(n, 0.5, k - 1))
            };
        }
        // P(Bin(N, ½) = j − 1) from P(Bin(N, ½) = j), 1 ≤ j ≤ N.
        let down = |big: u64, j: i64, f: f64| f * j as f64 / (big as i64 - j + 1) as f64;
        let carried = match self.at {
            Some((m, j, s, f))
                if m + 1 == n && (k - j).abs() <= 4 && self.carried < Self::RESET =>
            {
                // From N = n − 1 to n at j: the tail gains ½·P(Bin(m) = j − 1), and P(Bin(n) = j) is
                // the mean of P(Bin(m) = j) and P(Bin(m) = j − 1).
                let below = down(m, j, f);
                let (mut s, mut f, mut j) = (s + 0.5 * below, 0.5 * (f + below), j);
                let mut cancelled = false;
                while j < k {
                    s -= f;
                    // Most of the tail gone in one subtraction: its digits with it.
                    cancelled |= s < 1e-3 * f;
                    f *= (n as i64 - j) as f64 / (j + 1) as f64;
                    j += 1;
                }
                while j > k {
                    f = down(n, j, f);
                    j -= 1;
                    s += f;
                }
                (!cancelled && (0.0..=1.0).contains(&s) && f.is_finite()).then_some((s, f))
            }
            _ => None,
        };
        let (s, f) = match carried {
            Some(sf) => {
                self.carried += 1;
                sf
            }
            None => {
                self.carried = 0;
                (binomial_upper(n, 0.5, k), binomial_pmf(n, 0.5, k))
            }
        };
        self.at = Some((n, k, s, f));
        (s, down(n, k, f))
    }
}

/// A clone pair's ε-free part at n users: for each informative count m of the clones' window, from
/// `first` on, the weights α_m and β_m of [`ClonePair::delta`], and the mass outside the window.
struct Weights {
    first: i64,
    alpha: Vec<f64>,
    beta: Vec<f64>,
    outside: f64,
}

impl ClonePair {
    /// The pair `kind` for ε0-LDP K-RR.
    ///
    /// # Errors
    /// ε0 not finite and positive, or K below 2.
    pub fn new(kind: Clones, eps0: f64, k: u64) -> Result<ClonePair> {
        super::check_eps(eps0)?;
        if k < 2 {
            return Err(Error::invalid("k", k, "must be at least 2"));
        }
        let p = eps0.exp();
        let (a, r) = match kind {
            Clones::Fmt2021 => (1.0 / (p + 1.0), 0.5 / p),
            Clones::Fmt2023 => (1.0 / (p + 1.0), 1.0 / (p + 1.0)),
            Clones::Krr => {
                let v = 1.0 / (p + k as f64 - 1.0);
                (v, v)
            }
        };
        Ok(ClonePair { a, r, p })
    }

    /// δ(ε) of the pair with n users, rounded up.
    ///
    /// With C ~ Bin(n − 1, 2r) the clones and, given m informative reports, x_i = Bin(i − 1; m − 1, ½)
    /// and y_i = Bin(i; m − 1, ½): P(m, i) = α x_i + β y_i and Q(m, i) = β x_i + α y_i, where
    /// α = P(C = m − 1)·p·a + P(C = m)·b/2, β = P(C = m − 1)·a + P(C = m)·b/2, b = 1 − a − p·a.
    /// x_i/y_i = i/(m − i) grows with i and α ≥ β, so P − e^ε Q > 0 exactly on a tail i ≥ i*, and
    /// δ = Σ_m [(α − e^ε β)·P(Bin(m − 1, ½) ≥ i* − 1) + (β − e^ε α)·P(Bin(m − 1, ½) ≥ i*)]. The sum runs
    /// over C's window (mean ± 9 sd + 30), and the mass outside it is added; each m's term gets 4 ulps of its
    /// positive part added against cancellation. The direction Q against P gives the same δ (swap 0
    /// and 1).
    pub fn delta(&self, n: u64, eps: f64) -> f64 {
        self.weights(n).map_or(1.0, |w| w.delta(eps))
    }

    /// The sum's ε-free weights at n users (`None` below 2 users, where δ is 1): each C-probability
    /// once, so that the search for ε only redoes the tails.
    fn weights(&self, n: u64) -> Option<Weights> {
        if n < 2 {
            return None;
        }
        let ClonePair { a, r, p } = *self;
        let b = (1.0 - a - p * a).max(0.0);
        let (lo, hi, outside) = window(n - 1, 2.0 * r);
        let (first, last) = (lo.max(1), (hi + 1).min(n as i64));
        let pmf = binomial::pmfs(n - 1, 2.0 * r, first - 1, last);
        let (alpha, beta) = pmf
            .windows(2)
            .map(|w| {
                let (w1, w0) = (w[0], w[1]);
                (w1 * p * a + w0 * b / 2.0, w1 * a + w0 * b / 2.0)
            })
            .unzip();
        Some(Weights {
            first,
            alpha,
            beta,
            outside,
        })
    }
}

impl Weights {
    /// [`ClonePair::delta`] at ε, rounded up, with the tails carried ([`HalfTail`]).
    fn delta(&self, eps: f64) -> f64 {
        let mut tail = HalfTail::default();
        self.delta_with(eps, |n, k| tail.at(n, k))
    }

    /// The sum at ε, with `tail(N, k)` giving (P(Bin(N, ½) ≥ k), P(Bin(N, ½) = k − 1)), asked for in
    /// increasing N.
    fn delta_with(&self, eps: f64, mut tail: impl FnMut(u64, i64) -> (f64, f64)) -> f64 {
        let e = eps.exp();
        let mut delta = 2.0 * self.outside;
        for (i, (&alpha, &beta)) in self.alpha.iter().zip(&self.beta).enumerate() {
            let m = self.first + i as i64;
            let (ca, cb) = (alpha - e * beta, beta - e * alpha);
            if ca <= 0.0 {
                continue;
            }
            // The tail starts past i/(m − i) = R = −cb/ca, i.e. i > mR/(1 + R) = −m·cb/(ca − cb).
            let start = ((m as f64 * -cb / (ca - cb)).floor() as i64 + 1).clamp(1, m);
            let (upper, at_edge) = tail((m - 1) as u64, start);
            let positive = ca * (upper + at_edge);
            delta += (positive + cb * upper).max(0.0) + 4.0 * f64::EPSILON * positive;
        }
        delta.min(1.0)
    }
}

/// The binary-RR pair's δ(ε) (user 1's bit 1 or 0, the other n − 1 users' 0): the count of ones is
/// U + B with B ~ Bin(n − 1, 1/(p + 1)) and U ~ Bern(s) under P, Bern(1 − s) under Q, s = p/(p + 1).
/// P(k)/Q(k) grows with k (through f(k − 1)/f(k) = k(1 − q)/((n − k)q), f the law of B), so each
/// direction's positive part is a tail of B: exact to rounding, a lower bound on the shuffled RR's δ.
pub fn binary_pair_delta(eps0: f64, n: u64, eps: f64) -> f64 {
    if n < 2 || eps >= eps0 {
        return 0.0;
    }
    let (p, e) = (eps0.exp(), eps.exp());
    // 1 − s is q, written as such: for ε0 past 37, s rounds to 1 and 1 − s to 0.
    let (q, s, m) = (1.0 / (p + 1.0), p / (p + 1.0), n - 1);
    // ρ(k) = f(k − 1)/f(k) crosses `r` at k = r·n·q/((1 − q) + r·q).
    let crossing = |r: f64| r * n as f64 * q / ((1.0 - q) + r * q);
    let r = (e * s - q) / (s - e * q);
    // P against Q: k ≥ k* with ρ(k) > r. T(j) = P(B ≥ j).
    let k_up = crossing(r).floor() as i64 + 1;
    let t = |j: i64| binomial_upper(m, q, j);
    let pq = s * t(k_up - 1) + q * t(k_up) - e * (q * t(k_up - 1) + s * t(k_up));
    // Q against P: k ≤ k** with ρ(k) < 1/r. L(j) = P(B ≤ j).
    let k_down = crossing(1.0 / r).ceil() as i64 - 1;
    let l = |j: i64| binomial_lower(m, q, j);
    let qp = q * l(k_down - 1) + s * l(k_down) - e * (s * l(k_down - 1) + q * l(k_down));
    pq.max(qp).max(0.0)
}

/// The ε at which δ(ε) = `delta`, on [0, ε0] (the shuffled output is ε0-DP, so δ(ε0) = 0 but for the
/// window's mass bound), by regula falsi on ln δ to a relative width of [`EPS_TOL`]: the bracket's
/// upper end for an upper bound (`upper`), its lower end otherwise, each then moved 10⁻⁶ (relative)
/// further to its safe side. The tails' rounding (the carried tails and cancellation between P and
/// e^ε Q) moves ε by far less (against scipy's binomial tails in tests/shuffle_reference.rs, up to
/// n = 10⁷, within the reference's own bisection width); the margin covers it.
///
/// The bracket starts from a guess: the ε at `delta` of the Gaussian pair (μ-GDP) with the same
/// δ(0), the total variation, 2Φ(μ/2) − 1. It lands within a factor of about two of the root for
/// the clone pairs, where the whole of [0, ε0] cost six or seven calls more (most of them on the flat
/// floor of ln δ far past the root). Only the search's cost depends on the guess, never the bracket's
/// guarantee: each end is where δ was evaluated.
fn epsilon_at(eps0: f64, delta: f64, upper: bool, delta_at: impl Fn(f64) -> f64) -> f64 {
    // ln δ(ε) − ln δ: decreasing, and smooth enough for regula falsi (δ = 0 counts as 10⁻³⁰⁰).
    let g = |e: f64| delta_at(e).max(1e-300).ln() - delta.ln();
    let g0 = g(0.0);
    if g0 <= 0.0 {
        return 0.0;
    }
    // δ(0) is the total variation.
    let guess = gaussian_guess((g0 + delta.ln()).exp().min(1.0), delta);
    let first = if guess > 0.0 && guess < eps0 {
        guess
    } else {
        eps0
    };
    // Out from the guess by fours until δ falls to the target (at ε0 at the latest).
    let (mut lo, mut hi) = ((0.0, g0), (first, g(first)));
    while hi.1 > 0.0 {
        if hi.0 >= eps0 {
            // Only the window's mass bound is left at ε0: the shuffled output is ε0-DP regardless
            // (and a lower bound of 0 is always safe).
            return if upper { eps0 } else { 0.0 };
        }
        lo = hi;
        let x = (4.0 * hi.0).min(eps0);
        hi = (x, g(x));
    }
    let b = illinois(lo, hi, EPS_TOL, 200, g);
    if upper {
        (b.hi * (1.0 + 1e-6)).min(eps0)
    } else {
        b.lo * (1.0 - 1e-6)
    }
}

/// The relative width at which [`epsilon_at`] stops: a hundredth of the margin it then adds.
const EPS_TOL: f64 = 1e-8;

/// The ε at which the μ-GDP pair, μ fitted to the total variation `tv` = 2Φ(μ/2) − 1, has δ(ε) =
/// `delta`, to first order in μ: μ·Φ⁻¹(1 − δ). A starting point only (0 when none).
fn gaussian_guess(tv: f64, delta: f64) -> f64 {
    if !(tv > 0.0 && tv < 1.0) {
        return 0.0;
    }
    let mu = 2.0 * normal_upper_quantile(0.5 * (1.0 - tv));
    mu * normal_upper_quantile(delta)
}

/// The shuffled K-RR's ε at δ by the clone pair: a certified upper bound.
pub fn epsilon_upper(pair: ClonePair, n: u64, delta: f64) -> f64 {
    match pair.weights(n) {
        Some(w) => epsilon_at(pair.p.ln(), delta, true, |e| w.delta(e)),
        None => epsilon_at(pair.p.ln(), delta, true, |_| 1.0),
    }
}

/// The shuffled binary RR's ε at δ is at least this (the exact ε of one neighbouring pair).
pub fn epsilon_lower(eps0: f64, n: u64, delta: f64) -> f64 {
    epsilon_at(eps0, delta, false, |e| binary_pair_delta(eps0, n, e))
}

/// Feldman, McMillan & Talwar's closed form (2021, Thm 3.1): with A = 8√(e^{ε0} ln(4/δ)/n),
/// c = 8e^{ε0}/n and e′ = ln(1 + A + c), ε = ln(1 + (1 − e^{−ε0})/(1 + e^{−ε0−e′})·(A + c)); it
/// holds for ε0 ≤ ln(n/(16 ln(4/δ))), and beyond that only ε0 is certified. Exact to rounding.
pub fn epsilon_closed_form(eps0: f64, n: u64, delta: f64) -> f64 {
    let n = n as f64;
    let log_term = (4.0 / delta).ln();
    if eps0 > (n / (16.0 * log_term)).ln() {
        return eps0;
    }
    let a = 8.0 * (eps0.exp() * log_term / n).sqrt();
    let c = 8.0 * eps0.exp() / n;
    let e = (a + c).ln_1p();
    ((-(-eps0).exp_m1()) / (1.0 + (-eps0 - e).exp()) * (a + c))
        .ln_1p()
        .min(eps0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::function::factorial::ln_binomial;

    /// δ straight from the definition: every (N0, N1), for small n.
    fn brute(pair: ClonePair, n: u64, eps: f64) -> f64 {
        let ClonePair { a, r, p } = pair;
        let b = 1.0 - a - p * a;
        let e = eps.exp();
        let others = n - 1;
        let mut total = 0.0;
        // Multinomial law of the clones (C0, C1).
        let law = |c0: u64, c1: u64| -> f64 {
            if c0 + c1 > others {
                return 0.0;
            }
            (ln_binomial(others, c0)
                + ln_binomial(others - c0, c1)
                + (c0 + c1) as f64 * r.ln()
                + (others - c0 - c1) as f64 * (1.0 - 2.0 * r).ln())
            .exp()
        };
        for n0 in 0..=n {
            for n1 in 0..=(n - n0) {
                let f = |c0: i64, c1: i64| {
                    if c0 < 0 || c1 < 0 {
                        0.0
                    } else {
                        law(c0 as u64, c1 as u64)
                    }
                };
                let (i, j) = (n0 as i64, n1 as i64);
                let pp = p * a * f(i - 1, j) + a * f(i, j - 1) + b * f(i, j);
                let qq = a * f(i - 1, j) + p * a * f(i, j - 1) + b * f(i, j);
                total += (pp - e * qq).max(0.0);
            }
        }
        total
    }

    #[test]
    fn clone_pairs_match_the_double_sum_at_small_n() {
        for (kind, eps0, k, n) in [
            (Clones::Fmt2021, 1.0, 2, 50),
            (Clones::Fmt2023, 3.0, 2, 50),
            (Clones::Krr, 1.0, 5, 60),
            (Clones::Krr, 3.0, 5, 40),
        ] {
            let pair = ClonePair::new(kind, eps0, k).unwrap();
            for eps in [0.0, 0.3, 1.0] {
                // The double sum's own log-gammas round too (a few 10⁻¹⁵ here); the 40-digit
                // double sum in tests/shuffle_reference.rs is the exact reference.
                let (fast, slow) = (pair.delta(n, eps), brute(pair, n, eps));
                assert!(
                    fast >= slow * (1.0 - 1e-13) && fast - slow < 1e-12,
                    "{kind:?} {eps0} {k} {n} {eps}: {fast} vs {slow}"
                );
            }
        }
    }

    /// The sum with every tail and probability exact (an incomplete beta function and a log-gamma per
    /// m): the reference for the carried ones.
    fn exact_sum(w: &Weights, eps: f64) -> f64 {
        w.delta_with(eps, |n, k| {
            (binomial_upper(n, 0.5, k), binomial_pmf(n, 0.5, k - 1))
        })
    }

    #[test]
    fn carried_tails_match_exact_ones_at_large_n() {
        for (kind, eps0, n) in [
            (Clones::Fmt2023, 1.0, 1_000_000),
            (Clones::Fmt2021, 1.0, 300_000),
            (Clones::Krr, 2.0, 200_000),
        ] {
            let w = ClonePair::new(kind, eps0, 4).unwrap().weights(n).unwrap();
            for eps in [1e-3, 3e-3, 1e-2, 3e-2] {
                let (carried, exact) = (w.delta(eps), exact_sum(&w, eps));
                assert!(
                    (carried - exact).abs() <= 1e-9 * exact + 1e-300,
                    "{kind:?} n {n} ε {eps}: {carried} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn the_published_closed_form_and_the_bounds_order() {
        // Feldman et al. 2021's closed form at n = 10⁵, ε0 = 4, δ = 10⁻⁶ (the value Apple's
        // ml-shuffling-amplification prints): 0.5378040242374512.
        let closed = epsilon_closed_form(4.0, 100_000, 1e-6);
        assert!((closed - 0.537_804_024_237_451_2).abs() < 1e-12, "{closed}");
        // Beyond its range it certifies ε0 only.
        assert_eq!(epsilon_closed_form(4.0, 1_000, 1e-6), 4.0);
        let upper = |kind| epsilon_upper(ClonePair::new(kind, 4.0, 2).unwrap(), 100_000, 1e-6);
        let (old, strong, krr) = (
            upper(Clones::Fmt2021),
            upper(Clones::Fmt2023),
            upper(Clones::Krr),
        );
        let lower = epsilon_lower(4.0, 100_000, 1e-6);
        // For K = 2 the K-RR pair is the stronger clones'; each pair beats the closed form, the
        // newer the tighter, and the lower bound lies below them all.
        assert!((krr - strong).abs() < 1e-9, "{krr} {strong}");
        assert!(
            lower <= strong && strong <= old && old <= closed,
            "{lower} {strong} {old} {closed}"
        );
        // Apple's numerical bracket for the clones of 2021 in the same setting, [0.16754, 0.17279].
        assert!((0.16754..=0.17279).contains(&old), "{old}");
    }

    #[test]
    fn ugly_inputs_are_refused_or_bounded() {
        assert!(ClonePair::new(Clones::Krr, f64::NAN, 2).is_err());
        assert!(ClonePair::new(Clones::Krr, 1.0, 1).is_err());
        let pair = ClonePair::new(Clones::Krr, 1.0, 3).unwrap();
        assert_eq!(pair.delta(1, 0.5), 1.0);
        assert_eq!(epsilon_upper(pair, 1, 1e-6), 1.0);
        assert_eq!(binary_pair_delta(1.0, 100, 2.0), 0.0);
        // Large ε0: s = p/(p + 1) rounds to 1, and the lower bound must still not pass what any
        // ε0-DP mechanism allows, ε0 + ln(1 − δ).
        for eps0 in [30.0, 40.0, 100.0] {
            let lower = epsilon_lower(eps0, 1000, 0.01);
            assert!(lower <= eps0 + (-0.01f64).ln_1p(), "ε0 {eps0}: {lower}");
        }
    }
}
