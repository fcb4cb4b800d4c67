//! Which lab a link opens (`?lab=…`). Later labs add a variant here and a parameters type of their own.

use crate::query::{Notice, Query};

/// A page of the playground, chosen by the `lab` query key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lab {
    /// Randomized response (`lab=rr`), the default.
    RandomizedResponse,
    /// Noise mechanisms and their privacy loss (`lab=mechanisms`).
    Mechanisms,
    /// Composition workbench (`lab=compose`).
    Compose,
    /// DP-SGD accounting (`lab=dpsgd`).
    Dpsgd,
    /// The Wasserstein DP paper's figures (`lab=wdp`).
    Wdp,
    /// Tangent DP of the Gibbs distribution (`lab=tangent`).
    Tangent,
    /// What an attacker can learn: trade-off curves, risk, calibration, audits (`lab=attack`).
    Attack,
    /// Every formula the playground uses, with its source (`lab=about`).
    About,
}

impl Lab {
    /// Every lab, in navigation order.
    pub const ALL: [Lab; 8] = [
        Lab::RandomizedResponse,
        Lab::Mechanisms,
        Lab::Compose,
        Lab::Dpsgd,
        Lab::Attack,
        Lab::Wdp,
        Lab::Tangent,
        Lab::About,
    ];

    /// The value of the `lab` key.
    pub fn key(self) -> &'static str {
        match self {
            Lab::RandomizedResponse => "rr",
            Lab::Mechanisms => "mechanisms",
            Lab::Compose => "compose",
            Lab::Dpsgd => "dpsgd",
            Lab::Wdp => "wdp",
            Lab::Tangent => "tangent",
            Lab::Attack => "attack",
            Lab::About => "about",
        }
    }

    /// The name shown in the navigation.
    pub fn title(self) -> &'static str {
        match self {
            Lab::RandomizedResponse => "Randomized response",
            Lab::Mechanisms => "Mechanisms",
            Lab::Compose => "Composition",
            Lab::Dpsgd => "DP-SGD",
            Lab::Wdp => "Wasserstein DP",
            Lab::Tangent => "Tangent DP",
            Lab::Attack => "Attacks",
            Lab::About => "About",
        }
    }

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
    fn all_lists_every_lab() {
        for lab in [
            Lab::RandomizedResponse,
            Lab::Mechanisms,
            Lab::Compose,
            Lab::Dpsgd,
            Lab::Attack,
            Lab::Wdp,
            Lab::Tangent,
            Lab::About,
        ] {
            // This match stops compiling when a lab is added, as a reminder to list it here and in ALL.
            match lab {
                Lab::RandomizedResponse
                | Lab::Mechanisms
                | Lab::Compose
                | Lab::Dpsgd
                | Lab::Wdp
                | Lab::Tangent
                | Lab::Attack
                | Lab::About => {}
            }
            assert!(Lab::ALL.contains(&lab), "{lab:?} is missing from Lab::ALL");
        }
    }

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
