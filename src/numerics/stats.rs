//! Small descriptive statistics the labs share: sample mean and spread, histogram binning, the normal
//! density. Hand-written because each is a few lines and no numeric crate we use exports them for slices.

/// Sample mean and sample standard deviation (denominator n − 1), by Welford's update, which stays
/// accurate when the values are close together. Returns (NaN, NaN) for an empty slice and sd = 0 for one value.
/// Finite values whose squares overflow (the RR lab's estimates at ε = 1e-300 are near 1e300) are
/// summed scaled by their largest magnitude, so their spread stays finite.
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let (mean, sd) = welford(xs);
    if (mean.is_finite() && sd.is_finite()) || !xs.iter().all(|x| x.is_finite()) {
        return (mean, sd);
    }
    let scale = xs.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    let scaled: Vec<f64> = xs.iter().map(|x| x / scale).collect();
    let (mean, sd) = welford(&scaled);
    (mean * scale, sd * scale)
}

fn welford(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let (mut mean, mut m2) = (0.0, 0.0);
    for (i, &x) in xs.iter().enumerate() {
        let d = x - mean;
        mean += d / (i + 1) as f64;
        m2 += d * (x - mean);
    }
    let sd = if xs.len() > 1 {
        (m2 / (xs.len() - 1) as f64).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// Equal-width bins over [lo, hi]: the bin edges (bins + 1 of them) and the count in each bin. Values
/// outside the range, or NaN, are not counted; hi itself falls in the last bin.
pub fn histogram(xs: &[f64], lo: f64, hi: f64, bins: usize) -> (Vec<f64>, Vec<u64>) {
    let bins = bins.max(1);
    let width = (hi - lo) / bins as f64;
    let edges = (0..=bins).map(|i| lo + width * i as f64).collect();
    let mut counts = vec![0; bins];
    if width > 0.0 && width.is_finite() {
        for &x in xs {
            if (lo..=hi).contains(&x) {
                let i = (((x - lo) / width) as usize).min(bins - 1);
                counts[i] += 1;
            }
        }
    }
    (edges, counts)
}

/// The normal density φ((x − μ)/σ)/σ.
pub fn normal_pdf(x: f64, mean: f64, sd: f64) -> f64 {
    let z = (x - mean) / sd;
    (-0.5 * z * z).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_sd_of_huge_values_is_finite() {
        let (m, s) = mean_sd(&[2e300, 4e300, 4e300, 4e300, 5e300, 5e300, 7e300, 9e300]);
        assert!(
            (m / 5e300 - 1.0).abs() < 1e-15 && (s / 2.138_089_935_299_395e300 - 1.0).abs() < 1e-14
        );
        assert!(mean_sd(&[1.0, f64::INFINITY]).1.is_nan());
    }

    #[test]
    fn mean_sd_matches_numpy() {
        // numpy: np.mean([2,4,4,4,5,5,7,9]) = 5.0, np.std(..., ddof=1) = 2.138089935299395
        let (m, s) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!((m - 5.0).abs() < 1e-15 && (s - 2.138_089_935_299_395).abs() < 1e-14);
        // Large offset: a naive sum of squares loses every digit here.
        let (m, s) = mean_sd(&[1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0]);
        assert!((m - (1e9 + 2.0)).abs() < 1e-6 && (s - 1.0).abs() < 1e-9);
        assert!(mean_sd(&[]).0.is_nan());
        assert_eq!(mean_sd(&[3.0]), (3.0, 0.0));
    }

    #[test]
    fn histogram_counts_edges_and_skips_outliers() {
        let (edges, counts) = histogram(&[0.0, 0.1, 0.5, 0.99, 1.0, 1.5, f64::NAN], 0.0, 1.0, 2);
        assert_eq!(edges, vec![0.0, 0.5, 1.0]);
        assert_eq!(counts, vec![2, 3]);
        assert_eq!(histogram(&[1.0], 1.0, 1.0, 3).1, vec![0, 0, 0]);
    }

    #[test]
    fn normal_pdf_at_zero() {
        // 1/sqrt(2π) = 0.3989422804014327 (scipy.stats.norm.pdf(0)).
        assert!((normal_pdf(0.0, 0.0, 1.0) - 0.398_942_280_401_432_7).abs() < 1e-16);
        assert!((normal_pdf(3.0, 1.0, 2.0) - 0.120_985_362_259_571_6).abs() < 1e-15);
    }
}
