//! The data sets that ship with the page: Breast Cancer Wisconsin (Diagnostic), vendored from
//! scikit-learn's wheel; a sample of UCI Adult (both in `NOTICE`); and seeded synthetic sets:
//! TensorFlow Playground's four 2-D sets (its generators, with its noise scale) and a high-dimensional
//! logistic model.

use super::data::Dataset;
use crate::error::{Error, Result};
use rand::Rng;
use rand_distr::StandardNormal;
use std::f64::consts::PI;

/// Breast Cancer Wisconsin (Diagnostic): W. H. Wolberg, W. N. Street and O. L. Mangasarian, UCI Machine
/// Learning Repository (CC BY 4.0), as scikit-learn 1.5.2 ships it (`load_breast_cancer`): 569 rows, 30
/// features, label 1 = benign (357), 0 = malignant (212).
const BREAST_CANCER_CSV: &str = include_str!("data/breast_cancer.csv");

/// The 30 feature names, in the file's order.
const BREAST_CANCER_FEATURES: [&str; 10] = [
    "radius",
    "texture",
    "perimeter",
    "area",
    "smoothness",
    "compactness",
    "concavity",
    "concave points",
    "symmetry",
    "fractal dimension",
];

/// The breast-cancer data set.
pub fn breast_cancer() -> Dataset {
    let mut lines = BREAST_CANCER_CSV.lines();
    lines.next(); // "569,30,malignant,benign"
    let (mut x, mut y) = (Vec::with_capacity(569 * 30), Vec::with_capacity(569));
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let cells: Vec<f64> = line
            .split(',')
            .map(|c| c.trim().parse().unwrap_or(f64::NAN))
            .collect();
        if let Some((label, features)) = cells.split_last() {
            x.extend_from_slice(features);
            y.push(*label);
        }
    }
    let names = ["mean", "error", "worst"]
        .iter()
        .flat_map(|kind| {
            BREAST_CANCER_FEATURES
                .iter()
                .map(move |f| format!("{f} ({kind})"))
        })
        .collect();
    Dataset {
        x,
        y,
        dim: 30,
        names,
    }
}

/// Adult (Census Income): R. Kohavi and B. Becker, UCI Machine Learning Repository (CC BY 4.0). A seeded
/// sample of 8,000 of its 45,222 complete rows, 17 bytes each, written by `scripts/data/adult_sample.py`
/// (which documents the layout): 1,968 labelled >50K.
const ADULT_BIN: &[u8] = include_bytes!("data/adult.bin");
/// Adult's category lists, in the byte values' order.
const ADULT_CATEGORIES: [(&str, &[&str]); 5] = [
    (
        "workclass",
        &[
            "Private",
            "Self-emp-not-inc",
            "Self-emp-inc",
            "Federal-gov",
            "Local-gov",
            "State-gov",
            "Without-pay",
            "Never-worked",
        ],
    ),
    (
        "marital-status",
        &[
            "Married-civ-spouse",
            "Divorced",
            "Never-married",
            "Separated",
            "Widowed",
            "Married-spouse-absent",
            "Married-AF-spouse",
        ],
    ),
    (
        "occupation",
        &[
            "Tech-support",
            "Craft-repair",
            "Other-service",
            "Sales",
            "Exec-managerial",
            "Prof-specialty",
            "Handlers-cleaners",
            "Machine-op-inspct",
            "Adm-clerical",
            "Farming-fishing",
            "Transport-moving",
            "Priv-house-serv",
            "Protective-serv",
            "Armed-Forces",
        ],
    ),
    (
        "relationship",
        &[
            "Wife",
            "Own-child",
            "Husband",
            "Not-in-family",
            "Other-relative",
            "Unmarried",
        ],
    ),
    (
        "race",
        &[
            "White",
            "Asian-Pac-Islander",
            "Amer-Indian-Eskimo",
            "Other",
            "Black",
        ],
    ),
];

/// The Adult sample, one-hot encoded: age, education-num, hours-per-week, ln(1 + capital-gain),
/// ln(1 + capital-loss) (their long tails tamed), male, born in the United States, then one column per
/// category of workclass, marital status, occupation, relationship and race (47 features). Label 1:
/// income above 50K.
pub fn adult() -> Dataset {
    let mut names: Vec<String> = [
        "age",
        "education-num",
        "hours-per-week",
        "ln(1 + capital-gain)",
        "ln(1 + capital-loss)",
        "male",
        "native-country = United-States",
    ]
    .map(String::from)
    .to_vec();
    for (field, cats) in ADULT_CATEGORIES {
        names.extend(cats.iter().map(|c| format!("{field} = {c}")));
    }
    let dim = names.len();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for r in ADULT_BIN.chunks_exact(17) {
        let loss = u16::from_le_bytes([r[11], r[12]]);
        let gain = u32::from_le_bytes([r[13], r[14], r[15], r[16]]);
        let mut row = vec![0.0; dim];
        row[..7].copy_from_slice(&[
            f64::from(r[0]),
            f64::from(r[1]),
            f64::from(r[2]),
            f64::from(gain).ln_1p(),
            f64::from(loss).ln_1p(),
            f64::from(r[8]),
            f64::from(r[9]),
        ]);
        let mut offset = 7;
        for (k, (_, cats)) in ADULT_CATEGORIES.iter().enumerate() {
            let index = [r[3], r[4], r[5], r[6], r[7]][k] as usize;
            if index < cats.len() {
                row[offset + index] = 1.0;
            }
            offset += cats.len();
        }
        x.extend(row);
        y.push(f64::from(r[10]));
    }
    Dataset { x, y, dim, names }
}

crate::choice! {
    /// The synthetic 2-D shapes (TensorFlow Playground's classification sets).
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Shape {
        /// Two Gaussian blobs.
        Gaussians = "gaussians" => "two Gaussians",
        /// A disc inside a ring.
        Circle = "circle" => "circle",
        /// The four quadrants, labelled by the sign of x·y.
        Xor = "xor" => "xor",
        /// Two interleaved spirals.
        Spiral = "spiral" => "spiral",
    }
}

/// `n` points of `shape` with TensorFlow Playground's generators (its `dataset.ts`), `noise` in
/// [0, 0.5] as its slider's 0–50 %. Labels: 1 for the playground's positive class.
pub fn two_d<R: Rng + ?Sized>(shape: Shape, n: usize, noise: f64, rng: &mut R) -> Dataset {
    let mut x = Vec::with_capacity(2 * n);
    let mut y = Vec::with_capacity(n);
    let uniform = |lo: f64, hi: f64, rng: &mut R| lo + (hi - lo) * rng.random::<f64>();
    match shape {
        Shape::Gaussians => {
            // Variance from 0.5 (no noise) to 4 (noise 0.5), as the playground's scale.
            let sd = (0.5 + 7.0 * noise).sqrt();
            for i in 0..n {
                let (c, label) = if i % 2 == 0 { (2.0, 1.0) } else { (-2.0, 0.0) };
                x.push(c + sd * rng.sample::<f64, _>(StandardNormal));
                x.push(c + sd * rng.sample::<f64, _>(StandardNormal));
                y.push(label);
            }
        }
        Shape::Circle => {
            let radius = 5.0;
            for i in 0..n {
                let inner = i % 2 == 0;
                let r = if inner {
                    uniform(0.0, 0.5 * radius, rng)
                } else {
                    uniform(0.7 * radius, radius, rng)
                };
                let angle = uniform(0.0, 2.0 * PI, rng);
                let nx = uniform(-radius, radius, rng) * noise;
                let ny = uniform(-radius, radius, rng) * noise;
                x.push(r * angle.sin() + nx);
                x.push(r * angle.cos() + ny);
                y.push(if inner { 1.0 } else { 0.0 });
            }
        }
        Shape::Xor => {
            let pad = 0.3;
            for _ in 0..n {
                let mut a = uniform(-5.0, 5.0, rng);
                a += if a > 0.0 { pad } else { -pad };
                let mut b = uniform(-5.0, 5.0, rng);
                b += if b > 0.0 { pad } else { -pad };
                let label = if a * b >= 0.0 { 1.0 } else { 0.0 };
                x.push(a + uniform(-5.0, 5.0, rng) * noise);
                x.push(b + uniform(-5.0, 5.0, rng) * noise);
                y.push(label);
            }
        }
        Shape::Spiral => {
            let half = n / 2;
            for i in 0..n {
                let (k, delta, label) = if i < half {
                    (i, 0.0, 1.0)
                } else {
                    (i - half, PI, 0.0)
                };
                let per = (n - half).max(1) as f64;
                let r = k as f64 / per * 5.0;
                let t = 1.75 * k as f64 / per * 2.0 * PI + delta;
                x.push(r * t.sin() + uniform(-1.0, 1.0, rng) * noise);
                x.push(r * t.cos() + uniform(-1.0, 1.0, rng) * noise);
                y.push(label);
            }
        }
    }
    Dataset {
        x,
        y,
        dim: 2,
        names: vec!["x1".into(), "x2".into()],
    }
}

/// `n` rows of a `dim`-dimensional logistic model: x ~ N(0, I), a true θ* ~ N(0, 4/dim · I) drawn
/// first (so the logit x·θ* has variance about 4), y ~ Bernoulli(1/(1 + e^−x·θ*)). With n not far
/// above dim a model fits the training rows far better than the test rows: it memorises.
///
/// # Errors
/// A dimension above [`super::data::MAX_FEATURES`].
pub fn high_dim<R: Rng + ?Sized>(n: usize, dim: usize, rng: &mut R) -> Result<Dataset> {
    if dim == 0 || dim > super::data::MAX_FEATURES {
        return Err(Error::invalid(
            "dim",
            dim,
            format!("must be 1 to {}", super::data::MAX_FEATURES),
        ));
    }
    let sd = (4.0 / dim as f64).sqrt();
    let truth: Vec<f64> = (0..dim)
        .map(|_| sd * rng.sample::<f64, _>(StandardNormal))
        .collect();
    let mut x = Vec::with_capacity(n * dim);
    let mut y = Vec::with_capacity(n);
    for _ in 0..n {
        let row: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
        let p = super::model::sigmoid(super::model::dot(&row, &truth));
        y.push(if rng.random::<f64>() < p { 1.0 } else { 0.0 });
        x.extend(row);
    }
    Ok(Dataset {
        x,
        y,
        dim,
        names: (1..=dim).map(|j| format!("x{j}")).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The vendored file is scikit-learn's: 569 × 30, 357 benign, and the first row's values.
    #[test]
    fn breast_cancer_is_sklearns() {
        let d = breast_cancer();
        d.validate().unwrap();
        assert_eq!((d.rows(), d.dim, d.names.len()), (569, 30, 30));
        assert_eq!(d.y.iter().filter(|&&v| v == 1.0).count(), 357);
        assert_eq!(d.row(0)[0], 17.99);
        assert_eq!(d.row(568)[29], 0.07039);
        assert_eq!(d.names[20], "radius (worst)");
    }

    /// The Adult sample decodes as `scripts/data/adult_sample.py` wrote it (its first row, its label
    /// count, sums over columns printed by numpy from the same bytes).
    #[test]
    fn adult_decodes_the_vendored_sample() {
        let d = adult();
        d.validate().unwrap();
        assert_eq!((d.rows(), d.dim), (8000, 47));
        assert_eq!(d.y.iter().filter(|&&v| v == 1.0).count(), 1968);
        let row = d.row(0);
        assert_eq!(&row[..7], &[32.0, 12.0, 50.0, 0.0, 0.0, 1.0, 1.0]);
        // workclass Private, marital Never-married, occupation Sales, relationship Not-in-family, race Black.
        let ones: Vec<usize> = (7..47).filter(|&j| row[j] == 1.0).collect();
        assert_eq!(ones, [7, 15 + 2, 22 + 3, 36 + 3, 42 + 4]);
        let col = |j: usize| (0..d.rows()).map(|i| d.row(i)[j]).sum::<f64>();
        assert_eq!(col(0) / 8000.0, 38.51325);
        assert_eq!(col(2), 325862.0);
        assert!((0..d.rows()).all(|i| d.row(i)[7..].iter().sum::<f64>() == 5.0));
    }

    #[test]
    fn synthetic_sets_are_balanced_and_seeded() {
        for shape in Shape::ALL {
            let a = two_d(shape, 200, 0.2, &mut ChaCha8Rng::seed_from_u64(3));
            let b = two_d(shape, 200, 0.2, &mut ChaCha8Rng::seed_from_u64(3));
            assert_eq!(a, b);
            a.validate().unwrap();
            let ones = a.y.iter().sum::<f64>();
            assert!((60.0..=140.0).contains(&ones), "{shape:?}: {ones}");
        }
        let h = high_dim(300, 50, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        h.validate().unwrap();
        assert_eq!(h.x.len(), 300 * 50);
        assert!(high_dim(10, 1001, &mut ChaCha8Rng::seed_from_u64(1)).is_err());
    }
}
