//! Every key a lab reads: the names `controls=` accepts (the share panel's embed builder lists them,
//! and a name outside them gets a notice), and the keys the browser fuzzer sets
//! (`tests/e2e/lab-keys.json`). The page reads them from a table ([`Lab::keys`]) rather than from
//! the parameters types, so that a lab's page does not link every other lab's link parser (36 KB of
//! code in each page); a test holds the table to what each lab's parameters print.

use super::Lab;
use crate::link::embed::ViewOptions;
use crate::link::query::{LinkParams, Query};

/// The keys `P` prints at its defaults, with their values, `lab` left out.
fn printed<P: LinkParams>() -> Vec<(String, String)> {
    P::from_query(&Query::default())
        .0
        .to_query()
        .pairs()
        .iter()
        .filter(|(k, _)| k != "lab")
        .cloned()
        .collect()
}

impl Lab {
    /// This lab's keys with their default values, as its parameters print them (optional keys, read
    /// only when a link has them, are in [`Lab::optional_keys`]).
    pub fn defaults(self) -> Vec<(String, String)> {
        use super::*;
        match self {
            Lab::RandomizedResponse => printed::<rr::RrParams>(),
            Lab::Mechanisms => printed::<mechanisms::MechParams>(),
            Lab::Compose => printed::<compose::ComposeParams>(),
            Lab::Dpsgd => printed::<dpsgd::DpsgdParams>(),
            Lab::Attack => printed::<attack::params::AttackParams>(),
            Lab::Wdp => printed::<wdp::WdpParams>(),
            Lab::Tangent => printed::<tangent::TangentParams>(),
            Lab::Train => printed::<train::TrainParams>(),
            Lab::About => Vec::new(),
        }
    }

    /// The keys this lab's parameters print at their defaults, in their order (checked against
    /// [`Lab::defaults`] by a test).
    pub fn printed_keys(self) -> &'static [&'static str] {
        match self {
            Lab::RandomizedResponse => &[
                "eps",
                "k",
                "n",
                "truth",
                "reps",
                "seed",
                "cat",
                "population",
            ],
            Lab::Mechanisms => &[
                "mech", "eps", "delta", "sens", "draws", "seed", "cands", "kmax",
            ],
            Lab::Compose => &["list", "delta"],
            Lab::Dpsgd => &[
                "n",
                "batch",
                "sigma",
                "epochs",
                "delta",
                "target_eps",
                "neighbour",
            ],
            Lab::Attack => &[
                "source",
                "q",
                "sigma",
                "steps",
                "neighbour",
                "delta",
                "alpha",
                "prior",
                "target_adv",
                "target_tpr",
                "conf",
            ],
            Lab::Wdp => &[
                "fig", "panel", "scale", "order", "scales", "sens", "omin", "omax", "ymax", "seed",
                "quantile", "clip", "pairs", "beta", "delta", "w",
            ],
            Lab::Tangent => &[
                "model", "loss", "beta", "n", "seed", "xgrid", "remove", "samples",
            ],
            Lab::Train => &[
                "data",
                "split",
                "model",
                "lambda",
                "lr",
                "batch",
                "sigma",
                "clip",
                "epochs",
                "delta",
                "target_eps",
                "seed",
                "seeds",
                "sweep",
            ],
            Lab::About => &[],
        }
    }

    /// Keys this lab reads that its parameters print only when set.
    pub fn optional_keys(self) -> &'static [&'static str] {
        match self {
            Lab::Dpsgd => &[
                "q", "steps", "grid", "sampler", "cap", "users", "schedule", "tuning",
            ],
            Lab::RandomizedResponse => &["shuffle", "delta"],
            Lab::Attack => &["list", "tp", "fp", "fn", "tn"],
            Lab::Train => &[
                "sampler",
                "cap",
                "n",
                "hidden",
                "dim",
                "noise",
                "stop",
                "steps",
                "act",
                "q",
                "audit",
                "canary",
                "threat",
                "runs",
                "conf",
                "bug",
                "canaries",
                "canary_at",
                "canary_label",
                "mia",
                "shadows",
            ],
            Lab::Compose => &["grid"],
            Lab::Tangent => &["wgrid", "data"],
            _ => &[],
        }
    }

    /// Every key this lab reads: the names `controls=` may list.
    pub fn keys(self) -> Vec<&'static str> {
        [self.printed_keys(), self.optional_keys()].concat()
    }

    /// The names in `controls=` that are none of this lab's keys (each would show nothing).
    pub fn unknown_controls(self, options: &ViewOptions) -> Vec<String> {
        let keys = self.keys();
        options
            .controls
            .iter()
            .flatten()
            .filter(|name| !keys.contains(&name.as_str()))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_outside_the_labs_keys_are_named() {
        let options = ViewOptions::from_query(&Query::parse("controls=sigma,noise,epochs"));
        assert_eq!(
            Lab::Dpsgd.unknown_controls(&options),
            vec!["noise".to_string()]
        );
        assert!(Lab::Dpsgd.keys().contains(&"q"));
        assert!(Lab::Dpsgd
            .unknown_controls(&ViewOptions::default())
            .is_empty());
        for lab in Lab::ALL {
            assert!(lab == Lab::About || !lab.keys().is_empty(), "{lab:?}");
        }
    }

    #[test]
    fn the_key_table_is_what_each_labs_parameters_print() {
        for lab in Lab::ALL {
            let printed: Vec<String> = lab.defaults().into_iter().map(|(k, _)| k).collect();
            assert_eq!(lab.printed_keys(), printed, "{lab:?}");
        }
    }
}
