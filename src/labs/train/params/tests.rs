use super::*;

#[test]
fn defaults_round_trip_and_ugly_values_fall_back() {
    let p = TrainParams::default();
    let (back, notices) = TrainParams::from_query(&p.to_query());
    assert_eq!(back, p);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(p.train_rows(0), 455);
    assert_eq!(p.total_steps(0), 427);
    let mlp = TrainParams {
        data: DataKind::Spiral,
        model: ModelKind::Mlp,
        hidden: vec![8, 6],
        act: Activation::Relu,
        q: Some(0.1),
        steps: Some(500),
        stop: true,
        ..p
    };
    assert_eq!(TrainParams::from_query(&mlp.to_query()).0, mlp);
    let (p, notices) = TrainParams::from_query(&Query::parse(
        "data=mnist&n=nan&noise=2&split=1&model=cnn&hidden=99&act=x&lambda=-1&lr=0&batch=0&q=3\
         &sigma=inf&clip=-1&epochs=0&steps=0&delta=1&target_eps=0&stop=maybe&seed=-1&seeds=0&sweep=0,1",
    ));
    assert_eq!(p, TrainParams::default());
    assert_eq!(notices.len(), 21, "{notices:?}");
    assert!(notices[0].message.contains("must be breast-cancer, adult"));
    let (p, notices) = TrainParams::from_query(&Query::parse("data=xor&n=20&batch=100"));
    assert_eq!(p.rate(0), 1.0);
    assert_eq!(notices.len(), 1);
    let (p, notices) = TrainParams::from_query(&Query::parse("q=0.0001&epochs=10000"));
    assert_eq!(p.total_steps(0), MAX_STEPS);
    assert_eq!(notices.len(), 1);
}

#[test]
fn the_dpsgd_labs_link_carries_the_mechanism() {
    let event = TrainingEvent::poisson(0.01, 1.1, 2000, Neighbour::AddRemove);
    let link = crate::link::handoff::train_link_for_run(&event, 1e-6);
    let (p, notices) = TrainParams::from_query(&link);
    assert!(notices.is_empty());
    assert_eq!(
        (p.rate(0), p.sigma, p.total_steps(0), p.delta),
        (0.01, 1.1, 2000, 1e-6)
    );
    let a = p.event(0, 2000);
    assert_eq!((a.rate, a.steps, a.sigma), (0.01, 2000, 1.1));
}

/// Issue 52: the DP-SGD lab's plan for 60 000 records at batch 256 carries its batch, epochs and
/// n; on breast cancer's 455 training rows the page says a batch holds about 1.9 rows, and with
/// the batch size kept (q and T dropped, as the page's button does) q is this data's.
#[test]
fn a_plan_for_another_data_size_is_said_and_its_batch_can_be_kept() {
    let mut event = TrainingEvent::poisson(256.0 / 60_000.0, 1.1, 2344, Neighbour::AddRemove);
    event.records = 60_000;
    let mut link = crate::link::handoff::train_link_for_run(&event, 1e-5);
    let (p, notices) = TrainParams::from_query(&link);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        (p.rate(0), p.total_steps(0), p.batch),
        (event.rate, 2344, 256)
    );
    assert_eq!(p.plan_n, Some(60_000));
    let note = p.plan_note(0).unwrap();
    assert!(
        note.contains("about 1.94 rows") && note.contains("(the plan's held 256)"),
        "{note}"
    );
    link.remove("q");
    link.remove("steps");
    let (kept, _) = TrainParams::from_query(&link);
    assert!((kept.rate(0) - 256.0 / 455.0).abs() < 1e-12);
    assert!((kept.rate(0) * kept.total_steps(0) as f64) >= 10.0);
    assert!(kept.plan_note(0).unwrap().contains("q = 0.5626"));
    let same = TrainParams {
        plan_n: Some(455),
        ..p
    };
    assert_eq!(same.plan_note(0), None);
}
