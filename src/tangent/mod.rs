//! Tangent differential privacy (Ying, J. Mach. Learn. 4(3), 2025): the Gibbs distribution of entropic
//! regularization, its tangent maps, their operator norms and the paper's bounds 2βR (Theorems 3.1–3.4).
//!
//! - this module: data points, parameter grids, models and losses;
//! - [`gibbs`]: an instance (data, model, loss, β) and its Gibbs distribution q(w) ∝ exp(−β Σ p_i r(w, x_i));
//! - [`norms`]: the tangent maps' norms (TV and Wasserstein cases) beside the theorems' bounds;
//! - [`removal`]: the exact effect of removing points against the first-order prediction and the bound;
//! - [`sampling`]: Monte Carlo estimates of R on the grid and by Langevin dynamics.

pub mod gibbs;
pub mod kernel;
pub mod norms;
pub mod removal;
pub mod sampling;

use crate::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// A labelled data point (feature x, label y = ±1).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// The feature.
    pub x: f64,
    /// The label, +1 or −1.
    pub y: f64,
}

/// N points of a two-class Gaussian mixture: y = ±1 with probability ½ each, x ~ N(y, 1). Seeded (ChaCha8).
pub fn mixture(n: usize, seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let y = if rng.random::<bool>() { 1.0 } else { -1.0 };
            let z: f64 = StandardNormal.sample(&mut rng);
            Point { x: y + z, y }
        })
        .collect()
}

/// Parses `x:y,x:y,…` (y = 1 or −1), up to `max` points.
pub fn parse_points(s: &str, max: usize) -> Result<Vec<Point>> {
    let bad = |why: &str| Error::invalid("data", s, why.to_string());
    let points = s
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let (x, y) = t
                .split_once(':')
                .ok_or_else(|| bad("must list x:y pairs, e.g. 0.5:1,-0.3:-1"))?;
            let x: f64 = x
                .trim()
                .parse()
                .map_err(|_| bad("has a feature that is not a number"))?;
            let y: f64 = y
                .trim()
                .parse()
                .map_err(|_| bad("has a label that is not 1 or -1"))?;
            if !x.is_finite() || x.abs() > 1e6 {
                return Err(bad("has a feature outside [-1e6, 1e6]"));
            }
            if y != 1.0 && y != -1.0 {
                return Err(bad("has a label that is not 1 or -1"));
            }
            Ok(Point { x, y })
        })
        .collect::<Result<Vec<_>>>()?;
    if points.len() < 2 || points.len() > max {
        return Err(bad(&format!("must list 2 to {max} points")));
    }
    Ok(points)
}

/// Prints points as the `data` key holds them.
pub fn format_points(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{}:{}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(",")
}

/// An evenly spaced grid `min:max:count` (count ≥ 2, both ends included).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Grid {
    /// First point.
    pub min: f64,
    /// Last point.
    pub max: f64,
    /// Number of points.
    pub count: usize,
}

impl Grid {
    /// The i-th point.
    pub fn at(&self, i: usize) -> f64 {
        self.min + (self.max - self.min) * i as f64 / (self.count - 1) as f64
    }

    /// Every point.
    pub fn points(&self) -> Vec<f64> {
        (0..self.count).map(|i| self.at(i)).collect()
    }

    /// Parses `min:max:count` for the key `name`, with 2 ≤ count ≤ `max_count` and |ends| ≤ 1e3.
    pub fn parse(name: &'static str, s: &str, max_count: usize) -> Result<Grid> {
        let parts: Vec<&str> = s.split(':').map(str::trim).collect();
        let bad = || {
            Error::invalid(
                name,
                s,
                format!("must be min:max:count with min < max and count from 2 to {max_count}"),
            )
        };
        let [lo, hi, n] = parts[..] else {
            return Err(bad());
        };
        let (min, max) = (
            crate::link::query::parse_number(name, lo).map_err(|_| bad())?,
            crate::link::query::parse_number(name, hi).map_err(|_| bad())?,
        );
        let count = n.parse::<usize>().map_err(|_| bad())?;
        if !(min.is_finite()
            && max.is_finite()
            && min < max
            && min.abs() <= 1e3
            && max.abs() <= 1e3)
        {
            return Err(bad());
        }
        if !(2..=max_count).contains(&count) {
            return Err(bad());
        }
        Ok(Grid { min, max, count })
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.min, self.max, self.count)
    }
}

crate::choice! {
    /// The model f_w(x) whose margin y·f_w(x) the loss sees.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Model {
        /// f_w(x) = x − w, w on one grid.
        Threshold = "threshold" => "threshold",
        /// f_w(x) = w₁x + w₂, (w₁, w₂) on the product of the grid with itself.
        Linear2d = "linear2d" => "linear 2-D",
    }
}

impl Model {
    /// Parses the `model` key.
    ///
    /// # Errors
    /// Any other value.
    pub fn parse(s: &str) -> Result<Model> {
        Self::from_key(s).ok_or_else(|| Error::invalid("model", s, "must be threshold or linear2d"))
    }

    /// The margin m = y·f_w(x).
    pub fn margin(self, w: (f64, f64), p: Point) -> f64 {
        match self {
            Model::Threshold => p.y * (p.x - w.0),
            Model::Linear2d => p.y * (w.0 * p.x + w.1),
        }
    }

    /// ∂m/∂x.
    pub fn margin_dx(self, w: (f64, f64), p: Point) -> f64 {
        match self {
            Model::Threshold => p.y,
            Model::Linear2d => p.y * w.0,
        }
    }

    /// ∇_w m (the second entry is 0 for the threshold model).
    pub fn margin_dw(self, p: Point) -> (f64, f64) {
        match self {
            Model::Threshold => (-p.y, 0.0),
            Model::Linear2d => (p.y * p.x, p.y),
        }
    }
}

crate::choice! {
    /// A loss as a function of the margin m.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Loss {
        /// 1[m ≤ 0] (bounded by 1; zero x-gradient almost everywhere).
        ZeroOne = "01" | "0/1" | "zero-one" | "zeroone" | "0-1" => "0/1",
        /// 1/(1 + e^m)² (bounded by 1).
        Savage = "savage" => "Savage",
        /// (2·arctan m − 1)² (bounded by (π + 1)²).
        Tangent = "tangent" => "tangent",
        /// ln(1 + e^{−m}) (unbounded).
        Logistic = "logistic" => "logistic",
        /// max(0, 1 − m) (unbounded).
        Hinge = "hinge" => "hinge",
    }
}

impl Loss {
    /// Parses the `loss` key (`0/1`, `zero-one` also read).
    ///
    /// # Errors
    /// Any other value.
    pub fn parse(s: &str) -> Result<Loss> {
        Self::from_key(s).ok_or_else(|| {
            Error::invalid("loss", s, "must be 01, savage, tangent, logistic or hinge")
        })
    }

    /// The supremum of the loss over all margins, if finite.
    pub fn bound(self) -> Option<f64> {
        match self {
            Loss::ZeroOne | Loss::Savage => Some(1.0),
            Loss::Tangent => Some((std::f64::consts::PI + 1.0).powi(2)),
            Loss::Logistic | Loss::Hinge => None,
        }
    }

    /// r as a function of the margin (all ≥ 0, no overflow for any finite m).
    pub fn value(self, m: f64) -> f64 {
        match self {
            Loss::ZeroOne => f64::from(u8::from(m <= 0.0)),
            Loss::Savage => {
                let s = sigmoid(-m);
                s * s
            }
            Loss::Tangent => (2.0 * m.atan() - 1.0).powi(2),
            Loss::Logistic => {
                if m > 0.0 {
                    (-m).exp().ln_1p()
                } else {
                    -m + m.exp().ln_1p()
                }
            }
            Loss::Hinge => (1.0 - m).max(0.0),
        }
    }

    /// (r, dr/dm) with the shared part (the sigmoid, the arctangent) computed once: the same bits as
    /// [`Loss::value`] and [`Loss::slope`], since the expressions are theirs.
    pub fn value_and_slope(self, m: f64) -> (f64, f64) {
        match self {
            Loss::Savage => {
                let s = sigmoid(-m);
                (s * s, -2.0 * s * s * (1.0 - s))
            }
            Loss::Tangent => {
                let a = 2.0 * m.atan() - 1.0;
                (a.powi(2), 4.0 * a / (1.0 + m * m))
            }
            _ => (self.value(m), self.slope(m)),
        }
    }

    /// dr/dm (0 for the 0/1 loss, whose derivative vanishes almost everywhere; the hinge takes −1 below 1).
    pub fn slope(self, m: f64) -> f64 {
        match self {
            Loss::ZeroOne => 0.0,
            Loss::Savage => {
                let s = sigmoid(-m);
                -2.0 * s * s * (1.0 - s)
            }
            Loss::Tangent => 4.0 * (2.0 * m.atan() - 1.0) / (1.0 + m * m),
            Loss::Logistic => -sigmoid(-m),
            Loss::Hinge => {
                if m < 1.0 {
                    -1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// 1/(1 + e^{−t}) without overflow.
fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slopes_are_derivatives_and_values_are_stable() {
        for loss in [Loss::Savage, Loss::Tangent, Loss::Logistic, Loss::Hinge] {
            for m in [-30.0, -2.0, -0.3, 0.2, 0.7, 3.0, 40.0] {
                let h = 1e-6;
                let fd = (loss.value(m + h) - loss.value(m - h)) / (2.0 * h);
                assert!(
                    (fd - loss.slope(m)).abs() < 1e-6 * (1.0 + fd.abs()),
                    "{loss} at {m}: {fd} vs {}",
                    loss.slope(m)
                );
            }
        }
        for loss in Loss::ALL {
            for m in [-1e300, -800.0, 0.0, 800.0, 1e300] {
                let v = loss.value(m);
                assert!(v.is_finite() && v >= 0.0, "{loss} at {m}: {v}");
                if let Some(b) = loss.bound() {
                    assert!(v <= b);
                }
            }
        }
        assert!((Loss::Logistic.value(0.0) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(Loss::ZeroOne.value(0.0), 1.0);
    }

    #[test]
    fn parsing_and_data() {
        assert_eq!(
            Grid::parse("wgrid", "-3:3:121", 1000).map(|g| g.at(60)),
            Ok(0.0)
        );
        for bad in [
            "3:-3:10",
            "0:1:1",
            "0:1",
            "a:b:c",
            "0:1:100000",
            "nan:1:5",
            "0:1e9:5",
        ] {
            assert!(Grid::parse("wgrid", bad, 1000).is_err(), "{bad}");
        }
        let pts = parse_points("0.5:1, -0.3:-1", 10).unwrap_or_default();
        assert_eq!(pts.len(), 2);
        assert_eq!(parse_points(&format_points(&pts), 10), Ok(pts));
        for bad in ["0.5:2", "x:1", "1", "0.5:1", "inf:1,0:1"] {
            assert!(parse_points(bad, 10).is_err(), "{bad}");
        }
        let a = mixture(500, 3);
        assert_eq!(a, mixture(500, 3));
        let pos = a.iter().filter(|p| p.y > 0.0).count();
        assert!((150..350).contains(&pos));
        assert_eq!(Loss::parse("0/1"), Ok(Loss::ZeroOne));
        assert_eq!(Model::parse("LINEAR2D"), Ok(Model::Linear2d));
    }
}
