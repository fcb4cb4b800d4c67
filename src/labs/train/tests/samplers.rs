//! The training lab with each sampler: its batches, its ε (a certified bound or the sampler's own
//! lower bound), its stop rule and its audit.

use super::*;

/// The training lab trains with the sampler it accounts for: shuffled batches learn as well as
/// Poisson ones on the default data, the sweep's ε is the sampler's own statement (a lower bound for
/// shuffling), and the link keeps the sampler for the DP-SGD lab's accountant.
#[test]
fn shuffled_batches_train_and_carry_their_own_epsilon() {
    use crate::accounting::samplers::{sampler_epsilon, Sampler};
    let (p, notices) = TrainParams::from_query(&Query::parse("sampler=shuffle&epochs=5"));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(p.sampler, Sampler::Shuffle);
    assert!(p.to_query().to_query_string().contains("sampler=shuffle"));
    let point = sweep_point(&p, None, p.sigma).unwrap();
    let rows = 569;
    let steps = p.planned_steps(rows).unwrap();
    let accounting = p.event(rows, steps);
    assert_eq!(accounting.sampler, Sampler::Shuffle);
    let want = sampler_epsilon(
        &accounting.sampler_setting(p.delta, crate::accounting::pld::DEFAULT_INTERVAL),
        Sampler::Shuffle,
    )
    .unwrap();
    assert_eq!(point.eps, want.lower);
    let poisson = sweep_point(
        &TrainParams {
            sampler: Sampler::Poisson,
            ..p.clone()
        },
        None,
        p.sigma,
    )
    .unwrap();
    let acc = |pt: &super::jobs::SweepPoint| {
        pt.test_acc.iter().map(|a| a[0]).sum::<f64>() / pt.test_acc.len() as f64
    };
    assert!(
        acc(&point) > 0.9 && acc(&poisson) > 0.9,
        "{} {}",
        acc(&point),
        acc(&poisson)
    );
    assert_ne!(point.test_acc, poisson.test_acc);
}

/// Truncated Poisson in the training lab: the link's cap reaches both the batches and the accountant,
/// the sweep's ε is that sampler's certified upper end, and a cap below the mean batch changes the
/// run (batches are cut) while a cap above every batch trains exactly as Poisson.
#[test]
fn truncated_batches_train_under_their_cap_and_carry_their_band() {
    use crate::accounting::samplers::{sampler_epsilon, Sampler};
    let (p, notices) = TrainParams::from_query(&Query::parse("sampler=truncated&cap=20&epochs=3"));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((p.sampler, p.cap), (Sampler::Truncated, Some(20)));
    assert!(p.to_query().to_query_string().contains("cap=20"));
    let rows = 569;
    let steps = p.planned_steps(rows).unwrap();
    let setting = p
        .event(rows, steps)
        .sampler_setting(p.delta, crate::accounting::pld::DEFAULT_INTERVAL);
    assert_eq!(setting.cap, 20);
    let point = sweep_point(&p, None, p.sigma).unwrap();
    let want = sampler_epsilon(&setting, Sampler::Truncated).unwrap();
    assert_eq!(Some(point.eps), want.upper);
    let loose = TrainParams {
        cap: Some(10_000),
        ..p.clone()
    };
    let poisson = TrainParams {
        sampler: Sampler::Poisson,
        ..p.clone()
    };
    let (a, b) = (
        sweep_point(&loose, None, p.sigma).unwrap(),
        sweep_point(&poisson, None, p.sigma).unwrap(),
    );
    assert_eq!(a.test_acc, b.test_acc);
    assert_ne!(point.test_acc, b.test_acc);
    // The default cap: 10% above the mean batch of 32.
    let default = TrainParams::from_query(&Query::parse("sampler=truncated")).0;
    assert_eq!(default.cap(rows), 36);
    // The stop rule follows the flagged pair's RDP curve, never past the target by its PLD band.
    let link = "stop=1&target_eps=3&sigma=2&epochs=20&sampler=truncated&cap=20";
    let (p, notices) = TrainParams::from_query(&Query::parse(link));
    assert!(notices.is_empty() && p.stop, "{notices:?}");
    let (all, t) = (
        p.total_steps(BREAST_CANCER_ROWS),
        p.planned_steps(BREAST_CANCER_ROWS).unwrap(),
    );
    let setting = p
        .event(BREAST_CANCER_ROWS, t)
        .sampler_setting(p.delta, crate::accounting::pld::DEFAULT_INTERVAL);
    let certified = sampler_epsilon(&setting, Sampler::Truncated).unwrap();
    assert!(t < all, "{t} of {all}");
    assert!(certified.headline() <= 3.0, "ε({t}) = {certified:?}");
    let rule = StepRdp::for_run(&p.event(BREAST_CANCER_ROWS, t)).unwrap();
    assert!(rule.epsilon(t, p.delta) <= 3.0 && rule.epsilon(t + 1, p.delta) > 3.0);
}

/// The stop rule follows the run's sampler: fixed-size batches stop by the Poisson pair at σ/2 (their
/// certified bound under add/remove), never past the target by the DP-SGD lab's own accountant;
/// shuffled batches (lower bounds only), balls-in-bins ones (a bound for whole epochs only) and cyclic
/// ones (exact for zero-out neighbours only) have no stop rule: the link's `stop=1` is dropped with a notice.
#[test]
fn the_stop_rule_follows_the_sampler() {
    use crate::accounting::samplers::{sampler_epsilon, Sampler};
    let link = "stop=1&target_eps=3&sigma=4&epochs=20&sampler=fixed";
    let (p, notices) = TrainParams::from_query(&Query::parse(link));
    assert!(notices.is_empty() && p.stop, "{notices:?}");
    let (all, t) = (
        p.total_steps(BREAST_CANCER_ROWS),
        p.planned_steps(BREAST_CANCER_ROWS).unwrap(),
    );
    let certified = |t: u64| {
        let setting = p
            .event(BREAST_CANCER_ROWS, t)
            .sampler_setting(p.delta, crate::accounting::pld::DEFAULT_INTERVAL);
        sampler_epsilon(&setting, Sampler::Fixed)
            .unwrap()
            .headline()
    };
    assert!(t < all, "{t} of {all}");
    assert!(certified(t) <= 3.0, "ε({t}) = {}", certified(t));
    // RDP lies above the PLD: the rule's own ε passes the target at the next step.
    let rule = StepRdp::for_run(&p.event(BREAST_CANCER_ROWS, t)).unwrap();
    assert!(rule.epsilon(t, p.delta) <= 3.0 && rule.epsilon(t + 1, p.delta) > 3.0);
    for sampler in [
        Sampler::Shuffle,
        Sampler::ShuffleOnce,
        Sampler::Balls,
        Sampler::Cyclic,
    ] {
        let link = format!("stop=1&sampler={}", sampler.key());
        let (p, notices) = TrainParams::from_query(&Query::parse(&link));
        assert!(!p.stop);
        assert_eq!(notices.len(), 1);
        let why = match sampler {
            Sampler::Cyclic => "zero-out",
            Sampler::Balls => "whole epochs",
            _ => "only a lower bound",
        };
        assert!(notices[0].message.contains(why), "{}", notices[0].message);
        let forced = TrainParams { stop: true, ..p };
        assert!(forced.planned_steps(BREAST_CANCER_ROWS).is_err());
    }
}

/// Issue 53: the audit drew Poisson batches whatever the link's sampler, and was set beside the
/// sampler's ε without saying so. Each sampler's audit now trains with its own batches (Poisson's
/// numbers unchanged) and names the sampler and the kind of number beside it.
#[test]
fn the_audit_trains_with_the_links_sampler_and_is_set_beside_its_epsilon() {
    let link = "audit=runs&runs=20&steps=30";
    let at = |sampler: &str| TrainParams::from_query(&Query::parse(&format!("{link}{sampler}"))).0;
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    // Poisson: the numbers the audit gave before it read the sampler, bit for bit.
    let poisson = audit_chunk(&at(""), None, 0, 3).unwrap();
    assert_eq!(
        (bits(&poisson.0), bits(&poisson.1)),
        (
            vec![0x3fc24b68337422d8, 0x3fcd89cad65cb0e6, 0x3fcd76a594b85d1a],
            vec![0xbf820b1fe1334aa8, 0x3fb81dcc46e7253f, 0xbfc76829f85ed35f]
        )
    );
    let report = audit_report(&at(""), 0, &poisson.0, &poisson.1).unwrap();
    assert_eq!(
        (report.sampler, report.theory_kind),
        (Sampler::Poisson, Kind::Upper)
    );
    for sampler in Sampler::ALL.into_iter().filter(|s| *s != Sampler::Poisson) {
        let p = at(&format!("&sampler={}", sampler.key()));
        assert_eq!(p.sampler, sampler);
        let (ins, outs) = audit_chunk(&p, None, 0, 3).unwrap();
        assert_ne!((&ins, &outs), (&poisson.0, &poisson.1), "{sampler}");
        // Beside the sampler's own statement, named, and contradicted only if it is an upper bound.
        let r = audit_report(&p, 0, &ins, &outs).unwrap();
        let rows = p.rows(0);
        let own = sampler_epsilon(
            &p.event(rows, 30)
                .sampler_setting(p.delta, crate::accounting::pld::DEFAULT_INTERVAL),
            sampler,
        )
        .unwrap();
        assert_eq!((r.sampler, r.theory_kind), (sampler, own.kind), "{sampler}");
        assert_eq!(r.eps_theory, own.headline(), "{sampler}");
        assert!(
            r.eps_last_iterate.is_nan(),
            "{sampler}: a Poisson heuristic"
        );
        let huge = vec![1e9; 3];
        let r = audit_report(&p, 0, &huge, &outs).unwrap();
        assert_eq!(
            r.contradiction,
            own.kind == Kind::Upper && r.eps_cp > own.headline()
        );
    }
    // The one-run audit too.
    let one = |s: &str| {
        let p = TrainParams::from_query(&Query::parse(&format!(
            "data=gaussians&audit=one-run&canaries=20&steps=30{s}"
        )))
        .0;
        audit_one_run(&p, None).unwrap()
    };
    assert!(theory_label(Sampler::Shuffle, Kind::Lower).contains("shuffled each epoch"));
    assert!(theory_label(Sampler::Poisson, Kind::Upper).contains("Poisson"));
    let (a, b) = (one(""), one("&sampler=shuffle"));
    assert_eq!((a.sampler, b.sampler), (Sampler::Poisson, Sampler::Shuffle));
    assert_eq!((a.theory_kind, b.theory_kind), (Kind::Upper, Kind::Lower));
    assert_ne!(a.eps_theory, b.eps_theory);
}
