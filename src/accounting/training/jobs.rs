//! A training run's background accounting, shared by the labs that show it (DP-SGD, training): ε by
//! the PLD and its curve, σ for the target ε. Each runs in its own worker and streams its results as
//! they are ready; [`Background`] folds them into what a page shows.

use super::{sigma_for_target, sigma_search_pld, SigmaGoal};
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::pld::dpsgd::dpsgd_band_with_steps;
use crate::accounting::pld::replace_one::dpsgd_replace_one_band_with_steps;
use crate::accounting::pld::EpsilonBand;
use crate::accounting::samplers::{sampler_epsilon, Sampler, SamplerEpsilon, SamplerSetting};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Fractions of T at which the PLD ε-against-steps curve is drawn.
pub const CURVE_FRACTIONS: [f64; 4] = [0.125, 0.25, 0.5, 0.75];

/// A result of a training run's accounting job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AccountingUpdate {
    /// What the PLD job is computing.
    PldStatus(String),
    /// What the σ search is computing.
    SigmaStatus(String),
    /// ε by the PLD after T steps, from both sides.
    Pld(Result<EpsilonBand>),
    /// (steps, certified ε) at a fraction of T.
    CurvePoint(f64, f64),
    /// σ for the target ε by RDP (dp_accounting's orders).
    SigmaRdp(Result<f64>),
    /// σ (the noise multiplier) for the target ε by the PLD.
    SigmaPld(Result<f64>),
    /// The ε of the job's batch sampler, when it has one.
    Sampler(Result<SamplerEpsilon>),
}

/// What the PLD job reads of a run, and nothing else: a page reruns it only when one of these changes
/// (not on a target-ε move).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PldJob {
    /// Sampling rate q.
    pub rate: f64,
    /// The noise multiplier σ (noise std / clipping norm), under either relation.
    pub sigma: f64,
    /// Steps T.
    pub steps: u64,
    /// δ.
    pub delta: f64,
    /// The PLD grid's width.
    pub grid: f64,
    /// A batch sampler whose own ε the job also reports (the training lab's run), when not Poisson.
    pub sampler: Option<(SamplerSetting, Sampler)>,
    /// Which data sets are neighbours.
    pub neighbour: Neighbour,
}

impl PldJob {
    /// The PLD job for the Poisson view of `event` at `delta` on a grid of width `grid`.
    pub fn new(event: &TrainingEvent, delta: f64, grid: f64) -> PldJob {
        PldJob {
            rate: event.rate,
            sigma: event.sigma,
            steps: event.steps,
            delta,
            grid,
            sampler: None,
            neighbour: event.neighbour,
        }
    }

    /// [`PldJob::new`], and the run's own sampler when it is not Poisson (its ε comes first).
    pub fn with_sampler(event: &TrainingEvent, delta: f64, grid: f64) -> PldJob {
        PldJob {
            sampler: (event.sampler != Sampler::Poisson)
                .then(|| (event.sampler_setting(delta, grid), event.sampler)),
            ..PldJob::new(event, delta, grid)
        }
    }
}

/// A piece of a training run's accounting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AccountingJob {
    /// ε by the PLD at T steps and the curve ([`dpsgd_pld`]).
    Pld(PldJob),
    /// σ for the target by RDP, then by the PLD ([`dpsgd_sigma`]).
    Sigma(SigmaGoal),
}

/// Runs `job`, sending each result to `emit` as it is ready.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: AccountingJob, emit: &mut dyn FnMut(AccountingUpdate)) {
    match job {
        AccountingJob::Pld(job) => dpsgd_pld(job, emit),
        AccountingJob::Sigma(goal) => dpsgd_sigma(&goal, emit),
    }
}

/// The PLD's ε at T steps, then the curve at fractions of T.
pub fn dpsgd_pld(job: PldJob, emit: &mut dyn FnMut(AccountingUpdate)) {
    let PldJob {
        rate,
        sigma,
        steps,
        delta,
        grid,
        sampler,
        neighbour,
    } = job;
    if let Some((setting, sampler)) = sampler {
        emit(AccountingUpdate::Sampler(sampler_epsilon(
            &setting, sampler,
        )));
    }
    let at: Vec<u64> = CURVE_FRACTIONS
        .iter()
        .map(|f| ((steps as f64) * f).ceil().max(1.0) as u64)
        .collect();
    // The curve reuses the band's one-step PLDs.
    let band = match neighbour {
        Neighbour::ReplaceOne => dpsgd_replace_one_band_with_steps(rate, sigma, steps, delta, grid),
        Neighbour::AddRemove => dpsgd_band_with_steps(rate, sigma, steps, delta, grid),
    };
    let curve = match band {
        Ok((band, one_steps)) => {
            emit(AccountingUpdate::Pld(Ok(band)));
            one_steps
        }
        Err(e) => return emit(AccountingUpdate::Pld(Err(e))),
    };
    emit(AccountingUpdate::PldStatus(
        "PLD accountant: the ε-versus-steps curve…".into(),
    ));
    if let Ok(eps) = curve.curve(&at) {
        for (t, e) in at.into_iter().zip(eps) {
            emit(AccountingUpdate::CurvePoint(t as f64, e));
        }
    }
}

/// σ for the target ε: by RDP, then by the PLD seeded with RDP's σ.
pub fn dpsgd_sigma(g: &SigmaGoal, emit: &mut dyn FnMut(AccountingUpdate)) {
    let rdp = sigma_for_target(g);
    emit(AccountingUpdate::SigmaRdp(rdp.clone()));
    let seed = rdp.unwrap_or(g.event.sigma);
    let found = sigma_search_pld(g, seed).and_then(|mut search| loop {
        if let Some(sigma) = search.step()? {
            break Ok(sigma);
        }
        emit(AccountingUpdate::SigmaStatus(format!(
            "PLD accountant: σ for the target ε, {} evaluations…",
            search.evaluations
        )));
    });
    emit(AccountingUpdate::SigmaPld(found));
}

/// A training run's background results, folded from its two jobs' updates: what a page shows. Times
/// are the caller's clock (`now`, in ms): the PLD's from its job's start, the PLD σ search's from the
/// RDP σ it starts from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Background {
    /// σ for the target ε by the RDP accountant (dp_accounting's orders).
    pub sigma_for_target: Option<Result<f64>>,
    /// ε by the PLD accountant after T steps from both sides, and how long it took (ms).
    pub pld: Option<Result<(EpsilonBand, f64)>>,
    /// σ for the target ε by the PLD accountant (certified upper ε), and how long it took (ms).
    pub sigma_for_target_pld: Option<Result<(f64, f64)>>,
    /// (steps, certified upper ε) by the PLD accountant at fractions of T, and at T.
    pub pld_points: Vec<(f64, f64)>,
    /// What the PLD job is computing now (empty when done).
    pub pld_status: String,
    /// What the σ search is computing now (empty when done).
    pub sigma_status: String,
    /// T, where the PLD's ε at T goes on the curve.
    pub steps: Option<f64>,
    /// The job's batch sampler's ε, when it has one.
    pub sampler: Option<Result<SamplerEpsilon>>,
    pld_started: f64,
    sigma_started: f64,
}

impl Background {
    /// A new PLD job for `job` started at `now`: its results so far are cleared.
    pub fn start_pld(&mut self, job: &PldJob, now: f64) {
        self.pld = None;
        self.sampler = None;
        self.pld_points.clear();
        self.steps = Some(job.steps as f64);
        self.pld_status = "PLD accountant…".into();
        self.pld_started = now;
    }

    /// A new σ search started at `now`: its results so far are cleared.
    pub fn start_sigma(&mut self, now: f64) {
        self.sigma_for_target = None;
        self.sigma_for_target_pld = None;
        self.sigma_status = "σ for the target ε…".into();
        self.sigma_started = now;
    }

    /// Folds in one update that arrived at `now`.
    pub fn apply(&mut self, u: AccountingUpdate, now: f64) {
        match u {
            AccountingUpdate::PldStatus(s) => self.pld_status = s,
            AccountingUpdate::SigmaStatus(s) => self.sigma_status = s,
            AccountingUpdate::Pld(r) => {
                if let (Ok(e), Some(t)) = (&r, self.steps) {
                    self.add_point(t, e.upper);
                }
                self.pld = Some(r.map(|e| (e, now - self.pld_started)));
            }
            AccountingUpdate::CurvePoint(t, e) => self.add_point(t, e),
            AccountingUpdate::Sampler(r) => self.sampler = Some(r),
            AccountingUpdate::SigmaRdp(r) => {
                self.sigma_started = now;
                self.sigma_for_target = Some(r);
            }
            AccountingUpdate::SigmaPld(r) => {
                self.sigma_for_target_pld = Some(r.map(|s| (s, now - self.sigma_started)))
            }
        }
    }

    fn add_point(&mut self, t: f64, eps: f64) {
        self.pld_points.push((t, eps));
        self.pld_points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }

    /// The PLD job ended: its status clears, or shows why it failed.
    pub fn end_pld(&mut self, failure: Option<String>) {
        self.pld_status = failure.unwrap_or_default();
    }

    /// The σ search ended: its status clears, or shows why it failed.
    pub fn end_sigma(&mut self, failure: Option<String>) {
        self.sigma_status = failure.unwrap_or_default();
    }

    /// The PLD's band after T steps, once computed.
    pub fn band(&self) -> Option<EpsilonBand> {
        self.pld.as_ref().and_then(|r| r.as_ref().ok()).map(|x| x.0)
    }

    /// The tightest ε known so far and whether it is the PLD's certified one: the PLD's upper ε once
    /// finite, `rdp` (the RDP accountant's ε) until then.
    pub fn tightest_epsilon(&self, rdp: f64) -> (f64, bool) {
        match self.band() {
            Some(b) if b.upper.is_finite() => (b.upper, true),
            _ => (rdp, false),
        }
    }

    /// What is being computed now, both jobs' status (empty when both are done).
    pub fn status(&self) -> String {
        match (self.pld_status.as_str(), self.sigma_status.as_str()) {
            ("", s) | (s, "") => s.to_owned(),
            (a, b) => format!("{a} {b}"),
        }
    }

    /// Every failure to show, in a fixed order, including a PLD that found no finite ε.
    pub fn errors(&self) -> Vec<String> {
        let mut out: Vec<String> = [
            self.sigma_for_target
                .as_ref()
                .and_then(|r| r.as_ref().err()),
            self.pld.as_ref().and_then(|r| r.as_ref().err()),
            self.sigma_for_target_pld
                .as_ref()
                .and_then(|r| r.as_ref().err()),
            self.sampler.as_ref().and_then(|r| r.as_ref().err()),
        ]
        .into_iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
        if let Some(Ok((e, _))) = &self.pld {
            if e.upper.is_infinite() {
                out.push("The PLD accountant finds no finite ε at this δ: more than δ of the privacy loss lies beyond its grid. Raise δ or σ.".into());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::DEFAULT_INTERVAL;

    /// The page's folding of both jobs, natively: the PLD at T joins the curve in step order, the
    /// times run from each job's start, and a target move leaves the PLD's results alone.
    #[test]
    fn both_jobs_fold_into_the_results() {
        // The DP-SGD lab's `n=60000&batch=600&epochs=2`.
        let event = TrainingEvent::poisson(0.01, 1.1, 200, Neighbour::AddRemove);
        let job = PldJob::new(&event, 1e-5, DEFAULT_INTERVAL);
        let goal = SigmaGoal {
            event,
            delta: 1e-5,
            target_eps: 2.0,
            grid: DEFAULT_INTERVAL,
        };
        let mut r = Background::default();
        r.start_pld(&job, 10.0);
        r.start_sigma(10.0);
        dpsgd_pld(job, &mut |u| r.apply(u, 30.0));
        dpsgd_sigma(&goal, &mut |u| r.apply(u, 50.0));
        r.end_pld(None);
        r.end_sigma(None);
        assert_eq!(r.status(), "");
        assert_eq!(r.pld_points.len(), CURVE_FRACTIONS.len() + 1);
        assert!(r.pld_points.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(
            r.pld.as_ref().map(|x| x.as_ref().map(|x| x.1).ok()),
            Some(Some(20.0))
        );
        assert!(matches!(r.sigma_for_target_pld, Some(Ok((s, 0.0))) if s > 0.0));
        assert!(r.errors().is_empty());
        let before = r.pld.clone();
        r.start_sigma(60.0);
        assert_eq!(r.pld, before);
        assert!(r.sigma_for_target.is_none());
    }
}
