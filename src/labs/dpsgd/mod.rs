//! The DP-SGD lab (`?lab=dpsgd`): parameters from the link, ε by the RDP and PLD accountants, the
//! smallest σ for a target ε, and the lecture's three scenarios.

pub mod info;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = DpsgdParams;

pub mod claims;
pub mod jobs;
mod params;
pub mod phases;
mod report;
pub mod samplers;
mod share;

pub use params::DpsgdParams;
pub use report::{scenario_links, scenarios, Scenarios};
pub use share::{library_snippet, markdown, ShareInputs};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::training::{rdp_report, sigma_for_target};
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn abadi_defaults_and_round_trip() {
        let p = DpsgdParams::default();
        assert_eq!(p.total_steps(), 14_063);
        let (back, notices) = DpsgdParams::from_query(&p.to_query());
        assert_eq!(back, p);
        assert!(notices.is_empty());
        // dp_accounting 0.6.0 RdpAccountant at 14062 steps: 2.5965558697943036 (order 8.1); one more step here.
        let r = rdp_report(&p.event(), p.delta).unwrap();
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
        let sigma = sigma_for_target(&p.sigma_goal()).unwrap();
        let at = rdp_report(&p.event().with_sigma(sigma), p.delta)
            .unwrap()
            .eps_grid;
        assert!(at <= 1.5 && at > 1.49, "σ = {sigma}: ε = {at}");
    }

    #[test]
    fn replace_one_keeps_sigma_and_extremes_stay_finite() {
        // σ crosses every boundary as the noise multiplier, whatever the relation.
        let (p, _) = DpsgdParams::from_query(&Query::parse("neighbour=replace-one"));
        assert_eq!(p.event().sigma, 1.1);
        let (p, notices) =
            DpsgdParams::from_query(&Query::parse("q=1&steps=10000000&sigma=0.3&delta=1e-12"));
        assert!(notices.is_empty(), "{notices:?}");
        let r = rdp_report(&p.event(), p.delta).unwrap();
        assert!(r.eps.is_finite() && r.eps > 0.0);
        let (_, notices) = DpsgdParams::from_query(&Query::parse(
            "n=0&batch=-1&q=2&sigma=nan&delta=1&neighbour=x&steps=0",
        ));
        assert_eq!(notices.len(), 7);
    }

    #[test]
    fn a_batch_larger_than_the_data_set_is_a_visible_notice() {
        let (p, notices) = DpsgdParams::from_query(&Query::parse("n=100"));
        assert_eq!(p.rate(), 1.0);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].key, "batch");
        assert!(
            notices[0].message.contains("q = 1"),
            "{}",
            notices[0].message
        );
        let (_, notices) = DpsgdParams::from_query(&Query::parse("n=100&q=0.1"));
        assert!(notices.is_empty());
    }

    #[test]
    fn scenarios_follow_the_corrected_formulas() {
        let p = DpsgdParams::default();
        let sigma = sigma_for_target(&p.sigma_goal()).unwrap();
        let s = scenarios(&p, sigma).unwrap();
        assert_eq!(s.rdp_sigma_mean, sigma / p.batch as f64);
        let l = (1e5f64).ln();
        assert!((s.rho - ((l + 2.0).sqrt() - l.sqrt()).powi(2)).abs() < 1e-12);
        assert!(s.laplace_scale > 0.0 && s.zcdp_sigma > 0.0 && s.rdp_sigma_mean > 0.0);
    }
}
