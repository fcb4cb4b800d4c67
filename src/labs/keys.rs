//! Every key a lab reads: the names `controls=` accepts (the share panel's embed builder lists them,
//! and a name outside them gets a notice), and the keys the browser fuzzer sets
//! (`tests/e2e/lab-keys.json`). The page reads them from each lab's descriptor ([`Lab::keys`]) rather
//! than from the parameters types, so that a lab's page does not link every other lab's link parser
//! (36 KB of code in each page); a test holds the table to what each lab's parameters print.

use super::Lab;
use crate::link::embed::ViewOptions;
use crate::link::query::{LinkParams, Query};

/// The keys `P` prints at its defaults, with their values, `lab` left out.
pub(super) fn printed<P: LinkParams>() -> Vec<(String, String)> {
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
    /// The keys this lab's parameters print at their defaults, in their order (checked against
    /// [`Lab::defaults`] by a test).
    pub fn printed_keys(self) -> &'static [&'static str] {
        self.info().printed_keys
    }

    /// Keys this lab reads that its parameters print only when set.
    pub fn optional_keys(self) -> &'static [&'static str] {
        self.info().optional_keys
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
            assert!(
                matches!(lab, Lab::About | Lab::Start | Lab::Teach) || !lab.keys().is_empty(),
                "{lab:?}"
            );
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
