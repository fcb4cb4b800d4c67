//! Truncated Poisson sampling's band against dp_accounting 0.6.0 (`scripts/reference/truncated_reference.py`,
//! which names each table's construction).

#![allow(clippy::unwrap_used)]

#[path = "reference/truncated.rs"]
mod truncated_reference;

use dp_playground::accounting::samplers::truncated::Truncated;
use truncated_reference::*;

const DELTA: f64 = 1e-5;
const INTERVAL: f64 = 1e-4;

fn band(n: u64, q: f64, cap: u64, sigma: f64, steps: u64) -> (f64, f64) {
    let b = Truncated::new(n, q, cap, sigma, false)
        .unwrap()
        .band(steps, DELTA, INTERVAL)
        .unwrap();
    (b.lower, b.upper)
}

#[test]
fn the_upper_end_matches_dp_accountings_build_of_the_same_pair_from_above() {
    // The same flagged pair, composed by dp_accounting (connect the dots on 1e-4): ours may only be
    // above it, by the grids' rounding (measured 2e-7 to 6e-5 relative).
    for &(n, q, cap, sigma, steps, pair) in TRUNCATED_OURS_PAIR {
        let (_, upper) = band(n, q, cap, sigma, steps);
        assert!(
            upper >= pair * (1.0 - 1e-6) && upper <= pair * (1.0 + 1e-3),
            "n {n} q {q} B {cap} σ {sigma} T {steps}: {upper} vs {pair}"
        );
    }
}

#[test]
fn the_upper_end_is_below_dp_accountings_event() {
    // dp_accounting's TruncatedSubsampledGaussianDpEvent takes the replace-one pair at σ/2 for the
    // cut part (components 4 apart where ours are 2): a looser upper bound.
    for &(n, q, cap, sigma, steps, event) in TRUNCATED_EVENT {
        let (_, upper) = band(n, q, cap, sigma, steps);
        assert!(upper < event, "n {n} q {q} B {cap}: {upper} vs {event}");
    }
}

#[test]
fn the_lower_end_is_below_an_upper_bound_of_its_pair() {
    // The Poisson pair at q_eff happens; dp_accounting's upper bound of it is above the exact ε, which
    // is above ours, by at most the lower side's grid (1.3% at these settings).
    for &(n, q, cap, sigma, steps, kept) in TRUNCATED_KEPT_RATE_UPPER {
        let (lower, _) = band(n, q, cap, sigma, steps);
        assert!(
            lower <= kept && lower >= kept * 0.98,
            "n {n} q {q} B {cap}: {lower} vs {kept}"
        );
    }
}

#[test]
fn replace_one_and_the_sampler_table_read_the_same_band() {
    use dp_playground::accounting::samplers::{sampler_epsilon, Kind, Sampler, SamplerSetting};
    let (n, q, cap, sigma, steps, _) = TRUNCATED_OURS_PAIR[2];
    let (lower, upper) = band(n, q, cap, sigma, steps);
    let setting = SamplerSetting {
        q,
        sigma,
        replace_one: false,
        steps,
        delta: DELTA,
        interval: INTERVAL,
        n,
        cap,
    };
    let e = sampler_epsilon(&setting, Sampler::Truncated).unwrap();
    assert_eq!(
        (e.kind, e.lower, e.upper),
        (Kind::Upper, lower, Some(upper))
    );
    // Replace-one: the uncut part at σ/2 as well, so at least add/remove's bound.
    let replaced = sampler_epsilon(
        &SamplerSetting {
            replace_one: true,
            ..setting
        },
        Sampler::Truncated,
    )
    .unwrap();
    assert!(replaced.upper.unwrap() >= upper && replaced.lower <= replaced.upper.unwrap());
}
