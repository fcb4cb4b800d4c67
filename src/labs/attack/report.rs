//! The attack lab's numbers for one link: the trade-off curve from both sides and the risk it allows.

use super::params::{AttackParams, Source};
use crate::accounting::pld::Pld;
use crate::attacks::curves::{list_bounds, run_bounds, run_gdp_mu_clt, Bounds};
use crate::attacks::{beta_both, TradeOff};
use crate::error::Result;
use crate::mechanisms::gaussian::gdp_tradeoff;
use crate::numerics::special::normal_upper_quantile;

/// Everything the page shows, computed once per mechanism.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AttackReport {
    /// β at the link's α from the dominating PLD (under replace-one also removing then adding,
    /// [`crate::attacks::TwoSteps`], where higher): a certified lower bound on the attacker's FNR.
    pub beta_at_alpha: f64,
    /// β at α from the dominated PLD: an optimistic estimate (the true β lies between, up to the
    /// lower side's approximation of a valid pair).
    pub beta_at_alpha_optimistic: f64,
    /// 1 − β at α: a certified upper bound on the attacker's TPR at that FPR.
    pub tpr_at_fpr: f64,
    /// max TPR − FPR = δ(0) (total variation), certified upper bound.
    pub advantage: f64,
    /// The same from the dominated PLD (a lower bound).
    pub advantage_lower: f64,
    /// The most an attacker with this prior can be right: (1 − π) + π·δ(ln((1 − π)/π)), certified.
    pub posterior: f64,
    /// ε at the link's δ (certified upper; under replace-one also at most removing then adding's).
    pub eps: f64,
    /// DP-SGD's central-limit μ (Bu et al. 2020), an estimate; `None` for lists. Under replace-one the
    /// smaller of the σ/2 pair's and twice the pair's at σ (two add/remove steps: G_{2μ}).
    pub gdp_mu_clt: Option<f64>,
    /// The smallest μ whose Gaussian curve G_μ stays below the certified curve at every α of `curve`:
    /// max_α Φ⁻¹(1 − α) − Φ⁻¹(β(α)) (Dong, Roth & Su 2022, Def. 2.7), on that grid.
    pub gdp_mu_fit: f64,
    /// (α, certified β, optimistic β) on a log grid of α from 1e-6 to 1 and a linear one.
    pub curve: Vec<(f64, f64, f64)>,
}

/// Runs the accountant and reads every risk number.
///
/// # Errors
/// A mechanism whose PLD cannot be built, or δ outside the PLD's range.
pub fn report(p: &AttackParams) -> Result<AttackReport> {
    let Bounds {
        upper,
        lower,
        two_steps,
        eps_cap,
    } = match &p.source {
        Source::List(items) => list_bounds(items)?,
        Source::Dpsgd(e) => run_bounds(e, p.delta)?,
    };
    let up: Vec<TradeOff> = upper.iter().map(TradeOff::from_pld).collect();
    let low: Vec<TradeOff> = lower.iter().map(TradeOff::from_pld).collect();
    let certified = |a: f64| {
        let b = beta_both(&up, a);
        two_steps.as_ref().map_or(b, |t| b.max(t.beta(a)))
    };
    let beta = certified(p.alpha);
    let prior_eps = ((1.0 - p.prior) / p.prior).ln();
    // δ at 0 (the advantage) and at the prior's ε: the upper PLDs', or removing then adding's where
    // smaller.
    let capped = two_steps
        .as_ref()
        .map_or(vec![1.0, 1.0], |t| t.deltas_upper(&[0.0, prior_eps]));
    let max_delta = |plds: &[Pld], eps: f64| {
        plds.iter()
            .map(|d| d.delta_for_epsilon(eps))
            .fold(0.0, f64::max)
    };
    let mut curve = Vec::new();
    for i in 0..=120 {
        let a = 10f64.powf(-6.0 + 6.0 * i as f64 / 120.0);
        curve.push((a, certified(a), beta_both(&low, a)));
    }
    for i in 1..100 {
        let a = i as f64 / 100.0;
        curve.push((a, certified(a), beta_both(&low, a)));
    }
    curve.sort_by(|x, y| x.0.total_cmp(&y.0));
    let gdp_mu_fit = curve
        .iter()
        .filter(|c| c.0 > 0.0 && c.0 < 1.0 && c.1 > 1e-300 && c.1 < 1.0)
        .map(|c| normal_upper_quantile(c.0) + normal_upper_quantile(c.1))
        .fold(0.0, f64::max);
    Ok(AttackReport {
        beta_at_alpha: beta,
        beta_at_alpha_optimistic: beta_both(&low, p.alpha).max(beta),
        tpr_at_fpr: 1.0 - beta,
        advantage: max_delta(&upper, 0.0).min(capped[0]),
        advantage_lower: max_delta(&lower, 0.0),
        posterior: ((1.0 - p.prior) + p.prior * max_delta(&upper, prior_eps).min(capped[1]))
            .min(1.0),
        eps: upper
            .iter()
            .map(|d| d.epsilon_for_delta(p.delta))
            .fold(0.0, f64::max)
            .min(eps_cap),
        gdp_mu_clt: match &p.source {
            Source::Dpsgd(e) => Some(run_gdp_mu_clt(e)),
            Source::List(_) => None,
        },
        gdp_mu_fit,
        curve,
    })
}

impl AttackReport {
    /// The certified β at α, interpolated on `curve` (a convex curve's chords lie above it, so this
    /// is a slight over-estimate between grid points; callers compare with a margin).
    pub fn certified_beta(&self, alpha: f64) -> f64 {
        let k = self.curve.partition_point(|c| c.0 < alpha);
        match (
            k.checked_sub(1).and_then(|i| self.curve.get(i)),
            self.curve.get(k),
        ) {
            (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (alpha - a.0) / (b.0 - a.0),
            (_, Some(b)) => b.1,
            (Some(a), None) => a.1,
            (None, None) => 1.0,
        }
    }

    /// Whether an audit's whole confidence box lies below the certified curve (beyond 1e-3): then the
    /// counts, if they come from this mechanism, contradict its guarantee at that confidence. The box's
    /// corner most favourable to the guarantee is its largest FPR and largest FNR.
    pub fn contradicted_by(&self, point: &crate::attacks::audit::AuditPoint) -> bool {
        point.fnr_box.1 + 1e-3 < self.certified_beta(point.fpr_box.1)
    }

    /// Where DP-SGD's central-limit curve G_μ lies above the certified curve (it would promise the
    /// attacker more error than is certified, under-stating the risk): the (lowest, highest) such α
    /// on the curve's grid, if any.
    pub fn clt_understates(&self) -> Option<(f64, f64)> {
        let mu = self.gdp_mu_clt?;
        let above: Vec<f64> = self
            .curve
            .iter()
            .filter(|c| gdp_tradeoff(mu, c.0) > c.1 + 1e-9)
            .map(|c| c.0)
            .collect();
        Some((*above.first()?, *above.last()?))
    }
}

/// The key numbers as a Markdown table (σ's by the calibrations when known).
pub fn markdown(
    p: &AttackParams,
    r: &AttackReport,
    sigma_adv: Option<f64>,
    sigma_tpr: Option<f64>,
) -> String {
    let sig = crate::link::format::sig6;
    // Certified numbers round outward: an upper bound (TPR, advantage, ε, a σ that meets a target) up,
    // the attacker's certified β down.
    let up = |x: f64| crate::link::format::sig_up(x, 6);
    let down = |x: f64| crate::link::format::sig_down(x, 6);
    let opt = |x: Option<f64>| x.map_or("(computing)".to_string(), up);
    let mech = match &p.source {
        Source::List(items) => crate::accounting::entry::format_list(items),
        Source::Dpsgd(e) => format!(
            "DP-SGD q = {}, σ = {}, T = {} ({}, Poisson sampling)",
            sig(e.rate),
            sig(e.sigma),
            e.steps,
            e.neighbour.key()
        ),
    };
    let rows = vec![
        ("mechanism".to_string(), mech),
        (
            format!("β at α = {} (certified lower bound)", sig(p.alpha)),
            down(r.beta_at_alpha),
        ),
        ("β at α, optimistic".into(), sig(r.beta_at_alpha_optimistic)),
        ("TPR at that FPR (upper bound)".into(), up(r.tpr_at_fpr)),
        ("advantage TPR − FPR (upper bound)".into(), up(r.advantage)),
        (
            format!("posterior success, prior {} (upper bound)", sig(p.prior)),
            up(r.posterior),
        ),
        (
            format!("ε at δ = {} (certified upper bound)", sig(p.delta)),
            up(r.eps),
        ),
        (
            format!("σ for advantage ≤ {}", sig(p.target_adv)),
            opt(sigma_adv),
        ),
        (
            format!("σ for TPR ≤ {} at FPR {}", sig(p.target_tpr), sig(p.alpha)),
            opt(sigma_tpr),
        ),
    ];
    crate::link::embed::markdown_table(("attack risk", "value"), &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;
    use crate::link::query::Query;

    #[test]
    fn a_single_gaussian_matches_its_closed_forms() {
        // gauss:1*1: μ = 1. β(α) = Φ(Φ⁻¹(1 − α) − 1); advantage = 2Φ(1/2) − 1 (total variation of
        // N(0, 1) and N(1, 1)); with prior 1/2 the posterior is (1 + advantage)/2.
        let (p, _) =
            AttackParams::from_query(&Query::parse("source=list&list=gauss:1*1&alpha=0.01"));
        let r = report(&p).unwrap();
        let beta = crate::mechanisms::gaussian::gdp_tradeoff(1.0, 0.01);
        assert!(
            r.beta_at_alpha <= beta + 1e-12 && beta - r.beta_at_alpha < 1e-4,
            "{} vs {beta}",
            r.beta_at_alpha
        );
        assert!(r.beta_at_alpha_optimistic >= r.beta_at_alpha);
        let tv = 2.0 * crate::numerics::special::normal_cdf(0.5) - 1.0;
        assert!(
            r.advantage >= tv - 1e-12 && r.advantage - tv < 1e-6 && r.advantage_lower <= tv + 1e-12,
            "{} vs {tv}",
            r.advantage
        );
        assert!((r.posterior - (1.0 + r.advantage) / 2.0).abs() < 1e-12);
        assert!(r.gdp_mu_clt.is_none() && r.curve.len() > 200);
        // The best-fitting μ of one Gaussian step is its own μ = 1 (up to the discretization).
        assert!((r.gdp_mu_fit - 1.0).abs() < 1e-3, "μ fit {}", r.gdp_mu_fit);
    }

    #[test]
    fn dpsgd_defaults_give_numbers_and_the_clt_mu() {
        let r = report(&AttackParams::default()).unwrap();
        assert!(r.eps > 2.3 && r.eps < 2.4, "ε {}", r.eps);
        assert!(
            r.advantage > 0.0 && r.advantage < 1.0 && r.tpr_at_fpr > 0.01 && r.tpr_at_fpr < 1.0,
            "{r:?}"
        );
        assert!(r.gdp_mu_clt.is_some_and(|m| m > 0.0));
    }

    #[test]
    fn replace_one_raises_the_half_sigma_curve_by_removing_then_adding() {
        // Certified: the add/remove pair at σ/2 (which dominates), raised where removing then adding at
        // σ gives more. Optimistic: the add/remove pair at σ and the mirrored pair (±1) at σ, both of
        // which happen; the σ/2 pair's lower side does not.
        let link = |sigma: f64, neighbour: &str| {
            let q = format!(
                "source=dpsgd&q=0.004&sigma={sigma}&steps=1000&neighbour={neighbour}&alpha=0.01"
            );
            report(&AttackParams::from_query(&Query::parse(&q)).0).unwrap()
        };
        let replace = link(1.2, "replace-one");
        let (half, whole) = (link(0.6, "add-remove"), link(1.2, "add-remove"));
        // At these settings β at α = 0.01: 0.961 (σ/2) → 0.980, the zero-gradient pair 0.986; the
        // advantage 0.171 → 0.101, the pairs that happen 0.087.
        assert!(
            replace.beta_at_alpha > half.beta_at_alpha + 0.01
                && replace.beta_at_alpha <= whole.beta_at_alpha,
            "{} vs {} and {}",
            replace.beta_at_alpha,
            half.beta_at_alpha,
            whole.beta_at_alpha
        );
        assert!(
            replace.advantage < 0.8 * half.advantage && replace.advantage >= whole.advantage,
            "{} vs {} and {}",
            replace.advantage,
            half.advantage,
            whole.advantage
        );
        assert!(
            replace.posterior <= half.posterior
                && replace.tpr_at_fpr == 1.0 - replace.beta_at_alpha
        );
        // The CLT estimate: two steps of the pair at σ (G_{2μ}), below the σ/2 pair's μ here.
        let mu = |r: &AttackReport| r.gdp_mu_clt.unwrap_or(f64::NAN);
        assert!(
            mu(&replace) == 2.0 * mu(&whole) && mu(&replace) < mu(&half),
            "{} {} {}",
            mu(&replace),
            mu(&whole),
            mu(&half)
        );
        // ε at δ: also at most removing then adding, far below the σ/2 pair's here.
        assert!(
            replace.eps < 0.8 * half.eps,
            "{} vs {}",
            replace.eps,
            half.eps
        );
        // The certified curve never crosses the optimistic one (pairs that happen).
        for c in &replace.curve {
            assert!(c.1 <= c.2 + 1e-9, "α {}: {} above {}", c.0, c.1, c.2);
        }
        // The optimistic side: at least as optimistic as the zero-gradient pair alone, never past the
        // certified side, and far below the σ/2 pair's (which is not a lower bound).
        assert!(
            replace.advantage_lower >= whole.advantage_lower * (1.0 - 1e-2)
                && replace.advantage_lower <= replace.advantage
                && replace.advantage_lower < half.advantage_lower,
            "{} vs {} and {}",
            replace.advantage_lower,
            whole.advantage_lower,
            half.advantage_lower
        );
        assert!(
            replace.beta_at_alpha_optimistic <= whole.beta_at_alpha_optimistic * (1.0 + 1e-2)
                && replace.beta_at_alpha_optimistic >= replace.beta_at_alpha,
            "{} vs {}",
            replace.beta_at_alpha_optimistic,
            whole.beta_at_alpha_optimistic
        );
    }

    #[test]
    fn replace_one_without_sampling_is_the_gaussian_with_twice_the_sensitivity() {
        // q = 1, σ = 2, one step: N(0, 4) against N(±1, 4) two steps apart is G_1 exactly, from either
        // route (the σ/2 pair is G_1; two steps of G_{1/2} give G_1).
        let q = "source=dpsgd&q=1&sigma=2&steps=1&neighbour=replace-one&alpha=0.05";
        let r = report(&AttackParams::from_query(&Query::parse(q)).0).unwrap();
        for c in &r.curve {
            let exact = gdp_tradeoff(1.0, c.0);
            assert!(
                c.1 <= exact + 1e-12 && exact - c.1 < 2e-3,
                "α {}: {} vs {exact}",
                c.0,
                c.1
            );
        }
        let tv = 2.0 * crate::numerics::special::normal_cdf(0.5) - 1.0;
        assert!(
            r.advantage >= tv - 1e-12 && r.advantage - tv < 1e-3,
            "{}",
            r.advantage
        );
    }
}
