//! The About page (`?lab=about`): every formula the playground uses with its source, and which side
//! every number on the page errs on. Each lab keeps its own in its `info.rs`
//! ([`crate::labs::descriptor`]); [`crate::labs::ABOUT`] lists them in the navigation's order.

pub mod info;

use crate::link::query::{LinkParams, Notice, Query};

/// The About page reads no keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AboutParams;

impl LinkParams for AboutParams {
    fn from_query(_: &Query) -> (Self, Vec<Notice>) {
        (AboutParams, Vec::new())
    }

    fn to_query(&self) -> Query {
        Query::default().with("lab", "about")
    }
}

/// The parameters this lab reads from its link (none).
pub type Params = AboutParams;

#[cfg(test)]
mod tests {
    use crate::labs::{Lab, ABOUT};

    #[test]
    fn every_lab_with_numbers_is_listed() {
        assert_eq!(ABOUT.len(), Lab::ALL.len());
        for (entry, lab) in ABOUT.iter().zip(Lab::ALL) {
            assert_eq!(entry.lab, lab);
            if !matches!(lab, Lab::About | Lab::Start | Lab::Teach) {
                assert!(
                    !entry.sides.is_empty() && !entry.formulas.is_empty(),
                    "{}",
                    lab.key()
                );
            }
        }
    }
}
