//! What the tangent lab computes after the report, as one job that streams its results (a web worker
//! runs it; natively it is a plain function): the tangent-map picture, the removal sweeps, the grid
//! Monte Carlo and the Langevin chain, in the order the page shows them.

use super::{
    grid_half_width, grid_plan, langevin_plan, picture, sweep_beta_point, CountSweep, GridEstimate,
    Report, TangentParams, SWEEP_POINTS,
};
use crate::tangent::removal::Change;
use crate::tangent::sampling::{LangevinChain, RunningR};
use crate::tangent::Loss;

/// Most states of the Langevin trace sent for the chart.
pub const TRACE_SHOWN: usize = 2000;

/// One result of [`extras`], in the order they come.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Extra {
    /// What is being computed.
    Status(String),
    /// The tangent map of log q at evenly spaced rows and columns: (rows, columns, values).
    Picture(Vec<usize>, Vec<usize>, Vec<f64>),
    /// The removal experiment against the number of points removed.
    ByCount(Vec<(usize, Change)>),
    /// The next point of the removal experiment against β.
    ByBeta((f64, Change)),
    /// The grid Monte Carlo estimate.
    Grid(GridEstimate),
    /// The Langevin trace so far, thinned to at most [`TRACE_SHOWN`] states (step, w₁), with the
    /// steps run and in all.
    Trace(Vec<(f64, f64)>, usize, usize),
    /// R̂ from the Langevin chain.
    LangevinR(f64),
}

/// Everything after the report, folded from the [`Extra`]s as they arrive: what the page shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extras {
    /// The tangent map of log q at evenly spaced rows and columns: (rows, columns, values).
    pub picture: Option<(Vec<usize>, Vec<usize>, Vec<f64>)>,
    /// The removal experiment against β.
    pub by_beta: Vec<(f64, Change)>,
    /// The removal experiment against the number of points removed.
    pub by_count: Vec<(usize, Change)>,
    /// The grid Monte Carlo estimate.
    pub grid: Option<GridEstimate>,
    /// The Langevin trace, thinned to at most [`TRACE_SHOWN`] states for the chart: (step, w₁).
    pub trace: Vec<(f64, f64)>,
    /// Langevin steps run and in all.
    pub langevin_steps: (usize, usize),
    /// R̂ from the Langevin chain.
    pub langevin_r: Option<f64>,
}

impl Extras {
    /// Folds in one result; returns the status line it sets, if any.
    pub fn apply(&mut self, extra: Extra) -> Option<String> {
        match extra {
            Extra::Status(s) => return Some(s),
            Extra::Picture(rows, cols, dl) => self.picture = Some((rows, cols, dl)),
            Extra::ByCount(points) => self.by_count = points,
            Extra::ByBeta(point) => self.by_beta.push(point),
            Extra::Grid(g) => self.grid = Some(g),
            Extra::Trace(shown, done, steps) => {
                self.trace = shown;
                self.langevin_steps = (done, steps);
                return Some(format!("Langevin dynamics: step {done} of {steps}…"));
            }
            Extra::LangevinR(r) => self.langevin_r = Some(r),
        }
        None
    }
}

/// Runs everything after the report, calling `emit` with each result as it is ready: on one thread,
/// [`sweeps_and_grid`] then [`langevin`]; the page runs the two in different workers.
pub fn extras(p: &TangentParams, report: &Report, emit: &mut dyn FnMut(Extra)) {
    sweeps_and_grid(p, report, emit);
    langevin(p, report, emit);
}

/// The picture, the removal sweeps and the grid Monte Carlo.
pub fn sweeps_and_grid(p: &TangentParams, report: &Report, emit: &mut dyn FnMut(Extra)) {
    let status = |s: &str| Extra::Status(s.to_string());
    let (rows, cols, _, dl) = picture(report);
    emit(Extra::Picture(rows, cols, dl));
    emit(status("Removal experiment against the number of points…"));
    let mut sweep = CountSweep::new(report, p.remove);
    emit(Extra::ByCount(
        std::iter::from_fn(|| sweep.step(report)).collect(),
    ));
    for i in 0..SWEEP_POINTS {
        emit(Extra::Status(format!(
            "Removal experiment against β: {}/{SWEEP_POINTS}…",
            i + 1
        )));
        emit(Extra::ByBeta(sweep_beta_point(report, p.remove, i)));
    }
    emit(status("Monte Carlo on the grid…"));
    emit(Extra::Grid(grid_monte_carlo(p, report)));
}

/// The grid Monte Carlo estimate with its curve at the plan's checkpoints.
fn grid_monte_carlo(p: &TangentParams, report: &Report) -> GridEstimate {
    let (draws, checkpoints) = grid_plan(report, p.samples, p.seed);
    let mut running = RunningR::new(&report.instance);
    let mut curve = Vec::new();
    for &w in &draws {
        running.add(&report.instance, report.params[w]);
        if checkpoints.contains(&running.count()) {
            curve.push((running.count(), running.value()));
        }
    }
    GridEstimate {
        draws: draws.len(),
        curve,
        half_width: grid_half_width(report, draws.len()),
        r_h1: running.value_h1(),
    }
}

/// The Langevin chain, its trace sent every ~2·10⁶ gradient evaluations, then R̂ from the kept states
/// (nothing for the 0/1 loss, which has no gradient).
pub fn langevin(p: &TangentParams, report: &Report, emit: &mut dyn FnMut(Extra)) {
    if report.instance.loss == Loss::ZeroOne {
        return;
    }
    let (steps, h, thin) = langevin_plan(report, p.samples);
    let mut chain = LangevinChain::new(&report.instance, h, p.seed);
    let mut trace = Vec::with_capacity(steps);
    let chunk = (2_000_000 / report.instance.data.len()).max(1);
    let show_every = (steps / TRACE_SHOWN).max(1);
    while trace.len() < steps {
        let more = chunk.min(steps - trace.len());
        trace.extend(chain.run(&report.instance, more));
        let shown = trace
            .iter()
            .enumerate()
            .step_by(show_every)
            .map(|(i, w)| ((i + 1) as f64, w.0))
            .collect();
        emit(Extra::Trace(shown, trace.len(), steps));
    }
    emit(Extra::Status(
        "Langevin dynamics: estimating R from the chain…".into(),
    ));
    let mut running = RunningR::new(&report.instance);
    for &w in trace.iter().skip(trace.len() / 10).step_by(thin) {
        running.add(&report.instance, w);
    }
    emit(Extra::LangevinR(running.value()));
}
