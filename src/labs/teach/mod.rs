//! The teaching view (`?lab=teach`): every exercise of [`crate::course`], a problem-set builder and
//! the answer-code reader; with `tasks=` (also on the bare address) the problem set a student answers.
//! It computes nothing of its own: the exercises' maths is in the labs' folders.

pub mod info;

use crate::link::query::{LinkParams, Notice, Query};

/// The teaching view's keys (`tasks`, `seed`, `vary`) are read by the view itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TeachParams;

impl LinkParams for TeachParams {
    fn from_query(_: &Query) -> (Self, Vec<Notice>) {
        (TeachParams, Vec::new())
    }

    fn to_query(&self) -> Query {
        Query::default().with("lab", "teach")
    }
}

/// The parameters this lab reads from its link (none it prints).
pub type Params = TeachParams;
