//! The heavy work the page hands to its web workers. A [`Job`] is data (the typed parameters it reads,
//! parsed once on the page, and what an earlier job produced), [`run`] does it to the end calling `emit` with each [`Update`] as it is ready,
//! and both cross the worker boundary as postcard bytes ([`encode`], [`decode`]): bit-exact for every
//! f64, ∞ and NaN included. Natively `run` is a plain function, so every job is tested with `cargo test`.

use crate::accounting::entry::Item;
use crate::accounting::samplers::users::UserEpsilon;
use crate::accounting::samplers::{
    sampler_epsilon, sampler_sigma, Sampler, SamplerEpsilon, SamplerSetting,
};
use crate::attacks::audit_summary::AuditSummary;
use crate::error::{Error, Result};
use crate::labs::attack::jobs::{self as attack_jobs, Calibrated, Calibration};
use crate::labs::attack::params::AttackParams;
use crate::labs::attack::report::AttackReport;
use crate::labs::compose::jobs::compose_pld;
use crate::labs::compose::ComposedPld;
use crate::labs::dpsgd::jobs::PldJob;
use crate::labs::dpsgd::jobs::{self as dpsgd_jobs, DpsgdUpdate};
use crate::labs::dpsgd::phases::{schedule_report, ScheduleReport};
use crate::labs::dpsgd::samplers::user_report;
use crate::labs::dpsgd::DpsgdParams;
use crate::labs::rr::shuffle::{shuffle_point, ShufflePoint};
use crate::labs::rr::{repetitions, Repetitions, RrParams};
use crate::labs::tangent::background::{langevin, sweeps_and_grid, Extra};
use crate::labs::tangent::parallel::{Columns, Plan};
use crate::labs::tangent::{Report, TangentParams};
use crate::labs::train::audit::{audit_chunk, audit_one_run, audit_report, OneRunReport};
use crate::labs::train::jobs::{sweep_point, SweepPoint};
use crate::labs::train::mia::{mia_chunk, mia_report, MiaReport};
use crate::labs::train::run::{train, TrainUpdate};
use crate::labs::train::TrainParams;
use crate::labs::wdp::jobs::wdp_fig2;
use crate::learning::data::Dataset;
use crate::learning::dpsgd::Checkpoint;
use crate::mechanisms::many_queries::{simulate_max_errors, MaxErrorSimulation};
use crate::wdp::synthetic::Curves;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// A piece of heavy work, described by the link it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// Tangent lab, first pass: the empirical risk at the parameters `from..to`.
    TangentRisk {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// First parameter.
        from: usize,
        /// One past the last parameter.
        to: usize,
    },
    /// Tangent lab, second pass: the norms' accumulators over the columns `from..to`.
    TangentColumns {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// ln q from the first pass.
        log_q: Vec<f64>,
        /// First column.
        from: usize,
        /// One past the last column.
        to: usize,
    },
    /// Tangent lab: merge the parts (each [`Update::NormsPart`]'s bytes, in range order) into the
    /// report, then run the sweeps and the grid Monte Carlo ([`sweeps_and_grid`]) in the same worker,
    /// which already holds the report.
    TangentFinish {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The whole risk.
        risk: Vec<f64>,
        /// ln q, as the column parts used it.
        log_q: Vec<f64>,
        /// The encoded column parts, in range order (as bytes: serde's default would encode each u8
        /// as a sequence element, 10× slower on the page's thread that forwards them).
        parts: Vec<serde_bytes::ByteBuf>,
    },
    /// Tangent lab: the sweeps and the grid Monte Carlo ([`sweeps_and_grid`]) for a report the page
    /// computed itself (an instance that fits in a frame, [`Plan::fits_on_page`]).
    TangentSweeps {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The report.
        report: Box<Report>,
    },
    /// Tangent lab: the Langevin chain for a report, beside the sweeps ([`langevin`]).
    TangentLangevin {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The report.
        report: Box<Report>,
    },
    /// Mechanisms lab: the many-queries simulation for (k_max, seed)
    /// ([`crate::mechanisms::many_queries::simulate_max_errors`]; 0.8–4 million draws, 75–400 ms on the
    /// page's thread).
    ManyQueries(usize, u64),
    /// Randomized-response lab: the repeated surveys of a link whose repetitions do not fit on the
    /// page ([`crate::labs::rr::repetitions`]; up to 10⁷ binomial draws, 50 ms at K = 50, R = 1000).
    RrRepetitions(RrParams),
    /// Randomized-response lab: the shuffle model's bounds at n respondents ([`shuffle_point`]).
    RrShuffle(RrParams, u64),
    /// DP-SGD lab: ε by the PLD at T steps and the curve ([`dpsgd_jobs::dpsgd_pld`]).
    DpsgdPld(PldJob),
    /// DP-SGD lab: σ for the target by RDP, then by the PLD ([`dpsgd_jobs::dpsgd_sigma`]).
    DpsgdSigma(DpsgdParams),
    /// DP-SGD lab: one batch sampler's ε ([`sampler_epsilon`]).
    DpsgdSampler(SamplerSetting, Sampler),
    /// DP-SGD lab: σ for the target ε under one batch sampler ([`sampler_sigma`]).
    DpsgdSamplerSigma(SamplerSetting, Sampler, f64),
    /// DP-SGD lab: user-level ε at the link's records per user ([`user_report`]).
    DpsgdUsers(DpsgdParams),
    /// DP-SGD lab: the link's schedule by the PLD and RDP ([`schedule_report`]).
    DpsgdSchedule(DpsgdParams),
    /// Composition lab: the composed PLD pair of a list, on a grid (the link's δ is not read).
    ComposePld(Vec<Item>, Option<f64>),
    /// Attack lab: the curve and risk numbers.
    Attack(AttackParams),
    /// Attack lab: one calibration.
    AttackCalibration(AttackParams, Calibration),
    /// WDP lab: Figure 2's synthetic run from a seed.
    WdpFig2(u64),
    /// Training lab: the three models from a checkpoint (or the start) to step `until`
    /// ([`train`]).
    Train {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv` (it never enters the link).
        csv: Option<Box<Dataset>>,
        /// Where to resume.
        from: Option<Checkpoint>,
        /// The step to stop after.
        until: u64,
    },
    /// Training lab: one σ of the privacy–utility sweep over every seed ([`sweep_point`]).
    TrainSweep {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The noise multiplier.
        sigma: f64,
    },
    /// Training lab: audit runs `first .. first + count`, with and without the canary
    /// ([`audit_chunk`]).
    TrainAudit {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The first run.
        first: u64,
        /// How many runs.
        count: u64,
    },
    /// Training lab: the one-run audit ([`audit_one_run`]).
    TrainAuditOneRun {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
    },
    /// Training lab: the audit's numbers from every run's scores ([`audit_report`]).
    TrainAuditReport {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// Rows of the user's CSV (0 for the built-in data).
        csv_rows: usize,
        /// Scores with the canary.
        ins: Vec<f64>,
        /// Scores without.
        outs: Vec<f64>,
    },
    /// Training lab: the user's CSV file's text, parsed off the page's thread
    /// ([`crate::learning::data::parse_csv`]).
    ParseCsv(String),
    /// Training lab: membership-attack models `first .. first + count` ([`mia_chunk`]).
    TrainMia {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The first model.
        first: u64,
        /// How many models.
        count: u64,
    },
    /// Training lab: the membership attacks' numbers from every model's φ ([`mia_report`]).
    TrainMiaReport {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// Rows of the user's CSV (0 for the built-in data).
        csv_rows: usize,
        /// Each chunk's φ, in chunk order.
        chunks: Vec<[Vec<f64>; 3]>,
    },
}

/// What a job sends back while it runs; the last message is [`Update::Done`] or [`Update::Error`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Update {
    /// Work done so far, in the job's own unit (loss evaluations for the tangent lab).
    Progress(f64),
    /// Tangent lab: the risk at the job's parameters.
    Risk(Vec<f64>),
    /// Tangent lab: a column part, encoded (the page forwards it to the finishing job unread).
    NormsPart(#[serde(with = "serde_bytes")] Vec<u8>),
    /// Tangent lab: the report.
    TangentReport(Box<Report>),
    /// Mechanisms lab: the many-queries simulation, or why it was refused.
    ManyQueries(Result<MaxErrorSimulation>),
    /// Tangent lab: one result after the report.
    TangentExtra(Extra),
    /// Randomized-response lab: the repeated surveys, or why not.
    RrRepetitions(Result<Repetitions>),
    /// Randomized-response lab: the shuffle model's bounds at one n, or why not.
    RrShuffle(Result<ShufflePoint>),
    /// DP-SGD lab: a result.
    Dpsgd(DpsgdUpdate),
    /// DP-SGD lab: one batch sampler's ε, or why not.
    DpsgdSampler(Result<SamplerEpsilon>),
    /// DP-SGD lab: σ for the target under a sampler (`None` where only a lower bound is known).
    DpsgdSamplerSigma(Result<Option<f64>>),
    /// DP-SGD lab: user-level ε, or why not.
    DpsgdUsers(Result<UserEpsilon>),
    /// DP-SGD lab: the schedule's ε, or why not.
    DpsgdSchedule(Result<ScheduleReport>),
    /// Composition lab: the composed PLD pair, or why not.
    ComposedPld(Result<Box<ComposedPld>>),
    /// Attack lab: the report, or why not.
    AttackReport(Result<Box<AttackReport>>),
    /// Attack lab: a calibration (`None` for a list, which has no σ).
    Calibrated(Option<Calibrated>),
    /// WDP lab: steps done, in all, and the curves (panels × clipping on/off).
    WdpCurves(u32, u32, Vec<[Curves; 2]>),
    /// Training lab: a result of the run.
    Train(TrainUpdate),
    /// Training lab: one σ of the sweep, or why not.
    TrainSweep(Result<SweepPoint>),
    /// Training lab: a chunk of audit runs (its first run, the scores with and without the canary).
    TrainAudit(Result<(u64, Vec<f64>, Vec<f64>)>),
    /// Training lab: the audit's numbers.
    TrainAuditReport(Result<Box<AuditSummary>>),
    /// Training lab: the one-run audit's numbers.
    TrainAuditOneRun(Result<OneRunReport>),
    /// Training lab: the user's CSV, parsed, or why it was refused.
    Csv(Result<Box<Dataset>>),
    /// Training lab: a chunk of membership-attack models (its first model, each trainer's φ).
    TrainMia(Result<(u64, [Vec<f64>; 3])>),
    /// Training lab: the membership attacks' numbers.
    TrainMiaReport(Result<Box<MiaReport>>),
    /// The job could not run (a refused link).
    Error(Error),
    /// The job is over.
    Done,
}

/// Runs `job` to the end, calling `emit` with each update and last with [`Update::Done`] (or
/// [`Update::Error`]).
pub fn run(job: Job, emit: &mut dyn FnMut(Update)) {
    match run_job(job, emit) {
        Ok(()) => emit(Update::Done),
        Err(e) => emit(Update::Error(e)),
    }
}

fn run_job(job: Job, emit: &mut dyn FnMut(Update)) -> Result<()> {
    match job {
        Job::TangentRisk { params, from, to } => {
            let plan = Plan::new(&params)?;
            let risk = plan.risk_part(from..to, &mut |done| emit(Update::Progress(done)));
            emit(Update::Risk(risk));
        }
        Job::TangentColumns {
            params,
            log_q,
            from,
            to,
        } => {
            let plan = Plan::new(&params)?;
            let columns = Columns::from_log_q(&plan, log_q);
            let part = columns.part(from..to, &mut |done| emit(Update::Progress(done)));
            emit(Update::NormsPart(encode(&part)));
        }
        Job::TangentFinish {
            params,
            risk,
            log_q,
            parts,
        } => {
            let plan = Plan::new(&params)?;
            let parts = parts
                .iter()
                .map(|b| decode(b.as_slice()))
                .collect::<Result<Vec<_>>>()?;
            let report = plan.finish(risk, log_q, parts);
            emit(Update::TangentReport(Box::new(report.clone())));
            sweeps_and_grid(&params, &report, &mut |e| emit(Update::TangentExtra(e)));
        }
        Job::TangentSweeps { params, report } => {
            sweeps_and_grid(&params, &report, &mut |e| emit(Update::TangentExtra(e)));
        }
        Job::TangentLangevin { params, report } => {
            langevin(&params, &report, &mut |e| emit(Update::TangentExtra(e)));
        }
        Job::ManyQueries(k_max, seed) => {
            emit(Update::ManyQueries(simulate_max_errors(k_max, seed)))
        }
        Job::RrRepetitions(p) => emit(Update::RrRepetitions(repetitions(&p))),
        Job::RrShuffle(p, n) => emit(Update::RrShuffle(shuffle_point(&p, n))),
        Job::DpsgdPld(job) => dpsgd_jobs::dpsgd_pld(job, &mut |u| emit(Update::Dpsgd(u))),
        Job::DpsgdSigma(p) => dpsgd_jobs::dpsgd_sigma(&p, &mut |u| emit(Update::Dpsgd(u))),
        Job::DpsgdSampler(s, sampler) => emit(Update::DpsgdSampler(sampler_epsilon(&s, sampler))),
        Job::DpsgdUsers(p) => emit(Update::DpsgdUsers(user_report(&p))),
        Job::DpsgdSchedule(p) => emit(Update::DpsgdSchedule(schedule_report(&p))),
        Job::DpsgdSamplerSigma(s, sampler, target) => emit(Update::DpsgdSamplerSigma(
            sampler_sigma(&s, sampler, target),
        )),
        Job::ComposePld(list, grid) => {
            emit(Update::ComposedPld(compose_pld(&list, grid).map(Box::new)))
        }
        Job::Attack(p) => emit(Update::AttackReport(attack_jobs::attack(&p).map(Box::new))),
        Job::AttackCalibration(p, which) => emit(Update::Calibrated(
            attack_jobs::attack_calibration(&p, which),
        )),
        Job::WdpFig2(seed) => wdp_fig2(seed, 5, &mut |done, total, curves| {
            emit(Update::WdpCurves(done, total, curves))
        }),
        Job::Train {
            params,
            csv,
            from,
            until,
        } => train(&params, csv.as_deref(), from, until, &mut |u| {
            emit(Update::Train(u))
        })?,
        Job::TrainSweep { params, csv, sigma } => emit(Update::TrainSweep(sweep_point(
            &params,
            csv.as_deref(),
            sigma,
        ))),
        Job::TrainAudit {
            params,
            csv,
            first,
            count,
        } => emit(Update::TrainAudit(
            audit_chunk(&params, csv.as_deref(), first, count).map(|(i, o)| (first, i, o)),
        )),
        Job::TrainAuditOneRun { params, csv } => emit(Update::TrainAuditOneRun(audit_one_run(
            &params,
            csv.as_deref(),
        ))),
        Job::TrainAuditReport {
            params,
            csv_rows,
            ins,
            outs,
        } => emit(Update::TrainAuditReport(
            audit_report(&params, csv_rows, &ins, &outs).map(Box::new),
        )),
        Job::ParseCsv(text) => emit(Update::Csv(
            crate::learning::data::parse_csv(&text).map(Box::new),
        )),
        Job::TrainMia {
            params,
            csv,
            first,
            count,
        } => emit(Update::TrainMia(
            mia_chunk(&params, csv.as_deref(), first, count).map(|phi| (first, phi)),
        )),
        Job::TrainMiaReport {
            params,
            csv_rows,
            chunks,
        } => emit(Update::TrainMiaReport(
            mia_report(&params, csv_rows, &chunks).map(Box::new),
        )),
    }
    Ok(())
}

/// `value` as postcard bytes.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising these plain data types into a Vec cannot fail; an empty message would be refused by
    // `decode` on the other side.
    postcard::to_allocvec(value).unwrap_or_default()
}

/// A value from postcard bytes.
///
/// # Errors
/// Bytes that are not an encoded `T` (a worker built from other sources than the page).
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    postcard::from_bytes(bytes).map_err(|e| Error::Wire {
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;
    use crate::link::query::Query;

    /// Runs `job` as a worker does (decoded from bytes, every update encoded and decoded) and checks
    /// that it ends with [`Update::Done`].
    fn collect(job: Job) -> Vec<Update> {
        let mut out = Vec::new();
        run(decode(&encode(&job)).unwrap(), &mut |u| {
            out.push(decode::<Update>(&encode(&u)).unwrap())
        });
        assert_eq!(out.last(), Some(&Update::Done), "{out:?}");
        out
    }

    /// The tangent lab's jobs, run as the page runs them (split, encoded, merged), give the one-thread
    /// report bit for bit, whatever the number of parts of the first pass.
    #[test]
    fn tangent_jobs_give_the_one_thread_report() {
        let query = "lab=tangent&model=linear2d&n=40&wgrid=-3:3:15&samples=200";
        let p = TangentParams::from_query(&Query::parse(query)).0;
        let params = || Box::new(p.clone());
        let whole = crate::labs::tangent::report(&p).unwrap();
        let m = 15 * 15;
        let mut risk = Vec::new();
        for (from, to) in [(0, 100), (100, 101), (101, m)] {
            for u in collect(Job::TangentRisk {
                params: params(),
                from,
                to,
            }) {
                if let Update::Risk(r) = u {
                    risk.extend(r);
                }
            }
        }
        let plan = Plan::new(&p).unwrap();
        let columns = plan.columns(&risk);
        let mut parts = Vec::new();
        for r in columns.ranges() {
            let job = Job::TangentColumns {
                params: params(),
                log_q: columns.log_q.clone(),
                from: r.start,
                to: r.end,
            };
            for u in collect(job) {
                if let Update::NormsPart(b) = u {
                    parts.push(serde_bytes::ByteBuf::from(b));
                }
            }
        }
        let out = collect(Job::TangentFinish {
            params: params(),
            risk,
            log_q: columns.log_q.clone(),
            parts,
        });
        assert!(matches!(&out[0], Update::TangentReport(r) if **r == whole));
        let grid = |out: &[Update]| {
            out.iter()
                .find(|u| matches!(u, Update::TangentExtra(Extra::Grid(_))))
                .cloned()
        };
        assert!(grid(&out).is_some());
        // A report the page computed itself gets the same sweeps and Monte Carlo.
        let sweeps = collect(Job::TangentSweeps {
            params: params(),
            report: Box::new(whole.clone()),
        });
        assert_eq!(grid(&sweeps), grid(&out));
        assert_eq!(&sweeps[..], &out[1..]);
        let out = collect(Job::TangentLangevin {
            params: params(),
            report: Box::new(whole),
        });
        assert!(out
            .iter()
            .any(|u| matches!(u, Update::TangentExtra(Extra::LangevinR(_)))));
    }

    /// Every accountant job runs through the wire format and ends with Done, its results equal to the
    /// direct calls'.
    #[test]
    fn accountant_jobs_round_trip() {
        let dpsgd = DpsgdParams::from_query(&Query::parse(
            "n=60000&batch=600&sigma=1.1&epochs=2&delta=1e-5&target_eps=1",
        ))
        .0;
        let out = collect(Job::DpsgdPld(dpsgd.pld_job()));
        assert!(
            matches!(&out[0], Update::Dpsgd(DpsgdUpdate::Pld(Ok(b))) if b.upper >= b.lower && b.lower > 0.0)
        );
        let points = out
            .iter()
            .filter(|u| matches!(u, Update::Dpsgd(DpsgdUpdate::CurvePoint(..))))
            .count();
        assert_eq!(points, dpsgd_jobs::CURVE_FRACTIONS.len());
        let out = collect(Job::DpsgdSigma(dpsgd));
        assert!(out
            .iter()
            .any(|u| matches!(u, Update::Dpsgd(DpsgdUpdate::SigmaPld(Ok(s))) if *s > 0.0)));
        let list = crate::accounting::entry::parse_list("gauss:3*10,lap:0.2*5").unwrap();
        let out = collect(Job::ComposePld(list.clone(), None));
        let want = compose_pld(&list, None).unwrap();
        assert!(matches!(&out[0], Update::ComposedPld(Ok(c)) if **c == want));
        let attack = AttackParams::from_query(&Query::parse(
            "source=dpsgd&q=0.01&sigma=1&steps=100&delta=1e-5&alpha=0.01",
        ))
        .0;
        let out = collect(Job::Attack(attack.clone()));
        assert!(matches!(&out[0], Update::AttackReport(Ok(_))));
        let out = collect(Job::AttackCalibration(attack, Calibration::Advantage));
        assert!(matches!(
            &out[0],
            Update::Calibrated(Some(Calibrated {
                sigma: Ok(_),
                eps_at_sigma: Some(_)
            }))
        ));
        let out = collect(Job::AttackCalibration(
            AttackParams::from_query(&Query::parse("source=list&list=gauss:2")).0,
            Calibration::Tpr,
        ));
        assert_eq!(out[0], Update::Calibrated(None));
        let out = collect(Job::ManyQueries(1000, 7));
        assert_eq!(
            out[0],
            Update::ManyQueries(Ok(simulate_max_errors(1000, 7).unwrap()))
        );
        let refused = collect(Job::ManyQueries(0, 7));
        assert!(matches!(&refused[0], Update::ManyQueries(Err(e)) if e.parameter() == "kmax"));
        // The worker's repetitions, through the message encoding, are the page's own.
        let query = "k=50&reps=1000&n=1000000&seed=3";
        let (p, _) = RrParams::from_query(&Query::parse(query));
        let out = collect(Job::RrRepetitions(p.clone()));
        let want = repetitions(&p).unwrap();
        assert_eq!(out[0], Update::RrRepetitions(Ok(want)));
        let out = collect(Job::WdpFig2(1));
        let Some(Update::WdpCurves(done, total, curves)) = out.iter().rev().nth(1) else {
            panic!("{out:?}")
        };
        assert_eq!((done, curves.len()), (total, 4));
        // The user's CSV, parsed in a worker: the page's own parse, or its refusal.
        let text = "a,b,y\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n";
        let out = collect(Job::ParseCsv(text.into()));
        let want = crate::learning::data::parse_csv(text).unwrap();
        assert_eq!(out[0], Update::Csv(Ok(Box::new(want))));
        let out = collect(Job::ParseCsv("a,b,y\n".into()));
        assert!(matches!(&out[0], Update::Csv(Err(e)) if e.to_string().contains("no data rows")));
    }

    #[test]
    fn foreign_bytes_are_errors() {
        assert!(decode::<Job>(&[255, 1, 2]).is_err());
        assert!(decode::<Update>(&[]).is_err());
    }
}
