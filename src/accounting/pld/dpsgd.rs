//! DP-SGD by the PLD accountant: ε from both sides after T Poisson-subsampled Gaussian steps, and the
//! smallest σ whose certified ε meets a target.

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
                    .map(|p| crate::attacks::TradeOff::from_pld(&p))
            })
            .collect::<Result<Vec<_>>>()?;
        let tpr = 1.0 - crate::attacks::beta_both(&curves, alpha);
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
