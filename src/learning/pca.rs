//! The principal directions Abadi et al. (CCS 2016, §4 "Differentially private PCA", after Dwork,
//! Talwar, Thakurta & Zhang's Analyze Gauss, STOC 2014) project MNIST onto before DP-SGD: rows
//! normalised to unit ℓ2 norm and stacked into A, the second-moment matrix AᵀA (uncentred), optionally
//! with Gaussian noise added for differential privacy, and its top k eigenvectors. The noise is their
//! code's (`dp_pca.ComputeDPPrincipalProjection` in tensorflow/models' `dp_sgd`): N(0, σ_p²) on every
//! one of the d² entries, then the matrix symmetrised as (M + Mᵀ)/2.
//!
//! Privacy of the noisy version: adding or removing one unit-norm row a changes AᵀA by aaᵀ, of
//! Frobenius norm ‖a‖² = 1, so the d² noisy entries are the Gaussian mechanism with sensitivity 1 and
//! noise multiplier σ_p (symmetrising is post-processing), to be composed with the training run's
//! guarantee (their code charges it to the same accountant once, at q = 1). Without noise the
//! projection is not private, and a guarantee must say so.
//!
//! The eigendecomposition is nalgebra's (symmetric QR on the tridiagonal form), the products its
//! blocked `gemm`: a 784-dimensional second moment of 60 000 rows is 1.8·10¹⁰ multiply-adds.

use super::data::{Dataset, Examples};
use crate::error::{Error, Result};
use nalgebra::{DMatrix, SymmetricEigen};
use rand::Rng;
use rand_distr::StandardNormal;

/// Rows per block of the second moment's products.
const BLOCK: usize = 2048;

/// A linear projection onto k directions.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Projection {
    /// Input features.
    pub dim: usize,
    /// The directions, `k × dim` row-major, orthonormal, by decreasing eigenvalue.
    pub directions: Vec<f64>,
    /// Their eigenvalues of the (noisy) second moment, decreasing.
    pub eigenvalues: Vec<f64>,
}

impl Projection {
    /// Directions kept.
    pub fn k(&self) -> usize {
        self.eigenvalues.len()
    }

    /// The data's rows projected: row x becomes (v₁·x, …, v_k·x).
    pub fn project<D: Examples + ?Sized>(&self, data: &D) -> Dataset {
        let k = self.k();
        let mut x = Vec::with_capacity(data.rows() * k);
        let mut buf = Vec::new();
        for i in 0..data.rows() {
            let row = data.features(i, &mut buf);
            x.extend(
                self.directions
                    .chunks_exact(self.dim)
                    .map(|v| super::model::dot(v, row)),
            );
        }
        Dataset {
            x,
            y: (0..data.rows()).map(|i| data.label(i)).collect(),
            dim: k,
            names: (1..=k).map(|j| format!("component {j}")).collect(),
        }
    }
}

/// The top `k` principal directions of `data`'s rows at `rows` (Abadi et al.'s: each row scaled to
/// unit norm, the uncentred second moment), with N(0, `noise_sd`²) added to each of its entries and
/// the sum symmetrised (`noise_sd` = 0: no noise, not private). Zero rows add nothing.
///
/// # Errors
/// k of 0 or more than the features, a row index out of range, or a noise level that is negative
/// or not finite.
pub fn principal_directions<D: Examples + ?Sized, R: Rng + ?Sized>(
    data: &D,
    rows: &[usize],
    k: usize,
    noise_sd: f64,
    rng: &mut R,
) -> Result<Projection> {
    let d = data.dim();
    if k == 0 || k > d {
        return Err(Error::invalid(
            "pca",
            k,
            format!("must be 1 to {d} directions"),
        ));
    }
    if !(noise_sd >= 0.0 && noise_sd.is_finite()) {
        return Err(Error::invalid(
            "pca_sigma",
            noise_sd,
            "must be a finite number ≥ 0",
        ));
    }
    if let Some(&i) = rows.iter().find(|&&i| i >= data.rows()) {
        return Err(Error::invalid(
            "pca",
            i,
            format!("is not a row below {}", data.rows()),
        ));
    }
    let mut moment = DMatrix::<f64>::zeros(d, d);
    let mut buf = Vec::new();
    for block in rows.chunks(BLOCK) {
        let mut a = DMatrix::<f64>::zeros(block.len(), d);
        for (r, &i) in block.iter().enumerate() {
            let row = data.features(i, &mut buf);
            let norm = super::model::dot(row, row).sqrt();
            if norm > 0.0 {
                for (c, v) in row.iter().enumerate() {
                    a[(r, c)] = v / norm;
                }
            }
        }
        moment.gemm_tr(1.0, &a, &a, 1.0);
    }
    if noise_sd > 0.0 {
        // Row by row, so that a seed gives the same noise on every platform.
        let noise = DMatrix::<f64>::from_row_iterator(
            d,
            d,
            (0..d * d).map(|_| noise_sd * rng.sample::<f64, _>(StandardNormal)),
        );
        moment += (&noise + noise.transpose()) * 0.5;
    }
    let eigen = SymmetricEigen::new(moment);
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| eigen.eigenvalues[b].total_cmp(&eigen.eigenvalues[a]));
    let mut directions = Vec::with_capacity(k * d);
    for &j in &order[..k] {
        let v = eigen.eigenvectors.column(j);
        // A fixed sign (the largest entry positive), so that a projection reads the same everywhere.
        let big = v
            .iter()
            .fold(0.0f64, |m, &x| if x.abs() > m.abs() { x } else { m });
        let sign = if big < 0.0 { -1.0 } else { 1.0 };
        directions.extend(v.iter().map(|x| sign * x));
    }
    Ok(Projection {
        dim: d,
        directions,
        eigenvalues: order[..k].iter().map(|&j| eigen.eigenvalues[j]).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn data(rows: &[[f64; 3]]) -> Dataset {
        Dataset {
            x: rows.iter().flatten().copied().collect(),
            y: vec![0.0; rows.len()],
            dim: 3,
            names: vec![String::new(); 3],
        }
    }

    /// A closed form: unit rows along e₁ (three of them) and e₂ (one) give AᵀA = diag(3, 1, 0), whose
    /// top directions are e₁ then e₂; rows are normalised first, so scaling a row changes nothing.
    #[test]
    fn finds_the_directions_of_a_known_second_moment() {
        let d = data(&[
            [2.0, 0.0, 0.0],
            [0.5, 0.0, 0.0],
            [-7.0, 0.0, 0.0],
            [0.0, 3.0, 0.0],
            [0.0; 3],
        ]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let p = principal_directions(&d, &[0, 1, 2, 3, 4], 2, 0.0, &mut rng).unwrap();
        assert_eq!(p.k(), 2);
        for (got, want) in p.eigenvalues.iter().zip([3.0, 1.0]) {
            assert!((got - want).abs() < 1e-12, "{got}");
        }
        for (got, want) in p.directions.iter().zip([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]) {
            assert!((got - want).abs() < 1e-12, "{:?}", p.directions);
        }
        let projected = p.project(&d);
        assert_eq!((projected.rows(), projected.dim), (5, 2));
        assert!((projected.row(2)[0] + 7.0).abs() < 1e-12);
        assert!((projected.row(3)[1] - 3.0).abs() < 1e-12);
    }

    /// Noise: the same seed gives the same projection; directions stay orthonormal; bad inputs are
    /// refused.
    #[test]
    fn noisy_directions_are_orthonormal_and_seeded() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let rows: Vec<[f64; 3]> = (0..50)
            .map(|_| {
                [
                    rng.random(),
                    rng.random::<f64>() * 0.1,
                    rng.random::<f64>() * 0.01,
                ]
            })
            .collect();
        let d = data(&rows);
        let all: Vec<usize> = (0..50).collect();
        let p = principal_directions(&d, &all, 3, 0.5, &mut ChaCha8Rng::seed_from_u64(9)).unwrap();
        let again = principal_directions(&d, &all, 3, 0.5, &mut ChaCha8Rng::seed_from_u64(9));
        assert_eq!(Ok(p.clone()), again);
        for a in 0..3 {
            for b in 0..3 {
                let dot = super::super::model::dot(
                    &p.directions[a * 3..a * 3 + 3],
                    &p.directions[b * 3..b * 3 + 3],
                );
                assert!((dot - f64::from(u8::from(a == b))).abs() < 1e-12);
            }
        }
        assert!(p.eigenvalues.windows(2).all(|w| w[0] >= w[1]));
        for (k, sd, rows) in [
            (0, 0.0, &all[..]),
            (4, 0.0, &all),
            (1, -1.0, &all),
            (1, f64::NAN, &all),
            (1, 0.0, &[50]),
        ] {
            assert!(principal_directions(&d, rows, k, sd, &mut rng).is_err());
        }
    }
}
