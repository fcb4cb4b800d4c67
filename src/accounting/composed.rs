//! Every accountant's ε for a composition list ([`crate::accounting::entry`]): closed forms, RDP, zCDP
//! and the PLD from both sides ([`ComposedPld`]). The composition lab shows them; the attack lab reads
//! the composed PLD's trade-off curve.

use crate::accounting::composition::{advanced, basic, optimal_homogeneous};
use crate::accounting::entry::Item;
use crate::accounting::pld::{
    Direction, EpsilonBand, Pld, Side, DEFAULT_INTERVAL, DEFAULT_TAIL, MAX_POINTS, MAX_POINTS_FINE,
    MIN_DELTA,
};
use crate::accounting::rdp::tight::epsilon_continuous;
use crate::accounting::rdp::{default_orders, epsilon_by_order, rdp_to_approx_dp, Conversion};
use crate::accounting::zcdp::zcdp_to_approx_dp;
use crate::error::Result;

/// Every accountant's ε at one δ (`None` where an accountant does not apply).
#[derive(Debug, Clone, PartialEq)]
pub struct Accountants {
    /// Basic composition.
    pub basic: f64,
    /// Advanced composition (Dwork–Rothblum–Vadhan).
    pub advanced: Option<f64>,
    /// Optimal composition of k identical mechanisms (Kairouz–Oh–Viswanath), exact.
    pub optimal: Option<f64>,
    /// RDP with the improved conversion over every real order (fractional subsampled-Gaussian orders
    /// by integration), and its order; never above `rdp_grid`.
    pub rdp: Option<(f64, f64)>,
    /// RDP as dp_accounting computes it: its grid of orders (fractional ones by its series).
    pub rdp_grid: Option<(f64, f64)>,
    /// RDP with the classical conversion.
    pub rdp_classical: Option<f64>,
    /// zCDP.
    pub zcdp: Option<f64>,
    /// (α, the ε at δ that order alone gives): the RDP conversion's curve, minimal at the best order.
    pub rdp_by_order: Vec<(f64, f64)>,
}

/// Each entry's (ε, δ, count) for the closed-form theorems: pure entries as (ε, 0); approximate ones
/// get an equal share of `share` per run, and the smallest ε with δ(ε) ≤ that share.
fn pairs(items: &[Item], share: f64) -> Vec<(f64, f64, u64)> {
    let approx: u64 = items
        .iter()
        .filter(|it| it.entry.pure_eps().is_none())
        .map(|it| it.times)
        .sum();
    items
        .iter()
        .map(|it| match it.entry.pure_eps() {
            Some(e) => (e, 0.0, it.times),
            None => {
                let d = share / approx as f64;
                (it.entry.eps_for(d), d, it.times)
            }
        })
        .collect()
}

/// The closed-form and RDP accountants at `delta` (cheap; the PLD is [`ComposedPld`]). Counts enter
/// the closed forms as multipliers, so every count up to the lab's maximum is accounted exactly.
pub fn accountants(items: &[Item], delta: f64) -> Accountants {
    accountants_with(items, delta, true)
}

/// As [`accountants`] with RDP on dp_accounting's grid of orders only (`rdp` = `rdp_grid`): about
/// 20× cheaper with a subsampled Gaussian in the list, for charts that need many δ.
pub fn accountants_grid(items: &[Item], delta: f64) -> Accountants {
    accountants_with(items, delta, false)
}

fn accountants_with(items: &[Item], delta: f64, tight: bool) -> Accountants {
    let any_approx = items.iter().any(|it| it.entry.pure_eps().is_none());
    let basic_eps = basic(&pairs(items, delta)).0;
    let (mech_share, slack) = if any_approx {
        (delta / 2.0, delta / 2.0)
    } else {
        (0.0, delta)
    };
    let advanced_eps = advanced(&pairs(items, mech_share), slack)
        .ok()
        .map(|x| x.0)
        .filter(|e| e.is_finite());
    let optimal = match items {
        [only] => {
            let (e, d) = match only.entry.pure_eps() {
                Some(e) => (e, 0.0),
                None => {
                    let d = delta / (2.0 * only.times as f64);
                    (only.entry.eps_for(d), d)
                }
            };
            optimal_homogeneous(e, d, only.times, delta).filter(|e| e.is_finite())
        }
        _ => None,
    };
    let orders = default_orders();
    let curve: Option<Vec<f64>> = orders
        .iter()
        .map(|&a| {
            items
                .iter()
                .map(|it| it.entry.rdp(a).map(|r| r * it.times as f64))
                .sum::<Option<f64>>()
        })
        .collect();
    let rdp_grid = curve
        .as_ref()
        .and_then(|c| rdp_to_approx_dp(&orders, c, delta, Conversion::Improved).ok());
    let rdp = rdp_grid
        .filter(|_| tight)
        .map(|grid| {
            let exact = |a: f64| -> f64 {
                items
                    .iter()
                    .map(|it| it.entry.rdp_exact(a).unwrap_or(f64::INFINITY) * it.times as f64)
                    .sum()
            };
            let tight = epsilon_continuous(exact, delta);
            if tight.0 < grid.0 {
                tight
            } else {
                grid
            }
        })
        .or(rdp_grid);
    let rdp_classical = curve
        .as_ref()
        .and_then(|c| rdp_to_approx_dp(&orders, c, delta, Conversion::Classical).ok())
        .map(|x| x.0);
    let rdp_by_order = curve
        .as_ref()
        .map(|c| epsilon_by_order(&orders, c, delta))
        .unwrap_or_default();
    let rho: Option<f64> = items
        .iter()
        .map(|it| it.entry.rho().map(|r| r * it.times as f64))
        .sum();
    let zcdp = rho.and_then(|r| zcdp_to_approx_dp(r, delta).ok());
    Accountants {
        basic: basic_eps,
        advanced: advanced_eps,
        optimal,
        rdp,
        rdp_grid,
        rdp_classical,
        zcdp,
        rdp_by_order,
    }
}

/// The composed PLD in both directions and from both sides (heavier: computed once per list, then
/// read at any δ).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComposedPld {
    /// Remove and add directions, upper side (dominating).
    pub upper: Vec<Pld>,
    /// Remove and add directions, lower side (dominated).
    pub lower: Vec<Pld>,
    /// The grid width used.
    pub interval: f64,
    /// Whether the grid was widened from the one asked for (the composition's window would have
    /// exceeded the FFT's size).
    pub widened: bool,
    /// The list, for basic composition at each δ: a certified bound too, so the upper ε is never
    /// above it (the grid's top atom may sit up to one interval above a pure entry's ε₀).
    items: Vec<Item>,
}

impl ComposedPld {
    /// Composes the list's PLDs on the default grid (1e-4), widened when the composition would exceed
    /// [`MAX_POINTS`].
    ///
    /// # Errors
    /// A mechanism whose PLD cannot be built.
    pub fn new(items: &[Item]) -> Result<Self> {
        ComposedPld::with_grid(items, None)
    }

    /// As [`ComposedPld::new`] on a grid of width `grid` when given (up to [`MAX_POINTS_FINE`] FFT
    /// points before a finer grid than the default is widened).
    ///
    /// # Errors
    /// A mechanism whose PLD cannot be built.
    pub fn with_grid(items: &[Item], grid: Option<f64>) -> Result<Self> {
        let total: u64 = items.iter().map(|it| it.times).sum::<u64>().max(1);
        // Each run's truncated mass counts at +∞ on the upper side: keep the sum at DEFAULT_TAIL.
        let step_tail = DEFAULT_TAIL / total as f64;
        let asked = grid.unwrap_or(DEFAULT_INTERVAL);
        let cap = if asked < DEFAULT_INTERVAL {
            MAX_POINTS_FINE
        } else {
            MAX_POINTS
        };
        let build = |direction, interval, side| -> Result<Vec<Pld>> {
            items
                .iter()
                .map(|it| it.entry.pld(direction, interval, step_tail, side, it.times))
                .collect()
        };
        let compose = |plds: &[Pld]| {
            let parts: Vec<(&Pld, u64)> = plds
                .iter()
                .zip(items)
                .map(|(p, it)| (p, it.times))
                .collect();
            Pld::compose_many(&parts, DEFAULT_TAIL)
        };
        // One grid for every direction and side: the widest any of them needs.
        let mut interval = asked;
        for direction in [Direction::Remove, Direction::Add] {
            let plds = build(direction, asked, Side::Upper)?;
            let parts: Vec<(&Pld, u64)> = plds
                .iter()
                .zip(items)
                .map(|(p, it)| (p, it.times))
                .collect();
            let points = Pld::window_points(&parts, DEFAULT_TAIL);
            if points > cap as f64 {
                interval = interval.max(asked * (points / cap as f64).ceil());
            }
        }
        let (mut upper, mut lower) = (Vec::new(), Vec::new());
        for direction in [Direction::Remove, Direction::Add] {
            upper.push(compose(&build(direction, interval, Side::Upper)?));
            lower.push(compose(&build(direction, interval, Side::Lower)?));
        }
        Ok(ComposedPld {
            upper,
            lower,
            interval,
            widened: interval > asked,
            items: items.to_vec(),
        })
    }

    /// The certified upper ε at δ: the larger direction's, and never above basic composition's (both
    /// are certified, so the smaller is); NaN below [`MIN_DELTA`], where the FFT cannot resolve δ.
    pub fn epsilon(&self, delta: f64) -> f64 {
        if !(MIN_DELTA..1.0).contains(&delta) {
            return f64::NAN;
        }
        let eps = self
            .upper
            .iter()
            .map(|p| p.epsilon_for_delta(delta))
            .fold(0.0, f64::max);
        eps.min(basic(&pairs(&self.items, delta)).0)
    }

    /// Both sides at δ, with the grid used.
    pub fn band(&self, delta: f64) -> EpsilonBand {
        EpsilonBand {
            upper: self.epsilon(delta),
            lower: self.epsilon_lower(delta),
            interval: self.interval,
        }
    }

    /// [`ComposedPld::band`] at every δ of `deltas`: one walk down each PLD for all of them
    /// ([`Pld::epsilons_for_deltas`]), the same numbers bit for bit.
    pub fn bands(&self, deltas: &[f64]) -> Vec<EpsilonBand> {
        let most = |plds: &[Pld]| {
            plds.iter()
                .map(|p| p.epsilons_for_deltas(deltas))
                .fold(vec![0.0; deltas.len()], |acc, e| {
                    acc.iter().zip(&e).map(|(x, y)| f64::max(*x, *y)).collect()
                })
        };
        let (upper, lower) = (most(&self.upper), most(&self.lower));
        deltas
            .iter()
            .enumerate()
            .map(|(j, &delta)| {
                if !(MIN_DELTA..1.0).contains(&delta) {
                    return EpsilonBand {
                        upper: f64::NAN,
                        lower: f64::NAN,
                        interval: self.interval,
                    };
                }
                let up = upper[j].min(basic(&pairs(&self.items, delta)).0);
                EpsilonBand {
                    upper: up,
                    lower: lower[j].min(up),
                    interval: self.interval,
                }
            })
            .collect()
    }

    /// Why the PLD certifies no finite ε at δ, as a sentence; `None` when it does. Below
    /// [`MIN_DELTA`] it reports none; otherwise its mass at +∞ exceeds δ: on the lower side too, and
    /// then no accountant can give a finite ε (the `dp:` entries' δ compose to more than δ), or only on
    /// the upper side (its cut tails and bounds count at +∞).
    pub fn no_epsilon_reason(&self, delta: f64) -> Option<String> {
        use crate::link::format::sig;
        if self.epsilon(delta).is_finite() {
            return None;
        }
        if !(MIN_DELTA..1.0).contains(&delta) {
            return Some(format!(
                "the PLD accountant reports no ε below δ = {MIN_DELTA:e}, where its FFT's rounding could exceed δ"
            ));
        }
        let at_infinity = |plds: &[Pld]| plds.iter().map(Pld::infinity_mass).fold(0.0, f64::max);
        let (upper, lower) = (at_infinity(&self.upper), at_infinity(&self.lower));
        Some(if lower > delta {
            format!(
                "no finite ε exists at δ = {}: the list's δ parts (its dp: entries' δ) leave a \
                 probability of at least {} that no ε covers, more than δ",
                sig(delta, 3),
                sig(lower, 3)
            )
        } else {
            format!(
                "the PLD certifies no finite ε at δ = {}: its upper side leaves {} of its mass at +∞ \
                 (the δ parts and the cut tails), more than δ",
                sig(delta, 3),
                sig(upper, 3)
            )
        })
    }

    /// The certified lower ε at δ (the larger direction's lower ε); NaN below [`MIN_DELTA`].
    pub fn epsilon_lower(&self, delta: f64) -> f64 {
        if !(MIN_DELTA..1.0).contains(&delta) {
            return f64::NAN;
        }
        let eps = self
            .lower
            .iter()
            .map(|p| p.epsilon_for_delta(delta))
            .fold(0.0, f64::max);
        eps.min(self.epsilon(delta))
    }
}
