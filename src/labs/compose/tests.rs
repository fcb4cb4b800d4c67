//! Tests of the composition lab's parsing, profiles and accountants.

use super::*;
use crate::accounting::entry::*;
use crate::link::query::LinkParams;

#[test]
fn list_round_trips_and_rejects_nonsense() {
    let s = "gauss:3*10,lap:0.2*5,rr:1*2,sgauss:0.01:1.1*100,dp:0.5:0.000001*3,wor:0.1:1:0*4";
    let items = parse_list(s).unwrap();
    assert_eq!(format_list(&items), s);
    for bad in [
        "",
        "gauss",
        "gauss:-1",
        "lap:1*0",
        "foo:1",
        "dp:1:1",
        "gauss:1*x",
    ] {
        assert!(parse_list(bad).is_err(), "{bad}");
    }
    let (p, n) = ComposeParams::from_query(&Query::parse(&format!("list={s}&delta=1e-6")));
    assert!(n.is_empty());
    assert_eq!(ComposeParams::from_query(&p.to_query()).0, p);
}

#[test]
fn pure_laplace_basic_is_tight_and_the_others_agree_in_order() {
    // 10 × Laplace(ε = 0.1): basic gives exactly 1.
    let items = parse_list("lap:0.1*10").unwrap();
    let a = accountants(&items, 1e-5);
    assert!((a.basic - 1.0).abs() < 1e-12);
    let opt = a.optimal.unwrap_or(f64::INFINITY);
    assert!(opt <= a.basic + 1e-12);
    let pld = ComposedPld::new(&items).unwrap().epsilon(1e-5);
    assert!(pld <= a.basic + 1e-3 && pld > 0.0, "{pld}");
}

#[test]
fn subsampling_without_replacement_wraps_entries_and_amplifies() {
    let items = parse_list("wor:0.1:gauss:2*10,wor:0.1:lap:1*3").unwrap();
    assert_eq!(
        items[0].entry,
        Entry::WorGaussian {
            rate: 0.1,
            sigma: 2.0
        }
    );
    assert_eq!(
        items[1].entry,
        Entry::Subsampled {
            rate: 0.1,
            eps: 1.0,
            delta: 0.0
        }
    );
    assert_eq!(parse_list(&format_list(&items)).unwrap_or_default(), items);
    assert!(parse_list("wor:2:gauss:1").is_err() && parse_list("wor:0.1:sgauss:0.1:1").is_err());
    // One amplified Gaussian: at any ε ≥ 0, δ′(ε) = r·δ(ln(1 + (e^ε − 1)/r)) — below the unamplified δ(ε).
    let wor = Entry::WorGaussian {
        rate: 0.1,
        sigma: 2.0,
    };
    let plain = Entry::Gaussian { sigma: 2.0 };
    for eps in [0.0, 0.1, 0.5, 1.0] {
        assert!(wor.delta(eps) < plain.delta(eps), "ε = {eps}");
    }
    // The PLD of ten amplified Gaussians is never below the exact profile of one, and at most basic composition.
    let one = parse_list("wor:0.1:gauss:2*1").unwrap_or_default();
    let eps1 = ComposedPld::new(&one).unwrap().epsilon(1e-5);
    assert!(
        eps1 >= wor.eps_for(1e-5) - 1e-3,
        "{eps1} vs {}",
        wor.eps_for(1e-5)
    );
    let a = accountants(&items[..1], 1e-5);
    let ten = ComposedPld::new(&items[..1]).unwrap().epsilon(1e-5);
    assert!(ten > 0.0 && ten <= a.basic, "{ten} vs basic {}", a.basic);
}

#[test]
fn gaussian_composition_matches_the_closed_form() {
    // 10 × Gaussian(σ = 3) = one Gaussian with σ/√10: exact ε from Balle & Wang; PLD within 1%, RDP above.
    let items = parse_list("gauss:3*10").unwrap();
    let one = Entry::Gaussian {
        sigma: 3.0 / 10f64.sqrt(),
    };
    let exact = one.eps_for(1e-5);
    let pld = ComposedPld::new(&items).unwrap().epsilon(1e-5);
    assert!(
        pld >= exact - 1e-9 && pld <= exact * 1.01,
        "{pld} vs {exact}"
    );
    let a = accountants(&items, 1e-5);
    let rdp = a.rdp.map_or(f64::NAN, |x| x.0);
    assert!(
        rdp >= exact && a.zcdp.unwrap_or(0.0) >= rdp - 1e-9 && a.basic >= rdp,
        "{a:?}"
    );
}

#[test]
fn bands_in_one_walk_are_the_single_bands() {
    // The ε-against-δ curve's one walk per PLD gives each δ's band bit for bit, including δ outside
    // [MIN_DELTA, 1) (NaN) and a pure entry whose basic bound caps the upper side.
    let list = parse_list("gauss:2*10,lap:0.5*1,sgauss:0.01:1*1000").unwrap();
    let c = ComposedPld::new(&list).unwrap();
    let deltas: Vec<f64> = (0..=30)
        .map(|i| 10f64.powf(-13.0 + i as f64 / 2.0))
        .chain([0.0, 0.5, 1e-5])
        .collect();
    for (d, b) in deltas.iter().zip(c.bands(&deltas)) {
        let one = c.band(*d);
        for (x, y) in [(one.upper, b.upper), (one.lower, b.lower)] {
            assert!(
                x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
                "δ = {d}: {x} vs {y}"
            );
        }
    }
}

#[test]
fn a_bad_list_keeps_the_last_valid_one_and_says_so() {
    let last = parse_list("lap:0.1*10,gauss:2*10").unwrap();
    let q = Query::parse("list=lap:0.1*10,gauss:2*x");
    let (p, notices) = ComposeParams::from_query_keeping(&q, Some(&last));
    assert_eq!(p.list, last);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].message.contains("\"gauss:2*x\""),
        "{}",
        notices[0].message
    );
    assert!(
        notices[0]
            .message
            .contains("the last valid list, lap:0.1*10,gauss:2*10"),
        "{}",
        notices[0].message
    );
    // Without a last list (a link opened fresh), the default.
    let (fresh, _) = ComposeParams::from_query(&q);
    assert_eq!(fresh.list, parse_list("gauss:3*10,lap:0.2*5").unwrap());
}

#[test]
fn subsampling_without_replacement_bounds_from_below_by_a_pair_that_happens() {
    // Balle et al.'s amplified profile is an upper bound, so its lower side is not a lower bound on
    // the mechanism's ε; the Poisson pair at rate γ happens (the replaced record's value Δ, every other
    // 0), so the lower side is that pair's: `sgauss:γ:σ`'s (and `fixed:γ:σ` is `wor:γ:gauss:σ/2`).
    for (wor, pair) in [
        ("wor:0.1:gauss:2*10", "sgauss:0.1:2*10"),
        ("fixed:0.01:2*300", "sgauss:0.01:1*300"),
    ] {
        let band = |list: &str| {
            let c = ComposedPld::new(&parse_list(list).unwrap()).unwrap();
            (c.epsilon_lower(1e-5), c.epsilon(1e-5))
        };
        let ((lower, upper), (pair_lower, pair_upper)) = (band(wor), band(pair));
        assert!(
            lower <= upper && (lower - pair_lower).abs() < 1e-3 * pair_upper,
            "{wor}: [{lower}, {upper}] against {pair}: [{pair_lower}, {pair_upper}]"
        );
    }
}

#[test]
fn an_amplified_pure_entry_bounds_from_below_by_the_mixed_randomized_response() {
    // wor:γ:ε:0 * T: the lower side is the pair ((1 − γ)B + γA, B) of randomized response (A, B) at ε,
    // either way round. Each direction's T-fold composition has two losses, a = ln(1 − γ + γe^ε) and
    // b = ln(1 − γ + γe^−ε) (remove; add: −a, −b with the roles swapped), so its exact δ(ε) is a
    // binomial sum: the independent reference. Our lower ε is at most the larger direction's exact ε
    // and within the grid's rounding of it; the upper side (Balle et al.'s amplified pair) is above.
    let (gamma, eps, times, delta) = (0.1f64, 1.0f64, 100u64, 1e-5);
    let (p, q) = (eps.exp() / (1.0 + eps.exp()), 1.0 / (1.0 + eps.exp()));
    // P's probability of outcome "1" and the two losses, per direction.
    let remove = (
        (1.0 - gamma) * q + gamma * p,
        (1.0 - gamma + gamma * eps.exp()).ln(),
        (1.0 - gamma + gamma * (-eps).exp()).ln(),
    );
    let add = (q, -remove.1, -remove.2);
    let exact = |(p1, a, b): (f64, f64, f64), e: f64| {
        // ln C(T, k) by lgamma-free accumulation.
        let mut ln_choose = 0.0f64;
        let mut sum = 0.0;
        for k in 0..=times {
            if k > 0 {
                ln_choose += ((times - k + 1) as f64).ln() - (k as f64).ln();
            }
            let loss = k as f64 * a + (times - k) as f64 * b;
            let mass =
                (ln_choose + k as f64 * p1.ln() + (times - k) as f64 * (1.0 - p1).ln()).exp();
            sum += mass * (-(e - loss).exp_m1()).max(0.0);
        }
        sum
    };
    let eps_at = |pair| {
        let (mut lo, mut hi) = (0.0, 20.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if exact(pair, mid) > delta {
                lo = mid
            } else {
                hi = mid
            }
        }
        hi
    };
    let truth = eps_at(remove).max(eps_at(add));
    let c =
        ComposedPld::new(&parse_list(&format!("wor:{gamma}:{eps}:0*{times}")).unwrap()).unwrap();
    let (lower, upper) = (c.epsilon_lower(delta), c.epsilon(delta));
    assert!(
        lower <= truth + 1e-9 && truth - lower < 0.01 && truth < upper,
        "[{lower}, {upper}] against {truth}"
    );
}

#[test]
fn the_band_says_when_no_grid_can_close_it() {
    let gap = |list: &str| {
        ComposeParams::from_query(&crate::link::query::Query::parse(&format!("list={list}")))
            .0
            .band_gap()
    };
    assert!(gap("gauss:2*10,sgauss:0.01:1*100,users:2:0.01:1*10").is_none());
    for list in [
        "wor:0.1:gauss:1*10",
        "fixed:0.01:1*10",
        "gauss:1,wor:0.1:1:0*3",
    ] {
        let text = gap(list).unwrap_or_default();
        assert!(
            text.contains(list.rsplit(',').next().unwrap_or(list)),
            "{list}: {text}"
        );
    }
    // A rate of 1 is no subsampling: the pair is the mechanism's own.
    assert!(gap("wor:1:gauss:1*10").is_none());
    // Truncated Poisson says why in its own words, and a cap no batch reaches is Poisson's own pair.
    let text = gap("trunc:1000:0.01:12:1*100").unwrap_or_default();
    assert!(
        text.contains("flagged pair") && !text.contains("Balle"),
        "{text}"
    );
    assert!(gap("trunc:1000:0.01:1001:1*100").is_none());
}

/// Twenty dp:1:0.001 entries leave a δ of about 0.02 that no ε covers: at δ = 1e-5 the PLD (and every
/// accountant) has no finite ε, and the lab must say why once the PLD is composed (its headline kept
/// saying "the PLD is still composing").
#[test]
fn no_finite_epsilon_says_why() {
    let (p, _) = ComposeParams::from_query(&Query::parse("list=dp:1:0.001*20&delta=1e-5"));
    let pld = ComposedPld::new(&p.list).unwrap();
    assert!(pld.epsilon(p.delta).is_infinite());
    let why = pld.no_epsilon_reason(p.delta).unwrap();
    assert!(
        why.contains("no finite ε exists") && why.contains("0.0198"),
        "{why}"
    );
    // At δ = 0.05 the δ parts fit: a finite ε and no reason.
    assert!(pld.epsilon(0.05).is_finite());
    assert_eq!(pld.no_epsilon_reason(0.05), None);
    // Below the PLD's smallest δ it says so.
    assert!(pld
        .no_epsilon_reason(1e-12)
        .unwrap()
        .contains("below δ = 1e-10"));
    // A Gaussian reaches any δ.
    let (g, _) = ComposeParams::from_query(&Query::parse("list=gauss:3*10"));
    assert_eq!(
        ComposedPld::new(&g.list).unwrap().no_epsilon_reason(1e-5),
        None
    );
}
