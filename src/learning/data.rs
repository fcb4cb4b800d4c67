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
/// Most feature values (rows × features) a CSV may hold: the page keeps the data (8 MB), every job
/// gets a copy, and every report point evaluates three models on every row. At the cap a default
/// training job took 0.5 s (1,000 × 1,000) to 3.8 s (100,000 × 10, 75,000 steps) natively; 26 million
/// values (a 50 MB file) exhausted the wasm's memory.
pub const MAX_CELLS: usize = 1_000_000;
/// Largest CSV file read, in bytes (checked before reading it).
pub const MAX_BYTES: usize = 16 << 20;
/// Longest cell (a number needs at most 24 characters; a header name is a cell too).
pub const MAX_CELL_CHARS: usize = 64;
/// Fewest data rows: a split keeps at least 2 rows to train on and 2 to test.
pub const MIN_ROWS: usize = 4;
/// Characters an error quotes of what it refuses.
pub const EXCERPT_CHARS: usize = 40;

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

/// Labelled rows as a trainer reads them: a [`Dataset`] hands out its rows as they are; other stores
/// (images kept as bytes, [`crate::learning::images::ImageRows`]) convert a row into a buffer when
/// asked, so that 60 000 images need not be held as 376 MB of f64.
pub trait Examples {
    /// Rows.
    fn rows(&self) -> usize;
    /// Features per row.
    fn dim(&self) -> usize;
    /// Row `i`'s label (0 or 1, or the class 0..K).
    fn label(&self, i: usize) -> f64;
    /// Row `i`'s features, written into `buf` (resized) when they are not stored as f64.
    fn features<'s>(&'s self, i: usize, buf: &'s mut Vec<f64>) -> &'s [f64];
}

impl Examples for Dataset {
    fn rows(&self) -> usize {
        self.y.len()
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn label(&self, i: usize) -> f64 {
        self.y[i]
    }
    fn features<'s>(&'s self, i: usize, _: &'s mut Vec<f64>) -> &'s [f64] {
        self.row(i)
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

    /// Standardises `train` and `test` by `train`'s statistics. A column holding values beyond
    /// ±[`HUGE`] (or all within ±1/[`HUGE`], not all 0), in either part, is first divided by its
    /// largest magnitude, so that its deviations and their squares stay finite (±1e308 would overflow
    /// to ∞ and standardise to 0) and tiny values keep their spread; every other column is
    /// standardised exactly as before, bit for bit.
    pub fn standardised(mut train: Dataset, mut test: Dataset) -> Split {
        let (d, n) = (train.dim, train.rows() as f64);
        let mut unit = vec![0.0f64; d];
        for set in [&train, &test] {
            for row in set.x.chunks(d.max(1)) {
                for (u, v) in unit.iter_mut().zip(row) {
                    *u = u.max(v.abs());
                }
            }
        }
        for u in unit.iter_mut() {
            let rescale = *u > HUGE || (*u > 0.0 && *u < 1.0 / HUGE);
            *u = if rescale { *u } else { 1.0 };
        }
        let mut mean = vec![0.0; d];
        for i in 0..train.rows() {
            for ((m, v), u) in mean.iter_mut().zip(train.row(i)).zip(&unit) {
                *m += v / u / n;
            }
        }
        let mut var = vec![0.0; d];
        for i in 0..train.rows() {
            for (((s, v), m), u) in var.iter_mut().zip(train.row(i)).zip(&mean).zip(&unit) {
                *s += (v / u - m) * (v / u - m) / n;
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
            for row in set.x.chunks_mut(d.max(1)) {
                for (((v, m), s), u) in row.iter_mut().zip(&mean).zip(&scale).zip(&unit) {
                    *v = (*v / u - m) / s;
                }
            }
        }
        // In the data's own units (finite: |mean| and scale are at most 1 in a rescaled column's).
        let mean = mean.iter().zip(&unit).map(|(m, u)| m * u).collect();
        let scale = scale.iter().zip(&unit).map(|(s, u)| s * u).collect();
        Split {
            train,
            test,
            mean,
            scale,
            constant,
        }
    }
}

/// Magnitude beyond which a column is rescaled before standardising (its squared deviations could
/// overflow above about 1e154).
pub const HUGE: f64 = 1e100;

/// Parses a CSV of numbers: an optional header row (kept as the feature names), commas, semicolons or
/// tabs, the last column the label (two distinct values, mapped to 0 and 1 in increasing order).
/// Its work is bounded by [`MAX_BYTES`], [`MAX_CELL_CHARS`] and [`MAX_CELLS`]; an error quotes at
/// most a short, printable excerpt of what it refuses ([`excerpt`]) with its line and column.
///
/// # Errors
/// A file above [`MAX_BYTES`] or binary; text or a non-finite number where a number belongs; a cell
/// longer than [`MAX_CELL_CHARS`]; rows of unequal length; more than [`MAX_ROWS`] rows,
/// [`MAX_FEATURES`] features or [`MAX_CELLS`] values; no data rows or too few for a train/test split;
/// a label column with one value or more than two.
pub fn parse_csv(text: &str) -> Result<Dataset> {
    let refuse = |value: String, reason: String| Err(Error::invalid("csv", value, reason));
    if text.len() > MAX_BYTES {
        return refuse(
            format!("{} bytes", text.len()),
            format!(
                "is larger than the page reads ({} MB at most)",
                MAX_BYTES >> 20
            ),
        );
    }
    if let Some(at) = text.find('\0') {
        return refuse(
            excerpt(&text[at.saturating_sub(20)..]),
            "holds a NUL byte: this looks like a binary file, not a CSV of numbers".into(),
        );
    }
    let mut lines = text
        .lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    fn split(l: &str) -> Vec<&str> {
        l.split([',', ';', '\t'])
            .map(|c| c.trim().trim_matches('"'))
            .collect()
    }
    let mut names = Vec::new();
    if let Some(&(line_no, first)) = lines.peek() {
        let cells = split(first);
        if cells.iter().any(|c| c.parse::<f64>().is_err()) {
            if let Some((j, c)) = cells
                .iter()
                .enumerate()
                .find(|(_, c)| c.chars().count() > MAX_CELL_CHARS)
            {
                return refuse(
                    excerpt(c),
                    format!(
                        "is a header name longer than {MAX_CELL_CHARS} characters (line {}, column {})",
                        line_no + 1,
                        j + 1
                    ),
                );
            }
            names = cells.iter().map(|c| (*c).to_owned()).collect();
            lines.next();
        }
    }
    let (mut x, mut labels) = (Vec::new(), Vec::new());
    let mut width = None;
    for (line_no, line) in lines {
        let cells = split(line);
        let w = *width.get_or_insert(cells.len());
        if cells.len() != w {
            return refuse(
                format!("line {}", line_no + 1),
                format!("has {} columns where the first row has {w}", cells.len()),
            );
        }
        if w < 2 {
            return refuse(
                excerpt(line),
                format!(
                    "(line {}) is one column: the file needs at least one feature column and a label column, separated by commas, semicolons or tabs",
                    line_no + 1
                ),
            );
        }
        if w - 1 > MAX_FEATURES {
            return refuse(
                format!("{w} columns"),
                format!("has more than {MAX_FEATURES} features"),
            );
        }
        if labels.len() >= MAX_ROWS {
            return refuse(
                "more rows".into(),
                format!("is larger than the page trains on ({MAX_ROWS} rows at most)"),
            );
        }
        if (labels.len() + 1) * (w - 1) > MAX_CELLS {
            return refuse(
                format!("{} rows × {} features so far", labels.len() + 1, w - 1),
                format!(
                    "is larger than the page trains on: rows × features at most {} million (e.g. 10,000 rows of 100 features, or 1,000 of 1,000)",
                    crate::link::query::fmt_f64(MAX_CELLS as f64 / 1e6)
                ),
            );
        }
        for (j, c) in cells.iter().enumerate() {
            let at = || format!("line {}, column {}", line_no + 1, j + 1);
            if c.chars().count() > MAX_CELL_CHARS {
                return refuse(
                    excerpt(c),
                    format!(
                        "is longer than a number ({MAX_CELL_CHARS} characters at most; {})",
                        at()
                    ),
                );
            }
            let Some(v) = c.parse::<f64>().ok().filter(|v| v.is_finite()) else {
                return refuse(excerpt(c), format!("is not a finite number ({})", at()));
            };
            if j + 1 == w {
                labels.push(v);
            } else {
                x.push(v);
            }
        }
    }
    let dim = width.map_or(0, |w| w - 1);
    match labels.len() {
        0 => {
            return refuse(
                "0 data rows".into(),
                "has no data rows: the file is empty, or a header alone".into(),
            )
        }
        n if n < MIN_ROWS => {
            return refuse(
                format!("{n} data row{}", if n == 1 { "" } else { "s" }),
                format!(
                    "is too small: a train/test split needs at least {MIN_ROWS} rows (2 to train on, 2 to test)"
                ),
            )
        }
        _ => {}
    }
    let mut classes: Vec<f64> = labels.clone();
    classes.sort_by(f64::total_cmp);
    classes.dedup();
    match classes.len() {
        2 => {}
        1 => {
            return refuse(
                format!("every label {}", crate::link::query::fmt_f64(classes[0])),
                "has one label value only in its last column: a classifier needs two".into(),
            )
        }
        k => {
            return refuse(
                format!("{k} distinct labels"),
                "must have exactly two label values in its last column".into(),
            )
        }
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

/// At most [`EXCERPT_CHARS`] characters of `s`, control characters escaped (`\n`, `\u{1b}`, …) and
/// "…" where it was cut: how an error quotes what it refuses.
pub fn excerpt(s: &str) -> String {
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
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

    /// Issue 53: degenerate files were named by their labels ("0 distinct labels" for an empty or
    /// header-only file, "1 distinct labels" for one row); they are named for what they are.
    #[test]
    fn degenerate_files_are_named_for_what_they_are() {
        let says = |text: &str, what: &str| {
            let e = parse_csv(text).unwrap_err().to_string();
            assert!(e.contains(what), "{text:?}: {e}");
            assert!(!e.contains("distinct labels"), "{text:?}: {e}");
        };
        for empty in ["", "\n\n  \n", "a,b,label\n", "a,b,label\n\n"] {
            says(empty, "no data rows");
        }
        says("1,2,0\n", "1 data row\" is too small");
        says("a,b,y\n1,2,0\n3,4,1\n5,6,0\n", "3 data rows\" is too small");
        says("1,0\n2,0\n3,0\n4,0\n", "one label value only");
        let three = parse_csv("1,0\n2,1\n3,2\n4,0\n").unwrap_err().to_string();
        assert!(three.contains("3 distinct labels"), "{three}");
    }

    /// Issue 53: errors quoted the whole bad cell or line (a 50 MB line gave a 52-million-character
    /// message) and printed a binary file's control characters; the work was bounded by rows and by
    /// features but not by their product, nor by bytes.
    #[test]
    fn uploads_are_bounded_and_errors_quote_briefly_and_printably() {
        let brief = |text: &str, what: &str| {
            let e = parse_csv(text).unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
            assert!(e.chars().count() < 260, "{} characters: {e}", e.len());
            assert!(!e.chars().any(char::is_control), "{e:?}");
            e
        };
        // A long line without separators (numeric, so not a header) and a long header name.
        let e = brief(&format!("{}\n", "1".repeat(200_000)), "one column");
        assert!(e.contains("11111…"), "{e}");
        brief(
            &format!("{},y\n1,0\n", "a".repeat(200_000)),
            "header name longer",
        );
        // A long cell, and control characters, escaped, with the line and column.
        brief(
            &format!("1,0\n2,{}\n", "7".repeat(100)),
            "longer than a number",
        );
        let e = brief("1,2,0\n3,\u{1b}[31mred\u{7},1\n", "line 2, column 2");
        assert!(e.contains("\\u{1b}[31mred\\u{7}"), "{e}");
        brief("\u{7f}ELF\u{2}\u{1}\u{1}\0\0\0garbage", "binary file");
        // Bytes: refused before any parsing.
        let huge = "1,0\n".repeat(MAX_BYTES / 4 + 1);
        brief(&huge, "MB at most");
        // Cells: 1,000 rows of 1,000 features fit; one more row does not.
        let row = format!("{}1\n", "0.5,".repeat(MAX_FEATURES));
        let zeros = format!("{}0\n", "0.25,".repeat(MAX_FEATURES));
        let rows = MAX_CELLS / MAX_FEATURES;
        let fits = format!("{}{}", row.repeat(rows / 2), zeros.repeat(rows / 2));
        assert_eq!(parse_csv(&fits).unwrap().rows(), rows);
        brief(&format!("{fits}{row}"), "rows × features at most 1 million");
    }

    /// Issue 53: a column of ±1e308 was accepted and standardised to all zeros (its squared
    /// deviations overflowed); tiny values were taken for a constant.
    #[test]
    fn huge_and_tiny_columns_standardise_to_finite_meaningful_values() {
        let text = "1e308,1e-300,1,0\n-1e308,3e-300,2,1\n1e308,2e-300,3,0\n-1e308,4e-300,4,1\n\
                    5e307,1e-300,5,0\n-1e308,2e-300,6,1\n";
        let d = parse_csv(text).unwrap();
        let s = Split::new(&d, 0.5, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        assert!(s.constant.is_empty(), "{:?}", s.constant);
        assert!(s.mean.iter().chain(&s.scale).all(|v| v.is_finite()));
        for j in 0..3 {
            let col: Vec<f64> = (0..3).map(|i| s.train.row(i)[j]).collect();
            let mean = col.iter().sum::<f64>() / 3.0;
            let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 3.0;
            assert!(
                mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12,
                "column {j}: {col:?}"
            );
        }
        assert!(s.train.x.iter().chain(&s.test.x).all(|v| v.is_finite()));
        // Un-standardised, a value comes back (the weights' export reads mean and scale).
        let back = s.train.row(0)[0] * s.scale[0] + s.mean[0];
        assert!(back.abs() > 1e307, "{back}");
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
