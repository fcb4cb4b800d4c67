//! The landing view (`?lab=start`, and the bare address): what the playground is and the course path
//! through its labs ([`crate::labs::path`]). It reads no keys and computes nothing.

pub mod info;

use crate::link::query::{LinkParams, Notice, Query};

/// The landing view reads no keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StartParams;

impl LinkParams for StartParams {
    fn from_query(_: &Query) -> (Self, Vec<Notice>) {
        (StartParams, Vec::new())
    }

    fn to_query(&self) -> Query {
        Query::default().with("lab", "start")
    }
}

/// The parameters this lab reads from its link (none).
pub type Params = StartParams;
