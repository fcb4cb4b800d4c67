//! The exponential mechanism: pick candidate r with probability ∝ exp(ε·u(x, r)/(2Δu)).

use super::check_eps;
use crate::error::{Error, Result};

/// Most candidates the lab accepts.
pub const MAX_CANDIDATES: usize = 50;
/// Largest |utility| accepted (scores are typically counts).
pub const MAX_SCORE: f64 = 1e12;

/// Selection probabilities of the exponential mechanism.
///
/// # Formula
/// P\[r\] = exp(ε u_r / (2Δu)) / Σ_s exp(ε u_s / (2Δu))
///
/// # Reference
/// McSherry & Talwar, "Mechanism design via differential privacy" (FOCS 2007); Dwork & Roth (2014),
/// Definition 3.4 and Theorem 3.10 (ε-DP). Computed as a softmax with the largest exponent subtracted
/// (log-sum-exp), so scores up to 1e12 and ε up to 100 neither overflow nor lose the small probabilities.
///
/// # Errors
/// No candidates or more than [`MAX_CANDIDATES`], a score that is not finite or beyond ±[`MAX_SCORE`],
/// ε or Δu out of domain.
///
/// ```
/// # use dp_playground::mechanisms::exponential::selection_probabilities;
/// // Two candidates one apart, ε = 2, Δu = 1: e¹/(e¹ + 1) = 0.7310585786300049.
/// let p = selection_probabilities(&[1.0, 0.0], 2.0, 1.0).unwrap();
/// assert!((p[0] - 0.731_058_578_630_004_9).abs() < 1e-15);
/// ```
pub fn selection_probabilities(scores: &[f64], eps: f64, sens: f64) -> Result<Vec<f64>> {
    check_scores(scores)?;
    check_eps(eps)?;
    super::check_positive("sens", sens)?;
    Ok(softmax(scores, eps / (2.0 * sens)))
}

/// The neighbour that is worst for candidate `i`: its utility drops by Δu and every other rises by Δu.
/// Returns that neighbour's selection probabilities; P\[i\]/P'\[i\] then attains the largest ratio any
/// neighbour allows for i, at most e^ε (Dwork & Roth 2014, proof of Theorem 3.10).
///
/// # Errors
/// As [`selection_probabilities`], or `i` out of range.
pub fn worst_neighbour_probabilities(
    scores: &[f64],
    eps: f64,
    sens: f64,
    i: usize,
) -> Result<Vec<f64>> {
    if i >= scores.len() {
        return Err(Error::invalid("focus", i, "is not a candidate"));
    }
    let shifted: Vec<f64> = scores
        .iter()
        .enumerate()
        .map(|(j, &u)| if j == i { u - sens } else { u + sens })
        .collect();
    selection_probabilities(&shifted, eps, sens)
}

fn softmax(scores: &[f64], factor: f64) -> Vec<f64> {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores.iter().map(|u| ((u - top) * factor).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

fn check_scores(scores: &[f64]) -> Result<()> {
    if scores.is_empty() || scores.len() > MAX_CANDIDATES {
        return Err(Error::invalid(
            "cands",
            scores.len(),
            format!("candidates: need between 1 and {MAX_CANDIDATES}"),
        ));
    }
    match scores
        .iter()
        .find(|u| !(u.is_finite() && u.abs() <= MAX_SCORE))
    {
        Some(u) => Err(Error::invalid(
            "cands",
            u,
            format!("is not a score in [−{MAX_SCORE:e}, {MAX_SCORE:e}]"),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_sum_to_one_and_follow_the_closed_form() {
        let scores = [30.0, 28.0, 12.0, 5.0];
        let p = selection_probabilities(&scores, 1.0, 1.0).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        // Closed form: p_0/p_1 = e^{ε(30 − 28)/2} = e.
        assert!((p[0] / p[1] - 1f64.exp()).abs() < 1e-12);
    }

    #[test]
    fn neighbour_ratio_never_exceeds_e_eps() {
        let scores = [3.0, 1.0, 0.5, -2.0, 0.0];
        for eps in [0.1, 1.0, 7.0] {
            let p = selection_probabilities(&scores, eps, 1.0).unwrap();
            for i in 0..scores.len() {
                let q = worst_neighbour_probabilities(&scores, eps, 1.0, i).unwrap();
                let ratio = (p[i] / q[i]).ln();
                assert!(
                    ratio <= eps + 1e-12 && ratio > 0.0,
                    "ε={eps} i={i}: {ratio}"
                );
            }
        }
    }

    #[test]
    fn huge_scores_and_eps_stay_finite() {
        let p = selection_probabilities(&[1e12, -1e12, 0.0], 100.0, 1e-9).unwrap();
        assert_eq!(p, vec![1.0, 0.0, 0.0]);
        assert!(selection_probabilities(&[], 1.0, 1.0).is_err());
        assert!(selection_probabilities(&[f64::NAN], 1.0, 1.0).is_err());
        assert!(selection_probabilities(&[1.0], 1.0, 0.0).is_err());
    }
}
