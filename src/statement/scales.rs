//! The same guarantee on other scales, read off its certified trade-off curve: μ-GDP and how well μ-GDP
//! fits it, an attacker's true-positive rate at low false-positive rates, and the advantage.
//!
//! # Formulas
//! - **The symmetrised curve.** The certified PLDs (both directions) give curves f_i below every true
//!   pair's trade-off curve; add/remove is symmetric, so the mechanism is also f_i⁻¹-DP, and every true
//!   curve, being convex, lies above the convex envelope f_S = conv(min_i(f_i, f_i⁻¹)) (Dong, Roth & Su,
//!   JRSS-B 2022, Prop. F.2). For piecewise-linear curves that envelope is the lower convex hull of every
//!   curve's vertices and their mirror images (β, α). gdpnum (Gomez et al. 2025) builds the same curve
//!   from dp_accounting's PLD.
//! - **μ** = max over f_S's vertices of Φ⁻¹(1 − α) + Φ⁻¹(1 − β): the smallest μ with G_μ ≤ f_S at every
//!   vertex, hence everywhere (G_μ is convex, f_S linear between vertices). As gdpnum does, vertices
//!   outside a window of α and β are skipped: ours is [10⁻⁶, 1 − 10⁻⁶] ([`WINDOW`]; gdpnum's 10⁻¹⁰),
//!   and we also read the curve at the window's ends, so μ-GDP is certified on the whole window
//!   (gdpnum reads vertices only). Rounds up as the vertices do (the curve is certified from below).
//! - **Regret** (gdpnum's `get_worst_case_regret`): the smallest Δ with f_S(x + Δ) − Δ ≤ G_μ(x) at
//!   10 000 evenly spaced x in [0, 1], by bisection to 10⁻¹⁰, returning the bisection's lower end (an
//!   under-estimate, as gdpnum does). 0 means f_S is G_μ; it measures how far the curve lies above the
//!   Gaussian one that certifies it. An estimate of fit, not a privacy bound.
//! - **TPR at FPR α** ≤ 1 − f_S(α), and the **advantage** max_α (1 − α − f_S(α)) = δ(0): certified
//!   upper bounds on what any membership test can do (Kairouz et al. 2015; Kulynych et al. 2024).

use crate::accounting::guarantee::{Accountant, Event, Guarantee};
use crate::accounting::samplers::Sampler;
use crate::accounting::tradeoff::TradeOff;
use crate::attacks::curves::{list_bounds, run_bounds, Bounds};
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::gdp_tradeoff;
use crate::numerics::special::normal_upper_quantile;

/// gdpnum's tolerance: its regret bisection's width.
const ERR: f64 = 1e-10;

/// The window of false-positive rates μ-GDP is stated on, [W, 1 − W]. gdpnum uses 10⁻¹⁰; our PLD's
/// corners are exact only to about 10⁻¹⁰ (the upper PLD's masses sum to 1 within 10⁻¹⁰ on a 10⁻⁴
/// grid), which moves μ read at α ≈ 10⁻¹⁰ by percents, so we state it from 10⁻⁶, where that error is
/// 10⁻⁴ of α. A subsampled Gaussian is μ-GDP on no window down to 0 for the μ its bulk suggests: its
/// implied μ grows as α falls (0.43 at α = 10⁻², 0.50 at 10⁻⁶, 0.59 at 10⁻⁸ for 10 epochs at
/// q = 0.0043, σ = 0.8), so μ always comes with its window.
pub const WINDOW: f64 = 1e-6;

/// The false-positive rates the statement reads the TPR at.
pub const FPRS: [f64; 2] = [0.01, 0.001];

/// One guarantee on the other scales.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scales {
    /// μ-GDP: G_μ lies below the certified curve for α ∈ [10⁻⁶, 1 − 10⁻⁶] (certified upper).
    pub mu: f64,
    /// gdpnum's worst-case regret of reading the curve as G_μ (an estimate of fit; 0 is exact).
    pub regret: f64,
    /// Certified upper bounds on an attacker's TPR at the FPRs of [`FPRS`].
    pub tpr: [f64; 2],
    /// Certified upper bound on max TPR − FPR.
    pub advantage: f64,
    /// Whether the curve is the one-step route's only (replace-one): certified, looser than the attack
    /// lab's, which also reads removing then adding.
    pub one_step_only: bool,
}

/// The symmetrised certified curve f_S: the lower convex hull of every curve's vertices and their
/// mirror images, α increasing, from α = 0 to α = 1.
pub fn symmetric_envelope(curves: &[TradeOff]) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = curves
        .iter()
        .flat_map(|t| t.vertices().iter().flat_map(|&(a, b)| [(a, b), (b, a)]))
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .collect();
    points.push((1.0, 0.0));
    points.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    points.dedup_by(|x, y| x.0 == y.0);
    // Andrew's monotone chain, lower hull: drop a point while it lies on or above the chord.
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for p in points {
        while hull.len() >= 2 {
            let (o, a) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            let cross = (a.0 - o.0) * (p.1 - o.1) - (a.1 - o.1) * (p.0 - o.0);
            if cross <= 0.0 {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(p);
    }
    hull
}

/// f_S at α, by linear interpolation on the hull.
fn interpolate(hull: &[(f64, f64)], alpha: f64) -> f64 {
    let k = hull.partition_point(|v| v.0 < alpha);
    match (k.checked_sub(1).map(|i| hull[i]), hull.get(k)) {
        (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (alpha - a.0) / (b.0 - a.0),
        (_, Some(b)) => b.1,
        (Some(a), None) => a.1,
        (None, None) => 1.0,
    }
}

/// The smallest μ whose G_μ lies below the hull at every vertex inside the window [`WINDOW`] (in α and
/// in β, as gdpnum filters), and at the window's two ends (so that G_μ ≤ f_S on the whole window).
pub fn gdp_mu(hull: &[(f64, f64)]) -> f64 {
    let ends = [WINDOW, 1.0 - WINDOW].map(|a| (a, interpolate(hull, a)));
    mu_over(hull.iter().chain(&ends), ERR)
}

/// gdpnum's `get_mu(err = WINDOW)` on our curve: its vertices only, and only those at least the window
/// below the diagonal (G_μ may cross the curve between the window's end and the vertex outside it,
/// and near the diagonal at small α; [`gdp_mu`] reads both). For comparing with gdpnum.
pub fn gdp_mu_vertices(hull: &[(f64, f64)]) -> f64 {
    mu_over(hull.iter(), WINDOW)
}

fn mu_over<'a>(points: impl Iterator<Item = &'a (f64, f64)>, diagonal: f64) -> f64 {
    const W: f64 = WINDOW;
    points
        .filter(|&&(a, b)| {
            let inside = W..=1.0 - W;
            inside.contains(&a) && inside.contains(&b) && b <= 1.0 - a - diagonal
        })
        .map(|&(a, b)| normal_upper_quantile(a) + normal_upper_quantile(b))
        .fold(0.0, f64::max)
}

/// gdpnum's worst-case regret of G_μ for the hull (see the module's formulas).
pub fn regret(hull: &[(f64, f64)], mu: f64) -> f64 {
    const N: usize = 10_000;
    let xs: Vec<f64> = (0..N).map(|i| i as f64 / (N - 1) as f64).collect();
    let g: Vec<f64> = xs.iter().map(|&x| gdp_tradeoff(mu, x)).collect();
    let holds = |d: f64| {
        xs.iter()
            .zip(&g)
            .all(|(&x, &gx)| interpolate(hull, (x + d).clamp(0.0, 1.0)) - d <= gx)
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    while hi - lo > ERR {
        let mid = 0.5 * (lo + hi);
        if holds(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// Every scale of a symmetrised certified curve.
pub fn scales_of(hull: &[(f64, f64)], one_step_only: bool) -> Scales {
    let mu = gdp_mu(hull);
    Scales {
        mu,
        regret: regret(hull, mu),
        tpr: FPRS.map(|a| (1.0 - interpolate(hull, a)).clamp(0.0, 1.0)),
        advantage: hull
            .iter()
            .map(|&(a, b)| 1.0 - a - b)
            .fold(0.0, f64::max)
            .min(1.0),
        one_step_only,
    }
}

/// The certified PLDs of what `g` is about: a training run's Poisson view, or a list.
fn bounds(g: &Guarantee) -> Result<Bounds> {
    match &g.event {
        Event::Training(e) => run_bounds(&e.as_poisson(), g.delta),
        Event::List(items) => list_bounds(items),
        Event::Correlated(_) => bounds(&g.accounted()),
    }
}

/// The scales of `g`'s certified curve. Only a guarantee that certifies its run has one: another
/// sampler's, or a run with users, phases or tuning, has no curve here.
///
/// # Errors
/// A guarantee that does not certify its run, or an event the PLD cannot compose.
pub fn scales(g: &Guarantee) -> Result<Scales> {
    if !g.certifies_run() {
        return Err(Error::invalid(
            "statement",
            "",
            "no certified trade-off curve is known for this run as it is",
        ));
    }
    // The curve composed here is the record-level Poisson run's (or the list's): a user-level number,
    // or another sampler's own, is not about that curve, and reading its scales off it would
    // understate the risk.
    if let Event::Training(e) = &g.event {
        let poisson_accountant = matches!(
            g.accountant,
            Accountant::Pld | Accountant::RdpEveryOrder | Accountant::RdpDpAccounting
        );
        if !(e.is_plain_poisson() && g.assumes == Sampler::Poisson && poisson_accountant) {
            return Err(Error::invalid(
                "statement",
                "",
                "the other scales are computed for record-level Poisson runs only (not yet for this \
                 sampler or for users of several records)",
            ));
        }
    }
    let b = bounds(g)?;
    let curves: Vec<TradeOff> = b.upper.iter().map(TradeOff::from_pld).collect();
    Ok(scales_of(
        &symmetric_envelope(&curves),
        b.two_steps.is_some(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::entry::{Entry, Item};
    use crate::accounting::guarantee::Side;

    fn list(entry: Entry, times: u64) -> Guarantee {
        Guarantee {
            event: Event::List(vec![Item { entry, times }]),
            accountant: Accountant::Pld,
            side: Side::Upper,
            assumes: Sampler::Poisson,
            delta: 1e-5,
            eps: 1.0,
        }
    }

    /// A Gaussian of σ = 2 is exactly ½-GDP (Dong, Roth & Su 2022, Thm 2.7): the certified curve lies
    /// just below G_½, so μ comes out at or a hair above ½, and its regret is near 0.
    #[test]
    fn a_gaussian_is_its_own_gdp() {
        let s = scales(&list(Entry::Gaussian { sigma: 2.0 }, 1)).unwrap();
        assert!(s.mu >= 0.5 && s.mu < 0.5 * 1.002, "{s:?}");
        assert!(s.regret < 1e-3, "{s:?}");
        // TPR at FPR α of G_μ: 1 − Φ(Φ⁻¹(1 − α) − μ); advantage 2Φ(μ/2) − 1 (closed forms).
        let tpr = 1.0 - gdp_tradeoff(0.5, 0.01);
        assert!(s.tpr[0] >= tpr && s.tpr[0] < tpr * 1.01, "{s:?} {tpr}");
        let adv = 2.0 * crate::numerics::special::normal_cdf(0.25) - 1.0;
        assert!(
            s.advantage >= adv - 1e-9 && s.advantage < adv * 1.01,
            "{s:?} {adv}"
        );
    }

    /// Pure ε-DP's curve (Laplace) is far from Gaussian: its regret is clearly positive, the TPR at
    /// FPR α is at most e^ε·α (Kairouz et al. 2015), and the advantage is Laplace's total variation.
    #[test]
    fn laplace_has_regret_and_its_closed_form_tpr() {
        let s = scales(&list(Entry::Laplace { eps: 1.0 }, 1)).unwrap();
        assert!(s.regret > 1e-3, "{s:?}");
        assert!(s.tpr[0] <= 1f64.exp() * 0.01 * 1.001, "{s:?}");
        // Laplace's total variation at ε = 1: 1 − e^(−ε/2) (below RR's (e^ε − 1)/(e^ε + 1)).
        let adv = 1.0 - (-0.5f64).exp();
        assert!(
            s.advantage >= adv - 1e-9 && s.advantage < adv + 1e-3,
            "{s:?} {adv}"
        );
    }

    /// A user-level guarantee, or a cyclic run's own, certifies its run, but its curve is not the
    /// record-level Poisson one composed here: no scales rather than the wrong ones.
    #[test]
    fn only_the_curve_the_guarantee_is_about_gives_scales() {
        use crate::accounting::event::{Neighbour, TrainingEvent};
        let mut e = TrainingEvent::poisson(0.01, 1.0, 100, Neighbour::AddRemove);
        let plain = Guarantee::poisson(&e, Accountant::Pld, Side::Upper, 1e-5, 1.0);
        assert!(scales(&plain).is_ok());
        e.users = 4;
        let users = Guarantee::poisson(&e, Accountant::UserLevel, Side::Upper, 1e-5, 3.0);
        assert!(users.certifies_run() && scales(&users).is_err());
        e.users = 1;
        e.sampler = Sampler::Cyclic;
        let cyclic = Guarantee {
            accountant: Accountant::SamplerOwn,
            assumes: Sampler::Cyclic,
            ..Guarantee::poisson(&e, Accountant::Pld, Side::Upper, 1e-5, 5.0)
        };
        assert!(cyclic.certifies_run() && scales(&cyclic).is_err());
    }

    #[test]
    fn the_hull_is_convex_and_symmetric() {
        let b = list_bounds(&[Item {
            entry: Entry::Laplace { eps: 0.7 },
            times: 3,
        }])
        .unwrap();
        let curves: Vec<TradeOff> = b.upper.iter().map(TradeOff::from_pld).collect();
        let hull = symmetric_envelope(&curves);
        for w in hull.windows(3) {
            let s1 = (w[1].1 - w[0].1) / (w[1].0 - w[0].0);
            let s2 = (w[2].1 - w[1].1) / (w[2].0 - w[1].0);
            assert!(s2 >= s1 - 1e-12, "{w:?}");
        }
        for a in [0.01, 0.2, 0.5] {
            let b = interpolate(&hull, a);
            assert!((interpolate(&hull, b) - a).abs() < 1e-9, "{a} {b}");
        }
    }
}
