//! Tighter Rényi accounting that stays an upper bound: the subsampled Gaussian's RDP at any real order
//! by integration (its fractional-order series, summed as dp_accounting does with |terms|, is up to 1.9×
//! loose and fails outright at orders 1.1–1.6 for q = 0.1, σ ≤ 1), and the RDP → (ε, δ) conversion
//! minimised over continuous α instead of a grid of orders (5% loose at ρ = 0.001 on the default grid).

use super::{ln_a_int, Conversion};
use crate::numerics::roots::golden_section;
use crate::numerics::special::ln_add_exp;

/// Most trapezoid nodes one evaluation of [`ln_a_minus_one`] may use: every order up to 2 for σ ≥ 0.05,
/// up to about 4.5 at σ = 0.1, 60 at σ = 0.5, 1,600 at σ = 1.
pub const MAX_NODES: usize = 8192;

/// ln(A_α − 1) of one Poisson-subsampled Gaussian step at a real order α > 1, rounded up.
///
/// # Formula
/// A_α − 1 = ∫ φ(t) g(u(t)) dt with u = q(e^{t/σ − 1/(2σ²)} − 1) and g(u) = (1 + u)^α − 1 − αu ≥ 0
/// (subtracting αu changes nothing, E\[u\] = 0, and leaves a positive integrand without cancellation):
/// A_α = E_{N(0,σ²)}[((1 − q) + q e^{(2z − 1)/(2σ²)})^α] (Mironov, Talwar & Zhang 2019, §3.3).
///
/// # Method and rounding
/// Trapezoid rule in log space over [−14, α/σ + 14] (the integrand's two bumps sit near 0 and α/σ,
/// each of unit width) with step h = min(0.2, σ/5) and h/2. The integrand is analytic in the strip
/// |Im t| < πσ, so the rule's error falls like e^{−2π²σ/h} ≈ e^{−99}; the estimate |T_h − T_{h/2}| is
/// added twice on the safe side, with 1e-12 relative for rounding and the truncated tails (below
/// e^{−90} of the peak). (An estimated, not proved, discretization error, dwarfed by the margin.)
///
/// # Work
/// (α/σ + 28)/h nodes, which grows like α/σ² as σ shrinks: 10⁷ at σ = 0.001, seconds on the page's
/// thread for each of the order search's ~60 evaluations. Beyond [`MAX_NODES`] the integral is not
/// evaluated and the result is +∞ (no bound from it); [`step_rdp_exact`] then takes the series bound.
pub fn ln_a_minus_one(q: f64, sigma: f64, alpha: f64) -> f64 {
    let h = (sigma / 5.0).min(0.2);
    let (lo, hi) = (-14.0, alpha / sigma + 14.0);
    let nodes = ((hi - lo) / h).ceil();
    if nodes.is_nan() || nodes > MAX_NODES as f64 {
        return f64::INFINITY;
    }
    let n = nodes as usize;
    let shift = 1.0 / (2.0 * sigma * sigma);
    let ln_norm = -0.5 * (2.0 * std::f64::consts::PI).ln();
    let ln_term = |t: f64| -> f64 {
        let x = t / sigma - shift;
        let lg = if x > 30.0 {
            // u = q(e^x − 1) may overflow (σ = 0.05 at α = 2.5 gave NaN, and an RDP ε of 0): in logs,
            // ln u = ln q + x + ln(1 − e^{−x}), a = α ln(1 + u), ln g = a + ln(1 − e^{−a} − αu e^{−a}).
            let ln_u = q.ln() + x + (-(-x).exp()).ln_1p();
            let a = alpha * ln_add_exp(0.0, ln_u);
            a + (-(-a).exp() - alpha * (ln_u - a).exp()).ln_1p()
        } else {
            ln_g(q * x.exp_m1(), alpha)
        };
        -0.5 * t * t + ln_norm + lg
    };
    // Sums over the nodes of step h and over the midpoints between them.
    let (mut nodes, mut mids) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for i in 0..=n {
        let t = lo + i as f64 * h;
        nodes = ln_add_exp(nodes, ln_term(t));
        if i < n {
            mids = ln_add_exp(mids, ln_term(t + 0.5 * h));
        }
    }
    let coarse = nodes + h.ln();
    let fine = ln_add_exp(nodes, mids) + (0.5 * h).ln();
    let relative_gap = (coarse - fine).exp_m1().abs();
    let up = fine + (2.0 * relative_gap + 1e-12).ln_1p();
    // Anything that is not a number becomes +∞ (no bound), never a small value.
    if up.is_nan() {
        f64::INFINITY
    } else {
        up
    }
}

/// ln g(u), g(u) = (1 + u)^α − 1 − αu, for u > −1: the binomial series Σ_{k≥2} C(α, k) u^k where
/// |u| < 1/2 (no cancellation), the direct form elsewhere.
fn ln_g(u: f64, alpha: f64) -> f64 {
    if u.abs() < 0.5 {
        let (mut sum, mut coef, mut power) = (0.0, alpha, u);
        for k in 2..80 {
            coef *= (alpha - (k - 1) as f64) / k as f64;
            power *= u;
            let term = coef * power;
            sum += term;
            if term.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return sum.max(f64::MIN_POSITIVE).ln();
    }
    let a = alpha * u.ln_1p();
    if a > 30.0 {
        a + (-(1.0 + alpha * u) * (-a).exp()).ln_1p()
    } else {
        (a.exp_m1() - alpha * u).max(f64::MIN_POSITIVE).ln()
    }
}

/// RDP of one step at any real order α > 1, never below the exact value: the exact sum at integer
/// orders, [`ln_a_minus_one`] (rounded up) at the others, or the series bound where the integral would
/// exceed [`MAX_NODES`]; α/(2σ²) when q = 1.
pub fn step_rdp_exact(q: f64, sigma: f64, alpha: f64) -> f64 {
    if q <= 0.0 {
        return 0.0;
    }
    if q >= 1.0 {
        return crate::mechanisms::gaussian::rdp(alpha, sigma, 1.0);
    }
    let ln_a = if alpha.fract() == 0.0 {
        ln_a_int(q, sigma, alpha as u64)
    } else {
        let integral = ln_a_minus_one(q, sigma, alpha);
        if integral == f64::INFINITY {
            return series_rounded_up(q, sigma, alpha);
        }
        ln_add_exp(0.0, integral)
    };
    let rdp = ln_a / (alpha - 1.0);
    // f64::max ignores NaN: a NaN here once became an RDP of 0.
    if rdp.is_nan() {
        f64::INFINITY
    } else {
        rdp.max(0.0)
    }
}

/// Beyond the integration's work bound (small σ): dp_accounting's series of |terms| (∞ where it does not
/// converge), with ln A raised by 1e-9 for the terms its stopping rule leaves out (each below e^{−30}
/// of the sum and falling, at most 1000 of them: under 1e-10 of the sum). At such σ it agrees with the
/// integral to 1e-14 relative (σ = 0.05 and 0.1, orders 1.01–4.5).
fn series_rounded_up(q: f64, sigma: f64, alpha: f64) -> f64 {
    super::step_rdp(q, sigma, alpha) + 1e-9 / (alpha - 1.0)
}

/// The improved conversion at one order (Canonne, Kamath & Steinke 2020, Prop. 12), ∞ where undefined.
fn convert(alpha: f64, rdp: f64, delta: f64) -> f64 {
    super::rdp_to_approx_dp(&[alpha], &[rdp], delta, Conversion::Improved)
        .map_or(f64::INFINITY, |x| x.0)
}

/// The smallest ε over every real order: the best integer order from 2 to 4096 (or the grid's), then a
/// golden-section search over the orders between its neighbours. Any α gives a valid bound, so the
/// search only has to find a good one; the result is never above the best integer order's.
///
/// `curve(α)` is the total RDP at α (exact or rounded up).
pub fn epsilon_continuous(curve: impl Fn(f64) -> f64, delta: f64) -> (f64, f64) {
    let mut best = (f64::INFINITY, 2.0);
    let mut alpha = 2.0f64;
    // Integer orders 2, 3, … 64, then ×1.25 steps to 4096 (ε(α) is unimodal in practice).
    while alpha <= 4096.0 {
        let eps = convert(alpha, curve(alpha), delta);
        if eps < best.0 {
            best = (eps, alpha);
        } else if eps > 2.0 * best.0 + 1.0 && alpha > 2.0 * best.1 {
            // Far past the minimum (ε(α) grows like the RDP curve from here).
            break;
        }
        alpha = if alpha < 64.0 {
            alpha + 1.0
        } else {
            (alpha * 1.25).round()
        };
    }
    let (lo, hi) = if best.1 <= 64.0 {
        ((best.1 - 1.0).max(1.0 + 1e-3), best.1 + 1.0)
    } else {
        (best.1 / 1.25, best.1 * 1.25)
    };
    // ε is flat at its minimum: a bracket of 1e-4 relative leaves ~1e-8 relative in ε.
    let ((c, fc), (d, fd)) = golden_section(|a| convert(a, curve(a), delta), lo, hi, 48, 1e-4);
    for (e, at) in [(fc, c), (fd, d)] {
        if e < best.0 {
            best = (e, at);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::rdp::step_rdp;

    #[test]
    fn integration_matches_the_exact_sum_at_integer_orders() {
        // At integer α the integral must reproduce the finite binomial sum (Mironov et al. 2019).
        for (q, sigma) in [
            (0.1, 0.6),
            (0.01, 1.0),
            (0.5, 2.0),
            (0.004, 1.1),
            (0.2, 0.3),
        ] {
            for alpha in [2u64, 3, 5, 8, 12] {
                let exact = ln_a_int(q, sigma, alpha);
                let integrated = ln_add_exp(0.0, ln_a_minus_one(q, sigma, alpha as f64));
                assert!(
                    integrated >= exact * (1.0 - 1e-12),
                    "q {q} σ {sigma} α {alpha}: {integrated} < {exact}"
                );
                assert!(
                    (integrated / exact - 1.0).abs() < 1e-9,
                    "q {q} σ {sigma} α {alpha}: {integrated} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn fractional_orders_below_the_series_and_between_integers() {
        // dp_accounting's series of |terms| is an upper bound, loose or ∞ at low orders; ours is below it,
        // and ε(α) is non-decreasing in α (Van Erven & Harremoës 2014), so it lies between its integer
        // neighbours.
        for (q, sigma) in [(0.1, 0.6), (0.1, 1.0), (0.01, 1.1)] {
            for alpha in [1.1, 1.25, 1.5, 2.5, 3.7, 7.3, 10.5] {
                let ours = step_rdp_exact(q, sigma, alpha);
                assert!(
                    ours <= step_rdp(q, sigma, alpha) * (1.0 + 1e-9),
                    "q {q} σ {sigma} α {alpha}"
                );
                let (below, above) = (alpha.floor().max(1.0), alpha.ceil());
                let lower = if below > 1.0 {
                    step_rdp_exact(q, sigma, below)
                } else {
                    0.0
                };
                assert!(
                    ours >= lower * (1.0 - 1e-9)
                        && ours <= step_rdp_exact(q, sigma, above) * (1.0 + 1e-9),
                    "q {q} σ {sigma} α {alpha}: {ours}"
                );
            }
        }
    }

    #[test]
    fn small_sigma_never_gives_zero() {
        // Review finding: q = 0.01, σ = 0.05, α = 2.5 overflowed to NaN and then to an RDP of 0; the
        // exact value is 492.32 (mpmath quadrature: ln(A − 1) = 738.487).
        let r = step_rdp_exact(0.01, 0.05, 2.5);
        assert!((r / 492.32 - 1.0).abs() < 1e-4, "{r}");
        // T = 1000: ε was 0. Orders between 1 and 2 now give a finite bound far below the best
        // integer order's (390 800, by the review's mpmath port) and above T·KL ≈ 10³.
        let (eps, alpha) = epsilon_continuous(|a| 1000.0 * step_rdp_exact(0.01, 0.05, a), 1e-5);
        assert!(
            eps > 1e3 && eps < 390_800.0 && alpha < 2.0,
            "{eps} at {alpha}"
        );
        for sigma in [0.02, 0.03, 0.065, 0.1] {
            for alpha in [1.5, 2.5, 7.3] {
                let r = step_rdp_exact(0.01, sigma, alpha);
                assert!(r > 0.0 && !r.is_nan(), "σ {sigma} α {alpha}: {r}");
            }
        }
    }

    /// Below the integration's work bound the series takes over (an upper bound too), so tiny σ's
    /// give finite, enormous ε's at once instead of seconds of integration (issue 26: σ = 0.001 froze
    /// the DP-SGD lab's page for 14 s).
    #[test]
    fn tiny_sigma_falls_back_to_the_series() {
        for sigma in [1e-3, 1e-6] {
            assert_eq!(ln_a_minus_one(0.01, sigma, 1.5), f64::INFINITY);
            assert_eq!(
                step_rdp_exact(0.01, sigma, 1.5),
                series_rounded_up(0.01, sigma, 1.5)
            );
            let (eps, _) = epsilon_continuous(|a| 1000.0 * step_rdp_exact(0.01, sigma, a), 1e-5);
            assert!(eps.is_finite() && eps > 1e8, "σ {sigma}: {eps}");
        }
        // Where both exist, the rounded-up series is never below the rounded-up integral.
        for (q, sigma) in [(0.01, 0.05), (0.01, 0.1), (0.5, 0.05), (0.01, 0.3)] {
            for alpha in [1.01, 1.1, 1.5, 2.5, 4.5] {
                let integral = step_rdp_exact(q, sigma, alpha);
                let series = series_rounded_up(q, sigma, alpha);
                assert!(
                    series >= integral,
                    "q {q} σ {sigma} α {alpha}: {series} < {integral}"
                );
            }
        }
    }

    #[test]
    fn continuous_orders_beat_the_grid_for_zcdp() {
        // ρ-zCDP, ε(α) = ρα: the grid's best is ~5% above the continuous optimum at ρ = 0.001, δ = 1e-5.
        let orders = crate::accounting::rdp::default_orders();
        let rho = 0.001;
        let curve: Vec<f64> = orders.iter().map(|a| rho * a).collect();
        let grid = super::super::rdp_to_approx_dp(&orders, &curve, 1e-5, Conversion::Improved)
            .map_or(f64::NAN, |x| x.0);
        let (tight, alpha) = epsilon_continuous(|a| rho * a, 1e-5);
        assert!(
            tight < grid * 0.97 && alpha > 63.0 && alpha < 128.0,
            "{tight} at {alpha} vs grid {grid}"
        );
    }
}
