//! DP-SGD by the PLD accountant: ε from both sides after T Poisson-subsampled Gaussian steps (the
//! smallest σ whose certified ε meets a target is in [`super::sigma_search`]).

use super::sigma_search::{meets, Goal};
use super::{
    max_points, Direction, EpsilonBand, Pld, Side, Window, DEFAULT_INTERVAL, DEFAULT_TAIL,
    MIN_DELTA,
};
use crate::error::{Error, Result};

/// Checks δ and T, and gives the per-step and composed tails: the truncated mass counts at +∞ on the
/// upper side, so it is kept well below δ over any number of steps.
pub(crate) fn tails(steps: u64, delta: f64) -> Result<(f64, f64)> {
    if !(MIN_DELTA..1.0).contains(&delta) {
        return Err(Error::invalid(
            "delta",
            delta,
            "is outside [1e-10, 1) where the PLD accountant resolves δ (its FFT's rounding noise); \
             the RDP accountant still applies",
        ));
    }
    if steps == 0 {
        return Err(Error::invalid("steps", steps, "must be at least 1"));
    }
    let tail = DEFAULT_TAIL.min(delta / 10.0);
    Ok((tail / steps as f64, tail))
}

/// How much coarser the grid is on which [`composed`] estimates whether a run needs a wider grid.
const ESTIMATE_COARSENING: f64 = 8.0;

/// T steps in one direction from one side: the composed PLD (see [`compose_capped`]).
pub(super) fn composed(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
    direction: Direction,
    side: Side,
) -> Result<Pld> {
    composed_from(steps, delta, interval, side, |step_tail| {
        one_step(q, sigma, direction, step_tail)
    })
}

/// T steps of the one-step PLD `one(step_tail)` (a `build(width, side)`) from one side
/// ([`compose_capped`]): the upper side widens its grid until the composition fits, the lower side
/// is composed on the width given (its upper side's, which fits).
pub(crate) fn composed_from<B: Fn(f64, Side) -> Result<Pld>>(
    steps: u64,
    delta: f64,
    interval: f64,
    side: Side,
    one: impl Fn(f64) -> B,
) -> Result<Pld> {
    let (step_tail, _) = tails(steps, delta)?;
    let fit = match side {
        Side::Upper => Fit::Widen,
        Side::Lower => Fit::Fitted,
    };
    compose_capped(&one(step_tail), steps, delta, interval, side, fit)
}

/// One subsampled Gaussian step's PLD in `direction`, truncated at `step_tail`, as
/// `build(width, side)` for [`compose_capped`] and [`fitted`].
fn one_step(
    q: f64,
    sigma: f64,
    direction: Direction,
    step_tail: f64,
) -> impl Fn(f64, Side) -> Result<Pld> {
    move |width, side| Pld::subsampled_gaussian(q, sigma, direction, width, step_tail, side)
}

/// Whether [`compose_capped`] is given a grid width still to fit to the FFT, or one an upper side
/// already fitted (a band's lower side, on its upper side's grid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Widen as needed, reading how much off a grid [`ESTIMATE_COARSENING`] times coarser first.
    Widen,
    /// The width fits (checked, and widened only if it does not): no estimate.
    Fitted,
}

/// `steps` compositions of the one-step PLD that `build(width, side)` discretizes, on a grid widened
/// from `interval` so that the FFT stays within [`super::MAX_POINTS`] ([`super::MAX_POINTS_FINE`] when a finer grid
/// than the default was asked for); both sides stay certified at any width, the band widens. `build`
/// must truncate at most `tail / steps` of the mass (see [`tails`]).
///
/// With [`Fit::Widen`], how much to widen is read off a grid [`ESTIMATE_COARSENING`] times coarser (its
/// window in loss units is the fine one's to a fraction of a percent; T = 10⁵ spent a quarter of its
/// band's time discretizing a grid it then threw away, and the shuffled sampler's lower bound at
/// Abadi et al.'s settings two thirds of its time). The width it gives is checked on the grid
/// actually used and widened again if short, so the FFT's bound always holds. A band's lower side is
/// called with the upper side's width, which fits ([`Fit::Fitted`]).
pub(crate) fn compose_capped(
    build: &dyn Fn(f64, Side) -> Result<Pld>,
    steps: u64,
    delta: f64,
    interval: f64,
    side: Side,
    fit: Fit,
) -> Result<Pld> {
    let (_, tail) = tails(steps, delta)?;
    let (pld, window) = fitted(build, steps, delta, interval, side, fit)?;
    Ok(pld.self_compose_in(steps, tail, window))
}

/// The one-step PLD [`compose_capped`] composes, on its widened grid, and the window of its `steps`
/// compositions.
fn fitted(
    build: &dyn Fn(f64, Side) -> Result<Pld>,
    steps: u64,
    delta: f64,
    interval: f64,
    side: Side,
    fit: Fit,
) -> Result<(Pld, Window)> {
    let (_, tail) = tails(steps, delta)?;
    let cap = max_points(interval) as f64;
    let mut width = interval;
    if fit == Fit::Widen && steps > 1 {
        let coarse = build(interval * ESTIMATE_COARSENING, side)?;
        let estimate = Window::of(&[(&coarse, steps)], tail).points() * ESTIMATE_COARSENING;
        // Near the cap the fine grid decides, as it would without the estimate.
        if estimate > 1.1 * cap {
            width = interval * (estimate / cap).ceil();
        }
    }
    let mut pld = build(width, side)?;
    let mut window = Window::of(&[(&pld, steps)], tail);
    if window.points() > cap {
        // Widened once more at most, as before the estimate: a window still over the cap then gets a
        // larger FFT.
        width *= (window.points() / cap).ceil();
        pld = build(width, side)?;
        window = Window::of(&[(&pld, steps)], tail);
    }
    Ok((pld, window))
}

/// The certified upper ε of DP-SGD after each count of steps in `at` (as [`dpsgd_epsilon`] gives it,
/// both directions), from one discretization per direction: the one-step PLD on the grid the largest
/// count T needs, composed to each count. A count below T keeps T's grid (as wide as its own or
/// wider) and T's per-step truncation (t·tail/T ≤ tail at +∞), so each point is a certified upper
/// bound, above the one its own grid gives by at most the discretization's error at T. The counts
/// share one forward transform ([`Pld::self_compose_each`]); the curve cost a discretization and a
/// composition per point and direction before (four points: twice the band's own time).
///
/// # Errors
/// As [`dpsgd_epsilon_band`] for T; a count of 0.
pub fn dpsgd_epsilon_curve(
    q: f64,
    sigma: f64,
    at: &[u64],
    delta: f64,
    interval: f64,
) -> Result<Vec<f64>> {
    let most = at.iter().copied().max().unwrap_or(1);
    let (step_tail, _) = tails(most, delta)?;
    let mut singles = Vec::new();
    for direction in [Direction::Remove, Direction::Add] {
        let build = one_step(q, sigma, direction, step_tail);
        singles.push(fitted(&build, most, delta, interval, Side::Upper, Fit::Widen)?.0);
    }
    OneSteps {
        singles,
        steps: most,
        delta,
        apart: None,
    }
    .curve(at)
}

/// ε of T steps of DP-SGD (Poisson rate q, noise multiplier σ, add/remove neighbours) at δ, from both
/// sides: the upper bound is the larger direction's upper ε; the lower bound is the lower ε of that same
/// direction (the exact ε is at least the exact ε of either direction), which costs one composition
/// instead of two.
///
/// # Errors
/// q, σ out of domain, δ outside [[`MIN_DELTA`], 1), or T = 0.
pub fn dpsgd_epsilon_band(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<EpsilonBand> {
    Ok(dpsgd_band_with_steps(q, sigma, steps, delta, interval)?.0)
}

/// The band after T steps, and what it composed: each direction's one-step upper PLD on the grid it
/// used, from which [`OneSteps::curve`] reads ε at fewer steps with no discretization more.
///
/// # Errors
/// As [`dpsgd_epsilon_band`].
pub fn dpsgd_band_with_steps(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(EpsilonBand, OneSteps)> {
    let (singles, after) = upper_directions(q, sigma, steps, delta, interval)?;
    let (upper, direction, used) = worst_of(&after, delta);
    let lower = composed(q, sigma, steps, delta, used, direction, Side::Lower)?
        .epsilon_for_delta(delta)
        .min(upper);
    let band = EpsilonBand {
        upper,
        lower,
        interval: used,
    };
    let one_steps = OneSteps {
        singles,
        steps,
        delta,
        apart: None,
    };
    Ok((band, one_steps))
}

/// Both directions (remove, then add) from above: each one-step PLD on the grid fitted for T steps,
/// and its T-fold composition.
///
/// # Errors
/// As [`dpsgd_epsilon_band`].
pub(super) fn upper_directions(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(Vec<Pld>, Vec<Pld>)> {
    let (step_tail, _) = tails(steps, delta)?;
    let (mut singles, mut after) = (Vec::new(), Vec::new());
    for direction in [Direction::Remove, Direction::Add] {
        let (one, all) = upper_single(
            &one_step(q, sigma, direction, step_tail),
            steps,
            delta,
            interval,
        )?;
        after.push(all);
        singles.push(one);
    }
    Ok((singles, after))
}

/// The one-step PLD `build(width, side)` discretizes from above, on the grid fitted for T steps, and
/// its T-fold composition.
///
/// # Errors
/// As [`compose_capped`].
pub(super) fn upper_single(
    build: &dyn Fn(f64, Side) -> Result<Pld>,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(Pld, Pld)> {
    let (_, tail) = tails(steps, delta)?;
    let (one, window) = fitted(build, steps, delta, interval, Side::Upper, Fit::Widen)?;
    let all = one.self_compose_in(steps, tail, window);
    Ok((one, all))
}

/// Of [`upper_directions`]' compositions (remove, add): the larger ε at δ, its direction and grid
/// (remove on a tie).
pub(crate) fn worst_of(after: &[Pld], delta: f64) -> (f64, Direction, f64) {
    let mut worst: Option<(f64, Direction, f64)> = None;
    for (pld, direction) in after.iter().zip([Direction::Remove, Direction::Add]) {
        let eps = pld.epsilon_for_delta(delta);
        if worst.is_none_or(|w| eps > w.0) {
            worst = Some((eps, direction, pld.interval()));
        }
    }
    worst.unwrap_or((f64::NAN, Direction::Remove, DEFAULT_INTERVAL))
}

/// Both directions' one-step upper PLDs of a band (see [`dpsgd_band_with_steps`]).
#[derive(Debug, Clone)]
pub struct OneSteps {
    pub(super) singles: Vec<Pld>,
    pub(super) steps: u64,
    pub(super) delta: f64,
    /// Under replace-one, both directions' one-step PLDs at the link's σ, whose compositions bound
    /// replacing by removing, then adding ([`super::replace_one`]); `singles` are then the one-step
    /// route's.
    pub(super) apart: Option<Vec<Pld>>,
}

impl OneSteps {
    /// The certified upper ε after each count of `at` (each in 1..=T), as [`dpsgd_epsilon_curve`]
    /// gives it.
    ///
    /// # Errors
    /// A count of 0 or above T.
    pub fn curve(&self, at: &[u64]) -> Result<Vec<f64>> {
        if let Some(&bad) = at.iter().find(|&&t| t == 0 || t > self.steps) {
            return Err(Error::invalid(
                "steps",
                bad,
                "must be between 1 and the run's steps",
            ));
        }
        // Each part truncated for T compositions: t·tail/T ≤ tail at +∞.
        let (_, tail) = tails(self.steps, self.delta)?;
        let mut eps = vec![0.0f64; at.len()];
        for one in &self.singles {
            for (e, pld) in eps.iter_mut().zip(one.self_compose_each(at, tail)) {
                *e = e.max(pld.epsilon_for_delta(self.delta));
            }
        }
        if let Some([remove, add]) = self.apart.as_deref() {
            let (removes, adds) = (
                remove.self_compose_each(at, tail),
                add.self_compose_each(at, tail),
            );
            for ((e, r), a) in eps.iter_mut().zip(&removes).zip(&adds) {
                *e = e.min(super::replace_one::remove_then_add(r, a, self.delta));
            }
        }
        Ok(eps)
    }
}

/// Both directions from both sides after T steps (remove, then add): `(upper, lower)`, on the grid
/// [`dpsgd_epsilon_band`] would use. For the attack lab's curves, which need every PLD.
///
/// # Errors
/// As [`dpsgd_epsilon_band`].
pub fn dpsgd_plds(
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(Vec<Pld>, Vec<Pld>)> {
    let (mut upper, mut lower) = (Vec::new(), Vec::new());
    for direction in [Direction::Remove, Direction::Add] {
        let up = composed(q, sigma, steps, delta, interval, direction, Side::Upper)?;
        let used = up.interval();
        upper.push(up);
        lower.push(composed(
            q,
            sigma,
            steps,
            delta,
            used,
            direction,
            Side::Lower,
        )?);
    }
    Ok((upper, lower))
}

/// The certified upper ε alone (both directions).
///
/// # Errors
/// As [`dpsgd_epsilon_band`].
pub fn dpsgd_epsilon(q: f64, sigma: f64, steps: u64, delta: f64, interval: f64) -> Result<f64> {
    // With an infinite target `meets` composes both directions and returns the larger ε.
    let goal = Goal::Epsilon { delta };
    Ok(meets(q, sigma, steps, goal, interval, f64::INFINITY)?.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::DEFAULT_INTERVAL;

    #[test]
    fn full_batch_composition_is_bracketed_around_the_gaussian_closed_form() {
        // T Gaussian steps with σ compose to one with σ/√T: the exact ε from Balle & Wang's closed form.
        let (sigma, t) = (5.0, 10u64);
        let g = crate::mechanisms::gaussian::Gaussian::new(sigma / (t as f64).sqrt(), 1.0).unwrap();
        let band = dpsgd_epsilon_band(1.0, sigma, t, 1e-5, DEFAULT_INTERVAL).unwrap();
        assert!(
            g.delta(band.upper) <= 1e-5,
            "upper ε = {} is not enough",
            band.upper
        );
        assert!(
            g.delta(band.lower) >= 1e-5,
            "lower ε = {} is enough",
            band.lower
        );
        assert!(band.width() < 1e-3 * band.upper, "{band:?}");
    }

    #[test]
    fn ten_million_steps_at_small_delta_stay_finite() {
        // Each step's truncated mass counts at +∞: at 1e-15 per step, 10⁷ steps put 1e-8 there, more
        // than δ = 1e-9, and ε came out ∞. The per-step tail is now the total's share.
        let band = dpsgd_epsilon_band(0.001, 3.0, 10_000_000, 1e-9, DEFAULT_INTERVAL).unwrap();
        assert!(
            band.upper.is_finite() && band.lower <= band.upper,
            "{band:?}"
        );
        // One step's loss spans only a few points of the widened grid (q = 0.001): both sides are
        // coarse there, and the page says so and offers a finer grid.
        assert!(band.why_wide(DEFAULT_INTERVAL).is_some(), "{band:?}");
    }

    #[test]
    fn tiny_delta_is_refused_not_infinite() {
        assert!(dpsgd_epsilon_band(0.01, 1.0, 100, 1e-12, DEFAULT_INTERVAL).is_err());
        assert!(dpsgd_epsilon_band(0.01, 1.0, 0, 1e-5, DEFAULT_INTERVAL).is_err());
    }

    /// The curve from one discretization: at T it is the band's upper ε bit for bit (same grid, same
    /// tails); below T every point is still inside [own lower, own upper + T's band width], the band
    /// each count gets on its own grid (so above the exact ε, and close to the tightest bound).
    #[test]
    fn the_curve_from_one_discretization_stays_certified() {
        for (q, sigma, steps) in [
            (0.01, 1.0, 20_000u64),
            (256.0 / 60_000.0, 1.1, 14_063),
            (0.1, 3.0, 300),
        ] {
            let at: Vec<u64> = [0.125, 0.25, 0.5, 0.75, 1.0]
                .iter()
                .map(|f| ((steps as f64) * f).ceil() as u64)
                .collect();
            let curve = dpsgd_epsilon_curve(q, sigma, &at, 1e-5, DEFAULT_INTERVAL).unwrap();
            let (at_t, one_steps) =
                dpsgd_band_with_steps(q, sigma, steps, 1e-5, DEFAULT_INTERVAL).unwrap();
            assert_eq!(curve[4].to_bits(), at_t.upper.to_bits(), "q {q} σ {sigma}");
            // The band's own one-step PLDs give the same curve.
            let reused = one_steps.curve(&at).unwrap();
            assert!(reused
                .iter()
                .zip(&curve)
                .all(|(a, b)| a.to_bits() == b.to_bits()));
            assert!(one_steps.curve(&[steps + 1]).is_err());
            for (&t, &e) in at.iter().zip(&curve) {
                let own = dpsgd_epsilon_band(q, sigma, t, 1e-5, DEFAULT_INTERVAL).unwrap();
                assert!(
                    own.lower <= e && e <= own.upper + at_t.width() + 1e-12,
                    "q {q} σ {sigma} t {t}: {e} against {own:?}"
                );
            }
        }
        assert!(dpsgd_epsilon_curve(0.01, 1.0, &[0, 10], 1e-5, DEFAULT_INTERVAL).is_err());
        // Short runs put count 1 (no composition) before the others, and counts repeat: each
        // count still gets its own composition (the review found 1 taking 2's, and 2 and 3 one
        // step's ε, at T = 4).
        for steps in [2u64, 4, 8, 9] {
            let at: Vec<u64> = [0.125, 0.25, 0.5, 0.75, 1.0]
                .iter()
                .map(|f| ((steps as f64) * f).ceil().max(1.0) as u64)
                .collect();
            let curve = dpsgd_epsilon_curve(0.2, 0.8, &at, 1e-5, DEFAULT_INTERVAL).unwrap();
            for (&t, &e) in at.iter().zip(&curve) {
                let alone = dpsgd_epsilon(0.2, 0.8, t, 1e-5, DEFAULT_INTERVAL).unwrap();
                assert!(
                    (e - alone).abs() <= 1e-9 * alone,
                    "T {steps}, t {t}: {e} against {alone} alone ({at:?})"
                );
            }
        }
    }
}
