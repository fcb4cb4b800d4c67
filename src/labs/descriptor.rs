//! What the shell knows of a lab, in one place per lab (its folder's `info.rs`): its [`LabInfo`], and
//! for the About page its formulas and which side each of its numbers errs on.

use crate::jobs::WorkerModule;
use crate::labs::{Lab, WorkerOnLoad};

/// What the shell needs to know of a lab, in one place (its folder's `info.rs`).
#[derive(Debug, Clone, Copy)]
pub struct LabInfo {
    /// Whether its first numbers come from the worker pool.
    pub worker_on_load: WorkerOnLoad,
    /// The worker module holding every job it posts (`None`: it posts none).
    pub worker: Option<WorkerModule>,
    /// Its keys whose meaning is the same in every other lab that lists them ([`Lab::shared_keys`]).
    pub shared_keys: &'static [&'static str],
    /// The keys its parameters print at their defaults, in their order (a test holds it to
    /// [`Lab::defaults`]).
    pub printed_keys: &'static [&'static str],
    /// Keys it reads that its parameters print only when set.
    pub optional_keys: &'static [&'static str],
    /// A sensible starting height (CSS pixels) for an embedded view.
    pub embed_height: u32,
}

/// One formula as the About page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formula {
    /// What it computes.
    pub name: &'static str,
    /// The formula in plain Unicode.
    pub formula: &'static str,
    /// Paper and theorem, slide or closed form it comes from.
    pub source: &'static str,
    /// How it is computed (rounding, stability), where it matters.
    pub note: &'static str,
}

/// How a number relates to the truth it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Exact up to floating-point rounding (a closed form or a finite sum).
    Exact,
    /// A certified upper bound: the truth is never above it (rounding included).
    Upper,
    /// A certified lower bound: the truth is never below it.
    Lower,
    /// An estimate (a simulation, a normal approximation, or a formula as a paper states it).
    Estimate,
}

impl Side {
    /// The table's wording.
    pub fn label(self) -> &'static str {
        match self {
            Side::Exact => "exact (to rounding)",
            Side::Upper => "upper bound (certified)",
            Side::Lower => "lower bound (certified)",
            Side::Estimate => "estimate",
        }
    }
}

/// One number a lab shows, and which side it errs on. A privacy number that is neither exact nor a
/// certified bound must say so; its lab's list is where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberSide {
    /// The number as the page labels it.
    pub number: &'static str,
    /// Which side it errs on.
    pub side: Side,
    /// Why, in a sentence.
    pub why: &'static str,
}

/// A [`NumberSide`], written short in the labs' tables.
pub const fn n(number: &'static str, side: Side, why: &'static str) -> NumberSide {
    NumberSide { number, side, why }
}

/// What the About page lists of one lab.
#[derive(Debug, Clone, Copy)]
pub struct LabAbout {
    /// The lab.
    pub lab: Lab,
    /// The formulas it uses.
    pub formulas: &'static [Formula],
    /// Which side each of its key numbers errs on.
    pub sides: &'static [NumberSide],
}
