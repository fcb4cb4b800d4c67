//! The Poisson-subsampled Gaussian (DP-SGD's step): its exact privacy profile in both directions and its
//! discrete PLD.

use super::{Pld, Side};
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::Gaussian;
use crate::numerics::roots::{bisect, Split, Until};
use std::cmp::Ordering::Greater;

/// Which pair of distributions: with the record against without it, or the reverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// P = (1 − q)N(0, σ²) + qN(1, σ²) against Q = N(0, σ²).
    Remove,
    /// P = N(0, σ²) against Q = (1 − q)N(0, σ²) + qN(1, σ²).
    Add,
}

/// Exact δ(ε) of one Poisson-subsampled Gaussian step (sensitivity 1, noise σ, rate q), for every real ε.
///
/// # Formula
/// Remove: δ = 1 − e^ε when e^ε ≤ 1 − q, else δ = q·δ_σ(ln(1 + (e^ε − 1)/q)).
/// Add: with c = 1 − e^ε(1 − q), δ = 0 when c ≤ 0, else δ = c·δ_σ(ε + ln q − ln c).
/// δ_σ is the Gaussian mechanism's exact profile Φ(1/(2σ) − εσ) − e^ε Φ(−1/(2σ) − εσ) (Balle & Wang
/// 2018, Theorem 8), evaluated in log space, so δ keeps its digits down to 1e-300 (the difference of
/// two Φ̄ terms written out directly cancels to 0 long before).
///
/// # Reference
/// Remove: the hockey-stick divergence of (1 − q)N₀ + qN₁ against N₀ is q·H_{e^{ε'}}(N₁‖N₀) with
/// e^{ε'} = 1 + (e^ε − 1)/q (Balle, Barthe & Gaboardi, NeurIPS 2018, Theorem 8, tight for this pair).
/// Add: ∫(N₀ − e^ε((1 − q)N₀ + qN₁))₊ = c·∫(N₀ − (e^ε q/c) N₁)₊, and the Gaussian pair is symmetric.
/// Both agree with Koskela, Jälkö & Honkela (AISTATS 2020) and dp_accounting's `GaussianPrivacyLoss`.
/// Exact up to rounding (a few ulps in ln δ).
// Not inlined: a PLD grid calls it ~10⁴–10⁵ times from one loop, and in a browser's first run only a
// function called again gets compiled by the optimizing tier (WebAssembly does not replace a running
// loop): inlined, the whole first grid ran in baseline code, several times slower.
#[inline(never)]
pub fn subsampled_gaussian_delta(q: f64, sigma: f64, eps: f64, direction: Direction) -> f64 {
    mixture_delta(
        q,
        |e: f64| Gaussian::new(sigma, 1.0).map_or(1.0, |g| g.delta(e)),
        eps,
        direction,
    )
}

/// [`subsampled_gaussian_delta`] (bit for bit) and its derivative dδ/dε, for every real ε.
///
/// # Formula
/// Remove: dδ/dε = −e^ε when e^ε ≤ 1 − q, else e^{ε−ε'}·δ_σ'(ε') = −e^ε·Φ(−1/(2σ) − ε'σ), with ε' as
/// in δ. Add: 0 when c ≤ 0, else −(1 − c)·δ_σ(y) + δ_σ'(y) with y = ε + ln q − ln c (dc/dε = c − 1,
/// dy/dε = 1/c). δ_σ' is [`Gaussian::delta_and_slope`]'s.
///
/// # Reference
/// The chain rule on the identities of [`subsampled_gaussian_delta`]. Not rounded either way;
/// checked against central differences of δ in this module's tests.
#[inline(never)]
pub fn subsampled_gaussian_delta_and_slope(
    q: f64,
    sigma: f64,
    eps: f64,
    direction: Direction,
) -> (f64, f64) {
    mixture_delta_and_slope(
        q,
        |e: f64| Gaussian::new(sigma, 1.0).map_or((1.0, 0.0), |g| g.delta_and_slope(e)),
        eps,
        direction,
    )
}

/// [`mixture_delta`] and its derivative dδ/dε, given the base pair's profile and derivative
/// (`base(ε)` = (δ_base, dδ_base/dε)); see [`subsampled_gaussian_delta_and_slope`] for the formula.
#[inline(always)]
pub(crate) fn mixture_delta_and_slope(
    q: f64,
    base: impl Fn(f64) -> (f64, f64),
    eps: f64,
    direction: Direction,
) -> (f64, f64) {
    let (delta, slope) = match direction {
        Direction::Remove => {
            if eps.exp_m1() + q <= 0.0 {
                (-eps.exp_m1(), -eps.exp())
            } else {
                let amplified = amplified_eps(q, eps);
                let (d, s) = base(amplified);
                (q * d, s * (eps - amplified).exp())
            }
        }
        Direction::Add => {
            // c = 1 − e^ε(1 − q) = −expm1(ε + ln(1 − q)).
            let c = -(eps + (-q).ln_1p()).exp_m1();
            if c <= 0.0 {
                (0.0, 0.0)
            } else {
                let (d, s) = base(eps + q.ln() - c.ln());
                (c * d, s - (1.0 - c) * d)
            }
        }
    };
    (delta.clamp(0.0, 1.0), slope)
}

/// δ(ε) of the symmetric pair that dominates one Poisson-subsampled Gaussian step in either
/// orientation, for every real ε: the larger of [`subsampled_gaussian_delta`]'s two directions.
///
/// # Formula
/// δ(ε) = δ_remove(ε) for ε ≥ 0, and δ(ε) = 1 − e^ε + e^ε·δ_remove(−ε) below 0.
///
/// # Reference
/// δ_add is δ_remove mirrored (H_{e^ε}(Q‖P) = 1 − e^ε + e^ε·H_{e^{−ε}}(P‖Q)), so the pointwise larger
/// profile max(δ_remove, δ_add) is its own mirror: a symmetric pair, and a valid profile (the
/// largest of convex profiles). For ε ≥ 0 the remove direction is the larger, so that is the formula
/// above. Proof (written here, no source found): with A = N(1, σ²), B = N(0, σ²) and the reflection
/// x ↦ 1 − x swapping them, let S attain δ_add(ε) > 0, so B(S)(1 − e^ε(1 − q)) > e^ε·q·A(S), hence
/// B(S) > A(S) when ε ≥ 0; the reflected set S′ gives δ_remove(ε) ≥ (1 − q)A(S) + qB(S) − e^ε·A(S)
/// = δ_add(ε) + (1 − q)(e^ε − 1)(B(S) − A(S)) ≥ δ_add(ε). Checked numerically in this module's tests.
/// Needed where a step's pair can take either orientation from step to step (truncated Poisson's cut
/// part under replace-one): composing each orientation alone bounds neither a mixed run nor its
/// trade-off curve. Exact up to rounding.
pub fn either_way_delta(q: f64, sigma: f64, eps: f64) -> f64 {
    symmetric_extension(eps, |e| {
        subsampled_gaussian_delta(q, sigma, e, Direction::Remove)
    })
}

/// Exact δ(ε) of the pair ((1 − q)B + qA, B) (remove) or its reverse (add), for every real ε, given the
/// profile `base` of a symmetric pair (A, B) (δ_{A‖B} = δ_{B‖A}, as for the Gaussian and randomized
/// response pairs). [`subsampled_gaussian_delta`] with the Gaussian's profile, and the lower sides of
/// subsampling without replacement (a replaced record's mechanism mixed into its replacement's).
///
/// # Formula
/// Remove: δ = 1 − e^ε when e^ε ≤ 1 − q, else δ = q·δ_base(ln(1 + (e^ε − 1)/q)).
/// Add: with c = 1 − e^ε(1 − q), δ = 0 when c ≤ 0, else δ = c·δ_base(ε + ln q − ln c).
/// Exact identities of the hockey-stick divergence (see [`subsampled_gaussian_delta`]); clamped to
/// [0, 1].
#[inline(always)]
pub(crate) fn mixture_delta(
    q: f64,
    base: impl Fn(f64) -> f64,
    eps: f64,
    direction: Direction,
) -> f64 {
    // One formula with its derivative: the slope's terms are dead here, and the compiler drops
    // them (the band's upper side, which reads δ alone, took as long before and after).
    mixture_delta_and_slope(q, |e| (base(e), 0.0), eps, direction).0
}

/// ε at which the base pair is read when a step at rate q is read at `eps` ≥ 0 (Poisson subsampling's
/// amplification, inverted): ln(1 + (e^ε − 1)/q), without overflow for large ε.
#[inline(always)]
pub(crate) fn amplified_eps(q: f64, eps: f64) -> f64 {
    if eps > 30.0 {
        eps - q.ln() + (-(1.0 - q) * (-eps).exp()).ln_1p()
    } else {
        (eps.exp_m1() / q).ln_1p()
    }
}

/// The profile of the symmetric pair whose profile is `profile` for ε ≥ 0: `profile(eps)` there, and
/// below 0 its mirror δ(ε) = 1 − e^ε + e^ε·δ(−ε) (H_{e^ε}(Q‖P) = 1 − e^ε + e^ε·H_{e^{−ε}}(P‖Q) with
/// Q‖P the same as P‖Q); clamped to [0, 1].
pub(crate) fn symmetric_extension(eps: f64, profile: impl Fn(f64) -> f64) -> f64 {
    let d = if eps >= 0.0 {
        profile(eps)
    } else {
        -eps.exp_m1() + eps.exp() * profile(-eps)
    };
    d.clamp(0.0, 1.0)
}

/// A PLD grid's top for the profile `delta`: the first ε with δ(ε) ≤ `tail` (doubling from 1 up to
/// 10⁶, then bisection), so that the mass beyond it is what the grid's top counts as tail. Returns the
/// bracket's upper end, where δ ≤ `tail` as evaluated.
pub(crate) fn top_for_tail(delta: impl Fn(f64) -> f64, tail: f64) -> f64 {
    let mut hi = 1.0;
    while delta(hi) > tail && hi < 1e6 {
        hi *= 2.0;
    }
    bisect(0.0, hi, Split::Middle, Until::Steps(60), |e| {
        delta(e).partial_cmp(&tail) != Some(Greater)
    })
    .hi
}

impl Pld {
    /// The PLD of one subsampled Gaussian step in `direction`, from `side`.
    ///
    /// # Errors
    /// q outside (0, 1], σ not finite and > 0, or an interval that needs too large a grid.
    pub fn subsampled_gaussian(
        q: f64,
        sigma: f64,
        direction: Direction,
        interval: f64,
        tail: f64,
        side: Side,
    ) -> Result<Pld> {
        check_rate_and_noise(q, sigma)?;
        let delta = |e: f64| subsampled_gaussian_delta(q, sigma, e, direction);
        let hi = top_for_tail(delta, tail);
        let lo = loss_floor(q, sigma, direction, tail);
        match side {
            Side::Upper => Pld::from_profile(delta, lo, hi, interval, side, 0.0),
            // The lower side's lines are the exact tangents: one evaluation per grid point.
            Side::Lower => Pld::from_profile_and_slope(
                |e: f64| subsampled_gaussian_delta_and_slope(q, sigma, e, direction),
                lo,
                hi,
                interval,
                side,
                0.0,
            ),
        }
    }
}

/// Checks a Poisson step's rate q ∈ (0, 1] and noise multiplier σ (finite, > 0).
///
/// # Errors
/// Either out of domain.
pub(crate) fn check_rate_and_noise(q: f64, sigma: f64) -> Result<()> {
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
    Ok(())
}

/// A PLD grid's bottom for one subsampled Gaussian step: the loss's least value, or the ε below
/// which the loss has mass at most `tail`.
pub(crate) fn loss_floor(q: f64, sigma: f64, direction: Direction, tail: f64) -> f64 {
    let z = crate::numerics::special::normal_upper_quantile(tail);
    match direction {
        Direction::Remove if q < 1.0 => (-q).ln_1p(),
        Direction::Remove => (0.5 - sigma * z) / (sigma * sigma),
        Direction::Add => -(q * ((sigma * z - 0.5) / (sigma * sigma)).exp() + 1.0 - q).ln(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// δ(ε) by direct numerical integration of (p − e^ε q)₊ over the output (midpoint rule on
    /// [−40σ − 1, 40σ + 2] with 4·10⁵ cells; its error is far below the tolerances used).
    fn integrated(q: f64, sigma: f64, eps: f64, direction: Direction) -> f64 {
        let pdf = |x: f64, m: f64| {
            (-(x - m).powi(2) / (2.0 * sigma * sigma)).exp()
                / (sigma * (2.0 * std::f64::consts::PI).sqrt())
        };
        let (a, b, n) = (-40.0 * sigma - 1.0, 40.0 * sigma + 2.0, 400_000);
        let w = (b - a) / n as f64;
        (0..n)
            .map(|i| {
                let x = a + (i as f64 + 0.5) * w;
                let (mix, base) = ((1.0 - q) * pdf(x, 0.0) + q * pdf(x, 1.0), pdf(x, 0.0));
                let (p, r) = match direction {
                    Direction::Remove => (mix, base),
                    Direction::Add => (base, mix),
                };
                (p - eps.exp() * r).max(0.0) * w
            })
            .sum()
    }

    #[test]
    fn profile_matches_integration_over_the_whole_range() {
        for (q, sigma) in [
            (0.01, 1.0),
            (0.1, 0.6),
            (0.5, 2.0),
            (1.0, 1.0),
            (0.004, 5.0),
        ] {
            for direction in [Direction::Remove, Direction::Add] {
                for eps in [-3.0, -0.5, -0.01, 0.0, 1e-4, 0.05, 0.3, 1.0, 2.5] {
                    let (ours, num) = (
                        subsampled_gaussian_delta(q, sigma, eps, direction),
                        integrated(q, sigma, eps, direction),
                    );
                    assert!(
                        (ours - num).abs() <= 1e-9 + 1e-7 * num,
                        "q {q} σ {sigma} {direction:?} ε {eps}: {ours} vs {num}"
                    );
                }
            }
        }
    }

    #[test]
    fn slope_matches_central_differences_and_delta_is_unchanged() {
        for (q, sigma) in [
            (0.01, 1.0),
            (0.1, 0.6),
            (0.5, 2.0),
            (1.0, 1.0),
            (0.004, 5.0),
            (0.3, 0.1),
        ] {
            for direction in [Direction::Remove, Direction::Add] {
                for k in -40..=80 {
                    let eps = 0.05 * f64::from(k) + 0.0123;
                    let (d, s) = subsampled_gaussian_delta_and_slope(q, sigma, eps, direction);
                    let alone = subsampled_gaussian_delta(q, sigma, eps, direction);
                    assert_eq!(d.to_bits(), alone.to_bits(), "q {q} σ {sigma} ε {eps}");
                    let h = 1e-5;
                    let at = |e: f64| subsampled_gaussian_delta(q, sigma, e, direction);
                    let numeric = (at(eps + h) - at(eps - h)) / (2.0 * h);
                    assert!(
                        (s - numeric).abs() <= 1e-6 * (s.abs() + d) + 1e-13,
                        "q {q} σ {sigma} {direction:?} ε {eps}: {s} vs {numeric}"
                    );
                    // x·H'(x) = −x·Q(L > ε) lies in [−P(L > ε), 0].
                    assert!((-1.0..=0.0).contains(&s), "q {q} σ {sigma} ε {eps}: {s}");
                }
            }
        }
    }

    #[test]
    fn lower_side_from_tangents_stays_below_the_profile_and_no_looser_than_slivers() {
        // Certified (below the exact profile, up to its 1e-12 rounding) and as tight as the sliver
        // chords it replaced: at most 1% of their distance from the profile lower, up to rounding.
        for (q, sigma, h) in [
            (0.01, 1.0, 1e-3),
            (0.1, 0.6, 1e-2),
            (0.5, 2.0, 1e-4),
            (1.0, 0.8, 3e-3),
        ] {
            for direction in [Direction::Remove, Direction::Add] {
                let delta = |e: f64| subsampled_gaussian_delta(q, sigma, e, direction);
                let tail = 1e-14;
                let (lo, hi) = (
                    loss_floor(q, sigma, direction, tail),
                    top_for_tail(delta, tail),
                );
                let tangents =
                    Pld::subsampled_gaussian(q, sigma, direction, h, tail, Side::Lower).unwrap();
                let slivers = Pld::from_profile(delta, lo, hi, h, Side::Lower, 0.0).unwrap();
                let upper =
                    Pld::subsampled_gaussian(q, sigma, direction, h, tail, Side::Upper).unwrap();
                for k in -200..=400 {
                    let eps = hi * f64::from(k) / 400.0;
                    let (t, s, u, exact) = (
                        tangents.delta_for_epsilon(eps),
                        slivers.delta_for_epsilon(eps),
                        upper.delta_for_epsilon(eps),
                        delta(eps),
                    );
                    assert!(
                        t <= exact * (1.0 + 1e-12) + 1e-15,
                        "q {q} σ {sigma} ε {eps}: {t} > {exact}"
                    );
                    assert!(
                        t >= s - 0.01 * (exact - s) - 1e-14,
                        "q {q} σ {sigma} ε {eps}: {t} vs {s}, exact {exact} upper {u}"
                    );
                }
            }
        }
    }

    #[test]
    fn either_way_is_the_larger_direction_at_every_eps() {
        // The proof in `either_way_delta`'s comment, checked: the profile is at least both directions'
        // (each computed by its own formula, not by mirroring).
        for q in [1e-4, 0.01, 0.1, 0.3, 0.5, 0.9, 0.999, 1.0] {
            for sigma in [0.05, 0.3, 0.55, 1.0, 2.0, 8.0] {
                for k in -60..=60 {
                    let eps = 0.1 * f64::from(k);
                    let both = either_way_delta(q, sigma, eps);
                    for direction in [Direction::Remove, Direction::Add] {
                        let one = subsampled_gaussian_delta(q, sigma, eps, direction);
                        assert!(
                            both >= one - 1e-15 - 1e-12 * one,
                            "q {q} σ {sigma} ε {eps} {direction:?}: {both} < {one}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tiny_deltas_keep_their_digits() {
        // Remove at q = 0.01, σ = 1: δ(ε) = q·δ_σ(ln(1 + (e^ε − 1)/q)); at large ε this is far below
        // 1e-15, where the two-Φ̄ form cancels to 0. Reference: the same identity with the Gaussian's
        // log-space δ, and monotonicity down to 1e-300.
        let mut last = 1.0;
        for k in 1..400 {
            let eps = 0.1 * k as f64;
            let d = subsampled_gaussian_delta(0.01, 1.0, eps, Direction::Remove);
            assert!(d < last || d == 0.0, "ε {eps}: {d} ≥ {last}");
            if d > 1e-300 {
                assert!(d > 0.0);
            }
            last = d;
        }
        // ε = 12: ε' = ln(1 + (e¹² − 1)/0.01) ≈ 16.6 and δ ≈ 0.01·Φ(−16.1) ≈ 1e-60, far below 1e-15.
        let d12 = subsampled_gaussian_delta(0.01, 1.0, 12.0, Direction::Remove);
        assert!(d12 > 1e-80 && d12 < 1e-40, "{d12}");
    }
}
