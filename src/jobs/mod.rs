//! The heavy work the page hands to its web workers. A [`Job`] is data (one lab's typed job: the
//! parameters it reads, parsed once on the page, and what an earlier job produced), [`run`] does it to
//! the end calling `emit` with each [`Update`] as it is ready, and both cross the worker boundary as
//! postcard bytes ([`encode`], [`decode`]): bit-exact for every f64, ∞ and NaN included. Each lab keeps
//! its jobs in its own `jobs.rs` (an enum of jobs, one of updates, and its `run`); this file only
//! dispatches. Natively `run` is a plain function, so every job is tested with `cargo test`.

use crate::accounting::training::jobs::{self as accounting, AccountingJob, AccountingUpdate};
use crate::error::{Error, Result};
use crate::labs::attack::jobs::{self as attack, AttackJob, AttackUpdate};
use crate::labs::compose::jobs::{self as compose, ComposeJob, ComposeUpdate};
use crate::labs::dpsgd::jobs::{self as dpsgd, DpsgdJob, DpsgdUpdate};
use crate::labs::images::jobs::{self as images, ImagesJob, ImagesUpdate};
use crate::labs::mechanisms::jobs::{self as mechanisms, MechJob, MechUpdate};
use crate::labs::mf::jobs::{self as mf, MfJob, MfUpdate};
use crate::labs::rr::jobs::{self as rr, RrJob, RrUpdate};
use crate::labs::tangent::jobs::{self as tangent, TangentJob, TangentUpdate};
use crate::labs::train::jobs::{self as train, TrainJob, TrainJobUpdate};
use crate::labs::wdp::jobs::{self as wdp, WdpJob, WdpUpdate};
use crate::statement::jobs::{self as statement, StatementJob, StatementUpdate};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

pub mod gang;

/// A piece of heavy work: one lab's job (or a training run's accounting, which two labs post).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// A training run's accounting: the PLD and the σ searches (the DP-SGD and training labs).
    Accounting(AccountingJob),
    /// The randomized-response lab's.
    Rr(RrJob),
    /// The mechanisms lab's.
    Mechanisms(MechJob),
    /// The composition lab's.
    Compose(ComposeJob),
    /// The DP-SGD lab's own (samplers, users, schedules).
    Dpsgd(DpsgdJob),
    /// The attack lab's.
    Attack(AttackJob),
    /// The WDP lab's.
    Wdp(WdpJob),
    /// The tangent lab's.
    Tangent(TangentJob),
    /// The training lab's.
    Train(TrainJob),
    /// A guarantee statement's other scales, or the deployments beside it (four labs post it).
    Statement(StatementJob),
    /// The correlated-noise lab's.
    Mf(MfJob),
    /// The image lab's.
    Images(ImagesJob),
}

/// What a job sends back while it runs; the last message is [`Update::Done`] or [`Update::Error`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Update {
    /// See [`Job::Accounting`].
    Accounting(AccountingUpdate),
    /// See [`Job::Rr`].
    Rr(RrUpdate),
    /// See [`Job::Mechanisms`].
    Mechanisms(MechUpdate),
    /// See [`Job::Compose`].
    Compose(ComposeUpdate),
    /// See [`Job::Dpsgd`].
    Dpsgd(DpsgdUpdate),
    /// See [`Job::Attack`].
    Attack(AttackUpdate),
    /// See [`Job::Wdp`].
    Wdp(WdpUpdate),
    /// See [`Job::Tangent`].
    Tangent(TangentUpdate),
    /// See [`Job::Train`].
    Train(TrainJobUpdate),
    /// See [`Job::Statement`].
    Statement(StatementUpdate),
    /// See [`Job::Mf`].
    Mf(MfUpdate),
    /// See [`Job::Images`].
    Images(ImagesUpdate),
    /// The job could not run (a refused link).
    Error(Error),
    /// The job is over.
    Done,
}

/// The worker modules the build makes (`worker/src/bin/`), each running the jobs of a group of labs,
/// so that a lab's page downloads and compiles only the code of the jobs it posts: the accountants'
/// labs' module is 364 KB gzip where the module of every job is 564 KB, and over a 20 Mbit/s link the
/// DP-SGD lab's band was painted 150 ms sooner (issue 54, `docs/performance.md`). The single-file build keeps the
/// module of every job ([`run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerModule {
    /// The accountants' labs: randomized response, mechanisms, composition, DP-SGD and attacks.
    Accounting,
    /// The training lab.
    Train,
    /// The papers' labs: WDP, tangent DP and correlated noise.
    Research,
    /// The image lab (MNIST, its models and PCA).
    Images,
}

impl WorkerModule {
    /// Every module, in the manifest's order.
    pub const ALL: [WorkerModule; 4] = [
        WorkerModule::Accounting,
        WorkerModule::Train,
        WorkerModule::Research,
        WorkerModule::Images,
    ];

    /// Its name in the build (`dp-playground-worker-<key>`) and the manifest.
    pub const fn key(self) -> &'static str {
        match self {
            WorkerModule::Accounting => "accounting",
            WorkerModule::Train => "train",
            WorkerModule::Research => "research",
            WorkerModule::Images => "images",
        }
    }

    /// The kinds of job it runs ([`kind`] bits).
    pub const fn kinds(self) -> u32 {
        use kind::*;
        match self {
            WorkerModule::Accounting => {
                ACCOUNTING | RR | MECHANISMS | COMPOSE | DPSGD | ATTACK | STATEMENT
            }
            WorkerModule::Train => ACCOUNTING | TRAIN | STATEMENT,
            WorkerModule::Research => WDP | TANGENT | MF,
            WorkerModule::Images => IMAGES,
        }
    }
}

/// One bit per [`Job`] variant, for [`run_only`] and [`WorkerModule::kinds`].
pub mod kind {
    /// [`super::Job::Accounting`].
    pub const ACCOUNTING: u32 = 1;
    /// [`super::Job::Rr`].
    pub const RR: u32 = 1 << 1;
    /// [`super::Job::Mechanisms`].
    pub const MECHANISMS: u32 = 1 << 2;
    /// [`super::Job::Compose`].
    pub const COMPOSE: u32 = 1 << 3;
    /// [`super::Job::Dpsgd`].
    pub const DPSGD: u32 = 1 << 4;
    /// [`super::Job::Attack`].
    pub const ATTACK: u32 = 1 << 5;
    /// [`super::Job::Wdp`].
    pub const WDP: u32 = 1 << 6;
    /// [`super::Job::Tangent`].
    pub const TANGENT: u32 = 1 << 7;
    /// [`super::Job::Train`].
    pub const TRAIN: u32 = 1 << 8;
    /// [`super::Job::Statement`].
    pub const STATEMENT: u32 = 1 << 9;
    /// [`super::Job::Mf`].
    pub const MF: u32 = 1 << 10;
    /// [`super::Job::Images`].
    pub const IMAGES: u32 = 1 << 11;
    /// Every kind.
    pub const ALL: u32 = (1 << 12) - 1;
}

/// Runs `job` to the end, calling `emit` with each update and last with [`Update::Done`] (or
/// [`Update::Error`]).
pub fn run(job: Job, emit: &mut dyn FnMut(Update)) {
    run_only::<{ kind::ALL }>(job, emit)
}

/// [`run`] for a worker module that holds only the jobs of `KINDS` ([`WorkerModule::kinds`]): the
/// others' code is never referenced, so the linker leaves it out. A job of another kind fails.
pub fn run_only<const KINDS: u32>(job: Job, emit: &mut dyn FnMut(Update)) {
    match run_job::<KINDS>(job, emit) {
        Ok(()) => emit(Update::Done),
        Err(e) => emit(Update::Error(e)),
    }
}

/// Hands `job` to its lab's `run`, wrapping each of its updates; a kind outside `KINDS` is refused
/// (the guards let the compiler drop the others' code).
fn run_job<const KINDS: u32>(job: Job, emit: &mut dyn FnMut(Update)) -> Result<()> {
    use kind::*;
    match job {
        Job::Accounting(j) if KINDS & ACCOUNTING != 0 => {
            accounting::run(j, &mut |u| emit(Update::Accounting(u)))
        }
        Job::Rr(j) if KINDS & RR != 0 => rr::run(j, &mut |u| emit(Update::Rr(u))),
        Job::Mechanisms(j) if KINDS & MECHANISMS != 0 => {
            mechanisms::run(j, &mut |u| emit(Update::Mechanisms(u)))
        }
        Job::Compose(j) if KINDS & COMPOSE != 0 => {
            compose::run(j, &mut |u| emit(Update::Compose(u)))
        }
        Job::Dpsgd(j) if KINDS & DPSGD != 0 => dpsgd::run(j, &mut |u| emit(Update::Dpsgd(u))),
        Job::Attack(j) if KINDS & ATTACK != 0 => attack::run(j, &mut |u| emit(Update::Attack(u))),
        Job::Wdp(j) if KINDS & WDP != 0 => wdp::run(j, &mut |u| emit(Update::Wdp(u))),
        Job::Tangent(j) if KINDS & TANGENT != 0 => {
            tangent::run(j, &mut |u| emit(Update::Tangent(u)))?
        }
        Job::Train(j) if KINDS & TRAIN != 0 => train::run(j, &mut |u| emit(Update::Train(u)))?,
        Job::Statement(j) if KINDS & STATEMENT != 0 => {
            statement::run(j, &mut |u| emit(Update::Statement(u)))?
        }
        Job::Mf(j) if KINDS & MF != 0 => mf::run(j, &mut |u| emit(Update::Mf(u))),
        Job::Images(j) if KINDS & IMAGES != 0 => images::run(j, &mut |u| emit(Update::Images(u)))?,
        _ => return Err(Error::Worker {
            reason:
                "this worker module does not run that job (a page and worker from different builds)"
                    .into(),
        }),
    }
    Ok(())
}

/// `value` as postcard bytes.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising these plain data types into a Vec cannot fail; an empty message would be refused by
    // `decode` on the other side.
    postcard::to_allocvec(value).unwrap_or_default()
}

/// A value from postcard bytes (it may borrow from them: a `&[u8]` field is read in place).
///
/// # Errors
/// Bytes that are not an encoded `T` (a worker built from other sources than the page).
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T> {
    postcard::from_bytes(bytes).map_err(|e| Error::Wire {
        reason: e.to_string(),
    })
}

/// One lab's jobs as a page posts them, without the other labs' code: a page that named [`Job`] and
/// [`Update`] compiled every lab's (de)serialisation (40 KB of the training lab's module before
/// wasm-opt). The bytes are the same: postcard writes an enum's variant position, then its content,
/// so `TAG` followed by the job's bytes is the [`Job`] a worker decodes (a test holds every kind equal).
pub trait JobKind: Serialize {
    /// Its variant's position in [`Job`], and its updates' in [`Update`].
    const TAG: u8;
    /// What its jobs send back: the content of the matching [`Update`] variant.
    type Update: DeserializeOwned;
}

macro_rules! job_kinds {
    ($($job:ty => $update:ty = $tag:literal),* $(,)?) => {
        $(impl JobKind for $job {
            const TAG: u8 = $tag;
            type Update = $update;
        })*
    };
}

job_kinds! {
    AccountingJob => AccountingUpdate = 0,
    RrJob => RrUpdate = 1,
    MechJob => MechUpdate = 2,
    ComposeJob => ComposeUpdate = 3,
    DpsgdJob => DpsgdUpdate = 4,
    AttackJob => AttackUpdate = 5,
    WdpJob => WdpUpdate = 6,
    TangentJob => TangentUpdate = 7,
    TrainJob => TrainJobUpdate = 8,
    StatementJob => StatementUpdate = 9,
    MfJob => MfUpdate = 10,
    ImagesJob => ImagesUpdate = 11,
}

/// [`Update::Error`]'s position.
const ERROR_TAG: u8 = 12;
/// [`Update::Done`]'s position.
const DONE_TAG: u8 = 13;

/// `job` as the [`Job`] bytes a worker decodes.
pub fn encode_job<J: JobKind>(job: &J) -> Vec<u8> {
    let mut bytes = vec![J::TAG];
    bytes.extend(encode(job));
    bytes
}

/// A worker's message to the page that posted a `J` job: [`Update`] with only `J`'s variant decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Received<U> {
    /// One of the job's updates.
    Update(U),
    /// The job could not run.
    Error(Error),
    /// The job is over.
    Done,
}

/// Whether `bytes` are an update that ends its job ([`Update::Done`] or [`Update::Error`]), or bytes
/// no [`Update`] starts with (`None`: a worker from another build).
pub fn ends_job(bytes: &[u8]) -> Option<bool> {
    match bytes.first() {
        Some(&t) if t < ERROR_TAG => Some(false),
        Some(&t) if t <= DONE_TAG => Some(true),
        _ => None,
    }
}

/// The [`Update`] in `bytes`, sent by a `J` job.
///
/// # Errors
/// Bytes that are not an encoded [`Update`] of `J`'s (a worker built from other sources).
pub fn decode_update<J: JobKind>(bytes: &[u8]) -> Result<Received<J::Update>> {
    match bytes.split_first() {
        Some((&t, rest)) if t == J::TAG => decode(rest).map(Received::Update),
        Some((&ERROR_TAG, rest)) => decode(rest).map(Received::Error),
        Some((&DONE_TAG, [])) => Ok(Received::Done),
        _ => Err(Error::Wire {
            reason: "an update of another kind of job".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::training::jobs::PldJob;
    use crate::labs::attack::jobs::{Calibrated, Calibration};
    use crate::labs::attack::params::AttackParams;
    use crate::labs::compose::jobs::compose_pld;
    use crate::labs::dpsgd::DpsgdParams;
    use crate::labs::rr::{repetitions, RrParams};
    use crate::labs::tangent::background::Extra;
    use crate::labs::tangent::parallel::Plan;
    use crate::labs::tangent::TangentParams;
    use crate::link::query::LinkParams;
    use crate::link::query::Query;
    use crate::mechanisms::many_queries::simulate_max_errors;

    /// Runs `job` as a worker does (decoded from bytes, every update encoded and decoded) and checks
    /// that it ends with [`Update::Done`].
    fn collect(job: Job) -> Vec<Update> {
        let mut out = Vec::new();
        run(decode(&encode(&job)).unwrap(), &mut |u| {
            out.push(decode::<Update>(&encode(&u)).unwrap())
        });
        assert_eq!(out.last(), Some(&Update::Done), "{out:?}");
        macro_rules! page_sides {
            ($($kind:ident),*) => {
                match &job {
                    $(Job::$kind(j) => page_side(j, &job, &out, |u| match u {
                        Update::$kind(x) => Some(x),
                        _ => None,
                    }),)*
                }
            };
        }
        page_sides!(
            Accounting, Rr, Mechanisms, Compose, Dpsgd, Attack, Wdp, Tangent, Train, Statement, Mf,
            Images
        );
        out
    }

    /// The page's typed side of the wire ([`encode_job`], [`decode_update`]) reads and writes the
    /// whole enums' bytes.
    fn page_side<J: JobKind>(
        job: &J,
        whole: &Job,
        updates: &[Update],
        inner: impl Fn(&Update) -> Option<&J::Update>,
    ) where
        J::Update: PartialEq + std::fmt::Debug + Clone,
    {
        assert_eq!(encode_job(job), encode(whole));
        for u in updates {
            let bytes = encode(u);
            let expected = match u {
                Update::Done => Received::Done,
                Update::Error(e) => Received::Error(e.clone()),
                other => {
                    Received::Update(inner(other).expect("an update of the job's kind").clone())
                }
            };
            assert_eq!(decode_update::<J>(&bytes).unwrap(), expected);
            assert_eq!(
                ends_job(&bytes),
                Some(matches!(u, Update::Done | Update::Error(_)))
            );
        }
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
            for u in collect(Job::Tangent(TangentJob::Risk {
                params: params(),
                from,
                to,
            })) {
                if let Update::Tangent(TangentUpdate::Risk(r)) = u {
                    risk.extend(r);
                }
            }
        }
        let plan = Plan::new(&p).unwrap();
        let columns = plan.columns(&risk);
        let mut parts = Vec::new();
        for r in columns.ranges() {
            let job = Job::Tangent(TangentJob::Columns {
                params: params(),
                log_q: columns.log_q.clone(),
                from: r.start,
                to: r.end,
            });
            for u in collect(job) {
                if let Update::Tangent(TangentUpdate::NormsPart(b)) = u {
                    parts.push(serde_bytes::ByteBuf::from(b));
                }
            }
        }
        let out = collect(Job::Tangent(TangentJob::Finish {
            params: params(),
            risk,
            log_q: columns.log_q.clone(),
            parts,
        }));
        assert!(matches!(&out[0], Update::Tangent(TangentUpdate::Report(r)) if **r == whole));
        let grid = |out: &[Update]| {
            out.iter()
                .find(|u| matches!(u, Update::Tangent(TangentUpdate::Extra(Extra::Grid(_)))))
                .cloned()
        };
        assert!(grid(&out).is_some());
        // A report the page computed itself gets the same sweeps and Monte Carlo.
        let sweeps = collect(Job::Tangent(TangentJob::Sweeps {
            params: params(),
            report: Box::new(whole.clone()),
        }));
        assert_eq!(grid(&sweeps), grid(&out));
        assert_eq!(&sweeps[..], &out[1..]);
        let out = collect(Job::Tangent(TangentJob::Langevin {
            params: params(),
            report: Box::new(whole),
        }));
        assert!(out.iter().any(|u| matches!(
            u,
            Update::Tangent(TangentUpdate::Extra(Extra::LangevinR(_)))
        )));
    }

    /// The kinds no other test runs: each tag is its variant's position; the last two are fixed.
    #[test]
    fn every_kind_is_tagged_by_its_position() {
        let dpsgd = DpsgdJob::Schedule(DpsgdParams::from_query(&Query::default()).0);
        assert_eq!(encode_job(&dpsgd), encode(&Job::Dpsgd(dpsgd.clone())));
        assert_eq!(encode(&Update::Done), [DONE_TAG]);
        assert_eq!(
            decode_update::<DpsgdJob>(&[DONE_TAG]).unwrap(),
            Received::Done
        );
        assert!(decode_update::<DpsgdJob>(&[TrainJob::TAG]).is_err());
        assert_eq!(ends_job(&[DONE_TAG + 1]), None);
    }

    /// Every accountant job runs through the wire format and ends with Done, its results equal to the
    /// direct calls'.
    #[test]
    fn accountant_jobs_round_trip() {
        let dpsgd = DpsgdParams::from_query(&Query::parse(
            "n=60000&batch=600&sigma=1.1&epochs=2&delta=1e-5&target_eps=1",
        ))
        .0;
        let out = collect(Job::Accounting(AccountingJob::Pld(PldJob::new(
            &dpsgd.event(),
            dpsgd.delta,
            dpsgd.grid_width(),
        ))));
        assert!(
            matches!(&out[0], Update::Accounting(AccountingUpdate::Pld(Ok(b))) if b.upper >= b.lower && b.lower > 0.0)
        );
        let points = out
            .iter()
            .filter(|u| matches!(u, Update::Accounting(AccountingUpdate::CurvePoint(..))))
            .count();
        assert_eq!(points, accounting::CURVE_FRACTIONS.len());
        let out = collect(Job::Accounting(AccountingJob::Sigma(dpsgd.sigma_goal())));
        assert!(out.iter().any(
            |u| matches!(u, Update::Accounting(AccountingUpdate::SigmaPld(Ok(s))) if *s > 0.0)
        ));
        let list = crate::accounting::entry::parse_list("gauss:3*10,lap:0.2*5").unwrap();
        let out = collect(Job::Compose(ComposeJob::Pld(list.clone(), None)));
        let want = compose_pld(&list, None).unwrap();
        assert!(matches!(&out[0], Update::Compose(ComposeUpdate::Pld(Ok(c))) if **c == want));
        let attack = AttackParams::from_query(&Query::parse(
            "source=dpsgd&q=0.01&sigma=1&steps=100&delta=1e-5&alpha=0.01",
        ))
        .0;
        let out = collect(Job::Attack(AttackJob::Report(attack.clone())));
        assert!(matches!(
            &out[0],
            Update::Attack(AttackUpdate::Report(Ok(_)))
        ));
        let out = collect(Job::Attack(AttackJob::Calibration(
            attack,
            Calibration::Advantage,
        )));
        assert!(matches!(
            &out[0],
            Update::Attack(AttackUpdate::Calibrated(Some(Calibrated {
                sigma: Ok(_),
                eps_at_sigma: Some(_)
            })))
        ));
        let out = collect(Job::Attack(AttackJob::Calibration(
            AttackParams::from_query(&Query::parse("source=list&list=gauss:2")).0,
            Calibration::Tpr,
        )));
        assert_eq!(out[0], Update::Attack(AttackUpdate::Calibrated(None)));
        let out = collect(Job::Mechanisms(MechJob::ManyQueries(1000, 7)));
        assert_eq!(
            out[0],
            Update::Mechanisms(MechUpdate::ManyQueries(Ok(
                simulate_max_errors(1000, 7).unwrap()
            )))
        );
        let refused = collect(Job::Mechanisms(MechJob::ManyQueries(0, 7)));
        assert!(
            matches!(&refused[0], Update::Mechanisms(MechUpdate::ManyQueries(Err(e))) if e.parameter() == "kmax")
        );
        // The worker's repetitions, through the message encoding, are the page's own.
        let query = "k=50&reps=1000&n=1000000&seed=3";
        let (p, _) = RrParams::from_query(&Query::parse(query));
        let out = collect(Job::Rr(RrJob::Repetitions(p.clone())));
        let want = repetitions(&p).unwrap();
        assert_eq!(out[0], Update::Rr(RrUpdate::Repetitions(Ok(want))));
        // The user's CSV, parsed in a worker: the page's own parse, or its refusal.
        let text = "a,b,y\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n";
        let out = collect(Job::Train(TrainJob::ParseCsv(text.into())));
        let want = crate::learning::data::parse_csv(text).unwrap();
        assert_eq!(
            out[0],
            Update::Train(TrainJobUpdate::Csv(Ok(Box::new(want))))
        );
        let out = collect(Job::Train(TrainJob::ParseCsv("a,b,y\n".into())));
        assert!(
            matches!(&out[0], Update::Train(TrainJobUpdate::Csv(Err(e))) if e.to_string().contains("no data rows"))
        );
        let out = collect(Job::Wdp(WdpJob::Fig2(1)));
        let Some(Update::Wdp(WdpUpdate::Curves(done, total, curves))) = out.iter().rev().nth(1)
        else {
            panic!("{out:?}")
        };
        assert_eq!((done, curves.len()), (total, 4));
    }

    /// The correlated-noise lab's jobs through the wire: the report a worker sends is the page's.
    #[test]
    fn mf_jobs_round_trip() {
        use crate::labs::mf::{jobs::MfUpdate, report, MfParams};
        let p = MfParams::from_query(&Query::parse("steps=3000&q=0.01&epochs=3")).0;
        let out = collect(Job::Mf(MfJob::Amplified(p.amplified_goal().unwrap())));
        let Update::Mf(MfUpdate::Amplified(Ok(a))) = &out[0] else {
            panic!("{out:?}")
        };
        let out = collect(Job::Mf(MfJob::Report {
            params: p.clone(),
            blt: None,
            amplified: Some(*a),
        }));
        assert_eq!(
            out[0],
            Update::Mf(MfUpdate::Report(report(&p, None, Some(a))))
        );
        let out = collect(Job::Mf(MfJob::Blt {
            steps: 64,
            participation: p.participation(),
        }));
        assert!(matches!(out[0], Update::Mf(MfUpdate::BltProgress(1, 1, _))));
    }

    #[test]
    fn foreign_bytes_are_errors() {
        assert!(decode::<Job>(&[255, 1, 2]).is_err());
        assert!(decode::<Update>(&[]).is_err());
    }

    /// A group's worker module runs its own kinds of job as the module of every job does, and refuses
    /// the others' with a message (a page and worker of different builds), never silently.
    #[test]
    fn a_worker_module_runs_only_its_groups_jobs() {
        let dpsgd = DpsgdParams::from_query(&Query::parse("sigma=100&steps=1")).0;
        let job = Job::Accounting(AccountingJob::Pld(PldJob::new(
            &dpsgd.event(),
            dpsgd.delta,
            dpsgd.grid_width(),
        )));
        let through = |kinds: u32| {
            let mut out = Vec::new();
            match kinds {
                k if k == WorkerModule::Accounting.kinds() => {
                    run_only::<{ WorkerModule::Accounting.kinds() }>(job.clone(), &mut |u| {
                        out.push(u)
                    })
                }
                _ => run_only::<{ WorkerModule::Research.kinds() }>(job.clone(), &mut |u| {
                    out.push(u)
                }),
            }
            out
        };
        assert_eq!(
            through(WorkerModule::Accounting.kinds()),
            collect(job.clone())
        );
        let refused = through(WorkerModule::Research.kinds());
        assert!(
            matches!(&refused[..], [Update::Error(Error::Worker { reason })] if reason.contains("does not run")),
            "{refused:?}"
        );
        // Every kind belongs to some group's module.
        let covered = WorkerModule::ALL.iter().fold(0, |k, m| k | m.kinds());
        assert_eq!(covered, kind::ALL);
    }
}
