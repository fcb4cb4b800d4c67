//! Replace-one neighbours from add/remove: replacing x by x′ is removing x, then adding x′.
//!
//! Two certified routes, the smaller taken:
//! - **One step at a time** ([`replaced_step_delta`]): a symmetric pair that dominates each replace-one
//!   step whichever way round (a run's steps may mix orientations), by advanced joint convexity: the
//!   record drawn is one clipped gradient from the record not drawn and two from its replacement.
//!   Until stop 44 this route was the add/remove pair at σ/2, each orientation composed alone (which
//!   bounds no mixed run): 14.72 at Abadi et al.'s MNIST settings, now 5.74.
//! - **Removing then adding** at σ ([`remove_then_add`]): 5.10 there; the one-step route wins at
//!   large rates (q = 0.1, σ = 1, T = 1000: 68.1, where removing then adding needs δ below the
//!   PLD's floor).
//!
//! Neither is tight. The lower bound is the larger of two pairs that happen: the add/remove
//! pair at σ (a replacing record with a zero gradient) and the symmetric pair
//! ((1 − q)N(0, σ²) + qN(1, σ²), (1 − q)N(0, σ²) + qN(−1, σ²)) (the record's gradient +C replaced by
//! −C, every other 0; [`replace_pair_delta`]), dp_accounting's replace-one pair: 4.22 at those
//! settings. Whether that pair dominates every replace-one pair under composition is not proven
//! here, so its upper side is not used as a guarantee.

use super::dpsgd::{
    compose_capped, composed, tails, upper_directions, upper_single, worst_of, Fit, OneSteps,
};
use super::subsampled::{amplified_eps, check_rate_and_noise, symmetric_extension, top_for_tail};
use super::{Direction, EpsilonBand, Goal, Pld, Side, MIN_DELTA};
use crate::accounting::tradeoff::{beta_both, TradeOff, TwoSteps};
use crate::error::Result;
use crate::mechanisms::gaussian::Gaussian;
use crate::numerics::special::{ln_add_exp, ln_normal_cdf, ln_sub_exp};

/// Exact δ(ε) of the symmetric replace-one pair P = (1 − q)N(0, σ²) + qN(1, σ²) against
/// Q = (1 − q)N(0, σ²) + qN(−1, σ²), for every real ε.
///
/// # Formula
/// p/q is increasing in x, so {p/q > e^ε} = {x > x*}: δ = P(X > x*) − e^ε Q(X > x*), with
/// P(X > t) = (1 − q)Φ̄(t/σ) + qΦ̄((t − 1)/σ) and Q(X > t) = (1 − q)Φ̄(t/σ) + qΦ̄((t + 1)/σ). For
/// ε ≥ 0, x* = σ² ln y with y the positive root of a y² + b y − qc = 0, a = qc e^{−ε},
/// b = −(1 − q)(1 − e^{−ε}), c = e^{−1/(2σ²)} (p/q = e^ε divided through by e^ε φ(x)); x*(−ε) = −x*(ε)
/// (the pair is its own mirror). Everything in log space, so neither e^ε nor δ overflows or
/// underflows early.
///
/// # Reference
/// The hockey-stick divergence on the likelihood-ratio set (Neyman–Pearson), as dp_accounting's
/// `GaussianPrivacyLoss` (REPLACE_ONE, sensitivity 1, mirrored) computes it; checked against mpmath
/// quadrature in `tests/samplers.rs`. Exact up to rounding.
pub fn replace_pair_delta(q: f64, sigma: f64, eps: f64) -> f64 {
    let ln_qc = q.ln() - 0.5 / (sigma * sigma);
    let e = eps.abs();
    // ln y = ln(−b + √(b² + 4a·qc)) − ln 2 − ln a, with ln a = ln(qc) − ε.
    let b = -(1.0 - q) * -(-e).exp_m1();
    let four_a_qc = 4.0 * (2.0 * ln_qc - e).exp();
    let ln_y = (-b + (b * b + four_a_qc).sqrt()).ln() - std::f64::consts::LN_2 - ln_qc + e;
    let t = eps.signum() * sigma * sigma * ln_y;
    let ln_sf = |z: f64| ln_normal_cdf(-z / sigma);
    let ln_common = (-q).ln_1p() + ln_sf(t);
    let ln_p = ln_add_exp(ln_common, q.ln() + ln_sf(t - 1.0));
    let ln_q = eps + ln_add_exp(ln_common, q.ln() + ln_sf(t + 1.0));
    if ln_p <= ln_q {
        return 0.0;
    }
    ln_sub_exp(ln_p, ln_q).exp().clamp(0.0, 1.0)
}

impl Pld {
    /// The PLD of [`replace_pair_delta`]'s pair, from `side` (one direction: the pair is its own
    /// mirror image, so both directions have this PLD). At q = 1 the pair is N(1, σ²) against
    /// N(−1, σ²), the Gaussian with sensitivity 2: the add/remove step at σ/2.
    ///
    /// # Errors
    /// q outside (0, 1], σ not finite and > 0, or an interval that needs too large a grid.
    pub fn replace_pair(q: f64, sigma: f64, interval: f64, tail: f64, side: Side) -> Result<Pld> {
        if q == 1.0 {
            return Pld::subsampled_gaussian(
                1.0,
                sigma / 2.0,
                Direction::Remove,
                interval,
                tail,
                side,
            );
        }
        check_rate_and_noise(q, sigma)?;
        let delta = |e: f64| replace_pair_delta(q, sigma, e);
        let hi = top_for_tail(delta, tail);
        // Below −hi the loss has mass P(X < −x*(hi)) = Q(X > x*(hi)) ≤ e^{−hi}·P(X > x*(hi)): less
        // than the tail.
        Pld::from_profile(delta, -hi, hi, interval, side, 0.0)
    }
}

/// T steps of [`replace_pair_delta`]'s pair from below, on a grid of width `interval` (widened only if
/// the composition would not fit the FFT).
///
/// # Errors
/// As [`Pld::replace_pair`], or δ and T out of domain.
pub fn replace_pair_lower(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<Pld> {
    let (step_tail, _) = tails(steps, delta)?;
    compose_capped(
        &|width, side| Pld::replace_pair(q, sigma, width, step_tail, side),
        steps,
        delta,
        interval,
        Side::Lower,
        Fit::Fitted,
    )
}

/// Fractions f of δ tried for removal's share: 65 of them, geometrically from 0.999 to 10⁻⁴.
fn shares() -> impl Iterator<Item = f64> {
    (0..=64).map(|k| 0.999 * (1e-4f64 / 0.999).powf(f64::from(k) / 64.0))
}

/// Certified upper ε at δ of replacing one record, from the certified upper PLDs of removing one
/// (`remove`: P with the record against Q without) and adding one (`add`: the reverse) over the
/// same run.
///
/// # Formula
/// min over f of ε₁(fδ) + ε₂((1 − f)δe^{−ε₁}), for either order (remove then add, add then remove).
///
/// # Reference
/// Group privacy with two different neighbours (Dwork & Roth 2014, Section 2.3): if D ~ D∖x is
/// (ε₁, δ₁)-DP and D∖x ~ D′ is (ε₂, δ₂)-DP then P_D(S) ≤ e^{ε₁}P_{D∖x}(S) + δ₁ ≤ e^{ε₁+ε₂}P_{D′}(S) +
/// e^{ε₁}δ₂ + δ₁ for every event S. Each εᵢ is read off a certified upper PLD at its δᵢ, so every
/// split's sum is certified, and the least of 65 splits is returned (never below a certified one);
/// splits that would read either PLD below [`MIN_DELTA`] are skipped (∞ when none is left).
/// The pairs are the worst cases over gradients, the same for x and x′, so D′ against D is the same.
pub fn remove_then_add(remove: &Pld, add: &Pld, delta: f64) -> f64 {
    let fractions: Vec<f64> = shares().filter(|f| delta * f >= MIN_DELTA).collect();
    let through = |first: &Pld, then: &Pld| {
        let firsts =
            first.epsilons_for_deltas(&fractions.iter().map(|f| delta * f).collect::<Vec<_>>());
        let rest: Vec<f64> = fractions
            .iter()
            .zip(&firsts)
            .map(|(f, e1)| delta * (1.0 - f) * (-e1).exp())
            .collect();
        let thens = then.epsilons_for_deltas(&rest);
        firsts
            .iter()
            .zip(&thens)
            .zip(&rest)
            // Below MIN_DELTA a PLD's ε is not certified (its FFT's rounding noise): no bound there.
            .map(|((a, b), d2)| {
                if *d2 >= MIN_DELTA {
                    a + b
                } else {
                    f64::INFINITY
                }
            })
            .fold(f64::INFINITY, f64::min)
    };
    through(remove, add).min(through(add, remove))
}

/// DP-SGD's band under replace-one at the link's σ after T steps: the upper end the smaller of the
/// one-step route's certified ε ([`replaced_step_delta`]) and [`remove_then_add`] at σ, the lower end
/// the add/remove pair's lower ε at σ; with what it composed, for [`OneSteps::curve`].
///
/// # Errors
/// As [`super::dpsgd_epsilon_band`].
pub fn dpsgd_replace_one_band_with_steps(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(EpsilonBand, OneSteps)> {
    // Only the one-step route is required: the other bound and the pairs below are each optional (a σ
    // so small that a grid will not fit leaves the guarantee standing, and 0 below).
    let (step_single, step_after) = replaced_composed(q, sigma, steps, delta, interval)?;
    let (step_upper, step_used) = (step_after.epsilon_for_delta(delta), step_after.interval());
    let at_sigma = upper_directions(q, sigma, steps, delta, interval).ok();
    let through = at_sigma.as_ref().map_or(f64::INFINITY, |(_, after)| {
        remove_then_add(&after[0], &after[1], delta)
    });
    let upper = step_upper.min(through);
    let (lower, used) = match &at_sigma {
        Some((_, after)) => {
            let (_, direction, used) = worst_of(after, delta);
            let zero_gradient = composed(q, sigma, steps, delta, used, direction, Side::Lower);
            let mirrored = replace_pair_lower(q, sigma, steps, delta, used);
            let eps = |pld: Result<Pld>| pld.map_or(0.0, |p| p.epsilon_for_delta(delta));
            (eps(zero_gradient).max(eps(mirrored)), used)
        }
        None => (0.0, step_used),
    };
    let band = EpsilonBand {
        upper,
        lower: lower.min(upper),
        interval: used,
    };
    let one_steps = OneSteps {
        singles: vec![step_single],
        steps,
        delta,
        apart: at_sigma.map(|(singles, _)| singles),
    };
    Ok((band, one_steps))
}

/// [`dpsgd_replace_one_band_with_steps`]'s band alone.
///
/// # Errors
/// As [`super::dpsgd_epsilon_band`].
pub fn dpsgd_replace_one_band(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<EpsilonBand> {
    Ok(dpsgd_replace_one_band_with_steps(q, sigma, steps, delta, interval)?.0)
}

/// A replace-one run's PLDs after T steps at the link's σ, for the attack lab's curves.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplaceOnePlds {
    /// The one-step route's: [`replaced_step_delta`]'s pair composed, which dominates replace-one's.
    pub one_step: Vec<Pld>,
    /// The add/remove pair's upper side at σ (remove, then add), where its grid fits (else empty):
    /// replace-one is two such steps apart, removing then adding.
    pub at_sigma: Vec<Pld>,
    /// Every pair that happens: the add/remove pair at σ (a zero-gradient replacement) and
    /// [`replace_pair_delta`]'s mirrored pair, each from below, on the grid `one_step` used.
    pub lower: Vec<Pld>,
    /// [`remove_then_add`]'s certified ε at δ from `at_sigma` (∞ without it), which can be far below
    /// `one_step`'s.
    pub through: f64,
}

/// [`ReplaceOnePlds`] for q, σ (the link's), T and δ. Only the one-step route is required (as in
/// [`dpsgd_replace_one_band_with_steps`]): a σ too small for the others' grids leaves them out.
///
/// # Errors
/// As [`super::dpsgd_epsilon_band`].
pub fn dpsgd_plds_replace_one(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<ReplaceOnePlds> {
    let (_, one_step) = replaced_composed(q, sigma, steps, delta, interval)?;
    let (at_sigma, mut lower) =
        super::dpsgd_plds(q, sigma, steps, delta, interval).unwrap_or_default();
    let used = one_step.interval().max(interval);
    lower.extend(replace_pair_lower(q, sigma, steps, delta, used).ok());
    let through = match at_sigma.as_slice() {
        [remove, add] => remove_then_add(remove, add, delta),
        _ => f64::INFINITY,
    };
    Ok(ReplaceOnePlds {
        one_step: vec![one_step],
        at_sigma,
        lower,
        through,
    })
}

/// Whether the link's σ keeps replace-one's certified measure of `goal` at or below `target`, and
/// that measure (a σ search's evaluation): the better of two routes, removing then adding at σ first,
/// the one-step route only when that misses (it rarely wins at small rates).
///
/// - ε at δ: the band's upper end ([`remove_then_add`]).
/// - The advantage, or the TPR at an FPR: the attack lab's certified curve, two add/remove steps at σ
///   ([`TwoSteps`]) where higher than the one-step route's.
pub(super) fn meets(
    q: f64,
    sigma: f64,
    steps: u64,
    goal: Goal,
    interval: f64,
    target: f64,
) -> Result<(bool, f64)> {
    let through = two_steps_measure(q, sigma, steps, goal, interval);
    if through <= target {
        return Ok((true, through));
    }
    let one_step = one_step_measure(q, sigma, steps, goal, interval)?;
    Ok((one_step <= target, one_step.min(through)))
}

/// δ(ε) at every real ε of a symmetric pair that dominates one Poisson-subsampled Gaussian step under
/// replace-one (rate q, noise multiplier σ, clipping norm 1), whichever way round the step is.
///
/// # Formula
/// For ε′ ≥ 0, with ε = ln(1 + (e^ε′ − 1)/q) and β = e^{ε′ − ε}:
/// δ(ε′) = q·((1 − β)·δ_σ(ε) + β·δ_{σ/2}(ε)), δ_s the Gaussian mechanism's exact profile at noise s
/// (sensitivity 1); below 0 mirrored, δ(−ε′) = 1 − e^{−ε′} + e^{−ε′}δ(ε′). At q = 1, δ_{σ/2}.
///
/// # Reference
/// The step's pair is P = (1 − q)μ₀ + qμ₁ against Q = (1 − q)μ₀ + qμ₁′: μ₀ the record not drawn (the
/// same on both sides), μ₁ and μ₁′ the record or its replacement drawn, each a mixture over the
/// other records' draws of Gaussians at noise σ. Advanced joint convexity (Balle, Barthe & Gaboardi,
/// NeurIPS 2018, Theorem 2): H_{e^ε′}(P‖Q) = q·H_{e^ε}(μ₁ ‖ (1 − β)μ₀ + βμ₁′) for ε′ ≥ 0. Joint
/// convexity bounds that by (1 − β)·H_{e^ε}(μ₁‖μ₀) + β·H_{e^ε}(μ₁‖μ₁′), and over the same draws of the
/// others μ₁ is one clipped gradient from μ₀ (δ_σ) and two from μ₁′ (δ_{σ/2}). With P and Q
/// swapped the same bound holds, so the mirror below 0 covers either orientation. The add/remove pair
/// at σ/2 taken either way round ([`super::subsampled::either_way_delta`]) is the same with δ_{σ/2}
/// for both terms: this is below it at every ε (10–100 times at Abadi et al.'s step). Used as the
/// profile of a pair: it is convex in e^ε′ (second differences checked in tests), and its
/// connect-the-dots PLD never falls below it at a grid point even where it is not (a clamped mass
/// only raises the profile below it). Exact up to rounding.
pub fn replaced_step_delta(q: f64, sigma: f64, eps: f64) -> f64 {
    let gauss = |s: f64, e: f64| Gaussian::new(s, 1.0).map_or(1.0, |g| g.delta(e));
    symmetric_extension(eps, |e1: f64| {
        if q >= 1.0 {
            return gauss(sigma / 2.0, e1);
        }
        let inner = amplified_eps(q, e1);
        let beta = (e1 - inner).exp().min(1.0);
        q * ((1.0 - beta) * gauss(sigma, inner) + beta * gauss(sigma / 2.0, inner))
    })
}

impl Pld {
    /// The PLD of [`replaced_step_delta`]'s symmetric pair from `side` (its loss as far below 0 as
    /// above).
    ///
    /// # Errors
    /// q outside (0, 1], σ not finite and > 0, or an interval that needs too large a grid.
    pub fn replaced_step(q: f64, sigma: f64, interval: f64, tail: f64, side: Side) -> Result<Pld> {
        check_rate_and_noise(q, sigma)?;
        let delta = |e: f64| replaced_step_delta(q, sigma, e);
        let hi = top_for_tail(delta, tail);
        // Below −hi the loss has mass e^{−hi}·(mass above hi) at most: less than the tail.
        Pld::from_profile(delta, (-hi).min(hi - interval), hi, interval, side, 0.0)
    }
}

/// T steps of [`replaced_step_delta`]'s pair (rate q, noise multiplier σ per unit of sensitivity)
/// from above: the one-step PLD on the grid fitted for T steps, and its T-fold composition. A user's k
/// records replaced are the same with μ₁ within k clipped gradients of μ₀ and 2k of μ₁′: rate
/// 1 − (1 − q)^k and σ/k.
///
/// # Errors
/// As [`super::dpsgd_epsilon_band`].
pub(crate) fn replaced_composed(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(Pld, Pld)> {
    let (step_tail, _) = tails(steps, delta)?;
    let step = move |width, side| Pld::replaced_step(q, sigma, width, step_tail, side);
    upper_single(&step, steps, delta, interval)
}

/// `goal`'s certified measure by the one-step route.
fn one_step_measure(q: f64, sigma: f64, steps: u64, goal: Goal, interval: f64) -> Result<f64> {
    let (_, pld) = replaced_composed(q, sigma, steps, goal.delta(), interval)?;
    Ok(match goal {
        Goal::Epsilon { delta } => pld.epsilon_for_delta(delta),
        Goal::Advantage => pld.delta_for_epsilon(0.0),
        Goal::TprAtFpr { alpha } => 1.0 - beta_both(&[TradeOff::from_pld(&pld)], alpha),
    })
}

/// `goal`'s certified measure by removing then adding at σ (∞ where the pair's grid does not fit).
fn two_steps_measure(q: f64, sigma: f64, steps: u64, goal: Goal, interval: f64) -> f64 {
    upper_directions(q, sigma, steps, goal.delta(), interval).map_or(f64::INFINITY, |(_, after)| {
        let two_steps = || TwoSteps::new(after.iter().map(TradeOff::from_pld).collect());
        match goal {
            Goal::Epsilon { delta } => remove_then_add(&after[0], &after[1], delta),
            Goal::Advantage => two_steps().deltas_upper(&[0.0])[0],
            Goal::TprAtFpr { alpha } => 1.0 - two_steps().beta(alpha),
        }
    })
}

/// Replace-one's certified ε at δ at the link's σ (the band's upper end, without its lower end's two
/// compositions).
///
/// # Errors
/// As [`super::dpsgd_epsilon_band`].
pub fn dpsgd_replace_one_epsilon(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<f64> {
    let goal = Goal::Epsilon { delta };
    // Both routes, always (an infinite target would stop `meets` at the first).
    let one_step = one_step_measure(q, sigma, steps, goal, interval)?;
    Ok(one_step.min(two_steps_measure(q, sigma, steps, goal, interval)))
}
