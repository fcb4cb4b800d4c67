//! The Chernoff window of a composition: the grid points outside which at most `tail` of the composed
//! mass lies, so the FFT need only hold those.

use super::Pld;

/// The grid points a composition keeps, relative to the sum of its parts' lower ends: all but `tail`
/// of the composed mass lies in `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(super) lo: i64,
    pub(super) hi: i64,
}

impl Window {
    /// The Chernoff window of `parts` composed (see [`window_from`]).
    pub(crate) fn of(parts: &[(&Pld, u64)], tail: f64) -> Window {
        let parts: Vec<(&Pld, u64)> = parts.iter().copied().filter(|(_, k)| *k > 0).collect();
        let span: i64 = parts
            .iter()
            .map(|(p, k)| (p.probs.len() as i64 - 1) * *k as i64)
            .sum::<i64>()
            + 1;
        let longest = parts.iter().map(|(p, _)| p.probs.len()).max().unwrap_or(1);
        let ln_mgf = |lambda: f64| {
            let step = lambda.exp();
            let mut ln_mgf = 0.0;
            for (pld, times) in &parts {
                ln_mgf += *times as f64 * mgf(&pld.probs, step).ln();
            }
            ln_mgf
        };
        let (lo, hi) = window_from(ln_mgf, longest, span, tail);
        Window { lo, hi }
    }

    /// [`Window::of`] for `pld` composed each of `counts` times (each > 0): a self-composition's
    /// ln MGF is the count times the PLD's, so each λ's MGF is computed once for every count.
    pub(crate) fn each(pld: &Pld, counts: &[u64], tail: f64) -> Vec<Window> {
        let mut known: Vec<(f64, f64)> = Vec::new();
        counts
            .iter()
            .map(|&t| {
                let span = (pld.probs.len() as i64 - 1) * t as i64 + 1;
                let ln_mgf = |lambda: f64| {
                    let one = match known.iter().find(|(l, _)| *l == lambda) {
                        Some(&(_, m)) => m,
                        None => {
                            let m = mgf(&pld.probs, lambda.exp()).ln();
                            known.push((lambda, m));
                            m
                        }
                    };
                    t as f64 * one
                };
                let (lo, hi) = window_from(ln_mgf, pld.probs.len(), span, tail);
                Window { lo, hi }
            })
            .collect()
    }

    /// How many grid points it holds.
    pub(crate) fn points(self) -> f64 {
        (self.hi - self.lo + 1) as f64
    }
}

/// Σ p_i step^i, with |ln step · i| ≤ 20 so that it cannot overflow. The powers come from running
/// products in four interleaved lanes (one chain of products waited on each multiplication: a tenth
/// of a band's time); each lane's error is a few ulps per thousand points, far below what moves the
/// window's rounded ends.
fn mgf(probs: &[f64], step: f64) -> f64 {
    let step4 = step * step * step * step;
    let mut power = [1.0, step, step * step, step * step * step];
    let mut sums = [0.0; 4];
    let mut chunks = probs.chunks_exact(4);
    for chunk in &mut chunks {
        for lane in 0..4 {
            sums[lane] += chunk[lane] * power[lane];
            power[lane] *= step4;
        }
    }
    for (lane, &p) in chunks.remainder().iter().enumerate() {
        sums[lane] += p * power[lane];
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3])
}

/// How many λ each side of the window is bounded at.
const LAMBDAS: usize = 38;

/// |λ|·`longest` for the λ at which [`window_from`] bounds each tail, increasing: 2^{−18} … 2^{−1},
/// then 1 … 20.
fn scales() -> [f64; LAMBDAS] {
    let mut s = [0.0; LAMBDAS];
    for (i, x) in s.iter_mut().enumerate() {
        *x = if i < 18 {
            0.5f64.powi(18 - i as i32)
        } else {
            f64::from(i as u32 - 17)
        };
    }
    s
}

/// The window (relative to the sum of the parts' lower ends) outside which at most `tail` of the
/// composed mass lies, for a composed span of `span` points whose ln MGF at λ is `ln_mgf(λ)`.
///
/// # Formula
/// Chernoff: P[S ≥ b] ≤ M(λ)e^{−λb} for λ > 0, so the upper end is min_λ ⌈(ln M(λ) + ln(2/tail))/λ⌉
/// (and the lower end mirrored, at λ < 0), over λ = ±k/span' (k = 1 … 20, as dp_accounting's
/// common.py, span' the longest part) and also ±2^{−j}/span' down to 2^{−18}: the best λ for T
/// compositions is about T^{−1/2} times smaller, and without those the window of `lap:0.01*100000`
/// came out ~40× too wide (the grid was widened to match, and the band with it).
///
/// Each side's bound f(λ) = (ln M(λ) + c)/λ is unimodal in |λ|: f'(λ) = g(λ)/λ² with
/// g = λ·(ln M)' − ln M − c, and g' = λ·(ln M)'' has λ's sign (ln M is convex), so f falls, then
/// rises. So a ternary search over the sorted candidates finds the least (14 or so MGFs per side
/// instead of 38: the window was a tenth of a band's time). Any λ gives a certified bound; rounding
/// that broke the unimodality at the last digits could only pick a neighbouring λ, still certified.
fn window_from(
    mut ln_mgf: impl FnMut(f64) -> f64,
    longest: usize,
    span: i64,
    tail: f64,
) -> (i64, i64) {
    let longest = longest.max(2) as f64;
    let scales = scales();
    let c = (2.0 / tail).ln();
    let finite = |b: f64| if b.is_finite() { b } else { f64::INFINITY };
    let least_upper = least_of_unimodal(|i| {
        let lambda = scales[i] / longest;
        finite((ln_mgf(lambda) + c) / lambda)
    });
    // At λ < 0 the bound is a lower end, the larger the better: the least of its negation.
    let least_negated_lower = least_of_unimodal(|i| {
        let lambda = -scales[i] / longest;
        finite(-((ln_mgf(lambda) + c) / lambda))
    });
    let upper = (span - 1).min(least_upper.ceil() as i64);
    let lower = 0i64.max((-least_negated_lower).floor() as i64);
    (lower, upper.max(lower))
}

/// The least of `f` over 0..[`LAMBDAS`], for `f` non-increasing, then non-decreasing (ternary
/// search, each point evaluated at most once).
fn least_of_unimodal(mut f: impl FnMut(usize) -> f64) -> f64 {
    let mut memo = [None; LAMBDAS];
    let mut at = |i: usize| *memo[i].get_or_insert_with(|| f(i));
    let (mut lo, mut hi) = (0, LAMBDAS - 1);
    while hi - lo > 2 {
        let (m1, m2) = (lo + (hi - lo) / 3, hi - (hi - lo) / 3);
        // The least is left of m2 when f(m1) ≤ f(m2) (else f would rise, then fall), and right of
        // m1 otherwise.
        if at(m1) <= at(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo..=hi).map(at).fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::{Direction, Side};

    /// The window as first computed: every λ's bound, the least kept.
    fn exhaustive(ln_mgf: impl Fn(f64) -> f64, longest: usize, span: i64, tail: f64) -> (i64, i64) {
        let longest = longest.max(2) as f64;
        let (mut upper, mut lower) = (span - 1, 0i64);
        for scale in scales() {
            for lambda in [scale / longest, -scale / longest] {
                let bound = (ln_mgf(lambda) + (2.0 / tail).ln()) / lambda;
                if !bound.is_finite() {
                    continue;
                }
                if lambda > 0.0 {
                    upper = upper.min(bound.ceil() as i64);
                } else {
                    lower = lower.max(bound.floor() as i64);
                }
            }
        }
        (lower, upper.max(lower))
    }

    #[test]
    fn the_search_finds_every_candidates_window() {
        let mut checked = 0;
        for (q, sigma, h) in [
            (0.01, 1.0, 6e-4),
            (0.004, 1.1, 1e-4),
            (0.3, 0.5, 1e-3),
            (1.0, 2.0, 1e-3),
        ] {
            for direction in [Direction::Remove, Direction::Add] {
                let pld =
                    Pld::subsampled_gaussian(q, sigma, direction, h, 1e-16, Side::Upper).unwrap();
                let counts = [1u64, 2, 10, 300, 14_063, 100_000, 10_000_000];
                let each = Window::each(&pld, &counts, 1e-15);
                for (&t, w) in counts.iter().zip(each) {
                    let span = (pld.probs.len() as i64 - 1) * t as i64 + 1;
                    let ln_mgf = |l: f64| t as f64 * mgf(&pld.probs, l.exp()).ln();
                    let want = exhaustive(ln_mgf, pld.probs.len(), span, 1e-15);
                    assert_eq!((w.lo, w.hi), want, "q {q} σ {sigma} {direction:?} T {t}");
                    let alone = Window::of(&[(&pld, t)], 1e-15);
                    assert_eq!(
                        (alone.lo, alone.hi),
                        want,
                        "q {q} σ {sigma} {direction:?} T {t}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 56);
    }

    #[test]
    fn scales_increase_from_two_to_the_minus_eighteen_to_twenty() {
        let s = scales();
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            (s[0], s[17], s[18], s[37]),
            (0.5f64.powi(18), 0.5, 1.0, 20.0)
        );
    }
}
