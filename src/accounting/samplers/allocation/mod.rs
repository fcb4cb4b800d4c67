//! Balls in bins (random allocation): a certified upper bound on ε, both directions, over any number of
//! epochs.
//!
//! Each record sits in exactly one uniformly random step of each epoch of t steps. With every other
//! record's gradient at 0 and the record's at +C (the worst case: the loss only depends on the
//! record's sum's shift), one epoch is the pair P = (1/t) Σ_i N(e_i, σ²I_t) against Q = N(0, σ²I_t)
//! (remove; add is the reverse; Chua et al., "Balls-and-bins sampling for DP-SGD", 2024; Feldman &
//! Shenfeld, "Privacy amplification by random allocation", 2025). Its likelihood ratio is
//! Λ = P/Q = (1/t) Σ_i Y_i with Y_i = e^{x_i/σ² − 1/(2σ²)}, under Q independent log-normals of mean 1
//! (log-variance s² = 1/σ²). Both directions' profiles are expectations under Q of convex functions of
//! Λ:
//!
//! - remove: δ_R(ε) = H_{e^ε}(P‖Q) = E_Q\[(Λ − e^ε)₊\];
//! - add: δ_A(ε) = H_{e^ε}(Q‖P) = E_Q\[(1 − e^ε Λ)₊\];
//!
//! and over E epochs, E_Q\[(Π_j Λ_j − e^ε)₊\] and E_Q\[(1 − e^ε Π_j Λ_j)₊\], convex in each Λ_j.
//!
//! **How the bound stays certified** (written for this playground; no library computes it this way):
//! 1. Truncation: on the event A that every Y_i ≤ M the law is kept; off it, remove's δ gains at most
//!    E_Q\[Λ; Aᶜ\] ≤ E\[Y; Y > M\] + (t − 1) P(Y > M) and add's at most Q(Aᶜ) = 1 − F(M)^t (closed forms).
//! 2. Randomized rounding: each Y in \[jw, (j + 1)w\] moves to jw or (j + 1)w with the probabilities that
//!    keep its mean (the hat functions' masses, from the log-normal's distribution and partial-mean
//!    functions). The rounded sum is a mean-preserving spread of the true one given every Y, so by
//!    Jensen every convex function's expectation can only grow: both directions' profiles, and every
//!    composition of them, are bounded above (the convex order). The spread adds variance at most
//!    w²/(4t) to Λ per epoch, so the bound is tight to second order in w.
//! 3. The rounded sum's law is the t-th power of the node masses by FFT on K/w points. Mass at sums
//!    above K wraps around to smaller sums: that only raises add's δ, and remove's δ loses at most
//!    E\[Λ_r; S_r ≥ K\] ≤ e^{−θK} m(θ)^{t−1} m′(θ) (Chernoff, m the rounded Y's moment generating
//!    function, bounded above on coarse bins), which is added.
//! 4. Each direction's profile, so bounded at the grid points, is discretized by connecting the dots
//!    ([`Pld::from_profile`], [`Side::Upper`]): the chords of an upper profile lie above the true
//!    convex one, and composing factor-wise upper profiles gives an upper profile (the PLD module's
//!    Fubini argument).
//!
//! The lower side of the band is the largest-batch-sum statistic's ([`super::max_statistic`]).

mod rounding;

use super::max_statistic::MaxPair;
use crate::accounting::entry::Entry;
use crate::accounting::pld::dpsgd::{compose_capped, tails, Fit};
use crate::accounting::pld::fft::convolve_powers;
use crate::accounting::pld::{remove_then_add, Direction, Pld, Side, MIN_DELTA};
use crate::error::{Error, Result};
use crate::numerics::special::{normal_cdf, normal_upper_quantile};
use rounding::{half_s2, node_masses, window, Window, MAX_POINTS};
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

/// The standard deviation the rounding may add to the composed loss (so the grid's width): its
/// effect on ε is second order, about ½(this × the profile's log-slope)² of δ in relative terms.
const SPREAD: f64 = 1e-2;
/// How much wider than [`SPREAD`] asks the grid may grow before the bound is refused (too loose to
/// be worth its time).
const MAX_WIDENING: f64 = 64.0;
/// Masses below this are where a profile's loss range ends (the mass beyond is counted at the ends).
const NEGLIGIBLE: f64 = 1e-30;

/// One epoch's likelihood ratio Λ under Q, rounded as the module comment says: `masses[k]` at
/// Λ = k·w/t, plus what the truncation and the wrap-around add to each direction's δ.
#[derive(Debug, Clone)]
pub struct RatioLaw {
    steps: u64,
    width: f64,
    /// The window's first sum, in grid steps: `above[k]`, `below[k]` are at the sum (start + k)·w
    /// (u64: on wasm32 a usize could wrap).
    start: u64,
    /// A bound on the ℓ² norm of the FFT's rounding error over the law's points: each direction's δ
    /// adds it times the ℓ² norm of its weights (Cauchy–Schwarz).
    noise: f64,
    /// A sum the true one falls below with probability at most the tail (Chernoff).
    floor: f64,
    /// What it was built from (for a finer grid).
    grid: Grid,
    /// The grid width the spread asked for.
    fine: f64,
    /// The finer law for add's δ, once asked for ([`RatioLaw::refined_for_add`]).
    finer: OnceCell<Option<Box<RatioLaw>>>,
    /// What the truncation and the wrap-around add to remove's δ.
    remove_extra: f64,
    /// What they add to add's δ.
    add_extra: f64,
    /// Σ_{j ≥ k} r_j and Σ_{j ≥ k} r_j λ_j (remove), one longer than the law.
    above: Vec<(f64, f64)>,
    /// Σ_{j < k} r_j and Σ_{j < k} r_j λ_j (add), one longer than the law.
    below: Vec<(f64, f64)>,
}

impl RatioLaw {
    /// The law for t = `steps` steps per epoch at noise multiplier `sigma`, with its grid sized for
    /// `epochs` compositions and at most `tail` of δ per epoch from the truncation and wrap-around.
    ///
    /// # Errors
    /// σ not finite and positive, t or E zero, or a tail outside (0, 1).
    pub fn new(steps: u64, sigma: f64, epochs: u64, tail: f64) -> Result<RatioLaw> {
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(Error::invalid(
                "sigma",
                sigma,
                "must be a finite number > 0",
            ));
        }
        if steps == 0 || epochs == 0 {
            return Err(Error::invalid("steps", steps, "must be at least 1"));
        }
        if !(tail > 0.0 && tail < 1.0) {
            return Err(Error::invalid("delta", tail, "must be in (0, 1)"));
        }
        let s = 1.0 / sigma;
        let t = steps as f64;
        // E[Y; Y > M] = Φ̄(z), z = (ln M − s²/2)/s, and (t − 1) P(Y > M) = (t − 1) Φ̄(z + s), each at
        // most a quarter of the tail.
        let mut z = normal_upper_quantile(tail / 4.0);
        while (t - 1.0) * normal_cdf(-(z + s)) > tail / 4.0 {
            z += 0.05;
        }
        let ln_top = half_s2(s) + s * z;
        let top = ln_top.exp();
        if !top.is_finite() {
            return Err(Error::invalid(
                "sigma",
                sigma,
                "is too small for the balls-in-bins bound (the likelihood ratio's range overflows)",
            ));
        }
        // The rounding adds variance ≤ w²/(4t) per epoch to Λ, so its composed standard deviation is
        // w√(E/t)/2: at most SPREAD, and at most SPREAD times the composed loss's own, ≈ s√(E/t)
        // (large σ).
        let ratio = (t / epochs as f64).sqrt();
        let fine = 2.0 * SPREAD * ratio * (2.0 * s / ratio).min(1.0);
        let coarsest = top / (MAX_POINTS / 2 - 1) as f64;
        let mut width = fine.max(coarsest);
        let law = loop {
            if width > MAX_WIDENING * fine {
                return Err(Error::invalid(
                    "sigma",
                    sigma,
                    "is too small for the balls-in-bins upper bound (the likelihood ratio's range needs too fine a grid)",
                ));
            }
            if let Some(law) = RatioLaw::on_grid(steps, s, top, width, tail, fine) {
                break law;
            }
            width *= 2.0;
        };
        Ok(law)
    }

    /// A law on a finer grid for add's δ(ε) = E\[(1 − e^ε Λ)₊\], which reads Λ near e^{−ε}: where Λ
    /// can be small (few steps, little noise), the grid must resolve it relative to its size. `None`
    /// when this law's grid already does (or no finer one fits). Q(Λ < λ) ≤ the tail below a λ that is
    /// the larger of the Chernoff bound its window found and Q(S < a) ≤ F(a)^t (every Y is at most the
    /// sum).
    pub fn refined_for_add(&self) -> Option<&RatioLaw> {
        self.finer
            .get_or_init(|| self.build_finer().map(Box::new))
            .as_deref()
    }

    fn build_finer(&self) -> Option<RatioLaw> {
        let Grid { s, top, tail } = self.grid;
        let t = self.steps as f64;
        let p = -(tail.ln() / t).exp_m1();
        let product = (-half_s2(s) + s * normal_upper_quantile(p)).exp() / t;
        let least = (self.floor / t).max(product);
        let wanted = self.fine * least.min(1.0);
        if wanted.is_nan() || wanted >= 0.5 * self.width {
            return None;
        }
        let mut width = wanted.max(top / (MAX_POINTS / 2 - 1) as f64);
        while width < self.width {
            if let Some(finer) = RatioLaw::on_grid(self.steps, s, top, width, tail, self.fine) {
                return Some(finer);
            }
            width *= 2.0;
        }
        None
    }

    /// The law on a grid of width `width` up to `top` (`fine` the width the spread asked for), or
    /// `None` when its window needs too many points.
    fn on_grid(steps: u64, s: f64, top: f64, width: f64, tail: f64, fine: f64) -> Option<RatioLaw> {
        let nodes = (top / width).ceil() as usize;
        let masses = node_masses(s, width, nodes);
        let m_top = nodes as f64 * width;
        let window = window(&masses, width, steps, tail / 4.0)?;
        let grid = Grid {
            s,
            top: m_top,
            tail,
        };
        Some(RatioLaw::from_masses(
            steps, width, fine, grid, &masses, window,
        ))
    }

    fn from_masses(
        steps: u64,
        width: f64,
        fine: f64,
        grid: Grid,
        masses: &[f64],
        window: Window,
    ) -> RatioLaw {
        let Grid { s, top: m_top, .. } = grid;
        let t = steps as f64;
        let Window {
            start,
            size,
            above: wrap_above,
            below: wrap_below,
            floor,
        } = window;
        // Read out from the window's first sum.
        let law = convolve_powers(&[(masses, steps)], size, (start % size as u64) as i64, size);
        // Rounding error of the transforms and the t-th power, in ℓ²: the FFT's is O(u log₂N) of the
        // norm, and repeated squaring multiplies a coefficient's relative error by up to t (Higham,
        // "Accuracy and Stability of Numerical Algorithms", §24.1), so 4(log₂N + t)·u·‖m‖₂; at least
        // twice the largest negative output over every point (the exact values are ≥ 0).
        let most_negative = law.iter().fold(0.0f64, |m, &x| m.max(-x));
        let norm = masses.iter().map(|x| x * x).sum::<f64>().sqrt();
        let noise = (2.0 * most_negative * (size as f64).sqrt())
            .max(4.0 * ((size as f64).log2() + t) * f64::EPSILON * norm);
        let law: Vec<f64> = law.into_iter().map(|r| r.max(0.0)).collect();
        let z = (m_top.ln() - half_s2(s)) / s;
        let (mean_above, prob_above) = (normal_cdf(-z), normal_cdf(-(z + s)));
        // Computed bounds, rounded up past the special functions' relative error.
        let up = 1.0 + 1e-9;
        let remove_extra = up * (mean_above + (t - 1.0) * prob_above + wrap_above);
        let add_extra = up * (-(t * (-prob_above).ln_1p()).exp_m1() + wrap_below);
        let lambda = |k: usize| (start as f64 + k as f64) * width / t;
        let mut above = vec![(0.0, 0.0); law.len() + 1];
        for k in (0..law.len()).rev() {
            let (r, rl) = above[k + 1];
            above[k] = (r + law[k], rl + law[k] * lambda(k));
        }
        let mut below = vec![(0.0, 0.0); law.len() + 1];
        for k in 0..law.len() {
            let (r, rl) = below[k];
            below[k + 1] = (r + law[k], rl + law[k] * lambda(k));
        }
        RatioLaw {
            steps,
            width,
            start,
            noise,
            floor,
            grid,
            fine,
            finer: OnceCell::new(),
            remove_extra,
            add_extra,
            above,
            below,
        }
    }

    fn len(&self) -> usize {
        self.above.len() - 1
    }

    fn lambda(&self, k: usize) -> f64 {
        (self.start as f64 + k as f64) * self.width / self.steps as f64
    }

    /// The window's index of the first grid sum at or above `sum_steps` (a sum in grid steps),
    /// clamped to the window.
    fn index(&self, sum_steps: f64) -> usize {
        let k = sum_steps - self.start as f64;
        if k <= 0.0 {
            0
        } else if k >= self.len() as f64 {
            self.len()
        } else {
            k as usize
        }
    }

    /// E_Q\[Λ_r²\] of the rounded law on its window: at least the exact remove direction's order-2 Rényi
    /// moment 1 + (e^{1/σ²} − 1)/t (the rounding adds at most w²/(4t), the truncation removes at most
    /// the tail's share), a check on the whole construction.
    pub fn second_moment(&self) -> f64 {
        (0..self.len())
            .map(|k| {
                let mass = self.above[k].0 - self.above[k + 1].0;
                mass * self.lambda(k) * self.lambda(k)
            })
            .sum()
    }

    /// An upper bound on remove's δ(ε) = E_Q\[(Λ − e^ε)₊\] for one epoch.
    pub fn remove_delta(&self, eps: f64) -> f64 {
        let x = eps.exp();
        // The first λ above x.
        let k = self.index((x * self.steps as f64 / self.width).floor() + 1.0);
        let (r, rl) = self.above[k];
        // ‖(λ_j − x)₊‖₂ over j ≥ k: λ_j runs from λ_k in steps of d = w/t.
        let (n, d) = ((self.len() - k) as f64, self.width / self.steps as f64);
        let u0 = self.lambda(k) - x;
        let squares =
            n * u0 * u0 + u0 * d * n * (n - 1.0) + d * d * (n - 1.0) * n * (2.0 * n - 1.0) / 6.0;
        let rounding = self.noise * squares.max(0.0).sqrt();
        ((rl - x * r).max(0.0) + rounding + self.remove_extra).min(1.0)
    }

    /// An upper bound on add's δ(ε) = E_Q\[(1 − e^ε Λ)₊\] for one epoch.
    pub fn add_delta(&self, eps: f64) -> f64 {
        let x = eps.exp();
        // Every λ below 1/x.
        let k = self.index((self.steps as f64 / (x * self.width)).ceil());
        let (r, rl) = self.below[k];
        // Each weight (1 − xλ_j)₊ is at most 1: ‖·‖₂ ≤ √k.
        let rounding = self.noise * (k as f64).sqrt();
        ((r - x * rl).max(0.0) + rounding + self.add_extra).min(1.0)
    }

    /// The losses between which each direction's profile is discretized: (lo, hi) for remove (ln Λ
    /// under P) and for add (−ln Λ under Q), where the mass beyond is negligible.
    fn ranges(&self) -> [(f64, f64); 2] {
        let n = self.len();
        // Below the noise the FFT added, there is no telling mass from rounding.
        let negligible = NEGLIGIBLE.max(self.noise);
        let first = |f: &dyn Fn(usize) -> bool| (0..n).find(|&k| f(k)).unwrap_or(n);
        // Remove: the P-mass Σ r λ below lo and above hi negligible.
        let lo_k = first(&|k| self.below[k + 1].1 > negligible).max(1);
        let hi_k = first(&|k| self.above[k].1 <= negligible).max(lo_k + 1);
        // Add: the Q-mass above the largest Λ kept and below the least positive one negligible.
        let top_k = first(&|k| self.above[k].0 <= negligible).max(2);
        let zero = if self.start == 0 {
            self.below[1].0
        } else {
            0.0
        };
        let least_k =
            first(&|k| k >= 1 && self.below[k + 1].0 - zero > negligible).clamp(1, top_k - 1);
        [
            (self.lambda(lo_k).ln(), self.lambda(hi_k).ln()),
            (-self.lambda(top_k).ln(), -self.lambda(least_k).ln()),
        ]
    }

    /// One direction's one-epoch PLD (0: remove, 1: add) on a grid of width `interval`, from above.
    ///
    /// # Errors
    /// A grid too large for [`Pld::from_profile`].
    pub fn pld(&self, direction: usize, interval: f64) -> Result<Pld> {
        let (lo, hi) = self.ranges()[direction.min(1)];
        if direction == 0 {
            Pld::from_profile(|e| self.remove_delta(e), lo, hi, interval, Side::Upper, 0.0)
        } else {
            Pld::from_profile(|e| self.add_delta(e), lo, hi, interval, Side::Upper, 0.0)
        }
    }
}

/// What a law's grid is built from: s = 1/σ, the truncation point M and the tail.
#[derive(Debug, Clone, Copy)]
struct Grid {
    s: f64,
    top: f64,
    tail: f64,
}

/// A cached law's key: t, σ's bits, the epochs its grid is for.
type LawKey = (u64, u64, u64);

/// Laws the cache keeps (a list's entries, each asked for several grids, sides and directions).
const CACHED_LAWS: usize = 4;

thread_local! {
    /// The last laws built for a composition list's entries (each PLD is asked for several grids,
    /// sides and directions), `None` where σ was too small for one: keyed by t, σ's bits and the
    /// epochs its grid is for.
    static LAST: RefCell<Vec<(LawKey, Option<Rc<RatioLaw>>)>> = const { RefCell::new(Vec::new()) };
}

/// The law of t steps at σ on the grid for `epochs` compositions, at the composition list's tail
/// (a thousandth of [`MIN_DELTA`] over every epoch), built once for repeated calls (a failure too).
///
/// # Errors
/// As [`RatioLaw::new`].
pub(crate) fn cached_law(steps: u64, sigma: f64, epochs: u64) -> Result<Rc<RatioLaw>> {
    let key = (steps, sigma.to_bits(), epochs);
    let refused = || {
        Error::invalid(
            "sigma",
            sigma,
            "is too small for the balls-in-bins upper bound",
        )
    };
    if let Some(law) =
        LAST.with_borrow(|l| l.iter().find(|(k, _)| *k == key).map(|(_, l)| l.clone()))
    {
        return law.ok_or_else(refused);
    }
    let law = RatioLaw::new(steps, sigma, epochs, MIN_DELTA * 1e-3 / epochs as f64)
        .ok()
        .map(Rc::new);
    LAST.with_borrow_mut(|l| {
        if l.len() >= CACHED_LAWS {
            l.remove(0);
        }
        l.push((key, law.clone()));
    });
    law.ok_or_else(refused)
}

/// The composition list's `balls:σ:t` entry's PLD in `direction`, repeated `times` epochs: from above
/// the law's (its add side on a finer grid where Λ can be small), from below the largest batch sum's
/// binned pair (t = 1: the Gaussian's exact profile both ways).
///
/// # Errors
/// σ too small for the bound, or a grid too large.
pub(crate) fn entry_pld(
    steps: u64,
    sigma: f64,
    times: u64,
    direction: Direction,
    interval: f64,
    tail: f64,
    side: Side,
) -> Result<Pld> {
    let index = usize::from(direction == Direction::Add);
    if steps == 1 {
        return Entry::Gaussian { sigma }.pld(direction, interval, tail, side, times);
    }
    match side {
        Side::Upper => {
            let law = cached_law(steps, sigma, times.max(1))?;
            if index == 1 {
                if let Some(finer) = law.refined_for_add() {
                    return finer.pld(1, interval);
                }
            }
            law.pld(index, interval)
        }
        Side::Lower => {
            let pair = MaxPair {
                batches: steps,
                mu_p: 1.0,
                mu_q: 0.0,
                sigma,
            };
            let [remove, add] = pair.profiles()?;
            if index == 0 { remove } else { add }.lower_pld(interval, tail)
        }
    }
}

/// The certified upper bound on ε at δ of E epochs of t steps each (balls in bins, add/remove: the
/// worse direction).
///
/// # Errors
/// δ outside the PLD accountant's range, σ not positive, or t or E zero.
pub fn allocation_epsilon(
    steps: u64,
    sigma: f64,
    epochs: u64,
    delta: f64,
    interval: f64,
) -> Result<f64> {
    tails(epochs, delta)?;
    if steps == 1 {
        // Every record in the one step of every epoch: the Gaussian mechanism, exactly, at σ/√E.
        return Ok(Entry::Gaussian {
            sigma: sigma / (epochs as f64).sqrt(),
        }
        .eps_for(delta));
    }
    let law = law_for(steps, sigma, epochs, delta)?;
    let remove = compose_direction(&law, 0, epochs, delta, interval)?.epsilon_for_delta(delta);
    let mut add = compose_direction(&law, 1, epochs, delta, interval)?.epsilon_for_delta(delta);
    // A finer grid can only lower add's bound: worth its time only where add decides.
    if add > remove {
        // The finer grid is optional: where it fails, the coarse bound stands.
        if let Some(Ok(finer)) = law
            .refined_for_add()
            .map(|f| compose_direction(f, 1, epochs, delta, interval))
        {
            add = add.min(finer.epsilon_for_delta(delta));
        }
    }
    Ok(remove.max(add))
}

/// The certified upper bound on ε at δ of E epochs of t steps each under replace-one (x replaced by x′
/// in its place, so that x′ takes x's step).
///
/// Two certified bounds, the smaller returned:
/// - **Removal, then addition** ([`remove_then_add`]): the two directions' certified ε add up, at the
///   best of 65 splits of δ. Loose, but an upper bound.
/// - **Cyclic.** Given the allocation, x and x′ share a step in every epoch: the Gaussian mechanism
///   with sensitivity 2 at σ/√E. Balls in bins is a mixture of these with the same weights on both
///   sides, so by joint convexity its ε is at most that one (the better bound for few steps per epoch).
///
/// # Errors
/// δ outside the PLD accountant's range, σ not positive, or t or E zero.
pub fn allocation_replace_one_epsilon(
    steps: u64,
    sigma: f64,
    epochs: u64,
    delta: f64,
    interval: f64,
) -> Result<f64> {
    tails(epochs, delta)?;
    let cyclic = Entry::Gaussian {
        sigma: sigma / (2.0 * (epochs as f64).sqrt()),
    }
    .eps_for(delta);
    if steps == 1 {
        return Ok(cyclic);
    }
    let law = law_for(steps, sigma, epochs, delta)?;
    let remove = compose_direction(&law, 0, epochs, delta, interval)?;
    let add = compose_direction(&law, 1, epochs, delta, interval)?;
    let through_removal = remove_then_add(&remove, &add, delta);
    Ok(through_removal.min(cyclic))
}

/// The law of one epoch for an ε at δ: its truncation and wrap-around add at most a thousandth of δ
/// over every epoch.
fn law_for(steps: u64, sigma: f64, epochs: u64, delta: f64) -> Result<RatioLaw> {
    RatioLaw::new(steps, sigma, epochs, delta * 1e-3 / epochs as f64)
}

/// One direction of `law` (0: remove, 1: add) composed over E epochs, from above.
fn compose_direction(
    law: &RatioLaw,
    direction: usize,
    epochs: u64,
    delta: f64,
    interval: f64,
) -> Result<Pld> {
    let build = |width: f64, _: Side| law.pld(direction, width);
    compose_capped(&build, epochs, delta, interval, Side::Upper, Fit::Widen)
}
