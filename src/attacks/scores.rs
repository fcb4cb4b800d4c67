//! An attack's scores on members (IN) and non-members (OUT), higher meaning "member": the counts at every
//! threshold, the Pareto frontier of those thresholds, and the ROC read from it (TPR at a given FPR, AUC).
//! The definitions follow jax_privacy's auditing module (google-deepmind/jax_privacy,
//! `jax_privacy/auditing`), whose test vectors the tests reproduce.

use crate::error::{Error, Result};

/// The counts at every candidate threshold t: the sorted distinct scores, then +∞. The attack guesses
/// IN for a score ≥ t, so FN(t) = #{IN scores < t} and TN(t) = #{OUT scores < t}.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The thresholds, increasing, the last +∞.
    pub thresholds: Vec<f64>,
    /// Members missed at each threshold.
    pub fn_: Vec<u64>,
    /// Non-members passed at each threshold.
    pub tn: Vec<u64>,
    /// Members in all.
    pub n_in: u64,
    /// Non-members in all.
    pub n_out: u64,
}

impl Sweep {
    /// The sweep of `ins` (members' scores) and `outs` (non-members').
    ///
    /// # Errors
    /// An empty side, or a NaN score.
    pub fn new(ins: &[f64], outs: &[f64]) -> Result<Sweep> {
        if ins.is_empty() || outs.is_empty() {
            return Err(Error::invalid(
                "scores",
                format!("{} IN, {} OUT", ins.len(), outs.len()),
                "needs at least one member and one non-member score",
            ));
        }
        if ins.iter().chain(outs).any(|s| s.is_nan()) {
            return Err(Error::invalid("scores", "NaN", "scores must be numbers"));
        }
        let sorted = |xs: &[f64]| {
            let mut v = xs.to_vec();
            v.sort_by(f64::total_cmp);
            v
        };
        let (ins, outs) = (sorted(ins), sorted(outs));
        let mut thresholds: Vec<f64> = ins.iter().chain(&outs).copied().collect();
        thresholds.sort_by(f64::total_cmp);
        thresholds.dedup();
        thresholds.push(f64::INFINITY);
        // Two pointers: how many of each side lie strictly below each threshold.
        let (mut i, mut o) = (0, 0);
        let (mut fn_, mut tn) = (Vec::new(), Vec::new());
        for &t in &thresholds {
            while i < ins.len() && ins[i] < t {
                i += 1;
            }
            while o < outs.len() && outs[o] < t {
                o += 1;
            }
            fn_.push(i as u64);
            tn.push(o as u64);
        }
        Ok(Sweep {
            thresholds,
            fn_,
            tn,
            n_in: ins.len() as u64,
            n_out: outs.len() as u64,
        })
    }

    /// The indices of the thresholds on the Pareto frontier: the vertices of the upper concave hull of
    /// the points (FN, TN), strict turns only (a point on a segment between two others is dropped); the
    /// lowest threshold and +∞ are always kept. These are the thresholds a Bonferroni correction pays
    /// for: no other threshold is better on both errors at once.
    pub fn frontier(&self) -> Vec<usize> {
        let points: Vec<(i128, i128)> = self
            .fn_
            .iter()
            .zip(&self.tn)
            .map(|(&f, &t)| (f as i128, t as i128))
            .collect();
        pareto_frontier(&points)
    }

    /// The frontier as ROC points (FPR, TPR), from FPR 0 (threshold +∞) up to FPR 1.
    pub fn roc(&self) -> Vec<(f64, f64)> {
        let mut roc: Vec<(f64, f64)> = self
            .frontier()
            .into_iter()
            .map(|k| {
                (
                    1.0 - self.tn[k] as f64 / self.n_out as f64,
                    1.0 - self.fn_[k] as f64 / self.n_in as f64,
                )
            })
            .collect();
        roc.reverse();
        roc
    }

    /// The best true-positive rate at false-positive rate `fpr`, randomising between two frontier
    /// thresholds (linear interpolation on the ROC hull).
    pub fn tpr_at_fpr(&self, fpr: f64) -> f64 {
        let roc = self.roc();
        let fpr = fpr.clamp(0.0, 1.0);
        let mut best: f64 = 0.0;
        for w in roc.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            if x0 <= fpr && fpr <= x1 {
                let y = if x1 > x0 {
                    y0 + (y1 - y0) * (fpr - x0) / (x1 - x0)
                } else {
                    y1
                };
                best = best.max(y);
            }
        }
        best
    }

    /// The area under the ROC hull (trapezoids), 0.5 for a coin flip, 1 for a perfect attack.
    pub fn auc(&self) -> f64 {
        self.roc()
            .windows(2)
            .map(|w| (w[1].0 - w[0].0) * (w[0].1 + w[1].1) / 2.0)
            .sum()
    }
}

/// The vertices of the upper concave hull of `points` sorted by x (ties by increasing y), strict turns
/// only: Andrew's monotone chain in exact integer arithmetic.
pub fn pareto_frontier(points: &[(i128, i128)]) -> Vec<usize> {
    let cross = |o: (i128, i128), a: (i128, i128), b: (i128, i128)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<usize> = Vec::new();
    for (k, &p) in points.iter().enumerate() {
        while hull.len() >= 2
            && cross(
                points[hull[hull.len() - 2]],
                points[hull[hull.len() - 1]],
                p,
            ) >= 0
        {
            hull.pop();
        }
        hull.push(k);
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: jax_privacy's tests/auditing_test.py (google-deepmind/jax_privacy @ 8967688c),
    // as scripts/reference/audit_reference.json copies them.

    /// IN scores, OUT scores, then the frontier's thresholds, TN and FN.
    type CountsCase<'a> = (&'a [f64], &'a [f64], &'a [f64], &'a [u64], &'a [u64]);
    /// Points, then the kept indices.
    type FrontierCase<'a> = (&'a [(i128, i128)], &'a [usize]);

    #[test]
    fn counts_on_the_frontier_match_jax_privacy() {
        let cases: [CountsCase; 4] = [
            (
                &[1.5, 2.5, 0.5, 3.5],
                &[0.0, 3.0, 2.0, 1.0],
                &[0.0, 0.5, 3.5, f64::INFINITY],
                &[0, 1, 4, 4],
                &[0, 0, 3, 4],
            ),
            (
                &[0.0, 1.0, 1.0, 2.0],
                &[0.0, 0.0, 1.0, 1.0],
                &[0.0, 1.0, 2.0, f64::INFINITY],
                &[0, 2, 4, 4],
                &[0, 1, 3, 4],
            ),
            (
                &[0.0, 0.0, 1.0, 2.0],
                &[0.0, 1.0, 1.0, 1.0],
                &[0.0, 2.0, f64::INFINITY],
                &[0, 4, 4],
                &[0, 3, 4],
            ),
            (
                &[0.0; 4],
                &[0.0; 4],
                &[0.0, f64::INFINITY],
                &[0, 4],
                &[0, 4],
            ),
        ];
        for (ins, outs, thresholds, tn, fn_) in cases {
            let s = Sweep::new(ins, outs).unwrap();
            let k = s.frontier();
            assert_eq!(
                k.iter().map(|&i| s.thresholds[i]).collect::<Vec<_>>(),
                thresholds
            );
            assert_eq!(k.iter().map(|&i| s.tn[i]).collect::<Vec<_>>(), tn);
            assert_eq!(k.iter().map(|&i| s.fn_[i]).collect::<Vec<_>>(), fn_);
        }
    }

    #[test]
    fn the_frontier_drops_dominated_and_collinear_points() {
        let cases: [FrontierCase; 4] = [
            (&[(0, 0), (0, 2), (3, 2), (3, 5), (5, 5)], &[0, 1, 3, 4]),
            (
                &[(0, 0), (0, 2), (2, 2), (2, 3), (3, 3), (3, 5), (5, 5)],
                &[0, 1, 5, 6],
            ),
            (
                &[(0, 0), (0, 2), (1, 2), (1, 4), (3, 4), (3, 5), (5, 5)],
                &[0, 1, 3, 5, 6],
            ),
            (
                &[(0, 0), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (4, 4)],
                &[0, 1, 5, 6],
            ),
        ];
        for (points, kept) in cases {
            assert_eq!(pareto_frontier(points), kept);
        }
    }

    #[test]
    fn tpr_at_fpr_and_auc_match_jax_privacy() {
        let s = Sweep::new(&[1.0, 3.0], &[0.0, 2.0]).unwrap();
        let tprs: Vec<f64> = [0.0, 0.25, 0.5, 0.75, 1.0]
            .map(|f| s.tpr_at_fpr(f))
            .to_vec();
        assert_eq!(tprs, [0.5, 0.75, 1.0, 1.0, 1.0]);
        let s = Sweep::new(&[0.0, 4.0, 6.0, 7.0], &[1.0, 2.0, 3.0, 5.0]).unwrap();
        assert_eq!(s.auc(), 13.0 / 16.0);
        assert_eq!(Sweep::new(&[1.0; 30], &[0.0; 30]).unwrap().auc(), 1.0);
        // A score that ranks the wrong way round still has a hull: the coin flip's 0.5.
        assert_eq!(Sweep::new(&[0.0; 30], &[1.0; 30]).unwrap().auc(), 0.5);
        // The circular ROC: π/4 to three decimals.
        let n = 10_000;
        let grid: Vec<f64> = (0..n).map(|i| i as f64 / (n - 1) as f64).collect();
        let ins: Vec<f64> = grid.iter().map(|x| (1.0 - x * x).sqrt()).collect();
        assert!(
            (Sweep::new(&ins, &grid).unwrap().auc() - std::f64::consts::FRAC_PI_4).abs() < 1e-3
        );
    }

    #[test]
    fn bad_scores_are_typed_errors() {
        assert!(Sweep::new(&[], &[1.0]).is_err());
        assert!(Sweep::new(&[f64::NAN], &[1.0]).is_err());
        // Infinite scores are fine: they sort to the ends.
        let s = Sweep::new(&[f64::INFINITY], &[f64::NEG_INFINITY]).unwrap();
        assert_eq!(s.auc(), 1.0);
    }
}
