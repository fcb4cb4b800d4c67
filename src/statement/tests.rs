//! Statements for a randomised sweep of events × samplers × relations × user levels: every number a
//! statement states equals its guarantee's, rounded outward, and its "not covered" list follows the
//! event; a guarantee that does not certify its run yields no certified ε anywhere in the statement.

use super::text::stated_eps;
use super::*;
use crate::accounting::event::Neighbour;
use crate::accounting::rdp::tuning::Tuning;
use crate::accounting::samplers::Sampler;
use crate::link::format::read_shown;
use rand::{Rng, SeedableRng};

const SAMPLERS: [Sampler; 7] = [
    Sampler::Poisson,
    Sampler::Shuffle,
    Sampler::ShuffleOnce,
    Sampler::Cyclic,
    Sampler::Balls,
    Sampler::Fixed,
    Sampler::Truncated,
];

fn random_guarantee(rng: &mut rand_chacha::ChaCha8Rng) -> (Guarantee, RunFacts) {
    let sampler = SAMPLERS[rng.random_range(0..SAMPLERS.len())];
    let neighbour = if rng.random_bool(0.5) {
        Neighbour::AddRemove
    } else {
        Neighbour::ReplaceOne
    };
    let mut e = TrainingEvent::poisson(
        10f64.powf(rng.random_range(-4.0..0.0)),
        rng.random_range(0.3..20.0),
        rng.random_range(1..100_000),
        neighbour,
    );
    e.sampler = sampler;
    e.users = [1, 1, 2, 8][rng.random_range(0..4)];
    if rng.random_bool(0.2) {
        e.tuning = Some(Tuning::Poisson { mean: 5.0 });
    }
    let eps = 10f64.powf(rng.random_range(-2.0..2.0));
    let delta = 10f64.powf(rng.random_range(-10.0..-3.0));
    let g = if sampler == Sampler::Poisson
        && e.users == 1
        && e.tuning.is_some()
        && rng.random_bool(0.5)
    {
        Guarantee::poisson(&e, Accountant::Tuning, Side::Upper, delta, eps)
    } else if sampler == Sampler::Poisson || rng.random_bool(0.3) {
        Guarantee::poisson(&e, Accountant::Pld, Side::Upper, delta, eps)
    } else {
        let side = if rng.random_bool(0.5) {
            Side::Upper
        } else {
            Side::Lower
        };
        Guarantee {
            event: Event::Training(e.clone()),
            accountant: Accountant::SamplerOwn,
            side,
            assumes: sampler,
            delta,
            eps,
        }
    };
    let facts = RunFacts {
        lab: if rng.random_bool(0.5) {
            "dpsgd"
        } else {
            "train"
        }
        .into(),
        link: "lab=dpsgd".into(),
        records: rng
            .random_bool(0.5)
            .then(|| rng.random_range(100..1_000_000)),
        epochs: None,
        clip: rng.random_bool(0.5).then_some(1.0),
        standardised_on_training_rows: rng.random_bool(0.5),
        mechanism: None,
        audit: None,
    };
    (g, facts)
}

#[test]
fn a_sweep_of_statements_states_each_guarantee_and_only_it() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261128);
    for _ in 0..400 {
        let (g, facts) = random_guarantee(&mut rng);
        let s = Statement::new(&g, &facts, None);
        let text = paragraph(&s);
        // The record holds the guarantee's number and its outward digits.
        assert_eq!(s.epsilon.value, g.eps);
        assert_eq!(s.epsilon.side, g.side);
        let shown = read_shown(&s.epsilon.shown).unwrap();
        match g.side {
            Side::Upper => assert!(shown >= g.eps, "{shown} < {}", g.eps),
            _ => assert!(shown <= g.eps, "{shown} > {}", g.eps),
        }
        // The paragraph states that number and no other ε.
        let stated = stated_eps(&text);
        assert_eq!(stated, vec![shown], "{text}");
        // Certified only when the guarantee certifies the run as it is.
        assert_eq!(s.epsilon.certified, g.certifies_run());
        assert_eq!(
            text.contains("certified upper bound computed by"),
            g.certifies_run(),
            "{text}"
        );
        if !g.certifies_run() {
            assert!(text.contains("no certified ε"), "{text}");
        }
        // The not-covered list follows the event and the facts.
        let Event::Training(e) = &g.event else {
            unreachable!()
        };
        let ids: Vec<&str> = s.not_covered.iter().map(|c| c.id.as_str()).collect();
        let tuning_accounted = e.tuning.is_some() && g.accountant == Accountant::Tuning;
        assert_eq!(ids.contains(&"tuning"), !tuning_accounted, "{ids:?}");
        assert_eq!(s.covered.iter().any(|c| c.id == "tuning"), tuning_accounted);
        assert_eq!(ids.contains(&"several-records"), e.users == 1, "{ids:?}");
        assert_eq!(
            ids.contains(&"standardisation"),
            facts.standardised_on_training_rows,
            "{ids:?}"
        );
        for c in &s.not_covered {
            assert!(text.contains(&c.text), "{}", c.id);
        }
        // The unit follows the users.
        assert_eq!(s.unit == Unit::Record, e.users == 1);
        // The record round-trips through its JSON.
        let back: Statement = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(back.epsilon.shown, s.epsilon.shown);
        assert!(model_card(&s).contains(&text));
    }
}

/// A composition lab's or mechanisms lab's guarantee: a random list, certified by the PLD or the best
/// closed form, or a single mechanism's exact profile (δ = 0 for a pure one).
fn random_list_guarantee(rng: &mut rand_chacha::ChaCha8Rng) -> (Guarantee, RunFacts) {
    use crate::accounting::entry::{Entry, Item};
    let entries = [
        Entry::Gaussian {
            sigma: rng.random_range(0.5..10.0),
        },
        Entry::Laplace {
            eps: rng.random_range(0.05..3.0),
        },
        Entry::RandomizedResponse {
            eps: rng.random_range(0.1..4.0),
            k: 2,
        },
        Entry::SubsampledGaussian {
            q: rng.random_range(0.001..0.5),
            sigma: rng.random_range(0.5..5.0),
        },
        Entry::Raw {
            eps: rng.random_range(0.1..2.0),
            delta: 1e-6,
        },
    ];
    let n = rng.random_range(1..4);
    let items: Vec<Item> = (0..n)
        .map(|_| Item {
            entry: entries[rng.random_range(0..entries.len())],
            times: rng.random_range(1..50),
        })
        .collect();
    let single = n == 1 && rng.random_bool(0.5);
    let accountant = if single {
        Accountant::ExactProfile
    } else if rng.random_bool(0.5) {
        Accountant::Pld
    } else {
        Accountant::BestClosedForm
    };
    let g = Guarantee {
        event: Event::List(items),
        accountant,
        side: Side::Upper,
        assumes: Sampler::Poisson,
        delta: if single && rng.random_bool(0.3) {
            0.0
        } else {
            10f64.powf(rng.random_range(-10.0..-3.0))
        },
        eps: 10f64.powf(rng.random_range(-2.0..2.0)),
    };
    let facts = RunFacts {
        lab: if single { "mechanisms" } else { "compose" }.into(),
        link: "lab=compose".into(),
        mechanism: single.then(|| "one answer with noise".to_string()),
        ..RunFacts::default()
    };
    (g, facts)
}

/// Lists (the composition and mechanisms labs): every statement certifies its ε, states it rounded up
/// and nothing else, asks for the sensitivity, and never lists a training caveat.
#[test]
fn a_sweep_of_list_statements_states_each_guarantee() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261129);
    for _ in 0..300 {
        let (g, facts) = random_list_guarantee(&mut rng);
        let s = Statement::new(&g, &facts, None);
        let text = paragraph(&s);
        let shown = read_shown(&s.epsilon.shown).unwrap();
        assert!(s.epsilon.certified && shown >= g.eps, "{text}");
        assert_eq!(stated_eps(&text), vec![shown], "{text}");
        let ids: Vec<&str> = s.not_covered.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["sensitivity", "floating-point"], "{text}");
        assert!(s.covered.is_empty());
        assert_eq!(
            text.contains("pure ε-differential privacy"),
            g.delta == 0.0,
            "{text}"
        );
        let back: Statement = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(back.epsilon.value, g.eps);
    }
}

#[test]
fn the_practitioners_run_reads_as_a_statement() {
    // 60 000 records, batch 256, 10 epochs, δ = 10⁻⁵, target ε = 3 (issue 49's practitioner): the
    // DP-SGD lab's σ for that target is 0.693734, whose PLD ε is 3.0000478.
    let e = TrainingEvent::poisson(256.0 / 60_000.0, 0.693_734, 2_344, Neighbour::AddRemove);
    let g = Guarantee::poisson(&e, Accountant::Pld, Side::Upper, 1e-5, 3.000_047_8);
    let facts = RunFacts {
        lab: "dpsgd".into(),
        link: "lab=dpsgd&n=60000&batch=256&epochs=10&sigma=0.693734".into(),
        records: Some(60_000),
        epochs: Some(10.0),
        ..RunFacts::default()
    };
    let s = Statement::new(&g, &facts, None);
    let text = paragraph(&s);
    let n = crate::link::format::count(60_000);
    let steps = crate::link::format::count(2_344);
    let needles: Vec<String> = vec![
        format!("one record (of n = {n} training records)"),
        "add/remove one record".to_string(),
        "rate q = 0.004267, expected batch 256".to_string(),
        "Poisson sampling".to_string(),
        "noise multiplier σ = 0.6937".to_string(),
        format!("T = {steps} steps (10 epochs)"),
        "ε ≤ 3.001 at δ = 1×10⁻⁵".to_string(),
        "the PLD accountant".to_string(),
        "δ·n = 0.6".to_string(),
        "hyper-parameter tuning".to_string(),
        "commit".to_string(),
    ];
    for needle in &needles {
        assert!(text.contains(needle.as_str()), "{needle}: {text}");
    }
}
