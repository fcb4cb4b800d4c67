//! The smallest noise multiplier whose certified (upper) PLD measure after T Poisson-subsampled
//! Gaussian steps meets a target: an ε at δ, or a membership test's advantage or TPR at a FPR.

use super::dpsgd::{composed, tails};
use super::{Direction, Side, MIN_DELTA};
use crate::error::{Error, Result};

/// What a σ search keeps at or below its target, always from the upper (dominating) PLD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Goal {
    /// The certified ε at this δ.
    Epsilon {
        /// δ.
        delta: f64,
    },
    /// The certified largest advantage TPR − FPR of any membership test (δ(0), the total variation
    /// distance).
    Advantage,
    /// The certified largest TPR of any membership test at this FPR.
    TprAtFpr {
        /// The false-positive rate.
        alpha: f64,
    },
}

impl Goal {
    /// The link key of this goal's target.
    pub fn key(self) -> &'static str {
        match self {
            Goal::Epsilon { .. } => "target_eps",
            Goal::Advantage => "target_adv",
            Goal::TprAtFpr { .. } => "target_tpr",
        }
    }

    /// The δ whose share the truncated tails may take (the FFT's floor for the attack measures).
    pub(super) fn delta(self) -> f64 {
        match self {
            Goal::Epsilon { delta } => delta,
            _ => MIN_DELTA,
        }
    }
}

/// Whether σ's certified measure is at most `target`, and the measure (the add direction is composed
/// only when removal passes, except for TPR, which needs both curves).
pub(super) fn meets(
    q: f64,
    sigma: f64,
    steps: u64,
    goal: Goal,
    interval: f64,
    target: f64,
) -> Result<(bool, f64)> {
    let delta = goal.delta();
    if let Goal::TprAtFpr { alpha } = goal {
        let curves = [Direction::Remove, Direction::Add]
            .into_iter()
            .map(|d| {
                composed(q, sigma, steps, delta, interval, d, Side::Upper)
                    .map(|p| crate::accounting::tradeoff::TradeOff::from_pld(&p))
            })
            .collect::<Result<Vec<_>>>()?;
        let tpr = 1.0 - crate::accounting::tradeoff::beta_both(&curves, alpha);
        return Ok((tpr <= target, tpr));
    }
    let mut worst: f64 = 0.0;
    for direction in [Direction::Remove, Direction::Add] {
        let pld = composed(q, sigma, steps, delta, interval, direction, Side::Upper)?;
        worst = worst.max(match goal {
            Goal::Advantage => pld.delta_for_epsilon(0.0),
            _ => pld.epsilon_for_delta(delta),
        });
        if worst > target {
            return Ok((false, worst));
        }
    }
    Ok((true, worst))
}

/// Smallest σ tried, and largest.
const SIGMA_RANGE: (f64, f64) = (0.05, 1e4);
/// Relative width of the final bracket on σ.
const SIGMA_TOLERANCE: f64 = 1e-4;
/// Relative width of the bracket the coarse grid hands to the fine one.
const COARSE_TOLERANCE: f64 = 1e-2;

/// Where a [`SigmaSearch`] is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Raising `hi` until it meets the target on the coarse grid.
    CoarseUp,
    /// Lowering `lo` until it fails on the coarse grid.
    CoarseDown,
    /// Regula falsi on the coarse grid.
    CoarseBisect,
    /// Checking `hi` on the fine grid.
    FineHi,
    /// Lowering `lo` until it fails on the fine grid.
    FineLo,
    /// Regula falsi (Illinois) on the fine grid.
    Illinois,
    /// Finished with this σ.
    Done(f64),
}

/// The smallest noise multiplier whose certified (upper) PLD ε after T steps at δ is at most a target,
/// to a relative 1e-4, never overshooting: the answer is always a σ that was checked to meet the
/// target on the grid of width `interval`. One [`SigmaSearch::step`] is one accountant evaluation, so
/// a page can yield between steps.
///
/// # Method
/// A bracket and bisection on a grid ten times coarser (nested in the fine one, so its ε is never below
/// the fine grid's), then regula falsi (Illinois) on ln ε against ln σ with the fine grid inside that
/// bracket: about six fine evaluations instead of twenty.
#[derive(Debug, Clone)]
pub struct SigmaSearch {
    q: f64,
    steps: u64,
    goal: Goal,
    target: f64,
    interval: f64,
    phase: Phase,
    lo: f64,
    hi: f64,
    g_lo: f64,
    g_hi: f64,
    last_side: i8,
    /// Whether σ is replace-one's (see [`SigmaSearch::under_replace_one`]).
    replace_one: bool,
    /// Accountant evaluations so far (coarse and fine).
    pub evaluations: u32,
}

impl SigmaSearch {
    /// Starts a search from a first guess `start` (e.g. the RDP accountant's σ).
    ///
    /// # Errors
    /// A target that is not a positive number, or δ / T out of domain.
    pub fn new(
        q: f64,
        steps: u64,
        delta: f64,
        target: f64,
        interval: f64,
        start: f64,
    ) -> Result<Self> {
        SigmaSearch::for_goal(q, steps, Goal::Epsilon { delta }, target, interval, start)
    }

    /// A search that keeps `goal`'s certified measure at or below `target` (an advantage or TPR in
    /// (0, 1], or an ε > 0).
    ///
    /// # Errors
    /// As [`SigmaSearch::new`], or a FPR outside (0, 1).
    pub fn for_goal(
        q: f64,
        steps: u64,
        goal: Goal,
        target: f64,
        interval: f64,
        start: f64,
    ) -> Result<Self> {
        if let Goal::TprAtFpr { alpha } = goal {
            if !(alpha > 0.0 && alpha < 1.0) {
                return Err(Error::invalid(
                    "alpha",
                    alpha,
                    "must be a false-positive rate in (0, 1)",
                ));
            }
        }
        let delta = goal.delta();
        if !(target.is_finite() && target > 0.0) {
            return Err(Error::invalid(
                goal.key(),
                target,
                "must be a finite number > 0",
            ));
        }
        tails(steps, delta)?;
        let (min, max) = SIGMA_RANGE;
        let hi = if start.is_finite() {
            start.clamp(min, max)
        } else {
            1.0
        };
        Ok(SigmaSearch {
            q,
            steps,
            goal,
            target,
            interval,
            phase: Phase::CoarseUp,
            lo: hi,
            hi,
            g_lo: f64::NAN,
            g_hi: f64::NAN,
            last_side: 0,
            replace_one: false,
            evaluations: 0,
        })
    }

    /// The same search under replace-one neighbours, in the link's σ (and from a start in it): each
    /// evaluation is the better of the one-step route and removing, then adding at σ
    /// ([`super::replace_one`]'s `meets`).
    pub fn under_replace_one(self) -> Self {
        SigmaSearch {
            replace_one: true,
            ..self
        }
    }

    fn meets(&mut self, sigma: f64, coarse: bool) -> Result<(bool, f64)> {
        self.evaluations += 1;
        let h = if coarse {
            10.0 * self.interval
        } else {
            self.interval
        };
        if self.replace_one {
            super::replace_one::meets(self.q, sigma, self.steps, self.goal, h, self.target)
        } else {
            meets(self.q, sigma, self.steps, self.goal, h, self.target)
        }
    }

    fn done(&mut self, sigma: f64) -> Result<Option<f64>> {
        self.phase = Phase::Done(sigma);
        Ok(Some(sigma))
    }

    /// One evaluation; `Some(σ)` when the search is over.
    ///
    /// # Errors
    /// A target no σ up to 10⁴ reaches, or parameters the accountant refuses.
    pub fn step(&mut self) -> Result<Option<f64>> {
        let (min, max) = SIGMA_RANGE;
        let target = self.target;
        let g = |eps: f64| eps.ln() - target.ln();
        match self.phase {
            Phase::Done(s) => Ok(Some(s)),
            Phase::CoarseUp => {
                let (ok, eps) = self.meets(self.hi, true)?;
                if ok {
                    self.g_hi = g(eps);
                    // The PLD's σ is typically 5–15% below RDP's (the usual start).
                    self.lo = (self.hi / 1.15).max(min);
                    self.phase = if self.hi <= min {
                        Phase::FineHi
                    } else {
                        Phase::CoarseDown
                    };
                } else if self.hi >= max {
                    return Err(Error::invalid(
                        self.goal.key(),
                        target,
                        "is out of reach for any σ up to 10⁴",
                    ));
                } else {
                    self.hi = (self.hi * 1.5).min(max);
                }
                Ok(None)
            }
            Phase::CoarseDown => self.lower_lo(true, 1.5, Phase::CoarseBisect),
            Phase::CoarseBisect => {
                if self.hi / self.lo - 1.0 <= COARSE_TOLERANCE {
                    self.phase = Phase::FineHi;
                    return Ok(None);
                }
                self.illinois(true)?;
                Ok(None)
            }
            Phase::FineHi => {
                // The fine grid's ε is at most the coarse one's, so hi meets it too.
                let (ok, eps) = self.meets(self.hi, false)?;
                if !ok {
                    return Err(Error::invalid(
                        self.goal.key(),
                        target,
                        "met on the coarse grid but not on the fine one",
                    ));
                }
                self.g_hi = g(eps);
                self.phase = Phase::FineLo;
                Ok(None)
            }
            Phase::FineLo => self.lower_lo(false, 1.02, Phase::Illinois),
            Phase::Illinois => {
                if self.hi / self.lo - 1.0 <= SIGMA_TOLERANCE || self.evaluations > 200 {
                    return self.done(self.hi);
                }
                self.illinois(false)?;
                Ok(None)
            }
        }
    }

    /// Checks `lo` on one grid: if it meets the target it becomes `hi` and `lo` moves down by `factor`
    /// (the answer is the range's bottom once `lo` reaches it); if it fails, the bracket is found and
    /// the search goes on to `next`.
    fn lower_lo(&mut self, coarse: bool, factor: f64, next: Phase) -> Result<Option<f64>> {
        let min = SIGMA_RANGE.0;
        let (ok, eps) = self.meets(self.lo, coarse)?;
        let g = eps.ln() - self.target.ln();
        if ok {
            self.hi = self.lo;
            self.g_hi = g;
            if self.lo <= min {
                return self.done(min);
            }
            self.lo = (self.lo / factor).max(min);
        } else {
            self.g_lo = g;
            self.last_side = 0;
            self.phase = next;
        }
        Ok(None)
    }

    /// Runs the search to the end.
    ///
    /// # Errors
    /// As [`SigmaSearch::step`].
    pub fn run(mut self) -> Result<f64> {
        loop {
            if let Some(sigma) = self.step()? {
                return Ok(sigma);
            }
        }
    }

    /// One regula falsi (Illinois) step on g(σ) = ln ε(σ) − ln target over ln σ, keeping g(lo) > 0 ≥
    /// g(hi); bisection when the values give no usable secant.
    fn illinois(&mut self, coarse: bool) -> Result<()> {
        let (a, b) = (self.lo.ln(), self.hi.ln());
        let x = if self.g_lo.is_finite() && self.g_hi.is_finite() && self.g_lo > self.g_hi {
            b - self.g_hi * (b - a) / (self.g_hi - self.g_lo)
        } else {
            0.5 * (a + b)
        };
        // Aim just past the secant's root, alternately above and below it, so that a good secant
        // closes the bracket in two evaluations; strictly inside, clear of both ends.
        let tolerance = if coarse {
            COARSE_TOLERANCE
        } else {
            SIGMA_TOLERANCE
        };
        let aim = x + 0.4 * tolerance * if self.last_side == 1 { -1.0 } else { 1.0 };
        let margin = (0.1 * SIGMA_TOLERANCE).min(0.25 * (b - a));
        let s = aim.clamp(a + margin, b - margin).exp();
        let (ok, eps) = self.meets(s, coarse)?;
        let g = eps.ln() - self.target.ln();
        if ok {
            self.hi = s;
            self.g_hi = g;
            if self.last_side == 1 {
                self.g_lo /= 2.0;
            }
            self.last_side = 1;
        } else {
            self.lo = s;
            self.g_lo = g;
            if self.last_side == -1 {
                self.g_hi /= 2.0;
            }
            self.last_side = -1;
        }
        Ok(())
    }
}

/// [`SigmaSearch`] run to the end.
///
/// # Errors
/// As [`SigmaSearch::new`] and [`SigmaSearch::step`].
pub fn sigma_for_epsilon(
    q: f64,
    steps: u64,
    delta: f64,
    target: f64,
    interval: f64,
    start: f64,
) -> Result<f64> {
    SigmaSearch::new(q, steps, delta, target, interval, start)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::{dpsgd_epsilon, DEFAULT_INTERVAL};

    #[test]
    fn sigma_for_epsilon_meets_the_target_and_is_nearly_the_least() {
        let (q, t, d) = (0.01, 1000, 1e-5);
        let s = sigma_for_epsilon(q, t, d, 1.0, DEFAULT_INTERVAL, 1.0).unwrap();
        let at = dpsgd_epsilon(q, s, t, d, DEFAULT_INTERVAL).unwrap();
        let below =
            dpsgd_epsilon(q, s * (1.0 - 2.0 * SIGMA_TOLERANCE), t, d, DEFAULT_INTERVAL).unwrap();
        assert!(
            at <= 1.0 && below > 1.0,
            "σ {s}: ε {at}, just below {below}"
        );
        assert!(sigma_for_epsilon(q, t, d, f64::NAN, DEFAULT_INTERVAL, 1.0).is_err());
        assert!(sigma_for_epsilon(q, t, d, 1e-9, DEFAULT_INTERVAL, 1.0).is_err());
    }

    #[test]
    fn sigma_for_an_attack_target_meets_it_and_is_nearly_the_least() {
        let (q, t) = (0.01, 1000);
        for (goal, target) in [
            (Goal::Advantage, 0.1),
            (Goal::TprAtFpr { alpha: 0.01 }, 0.05),
        ] {
            let sigma = SigmaSearch::for_goal(q, t, goal, target, DEFAULT_INTERVAL, 1.0)
                .and_then(SigmaSearch::run)
                .unwrap();
            let at = meets(q, sigma, t, goal, DEFAULT_INTERVAL, target).unwrap();
            let below = meets(
                q,
                sigma * (1.0 - 2.0 * SIGMA_TOLERANCE),
                t,
                goal,
                DEFAULT_INTERVAL,
                target,
            )
            .unwrap();
            assert!(
                at.0 && !below.0,
                "{goal:?}: σ {sigma}: {at:?}, just below {below:?}"
            );
        }
        assert!(SigmaSearch::for_goal(
            q,
            t,
            Goal::TprAtFpr { alpha: 1.5 },
            0.1,
            DEFAULT_INTERVAL,
            1.0
        )
        .is_err());
    }
}
