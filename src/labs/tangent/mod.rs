//! The tangent DP lab (`?lab=tangent`): parameters from the link, the instance they describe, and the
//! report the page shows (norms, bounds, the removal experiment, the pictures' data).

pub mod info;

/// The parameters this lab reads from its link.
pub type Params = TangentParams;

use crate::error::Result;
use crate::link::query::{
    fmt_f64, parse_seed, parse_whole_in as whole, LinkParams, Notice, Query, Reader, Within,
};
use crate::tangent::gibbs::Instance;
use crate::tangent::norms::Norms;
use crate::tangent::removal::Change;
use crate::tangent::{format_points, mixture, parse_points, Grid, Loss, Model, Point};

pub mod background;
mod extras;
pub mod jobs;
pub mod parallel;
pub use extras::{
    grid_estimate, grid_half_width, grid_plan, langevin_plan, markdown, picture, sweep_beta,
    sweep_beta_point, sweep_count, sweep_uses_crude_r, CountSweep, GridEstimate, SWEEP_POINTS,
};

/// Most data points.
pub const MAX_N: usize = 10_000;
/// Most grid points per axis (threshold model / 2-D model).
pub const MAX_W_1D: usize = 20_000;
/// Most grid points per axis of the 2-D model.
pub const MAX_W_2D: usize = 200;
/// Rows and columns of the tangent-map picture (subsampled evenly).
pub const PICTURE: usize = 60;

/// Everything a tangent link holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TangentParams {
    /// The model.
    pub model: Model,
    /// The loss.
    pub loss: Loss,
    /// β.
    pub beta: f64,
    /// Points drawn from the mixture (when `data` is absent).
    pub n: usize,
    /// Seed of the mixture, the draws and the Langevin chain.
    pub seed: u64,
    /// Points given in the link (override `n`).
    pub data: Option<Vec<Point>>,
    /// Parameter grid (per axis for the 2-D model); `None` = the model's default.
    pub wgrid: Option<Grid>,
    /// Feature grid of the candidate set.
    pub xgrid: Grid,
    /// The point removed in the experiment.
    pub remove: usize,
    /// Monte Carlo draws (and Langevin steps ÷ 10).
    pub samples: usize,
}

impl Default for TangentParams {
    /// Threshold model, Savage loss, β = 20, 200 points, seed 1.
    fn default() -> Self {
        TangentParams {
            model: Model::Threshold,
            loss: Loss::Savage,
            beta: 20.0,
            n: 200,
            seed: 1,
            data: None,
            wgrid: None,
            xgrid: Grid {
                min: -3.0,
                max: 3.0,
                count: 13,
            },
            remove: 0,
            samples: 2000,
        }
    }
}

impl TangentParams {
    /// The parameter grid in use.
    pub fn wgrid(&self) -> Grid {
        self.wgrid.unwrap_or(match self.model {
            Model::Threshold => Grid {
                min: -3.0,
                max: 3.0,
                count: 121,
            },
            Model::Linear2d => Grid {
                min: -3.0,
                max: 3.0,
                count: 41,
            },
        })
    }

    /// The instance the link describes.
    pub fn instance(&self) -> Instance {
        Instance {
            model: self.model,
            loss: self.loss,
            beta: self.beta,
            data: self
                .data
                .clone()
                .unwrap_or_else(|| mixture(self.n, self.seed)),
            wgrid: self.wgrid(),
            xgrid: self.xgrid,
        }
    }
}

/// What the page shows for the link's instance (everything but the sweeps and the Monte Carlo).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// The instance.
    pub instance: Instance,
    /// Its parameter points.
    pub params: Vec<(f64, f64)>,
    /// ln q on them.
    pub log_q: Vec<f64>,
    /// The empirical risk on them.
    pub risk: Vec<f64>,
    /// r̄(x) = Σ_w q(w) r(w,x) at every candidate (in [`Instance::candidates`] order).
    pub rbar: Vec<f64>,
    /// Norms and R's.
    pub norms: Norms,
    /// Removing the chosen point.
    pub removal: Change,
    /// ε of the exponential mechanism for one point replaced, 2β·max r/N (finite on the candidate set).
    pub dp_eps: f64,
}

/// Computes the report on one thread, part by part in the order the page's workers use ([`parallel`]),
/// so the numbers are the same bit for bit.
///
/// # Errors
/// Never for parameters from [`LinkParams::from_query`]; a hand-built link with a removal index out
/// of range is refused.
pub fn report(p: &TangentParams) -> Result<Report> {
    Ok(parallel::Plan::new(p)?.report())
}

impl LinkParams for TangentParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = TangentParams::default();
        let mut r = Reader::new(query);
        let model = r.parse("model", d.model, Model::parse);
        let loss = r.parse("loss", d.loss, Loss::parse);
        let beta = r.number("beta", d.beta, Within::up_to(0.0, 1e6));
        let n = r.parse("n", d.n as u64, |s| whole("n", s, 2, MAX_N as u64)) as usize;
        let seed = r.parse("seed", d.seed, parse_seed);
        let data = r.optional(
            "data",
            |s| parse_points(s, MAX_N),
            "drawing the mixture instead",
        );
        let max_w = if model == Model::Threshold {
            MAX_W_1D
        } else {
            MAX_W_2D
        };
        let wgrid = r.optional(
            "wgrid",
            |s| Grid::parse("wgrid", s, max_w),
            "using the model's default grid",
        );
        let xgrid = r.parse("xgrid", d.xgrid, |s| Grid::parse("xgrid", s, 1000));
        let count = data.as_ref().map_or(n, Vec::len);
        let remove = r.parse("remove", 0u64, |s| whole("remove", s, 0, count as u64 - 1)) as usize;
        let samples = r.parse("samples", d.samples as u64, |s| {
            whole("samples", s, 10, 1_000_000)
        }) as usize;
        r.finish(TangentParams {
            model,
            loss,
            beta,
            n,
            seed,
            data,
            wgrid,
            xgrid,
            remove,
            samples,
        })
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "tangent")
            .with("model", self.model.key())
            .with("loss", self.loss.key())
            .with("beta", fmt_f64(self.beta))
            .with("n", self.n.to_string())
            .with("seed", self.seed.to_string())
            .with("xgrid", self.xgrid.to_string())
            .with("remove", self.remove.to_string())
            .with("samples", self.samples.to_string());
        if let Some(g) = self.wgrid {
            q.set("wgrid", g.to_string());
        }
        if let Some(d) = &self.data {
            q.set("data", format_points(d));
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_falls_back() {
        let p = TangentParams {
            model: Model::Linear2d,
            loss: Loss::Hinge,
            beta: 3.5,
            n: 50,
            seed: 9,
            data: Some(vec![
                Point { x: 0.5, y: 1.0 },
                Point { x: -0.25, y: -1.0 },
                Point { x: 1.5, y: 1.0 },
            ]),
            wgrid: Some(Grid {
                min: -2.0,
                max: 2.0,
                count: 21,
            }),
            xgrid: Grid {
                min: -1.0,
                max: 1.0,
                count: 5,
            },
            remove: 2,
            samples: 500,
        };
        let (back, notices) = TangentParams::from_query(&p.to_query());
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, p);
        let q = Query::parse("lab=tangent&model=cnn&loss=l2&beta=-1&n=1&seed=x&data=1:3&wgrid=0:0:0&xgrid=a&remove=500&samples=5");
        let (p, notices) = TangentParams::from_query(&q);
        assert_eq!(p, TangentParams::default());
        assert_eq!(notices.len(), 10, "{notices:?}");
    }

    #[test]
    fn default_report_is_finite_and_bounded() {
        let p = TangentParams::default();
        let r = report(&p).unwrap();
        let s = &r.norms;
        for v in [
            s.tv_all,
            s.log_all,
            s.w_log,
            s.w_tv.lower,
            s.w_tv.upper,
            r.dp_eps,
            r.removal.actual_tv,
        ] {
            assert!(v.is_finite() && v >= 0.0);
        }
        assert!(s.tv_all <= 2.0 * p.beta * s.r_thm31);
        assert_eq!(sweep_beta(&r, 0).len(), 17);
        assert_eq!(sweep_count(&r, 5).len(), 20);
        let mc = grid_estimate(&r, 2000, 1);
        assert_eq!(mc.curve.last().map(|c| c.0), Some(2000));
        let (_, est) = mc.curve[mc.curve.len() - 1];
        assert!(
            (est - s.r_thm31).abs() <= mc.half_width,
            "{est} vs {} ± {}",
            s.r_thm31,
            mc.half_width
        );
        let (rows, cols, da, dl) = picture(&r);
        assert_eq!(da.len(), rows.len() * cols.len());
        // The picture reuses the norms' r̄: the same entries as computing them afresh.
        let (da2, dl2) =
            crate::tangent::norms::tangent_entries(&r.instance, &r.params, &r.log_q, &rows, &cols);
        for (a, b) in da.iter().chain(&dl).zip(da2.iter().chain(&dl2)) {
            assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{a} vs {b}");
        }
    }

    /// The parts merge to the same bits however they are grouped: a worker per part, or one thread.
    #[test]
    fn parts_merge_to_one_thread_bits() {
        let p = TangentParams {
            model: Model::Linear2d,
            n: 30,
            ..TangentParams::default()
        };
        let whole = report(&p).unwrap();
        let plan = parallel::Plan::new(&p).unwrap();
        // Risk over the parameters in 3 uneven pieces instead of the plan's ranges: the same sums.
        let m = plan.parameters();
        let risk: Vec<f64> = [0..7, 7..m / 2, m / 2..m]
            .into_iter()
            .flat_map(|r| plan.risk_part(r, &mut |_| {}))
            .collect();
        let columns = plan.columns(&risk);
        let mut parts: Vec<_> = columns
            .ranges()
            .into_iter()
            .rev()
            .map(|r| (r.start, columns.part(r, &mut |_| {})))
            .collect();
        parts.sort_by_key(|x| x.0);
        let r = plan.finish(
            risk,
            columns.log_q.clone(),
            parts.into_iter().map(|x| x.1).collect(),
        );
        assert_eq!(r, whole);
    }
}
