//! What the tangent lab computes after the report: the removal experiment against β and against the
//! number of points removed, the Monte Carlo plans, the tangent-map picture and the share Markdown.

use super::{Report, TangentParams, PICTURE};
use crate::link::query::fmt_f64;
use crate::tangent::gibbs::log_gibbs;
use crate::tangent::norms::entries_with_rbar;
use crate::tangent::removal::{change, r_thm31, risks_after_removals, Change, Removals};
use crate::tangent::sampling::{grid_draws, hoeffding_half_width, RunningR};

/// Whether the β sweep bounds with Remark 3.2(b)'s R = max r instead of recomputing Thm 3.1's R at every
/// β (which costs a full pass over W × X each: skipped above 10⁶ loss evaluations per β).
pub fn sweep_uses_crude_r(r: &Report) -> bool {
    (r.params.len() * r.instance.candidates().len()) as f64 > 1e6
}

/// Points of the β sweep.
pub const SWEEP_POINTS: usize = 17;

/// The removal experiment against β: (β, change) for [`SWEEP_POINTS`] values from β/10 to 10β
/// (log-spaced), each with Thm 3.1's R recomputed at that β (or the crude R, see [`sweep_uses_crude_r`]).
pub fn sweep_beta(r: &Report, remove: usize) -> Vec<(f64, Change)> {
    (0..SWEEP_POINTS)
        .map(|i| sweep_beta_point(r, remove, i))
        .collect()
}

/// The i-th point of [`sweep_beta`] (the page computes them one per pause).
pub fn sweep_beta_point(r: &Report, remove: usize, i: usize) -> (f64, Change) {
    let inst = &r.instance;
    let reduced = risks_after_removals(inst, &r.params, &r.risk, &[remove]);
    let n = inst.data.len() as f64;
    let beta = inst.beta * 10f64.powf(-1.0 + 2.0 * i as f64 / (SWEEP_POINTS - 1) as f64);
    let lq = log_gibbs(beta, &r.risk);
    let r31 = if sweep_uses_crude_r(r) {
        r.norms.r_max
    } else {
        r_thm31(inst, &r.params, &lq)
    };
    (
        beta,
        change(beta, &r.risk, &reduced[0], 2.0 / n, r31, r.norms.r_max),
    )
}

/// The removal experiment against the number of points removed: c = 1, …, up to 20 (at most N − 1),
/// starting with the chosen point and going on in index order.
pub fn sweep_count(r: &Report, remove: usize) -> Vec<(usize, Change)> {
    let mut sweep = CountSweep::new(r, remove);
    std::iter::from_fn(|| sweep.step(r)).collect()
}

/// [`sweep_count`] one removal at a time (for a page that must stay responsive).
#[derive(Debug, Clone)]
pub struct CountSweep {
    order: Vec<usize>,
    removals: Removals,
}

impl CountSweep {
    /// The order of removal: the chosen point, then the others in index order, up to 20 (at most N − 1).
    pub fn new(r: &Report, remove: usize) -> Self {
        let n = r.instance.data.len();
        CountSweep {
            order: std::iter::once(remove)
                .chain((0..n).filter(|&i| i != remove))
                .take(20.min(n.saturating_sub(1)))
                .collect(),
            removals: Removals::new(r.params.len()),
        }
    }

    /// Removals in the sweep.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the sweep removes nothing (a single data point).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Removes one more point and measures the change; `None` when the sweep is done.
    pub fn step(&mut self, r: &Report) -> Option<(usize, Change)> {
        let &k = self.order.get(self.removals.count())?;
        let inst = &r.instance;
        self.removals.remove(inst, &r.params, k);
        let c = self.removals.count();
        let dp = 2.0 * c as f64 / inst.data.len() as f64;
        let reduced = self.removals.risk(inst, &r.risk);
        let s = &r.norms;
        Some((
            c,
            change(inst.beta, &r.risk, &reduced, dp, s.r_thm31, s.r_max),
        ))
    }
}

/// Remark 3.2(c) on the grid: the estimate of Thm 3.1's R against the number of exact draws from q.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridEstimate {
    /// Draws used (the link's `samples`, capped so that draws × candidates ≤ 4·10⁶, a pause-free moment).
    pub draws: usize,
    /// (draws so far, R̂) at 1-2-5 checkpoints and at the end.
    pub curve: Vec<(usize, f64)>,
    /// Simultaneous half-width at the end with probability 1 − 10⁻⁶ (Hoeffding and a union bound).
    pub half_width: f64,
    /// Remark 3.4(b)'s estimate of Thm 3.3's R from the same draws.
    pub r_h1: f64,
}

/// The grid Monte Carlo plan for the report: the draws (seeded by the link's seed) and the checkpoints
/// (1-2-5 steps and the end) at which R̂ is recorded.
pub fn grid_plan(r: &Report, samples: usize, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let k = r.instance.candidates().len();
    let draws = samples.min((4e6 / k as f64) as usize).max(10);
    let idx = grid_draws(&r.log_q, draws, seed);
    let mut checkpoints: Vec<usize> = [1, 2, 5]
        .iter()
        .flat_map(|&a| (1..7).map(move |e| a * 10usize.pow(e)))
        .filter(|&c| c < draws)
        .collect();
    checkpoints.sort_unstable();
    checkpoints.push(draws);
    (idx, checkpoints)
}

/// The simultaneous half-width of R̂ from `draws` grid draws (Hoeffding and a union bound, α = 10⁻⁶).
pub fn grid_half_width(r: &Report, draws: usize) -> f64 {
    hoeffding_half_width(r.norms.r_max, r.instance.candidates().len(), draws, 1e-6)
}

/// The grid Monte Carlo estimate for the report in one go.
pub fn grid_estimate(r: &Report, samples: usize, seed: u64) -> GridEstimate {
    let (idx, checkpoints) = grid_plan(r, samples, seed);
    let mut running = RunningR::new(&r.instance);
    let mut curve = Vec::new();
    for &w in &idx {
        running.add(&r.instance, r.params[w]);
        if checkpoints.contains(&running.count()) {
            curve.push((running.count(), running.value()));
        }
    }
    GridEstimate {
        draws: idx.len(),
        curve,
        half_width: grid_half_width(r, idx.len()),
        r_h1: running.value_h1(),
    }
}

/// The Langevin run for a link: (steps, step size h, thinning for the estimate). Steps = 10 × samples,
/// capped at 2·10⁷ / N gradient evaluations; h = min(0.01, 0.2/β) keeps the drift step small.
pub fn langevin_plan(r: &Report, samples: usize) -> (usize, f64, usize) {
    let n = r.instance.data.len();
    let k = r.instance.candidates().len();
    let steps = (10 * samples).min((2e7 / n as f64) as usize).max(100);
    let h = (0.01f64).min(0.2 / r.instance.beta);
    let thin = ((steps as f64 * k as f64 / 4e6).ceil() as usize).max(1);
    (steps, h, thin)
}

/// The share panel's Markdown: the instance and every norm beside its bound.
pub fn markdown(p: &TangentParams, r: &Report) -> String {
    let s = &r.norms;
    let b = r.instance.beta;
    let sig = crate::link::format::sig6;
    let rows = vec![
        (
            "model, loss, β".to_string(),
            format!("{}, {}, {}", p.model, p.loss.title(), fmt_f64(p.beta)),
        ),
        (
            "points, parameters, candidates".into(),
            format!(
                "{}, {}, {}",
                r.instance.data.len(),
                r.params.len(),
                r.instance.candidates().len()
            ),
        ),
        (
            "‖DA‖ L¹→L¹ (all ε; tangent space)".into(),
            format!("{}; {}", sig(s.tv_all), sig(s.tv_pairs.lower)),
        ),
        ("Thm 3.1 bound 2βR".into(), sig(2.0 * b * s.r_thm31)),
        (
            "‖D log A‖ L¹→L^∞ (all ε; tangent space)".into(),
            format!("{}; {}", sig(s.log_all), sig(s.log_pairs)),
        ),
        ("Thm 3.2 bound 2βR".into(), sig(2.0 * b * s.r_max)),
        (
            "‖DA‖ Ḣ⁻¹→L¹ (range)".into(),
            format!("[{}, {}]", sig(s.w_tv.lower), sig(s.w_tv.upper)),
        ),
        (
            "Thm 3.3 bound as stated; corrected".into(),
            format!(
                "{}; {}",
                sig(2.0 * b * s.r_thm33),
                sig(2.0 * b * s.r_thm33_fixed)
            ),
        ),
        ("‖D log A‖ Ḣ⁻¹→L^∞".into(), sig(s.w_log)),
        ("Thm 3.4 bound 2βR".into(), sig(2.0 * b * s.r_thm34)),
        (
            format!("remove point {}: ‖q − q̃‖₁ actual; linear", p.remove),
            format!("{}; {}", sig(r.removal.actual_tv), sig(r.removal.linear_tv)),
        ),
        (
            "exponential-mechanism ε (one point replaced)".into(),
            sig(r.dp_eps),
        ),
    ];
    crate::link::embed::markdown_table(("Tangent DP (Ying 2025)", "value"), &rows)
}

/// The tangent maps at up to [`PICTURE`](super::PICTURE) evenly spaced rows and columns: (rows, cols, DA, D log∘A).
pub fn picture(r: &Report) -> (Vec<usize>, Vec<usize>, Vec<f64>, Vec<f64>) {
    let even = |len: usize| -> Vec<usize> {
        let k = len.min(PICTURE);
        (0..k)
            .map(|i| if k == 1 { 0 } else { i * (len - 1) / (k - 1) })
            .collect()
    };
    let rows = even(r.params.len());
    let cols = even(r.instance.candidates().len());
    let rbar: Vec<f64> = cols.iter().map(|&c| r.rbar[c]).collect();
    let (da, dl) = entries_with_rbar(&r.instance, &r.params, &r.log_q, &rbar, &rows, &cols);
    (rows, cols, da, dl)
}
