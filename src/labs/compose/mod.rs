//! The composition lab (`?lab=compose&list=gauss:3*10,lap:0.2*5&delta=1e-5`): a list of mechanisms, each
//! repeated, and every accountant's ε for the whole list side by side.
//!
//! The accountants are [`crate::accounting::composed`]'s; the entries they compose are
//! [`crate::accounting::entry`].

pub mod info;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = ComposeParams;

#[cfg(test)]
mod audit_tests;
pub mod claims;
pub mod jobs;
#[cfg(test)]
mod tests;

pub use crate::accounting::composed::{accountants, accountants_grid, Accountants, ComposedPld};

use crate::accounting::entry::{format_list, parse_list, Entry, Item};

use crate::link::query::{fmt_f64, LinkParams, Notice, Query, Reader, Within};

/// The lab's parameters.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComposeParams {
    /// The mechanisms.
    pub list: Vec<Item>,
    /// The δ at which every accountant reports ε.
    pub delta: f64,
    /// The PLD grid's width when the link sets one (`grid`, e.g. a finer grid for a narrower band).
    pub grid: Option<f64>,
}

impl ComposeParams {
    /// Why the PLD band can stay wide on any grid, when the list has entries whose two sides come
    /// from different pairs ([`crate::accounting::entry::Entry::sides_apart`]).
    pub fn band_gap(&self) -> Option<String> {
        let apart: Vec<String> = self
            .list
            .iter()
            .filter(|i| i.entry.sides_apart())
            .map(|i| format_list(std::slice::from_ref(i)))
            .collect();
        if apart.is_empty() {
            return None;
        }
        let has = |kind: fn(&Entry) -> bool| {
            self.list
                .iter()
                .any(|i| kind(&i.entry) && i.entry.sides_apart())
        };
        let mut text = format!(
            "Part of this band's width is not the grid's: for {} no tight pair is known, so the exact ε \
             lies somewhere between its sides, and a finer grid will not close the gap.",
            apart.join(", ")
        );
        if has(|e| !matches!(e, Entry::Truncated { .. })) {
            text.push_str(
                " Without replacement, the upper side is Balle, Barthe & Gaboardi's amplification bound \
                 and the lower side a pair that happens (the replaced record's output mixed into its \
                 replacement's).",
            );
        }
        if has(|e| matches!(e, Entry::Truncated { .. })) {
            text.push_str(
                " Truncated Poisson: the upper side is a flagged pair (when the batch is cut, a record \
                 that survives replaces another, moving the sum by up to 2C), the lower side the Poisson \
                 pair at the rate a record ends up in the batch, a pair that happens.",
            );
        }
        Some(text)
    }

    /// Reads a link as [`LinkParams::from_query`] does, but a list that does not parse falls back to
    /// `last` (the last valid list the page showed) instead of the default, and the notice says so: a
    /// typo keeps the user's list on screen.
    pub fn from_query_keeping(query: &Query, last: Option<&[Item]>) -> (Self, Vec<Notice>) {
        let mut r = Reader::new(query);
        let default = last
            .map(<[Item]>::to_vec)
            .unwrap_or_else(|| parse_list("gauss:3*10,lap:0.2*5").unwrap_or_default());
        let show = |list: &Vec<Item>| match last {
            Some(_) => format!("the last valid list, {}", format_list(list)),
            None => format_list(list),
        };
        let list = r.parse_with("list", default, show, parse_list);
        let delta = r.number("delta", 1e-5, Within::below(0.0, 1.0));
        let grid = r.optional_number("grid", Within::up_to(1e-7, 0.1), "using the default grid");
        r.finish(ComposeParams { list, delta, grid })
    }
}

impl LinkParams for ComposeParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        ComposeParams::from_query_keeping(query, None)
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "compose")
            .with("list", format_list(&self.list))
            .with("delta", fmt_f64(self.delta));
        if let Some(g) = self.grid {
            q.set("grid", fmt_f64(g));
        }
        q
    }
}
