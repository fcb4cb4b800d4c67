use super::jobs::{guarantee, run, Digit, EpochPoint, ImageFiles, ImagesJob, ImagesUpdate, SHOWN};
use super::mesh::{Conductor, Member, Note, RunEvent, Stretch};
use super::prepared::forget;
use super::*;
use crate::accounting::composed::ComposedPld;
use crate::jobs::encode;
use crate::jobs::gang::{stopped_clock, GangMember, GangOut};
use crate::link::query::Query;
use serde_bytes::ByteBuf;
use std::collections::{BTreeMap, VecDeque};

/// The link round-trips, bad values fall back with a notice, and the defaults are Abadi et al.'s
/// medium-noise point.
#[test]
fn link_round_trips_and_refuses_bad_values() {
    let d = ImagesParams::default();
    assert_eq!(d.preset().map(|p| p.key), Some("medium"));
    assert_eq!(
        (d.rate(), d.steps_per_epoch(), d.steps()),
        (0.01, 100, 1000)
    );
    let p = ImagesParams {
        model: ImageModel::Mlp,
        hidden: 300,
        sigma: 0.0,
        epochs: 3,
        rows: 6000,
        lot: 60,
        ..d.clone()
    };
    let (back, notices) = ImagesParams::from_query(&p.to_query());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, p);
    let q = Query::parse("lab=images&sigma=-1&model=resnet&lot=0&epochs=1e9&pca_sigma=nan&rows=50");
    let (got, notices) = ImagesParams::from_query(&q);
    assert_eq!(got, d);
    let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
    for key in ["sigma", "model", "lot", "epochs", "pca_sigma", "rows"] {
        assert!(keys.contains(&key), "{key}: {keys:?}");
    }
    // Too many steps in all: the default epochs, with a notice.
    let (many, notices) = ImagesParams::from_query(&Query::parse("epochs=1000&lot=1&rows=60000"));
    assert_eq!(many.epochs, d.epochs);
    assert!(notices.iter().any(|n| n.key == "epochs"));
}

#[test]
fn schedule_and_presets() {
    let d = ImagesParams::default();
    assert_eq!(d.learning_rate(0.0), 0.1);
    assert!((d.learning_rate(5.0) - 0.076).abs() < 1e-15);
    assert_eq!(d.learning_rate(10.0), 0.052);
    assert_eq!(d.learning_rate(70.0), 0.052);
    for preset in &PRESETS {
        let p = d.with_preset(preset);
        assert_eq!(p.preset(), Some(preset));
        assert!(ImagesParams {
            clip: 3.0,
            ..p.clone()
        }
        .preset()
        .is_none());
        assert_eq!(p.architecture().params(), 60 * 1000 + 1000 + 1000 * 10 + 10);
    }
    assert_eq!(
        ImagesParams {
            model: ImageModel::Logreg,
            ..d
        }
        .architecture()
        .params(),
        7850
    );
}

/// The run's ε is the PLD of the PCA's Gaussian composed with the T steps (the compose lab's
/// accountant on the same list), grows with the epochs, and is ∞ without noise; without a private
/// PCA the list has the steps alone.
#[test]
fn guarantee_composes_the_pca_with_the_run() {
    let p = ImagesParams {
        epochs: 3,
        ..ImagesParams::default()
    };
    let g = guarantee(&p).unwrap();
    let crate::accounting::guarantee::Event::List(items) = &g.event else {
        panic!("{:?}", g.event)
    };
    assert_eq!(items.len(), 2);
    assert_eq!(items[1].times, 300);
    assert_eq!(ComposedPld::new(items).unwrap().epsilon(1e-5), g.eps);
    let curve: Vec<f64> = (1..=3)
        .map(|e| super::jobs::epsilon_after(&p, e).unwrap())
        .collect();
    assert!(curve.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(curve[2], g.eps);
    let without = ImagesParams {
        pca_sigma: 0.0,
        ..p.clone()
    };
    let g0 = guarantee(&without).unwrap();
    assert!(g0.eps < g.eps);
    let none = ImagesParams { sigma: 0.0, ..p };
    assert_eq!(guarantee(&none).unwrap().eps, f64::INFINITY);
}

/// IDX bytes of `images` random-looking 28 × 28 digits whose class is written in their top-left
/// pixel block (a learnable pattern), and their labels.
fn synthetic(images: usize, seed: u64) -> (Vec<u8>, Vec<u8>) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut pix = vec![0, 0, 8, 3];
    for d in [images as u32, 28, 28] {
        pix.extend_from_slice(&d.to_be_bytes());
    }
    let mut lab = vec![0, 0, 8, 1];
    lab.extend_from_slice(&(images as u32).to_be_bytes());
    for _ in 0..images {
        let class: u8 = rng.random_range(0..10);
        lab.push(class);
        for i in 0..784 {
            let on = i / 28 < 3 && (i % 28) / 2 == usize::from(class);
            pix.push(if on { 255 } else { rng.random_range(0..40) });
        }
    }
    (pix, lab)
}

fn files() -> ImageFiles {
    let (train_images, train_labels) = synthetic(400, 1);
    let (test_images, test_labels) = synthetic(100, 2);
    ImageFiles {
        train_images,
        train_labels,
        test_images,
        test_labels,
    }
}

/// A run as the page drives it, in one thread: the Prepare job, then a gang of `parts` members to
/// the end of epoch `until`, every member but the first starting as a new worker would (without the
/// data, so that it asks the page for the files). Messages between each pair of members keep their
/// order (as a MessagePort's do); which pair's comes next is drawn at random. The first test
/// images, what the reports meant, and the last checkpoint. A busy member's next piece is one more
/// thing that can come next, so members ask, give and share in every order.
fn drive(
    p: &ImagesParams,
    parts: usize,
    from: Option<Vec<u8>>,
    until: u64,
) -> (Vec<Digit>, Vec<RunEvent>, Vec<u8>) {
    use rand::{Rng, SeedableRng};
    let mut got = Vec::new();
    let prepare = ImagesJob::Prepare {
        params: p.clone(),
        data: 7,
        files: Box::new(files()),
        from: from.map(ByteBuf::from),
    };
    run(prepare, &mut |u| got.push(u)).unwrap();
    let [ImagesUpdate::Prepared(samples), ImagesUpdate::Start { at, step }] = &got[..] else {
        panic!("{got:?}")
    };
    let mut c = Conductor::new(p.clone(), 7, parts, (at.to_vec(), *step), until);
    let mut outs = Vec::new();
    let mut members = Vec::new();
    for (k, s) in c.stretches().into_iter().enumerate() {
        if k > 0 {
            forget();
        }
        // Part k's clock says its shares take k + 1 times as long per row: the split moves toward
        // part 0, and the run's bits must not.
        let mut now = 0.0;
        let clock = Box::new(move || {
            now += 7.0 * (k + 1) as f64;
            now
        });
        members.push(Member::start(s, clock, &mut |o| outs.push((k, o))).unwrap());
    }
    let mut events = Vec::new();
    // (from, to) → messages in flight; from == to is the page's channel.
    let mut wires: BTreeMap<(usize, usize), VecDeque<Vec<u8>>> = BTreeMap::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(parts as u64);
    // Spans handed from a member to another that ran out.
    let mut given = 0;
    loop {
        for (k, o) in outs.drain(..) {
            match o {
                GangOut::Page(ImagesUpdate::NeedFiles) => {
                    wires.entry((k, k)).or_default().push_back(encode(&files()));
                }
                GangOut::Page(ImagesUpdate::Stepped(r)) => events.extend(c.take(k, *r)),
                GangOut::Page(other) => panic!("{other:?}"),
                GangOut::Peers(bytes) => {
                    for j in (0..parts).filter(|&j| j != k) {
                        wires.entry((k, j)).or_default().push_back(bytes.clone());
                    }
                }
                GangOut::Peer(j, bytes) => {
                    if let Ok(Note::Give { from, to, .. }) = crate::jobs::decode(&bytes) {
                        given += usize::from(from < to);
                    }
                    wires.entry((k, j)).or_default().push_back(bytes);
                }
            }
        }
        // What can happen next: a message on a wire, or a busy member's next piece (from == to ==
        // parts + k).
        let mut next: Vec<_> = wires
            .iter()
            .filter(|w| !w.1.is_empty())
            .map(|w| *w.0)
            .collect();
        next.extend(
            (0..parts)
                .filter(|&k| members[k].busy())
                .map(|k| (parts + k, parts + k)),
        );
        if next.is_empty() {
            break;
        }
        let (from, to) = next[rng.random_range(0..next.len())];
        if from >= parts {
            let k = from - parts;
            members[k].work(&mut |o| outs.push((k, o))).unwrap();
            continue;
        }
        let bytes = wires
            .get_mut(&(from, to))
            .and_then(VecDeque::pop_front)
            .unwrap();
        members[to]
            .receive(from, &bytes, &mut |o| outs.push((to, o)))
            .unwrap();
    }
    assert!(
        members.iter().all(Member::done),
        "every member ran to the end"
    );
    assert!(parts == 1 || given > 0, "members handed work over");
    (samples.clone(), events, c.checkpoint().0.to_vec())
}

/// Every model learns the synthetic digits; the same seeded run split over 1, 2 or 3 workers is the
/// same bit for bit (checkpoint, test accuracy and loss, every report); a run paused after an epoch
/// and resumed from its checkpoint is the uninterrupted run (Abadi et al.'s network resumes on its
/// saved projection).
#[test]
fn trains_each_model_on_any_number_of_workers_and_resumes_bit_for_bit() {
    for model in [
        ImageModel::Logreg,
        ImageModel::Mlp,
        ImageModel::Abadi,
        ImageModel::Cnn,
    ] {
        let p = ImagesParams {
            model,
            hidden: 32,
            pca: 20,
            pca_sigma: 1.0,
            sigma: 0.5,
            clip: 1.0,
            lot: 40,
            epochs: 3,
            lr: 2.0,
            lr_end: 1.0,
            lr_epochs: 2,
            rows: 400,
            ..ImagesParams::default()
        };
        let (samples, events, whole) = drive(&p, 1, None, 3);
        let epochs: Vec<EpochPoint> = events
            .iter()
            .filter_map(|e| match e {
                RunEvent::Epoch(e) => Some(*e),
                _ => None,
            })
            .collect();
        assert_eq!(epochs.len(), 3, "{model:?}");
        assert!(epochs[2].accuracy > 0.8, "{model:?}: {epochs:?}");
        for parts in [2, 3] {
            let (_, split_events, split) = drive(&p, parts, None, 3);
            assert_eq!(split, whole, "{model:?} on {parts} workers");
            assert_eq!(split_events, events, "{model:?} on {parts} workers");
        }
        let (_, _, paused) = drive(&p, 2, None, 1);
        let (_, _, resumed) = drive(&p, 3, Some(paused), 3);
        assert_eq!(resumed, whole, "{model:?}");
        assert_eq!(samples.len(), SHOWN);
        let Some(RunEvent::Mistakes(wrong)) = events.last() else {
            panic!()
        };
        assert!(wrong
            .iter()
            .all(|d| d.label != d.predicted && d.pixels.len() == 784));
    }
}

/// A member refuses, with a reason and no panic: a part out of range, a malformed checkpoint,
/// bytes that are no note, an answer to no ask or with a span outside the step, a share of its own
/// part, one out of turn, and malformed files; a stretch posted as a plain job is refused too.
#[test]
fn a_member_refuses_malformed_messages() {
    let p = ImagesParams {
        model: ImageModel::Logreg,
        rows: 400,
        lot: 40,
        epochs: 1,
        ..ImagesParams::default()
    };
    let mut got = Vec::new();
    let prepare = ImagesJob::Prepare {
        params: p.clone(),
        data: 9,
        files: Box::new(files()),
        from: None,
    };
    run(prepare, &mut |u| got.push(u)).unwrap();
    let Some(ImagesUpdate::Start { at, step }) = got.pop() else {
        panic!()
    };
    let c = Conductor::new(p.clone(), 9, 2, (at.to_vec(), step), 1);
    let stretch = |part| Stretch {
        part,
        ..c.stretches()[0].clone()
    };
    let ignore = &mut |_: GangOut<ImagesUpdate>| {};
    assert!(Member::start(stretch(2), stopped_clock(), ignore).is_err());
    let bad = Stretch {
        at: ByteBuf::from(vec![1, 2, 3]),
        ..stretch(0)
    };
    assert!(Member::start(bad, stopped_clock(), ignore).is_err());
    let mut m0 = Member::start(stretch(0), stopped_clock(), ignore).unwrap();
    let mut m1 = Member::start(stretch(1), stopped_clock(), ignore).unwrap();
    let mut notes = Vec::new();
    while m1.busy() {
        m1.work(&mut |o| notes.push(o)).unwrap();
    }
    let Some(GangOut::Peer(0, ask)) = notes.pop().filter(|_| notes.is_empty()) else {
        panic!("part 1 asks part 0 for work: {notes:?}")
    };
    let give = |step, from, to| encode(&Note::Give { step, from, to });
    for (from, to) in [(-1.0, 0.5), (0.5, 2.0), (f64::NAN, 0.5)] {
        assert!(
            m1.receive(0, &give(1, from, to), ignore).is_err(),
            "{from}..{to}"
        );
    }
    assert!(
        m1.receive(0, &give(2, 0.0, 0.1), ignore).is_err(),
        "another step's"
    );
    assert!(m0.receive(1, &give(1, 0.0, 0.1), ignore).is_err(), "no ask");
    m0.receive(1, &ask, &mut |o| notes.push(o)).unwrap();
    let [GangOut::Peer(1, given)] = &notes[..] else {
        panic!("{notes:?}")
    };
    let mut shares = Vec::new();
    m1.receive(0, given, &mut |o| shares.push(o)).unwrap();
    while m1.busy() {
        m1.work(&mut |o| shares.push(o)).unwrap();
    }
    let [GangOut::Peers(share)] = &shares[..] else {
        panic!("{shares:?}")
    };
    assert!(m0.receive(1, &[7; 12], ignore).is_err());
    assert!(
        m1.receive(0, share, ignore).is_err(),
        "its own part's share"
    );
    let mut later = share.clone();
    later[1] = 5;
    assert!(
        m0.receive(1, &later, ignore).is_err(),
        "a share out of turn"
    );
    forget();
    let mut m = Member::start(stretch(1), stopped_clock(), ignore).unwrap();
    assert!(m.receive(1, &[0; 5], ignore).is_err(), "malformed files");
    let plain = run(ImagesJob::Stretch(Box::new(stretch(0))), &mut |_| {});
    assert!(plain.is_err());
}

/// Malformed files are refused with a reason, not a panic.
#[test]
fn malformed_files_are_refused() {
    let mut f = files();
    f.test_labels.truncate(20);
    let e = run(
        ImagesJob::Prepare {
            params: ImagesParams::default(),
            data: 1,
            files: Box::new(f),
            from: None,
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("labels"), "{e}");
}

/// The run's ε against dp_accounting 0.6's PLD accountant (pessimistic, grid 1e-4) on the same
/// composition (`scripts/reference/images_reference.py`): Abadi et al.'s noise levels over 100
/// epochs, the default 10, and without the PCA's noise. Ours is the certified upper side: never
/// below by more than dp_accounting's own grid error, and within 0.5 % above.
#[test]
fn epsilon_matches_dp_accounting() {
    let d = ImagesParams::default();
    for (sigma, epochs, pca_sigma, reference) in [
        (4.0, 10, 7.0, 0.5847106928942049),
        (4.0, 100, 7.0, 1.0995842646301794),
        (8.0, 100, 16.0, 0.4932907108462658),
        (2.0, 100, 4.0, 2.4114836541616786),
        (4.0, 10, 0.0, 0.2721729194472029),
    ] {
        let p = ImagesParams {
            sigma,
            epochs,
            pca_sigma,
            ..d.clone()
        };
        let eps = super::jobs::epsilon_after(&p, epochs).unwrap();
        let r = eps / reference - 1.0;
        assert!(
            (-2e-4..5e-3).contains(&r),
            "σ {sigma}, {epochs} epochs: {eps} vs {reference}"
        );
    }
}

/// The fields each model reads: the CNN and logistic regression have no hidden width to set, and
/// only Abadi et al.'s network a PCA.
#[test]
fn each_model_reads_its_own_keys() {
    use ImageModel::{Abadi, Cnn, Logreg, Mlp};
    let reading = |key| {
        ImageModel::ALL
            .iter()
            .filter(|m| m.reads(key))
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(reading("hidden"), [Mlp, Abadi]);
    assert_eq!(reading("pca"), [Abadi]);
    assert_eq!(reading("pca_sigma"), [Abadi]);
    assert_eq!(reading("sigma"), [Logreg, Mlp, Abadi, Cnn]);
}
