//! The mechanisms lab (`?lab=mechanisms`): the parameters from the link and every number and curve the
//! page shows, computed here so that the components only draw.
//!
//! The work is split by what it depends on, so the page recomputes only what a slider changes:
//! [`calibrate`] (closed forms and root searches, microseconds), [`pictures`] (curves of the chosen
//! mechanism), [`samples`] (seeded draws), [`exponential`] and [`many_queries`].

pub mod claims;
pub mod info;
pub mod jobs;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = MechParams;

mod params;
mod pictures;
pub mod share;

pub use params::{
    default_candidates, format_candidates, parse_candidates, Candidate, MechParams, Mechanism,
    MAX_DRAWS,
};
pub use pictures::{pictures, samples, Pictures, Samples};

use crate::accounting::zcdp::{rho_for_approx_dp, zcdp_to_approx_dp};
use crate::error::Result;
use crate::mechanisms::exponential::{selection_probabilities, worst_neighbour_probabilities};
use crate::mechanisms::gaussian::rho as gaussian_rho;
use crate::mechanisms::gaussian::{sigma_analytic, sigma_classical, sigma_lecture, Gaussian};
use crate::mechanisms::laplace::{calibrated_scale, Laplace};
use crate::mechanisms::many_queries::{crossover_from_grid, MaxErrorSimulation};
use crate::mechanisms::truncated_laplace::{tau_for, TruncatedLaplace};

/// One way of choosing σ for the target (ε, δ), and what it really achieves.
#[derive(Debug, Clone, PartialEq)]
pub struct SigmaRow {
    /// Where the formula comes from.
    pub method: &'static str,
    /// The σ it gives.
    pub sigma: f64,
    /// The exact δ of the Gaussian mechanism with that σ at the target ε.
    pub achieved_delta: f64,
    /// Why the formula does not apply here, if it does not (e.g. ε > 1).
    pub caveat: Option<&'static str>,
}

/// Every calibration for the target (ε, δ) and sensitivity Δ: the lab's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// Laplace scale b = Δ/ε.
    pub laplace_scale: f64,
    /// Truncated Laplace support bound τ (units of λ = Δ/ε), or why there is none.
    pub tlap_tau: std::result::Result<f64, String>,
    /// The four σ: lecture, classical, zCDP route, analytic (in that order).
    pub sigmas: Vec<SigmaRow>,
    /// ρ whose zCDP conversion gives the target (ε, δ).
    pub rho_for_target: f64,
}

impl Calibration {
    /// The analytic σ (the last row).
    pub fn sigma_analytic(&self) -> f64 {
        self.sigmas.last().map_or(f64::NAN, |r| r.sigma)
    }
}

/// Calibrates every mechanism to the link's (ε, δ, Δ).
///
/// # Errors
/// Only if the parameters are out of domain (the parsed link never is).
pub fn calibrate(p: &MechParams) -> Result<Calibration> {
    let (eps, delta, sens) = (p.eps, p.delta, p.sens);
    let rho = rho_for_approx_dp(eps, delta)?;
    let row = |method, sigma: f64, caveat| -> Result<SigmaRow> {
        let achieved_delta = Gaussian::new(sigma, sens)?.delta(eps);
        Ok(SigmaRow {
            method,
            sigma,
            achieved_delta,
            caveat,
        })
    };
    let sigmas = vec![
        row(
            "Lecture notes, eq. (17): Δ·√(2 ln(2/δ))/ε",
            sigma_lecture(eps, delta, sens)?,
            (eps > 1.0).then_some("proved only for ε ≤ 1 (Theorem 2.1)"),
        )?,
        row(
            "Classical: Δ·√(2 ln(1.25/δ))/ε",
            sigma_classical(eps, delta, sens)?,
            (eps >= 1.0).then_some("proved only for ε < 1 (Dwork & Roth, Thm A.1)"),
        )?,
        row(
            "Via zCDP: Δ/√(2ρ), ρ = (√(ln(1/δ)+ε) − √ln(1/δ))²",
            sens / (2.0 * rho).sqrt(),
            None,
        )?,
        row(
            "Analytic (Balle & Wang 2018): smallest σ",
            sigma_analytic(eps, delta, sens)?,
            None,
        )?,
    ];
    Ok(Calibration {
        laplace_scale: calibrated_scale(eps, sens)?,
        tlap_tau: tau_for(eps, delta).map_err(|e| e.to_string()),
        sigmas,
        rho_for_target: rho,
    })
}

/// The noise the pictures show: the link's mechanism with its σ or scale (set by hand or calibrated).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Noise {
    /// Laplace noise.
    Laplace(Laplace),
    /// Gaussian noise.
    Gaussian(Gaussian),
    /// Truncated Laplace noise.
    TruncatedLaplace(TruncatedLaplace),
}

/// The noise in use; `None` for the exponential mechanism (or a truncated Laplace with δ ≥ 1/2).
///
/// # Errors
/// Only if the parameters are out of domain.
pub fn noise(p: &MechParams, cal: &Calibration) -> Result<Option<Noise>> {
    Ok(match p.mech {
        crate::labs::mechanisms::Mechanism::Laplace => Some(Noise::Laplace(Laplace::new(
            p.scale.unwrap_or(cal.laplace_scale),
            p.sens,
        )?)),
        crate::labs::mechanisms::Mechanism::Gaussian => Some(Noise::Gaussian(Gaussian::new(
            p.sigma.unwrap_or(cal.sigma_analytic()),
            p.sens,
        )?)),
        crate::labs::mechanisms::Mechanism::TruncatedLaplace => match cal.tlap_tau {
            Ok(tau) => Some(Noise::TruncatedLaplace(TruncatedLaplace::new(
                cal.laplace_scale,
                tau,
                p.sens,
            )?)),
            Err(_) => None,
        },
        crate::labs::mechanisms::Mechanism::Exponential => None,
    })
}

/// The zCDP view of a Gaussian noise: ρ and what it converts to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZcdpView {
    /// ρ = Δ²/(2σ²).
    pub rho: f64,
    /// ε = ρ + 2√(ρ ln(1/δ)) at the link's δ.
    pub eps_from_rho: f64,
    /// The exact ε of the same noise at that δ is smaller; this is the exact δ at `eps_from_rho`.
    pub exact_delta_at_eps_from_rho: f64,
}

/// ρ of the Gaussian `g` and its (ε, δ) conversion at `delta`.
///
/// # Errors
/// δ out of (0, 1).
pub fn zcdp_view(g: &Gaussian, delta: f64) -> Result<ZcdpView> {
    let rho = gaussian_rho(g.sigma(), g.sens());
    let eps_from_rho = zcdp_to_approx_dp(rho, delta)?;
    Ok(ZcdpView {
        rho,
        eps_from_rho,
        exact_delta_at_eps_from_rho: g.delta(eps_from_rho),
    })
}

/// The exponential mechanism's numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct ExponentialReport {
    /// Selection probabilities under x.
    pub probs: Vec<f64>,
    /// Selection probabilities under the neighbour worst for the most likely candidate.
    pub neighbour_probs: Vec<f64>,
    /// That candidate.
    pub focus: usize,
    /// ln(P\[focus\]/P'\[focus\]), at most ε.
    pub log_ratio: f64,
    /// Each candidate's probability against ε′ on [0, 3ε]: (ε′, probabilities).
    pub by_eps: Vec<(f64, Vec<f64>)>,
}

/// The exponential mechanism for the link's candidates.
///
/// # Errors
/// Candidates or parameters out of domain.
pub fn exponential(p: &MechParams) -> Result<ExponentialReport> {
    let scores: Vec<f64> = p.cands.iter().map(|c| c.score).collect();
    let probs = selection_probabilities(&scores, p.eps, p.sens)?;
    let focus = (0..probs.len())
        .max_by(|&a, &b| probs[a].total_cmp(&probs[b]))
        .unwrap_or(0);
    let neighbour_probs = worst_neighbour_probabilities(&scores, p.eps, p.sens, focus)?;
    let log_ratio = (probs[focus] / neighbour_probs[focus]).ln();
    let top = (3.0 * p.eps).min(crate::mechanisms::MAX_EPS);
    let by_eps = (1..=120)
        .map(|i| top * i as f64 / 120.0)
        .map(|e| selection_probabilities(&scores, e, p.sens).map(|pr| (e, pr)))
        .collect::<Result<Vec<_>>>()?;
    Ok(ExponentialReport {
        probs,
        neighbour_probs,
        focus,
        log_ratio,
        by_eps,
    })
}

/// The many-queries comparison at the link's (ε, δ), from a simulation of unit-scale noise.
#[derive(Debug, Clone, PartialEq)]
pub struct ManyQueries {
    /// k of each row.
    pub ks: Vec<usize>,
    /// Expected largest error, Laplace with Δ₁ = k: (k/ε)·H_k.
    pub laplace_exact: Vec<f64>,
    /// Expected largest error, Gaussian (analytic σ) with Δ₂ = √k.
    pub gaussian_exact: Vec<f64>,
    /// Simulated means of the same.
    pub laplace_simulated: Vec<f64>,
    /// Simulated means of the same.
    pub gaussian_simulated: Vec<f64>,
    /// The notes' orders of growth k·ln k/ε and √(k ln k ln(1/δ))/ε, each scaled to meet its exact curve at k_max.
    pub laplace_order: Vec<f64>,
    /// See `laplace_order`.
    pub gaussian_order: Vec<f64>,
    /// Smallest k where the Gaussian's expected largest error is below the Laplace's.
    pub crossover: Option<usize>,
    /// The notes' rule of thumb: smallest k with k·ln k ≥ ln(1/δ).
    pub rule_of_thumb: usize,
    /// Repetitions behind each simulated mean.
    pub reps: usize,
}

/// Scales the simulation to the link's (ε, δ) and adds the closed forms.
///
/// # Errors
/// ε or δ out of domain.
pub fn many_queries(p: &MechParams, sim: &MaxErrorSimulation) -> Result<ManyQueries> {
    let sigma1 = sigma_analytic(p.eps, p.delta, 1.0)?;
    let ks = sim.ks.clone();
    // (k/ε)·H_k (laplace_max_error), H_k from the simulation's closed forms.
    let laplace_exact: Vec<f64> = ks
        .iter()
        .zip(&sim.laplace_unit_closed_form)
        .map(|(&k, h)| k as f64 / p.eps * h)
        .collect();
    // σ_k·E max|N| (gaussian_max_error) with the ε-free factor from the simulation's closed forms.
    let gaussian_exact: Vec<f64> = ks
        .iter()
        .zip(&sim.gaussian_unit_closed_form)
        .map(|(&k, unit)| (k as f64).sqrt() * sigma1 * unit)
        .collect();
    let laplace_simulated = ks
        .iter()
        .zip(&sim.laplace_unit)
        .map(|(&k, m)| m * k as f64 / p.eps)
        .collect();
    let gaussian_simulated = ks
        .iter()
        .zip(&sim.gaussian_unit)
        .map(|(&k, m)| m * (k as f64).sqrt() * sigma1)
        .collect();
    let ln_inv_delta = -p.delta.ln();
    let lap_shape = |k: f64| k * k.ln().max(f64::MIN_POSITIVE) / p.eps;
    let gauss_shape = |k: f64| (k * k.ln().max(f64::MIN_POSITIVE) * ln_inv_delta).sqrt() / p.eps;
    let last = ks.len().saturating_sub(1);
    let kmax = ks.get(last).copied().unwrap_or(1) as f64;
    let (lap_c, gauss_c) = (
        laplace_exact[last] / lap_shape(kmax),
        gaussian_exact[last] / gauss_shape(kmax),
    );
    let laplace_order = ks.iter().map(|&k| lap_c * lap_shape(k as f64)).collect();
    let gaussian_order = ks
        .iter()
        .map(|&k| gauss_c * gauss_shape(k as f64))
        .collect();
    let rule_of_thumb = (2..)
        .find(|&k: &usize| (k as f64) * (k as f64).ln() >= ln_inv_delta)
        .unwrap_or(2);
    Ok(ManyQueries {
        ks,
        laplace_exact,
        gaussian_exact,
        laplace_simulated,
        gaussian_simulated,
        laplace_order,
        gaussian_order,
        crossover: crossover_from_grid(p.eps, p.delta, &sim.ks, &sim.gaussian_unit_closed_form)?,
        rule_of_thumb,
        reps: sim.reps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;
    use crate::link::query::Query;
    use crate::mechanisms::many_queries::simulate_max_errors;

    #[test]
    fn calibration_of_the_default_link() {
        let p = MechParams::default();
        let cal = calibrate(&p).unwrap();
        assert_eq!(cal.laplace_scale, 1.0);
        // dp_accounting 0.6.0 get_sigma_gaussian(1, 1e-5) = 3.730631634815937.
        assert!((cal.sigma_analytic() / 3.730_631_634_815_937 - 1.0).abs() < 1e-9);
        for row in &cal.sigmas {
            assert!(
                row.achieved_delta <= p.delta,
                "{}: {}",
                row.method,
                row.achieved_delta
            );
        }
    }

    #[test]
    fn lecture_sigma_can_fail_beyond_eps_one_and_says_so() {
        let (p, _) = MechParams::from_query(&Query::parse("eps=8&delta=0.1"));
        let cal = calibrate(&p).unwrap();
        let lecture = &cal.sigmas[0];
        assert!(lecture.caveat.is_some());
        assert!(cal.sigmas[3].achieved_delta <= p.delta);
    }

    #[test]
    fn extreme_links_give_finite_numbers_everywhere() {
        for link in [
            "mech=gaussian&eps=1e-6&delta=1e-300&sens=1e9",
            "mech=gaussian&eps=50&delta=1e-300&sens=1e9",
            "mech=laplace&eps=1e-6&sens=1e9",
            "mech=tlap&eps=50&delta=1e-300&sens=1e9",
            "mech=tlap&eps=1e-6&delta=1e-300",
            "mech=exponential&eps=50&cands=a:1e12,b:-1e12",
        ] {
            let (p, notices) = MechParams::from_query(&Query::parse(link));
            assert!(notices.is_empty(), "{link}: {notices:?}");
            let cal = calibrate(&p).unwrap_or_else(|e| panic!("{link}: {e}"));
            assert!(
                cal.sigmas
                    .iter()
                    .all(|r| r.sigma.is_finite() && r.achieved_delta.is_finite()),
                "{link}"
            );
            if let Some(noise) = noise(&p, &cal).unwrap() {
                let pic = pictures(&p, &noise);
                pic.assert_finite(link);
                let s = samples(&p, &noise);
                assert!(s.counts.iter().sum::<u64>() > 0, "{link}");
            }
            if p.mech == Mechanism::Exponential {
                let em = exponential(&p).unwrap();
                assert!(em.probs.iter().all(|x| x.is_finite()) && em.log_ratio <= p.eps + 1e-9);
            }
            let sim = simulate_max_errors(100, 1).unwrap();
            let mq = many_queries(&p, &sim).unwrap();
            assert!(
                mq.gaussian_exact
                    .iter()
                    .chain(&mq.laplace_order)
                    .all(|x| x.is_finite()),
                "{link}"
            );
        }
    }

    #[test]
    fn many_queries_scales_the_closed_forms_exactly() {
        // The view scales ε-free values the simulation carries; the direct formulas must agree.
        use crate::mechanisms::many_queries::{crossover, gaussian_max_error, laplace_max_error};
        let sim = simulate_max_errors(100_000, 1).unwrap();
        for (eps, delta) in [(0.1, 1e-5), (1.0, 1e-5), (3.0, 1e-9)] {
            let p = MechParams {
                eps,
                delta,
                kmax: 100_000,
                ..MechParams::default()
            };
            let mq = many_queries(&p, &sim).unwrap();
            for (i, &k) in mq.ks.iter().enumerate() {
                let g = gaussian_max_error(k, eps, delta).unwrap();
                assert!((mq.gaussian_exact[i] / g - 1.0).abs() < 1e-13, "k={k}");
                assert!((mq.laplace_exact[i] / laplace_max_error(k, eps) - 1.0).abs() < 1e-13);
            }
            assert_eq!(mq.crossover, crossover(eps, delta).unwrap());
        }
    }
}
