//! k counting queries at once (approximate-DP notes §2.2): Laplace noise calibrated to the ℓ1
//! sensitivity Δ₁ = k against Gaussian noise calibrated to the ℓ2 sensitivity Δ₂ = √k, compared by the
//! expected largest error over the k answers.

use super::gaussian::sigma_analytic;
use crate::error::{Error, Result};
use crate::numerics::roots::bisect_integer;
use crate::numerics::special::normal_cdf;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Exp1, StandardNormal};

/// Largest k the lab simulates.
pub const MAX_K: usize = 100_000;
/// Standard draws per simulation, shared out over the repetitions (about 20 ms natively at any k).
pub const DRAW_BUDGET: usize = 1_000_000;

/// Expected largest absolute error of the Laplace mechanism on k queries at ε.
///
/// # Formula
/// E max_j |Z_j| = (k/ε)·H_k, H_k = 1 + 1/2 + … + 1/k, for Z_j ~ Lap(k/ε) i.i.d.
///
/// # Reference
/// |Z_j| ~ Exp(scale k/ε), and the maximum of k i.i.d. exponentials has mean scale·H_k (Rényi's
/// representation of exponential order statistics). The notes' eq. (36) bounds it by O(k log k/ε).
pub fn laplace_max_error(k: usize, eps: f64) -> f64 {
    let harmonic: f64 = (1..=k).map(|i| 1.0 / i as f64).sum();
    k as f64 / eps * harmonic
}

/// 8-point Gauss–Legendre nodes and weights on [−1, 1] (numpy.polynomial.legendre.leggauss(8); A&S
/// Table 25.4).
const GAUSS_LEGENDRE_8: [(f64, f64); 8] = [
    (-0.960_289_856_497_536_2, 0.101_228_536_290_377_06),
    (-0.796_666_477_413_626_7, 0.222_381_034_453_374_43),
    (-0.525_532_409_916_329, 0.313_706_645_877_886_9),
    (-0.183_434_642_495_649_78, 0.362_683_783_378_361_66),
    (0.183_434_642_495_649_78, 0.362_683_783_378_361_66),
    (0.525_532_409_916_329, 0.313_706_645_877_886_9),
    (0.796_666_477_413_626_7, 0.222_381_034_453_374_43),
    (0.960_289_856_497_536_2, 0.101_228_536_290_377_06),
];
/// Panels of the composite Gauss–Legendre rule in [`gaussian_unit_max_abs`].
const PANELS: usize = 60;

/// E max_j |N_j| for k i.i.d. standard normals.
///
/// # Formula
/// ∫₀^∞ 1 − (1 − 2Φ(−t))^k dt
///
/// Composite 8-point Gauss–Legendre on [0, √(2 ln 2k) + 9] with 60 panels (480 evaluations, cheap
/// enough to redo on every slider move); the integrand is written as −expm1(k·ln1p(−2Φ(−t))) so that
/// it keeps its precision for large k. Error below 1e-10 against mpmath's quadrature for k = 1 … 10⁶
/// (see tests). No crate offers this integral; the rule is written out here.
pub fn gaussian_unit_max_abs(k: usize) -> f64 {
    let kf = k as f64;
    let upper = (2.0 * (2.0 * kf).ln()).sqrt() + 9.0;
    let f = |t: f64| -(kf * (-2.0 * normal_cdf(-t)).ln_1p()).exp_m1();
    let h = upper / PANELS as f64;
    (0..PANELS)
        .map(|i| {
            let mid = (i as f64 + 0.5) * h;
            GAUSS_LEGENDRE_8
                .iter()
                .map(|&(x, w)| w * f(mid + 0.5 * h * x))
                .sum::<f64>()
                * 0.5
                * h
        })
        .sum()
}

/// Expected largest absolute error of the Gaussian mechanism on k queries: σ_k·E max|N|, with σ_k the
/// analytic σ for (ε, δ) at Δ₂ = √k (σ_k = √k·σ₁).
///
/// # Errors
/// ε or δ out of their domains.
pub fn gaussian_max_error(k: usize, eps: f64, delta: f64) -> Result<f64> {
    Ok((k as f64).sqrt() * sigma_analytic(eps, delta, 1.0)? * gaussian_unit_max_abs(k))
}

/// The smallest k at which the Gaussian mechanism's expected largest error is below the Laplace
/// mechanism's, searched up to 10⁹ (`None` beyond). The error ratio Gaussian/Laplace falls as k grows,
/// so a doubling then bisection search over integers finds it.
///
/// # Errors
/// ε or δ out of their domains.
pub fn crossover(eps: f64, delta: f64) -> Result<Option<usize>> {
    crossover_from_grid(eps, delta, &[], &[])
}

/// [`crossover`], starting from E max|N| already known at the ascending `ks` (`unit[i]` at `ks[i]`, as
/// [`MaxErrorSimulation::gaussian_unit_closed_form`] holds them): the grid brackets the crossing, so the
/// search computes the integral only between two grid points (about half the work on a slider move).
/// The same answer as [`crossover`]: both find the smallest k where the Gaussian wins, and whether it
/// wins falls one way as k grows.
///
/// # Errors
/// ε or δ out of their domains.
pub fn crossover_from_grid(
    eps: f64,
    delta: f64,
    ks: &[usize],
    unit: &[f64],
) -> Result<Option<usize>> {
    let sigma1 = sigma_analytic(eps, delta, 1.0)?;
    let unit_at = |k: usize| match ks.binary_search(&k) {
        Ok(i) if i < unit.len() => unit[i],
        _ => gaussian_unit_max_abs(k),
    };
    let gauss_wins =
        |k: usize| (k as f64).sqrt() * sigma1 * unit_at(k) < laplace_max_error_fast(k, eps);
    if gauss_wins(1) {
        return Ok(Some(1));
    }
    let known = &ks[..ks.len().min(unit.len())];
    let (lo, hi) = match known.iter().position(|&k| gauss_wins(k)) {
        // ks[0] is 1 or larger: no crossing below it was seen, so bracket from 1.
        Some(0) => (1, known[0]),
        Some(i) => (known[i - 1], known[i]),
        None => {
            let mut lo = known.last().copied().unwrap_or(1);
            let mut hi = 2 * lo;
            while !gauss_wins(hi) {
                if hi >= 1_000_000_000 {
                    return Ok(None);
                }
                lo = hi;
                hi *= 2;
            }
            (lo, hi)
        }
    };
    Ok(Some(bisect_integer(lo, hi, gauss_wins)))
}

/// (k/ε)·H_k with H_k from its asymptotic expansion beyond k = 10⁴ (error < 1e-17 there).
fn laplace_max_error_fast(k: usize, eps: f64) -> f64 {
    if k <= 10_000 {
        return laplace_max_error(k, eps);
    }
    let kf = k as f64;
    let harmonic = kf.ln() + 0.577_215_664_901_532_9 + 1.0 / (2.0 * kf) - 1.0 / (12.0 * kf * kf);
    kf / eps * harmonic
}

/// Simulated largest errors for unit-scale noise, at each k of a grid: the lab multiplies them by the
/// Laplace scale k/ε and the Gaussian σ_k (noise is scale times a standard draw), so moving ε or δ
/// never re-simulates.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MaxErrorSimulation {
    /// The k of each row.
    pub ks: Vec<usize>,
    /// Mean over repetitions of max_j |standard Laplace| (scale 1) over the first k draws.
    pub laplace_unit: Vec<f64>,
    /// Mean over repetitions of max_j |standard normal| over the first k draws.
    pub gaussian_unit: Vec<f64>,
    /// Repetitions behind each mean.
    pub reps: usize,
    /// E max|N| over k standard normals at each k, the closed form ([`gaussian_unit_max_abs`]).
    /// With the next field: the closed forms do not depend on ε or δ, so they are computed here once
    /// rather than on every slider move.
    pub gaussian_unit_closed_form: Vec<f64>,
    /// E max|L| over k standard Laplace draws at each k: H_k ([`laplace_max_error`] at ε = k).
    pub laplace_unit_closed_form: Vec<f64>,
}

/// About 24 k values from 1 to `k_max`, log-spaced, distinct.
pub fn k_grid(k_max: usize) -> Vec<usize> {
    let top = (k_max.max(1) as f64).ln();
    let mut ks: Vec<usize> = (0..24)
        .map(|i| (top * i as f64 / 23.0).exp().round() as usize)
        .collect();
    ks.push(k_max.max(1));
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// Simulates the maxima with `seed`: each repetition draws `k_max` noises of each kind once and reads
/// the running maximum at every k of the grid (the estimates at different k share draws, each unbiased).
///
/// # Errors
/// `k_max` outside 1 ..= [`MAX_K`].
pub fn simulate_max_errors(k_max: usize, seed: u64) -> Result<MaxErrorSimulation> {
    if !(1..=MAX_K).contains(&k_max) {
        return Err(Error::invalid(
            "kmax",
            k_max,
            format!("must be a whole number from 1 to {MAX_K}"),
        ));
    }
    let ks = k_grid(k_max);
    let reps = (DRAW_BUDGET / (2 * k_max)).clamp(20, 400);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(2);
    let mut laplace_unit = vec![0.0; ks.len()];
    let mut gaussian_unit = vec![0.0; ks.len()];
    for _ in 0..reps {
        accumulate_running_max(&mut rng, &ks, &mut laplace_unit, |r| {
            r.sample::<f64, _>(Exp1)
        });
        accumulate_running_max(&mut rng, &ks, &mut gaussian_unit, |r| {
            r.sample::<f64, _>(StandardNormal).abs()
        });
    }
    for v in laplace_unit.iter_mut().chain(gaussian_unit.iter_mut()) {
        *v /= reps as f64;
    }
    let gaussian_unit_closed_form = ks.iter().map(|&k| gaussian_unit_max_abs(k)).collect();
    let laplace_unit_closed_form = ks.iter().map(|&k| laplace_max_error(k, k as f64)).collect();
    Ok(MaxErrorSimulation {
        ks,
        laplace_unit,
        gaussian_unit,
        reps,
        gaussian_unit_closed_form,
        laplace_unit_closed_form,
    })
}

fn accumulate_running_max<R: Rng + ?Sized>(
    rng: &mut R,
    ks: &[usize],
    sums: &mut [f64],
    mut draw: impl FnMut(&mut R) -> f64,
) {
    let mut running = 0.0f64;
    let mut next = 0;
    for j in 1..=ks.last().copied().unwrap_or(0) {
        running = running.max(draw(rng));
        if ks[next] == j {
            sums[next] += running;
            next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::excessive_precision)]
    fn gaussian_max_matches_mpmath() {
        // mpmath 1.3.0 (30 digits): quad(lambda t: 1 - (2*ncdf(t) - 1)**k, [0, 2, 5, 10, 20, 40]).
        for (k, want) in [
            (1, 0.797_884_560_802_865_4),
            (2, std::f64::consts::FRAC_2_SQRT_PI), // = 2/√π exactly
            (10, 1.880_715_693_821_160_5),
            (100, 2.746_957_687_806_120_6),
            (1000, 3.435_410_190_807_708_8),
            (10_000, 4.018_795_490_530_415),
            (1_000_000, 4.998_561_418_452_991_6),
        ] {
            let got = gaussian_unit_max_abs(k);
            assert!((got - want).abs() < 1e-10, "k={k}: {got} vs {want}");
        }
    }

    #[test]
    fn laplace_max_is_harmonic() {
        assert_eq!(laplace_max_error(1, 2.0), 0.5);
        assert!((laplace_max_error(3, 1.0) - 3.0 * (1.0 + 0.5 + 1.0 / 3.0)).abs() < 1e-14);
        assert!(
            (laplace_max_error_fast(20_000, 1.0) / laplace_max_error(20_000, 1.0) - 1.0).abs()
                < 1e-13
        );
    }

    #[test]
    fn crossover_is_where_the_errors_cross() {
        let k = crossover(1.0, 1e-5).unwrap().unwrap_or(0);
        assert!(k > 1);
        let g = |k| gaussian_max_error(k, 1.0, 1e-5).unwrap();
        assert!(g(k) < laplace_max_error(k, 1.0) && g(k - 1) >= laplace_max_error(k - 1, 1.0));
    }

    #[test]
    fn crossover_from_the_grid_is_the_plain_search() {
        // The grid only shortens the search: the same k for every (ε, δ, k_max), inside the grid's
        // range, below it and beyond it (ε = 10 crosses at k = 1 or not below 10⁹).
        for kmax in [1, 10, 1000, MAX_K] {
            let ks = k_grid(kmax);
            let unit: Vec<f64> = ks.iter().map(|&k| gaussian_unit_max_abs(k)).collect();
            for eps in [0.05, 0.3, 1.0, 2.0, 10.0] {
                for delta in [1e-3, 1e-5, 1e-8, 1e-12] {
                    let plain = crossover(eps, delta).unwrap();
                    let fast = crossover_from_grid(eps, delta, &ks, &unit).unwrap();
                    assert_eq!(plain, fast, "eps={eps} delta={delta} kmax={kmax}");
                }
            }
        }
    }

    #[test]
    fn simulation_agrees_with_closed_forms() {
        // Each mean is over ≥ 20 repetitions; the max of k draws has sd < 1.3 (Gumbel-like), so 6 standard
        // errors is < 1.8 at 20 reps: the check fails spuriously with probability < 1e-8.
        let sim = simulate_max_errors(1000, 3).unwrap();
        let se = 1.3 / (sim.reps as f64).sqrt();
        for (i, &k) in sim.ks.iter().enumerate() {
            assert!(
                (sim.laplace_unit[i] - laplace_max_error(k, k as f64)).abs() < 6.0 * se,
                "k={k}"
            );
            assert!(
                (sim.gaussian_unit[i] - gaussian_unit_max_abs(k)).abs() < 6.0 * se,
                "k={k}"
            );
        }
        assert_eq!(sim, simulate_max_errors(1000, 3).unwrap());
        assert!(simulate_max_errors(0, 1).is_err() && simulate_max_errors(MAX_K + 1, 1).is_err());
    }
}
