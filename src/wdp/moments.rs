//! Raw absolute moments E|Z|^μ of a normal variable, through Kummer's confluent hypergeometric function,
//! in log space. No well-kept Rust crate evaluates ₁F₁ (statrs and special have none), so the two series
//! below are written by hand.

use statrs::function::gamma::ln_gamma;

/// Largest order μ the moment accepts. The convergent series needs about 16μ² terms at worst, so μ = 256
/// costs about a million multiply-adds.
pub const MAX_ORDER: f64 = 256.0;

/// ln ₁F₁(a; b; x) for a > b > 0 and x ≥ 0, by its power series Σ (a)_k/(b)_k · x^k/k!.
///
/// Every term is positive, so the sum has no cancellation; terms are kept relative to a running scale so
/// they never overflow. After the largest term the ratio r_k = (a+k)x/((b+k)(k+1)) falls monotonically, so
/// once r_k < 1 the rest of the series is at most t_k·r_k/(1 − r_k), and the loop stops when that is below
/// 1e-17 of the sum (the result then errs low by less than 1e-17 relatively, far below rounding).
fn ln_kummer_series(a: f64, b: f64, x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let (mut ln_scale, mut term, mut sum) = (0.0_f64, 1.0_f64, 1.0_f64);
    // About x + 40√x + 100 terms are needed; the cap only guards against a caller outside the domain.
    let cap = (x + 60.0 * x.sqrt() + 200.0).min(5e7) as u64;
    for k in 0..cap {
        let k = k as f64;
        let ratio = (a + k) * x / ((b + k) * (k + 1.0));
        term *= ratio;
        sum += term;
        if sum > 1e250 {
            ln_scale += sum.ln();
            term /= sum;
            sum = 1.0;
        }
        if ratio < 1.0 && term * ratio < 1e-17 * sum * (1.0 - ratio) {
            break;
        }
    }
    ln_scale + sum.ln()
}

/// ln E|Z|^μ for Z ~ N(m, s²), μ ∈ (0, 256], s > 0, m finite. NaN outside the domain.
///
/// # Formula
/// Winkelbauer (2012), eq. (17), as Lemma 1 of Yang, Qi & Zhou (AAAI 2024) states it:
/// E|Z|^μ = (2s²)^{μ/2} · Γ((μ+1)/2)/√π · ₁F₁(−μ/2; ½; −x),  x = m²/(2s²).
/// ₁F₁ of a negative argument is evaluated through Kummer's transformation
/// ₁F₁(−μ/2; ½; −x) = e^{−x} · ₁F₁((μ+1)/2; ½; x) (DLMF 13.2.39), whose series has only positive terms.
/// For x ≥ max(2000, 16μ²) it uses the large-x expansion (DLMF 13.7.2), which in this case reads
/// E|Z|^μ = |m|^μ · Σ_k (−μ/2)_k ((1−μ)/2)_k / k! · x^{−k}; its terms shrink by at least μ²/(4x) ≤ 1/64
/// until k ≈ x, where they are far below rounding. Both branches are accurate to about 1e-13 relatively
/// (tested against mpmath); the result is neither rounded up nor down on purpose.
pub fn ln_abs_moment(mu: f64, m: f64, s: f64) -> f64 {
    match AbsMoment::new(mu, s) {
        Some(moment) => moment.ln_at(m),
        None => f64::NAN,
    }
}

/// E|Z|^μ for Z ~ N(m, s²) with μ and s fixed and m varying: the constant factor computed once, for
/// the accountant's thousands of pairs per step. See [`ln_abs_moment`] for the formula.
#[derive(Debug, Clone, Copy)]
pub struct AbsMoment {
    mu: f64,
    s: f64,
    /// (μ/2)·ln(2s²) + ln Γ((μ+1)/2) − ½ ln π.
    ln_factor: f64,
    /// Where the large-x expansion takes over.
    switch: f64,
}

impl AbsMoment {
    /// `None` unless μ ∈ (0, 256] and s is finite and > 0.
    pub fn new(mu: f64, s: f64) -> Option<Self> {
        if !(mu > 0.0 && mu <= MAX_ORDER && s > 0.0 && s.is_finite()) {
            return None;
        }
        let a = 0.5 * (mu + 1.0);
        let ln_factor =
            0.5 * mu * (2.0 * s * s).ln() + ln_gamma(a) - 0.5 * std::f64::consts::PI.ln();
        Some(AbsMoment {
            mu,
            s,
            ln_factor,
            switch: (16.0 * mu * mu).max(2000.0),
        })
    }

    /// ln E|Z|^μ at mean m (NaN for a non-finite m).
    pub fn ln_at(&self, m: f64) -> f64 {
        if !m.is_finite() {
            return f64::NAN;
        }
        let x = 0.5 * (m / self.s) * (m / self.s);
        if x >= self.switch {
            return self.mu * m.abs().ln() + large_x_series(self.mu, x).ln();
        }
        self.ln_factor - x + ln_kummer_series(0.5 * (self.mu + 1.0), 0.5, x)
    }
}

/// Σ_k (−μ/2)_k ((1−μ)/2)_k / k! · x^{−k}, summed while the terms shrink, stopping below 1e-17.
fn large_x_series(mu: f64, x: f64) -> f64 {
    let (a, b) = (-0.5 * mu, 0.5 * (1.0 - mu));
    let (mut term, mut sum) = (1.0_f64, 1.0_f64);
    for k in 0..10_000 {
        let k = k as f64;
        let next = term * (a + k) * (b + k) / ((k + 1.0) * x);
        if next.abs() >= term.abs() && k > 0.0 {
            break;
        }
        term = next;
        sum += term;
        if term.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum
}

/// E|Z|^μ for Z ~ N(m, s²) (may overflow to ∞ where [`ln_abs_moment`] does not).
pub fn abs_moment(mu: f64, m: f64, s: f64) -> f64 {
    ln_abs_moment(mu, m, s).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, rel: f64) -> bool {
        ((got - want) / want).abs() < rel
    }

    /// The spec's check values (`shared/specs/wdp-figures.md`, 10 significant digits).
    #[test]
    fn spec_check_values() {
        for (mu, m, s, want) in [
            (1.0, 0.0, 1.0, 0.797_884_560_8),
            (2.0, 1.0, 1.0, 2.0),
            (2.5, 0.3, 0.7, 0.622_555_713_5),
            (4.0, 2.0, 0.5, 22.1875),
            (7.3, 3.0, 1.5, 53_395.556_77),
            (16.0, 1.0, 0.4, 2_692.931_538),
        ] {
            let got = abs_moment(mu, m, s);
            assert!(
                close(got, want, 2e-10),
                "E|N({m},{s}²)|^{mu} = {got}, want {want}"
            );
        }
    }

    /// Closed forms: even moments are polynomials (E Z² = m² + s², E Z⁴ = m⁴ + 6m²s² + 3s⁴), and for
    /// m = 0, E|Z|^μ = s^μ 2^{μ/2} Γ((μ+1)/2)/√π exactly.
    #[test]
    fn closed_forms_on_both_branches() {
        for (m, s) in [
            (0.5, 1.0),
            (3.0, 0.01),
            (1e3, 1.0),
            (-40.0, 0.2),
            (1e-3, 0.3),
        ] {
            let (m2, s2) = (m * m, s * s);
            assert!(
                close(abs_moment(2.0, m, s), m2 + s2, 1e-12),
                "μ=2 m={m} s={s}"
            );
            let fourth = m2 * m2 + 6.0 * m2 * s2 + 3.0 * s2 * s2;
            assert!(
                close(abs_moment(4.0, m, s), fourth, 1e-12),
                "μ=4 m={m} s={s}"
            );
        }
        for mu in [0.5, 1.0, 3.3, 16.0, 64.0] {
            let want =
                0.5 * mu * 2f64.ln() + ln_gamma(0.5 * (mu + 1.0)) - 0.5 * std::f64::consts::PI.ln();
            assert!((ln_abs_moment(mu, 0.0, 1.0) - want).abs() < 1e-13);
        }
    }

    /// mpmath 1.3 at 60 digits (`scripts/reference/wdp.py`, checked there against quadrature): ln E|Z|^μ
    /// across both branches, orders up to 64 and x from 1e-5 to 5.6e10.
    #[test]
    fn matches_mpmath() {
        for (mu, m, s, want) in [
            (1.0, 0.001, 0.28, -1.498_750_650_933_709_6),
            (2.5, 0.3, 0.7, -0.473_922_155_052_877_5),
            (16.0, 0.002, 0.2828, -5.685_765_696_351_591),
            (16.0, 5.0, 1.0, 29.029_592_410_252_22),
            (16.0, 80.0, 1.0, 70.131_133_829_708_1),
            (33.3, 12.0, 0.5, 83.633_730_077_846),
            (64.0, 1.0, 1.0, 108.521_910_496_057_05),
            (64.0, 60.0, 1.0, 262.588_599_608_781_2),
            (64.0, 400.0, 1.0, 383.466_326_096_217_23),
            (64.0, 362.0, 1.0, 377.080_606_371_122_24),
            (64.0, 10000.0, 2.0, 589.461_864_446_274_1),
            (7.0, 1_000_000.0, 3.0, 96.708_573_905_938_92),
        ] {
            let got = ln_abs_moment(mu, m, s);
            assert!(
                (got - want).abs() < 1e-12 * want.abs().max(1.0),
                "ln E|N({m},{s}²)|^{mu} = {got}, want {want}"
            );
        }
    }

    /// Continuity where the large-x expansion takes over (x = 16μ²): both sides agree to 1e-12.
    #[test]
    fn branches_meet() {
        for mu in [1.0_f64, 7.5, 16.0, 64.0] {
            let s = 1.0;
            let edge = (2.0 * (16.0 * mu * mu).max(2000.0)).sqrt();
            let below = ln_abs_moment(mu, edge * (1.0 - 1e-12), s);
            let above = ln_abs_moment(mu, edge * (1.0 + 1e-12), s);
            assert!(
                (below - above).abs() < 1e-12 * below.abs().max(1.0),
                "μ = {mu}: {below} vs {above}"
            );
        }
    }

    /// Finite for μ up to 64 and large arguments, where the plain series would overflow.
    #[test]
    fn finite_in_log_space_for_large_orders_and_arguments() {
        for mu in [1.0, 16.0, 32.0, 64.0, 256.0] {
            for m in [0.0, 1.0, 30.0, 1e3, 1e8, 1e150] {
                let v = ln_abs_moment(mu, m, 0.5);
                assert!(v.is_finite(), "μ = {mu}, m = {m}: {v}");
            }
        }
        // E|Z|^64 at m = 1e150 is about 1e9600: no f64 holds it, its log is exact enough.
        assert!((ln_abs_moment(64.0, 1e150, 1.0) - 64.0 * 1e150f64.ln()).abs() < 1e-9);
    }

    #[test]
    fn refuses_outside_the_domain() {
        for (mu, m, s) in [
            (0.0, 1.0, 1.0),
            (-1.0, 1.0, 1.0),
            (300.0, 1.0, 1.0),
            (f64::NAN, 1.0, 1.0),
            (2.0, f64::INFINITY, 1.0),
            (2.0, 1.0, 0.0),
            (2.0, 1.0, f64::NAN),
        ] {
            assert!(ln_abs_moment(mu, m, s).is_nan());
        }
    }
}
