//! The shuffle model's bounds against an independent implementation of their definitions
//! (`scripts/reference/shuffle_reference.py`: a 40-digit double sum over every (N0, N1) at small n,
//! and bisection on scipy's binomial tails for ε at δ; values in `tests/reference/shuffle.rs`), and
//! Feldman et al.'s published closed-form value. Upper bounds must never lie below the reference
//! (ours rounds up), lower bounds never above it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// Which number a reference row holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Fmt2021,
    Fmt2023,
    Krr,
    Lower,
    Closed,
}

#[path = "reference/shuffle.rs"]
mod reference;

use dp_playground::mechanisms::randomized_response::shuffle::{
    binary_pair_delta, epsilon_closed_form, epsilon_lower, epsilon_upper, ClonePair, Clones,
};
use reference::{EPS_AT_DELTA, SMALL_N_DELTA};

fn clones(b: Bound) -> Option<Clones> {
    match b {
        Bound::Fmt2021 => Some(Clones::Fmt2021),
        Bound::Fmt2023 => Some(Clones::Fmt2023),
        Bound::Krr => Some(Clones::Krr),
        _ => None,
    }
}

#[test]
fn delta_at_small_n_matches_the_double_sum() {
    for &(n, eps0, k, bound, eps, want) in SMALL_N_DELTA {
        let got = match clones(bound) {
            Some(kind) => ClonePair::new(kind, eps0, k).unwrap().delta(n, eps),
            None => binary_pair_delta(eps0, n, eps),
        };
        // At ε = ε0 the reference's δ is rounding noise below 1e-40 (δ is 0 there). The lower
        // bound's pair loses digits to cancellation (its ε is moved to the safe side for that).
        let what = format!("{bound:?} n {n} ε0 {eps0} K {k} ε {eps}: {got} vs {want}");
        let ulp = 1e-13 * want.abs() + 1e-15;
        if bound == Bound::Lower {
            assert!((got - want).abs() <= 1e-9 * want.abs() + 1e-15, "{what}");
        } else {
            assert!((got - want).abs() <= ulp, "{what}");
        }
    }
}

#[test]
fn epsilon_at_delta_lies_on_the_safe_side_of_the_reference() {
    for &(n, eps0, k, delta, bound, lo, hi) in EPS_AT_DELTA {
        let got = match bound {
            Bound::Closed => epsilon_closed_form(eps0, n, delta),
            Bound::Lower => epsilon_lower(eps0, n, delta),
            b => epsilon_upper(
                ClonePair::new(clones(b).unwrap(), eps0, k).unwrap(),
                n,
                delta,
            ),
        };
        let what = format!("{bound:?} n {n} ε0 {eps0} K {k}: {got} vs [{lo}, {hi}]");
        match bound {
            Bound::Closed => assert!((got - hi).abs() <= 1e-12 * hi, "{what}"),
            Bound::Lower => assert!(got <= lo && got >= lo * (1.0 - 2e-6), "{what}"),
            _ => assert!(got >= hi && got <= hi * (1.0 + 2e-6), "{what}"),
        }
    }
    // Published (Feldman et al. 2021's closed form, as Apple's ml-shuffling-amplification prints it).
    assert!((epsilon_closed_form(4.0, 100_000, 1e-6) - 0.537_804_024_237_451_2).abs() < 1e-12);
}
