//! Heterogeneous schedules: training in phases (q_i, σ_i, T_i), each Poisson-subsampled Gaussian
//! steps, composed. The PLD composes every phase's self-composition in one FFT (the product of each
//! phase's transform raised to its count); RDP adds the phases' curves order by order.

use crate::accounting::pld::dpsgd::{tails, worst_of};
use crate::accounting::pld::{max_points, remove_then_add, Direction, EpsilonBand, Pld, Side};
use crate::accounting::rdp::replace_one::dpsgd_step_rdp;
use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
use crate::error::{Error, Result};
use crate::link::query::{fmt_f64, parse_number};

/// Most phases in a schedule.
pub const MAX_PHASES: usize = 20;

/// One phase: T steps at rate q with noise multiplier σ (as the accountants see it).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Phase {
    /// Sampling rate q.
    pub q: f64,
    /// Noise multiplier σ.
    pub sigma: f64,
    /// Steps T.
    pub steps: u64,
}

/// Reads `q:σ:T,q:σ:T,…`.
///
/// # Errors
/// A phase that is not three numbers, q outside (0, 1], σ not finite and positive, T not a whole
/// number from 1 to 10⁷, no phase, or more than [`MAX_PHASES`].
pub fn parse_schedule(s: &str) -> Result<Vec<Phase>> {
    let bad = |why: &str| Error::invalid("schedule", s, why);
    let phases = s
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let parts: Vec<&str> = p.split(':').map(str::trim).collect();
            let [q, sigma, steps] = parts[..] else {
                return Err(bad("lists phases as q:σ:T, separated by commas"));
            };
            let (q, sigma, steps) = (
                parse_number("schedule", q).ok(),
                parse_number("schedule", sigma).ok(),
                parse_number("schedule", steps).ok(),
            );
            match (q, sigma, steps) {
                (Some(q), Some(sigma), Some(t))
                    if q > 0.0
                        && q <= 1.0
                        && sigma.is_finite()
                        && sigma > 0.0
                        && t.fract() == 0.0
                        && (1.0..=1e7).contains(&t) =>
                {
                    Ok(Phase {
                        q,
                        sigma,
                        steps: t as u64,
                    })
                }
                _ => Err(bad(
                    "needs q in (0, 1], σ > 0 and T a whole number from 1 to 10⁷ in each phase",
                )),
            }
        })
        .collect::<Result<Vec<Phase>>>()?;
    if phases.is_empty() || phases.len() > MAX_PHASES {
        return Err(bad("needs 1 to 20 phases"));
    }
    Ok(phases)
}

/// Prints a schedule as [`parse_schedule`] reads it.
pub fn format_schedule(phases: &[Phase]) -> String {
    phases
        .iter()
        .map(|p| format!("{}:{}:{}", fmt_f64(p.q), fmt_f64(p.sigma), p.steps))
        .collect::<Vec<_>>()
        .join(",")
}

/// The schedule's ε at δ from both sides: every phase's one-step PLD on one grid (widened so that the
/// composition fits the FFT), composed by one FFT per direction; the upper bound is the larger
/// direction's, the lower bound that direction's lower side.
///
/// # Errors
/// δ outside the PLD's range, or a phase out of domain.
pub fn schedule_band(phases: &[Phase], delta: f64, interval: f64) -> Result<EpsilonBand> {
    let schedule = Composed::new(phases, delta, interval)?;
    let (upper, direction, used) = schedule.worst(phases, interval)?;
    let lower = schedule
        .pair(phases, direction, used, Side::Lower)?
        .epsilon_for_delta(delta)
        .min(upper);
    Ok(EpsilonBand {
        upper,
        lower,
        interval: used,
    })
}

/// The schedule under replace-one, its phases at the link's σ, as
/// [`crate::accounting::pld::dpsgd_replace_one_band`] bounds one phase: the guarantee the smaller of
/// the one-step route's ε (`replaced_step_delta`'s pairs) and removing then adding at σ, the lower
/// bound the larger of the add/remove pairs' and the mirrored pairs' lower ε at σ.
///
/// # Errors
/// As [`schedule_band`].
pub fn schedule_band_replace_one(
    phases: &[Phase],
    delta: f64,
    interval: f64,
) -> Result<EpsilonBand> {
    let schedule = Composed::new(phases, delta, interval)?;
    // Only the one-step route is required: the other bound and the pairs below are each optional. Its
    // steps may take either orientation, so each phase is the symmetric pair that dominates both
    // (`replaced_step_delta`).
    let one_step = schedule.compose(
        interval,
        Side::Upper,
        |p, w, tail| Pld::replaced_step(p.q, p.sigma, w, tail, Side::Upper),
        phases,
    )?;
    let (step_upper, step_used) = (one_step.epsilon_for_delta(delta), one_step.interval());
    let at_sigma = schedule.directions(phases, interval).ok();
    let through = at_sigma.as_ref().map_or(f64::INFINITY, |after| {
        remove_then_add(&after[0], &after[1], delta)
    });
    let upper = step_upper.min(through);
    let (lower, used) = match &at_sigma {
        Some(after) => {
            let (_, direction, used) = worst_of(after, delta);
            let zero_gradient = schedule.pair(phases, direction, used, Side::Lower);
            let mirrored = schedule.compose(
                used,
                Side::Lower,
                |p, w, tail| Pld::replace_pair(p.q, p.sigma, w, tail, Side::Lower),
                phases,
            );
            let eps = |pld: Result<Pld>| pld.map_or(0.0, |p| p.epsilon_for_delta(delta));
            (eps(zero_gradient).max(eps(mirrored)).min(upper), used)
        }
        None => (0.0, step_used),
    };
    Ok(EpsilonBand {
        upper,
        lower,
        interval: used,
    })
}

/// One schedule's composition on one grid: the per-step and total tails, the FFT's cap.
struct Composed {
    counts: Vec<u64>,
    step_tail: f64,
    tail: f64,
    cap: f64,
    delta: f64,
}

impl Composed {
    fn new(phases: &[Phase], delta: f64, interval: f64) -> Result<Self> {
        let total: u64 = phases.iter().map(|p| p.steps).sum();
        let (step_tail, tail) = tails(total, delta)?;
        let cap = max_points(interval) as f64;
        Ok(Composed {
            counts: phases.iter().map(|p| p.steps).collect(),
            step_tail,
            tail,
            cap,
            delta,
        })
    }

    /// Every phase's one-step PLD from `build(phase, width, step tail)`, composed by one FFT; the
    /// upper side widens the grid when the composition would not fit, the lower side keeps it.
    fn compose(
        &self,
        width: f64,
        side: Side,
        build: impl Fn(&Phase, f64, f64) -> Result<Pld>,
        phases: &[Phase],
    ) -> Result<Pld> {
        let all = |w: f64| -> Result<Vec<Pld>> {
            phases.iter().map(|p| build(p, w, self.step_tail)).collect()
        };
        let counts = self.counts.iter().copied();
        let mut plds = all(width)?;
        let needed = Pld::window_points(
            &plds.iter().zip(counts.clone()).collect::<Vec<_>>(),
            self.tail,
        );
        if side == Side::Upper && needed > self.cap {
            plds = all(width * (needed / self.cap).ceil())?;
        }
        let refs: Vec<(&Pld, u64)> = plds.iter().zip(counts).collect();
        Ok(Pld::compose_many(&refs, self.tail))
    }

    /// The phases' add/remove pairs in `direction`, composed.
    fn pair(&self, phases: &[Phase], direction: Direction, width: f64, side: Side) -> Result<Pld> {
        self.compose(
            width,
            side,
            |p, w, tail| Pld::subsampled_gaussian(p.q, p.sigma, direction, w, tail, side),
            phases,
        )
    }

    /// Both directions' add/remove pairs (remove, then add), composed from above.
    fn directions(&self, phases: &[Phase], interval: f64) -> Result<Vec<Pld>> {
        [Direction::Remove, Direction::Add]
            .into_iter()
            .map(|direction| self.pair(phases, direction, interval, Side::Upper))
            .collect()
    }

    /// The larger direction's upper ε, the direction and the grid it used.
    fn worst(&self, phases: &[Phase], interval: f64) -> Result<(f64, Direction, f64)> {
        Ok(worst_of(&self.directions(phases, interval)?, self.delta))
    }
}

/// The schedule's ε at δ by RDP: the phases' curves added on dp_accounting's orders, then the improved
/// conversion (Canonne, Kamath & Steinke 2020). Under replace-one each phase's curve is
/// [`crate::accounting::rdp::replace_one::step_rdp_replace_one`] at the phase's σ.
///
/// # Errors
/// δ outside (0, 1).
pub fn schedule_rdp(phases: &[Phase], delta: f64, replace_one: bool) -> Result<f64> {
    let orders = default_orders();
    let total: Vec<f64> = orders
        .iter()
        .map(|&a| {
            phases
                .iter()
                .map(|p| p.steps as f64 * dpsgd_step_rdp(p.q, p.sigma, a, replace_one))
                .sum()
        })
        .collect();
    Ok(rdp_to_approx_dp(&orders, &total, delta, Conversion::Improved)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::dpsgd_epsilon_band;

    #[test]
    fn one_phase_is_the_dpsgd_accountant_and_the_syntax_round_trips() {
        let phases = parse_schedule("0.01:1:500").unwrap();
        let band = schedule_band(&phases, 1e-5, 1e-4).unwrap();
        let plain = dpsgd_epsilon_band(0.01, 1.0, 500, 1e-5, 1e-4).unwrap();
        assert!((band.upper - plain.upper).abs() < 1e-9 && (band.lower - plain.lower).abs() < 1e-9);
        let two = parse_schedule(" 0.01:1:500, 0.02:1.5:300 ,").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(parse_schedule(&format_schedule(&two)).unwrap(), two);
        for bad in [
            "",
            "0.01:1",
            "2:1:10",
            "0.1:-1:10",
            "0.1:1:0",
            "0.1:1:1.5",
            "a:b:c",
            "0.1:nan:5",
        ] {
            assert!(parse_schedule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn splitting_a_run_into_phases_changes_nothing() {
        // 300 + 200 steps of the same phase are 500 steps.
        let split = schedule_band(
            &parse_schedule("0.01:1:300,0.01:1:200").unwrap(),
            1e-5,
            1e-4,
        )
        .unwrap();
        let whole = dpsgd_epsilon_band(0.01, 1.0, 500, 1e-5, 1e-4).unwrap();
        assert!(
            (split.upper - whole.upper).abs() < 1e-6,
            "{} {}",
            split.upper,
            whole.upper
        );
        let rdp = schedule_rdp(
            &parse_schedule("0.01:1:300,0.01:1:200").unwrap(),
            1e-5,
            false,
        )
        .unwrap();
        let rdp_whole = schedule_rdp(&parse_schedule("0.01:1:500").unwrap(), 1e-5, false).unwrap();
        assert!((rdp - rdp_whole).abs() < 1e-12);
    }
}
