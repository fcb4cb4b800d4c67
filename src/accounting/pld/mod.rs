//! A tight numerical accountant: the privacy loss distribution (PLD), discretized on a grid from both
//! sides and composed by FFT.
//!
//! - [`Side::Upper`] dominates the true PLD (connect the dots, Doroshenko et al., PETS 2022): its ε is a
//!   certified upper bound, the guarantee.
//! - [`Side::Lower`] is dominated by it: its ε is a certified lower bound, so the pair brackets the exact
//!   ε of the composition and the band's width is the discretization's whole error.
//!
//! Discretization from a privacy profile is in [`discretize`]; the subsampled Gaussian's exact profile in
//! [`subsampled`]; DP-SGD's accountant in [`dpsgd`] and its σ search in
//! [`sigma_search`]; replace-one neighbours in [`replace_one`].
//!
//! Composition: one real-input FFT (realfft on rustfft, in `fft.rs`), each coefficient raised to its count, on a window chosen by a Chernoff
//! bound so that at most `tail` of the mass falls outside. The upper side counts that mass at +∞ (as
//! Google's dp_accounting does); the lower side drops it (moving mass to −∞ only lowers δ).
//!
//! Floating point: the FFT's rounding noise is about 1e-16 of the total mass per point, so δ below
//! [`MIN_DELTA`] is not resolved; the labs report no PLD ε there rather than a number it cannot certify.

pub mod discretize;
pub mod dpsgd;
pub(crate) mod fft;
pub mod replace_one;
pub mod sigma_search;
pub mod subsampled;
mod window;

pub use dpsgd::{dpsgd_epsilon, dpsgd_epsilon_band, dpsgd_plds};
pub use replace_one::{
    dpsgd_plds_replace_one, dpsgd_replace_one_band, dpsgd_replace_one_epsilon, remove_then_add,
    ReplaceOnePlds,
};
pub use sigma_search::{sigma_for_epsilon, Goal, SigmaSearch};
pub use subsampled::{subsampled_gaussian_delta, Direction};
pub(crate) use window::Window;

/// Width of the loss grid (dp_accounting's default).
pub const DEFAULT_INTERVAL: f64 = 1e-4;
/// Most grid points a composition may use (the FFT size is the next power of two): widens the interval
/// for long runs.
pub const MAX_POINTS: usize = 1 << 17;
/// Most FFT points when a link asks for a finer grid than the default (a narrower band, slower).
pub const MAX_POINTS_FINE: usize = 1 << 21;
/// The FFT's cap for a grid of width `interval`: [`MAX_POINTS_FINE`] when a finer grid than the default
/// was asked for, else [`MAX_POINTS`].
pub(crate) fn max_points(interval: f64) -> usize {
    if interval < DEFAULT_INTERVAL {
        MAX_POINTS_FINE
    } else {
        MAX_POINTS
    }
}
/// Mass allowed outside the computed window.
pub const DEFAULT_TAIL: f64 = 1e-15;
/// The smallest δ at which the PLD accountant reports ε: below it the FFT's rounding noise (measured at
/// up to ~1e-16 per point, summed over up to 2^17 points) could exceed δ itself.
pub const MIN_DELTA: f64 = 1e-10;

/// Which side of the true PLD a discretization is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// Dominates the true PLD: δ̂(ε) ≥ δ(ε) everywhere, so its ε is an upper bound (pessimistic).
    Upper,
    /// Dominated by it: δ̂(ε) ≤ δ(ε) everywhere, so its ε is a lower bound (optimistic).
    Lower,
}

/// The exact ε bracketed: `lower` ≤ ε ≤ `upper`, on a grid of width `interval`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EpsilonBand {
    /// Certified upper bound (the guarantee).
    pub upper: f64,
    /// Certified lower bound.
    pub lower: f64,
    /// The grid width used (wider than asked for long runs).
    pub interval: f64,
}

impl EpsilonBand {
    /// upper − lower.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }

    /// Why the band is wide, when it is wider than 1% of ε: `asked` is the grid width the link asked
    /// for. `None` for a narrow band.
    pub fn why_wide(&self, asked: f64) -> Option<String> {
        if self.width().is_nan() || self.width() <= 0.01 * self.upper || !self.upper.is_finite() {
            return None;
        }
        let widened = if self.interval > asked * (1.0 + 1e-9) {
            format!(
                ", widened from {} so that the composition fits the FFT's {} points",
                crate::link::query::fmt_f64(asked),
                max_points(asked)
            )
        } else {
            String::new()
        };
        Some(format!(
            "The band is {:.1}% of ε wide: each composition adds discretization error, which grows with the \
             number of steps and with the grid width (here {}{widened}). A finer grid narrows it, at the \
             cost of time.",
            100.0 * self.width() / self.upper,
            crate::link::query::fmt_f64(self.interval),
        ))
    }
}

/// A discrete privacy loss distribution: `probs[k]` at loss (lower + k)·interval, plus mass at +∞.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pld {
    interval: f64,
    lower: i64,
    probs: Vec<f64>,
    infinity: f64,
    side: Side,
}

impl Pld {
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

    /// [`Pld::self_compose`] on a window computed beforehand by [`Window::of`] for the same PLD, count
    /// and tail.
    pub(crate) fn self_compose_in(&self, times: u64, tail: f64, window: Window) -> Pld {
        if times <= 1 {
            return self.clone();
        }
        Pld::compose_in(&[(self, times)], tail, window)
    }

    /// The atoms (loss, P-mass) in increasing loss, without the mass at +∞.
    pub fn atoms(&self) -> impl DoubleEndedIterator<Item = (f64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, &p)| ((self.lower + i as i64) as f64 * self.interval, p))
    }

    /// Which side of the true PLD this is on.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The grid width.
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// The PLD of composing each part's PLD its number of times (all on the same grid width and side),
    /// by one FFT: the product of each transform raised to its count.
    pub fn compose_many(parts: &[(&Pld, u64)], tail: f64) -> Pld {
        let window = Window::of(parts, tail);
        Pld::compose_in(parts, tail, window)
    }

    /// [`Pld::compose_many`] on a window already computed for these parts and this tail (so callers that
    /// sized the grid by it do not compute it twice).
    fn compose_in(parts: &[(&Pld, u64)], tail: f64, window: Window) -> Pld {
        let parts: Vec<(&Pld, u64)> = parts.iter().copied().filter(|(_, k)| *k > 0).collect();
        if parts.is_empty() {
            return Pld {
                interval: DEFAULT_INTERVAL,
                lower: 0,
                probs: vec![1.0],
                infinity: 0.0,
                side: Side::Upper,
            };
        }
        let Window { lo, hi } = window;
        let out_len = (hi - lo + 1) as usize;
        let size = out_len
            .max(parts.iter().map(|(p, _)| p.probs.len()).max().unwrap_or(1))
            .next_power_of_two()
            .max(2);
        let masses: Vec<(&[f64], u64)> = parts
            .iter()
            .map(|(p, k)| (p.probs.as_slice(), *k))
            .collect();
        let raw = fft::convolve_powers(&masses, size, lo, out_len);
        Pld::from_transformed(&parts, raw, size, lo, tail)
    }

    /// This PLD composed with itself each of `counts` times, each exactly as [`Pld::self_compose`]
    /// does on its own window, from one forward transform on the size the largest window needs (an
    /// ε-against-steps curve costs one transform, a power and an inverse per point). A count of 0 or 1
    /// gives this PLD itself (as [`Pld::self_compose`] does).
    pub fn self_compose_each(&self, counts: &[u64], tail: f64) -> Vec<Pld> {
        let windows: Vec<Option<Window>> = counts
            .iter()
            .zip(Window::each(self, counts, tail))
            .map(|(&t, w)| (t > 1).then_some(w))
            .collect();
        let size = windows
            .iter()
            .flatten()
            .map(|w| w.points() as usize)
            .chain([self.probs.len()])
            .max()
            .unwrap_or(1)
            .next_power_of_two()
            .max(2);
        let reads: Vec<(u64, i64, usize)> = counts
            .iter()
            .zip(&windows)
            .filter_map(|(&t, w)| w.map(|w| (t, w.lo, w.points() as usize)))
            .collect();
        // One read-out per count above 1, in order: taken only by those counts.
        let mut raws = fft::convolve_each(self, &reads, size).into_iter();
        counts
            .iter()
            .zip(&windows)
            .map(|(&t, w)| {
                w.and_then(|w| {
                    let raw = raws.next()?;
                    Some(Pld::from_transformed(&[(self, t)], raw, size, w.lo, tail))
                })
                .unwrap_or_else(|| self.clone())
            })
            .collect()
    }

    /// The composed PLD from the inverse transform's read-out `raw` (window from `lo`, transforms of
    /// `size` points): rounding noise bounded and moved to the side's safe side, the truncated mass
    /// counted.
    fn from_transformed(
        parts: &[(&Pld, u64)],
        raw: Vec<f64>,
        size: usize,
        lo: i64,
        tail: f64,
    ) -> Pld {
        let (first, _) = parts[0];
        let (side, interval) = (first.side, first.interval);
        // Rounding noise of the transforms and powers: twice the largest negative output (the exact
        // values are ≥ 0, and the noise is symmetric about them), at least u·log₂N·‖p‖₂. The lower
        // side subtracts it from every point; the upper side adds it to every point.
        let most_negative = raw.iter().fold(0.0f64, |m, &x| m.max(-x));
        let norm = raw.iter().map(|x| x * x).sum::<f64>().sqrt();
        let noise = (2.0 * most_negative).max(f64::EPSILON * (size as f64).log2() * norm);
        let probs = raw
            .iter()
            .map(|&x| match side {
                Side::Upper => x.max(0.0) + noise,
                Side::Lower => (x - noise).max(0.0),
            })
            .collect();
        let survive: f64 = parts
            .iter()
            .map(|(p, k)| *k as f64 * (-p.infinity).ln_1p())
            .sum();
        // Upper: the truncated mass goes to +∞; lower: it is dropped.
        let infinity = match side {
            Side::Upper => (tail - survive.exp_m1()).min(1.0),
            Side::Lower => -survive.exp_m1(),
        };
        let lower = parts.iter().map(|(p, k)| p.lower * *k as i64).sum::<i64>() + lo;
        Pld {
            interval,
            lower,
            probs,
            infinity,
            side,
        }
    }

    /// How many grid points the composition of `parts` needs (its Chernoff window).
    pub fn window_points(parts: &[(&Pld, u64)], tail: f64) -> f64 {
        Window::of(parts, tail).points()
    }

    /// The smallest ε with δ̂(ε) ≤ `delta` (∞ if the mass at +∞ exceeds δ): for [`Side::Upper`] never
    /// below the true ε, for [`Side::Lower`] never above it. NaN for a NaN δ.
    pub fn epsilon_for_delta(&self, delta: f64) -> f64 {
        self.epsilons_for_deltas(&[delta])
            .first()
            .copied()
            .unwrap_or(f64::NAN)
    }

    /// [`Pld::epsilon_for_delta`] at every δ of `deltas`, in one walk down the grid instead of one walk
    /// each (the composition lab's ε-against-δ curve took 32 ms natively as 112 walks). The atoms are
    /// summed in the same order whatever the other δs, so each answer is bit for bit the one-δ call's: δ
    /// is answered at the first atom from the top where δ̂ just below it exceeds δ, and the pending δs
    /// that do are exactly the smallest ones. NaN in `deltas` answers NaN.
    pub fn epsilons_for_deltas(&self, deltas: &[f64]) -> Vec<f64> {
        let mut out = vec![f64::NAN; deltas.len()];
        let mut order: Vec<usize> = (0..deltas.len()).filter(|&j| !deltas[j].is_nan()).collect();
        order.sort_by(|&x, &y| deltas[x].total_cmp(&deltas[y]));
        // Those under the mass at +∞ are ∞; they come first in the order.
        let infinite = order.partition_point(|&j| self.infinity > deltas[j]);
        for &j in &order[..infinite] {
            out[j] = f64::INFINITY;
        }
        let mut pending = order[infinite..].iter().peekable();
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
            while let Some(&&j) = pending.peek() {
                if below <= deltas[j] {
                    break;
                }
                // Solve p∞ + a − e^{ε − ε_i} b = δ on (ε_{i−1}, ε_i].
                out[j] = (eps_i + ((self.infinity + a - deltas[j]) / b).ln()).max(0.0);
                pending.next();
            }
            if pending.peek().is_none() {
                return out;
            }
            b *= decay;
        }
        for &j in pending {
            out[j] = 0.0;
        }
        out
    }

    /// δ̂(ε): the discrete PLD's hockey-stick divergence (above or below the true δ(ε), by its side).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_brackets_the_exact_profile() {
        for direction in [Direction::Remove, Direction::Add] {
            let up =
                Pld::subsampled_gaussian(0.1, 1.0, direction, 1e-3, 1e-15, Side::Upper).unwrap();
            let low =
                Pld::subsampled_gaussian(0.1, 1.0, direction, 1e-3, 1e-15, Side::Lower).unwrap();
            let total: f64 = up.probs.iter().sum::<f64>() + up.infinity;
            assert!((total - 1.0).abs() < 1e-9, "{direction:?}: mass {total}");
            for k in -40..=40 {
                let eps = k as f64 * 0.0313;
                let exact = subsampled_gaussian_delta(0.1, 1.0, eps, direction);
                let (u, l) = (up.delta_for_epsilon(eps), low.delta_for_epsilon(eps));
                // 1e-13: rounding in the grid's sums, far below any δ the accountant reports.
                assert!(
                    l <= exact + 1e-13 && exact <= u + 1e-13,
                    "{direction:?} ε={eps}: {l} {exact} {u}"
                );
                assert!(u - l < 1e-5, "{direction:?} ε={eps}: {l} {u}"); // 10 h²
            }
        }
    }

    #[test]
    fn epsilon_and_delta_are_inverse() {
        for side in [Side::Upper, Side::Lower] {
            let pld = Pld::subsampled_gaussian(0.02, 0.9, Direction::Remove, 1e-4, 1e-15, side)
                .unwrap()
                .self_compose(300, 1e-15);
            for delta in [1e-3, 1e-6, 1e-9] {
                let eps = pld.epsilon_for_delta(delta);
                assert!(
                    (pld.delta_for_epsilon(eps) / delta - 1.0).abs() < 1e-6,
                    "{side:?} δ = {delta}: ε = {eps}"
                );
            }
        }
    }

    #[test]
    fn one_walk_answers_every_delta_as_single_calls_do() {
        // A batch equals one δ at a time, bit for bit: unsorted and repeated δs, NaN, δ under the mass at
        // +∞ (a pure part), δ = 0 and 1.
        let gauss =
            Pld::subsampled_gaussian(0.02, 0.9, Direction::Remove, 1e-4, 1e-15, Side::Upper)
                .unwrap()
                .self_compose(300, 1e-15);
        let mut deltas: Vec<f64> = (0..=30)
            .map(|i| 10f64.powf(-12.0 + 0.4 * i as f64))
            .collect();
        deltas.extend([0.0, 1.0, 0.5, 1e-3, 1e-3, f64::NAN, 2e-9, 1e-300]);
        deltas.reverse();
        for side in [Side::Upper, Side::Lower] {
            let pure =
                Pld::subsampled_gaussian(0.5, 0.3, Direction::Add, 1e-3, 1e-6, side).unwrap();
            for pld in [&gauss, &pure] {
                let many = pld.epsilons_for_deltas(&deltas);
                for (d, e) in deltas.iter().zip(&many) {
                    let one = pld.epsilon_for_delta(*d);
                    assert!(
                        one.to_bits() == e.to_bits() || (d.is_nan() && e.is_nan()),
                        "δ = {d}: {one} vs {e}"
                    );
                }
            }
        }
    }
}
