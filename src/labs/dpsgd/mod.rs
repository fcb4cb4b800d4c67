//! The DP-SGD lab (`?lab=dpsgd`): parameters from the link, ε by the RDP and PLD accountants, the
//! smallest σ for a target ε, and the lecture's three scenarios.

pub mod jobs;

use crate::accounting::pld::{dpsgd_epsilon_band, EpsilonBand, SigmaSearch, DEFAULT_INTERVAL};
use crate::accounting::rdp::tight::{epsilon_continuous, step_rdp_exact};
use crate::accounting::rdp::{
    default_orders, dpsgd_rdp, epsilon_by_order, rdp_to_approx_dp, Conversion,
};
use crate::accounting::zcdp::rho_for_approx_dp;
use crate::error::{Error, Result};
use crate::link::query::{fmt_f64, LinkParams, Notice, Query, Reader, Within};
use crate::numerics::roots::{try_bisect, Split, Until};
use std::cmp::Ordering::Greater;

/// Most steps the lab accounts for.
pub const MAX_STEPS: u64 = 10_000_000;

crate::choice! {
    /// Which data sets are neighbours.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Neighbour {
        /// One record added or removed (the accountants' native relation).
        AddRemove = "add-remove" | "addremove" | "add-or-remove" => "add or remove one record",
        /// One record replaced: the clipped sum can move by 2C, so the accountants run with σ/2.
        ReplaceOne = "replace-one" | "replace" | "substitute" => "replace one record (σ counts half)",
    }
}

impl Neighbour {
    /// Reads the `neighbour` key's value.
    ///
    /// # Errors
    /// Anything but the two relations (and their spellings).
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s)
            .ok_or_else(|| Error::invalid("neighbour", s, "must be add-remove or replace-one"))
    }

    /// The factor on the sensitivity (σ is divided by it).
    pub fn factor(self) -> f64 {
        match self {
            Neighbour::AddRemove => 1.0,
            Neighbour::ReplaceOne => 2.0,
        }
    }
}

/// Everything a DP-SGD link holds. `q` and `steps`, when present, override batch/n and epochs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DpsgdParams {
    /// Data set size n.
    pub n: u64,
    /// Expected batch size m.
    pub batch: u64,
    /// Sampling rate set directly (`q`).
    pub q: Option<f64>,
    /// Noise multiplier σ (noise std / clipping norm).
    pub sigma: f64,
    /// Epochs.
    pub epochs: f64,
    /// Steps set directly (`steps`).
    pub steps: Option<u64>,
    /// Target δ.
    pub delta: f64,
    /// Target ε for the inverse (`target_eps`).
    pub target_eps: f64,
    /// Neighbouring relation.
    pub neighbour: Neighbour,
    /// The PLD grid's width when the link sets one (`grid`).
    pub grid: Option<f64>,
}

impl Default for DpsgdParams {
    /// Abadi et al. (CCS 2016)'s MNIST setting.
    fn default() -> Self {
        DpsgdParams {
            n: 60_000,
            batch: 256,
            q: None,
            sigma: 1.1,
            epochs: 60.0,
            steps: None,
            delta: 1e-5,
            target_eps: 2.0,
            neighbour: Neighbour::AddRemove,
            grid: None,
        }
    }
}

impl DpsgdParams {
    /// The sampling rate q = m/n (or the link's `q`).
    pub fn rate(&self) -> f64 {
        self.q
            .unwrap_or((self.batch as f64 / self.n as f64).min(1.0))
    }

    /// Steps T = ⌈epochs / q⌉ (or the link's `steps`), at least 1.
    pub fn total_steps(&self) -> u64 {
        self.steps.unwrap_or_else(|| {
            (self.epochs / self.rate())
                .ceil()
                .clamp(1.0, MAX_STEPS as f64) as u64
        })
    }

    /// The noise multiplier the accountants see: σ / (sensitivity factor of the relation).
    pub fn effective_sigma(&self) -> f64 {
        self.sigma / self.neighbour.factor()
    }
}

impl LinkParams for DpsgdParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = DpsgdParams::default();
        let mut r = Reader::new(query);
        let n = r.whole("n", d.n, 1, 10_000_000_000);
        let batch = r.whole("batch", d.batch, 1, n);
        let q = r.optional_number("q", Within::up_to(0.0, 1.0), "ignoring it");
        let sigma = r.number("sigma", d.sigma, Within::below(0.0, 1e4));
        let epochs = r.number("epochs", d.epochs, Within::below(0.0, 1e7));
        let steps = r.optional_whole("steps", 1, MAX_STEPS, "ignoring it");
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let target_eps = r.number("target_eps", d.target_eps, Within::below(0.0, 1e3));
        let neighbour = r.parse("neighbour", d.neighbour, Neighbour::parse);
        let grid = r.optional_number("grid", Within::up_to(1e-7, 0.1), "using the default grid");
        let mut p = DpsgdParams {
            n,
            batch,
            q,
            sigma,
            epochs,
            steps,
            delta,
            target_eps,
            neighbour,
            grid,
        };
        if p.steps.is_none() && p.epochs / p.rate() > MAX_STEPS as f64 {
            r.notice(
                "epochs",
                format!(
                    "{} epochs at q = {} exceed {MAX_STEPS} steps; using {MAX_STEPS} steps.",
                    fmt_f64(p.epochs),
                    fmt_f64(p.rate())
                ),
            );
            p.steps = Some(MAX_STEPS);
        }
        r.finish(p)
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "dpsgd")
            .with("n", self.n.to_string())
            .with("batch", self.batch.to_string())
            .with("sigma", fmt_f64(self.sigma))
            .with("epochs", fmt_f64(self.epochs))
            .with("delta", fmt_f64(self.delta))
            .with("target_eps", fmt_f64(self.target_eps))
            .with("neighbour", self.neighbour.key());
        if let Some(rate) = self.q {
            q.set("q", fmt_f64(rate));
        }
        if let Some(t) = self.steps {
            q.set("steps", t.to_string());
        }
        if let Some(g) = self.grid {
            q.set("grid", fmt_f64(g));
        }
        q
    }
}

/// What the RDP accountant says (a few milliseconds: computed on every change).
#[derive(Debug, Clone, PartialEq)]
pub struct RdpReport {
    /// ε by the improved conversion over every real order, fractional orders by integration (the
    /// tighter bound; never above `eps_grid`).
    pub eps: f64,
    /// The order that attains `eps`.
    pub best_order: f64,
    /// ε as dp_accounting computes it: its grid of orders, fractional ones by its series of |terms|.
    pub eps_grid: f64,
    /// The grid order that attains `eps_grid`.
    pub best_order_grid: f64,
    /// ε by the classical conversion ε(α) + ln(1/δ)/(α − 1).
    pub eps_classical: f64,
    /// (α, the (ε, δ) ε that order alone gives) for the ε(α) chart (finite values): its minimum is `eps`.
    pub curve: Vec<(f64, f64)>,
    /// (steps, ε) at 60 step counts up to T, for the ε-versus-steps chart.
    pub by_steps: Vec<(f64, f64)>,
}

/// The RDP accountant for the link's parameters.
///
/// # Errors
/// δ out of domain.
pub fn rdp_report(p: &DpsgdParams) -> Result<RdpReport> {
    let orders = default_orders();
    let (q, sigma, steps) = (p.rate(), p.effective_sigma(), p.total_steps() as f64);
    let step: Vec<f64> = dpsgd_rdp(q, sigma, 1.0, &orders);
    let total: Vec<f64> = step.iter().map(|r| r * steps).collect();
    let (eps_grid, best_order_grid) =
        rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Improved)?;
    let (tight, tight_order) = epsilon_continuous(|a| steps * step_rdp_exact(q, sigma, a), p.delta);
    let (eps, best_order) = if tight < eps_grid {
        (tight, tight_order)
    } else {
        (eps_grid, best_order_grid)
    };
    let (eps_classical, _) = rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Classical)?;
    let curve = epsilon_by_order(&orders, &total, p.delta);
    let mut by_steps = Vec::new();
    for i in 1..=60 {
        let t = (steps * i as f64 / 60.0).ceil().max(1.0);
        let scaled: Vec<f64> = step.iter().map(|r| r * t).collect();
        by_steps.push((
            t,
            rdp_to_approx_dp(&orders, &scaled, p.delta, Conversion::Improved)?.0,
        ));
    }
    Ok(RdpReport {
        eps,
        best_order,
        eps_grid,
        best_order_grid,
        eps_classical,
        curve,
        by_steps,
    })
}

/// ε by the PLD accountant after `steps` steps, from both sides (tens of milliseconds: the page runs
/// it off the critical path). `grid` is the link's grid width, if it sets one.
///
/// # Errors
/// Parameters out of domain.
pub fn pld_epsilon(p: &DpsgdParams, steps: u64) -> Result<EpsilonBand> {
    dpsgd_epsilon_band(
        p.rate(),
        p.effective_sigma(),
        steps,
        p.delta,
        p.grid.unwrap_or(DEFAULT_INTERVAL),
    )
}

/// The smallest noise multiplier whose certified PLD ε (upper side, at the link's q, T, δ, relation)
/// is at most `target_eps`, to a relative 1e-4 and never overshooting; `rdp_sigma` (the RDP answer)
/// seeds the bracket. Returned as the link's σ (times the relation's factor).
///
/// # Errors
/// Parameters out of domain or an unreachable target.
pub fn sigma_for_target_pld(p: &DpsgdParams, rdp_sigma: f64) -> Result<f64> {
    Ok(sigma_search_pld(p, rdp_sigma)?.run()? * p.neighbour.factor())
}

/// The search behind [`sigma_for_target_pld`], one accountant evaluation per step (so that the page
/// can yield between them); its answer is in the accountant's units (divide the link's σ by
/// [`Neighbour::factor`]).
///
/// # Errors
/// Parameters out of domain.
pub fn sigma_search_pld(p: &DpsgdParams, rdp_sigma: f64) -> Result<SigmaSearch> {
    SigmaSearch::new(
        p.rate(),
        p.total_steps(),
        p.delta,
        p.target_eps,
        p.grid.unwrap_or(DEFAULT_INTERVAL),
        rdp_sigma / p.neighbour.factor(),
    )
}

/// The smallest noise multiplier whose RDP ε (at the link's q, T, δ, relation) is at most `target_eps`,
/// on dp_accounting's grid of orders (so that Opacus' `get_noise_multiplier` gives the same σ; the
/// tighter continuous-order ε at this σ is a little below the target). Bisection on ln σ, returning
/// the upper end: it never overshoots the target.
///
/// # Errors
/// A target no σ up to 10⁴ reaches.
pub fn sigma_for_target(p: &DpsgdParams) -> Result<f64> {
    let eps_at = |sigma: f64| {
        let trial = DpsgdParams { sigma, ..p.clone() };
        rdp_report_eps(&trial)
    };
    let (lo, hi) = (1e-2, 1e4);
    if eps_at(hi)? > p.target_eps {
        return Err(Error::invalid(
            "target_eps",
            p.target_eps,
            "is out of reach for any σ up to 10⁴",
        ));
    }
    if eps_at(lo)? <= p.target_eps {
        return Ok(lo);
    }
    // The upper end: ε(hi) ≤ the target, so the σ returned never overshoots it.
    let found = try_bisect(lo, hi, Split::Geometric, Until::Ratio(1e-5), |s| {
        Ok(eps_at(s)?.partial_cmp(&p.target_eps) != Some(Greater))
    })?;
    Ok(found.hi)
}

fn rdp_report_eps(p: &DpsgdParams) -> Result<f64> {
    let orders = default_orders();
    let total = dpsgd_rdp(
        p.rate(),
        p.effective_sigma(),
        p.total_steps() as f64,
        &orders,
    );
    Ok(rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Improved)?.0)
}

/// The lecture's three scenarios at the link's n, m, T, target ε and δ, with clipping norm B = 1: the
/// noise each prescribes (on the averaged gradient), with the slides' typos corrected.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenarios {
    /// Scenario 1: Laplace scale for pure ε-DP with subsampling without replacement.
    pub laplace_scale: f64,
    /// Scenario 2: ρ for the target (ε, δ) (corrected: squared).
    pub rho: f64,
    /// Scenario 2: Gaussian σ without subsampling, σ = √(T/(2ρ))/n (corrected).
    pub zcdp_sigma: f64,
    /// Scenario 3: the noise multiplier from the RDP accountant, as σ on the averaged gradient (σ/m).
    pub rdp_sigma_mean: f64,
}

/// The three scenarios.
///
/// # Formula
/// 1: b = B/(m ln(1 + (e^{ε/T} − 1) n/m));  2: ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², σ = B√(T/(2ρ))/n;
/// 3: σ_mean = σ_multiplier · B/m.
///
/// `sigma_for_target` is [`sigma_for_target`]'s answer at `p`: its search (about 10 ms natively) runs
/// in the page's worker, and is not repeated here; NaN until it arrives gives a NaN scenario 3.
///
/// # Errors
/// Parameters out of domain or an unreachable target.
pub fn scenarios(p: &DpsgdParams, sigma_for_target: f64) -> Result<Scenarios> {
    let (n, m, t, eps) = (
        p.n as f64,
        p.batch as f64,
        p.total_steps() as f64,
        p.target_eps,
    );
    let laplace_scale = 1.0 / (m * ((eps / t).exp_m1() * n / m).ln_1p());
    let rho = rho_for_approx_dp(eps, p.delta)?;
    let zcdp_sigma = (t / (2.0 * rho)).sqrt() / n;
    let rdp_sigma_mean = sigma_for_target / m;
    Ok(Scenarios {
        laplace_scale,
        rho,
        zcdp_sigma,
        rdp_sigma_mean,
    })
}

/// Links (query strings) that load scenarios 1 and 2 into the composition lab: T steps of Laplace noise
/// on a fixed-size subsample (each step's unamplified ε₀ = ln(1 + (e^{ε/T} − 1)n/m), so that the
/// amplified step is ε/T), and T full-batch Gaussian steps with scenario 2's σ (as σ/Δ with Δ = B/n).
/// Takes the [`scenarios`] already computed (their σ search is the costly part).
pub fn scenario_links(p: &DpsgdParams, s: &Scenarios) -> (String, String) {
    let (n, m, t) = (p.n as f64, p.batch as f64, p.total_steps());
    let eps0 = ((p.target_eps / t as f64).exp_m1() * n / m).ln_1p();
    let rate = (m / n).min(1.0);
    let one = Query::default()
        .with("lab", "compose")
        .with(
            "list",
            format!("wor:{}:{}:0*{t}", fmt_f64(rate), fmt_f64(eps0)),
        )
        .with("delta", fmt_f64(p.delta));
    let two = Query::default()
        .with("lab", "compose")
        .with("list", format!("gauss:{}*{t}", fmt_f64(s.zcdp_sigma * n)))
        .with("delta", fmt_f64(p.delta));
    (one.to_query_string(), two.to_query_string())
}

/// The key numbers as a Markdown table.
pub fn markdown(
    p: &DpsgdParams,
    rdp: &RdpReport,
    pld: Option<EpsilonBand>,
    sigma_target: Option<f64>,
    sigma_target_pld: Option<f64>,
) -> String {
    let opt = |x: Option<f64>| x.map_or("(computing)".to_string(), crate::labs::rr::share::sig);
    let rows = vec![
        (
            "n, batch, q".to_string(),
            format!(
                "{}, {}, {}",
                p.n,
                p.batch,
                crate::labs::rr::share::sig(p.rate())
            ),
        ),
        (
            "noise multiplier σ (neighbours)".into(),
            format!("{} ({})", fmt_f64(p.sigma), p.neighbour.key()),
        ),
        ("steps T".into(), p.total_steps().to_string()),
        ("δ".into(), fmt_f64(p.delta)),
        (
            "ε, RDP accountant (improved conversion)".into(),
            format!(
                "{} (order {})",
                crate::labs::rr::share::sig(rdp.eps),
                fmt_f64(rdp.best_order)
            ),
        ),
        (
            "ε, PLD accountant (certified upper)".into(),
            opt(pld.map(|b| b.upper)),
        ),
        (
            "ε, PLD accountant (lower bound)".into(),
            opt(pld.map(|b| b.lower)),
        ),
        (
            format!("σ for ε = {} (RDP)", fmt_f64(p.target_eps)),
            opt(sigma_target),
        ),
        (
            format!("σ for ε = {} (PLD)", fmt_f64(p.target_eps)),
            opt(sigma_target_pld),
        ),
    ];
    crate::link::embed::markdown_table(("DP-SGD", "value"), &rows)
}

/// Python that recomputes both ε with Google's dp_accounting, and σ for the target with Opacus.
pub fn library_snippet(p: &DpsgdParams) -> String {
    format!(
        "# pip install dp-accounting==0.6.0 opacus\nimport dp_accounting\n\
         event = dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({s})), {t})\n\
         for acc in (dp_accounting.rdp.RdpAccountant(), dp_accounting.pld.PLDAccountant()):\n    acc.compose(event)\n    print(type(acc).__name__, acc.get_epsilon({d}))\n\
         from opacus.accountants.utils import get_noise_multiplier\n\
         print(get_noise_multiplier(target_epsilon={e}, target_delta={d}, sample_rate={q}, steps={t}, accountant='rdp'){f})",
        q = fmt_f64(p.rate()),
        s = fmt_f64(p.effective_sigma()),
        t = p.total_steps(),
        d = fmt_f64(p.delta),
        e = fmt_f64(p.target_eps),
        f = if p.neighbour == Neighbour::ReplaceOne { " * 2  # replace-one: twice the add/remove σ" } else { "" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abadi_defaults_and_round_trip() {
        let p = DpsgdParams::default();
        assert_eq!(p.total_steps(), 14_063);
        let (back, notices) = DpsgdParams::from_query(&p.to_query());
        assert_eq!(back, p);
        assert!(notices.is_empty());
        // dp_accounting 0.6.0 RdpAccountant at 14062 steps: 2.5965558697943036 (order 8.1); one more step here.
        let r = rdp_report(&p).unwrap();
        assert!(
            (r.eps_grid / 2.5966 - 1.0).abs() < 0.01 && r.best_order_grid == 8.1,
            "{}",
            r.eps_grid
        );
        // Over every real order, fractional ones exact: a little tighter, never looser.
        assert!(
            r.eps <= r.eps_grid && r.eps > 0.98 * r.eps_grid,
            "{} vs {}",
            r.eps,
            r.eps_grid
        );
        assert!(r.eps <= r.eps_classical);
    }

    #[test]
    fn sigma_for_target_never_overshoots() {
        let p = DpsgdParams {
            target_eps: 1.5,
            ..DpsgdParams::default()
        };
        let sigma = sigma_for_target(&p).unwrap();
        let at = rdp_report(&DpsgdParams { sigma, ..p.clone() })
            .unwrap()
            .eps_grid;
        assert!(at <= 1.5 && at > 1.49, "σ = {sigma}: ε = {at}");
    }

    #[test]
    fn replace_one_halves_sigma_and_extremes_stay_finite() {
        let (p, _) = DpsgdParams::from_query(&Query::parse("neighbour=replace-one"));
        assert_eq!(p.effective_sigma(), 0.55);
        let (p, notices) =
            DpsgdParams::from_query(&Query::parse("q=1&steps=10000000&sigma=0.3&delta=1e-12"));
        assert!(notices.is_empty(), "{notices:?}");
        let r = rdp_report(&p).unwrap();
        assert!(r.eps.is_finite() && r.eps > 0.0);
        let (_, notices) = DpsgdParams::from_query(&Query::parse(
            "n=0&batch=-1&q=2&sigma=nan&delta=1&neighbour=x&steps=0",
        ));
        assert_eq!(notices.len(), 7);
    }

    #[test]
    fn scenarios_follow_the_corrected_formulas() {
        let p = DpsgdParams::default();
        let sigma = sigma_for_target(&p).unwrap();
        let s = scenarios(&p, sigma).unwrap();
        assert_eq!(s.rdp_sigma_mean, sigma / p.batch as f64);
        let l = (1e5f64).ln();
        assert!((s.rho - ((l + 2.0).sqrt() - l.sqrt()).powi(2)).abs() < 1e-12);
        assert!(s.laplace_scale > 0.0 && s.zcdp_sigma > 0.0 && s.rdp_sigma_mean > 0.0);
    }
}
