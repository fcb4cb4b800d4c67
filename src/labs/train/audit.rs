//! The training lab's Audit section (`audit=runs`): the lab's own DP-SGD trained `runs` times with a
//! canary and `runs` times without, in chunks for the worker pool (each chunk's seeds fixed by the link,
//! so the same scores on any number of workers), then summarised beside the accountant's ε.

use super::params::TrainParams;
use super::run::{prepare_data, Plan};
use crate::accounting::pld::dpsgd::dpsgd_epsilon;
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::samplers::{sampler_epsilon, Kind, Sampler};
use crate::attacks::audit_summary::{summarise, AccountantStatement, AuditSummary};
use crate::attacks::last_iterate::last_iterate_epsilon;
use crate::error::{Error, Result};
use crate::learning::audit::{
    quietest_coordinate, with_blank_feature, AuditSetup, Bug, Canary, Threat,
};
use crate::learning::data::{Dataset, Split};
use crate::link::query::{fmt_f64, parse_number, Query, Reader};
use serde::{Deserialize, Serialize};

crate::choice! {
    /// Whether the lab audits its training.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum AuditMode {
        /// No audit.
        Off = "off" | "0" | "no" => "Off",
        /// Many runs with and without a canary.
        Runs = "runs" | "on" | "1" => "Many runs with and without a canary",
        /// One run with many canaries.
        OneRun = "one-run" | "onerun" => "One run with many canaries",
    }
}

crate::choice! {
    /// The canary.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum CanaryKind {
        /// A Dirac gradient of norm C (white-box, the worst case).
        Dirac = "dirac" | "gradient" => "Dirac gradient canary (white-box)",
        /// A mislabeled outlier record.
        Outlier = "outlier" | "record" => "Mislabeled outlier record",
        /// A record the user places (`canary_at`, `canary_label`).
        Point = "point" | "placed" => "A record you place",
    }
}

crate::choice! {
    /// What the adversary sees.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum ThreatKind {
        /// The final model.
        Final = "final" | "last" => "The final model only",
        /// Every step's update.
        All = "all" | "steps" => "Every step's update",
        /// Every step's update, by its size.
        Size = "size" | "norm" => "Every step's update, by its size (tests the normaliser)",
    }
}

crate::choice! {
    /// A planted implementation bug.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum BugKind {
        /// None.
        None = "none" | "off" => "None: the DP-SGD the accountant accounts for",
        /// Noise calibrated to the sum, added to the mean.
        MeanNoise = "mean-noise" => "Noise added to the mean, not the sum",
        /// The canary's gradient is not clipped.
        UnclippedCanary = "unclipped-canary" => "The canary's gradient left unclipped",
        /// The noisy sum divided by the realised batch size.
        RealisedBatch = "realised-batch" => "Divided by the realised batch size",
    }
}

impl BugKind {
    /// The bug the training code plants.
    pub fn planted(self) -> Bug {
        match self {
            BugKind::None => Bug::None,
            BugKind::MeanNoise => Bug::MeanNoise,
            BugKind::UnclippedCanary => Bug::UnclippedCanary,
            BugKind::RealisedBatch => Bug::RealisedBatch,
        }
    }
}

impl BugKind {
    /// The link's settings of an audit that catches this bug (the page's "audits that catch a planted
    /// bug"): the white-box canary seen at every step for noise added to the mean; the mislabeled
    /// outlier in the final model for the unclipped canary; and for the realised batch, as in the
    /// Opacus reports, a tiny data set (4 training rows of 40 features, all in every step: the
    /// normaliser is 4 or 5) with the update's size as the score.
    pub fn demo(self) -> &'static [(&'static str, &'static str)] {
        match self {
            BugKind::None => &[],
            BugKind::MeanNoise => &[
                ("audit", "runs"),
                ("runs", "200"),
                ("canary", "dirac"),
                ("threat", "all"),
                ("bug", "mean-noise"),
            ],
            BugKind::UnclippedCanary => &[
                ("audit", "runs"),
                ("runs", "200"),
                ("canary", "outlier"),
                ("threat", "final"),
                ("bug", "unclipped-canary"),
            ],
            BugKind::RealisedBatch => &[
                ("data", "highdim"),
                ("n", "20"),
                ("dim", "40"),
                ("split", "0.2"),
                ("batch", "4"),
                ("sigma", "4"),
                ("steps", "10"),
                ("lr", "0.1"),
                ("audit", "runs"),
                ("runs", "500"),
                ("canary", "dirac"),
                ("threat", "size"),
                ("bug", "realised-batch"),
            ],
        }
    }
}

/// The audit's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditParams {
    /// On or off (`audit`).
    pub mode: AuditMode,
    /// The canary (`canary`).
    pub canary: CanaryKind,
    /// The adversary (`threat`).
    pub threat: ThreatKind,
    /// Runs with the canary, and as many without (`runs`, 20 to 2,000).
    pub runs: u64,
    /// Confidence of the lower bound (`conf`).
    pub conf: f64,
    /// The planted bug (`bug`).
    pub bug: BugKind,
    /// Canaries of the one-run audit (`canaries`, 10 to 1,000).
    pub canaries: u64,
    /// The placed canary's features in standardised units (`canary_at`; features not given are 0,
    /// the training mean).
    pub point: Vec<f64>,
    /// The placed canary's label (`canary_label`, 0 or 1).
    pub label: u8,
}

impl Default for AuditParams {
    fn default() -> Self {
        AuditParams {
            mode: AuditMode::Off,
            canary: CanaryKind::Dirac,
            threat: ThreatKind::All,
            runs: 500,
            conf: 0.95,
            bug: BugKind::None,
            canaries: 256,
            point: vec![3.0, 3.0],
            label: 0,
        }
    }
}

/// Runs per worker job.
pub const CHUNK: u64 = 50;

impl AuditParams {
    /// Reads the audit's keys.
    pub fn read(r: &mut Reader) -> AuditParams {
        let d = AuditParams::default();
        let mode = r.parse_with(
            "audit",
            d.mode,
            |m| m.key().into(),
            |s| {
                AuditMode::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("audit", s, "must be off or runs"))
            },
        );
        let canary = r.parse_with(
            "canary",
            d.canary,
            |m| m.key().into(),
            |s| {
                CanaryKind::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("canary", s, "must be dirac, outlier or point"))
            },
        );
        let threat = r.parse_with(
            "threat",
            d.threat,
            |m| m.key().into(),
            |s| {
                ThreatKind::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("threat", s, "must be final, all or size"))
            },
        );
        let runs = r.whole("runs", d.runs, 20, 2000);
        let canaries = r.whole("canaries", d.canaries, 10, 1000);
        let conf = r.parse("conf", d.conf, |s| {
            parse_number("conf", s).and_then(|v| {
                if (0.5..=0.999).contains(&v) {
                    Ok(v)
                } else {
                    Err(Error::invalid("conf", s, "must be between 0.5 and 0.999"))
                }
            })
        });
        let bug = r.parse_with(
            "bug",
            d.bug,
            |m| m.key().into(),
            |s| {
                BugKind::from_key(s.trim()).ok_or_else(|| {
                    Error::invalid(
                        "bug",
                        s,
                        "must be none, mean-noise, unclipped-canary or realised-batch",
                    )
                })
            },
        );
        let point = r.parse_with("canary_at", d.point, |v| join_numbers(v), parse_point);
        let label = r.whole("canary_label", u64::from(d.label), 0, 1) as u8;
        AuditParams {
            mode,
            canary,
            threat,
            runs,
            conf,
            bug,
            canaries,
            point,
            label,
        }
    }

    /// Prints the audit's keys when it is on.
    pub fn write(&self, q: &mut Query) {
        if self.mode == AuditMode::Off {
            return;
        }
        q.set("audit", self.mode.key());
        q.set("canary", self.canary.key());
        q.set("threat", self.threat.key());
        q.set("runs", self.runs.to_string());
        q.set("conf", fmt_f64(self.conf));
        q.set("bug", self.bug.key());
        if self.mode == AuditMode::OneRun {
            q.set("canaries", self.canaries.to_string());
        }
        if self.canary == CanaryKind::Point {
            q.set("canary_at", join_numbers(&self.point));
            q.set("canary_label", self.label.to_string());
        }
    }

    /// The chunks of runs, as (first, count).
    pub fn chunks(&self) -> Vec<(u64, u64)> {
        (0..self.runs.div_ceil(CHUNK))
            .map(|k| (k * CHUNK, CHUNK.min(self.runs - k * CHUNK)))
            .collect()
    }
}

/// The most features a placed canary lists.
const MAX_POINT: usize = 1000;

/// `canary_at`: 1 to 1,000 comma-separated finite numbers, each within ±100 (standard deviations).
fn parse_point(s: &str) -> Result<Vec<f64>> {
    let v = s
        .split(',')
        .map(|c| parse_number("canary_at", c.trim()))
        .collect::<Result<Vec<f64>>>();
    match v {
        Ok(v) if !v.is_empty() && v.len() <= MAX_POINT && v.iter().all(|x| x.abs() <= 100.0) => Ok(v),
        _ => Err(Error::invalid(
            "canary_at",
            s,
            "must be the canary's features in standard deviations from the mean, comma-separated (e.g. 3,-2), each within ±100",
        )),
    }
}

fn join_numbers(v: &[f64]) -> String {
    v.iter().map(|x| fmt_f64(*x)).collect::<Vec<_>>().join(",")
}

/// The placed canary on `dim` features: the link's values, the rest 0 (the training mean).
///
/// # Errors
/// More values than the data has features.
fn placed(p: &AuditParams, dim: usize) -> Result<Canary> {
    if p.point.len() > dim {
        return Err(Error::invalid(
            "canary_at",
            join_numbers(&p.point),
            format!("lists {} features; the data have {dim}", p.point.len()),
        ));
    }
    let mut x = p.point.clone();
    x.resize(dim, 0.0);
    Ok(Canary::Row {
        x,
        y: f64::from(p.label),
    })
}

/// The lab's split for the audit: with the Dirac canary, every row gains a blank feature whose weight
/// is the canary's coordinate.
fn audit_split(p: &TrainParams, csv: Option<&Dataset>) -> Result<Split> {
    let split = prepare_data(p, csv)?;
    Ok(match p.audit.canary {
        CanaryKind::Dirac => Split {
            train: with_blank_feature(&split.train),
            test: with_blank_feature(&split.test),
            ..split
        },
        CanaryKind::Outlier | CanaryKind::Point => split,
    })
}

/// A record the model gets wrong with confidence: 4 standard deviations out on every (standardised)
/// feature, on class 1's side of class 0 (by the class means), labelled 0. Its gradient is large, so
/// clipping matters for it.
fn mislabeled_outlier(train: &Dataset) -> Canary {
    let mut diff = vec![0.0; train.dim];
    for i in 0..train.rows() {
        let sign = if train.y[i] == 1.0 { 1.0 } else { -1.0 };
        for (d, x) in diff.iter_mut().zip(train.row(i)) {
            *d += sign * x;
        }
    }
    Canary::Row {
        x: diff
            .iter()
            .map(|d| if *d < 0.0 { -4.0 } else { 4.0 })
            .collect(),
        y: 0.0,
    }
}

/// Runs `first .. first + count` of the audit: their scores with the canary and without.
///
/// # Errors
/// Data or parameters the trainer refuses, or a run that diverges.
pub fn audit_chunk(
    p: &TrainParams,
    csv: Option<&Dataset>,
    first: u64,
    count: u64,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let split = audit_split(p, csv)?;
    let plan = Plan::new(p, &split)?;
    let canary = match p.audit.canary {
        CanaryKind::Dirac => Canary::Dirac {
            coord: quietest_coordinate(&plan.arch, &split.train),
        },
        CanaryKind::Outlier => mislabeled_outlier(&split.train),
        CanaryKind::Point => placed(&p.audit, split.train.dim)?,
    };
    let setup = AuditSetup {
        arch: &plan.arch,
        data: &split.train,
        hyper: plan.hyper,
        steps: plan.steps,
        canary,
        threat: match p.audit.threat {
            ThreatKind::Final => Threat::Final,
            ThreatKind::All => Threat::AllSteps,
            ThreatKind::Size => Threat::UpdateSize,
        },
        bug: p.audit.bug.planted(),
        sampler: p.sampler,
        cap: plan.cap,
    };
    setup.validate()?;
    // Audit seeds are the link's seed's: run k uses 2(seed·10⁶ + k) + 1 with the canary, 2(…) without.
    let base = p.seed.wrapping_mul(1_000_000);
    setup.scores(base.wrapping_add(first)..base.wrapping_add(first + count))
}

/// The one-run audit's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OneRunReport {
    /// Canaries, and how many joined the run.
    pub canaries: (u64, u64),
    /// ε the guesses prove (Steinke, Nasr & Jagielski 2023), a lower bound at the confidence.
    pub eps_one_run: f64,
    /// Its f-DP refinement (Mahloujifar, Melis & Chaudhuri 2025).
    pub eps_one_run_fdp: f64,
    /// The accountant's ε for the run's sampler (what kind of number: `theory_kind`).
    pub eps_theory: f64,
    /// What kind of number `eps_theory` is.
    pub theory_kind: Kind,
    /// The sampler the run drew its batches by (and `eps_theory` is about).
    pub sampler: Sampler,
}

/// The accountant's statement for the audit's runs, `steps` steps: the link's sampler's own (for
/// Poisson batches the PLD's certified bound, as the audit has always read it; for another sampler
/// what the lab's headline states for it: a certified bound, an exact value or a lower bound only).
///
/// # Errors
/// An accountant's error.
fn guarantee(p: &TrainParams, csv_rows: usize, steps: u64) -> Result<AccountantStatement> {
    let rows = p.rows(csv_rows);
    if p.sampler == Sampler::Poisson {
        let eps = dpsgd_epsilon(p.rate(rows), p.sigma, steps, p.delta, DEFAULT_INTERVAL)?;
        return Ok(AccountantStatement::poisson(eps));
    }
    let own = sampler_epsilon(
        &p.event(rows, steps)
            .sampler_setting(p.delta, DEFAULT_INTERVAL),
        p.sampler,
    )?;
    Ok(AccountantStatement {
        sampler: p.sampler,
        kind: own.kind,
        eps: own.headline(),
    })
}

/// One training run with the link's number of canaries, and the ε its guesses prove.
///
/// # Errors
/// Data or parameters the trainer refuses, or a run that diverges.
pub fn audit_one_run(p: &TrainParams, csv: Option<&Dataset>) -> Result<OneRunReport> {
    use crate::attacks::one_run::{epsilon_one_run, OneRunTest};
    use crate::attacks::scores::Sweep;
    let split = prepare_data(p, csv)?;
    let plan = Plan::new(p, &split)?;
    let m = p.audit.canaries as usize;
    let arch = p.architecture(split.train.dim + m);
    let setup = crate::learning::one_run::OneRunSetup {
        arch: &arch,
        data: &split.train,
        hyper: plan.hyper,
        steps: plan.steps,
        sampler: p.sampler,
        cap: plan.cap,
        bug: p.audit.bug.planted(),
    };
    let (ins, outs) = crate::learning::one_run::one_run_scores(&setup, m, p.seed)?;
    let joined = ins.len() as u64;
    // Every canary scored: an empty side (all in or all out) proves nothing.
    let (eps_one_run, eps_one_run_fdp) = match Sweep::new(&ins, &outs) {
        Ok(s) => {
            let alpha = 1.0 - p.audit.conf;
            (
                epsilon_one_run(OneRunTest::Binomial, &s, p.delta, alpha)?,
                epsilon_one_run(OneRunTest::GaussianFdp, &s, p.delta, alpha)?,
            )
        }
        Err(_) => (0.0, 0.0),
    };
    let theory = guarantee(p, csv.map_or(0, Dataset::rows), plan.steps)?;
    Ok(OneRunReport {
        canaries: (m as u64, joined),
        eps_one_run,
        eps_one_run_fdp,
        eps_theory: theory.eps,
        theory_kind: theory.kind,
        sampler: theory.sampler,
    })
}

/// What the accountant's number beside an audit is, for the page: which sampler the runs drew their
/// batches by and what kind of number its ε is (only a certified upper bound can be contradicted).
pub fn theory_label(sampler: Sampler, kind: Kind) -> String {
    let batches = format!("the audit's runs drew {} batches", sampler.title());
    match kind {
        Kind::Upper if sampler == Sampler::Poisson => {
            format!("ε certified by the accountant (PLD upper bound; {batches})")
        }
        Kind::Upper => format!("ε certified for this sampler (upper bound; {batches})"),
        Kind::Exact => format!(
            "ε exact for zero-out neighbours ({batches}; the canary is added, and under add/remove no upper bound is known)"
        ),
        Kind::Lower => format!(
            "ε at least this for this sampler (a lower bound: no upper bound is known; {batches})"
        ),
    }
}

/// The audit's numbers from every run's scores, beside the accountant's ε for the runs' sampler and
/// (for Poisson batches, the only ones it models; NaN otherwise) the last-iterate heuristic's for the
/// same q, σ, T and δ.
///
/// # Errors
/// Scores the estimators refuse, or an accountant's error.
pub fn audit_report(
    p: &TrainParams,
    csv_rows: usize,
    ins: &[f64],
    outs: &[f64],
) -> Result<AuditSummary> {
    let rows = p.rows(csv_rows);
    let steps = p.planned_steps(rows)?;
    let q = p.rate(rows);
    let theory = guarantee(p, csv_rows, steps)?;
    let last = match p.sampler {
        Sampler::Poisson => last_iterate_epsilon(q, p.sigma, steps, p.delta).unwrap_or(f64::NAN),
        _ => f64::NAN,
    };
    summarise(ins, outs, p.delta, p.audit.conf, theory, last)
}

#[cfg(test)]
mod tests;
