//! The one root finder and the one minimiser the crate uses: bisection of a monotone predicate that
//! returns the whole bracket, and golden-section search. Hand-written: no well-kept crate returns the
//! bracket (roots and argmin return a point), and only the bracket lets each caller take the end that
//! keeps its guarantee. Every caller says which end it takes and why that end is the safe one.

use std::convert::Infallible;

/// How a bracket is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// The arithmetic midpoint ½(lo + hi).
    Middle,
    /// The geometric midpoint √(lo·hi), for a positive bracket spanning orders of magnitude (a σ).
    Geometric,
}

/// When a bisection stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Until {
    /// After this many halvings.
    Steps(u32),
    /// Once hi/lo − 1 ≤ this (a positive bracket).
    Ratio(f64),
    /// Once no float lies strictly between lo and hi, or after this many halvings.
    Adjacent(u32),
}

/// A bracket [lo, hi] of a monotone predicate: `above(lo)` was false and `above(hi)` true, as far as
/// the halvings saw. The root lies inside; which end a caller returns decides which way it errs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bracket {
    /// The end where the predicate is false.
    pub lo: f64,
    /// The end where the predicate is true.
    pub hi: f64,
}

/// Bisects [lo, hi] for a predicate that is false below a point and true above it: each midpoint
/// where `above` is true becomes hi, any other (NaN included) lo. The caller brackets first; the
/// ends are never evaluated here.
///
/// ```
/// use dp_playground::numerics::roots::{bisect, Split, Until};
/// // √2: the smallest x with x² ≥ 2. hi always satisfies the predicate, lo never does.
/// let b = bisect(1.0, 2.0, Split::Middle, Until::Steps(60), |x| x * x >= 2.0);
/// assert!(b.hi * b.hi >= 2.0 && b.lo * b.lo < 2.0 && b.hi - b.lo < 1e-15);
/// ```
pub fn bisect(
    lo: f64,
    hi: f64,
    split: Split,
    until: Until,
    mut above: impl FnMut(f64) -> bool,
) -> Bracket {
    match try_bisect(lo, hi, split, until, |x| Ok::<_, Infallible>(above(x))) {
        Ok(b) => b,
        Err(never) => match never {},
    }
}

/// [`bisect`] for a predicate that can fail: the first error ends the search.
///
/// # Errors
/// The predicate's first error.
pub fn try_bisect<E>(
    mut lo: f64,
    mut hi: f64,
    split: Split,
    until: Until,
    mut above: impl FnMut(f64) -> Result<bool, E>,
) -> Result<Bracket, E> {
    let mut steps = 0u32;
    loop {
        let more = match until {
            Until::Steps(n) | Until::Adjacent(n) => steps < n,
            Until::Ratio(r) => hi / lo - 1.0 > r,
        };
        if !more {
            break;
        }
        let mid = match split {
            Split::Middle => 0.5 * (lo + hi),
            // √lo·√hi, not √(lo·hi): the product overflows to ∞ beyond 1e154 (the analytic
            // Gaussian σ at ε = 1e-300 looped for ever on a midpoint of ∞).
            Split::Geometric => lo.sqrt() * hi.sqrt(),
        };
        // No float left between the ends: nothing more to split, whatever the stopping rule.
        if mid <= lo || mid >= hi || mid.is_nan() {
            break;
        }
        if above(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
        steps += 1;
    }
    Ok(Bracket { lo, hi })
}

/// Where a decreasing `g` crosses 0 in [lo, hi], given the ends with their values (lo, g(lo) > 0) and
/// (hi, g(hi) ≤ 0), which callers have from finding the bracket: the Illinois variant of
/// regula falsi (Dowell & Jarratt, BIT 1971). Each step tries the secant point and keeps the bracket
/// (lo where g > 0, hi where g ≤ 0); an end kept twice running has its value halved, so the bracket
/// shrinks superlinearly for a smooth g where [`bisect`] halves it once per call. A secant point
/// within tol/2 of an end moves to that distance (so that it can close the bracket); one outside the
/// bracket, or a non-finite value, falls back to the midpoint. Stops once
/// hi − lo ≤ `tol`·|hi| or after `max_calls` calls of g.
///
/// ```
/// use dp_playground::numerics::roots::illinois;
/// let mut calls = 0;
/// let b = illinois((1.0, 1.0), (2.0, -2.0), 1e-12, 100, |x| { calls += 1; 2.0 - x * x });
/// assert!(b.lo * b.lo < 2.0 && b.hi * b.hi >= 2.0 && b.hi - b.lo < 1e-11 && calls < 20);
/// ```
pub fn illinois(
    (mut lo, mut g_lo): (f64, f64),
    (mut hi, mut g_hi): (f64, f64),
    tol: f64,
    max_calls: u32,
    mut g: impl FnMut(f64) -> f64,
) -> Bracket {
    // Which end the last step moved: -1 lo, 1 hi.
    let mut moved = 0;
    for _ in 0..max_calls {
        if hi - lo <= tol * hi.abs() {
            break;
        }
        let secant = hi - g_hi * (hi - lo) / (g_hi - g_lo);
        let x = if secant > lo && secant < hi && secant.is_finite() {
            // A secant point within half the tolerance of an end moves to that distance: if the
            // secant was right, the call lands across the root and closes the bracket, where a point
            // on the same side would leave the far end to be brought in by further calls.
            // (max/min rather than clamp: a NaN tolerance must not panic.)
            let close = 0.5 * tol * hi.abs();
            secant.max(lo + close).min(hi - close)
        } else {
            0.5 * (lo + hi)
        };
        let gx = g(x);
        if gx > 0.0 {
            (lo, g_lo) = (x, gx);
            if moved == -1 {
                g_hi *= 0.5;
            }
            moved = -1;
        } else {
            (hi, g_hi) = (x, gx);
            if moved == 1 {
                g_lo *= 0.5;
            }
            moved = 1;
        }
        if !(g_lo.is_finite() && g_hi.is_finite()) {
            // Fall back to halving: a secant through an infinite end is meaningless.
            (g_lo, g_hi) = (1.0, -1.0);
        }
    }
    Bracket { lo, hi }
}

/// The smallest integer in (lo, hi] where a monotone predicate holds, given that it fails at lo and
/// holds at hi: [`bisect`] on the integers, for counts (k queries).
pub fn bisect_integer(mut lo: usize, mut hi: usize, mut above: impl FnMut(usize) -> bool) -> usize {
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if above(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// A point of a golden-section search: (x, f(x)).
pub type Probe = (f64, f64);

/// Golden-section search for a minimum of `f` on [a, b]: at most `steps` shrinks, stopping once the
/// bracket is narrower than `rel` times its upper end. Returns the two interior probes of the last
/// bracket; the caller compares them with what it already has (any probe is a valid point, the
/// search only looks for a better one).
///
/// ```
/// use dp_playground::numerics::roots::golden_section;
/// let (c, d) = golden_section(|x| (x - 2.0) * (x - 2.0), 0.0, 5.0, 100, 1e-9);
/// assert!((c.0 - 2.0).abs() < 1e-6 && (d.0 - 2.0).abs() < 1e-6);
/// ```
pub fn golden_section(
    mut f: impl FnMut(f64) -> f64,
    a: f64,
    b: f64,
    steps: u32,
    rel: f64,
) -> (Probe, Probe) {
    let golden = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (a, b);
    let (mut c, mut d) = (b - golden * (b - a), a + golden * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..steps {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - golden * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + golden * (b - a);
            fd = f(d);
        }
        if b - a < rel * b {
            break;
        }
    }
    ((c, fc), (d, fd))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At the top of f64's range the geometric midpoint stays finite, and a ratio finer than the
    /// floats allow ends at adjacent floats instead of looping.
    #[test]
    fn bisect_ends_near_the_top_of_the_range_and_below_float_resolution() {
        let b = bisect(1e200, 1e300, Split::Geometric, Until::Ratio(1e-12), |x| {
            x >= 3e250
        });
        assert!(
            b.lo < 3e250 && b.hi >= 3e250 && b.hi / b.lo - 1.0 <= 1e-12,
            "{b:?}"
        );
        let b = bisect(1.0, 2.0, Split::Middle, Until::Ratio(0.0), |x| x >= 1.5);
        assert_eq!((b.lo.next_up(), b.hi), (1.5, 1.5));
    }

    #[test]
    fn bisect_keeps_the_predicate_at_each_end() {
        for split in [Split::Middle, Split::Geometric] {
            for until in [Until::Steps(80), Until::Ratio(1e-13), Until::Adjacent(200)] {
                let b = bisect(1e-3, 1e3, split, until, |x| x.ln() >= 0.3);
                assert!(
                    b.lo.ln() < 0.3 && b.hi.ln() >= 0.3,
                    "{split:?} {until:?}: {b:?}"
                );
                assert!(b.hi / b.lo - 1.0 < 1e-12, "{split:?} {until:?}: {b:?}");
            }
        }
        // Adjacent stops at neighbouring floats.
        let b = bisect(0.0, 1.0, Split::Middle, Until::Adjacent(2000), |x| x >= 0.1);
        assert_eq!(b.hi, 0.1);
        assert_eq!(b.lo, f64::from_bits(0.1f64.to_bits() - 1));
    }

    #[test]
    fn nan_counts_as_below_and_errors_stop_the_search() {
        // A predicate that is NaN-driven (x² − 2 compared with NaN) never moves hi.
        let b = bisect(0.0, 4.0, Split::Middle, Until::Steps(10), |x| {
            (x * f64::NAN) > 0.0
        });
        assert_eq!(b.hi, 4.0);
        let mut calls = 0;
        let r: Result<Bracket, &str> =
            try_bisect(0.0, 1.0, Split::Middle, Until::Steps(50), |_| {
                calls += 1;
                if calls == 3 {
                    Err("stop")
                } else {
                    Ok(true)
                }
            });
        assert_eq!((r, calls), (Err("stop"), 3));
    }

    #[test]
    fn bisect_integer_finds_the_first_true() {
        for first in 2..200 {
            assert_eq!(bisect_integer(1, 256, |k| k >= first), first);
        }
    }

    #[test]
    fn golden_section_finds_a_smooth_minimum() {
        let (c, d) = golden_section(|x| (x - 0.3).powi(2) + 1.0, -1.0, 2.0, 200, 1e-12);
        assert!((c.0 - 0.3).abs() < 1e-6 && (d.0 - 0.3).abs() < 1e-6);
        assert!(c.1 >= 1.0 && d.1 >= 1.0);
    }
}
