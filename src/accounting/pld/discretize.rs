//! From a mechanism's privacy profile δ(ε) to a discrete PLD on a grid, from either side.
//!
//! Both sides read the profile only at grid points ε_i = i·h and use one fact about it: as a function
//! of x = e^ε, H(x) = δ(ln x) is convex and non-increasing (a hockey-stick divergence, sup_S P(S) −
//! xQ(S)). A discrete PLD with P-masses p_i at losses ε_i has the profile
//! Ĥ(x) = p_∞ + Σ p_i (1 − x/x_i)₊, piecewise linear in x with kinks at the grid points.
//!
//! - [`Side::Upper`] (pessimistic, the guarantee): connect the dots (Doroshenko, Ghazi, Kamath, Kumar &
//!   Manurangsi, PETS 2022): Ĥ through the exact values, i.e. the chords, which lie above a convex H.
//! - [`Side::Lower`] (optimistic): chords lowered below H. At each grid point the chord over a sliver
//!   [x_i, x_i e^η] (η = h/1024), extended, is a line below H with nearly H's right slope, and the
//!   chord over [x_i e^{−η}, x_i] one with nearly its left slope (convexity: a chord extended beyond
//!   its ends lies below the curve). Where the profile's derivative is known
//!   ([`Pld::from_profile_and_slope`]), the tangent at x_i serves as both lines. On [x_i, x_{i+1}]
//!   the chord exceeds the larger of the two lines from its ends by at most gap_i = ab(e^h − 1)/(a + b), a and b the slope differences (scaled by
//!   x_i). Lowering both ends by that much, taking the lower convex hull with (0, 1), and capping
//!   below at the known mass at +∞ gives Ĥ ≤ H everywhere. The error is second order in h, also at a
//!   loss atom on a grid point (Laplace's ±ε₀), where the one-sided slopes differ; neighbouring chords
//!   instead of slivers would be first order there. Composition keeps Ĥ ≤ H:
//!   δ of a composition is E_{L∼ω₂}[δ₁(ε − L)], so a factor-wise lower profile gives a lower δ
//!   (Fubini, no validity of the discrete pair needed).
//!
//! dp_accounting's `pessimistic_estimate=False` rounds every loss down instead: a lower bound too, but its
//! error is first order in h and drifts by up to T·h over T steps, so its ε band is much wider.

use super::{Pld, Side};
use crate::error::{Error, Result};

/// Most points one mechanism's grid may have.
pub const MAX_GRID: usize = 20_000_000;
/// How far above 1 − e^ε the profile may be at the lower side's first grid point (the mass the lower
/// side drops there, at most this much per step).
const BOTTOM_SLACK: f64 = 1e-12;
/// The one-sided slopes come from chords over h/SLIVER.
const SLIVER: f64 = 1024.0;

/// The profile at the grid points and its one-sided slopes there (each dδ/dε, i.e. x_i·H'(x_i±)):
/// the lines through each point that the lower side lowers its chords to (the upper side reads only
/// the values; its slopes may be empty).
struct Lines<'a> {
    deltas: &'a [f64],
    /// Slopes from the left (chords over [x_i e^{−η}, x_i], or the tangents).
    left: &'a [f64],
    /// Slopes from the right (chords over [x_i, x_i e^η], or the tangents).
    right: &'a [f64],
    h: f64,
}

/// Where a grid starts and how many points it has, or the lower side's PLD when no grid of at most
/// [`MAX_GRID`] points reaches down to where δ(ε) = 1 − e^ε.
enum Grid {
    Points { first: i64, n: usize },
    OnlyInfinity(Pld),
}

impl Grid {
    /// The grid of width `interval` over [`lo`, `hi`] (see [`Pld::from_profile`]), extended down for
    /// the lower side.
    fn new(
        delta: impl Fn(f64) -> f64,
        lo: f64,
        hi: f64,
        interval: f64,
        side: Side,
        infinite: f64,
    ) -> Result<Grid> {
        if !(lo.is_finite() && hi.is_finite() && interval > 0.0 && interval.is_finite()) {
            return Err(Error::invalid(
                "interval",
                interval,
                "gives no finite loss grid",
            ));
        }
        let (mut i_lo, i_hi) = (
            (lo / interval).floor() as i64,
            (hi / interval).ceil() as i64,
        );
        if side == Side::Lower {
            // The lower side needs its grid to start where δ(ε) = 1 − e^ε (at or below the least loss,
            // up to BOTTOM_SLACK), so that its profile can rise to H(0) = 1 along 1 − x, which lies
            // below H. Extend the grid down until it does; if that needs too large a grid, the
            // only certain lower bound left is the mass at +∞.
            let mut step = 1i64.max((1.0 / interval) as i64);
            while delta(i_lo as f64 * interval) - -(i_lo as f64 * interval).exp_m1() > BOTTOM_SLACK
            {
                i_lo -= step;
                step *= 2;
                if (i_hi - i_lo + 1) as usize > MAX_GRID {
                    return Ok(Grid::OnlyInfinity(Pld {
                        interval,
                        lower: 0,
                        probs: vec![0.0],
                        infinity: infinite.clamp(0.0, 1.0),
                        side,
                    }));
                }
            }
        }
        let n = (i_hi - i_lo + 1).max(3) as usize;
        if n > MAX_GRID {
            return Err(Error::invalid(
                "interval",
                interval,
                "needs a loss grid too large",
            ));
        }
        Ok(Grid::Points { first: i_lo, n })
    }
}

impl Pld {
    /// The discrete PLD of a mechanism with privacy profile `delta`, on the grid of width `interval`
    /// from `lo` (at or below the least loss, or where the loss has negligible mass below) to `hi`
    /// (where δ is negligible). `delta` must be exact for every ε in between, negative ε included.
    /// `infinite` is the mass at +∞ of the true PLD (0 for mechanisms whose loss is bounded or
    /// Gaussian-tailed; δ for an (ε, δ) pair): the lower side keeps that much there, the upper side
    /// counts δ(hi) there. The lower side reads its lines off chords over slivers (three evaluations
    /// per grid point); [`Pld::from_profile_and_slope`] takes the exact tangents instead.
    ///
    /// # Errors
    /// Bounds that are not finite, or a grid of more than [`MAX_GRID`] points.
    pub fn from_profile(
        delta: impl Fn(f64) -> f64,
        lo: f64,
        hi: f64,
        interval: f64,
        side: Side,
        infinite: f64,
    ) -> Result<Pld> {
        let (i_lo, n) = match Grid::new(&delta, lo, hi, interval, side, infinite)? {
            Grid::Points { first, n } => (first, n),
            Grid::OnlyInfinity(pld) => return Ok(pld),
        };
        let at = |k: usize, shift: f64| {
            delta((i_lo + k as i64) as f64 * interval + shift).clamp(0.0, 1.0)
        };
        let deltas: Vec<f64> = (0..n).map(|k| at(k, 0.0)).collect();
        let (left, right) = if side == Side::Lower {
            let eta = interval / SLIVER;
            let (em1_eta, om1_eta) = (eta.exp_m1(), -(-eta).exp_m1());
            (
                (0..n)
                    .map(|k| (deltas[k] - at(k, -eta)) / om1_eta)
                    .collect(),
                (0..n).map(|k| (at(k, eta) - deltas[k]) / em1_eta).collect(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let lines = Lines {
            deltas: &deltas,
            left: &left,
            right: &right,
            h: interval,
        };
        Ok(finish(&lines, i_lo, side, infinite))
    }

    /// [`Pld::from_profile`] for a profile that also gives its derivative: `profile(ε)` = (δ(ε),
    /// dδ/dε), exact for every ε in between (the profile differentiable there: a loss without atoms).
    /// The upper side is the same; the lower side's lines are the tangents at the grid points, which
    /// lie below the convex H as the sliver chords do, read off one evaluation per point (and no
    /// chord's cancellation in the slope).
    ///
    /// # Errors
    /// As [`Pld::from_profile`].
    pub fn from_profile_and_slope(
        profile: impl Fn(f64) -> (f64, f64),
        lo: f64,
        hi: f64,
        interval: f64,
        side: Side,
        infinite: f64,
    ) -> Result<Pld> {
        let (i_lo, n) = match Grid::new(|e| profile(e).0, lo, hi, interval, side, infinite)? {
            Grid::Points { first, n } => (first, n),
            Grid::OnlyInfinity(pld) => return Ok(pld),
        };
        let (deltas, slopes): (Vec<f64>, Vec<f64>) = (0..n)
            .map(|k| {
                let (d, s) = profile((i_lo + k as i64) as f64 * interval);
                // x·H'(x) = −x·Q(L > ε) ≥ −P(L > ε) ≥ −1.
                (d.clamp(0.0, 1.0), s.clamp(-1.0, 0.0))
            })
            .unzip();
        let lines = Lines {
            deltas: &deltas,
            left: &slopes,
            right: &slopes,
            h: interval,
        };
        Ok(finish(&lines, i_lo, side, infinite))
    }
}

/// The PLD on the grid from `first` whose profile values (and, for the lower side, lines) are
/// `lines`.
fn finish(lines: &Lines, first: i64, side: Side, infinite: f64) -> Pld {
    let (probs, infinity) = match side {
        Side::Upper => connect_the_dots(lines.deltas, lines.h),
        Side::Lower => lowered_chords(lines, bottom(first, lines.h), infinite.clamp(0.0, 1.0)),
    };
    Pld {
        interval: lines.h,
        lower: first,
        probs,
        infinity,
        side,
    }
}

/// 1 − x₀ at the lower side's first grid point.
fn bottom(first: i64, interval: f64) -> f64 {
    -(first as f64 * interval).exp_m1()
}

/// Masses whose profile passes through every δ_i (connect the dots): p_i = (δ_{i−1} − δ_i)/(1 − e^{−h})
/// − Σ_{j>i} p_j e^{−(ε_j − ε_i)}; what is left goes to the lowest point (rounding up), δ at the top to
/// +∞.
fn connect_the_dots(deltas: &[f64], h: f64) -> (Vec<f64>, f64) {
    let n = deltas.len();
    let infinity = deltas[n - 1];
    let decay = (-h).exp();
    let one_minus_decay = -(-h).exp_m1();
    let mut probs = vec![0.0; n];
    let (mut w, mut above) = (0.0, 0.0);
    for i in (1..n).rev() {
        let p = ((deltas[i - 1] - deltas[i]) / one_minus_decay - w).max(0.0);
        probs[i] = p;
        above += p;
        w = decay * (w + p);
    }
    probs[0] = (1.0 - infinity - above).max(0.0);
    (probs, infinity)
}

/// Masses whose profile lies below the convex profile through `deltas` everywhere (see the module
/// comment), with `infinite` at +∞. `bottom` = 1 − x₀ at the first grid point, where δ is within
/// [`BOTTOM_SLACK`] of it: left of x₀ the profile is the segment from (0, 1) to (x₀, v₀ ≤ 1 − x₀),
/// below H ≥ 1 − x (a kink at x₀; extending the first lowered segment instead would amplify the
/// lowering differences by 1/(e^{kh} − 1) and could rise above H).
fn lowered_chords(lines: &Lines, bottom: f64, infinite: f64) -> (Vec<f64>, f64) {
    let Lines {
        deltas,
        left,
        right,
        h,
    } = *lines;
    let n = deltas.len();
    let (em1_h, om1_h) = (h.exp_m1(), -(-h).exp_m1());
    // Slopes on [x_i, x_{i+1}], all times x_i: the chord, the line from the right at x_i, and the
    // line from the left at x_{i+1}; and that last line's value at x_i (used on the top interval).
    let chord = |i: usize| (deltas[i + 1] - deltas[i]) / em1_h;
    let from_left = |i: usize| right[i];
    let from_right = |i: usize| left[i + 1] * (-h).exp();
    let gaps: Vec<f64> = (0..n - 1)
        .map(|i| {
            let c = chord(i);
            let (a, b) = ((c - from_left(i)).max(0.0), (from_right(i) - c).max(0.0));
            if a + b > 0.0 {
                a * b * em1_h / (a + b)
            } else {
                0.0
            }
        })
        .collect();
    // Lowered values; 4 ulps below for the rounding of δ itself.
    let mut v: Vec<f64> = (0..n)
        .map(|i| {
            let left = if i > 0 { gaps[i - 1] } else { 0.0 };
            let right = if i + 1 < n { gaps[i] } else { 0.0 };
            deltas[i] * (1.0 - 4.0 * f64::EPSILON) - left.max(right)
        })
        .collect();
    v[0] = v[0].min(bottom);
    // The top point sits at p_∞ (no lower), and the one before on the left-sliver line of the top
    // point, so the last chord lies below that line and the crossing of p_∞ is exactly at the top.
    v[n - 1] = deltas[n - 1].min(infinite);
    let tangent = deltas[n - 1] - left[n - 1] * om1_h;
    v[n - 2] = v[n - 2].min(tangent);
    // Lower convex hull in x = e^{ε}. With x_i = x_0 e^{ih}: x_j·slope(i, j) = (v_j − v_i)/(1 − e^{−(j−i)h})
    // and x_j·slope(j, k) = (v_k − v_j)/(e^{(k−j)h} − 1), no overflow for any span.
    // The hull starts at the point (0, 1) = (0, H(0)) (marked ORIGIN): the segment from it to
    // (x₀, v₀ ≤ 1 − x₀) lies below 1 − x ≤ H, so the interpolation through all points is below H, and
    // so is its hull. x_j·slope(origin, j) = v_j − 1.
    const ORIGIN: usize = usize::MAX;
    let left_slope = |i: usize, j: usize| {
        if i == ORIGIN {
            v[j] - 1.0
        } else {
            (v[j] - v[i]) / -(-((j - i) as f64) * h).exp_m1()
        }
    };
    let right_slope = |j: usize, k: usize| (v[k] - v[j]) / (((k - j) as f64) * h).exp_m1();
    let mut hull: Vec<usize> = Vec::with_capacity(n + 1);
    hull.push(ORIGIN);
    for k in 0..n {
        while hull.len() >= 2 {
            let (i, j) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            if left_slope(i, j) >= right_slope(j, k) {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(k);
    }
    // Atoms at the hull's kinks, x_j (s_right − s_left), while the hull stays above the mass at +∞.
    // Where it crosses that level (at x_c, inside a segment), max(hull, p_∞) has one more kink, of
    // mass x_c·|s|, rounded down to the grid point below x_c (a lower loss only lowers δ). Beyond it
    // the profile is flat at p_∞ ≤ H.
    let mut probs = vec![0.0; n];
    for w in 1..hull.len() - 1 {
        let (j, k) = (hull[w], hull[w + 1]);
        let left = left_slope(hull[w - 1], j);
        let r = right_slope(j, k);
        if v[k] > infinite {
            probs[j] += (r - left).max(0.0);
            continue;
        }
        // The crossing: x_c/x_j = 1 + (p_∞ − v_j)/r (r < 0 here, as v_k ≤ p_∞ < v_j); if the hull
        // is already at p_∞ at j (the first vertex), j itself is the last kink.
        if v[j] <= infinite {
            probs[j] += (-left).max(0.0);
            break;
        }
        probs[j] += (r - left).max(0.0);
        let ratio = 1.0 + (infinite - v[j]) / r;
        // A crossing on a grid point (x_c = x_k, the common case) must land on it, not a rounding
        // error below: allow 1e-9 of a grid step.
        let offset = ((ratio.ln() / h + 1e-9).floor() as usize).min(k - j);
        probs[j + offset] += (-ratio * r).max(0.0);
        break;
    }
    (probs, infinite)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// δ(ε) of the Laplace mechanism with ε₀ (closed form, both branches).
    fn laplace(e0: f64) -> impl Fn(f64) -> f64 {
        move |e: f64| {
            if e >= e0 {
                0.0
            } else if e <= -e0 {
                -e.exp_m1()
            } else {
                -((e - e0) / 2.0).exp_m1()
            }
        }
    }

    #[test]
    fn both_sides_bracket_the_profile_everywhere() {
        for (e0, h) in [(1.0, 1e-2), (0.37, 1e-3), (0.01, 1e-4), (3.0, 0.3)] {
            let f = laplace(e0);
            let up = Pld::from_profile(&f, -e0, e0, h, Side::Upper, 0.0).unwrap();
            let low = Pld::from_profile(&f, -e0, e0, h, Side::Lower, 0.0).unwrap();
            for k in -300..=300 {
                let eps = 1.5 * e0 * k as f64 / 300.0;
                let (u, l, t) = (
                    up.delta_for_epsilon(eps),
                    low.delta_for_epsilon(eps),
                    f(eps),
                );
                assert!(
                    l <= t + 1e-13 && t <= u + 1e-13,
                    "ε₀ {e0} h {h} ε {eps}: {l} {t} {u}"
                );
                assert!(
                    u - l <= h * h + 1e-12 || h > 0.1,
                    "ε₀ {e0} h {h} ε {eps}: {l} {u}"
                );
            }
        }
    }

    #[test]
    fn lower_side_keeps_the_mass_at_infinity_and_handles_flat_profiles() {
        // (ε, δ) = (0.5, 1e-3): δ(ε) = δ + (1 − δ)(p − e^ε(1 − p)) between ±0.5 (Kairouz et al. 2015).
        let p = 1.0 / (1.0 + (-0.5f64).exp());
        let f = |e: f64| {
            if e >= 0.5 {
                1e-3
            } else if e <= -0.5 {
                1e-3 + (1.0 - 1e-3) * -e.exp_m1()
            } else {
                1e-3 + (1.0 - 1e-3) * (p - e.exp() * (1.0 - p))
            }
        };
        let low = Pld::from_profile(f, -0.5, 0.5, 1e-3, Side::Lower, 1e-3).unwrap();
        assert_eq!(low.infinity_mass(), 1e-3);
        assert!((low.delta_for_epsilon(0.2) - f(0.2)).abs() < 1e-6);
        let flat = Pld::from_profile(|_| 0.0, 0.0, 1.0, 0.1, Side::Lower, 0.0).unwrap();
        assert_eq!(flat.delta_for_epsilon(0.0), 0.0);
    }
}
