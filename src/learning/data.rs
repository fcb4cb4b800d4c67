//! A binary classification data set as the trainers see it: rows of features and 0/1 labels, its split
//! into training and test rows, standardisation by the training rows' statistics, and the parser of a
//! user's CSV (last column the label).

use crate::error::{Error, Result};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Most rows a data set may have (a CSV with more is refused: every row's gradient is computed at every
/// evaluation point, and a page holding 10⁶ rows would stall).
pub const MAX_ROWS: usize = 100_000;
/// Most feature columns.
pub const MAX_FEATURES: usize = 1_000;

/// Rows of features with a 0/1 label each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// Features, row-major (`rows × dim`).
    pub x: Vec<f64>,
    /// Labels, 0 or 1.
    pub y: Vec<f64>,
    /// Features per row.
    pub dim: usize,
    /// The feature names (for the CSV and the weights' export).
    pub names: Vec<String>,
}

impl Dataset {
    /// Rows.
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    /// Row `i`'s features.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.dim..(i + 1) * self.dim]
    }

    /// The rows at `idx`, in that order.
    pub fn select(&self, idx: &[usize]) -> Dataset {
        let mut x = Vec::with_capacity(idx.len() * self.dim);
        for &i in idx {
            x.extend_from_slice(self.row(i));
        }
        Dataset {
            x,
            y: idx.iter().map(|&i| self.y[i]).collect(),
            dim: self.dim,
            names: self.names.clone(),
        }
    }

    /// Checks what every trainer needs: rows, finite features, 0/1 labels, both classes.
    ///
    /// # Errors
    /// An empty set, a non-finite feature, a label other than 0 or 1, or one class only.
    pub fn validate(&self) -> Result<()> {
        if self.rows() < 4 || self.dim == 0 {
            return Err(Error::invalid(
                "data",
                format!("{} rows × {} features", self.rows(), self.dim),
                "needs at least 4 rows and one feature",
            ));
        }
        if let Some(i) = self.x.iter().position(|v| !v.is_finite()) {
            return Err(Error::invalid(
                "data",
                self.x[i],
                format!(
                    "is not a finite number (row {}, column {})",
                    i / self.dim + 1,
                    i % self.dim + 1
                ),
            ));
        }
        if let Some(i) = self.y.iter().position(|&v| v != 0.0 && v != 1.0) {
            return Err(Error::invalid(
                "data",
                self.y[i],
                format!("is not a label 0 or 1 (row {})", i + 1),
            ));
        }
        let ones = self.y.iter().filter(|&&v| v == 1.0).count();
        if ones == 0 || ones == self.rows() {
            return Err(Error::invalid(
                "data",
                format!("{} rows, all labelled {}", self.rows(), self.y[0]),
                "has one class only: a classifier needs both labels",
            ));
        }
        Ok(())
    }
}

/// The training and test rows, standardised by the training rows' mean and standard deviation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Split {
    /// Training rows (standardised).
    pub train: Dataset,
    /// Test rows (standardised with the training rows' statistics).
    pub test: Dataset,
    /// Each feature's training mean.
    pub mean: Vec<f64>,
    /// Each feature's training standard deviation (population, ddof = 0, as scikit-learn's
    /// `StandardScaler`); 1 for a constant column, which is then centred only.
    pub scale: Vec<f64>,
    /// Features that were constant on the training rows (1-based column numbers).
    pub constant: Vec<usize>,
}

impl Split {
    /// Shuffles the rows with `rng`, keeps the first `fraction` (at least 2, leaving at least 2) for
    /// training, and standardises both parts by the training rows. Not private: the mean and scale
    /// are read from the data, as most DP-SGD tutorials do (the page says so).
    ///
    /// # Errors
    /// An invalid data set (see [`Dataset::validate`]).
    pub fn new<R: Rng + ?Sized>(data: &Dataset, fraction: f64, rng: &mut R) -> Result<Split> {
        data.validate()?;
        let mut idx: Vec<usize> = (0..data.rows()).collect();
        idx.shuffle(rng);
        let n_train = ((data.rows() as f64 * fraction).round() as usize).clamp(2, data.rows() - 2);
        let (train, test) = idx.split_at(n_train);
        Ok(Split::standardised(data.select(train), data.select(test)))
    }

    /// Standardises `train` and `test` by `train`'s statistics.
    pub fn standardised(mut train: Dataset, mut test: Dataset) -> Split {
        let (d, n) = (train.dim, train.rows() as f64);
        let mut mean = vec![0.0; d];
        for i in 0..train.rows() {
            for (m, v) in mean.iter_mut().zip(train.row(i)) {
                *m += v / n;
            }
        }
        let mut var = vec![0.0; d];
        for i in 0..train.rows() {
            for ((s, v), m) in var.iter_mut().zip(train.row(i)).zip(&mean) {
                *s += (v - m) * (v - m) / n;
            }
        }
        let mut constant = Vec::new();
        let scale: Vec<f64> = var
            .iter()
            .enumerate()
            .map(|(j, v)| {
                let s = v.sqrt();
                if s > 1e-12 * (1.0 + mean[j].abs()) {
                    s
                } else {
                    constant.push(j + 1);
                    1.0
                }
            })
            .collect();
        for set in [&mut train, &mut test] {
            for row in set.x.chunks_mut(d) {
                for ((v, m), s) in row.iter_mut().zip(&mean).zip(&scale) {
                    *v = (*v - m) / s;
                }
            }
        }
        Split {
            train,
            test,
            mean,
            scale,
            constant,
        }
    }
}

/// Parses a CSV of numbers: an optional header row (kept as the feature names), commas, semicolons or
/// tabs, the last column the label (two distinct values, mapped to 0 and 1 in increasing order).
///
/// # Errors
/// Text or NaN where a number belongs, rows of unequal length, more than [`MAX_ROWS`] rows or
/// [`MAX_FEATURES`] features, a label column with other than two values.
pub fn parse_csv(text: &str) -> Result<Dataset> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .peekable();
    let split = |l: &str| -> Vec<String> {
        l.split([',', ';', '\t'])
            .map(|c| c.trim().trim_matches('"').to_owned())
            .collect()
    };
    let mut names = Vec::new();
    if let Some((_, first)) = lines.peek() {
        let cells = split(first);
        if cells.iter().any(|c| c.parse::<f64>().is_err()) {
            names = cells;
            lines.next();
        }
    }
    let (mut x, mut labels) = (Vec::new(), Vec::new());
    let mut width = None;
    for (line_no, line) in lines {
        let cells = split(line);
        let w = *width.get_or_insert(cells.len());
        if cells.len() != w {
            return Err(Error::invalid(
                "csv",
                format!("line {}", line_no + 1),
                format!("has {} columns where the first row has {w}", cells.len()),
            ));
        }
        if w < 2 {
            return Err(Error::invalid(
                "csv",
                line,
                "needs at least one feature column and a label column",
            ));
        }
        if w - 1 > MAX_FEATURES {
            return Err(Error::invalid(
                "csv",
                format!("{} columns", w),
                format!("has more than {MAX_FEATURES} features"),
            ));
        }
        if labels.len() >= MAX_ROWS {
            return Err(Error::invalid(
                "csv",
                "more rows",
                format!("is larger than the page trains on ({MAX_ROWS} rows at most)"),
            ));
        }
        for (j, c) in cells.iter().enumerate() {
            let v: f64 = c
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| {
                    Error::invalid(
                        "csv",
                        c,
                        format!(
                            "is not a finite number (line {}, column {})",
                            line_no + 1,
                            j + 1
                        ),
                    )
                })?;
            if j + 1 == w {
                labels.push(v);
            } else {
                x.push(v);
            }
        }
    }
    let dim = width.map_or(0, |w| w - 1);
    let mut classes: Vec<f64> = labels.clone();
    classes.sort_by(f64::total_cmp);
    classes.dedup();
    if classes.len() != 2 {
        return Err(Error::invalid(
            "csv",
            format!("{} distinct labels", classes.len()),
            "must have exactly two label values in its last column",
        ));
    }
    let y = labels
        .iter()
        .map(|&v| if v == classes[1] { 1.0 } else { 0.0 })
        .collect();
    if names.len() != dim + 1 {
        names = (1..=dim).map(|j| format!("x{j}")).collect();
    } else {
        names.pop();
    }
    let data = Dataset { x, y, dim, names };
    data.validate()?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn csv_with_header_and_ugly_inputs() {
        let d = parse_csv("a,b,label\n1,2,yes\n").unwrap_err();
        assert_eq!(d.parameter(), "csv");
        let d = parse_csv("a;b;c\n1;2;5\n3;4;7\n5;6;5\n7;8;7\n").unwrap();
        assert_eq!((d.rows(), d.dim), (4, 2));
        assert_eq!(d.y, [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(d.names, ["a", "b"]);
        for bad in [
            "1,2,0\n3,NaN,1\n",
            "1,2,0\n3,4\n",
            "1,2,0\n3,4,0\n5,6,0\n7,8,0\n",
            "1,2,0\n3,4,1\n5,6,2\n7,8,0\n",
            "",
            "1\n2\n",
            "1,inf,0\n1,2,1\n",
        ] {
            assert!(parse_csv(bad).is_err(), "{bad:?}");
        }
        let big = "1,0\n2,1\n".repeat(MAX_ROWS / 2 + 1);
        assert!(parse_csv(&big)
            .unwrap_err()
            .to_string()
            .contains("rows at most"));
    }

    #[test]
    fn standardisation_uses_the_training_rows_and_survives_a_constant_column() {
        let d = parse_csv("1,5,0\n2,5,1\n3,5,0\n4,5,1\n5,5,0\n6,5,1\n").unwrap();
        let s = Split::new(&d, 0.5, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        assert_eq!(s.constant, [2]);
        assert_eq!((s.train.rows(), s.test.rows()), (3, 3));
        let col0: Vec<f64> = (0..3).map(|i| s.train.row(i)[0]).collect();
        let mean: f64 = col0.iter().sum::<f64>() / 3.0;
        let var: f64 = col0.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 3.0;
        assert!(mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12);
        assert!(s.train.x.iter().chain(&s.test.x).all(|v| v.is_finite()));
    }
}
