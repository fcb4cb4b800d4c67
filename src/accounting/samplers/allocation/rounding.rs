//! The rounded likelihood ratio's pieces (items 2 and 3 of [`super`]'s comment): the node masses of
//! one Y's randomized rounding, and the window on which the t-fold sum's law is read, with what the
//! FFT's wrap-around may add to each direction's δ (Chernoff bounds on coarse bins).

use crate::numerics::special::normal_cdf;

/// Most points of the rounded sum's law (the FFT's size); a wider grid beyond (looser, still certified).
pub(super) const MAX_POINTS: usize = 1 << 20;
/// Bins of the coarse law that bounds the moment generating function for the wrap-around.
const COARSE_BINS: usize = 1024;

/// s²/2, the log-normal's shift.
pub(super) fn half_s2(s: f64) -> f64 {
    s * s / 2.0
}

/// The hat-function masses of Y's law restricted to \[0, nodes·w\], at the nodes jw (the randomized
/// rounding of the module comment): each cell \[a, b\] gives its mass dF to a and b in the proportions
/// that keep its conditional mean c = dG/dF, G(y) = E\[Y; Y ≤ y\]. Cells above the median take the
/// differences of the survival functions, so that the upper tail keeps its relative precision.
pub(super) fn node_masses(s: f64, w: f64, nodes: usize) -> Vec<f64> {
    let half = half_s2(s);
    // (F, G) below the median, (F̄, Ḡ) from it up: F(y) = Φ((ln y + s²/2)/s), G(y) = Φ((ln y − s²/2)/s);
    // each node needs one pair, the node at the switch both.
    let lower = |y: f64| {
        if y <= 0.0 {
            (0.0, 0.0)
        } else {
            let l = y.ln();
            (normal_cdf((l + half) / s), normal_cdf((l - half) / s))
        }
    };
    let upper = |y: f64| {
        let l = y.ln();
        (normal_cdf(-(l + half) / s), normal_cdf(-(l - half) / s))
    };
    let mut masses = vec![0.0; nodes + 1];
    let mut prev = lower(0.0);
    for j in 0..nodes {
        let (a, b) = (j as f64 * w, (j + 1) as f64 * w);
        let (df, dg, next) = if a >= 1.0 {
            let up = upper(b);
            (prev.0 - up.0, prev.1 - up.1, up)
        } else {
            let low = lower(b);
            let next = if b >= 1.0 { upper(b) } else { low };
            (low.0 - prev.0, low.1 - prev.1, next)
        };
        if df > 0.0 {
            let c = (dg / df).clamp(a, b);
            masses[j] += df * (b - c) / w;
            masses[j + 1] += df * (c - a) / w;
        }
        prev = next;
    }
    masses
}

/// Where the t-fold sum's law is read: sums from start·w to (start + size)·w, on `size` FFT points
/// (a power of two), and what the circular convolution's wrap-around may add to each direction's δ.
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    pub(super) start: u64,
    pub(super) size: usize,
    /// Sums above the window land inside it lower down: remove's δ loses at most this.
    pub(super) above: f64,
    /// Sums below it land inside it higher up: add's δ loses at most this.
    pub(super) below: f64,
    /// The Chernoff bound's sum below which at most the target lies.
    pub(super) floor: f64,
}

/// The window on which the t-fold sum of the rounded law wraps at most `target` of each direction's
/// δ, by Chernoff bounds on coarse bins (each bin's mass at its top value for m(θ) = E\[e^{θY}\] and
/// m′(θ), at its bottom value for m(−θ): each bound only grows):
/// - above K: E\[Λ; S ≥ K\] ≤ e^{−θK} m(θ)^{t−1} m′(θ);
/// - below A: Q(S < A) ≤ e^{θA} m(−θ)^t.
///
/// Each threshold is a quasi-convex (concave for A) function of θ over ln θ, found by golden section.
/// `None` when the window needs more than [`MAX_POINTS`] points.
pub(super) fn window(masses: &[f64], w: f64, steps: u64, target: f64) -> Option<Window> {
    let per = masses.len().div_ceil(COARSE_BINS);
    let last = masses.len() - 1;
    let coarse = |at: &dyn Fn(usize) -> usize| -> Vec<(f64, f64)> {
        masses
            .chunks(per)
            .enumerate()
            .map(|(i, c)| (at(i).min(last) as f64 * w, c.iter().sum()))
            .collect()
    };
    let (tops, bottoms) = (coarse(&|i| (i + 1) * per - 1), coarse(&|i| i * per));
    let t = steps as f64;
    let ln_target = target.ln();
    let top_needed = |ln_theta: f64| {
        let theta = ln_theta.exp();
        let (lm, lmp) = ln_mgf(&tops, theta);
        ((t - 1.0) * lm + lmp - ln_target) / theta
    };
    let bottom_allowed = |ln_theta: f64| {
        let theta = ln_theta.exp();
        (ln_target - t * ln_mgf(&bottoms, -theta).0) / theta
    };
    let ln_theta_top = golden(&|x| top_needed(x));
    let ln_theta_bottom = golden(&|x| -bottom_allowed(x));
    let (high, low) = (top_needed(ln_theta_top), bottom_allowed(ln_theta_bottom));
    // The window never cuts single draws off the top, and starts at 0 at the least.
    let high = high.max(masses.len() as f64 * w);
    let start = if low.is_finite() && low > 0.0 {
        (low / w).floor() as u64
    } else {
        0
    };
    if !(high.is_finite() && (high / w - start as f64) < MAX_POINTS as f64) {
        return None;
    }
    // The single draw's law must fit the transform too.
    let size = (((high / w).ceil() - start as f64) as usize + 1)
        .max(masses.len())
        .next_power_of_two()
        .max(2);
    if size > MAX_POINTS {
        return None;
    }
    let (theta, a) = (ln_theta_top.exp(), start as f64 * w);
    let (lm, lmp) = ln_mgf(&tops, theta);
    let above = (-theta * (a + size as f64 * w) + (t - 1.0) * lm + lmp).exp();
    let below = if start == 0 {
        0.0
    } else {
        let theta = ln_theta_bottom.exp();
        (theta * a + t * ln_mgf(&bottoms, -theta).0).exp()
    };
    Some(Window {
        start,
        size,
        above,
        below,
        floor: low.max(0.0),
    })
}

/// The minimum of a quasi-convex function of ln θ over θ ∈ \[10⁻⁸, 10⁴\], by golden section.
fn golden(f: &dyn Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = ((1e-8f64).ln(), (1e4f64).ln());
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..80 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    0.5 * (a + b)
}

/// ln m(θ) = ln E\[e^{θY}\] and ln m′(θ) = ln E\[Y e^{θY}\] of a law of nonnegative values given as
/// (value, mass) bins.
fn ln_mgf(bins: &[(f64, f64)], theta: f64) -> (f64, f64) {
    let lse = |terms: &mut dyn Iterator<Item = f64>| {
        let terms: Vec<f64> = terms.collect();
        let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln()
    };
    let kept = || bins.iter().filter(|(_, m)| *m > 0.0);
    (
        lse(&mut kept().map(|&(y, m)| m.ln() + theta * y)),
        lse(&mut kept()
            .filter(|(y, _)| *y > 0.0)
            .map(|&(y, m)| m.ln() + y.ln() + theta * y)),
    )
}
