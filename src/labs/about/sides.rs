//! Which side every number on the page errs on: the About page's table. A privacy number that is
//! neither exact nor a certified bound must say so; this list is where it does.

use crate::labs::Lab;

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

/// One number a lab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberSide {
    /// The lab.
    pub lab: Lab,
    /// The number as the page labels it.
    pub number: &'static str,
    /// Which side it errs on.
    pub side: Side,
    /// Why, in a sentence.
    pub why: &'static str,
}

const fn n(lab: Lab, number: &'static str, side: Side, why: &'static str) -> NumberSide {
    NumberSide {
        lab,
        number,
        side,
        why,
    }
}

/// Every key number, by lab.
pub const SIDES: &[NumberSide] = &[
    n(Lab::RandomizedResponse, "p, q, e^ε", Side::Exact, "Closed forms, computed without overflow."),
    n(Lab::RandomizedResponse, "estimate π̂ and the 95% interval", Side::Estimate, "Unbiased estimate; Wald interval (normal approximation with a plug-in standard error)."),
    n(Lab::RandomizedResponse, "standard error (i.i.d. and fixed population)", Side::Exact, "Binomial and Poisson-binomial variances over the squared gap."),
    n(Lab::RandomizedResponse, "spread over repeated surveys", Side::Estimate, "Monte Carlo from the link's seed."),
    n(Lab::Mechanisms, "δ(ε) of Laplace, Gaussian, truncated Laplace", Side::Exact, "Closed-form privacy profiles, in log space where δ is tiny."),
    n(Lab::Mechanisms, "analytic Gaussian σ", Side::Upper, "Bisection returns the upper end, with the evaluation's own rounding bound added."),
    n(Lab::Mechanisms, "classical and lecture σ", Side::Upper, "Proved only for ε ≤ 1 (the lab says so when ε > 1)."),
    n(Lab::Mechanisms, "many-queries error", Side::Estimate, "Monte Carlo from the seed."),
    n(Lab::Compose, "basic, advanced composition", Side::Upper, "Theorems applied in closed form to every count."),
    n(Lab::Compose, "optimal, k identical (Kairouz–Oh–Viswanath)", Side::Upper, "Exact for randomized response, an upper bound for any other (ε, δ) mechanism; rounded up."),
    n(Lab::Compose, "RDP and zCDP ε", Side::Upper, "Conversions of exact Rényi curves (fractional subsampled-Gaussian orders rounded up), minimised over every real order; the grid value beside it."),
    n(Lab::Compose, "PLD, certified upper", Side::Upper, "Connect-the-dots discretization dominates the true PLD; truncated mass counts at +∞ and the FFT's noise floor is added to every point."),
    n(Lab::Compose, "PLD, lower bound", Side::Lower, "Chords lowered below the convex profile; truncated mass dropped and the FFT's noise floor subtracted. Known slack: where a loss atom falls within h/1024 below a grid point, the lower ε can exceed the exact one by ~1e-8 relative (the upper bound is unaffected)."),
    n(Lab::Dpsgd, "ε, RDP accountant (any real order)", Side::Upper, "Exact integer-order sums; fractional orders by integration with twice its error estimate added (for very small σ, where the integral would cost seconds, the series of |terms| rounded up); minimised over continuous α."),
    n(Lab::Dpsgd, "ε, RDP on dp_accounting's orders", Side::Upper, "Its grid of orders and its fractional-order series of |terms| (an upper bound, looser), for comparison."),
    n(Lab::Dpsgd, "ε, PLD (certified upper) and PLD lower bound", Side::Upper, "As in the composition lab: the exact ε lies between the two."),
    n(Lab::Dpsgd, "σ for the target ε (RDP and PLD)", Side::Upper, "The search only ever returns a σ whose certified ε was checked to meet the target (never overshoots)."),
    n(Lab::Dpsgd, "the lecture's scenarios", Side::Exact, "Closed forms, with the slides' typos corrected."),
    n(Lab::Attack, "β at α and the drawn curve (certified)", Side::Lower, "From the dominating PLD: the attacker's false-negative rate is never below it."),
    n(Lab::Attack, "β at α, optimistic", Side::Estimate, "From the dominated PLD; the exact curve lies between the two."),
    n(Lab::Attack, "TPR at FPR, advantage, posterior success", Side::Upper, "Read from the dominating PLD (advantage = δ(0))."),
    n(Lab::Attack, "σ for an advantage or TPR target", Side::Upper, "The search returns only σ's checked to meet the target."),
    n(Lab::Attack, "central-limit μ (Bu et al.)", Side::Estimate, "An approximation that can under-state the risk; drawn with a warning."),
    n(Lab::Attack, "audit ε", Side::Lower, "What the counts prove at the stated confidence (Clopper–Pearson)."),
    n(Lab::Wdp, "BDP, WDP and DP curves", Side::Estimate, "The paper's accountants as the spec states them, on a seeded synthetic run."),
    n(Lab::Tangent, "norm ranges", Side::Exact, "Certified lower and upper ends where no closed form exists (each side labelled)."),
    n(Lab::Tangent, "Monte Carlo and Langevin", Side::Estimate, "Shown with their simultaneous error."),
    n(Lab::Train, "ε after the steps run (PLD, certified upper; RDP)", Side::Upper, "The DP-SGD lab's accountants on the same q, σ, T, δ: the training runs the mechanism they account for (Poisson sampling, clipping to C, noise σC on the sum, the expected batch size as normaliser)."),
    n(Lab::Train, "steps when stopping at the target", Side::Upper, "The most steps whose RDP ε (a certified upper bound) is within the target: the run never passes it."),
    n(Lab::Train, "accuracies and losses", Side::Estimate, "Measured on the link's seeded split; the sweep's spread is over training seeds, the data and split fixed."),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::Lab;

    #[test]
    fn every_lab_with_numbers_is_listed() {
        for lab in Lab::ALL {
            if lab.key() != "about" {
                assert!(SIDES.iter().any(|s| s.lab == lab), "{}", lab.key());
            }
        }
    }
}
