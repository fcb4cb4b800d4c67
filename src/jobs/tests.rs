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
            other => Received::Update(inner(other).expect("an update of the job's kind").clone()),
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
    assert!(out
        .iter()
        .any(|u| matches!(u, Update::Accounting(AccountingUpdate::SigmaPld(Ok(s))) if *s > 0.0)));
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
    let Some(Update::Wdp(WdpUpdate::Curves(done, total, curves))) = out.iter().rev().nth(1) else {
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
                run_only::<{ WorkerModule::Accounting.kinds() }>(job.clone(), &mut |u| out.push(u))
            }
            _ => run_only::<{ WorkerModule::Research.kinds() }>(job.clone(), &mut |u| out.push(u)),
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
