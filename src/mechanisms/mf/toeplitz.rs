//! Lower-triangular Toeplitz strategies for the prefix-sum workload: a strategy C is its first column
//! `c` (C\[i\]\[j\] = c\[i − j\]), and so are its inverse and the decoder B = A·C⁻¹ (A, the prefix sums,
//! is the Toeplitz matrix of ones). Products of such matrices are truncated convolutions, so every
//! quantity here is O(n·m) for m non-zero coefficients, never an n × n matrix.
//!
//! Conventions (those of jax_privacy 2.0.0's `matrix_factorization.toeplitz`, against which
//! `tests/refs/mf_jax_privacy.json` holds these functions): unit-variance noise; the per-step error
//! e\[i\] = ‖B\[i, :\]‖²; the loss = sensitivity² × (mean or max of e). No function rounds on purpose;
//! each is a sum of positive terms or a recurrence with the stated error.

/// The first `n` coefficients of the optimal Toeplitz square root of A (Fichtenberger, Henzinger &
/// Upadhyay 2023, ICML, Theorem 1): c_k = binom(2k, k)/4^k, the coefficients of (1 − x)^(−1/2),
/// computed as the product ∏ (2j − 1)/(2j) (each factor exact to an ulp; relative error ≤ k ulps).
/// C·C = A, and Dvijotham et al. (2024, Theorem 3.1) prove it optimal for the max error.
pub fn sqrt_coefs(n: usize) -> Vec<f64> {
    let mut c = Vec::with_capacity(n);
    let mut x = 1.0;
    for k in 0..n {
        if k > 0 {
            x *= (2 * k - 1) as f64 / (2 * k) as f64;
        }
        c.push(x);
    }
    c
}

/// The first `n` coefficients of C⁻¹ for C with first column `c` (c\[0\] ≠ 0): d\[0\] = 1/c\[0\],
/// d\[k\] = −(Σ_{j=1..k} c\[j\]·d\[k − j\])/c\[0\], the power series of 1/C(x). O(n·m) for m coefficients
/// (a banded C's inverse is not banded: it decays).
pub fn inverse(c: &[f64], n: usize) -> Vec<f64> {
    let mut d = Vec::with_capacity(n);
    let Some(&c0) = c.first() else {
        return vec![f64::NAN; n];
    };
    for k in 0..n {
        let mut s = if k == 0 { 1.0 } else { 0.0 };
        for j in 1..c.len().min(k + 1) {
            s -= c[j] * d[k - j];
        }
        d.push(s / c0);
    }
    d
}

/// The decoder B = A·C⁻¹'s first column from C⁻¹'s (`noising`): b\[k\] = Σ_{j ≤ k} d\[j\].
pub fn decoder(noising: &[f64]) -> Vec<f64> {
    noising
        .iter()
        .scan(0.0, |s, &d| {
            *s += d;
            Some(*s)
        })
        .collect()
}

/// The per-step error e\[i\] = ‖B\[i, :\]‖² = Σ_{k ≤ i} b\[k\]² under unit-variance noise, from B's first
/// column (jax_privacy's `toeplitz.per_query_error`). Non-decreasing in i, so the max is the last.
pub fn per_step_error(decoder: &[f64]) -> Vec<f64> {
    decoder
        .iter()
        .scan(0.0, |s, &b| {
            *s += b * b;
            Some(*s)
        })
        .collect()
}

/// The sensitivity of C (first column `c`) over `n` steps when a record takes part once: the largest
/// column norm, C's first column's, ‖c\[..n\]‖.
pub fn single_sensitivity(c: &[f64], n: usize) -> f64 {
    c.iter().take(n).map(|x| x * x).sum::<f64>().sqrt()
}

/// The sensitivity of C over `n` steps when a record takes part at most `k` times (`None`: as often
/// as the separation allows), any two participations at least `b` steps apart: ‖C·(e₀ + e_b + … +
/// e_{(k′−1)b})‖ with k′ = min(k, ⌈n/b⌉) (Kalinin & Lampert 2024, Theorem 2; jax_privacy's
/// `toeplitz.minsep_sensitivity_squared`).
///
/// Holds only for coefficients that are non-negative and non-increasing (then the earliest, densest
/// participations are the worst); `None` for any other C, whose sensitivity needs another bound.
pub fn minsep_sensitivity(c: &[f64], n: usize, k: Option<usize>, b: usize) -> Option<f64> {
    let b = b.max(1);
    let decreasing = c.windows(2).all(|w| w[1] <= w[0]) && c.iter().all(|&x| x >= 0.0);
    if !decreasing {
        return None;
    }
    let most = n.div_ceil(b);
    let k = k.map_or(most, |k| k.min(most));
    let mut sum = 0.0;
    for t in 0..n {
        let v: f64 = (0..k)
            .map(|j| j * b)
            .take_while(|&s| s <= t)
            .map(|s| c.get(t - s).copied().unwrap_or(0.0))
            .sum();
        sum += v * v;
    }
    Some(sum.sqrt())
}

/// The first `bands` coefficients of `c`, scaled to unit norm: a banded Toeplitz strategy (BandMF's
/// Toeplitz form, McKenna 2024; jax_privacy normalises its optimised bands the same way). Scaling C
/// scales B by the inverse, so the loss does not change; the noise multiplier then means the same
/// thing as DP-SGD's (sensitivity 1 for one participation within the bands).
pub fn banded(c: &[f64], bands: usize) -> Vec<f64> {
    let kept = &c[..bands.clamp(1, c.len().max(1)).min(c.len())];
    let norm = kept.iter().map(|x| x * x).sum::<f64>().sqrt();
    kept.iter().map(|x| x / norm).collect()
}
