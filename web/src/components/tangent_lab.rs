//! The tangent DP lab (`?lab=tangent`): the Gibbs distribution of entropic regularization, its tangent
//! maps' norms beside the paper's bounds, the removal experiment and the Monte Carlo estimates. Everything
//! is computed in the background, in slices, with progress; a new link abandons the old computation.

use super::notices::Notices;
use super::share_panel::SharePanel;
use super::tangent_charts::TangentCharts;
use super::tangent_controls::TangentControls;
use super::tangent_results::TangentResults;
use crate::browser::{next_tick, now_ms};
use crate::url::use_url;
use dp_playground::lab::Lab;
use dp_playground::query::Notice;
use dp_playground::tangent::removal::Change;
use dp_playground::tangent::sampling::{LangevinChain, RunningR};
use dp_playground::tangent::Loss;
use dp_playground::tangent_lab::{
    grid_half_width, grid_plan, langevin_plan, markdown, picture, sweep_beta_point, CountSweep,
    GridEstimate, Report, TangentJob, TangentParams, SWEEP_POINTS,
};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// What is computed after the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {
    /// The tangent map of log q at evenly spaced rows and columns: (rows, columns, values).
    pub picture: Option<(Vec<usize>, Vec<usize>, Vec<f64>)>,
    /// The removal experiment against β.
    pub by_beta: Vec<(f64, Change)>,
    /// The removal experiment against the number of points removed.
    pub by_count: Vec<(usize, Change)>,
    /// The grid Monte Carlo estimate.
    pub grid: Option<GridEstimate>,
    /// The Langevin trace, thinned to at most 2000 states for the chart: (step, w₁).
    pub trace: Vec<(f64, f64)>,
    /// Langevin steps run and in all.
    pub langevin_steps: (usize, usize),
    /// R̂ from the Langevin chain.
    pub langevin_r: Option<f64>,
}

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct TangentState {
    /// Parameters in use.
    pub params: Memo<TangentParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The report, once computed.
    pub report: RwSignal<Option<Report>>,
    /// Sweeps and Monte Carlo.
    pub extras: RwSignal<Extras>,
    /// What is being computed (empty when done).
    pub status: RwSignal<String>,
    /// Fraction of the report done.
    pub progress: RwSignal<f64>,
    /// Wall time of the report (ms).
    pub report_ms: RwSignal<f64>,
}

impl TangentState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<String>> {
        super::notices::notice_for(self.notices, key)
    }
}

/// Each slice of work lasts about this long before the page gets a turn.
const SLICE_MS: f64 = 25.0;

/// The tangent DP lab.
#[component]
pub fn TangentLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| TangentParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let state = TangentState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        report: RwSignal::new(None),
        extras: RwSignal::new(Extras::default()),
        status: RwSignal::new(String::new()),
        progress: RwSignal::new(0.0),
        report_ms: RwSignal::new(f64::NAN),
    };
    provide_context(state);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let p = params.get();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let current = move || generation.try_get_value() == Some(mine);
        state.report.set(None);
        state.extras.set(Extras::default());
        state.progress.set(0.0);
        state
            .status
            .set("Computing the Gibbs distribution and the tangent maps…".into());
        spawn_local(async move {
            if let Some(report) = compute_report(&p, state, &current).await {
                state.report.set(Some(report));
                compute_extras(&p, state, &current).await;
            }
        });
    });
    let share_markdown = Signal::derive(move || {
        state.report.with(|r| {
            r.as_ref()
                .map(|r| markdown(&params.get(), r))
                .unwrap_or_default()
        })
    });
    view! {
        <section class="lab" aria-labelledby="tangent-title">
            <header class="lab-intro">
                <h2 id="tangent-title">"Tangent differential privacy: how much does one point move the Gibbs distribution?"</h2>
                <p>
                    "Entropic regularization turns risk minimization into sampling from q(w) ∝ exp(−β Σ p_i r(w, x_i)) "
                    "(Ying 2025, eq. 3.1). Its tangent maps say how q and log q move when the data distribution p moves: "
                    "by a little mass (total variation) or by moving the points (Wasserstein). Here they are computed "
                    "exactly on a grid, beside the paper's bounds 2βR, and checked against actually removing points."
                </p>
            </header>
            <Notices notices=Signal::derive(move || state.notices.get()) testid="tdp-notices" />
            <div class="lab-grid">
                <aside class="controls" aria-label="Parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                    <TangentControls />
                </aside>
                <div class="results">
                    <p class="status" role="status" data-testid="tdp-status">{move || state.status.get()}</p>
                    <progress max="1" value=move || state.progress.get() data-testid="tdp-progress"
                        hidden=move || state.report.with(Option::is_some)></progress>
                    <TangentResults />
                    <TangentCharts />
                    <SharePanel lab=Lab::Tangent markdown=share_markdown />
                </div>
            </div>
        </section>
    }
}

/// The report, in slices of about [`SLICE_MS`]; `None` if the link changed meanwhile or was refused.
async fn compute_report(
    p: &TangentParams,
    state: TangentState,
    current: &impl Fn() -> bool,
) -> Option<Report> {
    let mut job = match TangentJob::new(p) {
        Ok(job) => job,
        Err(e) => {
            state.status.set(e.to_string());
            return None;
        }
    };
    let mut budget = 50_000usize;
    // Time spent computing, without the pauses given to the page.
    let mut busy = 0.0;
    loop {
        next_tick().await;
        if !current() {
            return None;
        }
        let slice = now_ms();
        while now_ms() - slice < SLICE_MS {
            let piece = now_ms();
            let done = job.advance(budget);
            // Grow the pieces while they are quick, so that the clock is read rarely.
            if now_ms() - piece < SLICE_MS / 4.0 {
                budget = budget.saturating_mul(2).min(1 << 26);
            }
            if let Some(r) = done {
                state.report_ms.set(busy + now_ms() - slice);
                return Some(r);
            }
        }
        busy += now_ms() - slice;
        state.progress.set(job.progress());
        state.status.set(format!(
            "Computing the tangent maps: {:.0}%…",
            100.0 * job.progress()
        ));
    }
}

/// The sweeps, the grid Monte Carlo and the Langevin chain, a piece per pause.
async fn compute_extras(p: &TangentParams, state: TangentState, current: &impl Fn() -> bool) {
    let Some(report) = state.report.try_get_untracked().flatten() else {
        return;
    };
    // The picture first, in its own pause: computed while drawing, it lengthened the report's frame.
    state
        .status
        .set("Sampling the tangent map for its picture…".into());
    next_tick().await;
    if !current() {
        return;
    }
    let (rows, cols, _, dl) = picture(&report);
    state.extras.update(|e| e.picture = Some((rows, cols, dl)));
    let mut sweep = CountSweep::new(&report, p.remove);
    let mut by_count = Vec::new();
    loop {
        state.status.set(format!(
            "Removal experiment against the number of points: {}…",
            by_count.len() + 1
        ));
        next_tick().await;
        if !current() {
            return;
        }
        let slice = now_ms();
        while now_ms() - slice < SLICE_MS {
            match sweep.step(&report) {
                Some(point) => by_count.push(point),
                None => break,
            }
        }
        if by_count.len() == sweep.len() {
            break;
        }
    }
    state.extras.update(|e| e.by_count = by_count);
    for i in 0..SWEEP_POINTS {
        state.status.set(format!(
            "Removal experiment against β: {}/{SWEEP_POINTS}…",
            i + 1
        ));
        next_tick().await;
        if !current() {
            return;
        }
        let point = sweep_beta_point(&report, p.remove, i);
        state.extras.update(|e| e.by_beta.push(point));
    }
    let (draws, checkpoints) = grid_plan(&report, p.samples, p.seed);
    let mut running = RunningR::new(&report.instance);
    let mut curve = Vec::new();
    while running.count() < draws.len() {
        state.status.set(format!(
            "Monte Carlo on the grid: draw {} of {}…",
            running.count(),
            draws.len()
        ));
        next_tick().await;
        if !current() {
            return;
        }
        let slice = now_ms();
        while running.count() < draws.len() && now_ms() - slice < SLICE_MS {
            for &w in draws.iter().skip(running.count()).take(16) {
                running.add(&report.instance, report.params[w]);
                if checkpoints.contains(&running.count()) {
                    curve.push((running.count(), running.value()));
                }
            }
        }
    }
    let grid = GridEstimate {
        draws: draws.len(),
        curve,
        half_width: grid_half_width(&report, draws.len()),
        r_h1: running.value_h1(),
    };
    state.extras.update(|e| e.grid = Some(grid));
    if report.instance.loss == Loss::ZeroOne {
        state.status.set(String::new());
        return;
    }
    let (steps, h, thin) = langevin_plan(&report, p.samples);
    let mut chain = LangevinChain::new(&report.instance, h, p.seed);
    let mut trace = Vec::with_capacity(steps);
    let chunk = (200_000 / report.instance.data.len()).max(1);
    let show_every = (steps / 2000).max(1);
    while trace.len() < steps {
        next_tick().await;
        if !current() {
            return;
        }
        let slice = now_ms();
        while trace.len() < steps && now_ms() - slice < SLICE_MS {
            let more = chunk.min(steps - trace.len());
            trace.extend(chain.run(&report.instance, more));
        }
        let shown: Vec<(f64, f64)> = trace
            .iter()
            .enumerate()
            .step_by(show_every)
            .map(|(i, w)| ((i + 1) as f64, w.0))
            .collect();
        let done = trace.len();
        state.extras.update(|e| {
            e.trace = shown;
            e.langevin_steps = (done, steps);
        });
        state
            .status
            .set(format!("Langevin dynamics: step {done} of {steps}…"));
    }
    let kept: Vec<(f64, f64)> = trace
        .iter()
        .skip(trace.len() / 10)
        .step_by(thin)
        .copied()
        .collect();
    let mut running = RunningR::new(&report.instance);
    while running.count() < kept.len() {
        state
            .status
            .set("Langevin dynamics: estimating R from the chain…".into());
        next_tick().await;
        if !current() {
            return;
        }
        let slice = now_ms();
        while running.count() < kept.len() && now_ms() - slice < SLICE_MS {
            for &w in kept.iter().skip(running.count()).take(16) {
                running.add(&report.instance, w);
            }
        }
    }
    state
        .extras
        .update(|e| e.langevin_r = Some(running.value()));
    state.status.set(String::new());
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_tangent() -> TangentState {
    expect_context::<TangentState>()
}
