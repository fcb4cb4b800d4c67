//! A tight numerical accountant: the privacy loss distribution (PLD), discretized so that it dominates
//! the true one, composed by FFT.
//!
//! Discretization: "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, "Connect the dots:
//! tighter discrete approximations of privacy loss distributions", PETS 2022). On the grid ε_i = i·h the
//! discrete PLD has exactly the mechanism's δ(ε_i), and between grid points its δ is the chord of the
//! true δ as a function of e^ε, which is convex: so δ̂ ≥ δ everywhere (a pessimistic estimate) without
//! the drift of rounding every loss up. Masses beyond the grid's top go to +∞.
//!
//! Composition: T-fold self-convolution by one FFT (rustfft), each coefficient raised to the T-th power,
//! on a window chosen by a Chernoff bound so that at most `tail` of the mass falls outside; that mass is
//! counted at +∞ (as Google's dp_accounting does).

use crate::error::{Error, Result};
use crate::special::normal_cdf;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// Width of the loss grid (dp_accounting's default).
pub const DEFAULT_INTERVAL: f64 = 1e-4;
/// Most grid points a composition may use (the FFT size is the next power of two): widens the interval
/// for long runs.
pub const MAX_POINTS: usize = 1 << 17;
/// Mass allowed outside the computed window, counted as +∞ loss.
pub const DEFAULT_TAIL: f64 = 1e-15;

/// A discrete privacy loss distribution: `probs[k]` at loss (lower + k)·interval, plus mass at +∞.
#[derive(Debug, Clone, PartialEq)]
pub struct Pld {
    interval: f64,
    lower: i64,
    probs: Vec<f64>,
    infinity: f64,
}

/// Which pair of distributions: with the record against without it, or the reverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// P = (1 − q)N(0, σ²) + qN(1, σ²) against Q = N(0, σ²).
    Remove,
    /// P = N(0, σ²) against Q = (1 − q)N(0, σ²) + qN(1, σ²).
    Add,
}

/// Exact δ(ε) of one Poisson-subsampled Gaussian step (sensitivity 1, noise σ, rate q).
///
/// # Formula
/// Remove: x* = σ² ln((e^ε − 1 + q)/q) + 1/2, δ = q Φ̄((x* − 1)/σ) − (e^ε − 1 + q) Φ̄(x*/σ)
/// (δ = 1 − e^ε when e^ε ≤ 1 − q).
/// Add: x* = σ² ln((e^{−ε} − 1 + q)/q) + 1/2, δ = (1 − e^ε(1 − q)) Φ(x*/σ) − e^ε q Φ((x* − 1)/σ)
/// (δ = 0 when e^{−ε} ≤ 1 − q).
///
/// # Reference
/// The hockey-stick divergence over the set where the (monotone) loss exceeds ε; the same pair as
/// Koskela, Jälkö & Honkela (AISTATS 2020) and dp_accounting's `GaussianPrivacyLoss` with sampling.
pub fn subsampled_gaussian_delta(q: f64, sigma: f64, eps: f64, direction: Direction) -> f64 {
    let phi_bar = |x: f64| normal_cdf(-x);
    let delta = match direction {
        Direction::Remove => {
            let shift = eps.exp_m1() + q; // e^ε − (1 − q)
            if shift <= 0.0 {
                -eps.exp_m1()
            } else {
                let x = sigma * sigma * (shift / q).ln() + 0.5;
                q * phi_bar((x - 1.0) / sigma) - shift * phi_bar(x / sigma)
            }
        }
        Direction::Add => {
            let shift = (-eps).exp_m1() + q; // e^{−ε} − (1 − q)
            if shift <= 0.0 {
                0.0
            } else {
                let x = sigma * sigma * (shift / q).ln() + 0.5;
                (1.0 - eps.exp() * (1.0 - q)) * normal_cdf(x / sigma)
                    - eps.exp() * q * normal_cdf((x - 1.0) / sigma)
            }
        }
    };
    delta.clamp(0.0, 1.0)
}

impl Pld {
    /// The connect-the-dots PLD of one subsampled Gaussian step in `direction`.
    ///
    /// # Errors
    /// q outside (0, 1], σ not finite and > 0, or an interval that would need more than 2·10⁷ points.
    pub fn subsampled_gaussian(
        q: f64,
        sigma: f64,
        direction: Direction,
        interval: f64,
        tail: f64,
    ) -> Result<Pld> {
        if !(q > 0.0 && q <= 1.0) {
            return Err(Error::invalid("q", q, "must be a sampling rate in (0, 1]"));
        }
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(Error::invalid(
                "sigma",
                sigma,
                "must be a finite number > 0",
            ));
        }
        let delta = |e: f64| subsampled_gaussian_delta(q, sigma, e, direction);
        // Top: the first ε with δ(ε) ≤ tail (doubling, then bisection).
        let mut hi = 1.0;
        while delta(hi) > tail && hi < 1e6 {
            hi *= 2.0;
        }
        let mut lo_search = 0.0;
        for _ in 0..60 {
            let mid = 0.5 * (lo_search + hi);
            if delta(mid) > tail {
                lo_search = mid;
            } else {
                hi = mid;
            }
        }
        // Bottom: the loss's least value, or the ε below which the loss has mass at most `tail`.
        let z = crate::special::normal_upper_quantile(tail);
        let lo = match direction {
            Direction::Remove if q < 1.0 => (-q).ln_1p(),
            Direction::Remove => (0.5 - sigma * z) / (sigma * sigma),
            Direction::Add => -(q * ((sigma * z - 0.5) / (sigma * sigma)).exp() + 1.0 - q).ln(),
        };
        Pld::from_profile(delta, lo, hi, interval)
    }

    /// The connect-the-dots PLD of any mechanism from its privacy profile δ(ε), on the grid from `lo`
    /// (at or below the least loss, or where the loss has negligible mass below) to `hi` (where δ is
    /// negligible); δ must be exact (or an upper bound) for every ε in between, negative ε included.
    ///
    /// # Errors
    /// A grid of more than 2·10⁷ points, or bounds that are not finite.
    pub fn from_profile(
        delta: impl Fn(f64) -> f64,
        lo: f64,
        hi: f64,
        interval: f64,
    ) -> Result<Pld> {
        if !(lo.is_finite() && hi.is_finite() && interval > 0.0) {
            return Err(Error::invalid(
                "interval",
                interval,
                "gives no finite loss grid",
            ));
        }
        let (i_lo, i_hi) = (
            (lo / interval).floor() as i64,
            (hi / interval).ceil() as i64,
        );
        let n = (i_hi - i_lo + 1).max(2) as usize;
        if n > 20_000_000 {
            return Err(Error::invalid(
                "interval",
                interval,
                "needs a loss grid too large",
            ));
        }
        let deltas: Vec<f64> = (0..n)
            .map(|k| delta((i_lo + k as i64) as f64 * interval))
            .collect();
        let infinity = deltas[n - 1];
        let decay = (-interval).exp();
        let one_minus_decay = -(-interval).exp_m1();
        let mut probs = vec![0.0; n];
        // W = Σ_{j>i} p_j e^{−(ε_j − ε_i)}; p_i = (δ_{i−1} − δ_i)/(1 − e^{−h}) − W.
        let mut w = 0.0;
        let mut above = 0.0;
        for i in (1..n).rev() {
            let p = ((deltas[i - 1] - deltas[i]) / one_minus_decay - w).max(0.0);
            probs[i] = p;
            above += p;
            w = decay * (w + p);
        }
        probs[0] = (1.0 - infinity - above).max(0.0);
        Ok(Pld {
            interval,
            lower: i_lo,
            probs,
            infinity,
        })
    }

    /// The mass at +∞ (a δ no ε can remove).
    pub fn infinity_mass(&self) -> f64 {
        self.infinity
    }

    /// Grid points (excluding +∞).
    pub fn len(&self) -> usize {
        self.probs.len()
    }

    /// Whether the grid is empty (never for a built PLD).
    pub fn is_empty(&self) -> bool {
        self.probs.is_empty()
    }

    /// The PLD of `times` compositions, by FFT on a window holding all but `tail` of the mass.
    pub fn self_compose(&self, times: u64, tail: f64) -> Pld {
        if times <= 1 {
            return self.clone();
        }
        Pld::compose_many(&[(self, times)], tail)
    }

    /// The PLD of composing each part's PLD its number of times (all on the same grid width), by one
    /// FFT: the product of each transform raised to its count.
    pub fn compose_many(parts: &[(&Pld, u64)], tail: f64) -> Pld {
        let parts: Vec<(&Pld, u64)> = parts.iter().copied().filter(|(_, k)| *k > 0).collect();
        let Some(&(first, _)) = parts.first() else {
            return Pld {
                interval: DEFAULT_INTERVAL,
                lower: 0,
                probs: vec![1.0],
                infinity: 0.0,
            };
        };
        let interval = first.interval;
        let span: i64 = parts
            .iter()
            .map(|(p, k)| (p.probs.len() as i64 - 1) * *k as i64)
            .sum::<i64>()
            + 1;
        let (lo, hi) = chernoff_window_many(&parts, span, tail);
        let out_len = (hi - lo + 1) as usize;
        let size = out_len
            .max(parts.iter().map(|(p, _)| p.probs.len()).max().unwrap_or(1))
            .next_power_of_two();
        let mut planner = FftPlanner::<f64>::new();
        let forward = planner.plan_fft_forward(size);
        let mut product = vec![Complex::new(1.0, 0.0); size];
        for (pld, times) in &parts {
            let mut buf: Vec<Complex<f64>> =
                pld.probs.iter().map(|&p| Complex::new(p, 0.0)).collect();
            buf.resize(size, Complex::new(0.0, 0.0));
            forward.process(&mut buf);
            for (z, x) in product.iter_mut().zip(&buf) {
                *z *= complex_power(*x, *times);
            }
        }
        planner.plan_fft_inverse(size).process(&mut product);
        let scale = 1.0 / size as f64;
        let start = lo.rem_euclid(size as i64) as usize;
        let probs = (0..out_len)
            .map(|k| (product[(start + k) % size].re * scale).max(0.0))
            .collect();
        let survive: f64 = parts
            .iter()
            .map(|(p, k)| *k as f64 * (-p.infinity).ln_1p())
            .sum();
        let infinity = (tail - survive.exp_m1()).min(1.0);
        let lower = parts.iter().map(|(p, k)| p.lower * *k as i64).sum::<i64>() + lo;
        Pld {
            interval,
            lower,
            probs,
            infinity,
        }
    }

    /// How many grid points the composition of `parts` needs (its Chernoff window).
    pub fn window_points(parts: &[(&Pld, u64)], tail: f64) -> f64 {
        let span: i64 = parts
            .iter()
            .map(|(p, k)| (p.probs.len() as i64 - 1) * *k as i64)
            .sum::<i64>()
            + 1;
        let (lo, hi) = chernoff_window_many(parts, span, tail);
        (hi - lo + 1) as f64
    }

    /// Indices (relative to the T-fold lower end) outside which at most `tail` of the composed mass lies.
    fn chernoff_window(&self, t: f64, tail: f64) -> (i64, i64) {
        let span = (self.probs.len() as i64 - 1) * t as i64 + 1;
        chernoff_window_many(&[(self, t as u64)], span, tail)
    }

    /// The smallest ε with δ̂(ε) ≤ `delta` (∞ if the mass at +∞ exceeds δ); never below the true ε.
    pub fn epsilon_for_delta(&self, delta: f64) -> f64 {
        if self.infinity > delta {
            return f64::INFINITY;
        }
        let h = self.interval;
        let decay = (-h).exp();
        // Walking down the grid: a = Σ_{j≥i} p_j and b = Σ_{j≥i} p_j e^{−(ε_j − ε_i)}.
        let (mut a, mut b) = (0.0, 0.0);
        for i in (0..self.probs.len()).rev() {
            let eps_i = (self.lower + i as i64) as f64 * h;
            a += self.probs[i];
            b += self.probs[i];
            // δ̂ just below ε_i, at ε_{i−1}: all atoms j ≥ i count.
            let below = self.infinity + a - b * decay;
            if below > delta {
                // Solve p∞ + a − e^{ε − ε_i} b = δ on (ε_{i−1}, ε_i].
                return (eps_i + ((self.infinity + a - delta) / b).ln()).max(0.0);
            }
            b *= decay;
        }
        0.0
    }

    /// δ̂(ε): the discrete PLD's hockey-stick divergence, at least the true δ(ε).
    pub fn delta_for_epsilon(&self, eps: f64) -> f64 {
        let h = self.interval;
        let delta: f64 = self
            .probs
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let loss = (self.lower + i as i64) as f64 * h;
                if loss > eps {
                    p * -(eps - loss).exp_m1()
                } else {
                    0.0
                }
            })
            .sum();
        (self.infinity + delta).min(1.0)
    }
}

/// The window (relative to the sum of the parts' lower ends) outside which at most `tail` of the
/// composed mass lies, from the Chernoff bound P[S ≥ b] ≤ Π M_i(λ)^{k_i} e^{−λb} at λ = ±k/span' (as
/// dp_accounting's common.py, with span' the longest part).
fn chernoff_window_many(parts: &[(&Pld, u64)], span: i64, tail: f64) -> (i64, i64) {
    let longest = parts
        .iter()
        .map(|(p, _)| p.probs.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let mut upper = span - 1;
    let mut lower = 0i64;
    for k in (-20..=20).filter(|&k| k != 0) {
        let lambda = k as f64 / longest as f64;
        let step = lambda.exp();
        let mut ln_mgf = 0.0;
        for (pld, times) in parts {
            // |λ·i| ≤ 20, so the plain sum Σ p_i e^{λi} cannot overflow; e^{λi} by running products.
            let (mut power, mut mgf) = (1.0, 0.0);
            for &p in &pld.probs {
                mgf += p * power;
                power *= step;
            }
            ln_mgf += *times as f64 * mgf.ln();
        }
        let bound = (ln_mgf + (2.0 / tail).ln()) / lambda;
        if !bound.is_finite() {
            continue;
        }
        if lambda > 0.0 {
            upper = upper.min(bound.ceil() as i64);
        } else {
            lower = lower.max(bound.floor() as i64);
        }
    }
    (lower, upper.max(lower))
}

/// z^n by repeated squaring (⌈log₂ n⌉ squarings and as many products: cheaper than polar form's three
/// transcendental functions, and as accurate for |z| ≤ 1).
fn complex_power(z: Complex<f64>, mut n: u64) -> Complex<f64> {
    let (mut base, mut acc) = (z, Complex::new(1.0, 0.0));
    while n > 0 {
        if n & 1 == 1 {
            acc *= base;
        }
        base = base * base;
        n >>= 1;
        if base.norm_sqr() < 1e-300 && n > 0 {
            // Vanishes after the remaining squarings (most high frequencies).
            return Complex::new(0.0, 0.0);
        }
    }
    acc
}

/// ε of T steps of DP-SGD (Poisson rate q, noise multiplier σ, add/remove neighbours) at δ by the PLD
/// accountant: the larger of the two directions. `interval` is the finest grid width used; long runs
/// use a wider one (see [`MAX_POINTS`]).
///
/// # Errors
/// q, σ or δ out of domain, or T = 0.
pub fn dpsgd_epsilon(q: f64, sigma: f64, steps: u64, delta: f64, interval: f64) -> Result<f64> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::invalid("delta", delta, "must be a number in (0, 1)"));
    }
    if steps == 0 {
        return Err(Error::invalid("steps", steps, "must be at least 1"));
    }
    // Truncated mass is counted at +∞ and so adds to δ: keep it well below δ even over many steps.
    let step_tail = DEFAULT_TAIL.min(delta / (10.0 * steps as f64));
    let tail = DEFAULT_TAIL.min(delta / 10.0);
    let mut eps: f64 = 0.0;
    for direction in [Direction::Remove, Direction::Add] {
        let mut pld = Pld::subsampled_gaussian(q, sigma, direction, interval, step_tail)?;
        // Long runs spread the composed loss over many grid points: widen the grid so that the FFT
        // stays within MAX_POINTS (connect-the-dots stays pessimistic at any width; its error is
        // second order in the width).
        let (lo, hi) = pld.chernoff_window(steps as f64, tail);
        let points = (hi - lo + 1) as f64;
        if points > MAX_POINTS as f64 {
            let wider = interval * (points / MAX_POINTS as f64).ceil();
            pld = Pld::subsampled_gaussian(q, sigma, direction, wider, DEFAULT_TAIL)?;
        }
        eps = eps.max(
            pld.self_compose(steps, DEFAULT_TAIL)
                .epsilon_for_delta(delta),
        );
    }
    Ok(eps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_matches_the_exact_profile_at_grid_points_and_dominates_between() {
        for direction in [Direction::Remove, Direction::Add] {
            let pld = Pld::subsampled_gaussian(0.1, 1.0, direction, 1e-3, 1e-15)
                .unwrap_or_else(|e| panic!("{e}"));
            let total: f64 = pld.probs.iter().sum::<f64>() + pld.infinity;
            assert!((total - 1.0).abs() < 1e-9, "{direction:?}: mass {total}");
            for eps in [0.0, 0.05, 0.1234, 0.3, 1.0] {
                let exact = subsampled_gaussian_delta(0.1, 1.0, eps, direction);
                let discrete = pld.delta_for_epsilon(eps);
                assert!(
                    discrete >= exact - 1e-12,
                    "{direction:?} ε={eps}: {discrete} < {exact}"
                );
                assert!(
                    discrete - exact < 1e-4,
                    "{direction:?} ε={eps}: {discrete} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn full_batch_composition_matches_the_gaussian_closed_form() {
        // T Gaussian steps with σ compose to one with σ/√T: δ from Balle & Wang's closed form.
        let (sigma, t) = (5.0, 10u64);
        let g = crate::mechanisms::gaussian::Gaussian::new(sigma / (t as f64).sqrt(), 1.0)
            .unwrap_or_else(|e| panic!("{e}"));
        let eps =
            dpsgd_epsilon(1.0, sigma, t, 1e-5, DEFAULT_INTERVAL).unwrap_or_else(|e| panic!("{e}"));
        assert!(g.delta(eps) <= 1e-5, "ε = {eps} is not enough");
        assert!(
            g.delta(eps * 0.99) > 1e-5,
            "ε = {eps} is more than 1% loose"
        );
    }

    #[test]
    fn epsilon_and_delta_are_inverse() {
        let pld = Pld::subsampled_gaussian(0.02, 0.9, Direction::Remove, 1e-4, 1e-15)
            .unwrap_or_else(|e| panic!("{e}"))
            .self_compose(300, 1e-15);
        for delta in [1e-3, 1e-6, 1e-9] {
            let eps = pld.epsilon_for_delta(delta);
            assert!(
                (pld.delta_for_epsilon(eps) / delta - 1.0).abs() < 1e-6,
                "δ = {delta}: ε = {eps}"
            );
        }
    }
}
