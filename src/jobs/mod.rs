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
mod tests;
