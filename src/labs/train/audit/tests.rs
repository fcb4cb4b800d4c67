use super::*;
use crate::link::query::LinkParams;

#[test]
fn audit_keys_round_trip_and_bad_values_fall_back() {
    let q = Query::parse(
        "lab=train&audit=runs&canary=outlier&threat=final&runs=200&conf=0.99&bug=mean-noise",
    );
    let (p, notices) = TrainParams::from_query(&q);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(p.audit.runs, 200);
    assert_eq!(p.audit.bug, BugKind::MeanNoise);
    assert_eq!(TrainParams::from_query(&p.to_query()).0, p);
    // Off prints nothing; ugly values fall back with a notice each.
    assert!(!TrainParams::default()
        .to_query()
        .to_query_string()
        .contains("audit"));
    let (p, notices) = TrainParams::from_query(&Query::parse(
        "audit=maybe&runs=5&conf=2&bug=x&canary=x&threat=x&canary_at=1,NaN&canary_label=2",
    ));
    assert_eq!(notices.len(), 8);
    assert_eq!(p.audit, AuditParams::default());
    let (p, notices) = TrainParams::from_query(&Query::parse("audit=one-run&canaries=100"));
    assert!(notices.is_empty());
    assert_eq!((p.audit.mode, p.audit.canaries), (AuditMode::OneRun, 100));
    assert!(p.to_query().to_query_string().contains("canaries=100"));
    let short = TrainParams {
        steps: Some(40),
        ..p
    };
    let r = audit_one_run(&short, None).unwrap();
    assert_eq!(r.canaries.0, 100);
    assert!(
        r.eps_one_run <= r.eps_theory && r.eps_one_run_fdp <= r.eps_theory,
        "{r:?}"
    );
}

#[test]
fn a_placed_canary_round_trips_and_must_fit_the_data() {
    let link =
        "data=gaussians&audit=runs&canary=point&canary_at=3,-1.5&canary_label=1&runs=20&steps=30";
    let (p, notices) = TrainParams::from_query(&Query::parse(link));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((p.audit.point.clone(), p.audit.label), (vec![3.0, -1.5], 1));
    assert_eq!(TrainParams::from_query(&p.to_query()).0, p);
    let (ins, outs) = audit_chunk(&p, None, 0, 4).unwrap();
    assert!(ins.iter().chain(&outs).all(|s| s.is_finite()));
    // One value: the other feature sits at the mean. Three: refused when the audit runs.
    let one = TrainParams::from_query(&Query::parse(&link.replace("3,-1.5", "2"))).0;
    assert!(audit_chunk(&one, None, 0, 2).is_ok());
    let three = TrainParams::from_query(&Query::parse(&link.replace("3,-1.5", "1,2,3"))).0;
    assert!(audit_chunk(&three, None, 0, 2).is_err());
}

#[test]
fn the_realised_batch_demo_catches_its_bug_and_passes_without_it() {
    let link = BugKind::RealisedBatch
        .demo()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let (p, notices) = TrainParams::from_query(&Query::parse(&link));
    assert!(notices.is_empty(), "{notices:?}");
    let run = |p: &TrainParams| {
        let (ins, outs) = audit_chunk(p, None, 0, p.audit.runs).unwrap();
        audit_report(p, 0, &ins, &outs).unwrap()
    };
    let caught = run(&p);
    assert!(
        caught.contradiction,
        "{} vs {}",
        caught.eps_cp, caught.eps_theory
    );
    let fixed = TrainParams {
        audit: AuditParams {
            bug: BugKind::None,
            ..p.audit.clone()
        },
        ..p
    };
    assert!(!run(&fixed).contradiction);
}

#[test]
fn chunks_cover_the_runs_and_the_same_seeds_give_the_same_scores() {
    let p = AuditParams {
        runs: 120,
        ..AuditParams::default()
    };
    assert_eq!(p.chunks(), vec![(0, 50), (50, 50), (100, 20)]);
    // A short audit of the default lab: chunks agree with one job over the same runs.
    let lab = TrainParams {
        steps: Some(30),
        audit: AuditParams {
            mode: AuditMode::Runs,
            runs: 20,
            ..AuditParams::default()
        },
        ..TrainParams::default()
    };
    let (a_in, a_out) = audit_chunk(&lab, None, 0, 4).unwrap();
    let (b_in, b_out) = audit_chunk(&lab, None, 2, 2).unwrap();
    assert_eq!((&a_in[2..], &a_out[2..]), (&b_in[..], &b_out[..]));
    let report = audit_report(&lab, 0, &a_in, &a_out).unwrap();
    assert!(report.eps_theory > 0.0 && report.eps_last_iterate < report.eps_theory);
    assert!(!report.contradiction);
}
