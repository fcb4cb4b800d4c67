//! The per-step RDP curve that certifies a training run for its own sampler, computed once so that ε
//! after any number of steps is one conversion (a running "ε spent so far" and a stop rule).

use crate::accounting::event::TrainingEvent;
use crate::accounting::rdp::replace_one::dpsgd_step_rdp;
use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
use crate::accounting::samplers::truncated::Truncated;
use crate::accounting::samplers::Sampler;

/// The RDP accountant's per-step Rényi curve of the Poisson-subsampled Gaussian (q, σ) on
/// dp_accounting's orders, computed once (its fractional orders are series), so that ε after any
/// number of steps is one conversion: the "ε spent so far" read-out and the stop rule.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRdp {
    orders: Vec<f64>,
    per_step: Vec<f64>,
}

impl StepRdp {
    /// The curve for sampling rate `q` and noise multiplier `sigma` (add/remove).
    pub fn new(q: f64, sigma: f64) -> Self {
        Self::under(q, sigma, false)
    }

    /// The curve for rate `q` and noise multiplier `sigma` under either relation
    /// ([`dpsgd_step_rdp`]).
    fn under(q: f64, sigma: f64, replace_one: bool) -> Self {
        Self::from_curve(|a| dpsgd_step_rdp(q, sigma, a, replace_one))
    }

    /// The curve certifying the run `a` describes, for its own sampler at its accounted rate; `None`
    /// for a sampler with no certified upper bound. The Poisson pair's σ:
    ///
    /// - Poisson: σ, under replace-one [`crate::accounting::rdp::replace_one`]'s curve (as the DP-SGD
    ///   lab's).
    /// - Fixed-size batches under add/remove: σ/2, exactly the pair [`crate::accounting::samplers`] bounds
    ///   them by (removing a record hands its slot to another, so the sum moves by up to 2C; the batch size
    ///   is public).
    /// - Truncated Poisson: its flagged pair's curve
    ///   ([`crate::accounting::samplers::truncated::Truncated::step_rdp`]).
    /// - Every other case: none. Shuffled batches have lower bounds only, balls-in-bins batches a
    ///   certified bound for whole epochs but no per-step RDP curve; cyclic
    ///   batches' exact ε holds for zero-out neighbours (a removed record's slot stays), while removing a
    ///   row from the trainer's fixed order moves every later row to another batch, so under add/remove no
    ///   bound is known.
    pub fn for_run(e: &TrainingEvent) -> Option<Self> {
        if e.sampler == Sampler::Truncated {
            let step = Truncated::new(e.records, e.rate, e.cap, e.sigma, e.replace_one());
            return step
                .ok()
                .map(|t| StepRdp::from_curve(|alpha| t.step_rdp(alpha)));
        }
        run_pair(e.sampler, e.replace_one(), e.sigma)
            .map(|(s, replace_one)| StepRdp::under(e.rate, s, replace_one))
    }

    /// The curve of a step whose RDP at order α is `rdp(α)`, on dp_accounting's orders.
    fn from_curve(rdp: impl Fn(f64) -> f64) -> Self {
        let orders = default_orders();
        let per_step = orders.iter().map(|&a| rdp(a)).collect();
        StepRdp { orders, per_step }
    }

    /// Whether `sampler` has such a curve under add/remove.
    pub fn exists_for(sampler: Sampler) -> bool {
        sampler == Sampler::Truncated || run_pair(sampler, false, 1.0).is_some()
    }

    /// ε at δ after `steps` steps (improved conversion; a certified upper bound): 0 before the first
    /// step, NaN when δ is out of domain.
    pub fn epsilon(&self, steps: u64, delta: f64) -> f64 {
        if steps == 0 {
            return 0.0;
        }
        let total: Vec<f64> = self.per_step.iter().map(|r| r * steps as f64).collect();
        rdp_to_approx_dp(&self.orders, &total, delta, Conversion::Improved)
            .map_or(f64::NAN, |e| e.0)
    }
}

/// σ of the Poisson step whose RDP certifies a run with `sampler`, and whether it is read under
/// replace-one (see [`StepRdp::for_run`]).
fn run_pair(sampler: Sampler, replace_one: bool, sigma: f64) -> Option<(f64, bool)> {
    match (sampler, replace_one) {
        (Sampler::Poisson, relation) => Some((sigma, relation)),
        (Sampler::Fixed, false) => Some((sigma / 2.0, false)),
        _ => None,
    }
}

/// ε spent after `step` steps of a run, a certified upper bound never above a certified bound known
/// for a later step: the smaller of the run's per-step curve at `step` (`curve`, `None` for a sampler
/// without one) and every certified (steps, ε) in `later` with steps ≥ `step` (ε never decreases as a
/// run goes on, so a bound at more steps bounds fewer). NaN when neither applies.
///
/// # Why
/// RDP on a grid of orders is looser than the PLD: without the cap, a finished run read "spent so far"
/// above the "planned" total the page showed for the same steps.
pub fn running_epsilon(
    curve: Option<&StepRdp>,
    later: &[(f64, f64)],
    step: u64,
    delta: f64,
) -> f64 {
    let own = curve.map_or(f64::NAN, |c| c.epsilon(step, delta));
    later
        .iter()
        .filter(|&&(t, e)| t >= step as f64 && e.is_finite())
        .map(|&(_, e)| e)
        .fold(own, |a, e| if a.is_nan() || e < a { e } else { a })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_steps_spend_nothing_and_bad_delta_is_not_a_number() {
        let rdp = StepRdp::new(0.01, 1.0);
        assert_eq!(rdp.epsilon(0, 1e-5), 0.0);
        assert!(rdp.epsilon(100, 1e-5) > 0.0);
        assert!(rdp.epsilon(100, 2.0).is_nan());
    }

    #[test]
    fn the_running_value_never_exceeds_a_later_certified_bound() {
        let rdp = StepRdp::new(0.01, 1.0);
        let at_end = rdp.epsilon(1000, 1e-5);
        // A tighter certified bound at the end (the PLD's) caps every step before it.
        let pld = [
            (500.0, 0.8 * rdp.epsilon(500, 1e-5)),
            (1000.0, 0.9 * at_end),
        ];
        assert_eq!(running_epsilon(Some(&rdp), &pld, 1000, 1e-5), 0.9 * at_end);
        assert_eq!(
            running_epsilon(Some(&rdp), &pld, 400, 1e-5),
            pld[0].1.min(rdp.epsilon(400, 1e-5))
        );
        // Beyond the last bound only the curve speaks; with neither, nothing is claimed.
        assert_eq!(
            running_epsilon(Some(&rdp), &pld, 1001, 1e-5),
            rdp.epsilon(1001, 1e-5)
        );
        assert!(running_epsilon(None, &[], 10, 1e-5).is_nan());
        assert_eq!(running_epsilon(None, &pld, 10, 1e-5), pld[0].1);
    }
}
