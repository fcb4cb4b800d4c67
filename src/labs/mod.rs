//! The labs: one folder each, with the same names in the web crate (`web/src/labs/<lab>/`).
//!
//! A lab's folder holds its parameters from the link (`params.rs`, or `mod.rs` while short), what its
//! page shows (`report.rs`, computed here so that components only draw), its background work
//! (`jobs.rs`, run by the worker pool through [`crate::jobs`]) and its share texts (`share.rs`). The
//! maths a lab shows lives in [`crate::mechanisms`], [`crate::accounting`], [`crate::attacks`],
//! [`crate::tangent`] and [`crate::wdp`], never in the lab.
//!
//! # Adding a lab
//! 1. One line in [`Lab`]'s `choice!` below: its variant, key and title (`ALL` follows).
//! 2. `src/labs/<lab>/`: `mod.rs` declared here, with a parameters type (`from_query`, `to_query`)
//!    and the report; `jobs.rs` and a [`crate::jobs::Job`] variant if it has heavy work.
//! 3. Its formulas and sides in [`about::formulas`] and [`about::sides`], keyed by the `Lab`.
//! 4. `web/src/labs/<lab>/` (`mod.rs`, `controls.rs`, `results.rs`) and one line in
//!    `web/src/labs/mod.rs`'s `render`; `web/src/bin/lab-<lab>.rs` (three lines) and its `<link
//!    data-trunk>` in `index.html`.
//! 5. Its tests: native ones beside the code, a browser test in `tests/e2e/<lab>.test.mjs`, and its
//!    default link in `tests/golden_numbers.rs`.

pub mod about;
pub mod attack;
pub mod compose;
pub mod dpsgd;
pub mod mechanisms;
pub mod rr;
pub mod tangent;
pub mod wdp;

use crate::link::query::{Notice, Query};

crate::choice! {
    /// A page of the playground, chosen by the `lab` query key.
    #[derive(Debug)]
    pub enum Lab {
        /// Randomized response (`lab=rr`), the default.
        RandomizedResponse = "rr" => "Randomized response",
        /// Noise mechanisms and their privacy loss (`lab=mechanisms`).
        Mechanisms = "mechanisms" => "Mechanisms",
        /// Composition workbench (`lab=compose`).
        Compose = "compose" => "Composition",
        /// DP-SGD accounting (`lab=dpsgd`).
        Dpsgd = "dpsgd" => "DP-SGD",
        /// What an attacker can learn: trade-off curves, risk, calibration, audits (`lab=attack`).
        Attack = "attack" => "Attacks",
        /// The Wasserstein DP paper's figures (`lab=wdp`).
        Wdp = "wdp" => "Wasserstein DP",
        /// Tangent DP of the Gibbs distribution (`lab=tangent`).
        Tangent = "tangent" => "Tangent DP",
        /// Every formula the playground uses, with its source (`lab=about`).
        About = "about" => "About",
    }
}

impl Lab {
    /// Reads the `lab` key; a missing key opens the default lab, an unknown one does too, with a notice.
    pub fn from_query(query: &Query, notices: &mut Vec<Notice>) -> Lab {
        match query.get("lab").map(str::trim) {
            None | Some("") => Lab::RandomizedResponse,
            Some(raw) => match Lab::ALL.into_iter().find(|lab| lab.key() == raw) {
                Some(lab) => lab,
                None => {
                    notices.push(Notice {
                        key: "lab".into(),
                        message: format!(
                            "lab = \"{raw}\" is not a lab of this playground; showing {} instead.",
                            Lab::RandomizedResponse.title()
                        ),
                    });
                    Lab::RandomizedResponse
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lab_round_trips_and_unknown_falls_back() {
        for lab in Lab::ALL {
            let mut notices = Vec::new();
            let q = Query::default().with("lab", lab.key());
            assert_eq!(Lab::from_query(&q, &mut notices), lab);
            assert!(notices.is_empty());
        }
        let mut notices = Vec::new();
        let q = Query::parse("lab=%3Cscript%3E");
        assert_eq!(Lab::from_query(&q, &mut notices), Lab::RandomizedResponse);
        assert_eq!(notices.len(), 1);
    }
}
