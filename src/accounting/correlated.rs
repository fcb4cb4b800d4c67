//! Correlated-noise runs as accountants see them (issue 51): a matrix-factorization mechanism
//! ([`crate::mechanisms::mf`]) is a new kind of privacy event beside [`TrainingEvent`], and says which
//! guarantee is known for it.
//!
//! **σ** is the noise multiplier of the strategy scaled to column norm 1 (one participation moves
//! C·x by at most one clipping norm): noise std over the clipping norm, as for DP-SGD and as in
//! jax_privacy. Under several participations the sensitivity grows to Δ ≥ 1, and:
//! - **without sampling** the run is the Gaussian mechanism with noise multiplier σ/Δ on sensitivity 1
//!   (Denisov et al. 2022, Theorem 2.1; exact: [`CorrelatedEvent::gaussian_sigma`]);
//! - **with cyclic Poisson sampling** (records split into b groups, round i samples group i mod b
//!   with probability q), a C with at most b bands and column norms ≤ 1 is as private as DP-SGD over
//!   ⌈T/b⌉ rounds at rate q (Choquette-Choo et al. 2023, "Amplified BandMF", Theorem 4):
//!   [`CorrelatedEvent::amplified`] gives that [`TrainingEvent`], for the existing accountants (PLD
//!   from both sides, RDP). For the tree, BLTs and the square root no such result is known here,
//!   and `amplified` says so (`None`) rather than borrow one: they show the unamplified guarantee.

use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::error::{Error, Result};
use crate::mechanisms::mf::{Participation, Strategy};
use serde::{Deserialize, Serialize};

/// A correlated-noise run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorrelatedEvent {
    /// The factorization.
    pub strategy: Strategy,
    /// Steps T.
    pub steps: u64,
    /// The noise multiplier σ of the strategy scaled to column norm 1.
    pub sigma: f64,
    /// How often a record takes part, and how far apart.
    pub participation: Participation,
    /// The probability q of a record in its group's rounds, under cyclic Poisson sampling over
    /// `participation.b` groups; `None`: every record in every one of its rounds (no amplification).
    pub sampling: Option<f64>,
}

impl CorrelatedEvent {
    /// The strategy's sensitivity under the participation, in units of one participation's (its
    /// largest column norm): Δ ≥ 1.
    ///
    /// # Errors
    /// Steps beyond what the strategies evaluate, or a participation with no bound here.
    pub fn sensitivity(&self) -> Result<f64> {
        let n =
            usize::try_from(self.steps).map_err(|_| Error::invalid("steps", "T", "too many"))?;
        let once = self.strategy.sensitivity(n, Participation::ONCE)?;
        Ok(self.strategy.sensitivity(n, self.participation)? / once)
    }

    /// The noise multiplier of the Gaussian mechanism (sensitivity 1) the unamplified run is: σ/Δ.
    /// Exact; its ε and δ are the Gaussian mechanism's (Balle & Wang 2018), its ρ = Δ²/(2σ²).
    ///
    /// # Errors
    /// As [`CorrelatedEvent::sensitivity`].
    pub fn gaussian_sigma(&self) -> Result<f64> {
        Ok(self.sigma / self.sensitivity()?)
    }

    /// The DP-SGD run amplified BandMF is as private as (Choquette-Choo et al. 2023, Theorem 4):
    /// Poisson at rate q, noise multiplier σ, ⌈T/b⌉ steps, add or remove one record. `None` where
    /// the theorem does not apply: no sampling, a strategy that is not banded (the tree, a BLT, the
    /// square root), or more bands than groups.
    pub fn amplified(&self) -> Option<TrainingEvent> {
        let q = self.sampling?;
        let groups = self.participation.b.max(1);
        self.strategy.amplification_known(groups).then(|| {
            TrainingEvent::poisson(
                q,
                self.sigma,
                self.steps.div_ceil(groups as u64),
                Neighbour::AddRemove,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::training::{pld_epsilon, rdp_report};
    use serde_json::Value;

    fn refs() -> Value {
        serde_json::from_str(include_str!("../../tests/refs/mf_jax_privacy.json")).unwrap()
    }

    /// A recorded case's BandMF run (its bands, iterations and sampling probability) at `sigma`.
    fn banded_run(c: &Value, sigma: f64) -> CorrelatedEvent {
        let f = |k: &str| c[k].as_f64().unwrap();
        let bands = f("num_bands") as usize;
        CorrelatedEvent {
            strategy: Strategy::Banded { bands },
            steps: f("iterations") as u64,
            sigma,
            participation: Participation { k: None, b: bands },
            sampling: Some(f("sampling_prob")),
        }
    }

    /// Amplified BandMF's ε against jax_privacy's `amplified_bandmf_event` under dp_accounting 0.6.0:
    /// the PLD from both sides brackets dp_accounting's PLD (discretised at 1e-4, so to 2e-3), and
    /// RDP is at most dp_accounting's (the order grids differ).
    #[test]
    fn amplified_bandmf_is_dp_sgd_over_a_band_of_rounds() {
        let refs = refs();
        for c in refs["amplified_bandmf"]["epsilon_cases"]
            .as_array()
            .unwrap()
        {
            let f = |k: &str| c[k].as_f64().unwrap();
            let run = banded_run(c, f("noise_multiplier"));
            let e = run.amplified().unwrap();
            assert_eq!(e.steps, f("composed_rounds") as u64);
            let band = pld_epsilon(&e, f("delta"), 1e-4).unwrap();
            let theirs = f("eps_pld");
            assert!(
                band.lower <= theirs * 1.002 && band.upper >= theirs * 0.998,
                "{c}: {band:?}"
            );
            assert!(band.upper / theirs - 1.0 < 2e-3, "{c}: {band:?}");
            // Our RDP minimises over a finer set of orders than dp_accounting's defaults, so it may
            // only be lower (by 1.6 % at most here); an upper bound still, above the PLD's lower side.
            let rdp = rdp_report(&e, f("delta")).unwrap().eps;
            let theirs = f("eps_rdp_dp_accounting_orders");
            assert!(
                rdp <= theirs * (1.0 + 1e-9) && rdp > theirs * 0.98,
                "{c}: RDP {rdp} against {theirs}"
            );
            assert!(
                rdp >= band.lower,
                "{c}: RDP {rdp} below the PLD's lower bound"
            );
        }
    }

    /// σ for a target ε, amplified: the PLD's σ is jax_privacy's calibrated one (dp_accounting's PLD
    /// at 1e-4 discretisation, Brent to 1e-12) to 2e-3, and the RDP one on dp_accounting's orders is
    /// theirs to 1e-4.
    #[test]
    fn amplified_bandmf_meets_a_target_with_jax_privacys_sigma() {
        use crate::accounting::training::{sigma_for_target, sigma_for_target_pld, SigmaGoal};
        let refs = refs();
        for c in refs["amplified_bandmf"]["calibration_cases"]
            .as_array()
            .unwrap()
        {
            let f = |k: &str| c[k].as_f64().unwrap();
            let run = banded_run(c, 1.0);
            let goal = SigmaGoal {
                event: run.amplified().unwrap(),
                delta: f("target_delta"),
                target_eps: f("target_epsilon"),
                grid: 1e-4,
            };
            let rdp = sigma_for_target(&goal).unwrap();
            let theirs = f("sigma_rdp_dp_accounting_orders_tol1e-12");
            assert!(
                (rdp / theirs - 1.0).abs() < 1e-4,
                "{c}: RDP σ {rdp} against {theirs}"
            );
            let pld = sigma_for_target_pld(&goal, rdp).unwrap();
            let theirs = f("sigma_pld_tol1e-12");
            assert!(
                (pld / theirs - 1.0).abs() < 2e-3,
                "{c}: PLD σ {pld} against {theirs}"
            );
        }
    }

    #[test]
    fn what_is_known_is_said_and_the_rest_is_not_borrowed() {
        let run = |strategy, sampling| CorrelatedEvent {
            strategy,
            steps: 64,
            sigma: 2.0,
            participation: Participation { k: Some(4), b: 16 },
            sampling,
        };
        // Independent noise, four participations: the Gaussian mechanism at σ/√4.
        let e = run(Strategy::Independent, None);
        assert!((e.gaussian_sigma().unwrap() - 1.0).abs() < 1e-12 && e.amplified().is_none());
        // The square root: jax_privacy's min-sep sensitivity over its column norm.
        let e = run(Strategy::SquareRoot, Some(0.01));
        let want = 3.960_620_268_143_646 / 1.545_589_890_072_86;
        assert!((e.sensitivity().unwrap() / want - 1.0).abs() < 1e-9);
        assert!(
            e.amplified().is_none(),
            "no amplification result for the square root"
        );
        assert!(run(Strategy::Tree, Some(0.01)).amplified().is_none());
        assert!(run(Strategy::Banded { bands: 32 }, Some(0.01))
            .amplified()
            .is_none());
        let banded = run(Strategy::Banded { bands: 8 }, Some(0.01))
            .amplified()
            .unwrap();
        assert_eq!((banded.steps, banded.rate, banded.sigma), (4, 0.01, 2.0));
    }
}
