//! Issue 13's speed targets, natively: the PLD band (both sides) against the upper side alone at
//! q = 0.01, σ = 1, T = 10⁵ (target: within 2×); σ for a target ε by the PLD at Abadi et al.'s MNIST
//! settings (target: under 1 s in the browser, about 2–3× native); the RDP ε (within a frame), and
//! the composition lab's PLD for `lap:0.01*100000` and the default list; issue 14's attack report and
//! σ for an advantage target. `cargo bench --bench accountants`.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

mod common;
use common::{median_ms, report};
use dp_playground::accounting::entry::parse_list;
use dp_playground::accounting::pld::dpsgd::dpsgd_band_with_steps;
use dp_playground::accounting::pld::{
    dpsgd_epsilon, dpsgd_epsilon_band, Goal, SigmaSearch, DEFAULT_INTERVAL,
};
use dp_playground::accounting::samplers::allocation::allocation_epsilon;
use dp_playground::accounting::samplers::{
    sampler_epsilon, sampler_sigma, Sampler, SamplerSetting,
};
use dp_playground::accounting::training::{rdp_report, sigma_for_target, SigmaGoal};
use dp_playground::labs::attack::params::AttackParams;
use dp_playground::labs::compose::{accountants, ComposedPld};
use dp_playground::labs::dpsgd::DpsgdParams;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Query;

fn main() {
    let w = 52;
    let single = median_ms(5, || {
        std::hint::black_box(dpsgd_epsilon(0.01, 1.0, 100_000, 1e-5, DEFAULT_INTERVAL).ok());
    });
    let band = median_ms(5, || {
        std::hint::black_box(dpsgd_epsilon_band(0.01, 1.0, 100_000, 1e-5, DEFAULT_INTERVAL).ok());
    });
    report("PLD upper only, q=0.01 σ=1 T=1e5", single, w);
    report("PLD band (both sides), same", band, w);
    println!("band / single = {:.2} (target ≤ 2)", band / single);
    if let Ok(b) = dpsgd_epsilon_band(0.01, 1.0, 100_000, 1e-5, DEFAULT_INTERVAL) {
        println!(
            "  band: lower {:.6} upper {:.6} width {:.2e} on grid {}",
            b.lower,
            b.upper,
            b.width(),
            b.interval
        );
    }
    let abadi = DpsgdParams::default();
    let (q, t) = (abadi.rate(), abadi.total_steps());
    // Issue 26: the DP-SGD lab's ε-against-steps curve (its four fractions of T): one composition per
    // point (the upper ε at each count on its own grid) against the band's one-step PLDs composed to
    // every count from one forward transform.
    for (q, sigma, steps) in [(0.01, 1.0, 100_000u64), (q, abadi.sigma, t)] {
        let at: Vec<u64> = [0.125, 0.25, 0.5, 0.75]
            .iter()
            .map(|f| ((steps as f64) * f).ceil() as u64)
            .collect();
        let each = median_ms(3, || {
            for &k in &at {
                std::hint::black_box(dpsgd_epsilon(q, sigma, k, 1e-5, DEFAULT_INTERVAL).ok());
            }
        });
        let (_, one_steps) =
            dpsgd_band_with_steps(q, sigma, steps, 1e-5, DEFAULT_INTERVAL).unwrap();
        let shared = median_ms(3, || {
            std::hint::black_box(one_steps.curve(&at).ok());
        });
        report(
            &format!("ε curve, 4 points, q={q:.4} T={steps}: one PLD each"),
            each,
            w,
        );
        report("  from the band's one-step PLDs", shared, w);
    }
    for target in [1.0, 2.0, 8.0] {
        let mut evaluations = 0;
        let mut sigma = f64::NAN;
        // Seeded by the RDP accountant's σ, as the page does (that search takes ~10 ms).
        let start = sigma_for_target(&SigmaGoal {
            target_eps: target,
            ..abadi.sigma_goal()
        })
        .unwrap_or(1.0);
        let ms = median_ms(3, || {
            let Ok(mut s) = SigmaSearch::new(q, t, 1e-5, target, DEFAULT_INTERVAL, start) else {
                return;
            };
            loop {
                match s.step() {
                    Ok(Some(x)) => {
                        sigma = x;
                        break;
                    }
                    Ok(None) => {}
                    Err(_) => break,
                }
            }
            evaluations = s.evaluations;
        });
        report(&format!("σ for ε = {target} by PLD, Abadi MNIST"), ms, w);
        println!(
            "  σ = {sigma:.6} ({:.1}% below RDP's {start:.6}), {evaluations} evaluations",
            100.0 * (1.0 - sigma / start)
        );
    }
    let rdp = median_ms(21, || {
        std::hint::black_box(rdp_report(&abadi.event(), abadi.delta).ok());
    });
    report("RDP report, Abadi MNIST", rdp, w);
    // Issue 26: small σ's froze the page (the integral behind fractional orders grew like α/σ²); its
    // work is now bounded (tight::MAX_NODES), so every σ costs about the same.
    for sigma in ["0.3", "0.05", "0.001", "1e-6"] {
        let (p, _) = DpsgdParams::from_query(&Query::parse(&format!("sigma={sigma}")));
        let ms = median_ms(5, || {
            std::hint::black_box(rdp_report(&p.event(), p.delta).ok());
        });
        report(&format!("RDP report, Abadi MNIST at σ = {sigma}"), ms, w);
    }
    // Issue 14: the attack lab's curve and risk numbers at q = 0.01, σ = 1, T = 10⁴ (target < 0.5 s in
    // the browser), and σ for an advantage target at the Abadi et al. settings (target < 1 s).
    let (p, _) = AttackParams::from_query(&Query::parse("source=dpsgd&q=0.01&sigma=1&steps=10000"));
    let ms = median_ms(3, || {
        std::hint::black_box(dp_playground::labs::attack::report::report(&p).ok());
    });
    report("attack report, q=0.01 σ=1 T=1e4", ms, w);
    for target in [0.1, 0.3] {
        let mut evaluations = 0;
        let ms = median_ms(3, || {
            let Ok(mut s) =
                SigmaSearch::for_goal(q, t, Goal::Advantage, target, DEFAULT_INTERVAL, 1.1)
            else {
                return;
            };
            while let Ok(None) = s.step() {}
            evaluations = s.evaluations;
        });
        report(&format!("σ for advantage ≤ {target}, Abadi MNIST"), ms, w);
        println!("  {evaluations} evaluations");
    }
    for list in [
        "lap:0.01*100000",
        "gauss:3*10,lap:0.2*5",
        "sgauss:0.01:1*10000,rr:1:4*100",
    ] {
        let items = parse_list(list).unwrap_or_default();
        let ms = median_ms(3, || {
            std::hint::black_box(ComposedPld::new(&items).ok());
        });
        report(&format!("composed PLD, both sides: {list}"), ms, w);
        let ms = median_ms(11, || {
            std::hint::black_box(accountants(&items, 1e-5));
        });
        report(&format!("closed forms + RDP: {list}"), ms, w);
    }
    // Issue 27: balls in bins' certified upper bound (the exact law of an epoch's likelihood ratio,
    // composed) beside the Poisson band at the same settings, and σ for ε = 2 under it.
    for (q, sigma, steps) in [(q, abadi.sigma, t), (0.01, 1.0, 100_000u64)] {
        let s = SamplerSetting {
            q,
            sigma,
            replace_one: false,
            steps,
            delta: 1e-5,
            interval: DEFAULT_INTERVAL,
            n: 60_000,
            cap: (1.1 * q * 60_000.0).ceil() as u64,
        };
        let mut upper = f64::NAN;
        let ms = median_ms(3, || {
            let b = s.batches_per_epoch();
            let epochs = (steps as f64 / b as f64 - 1e-9).ceil() as u64;
            upper = allocation_epsilon(b, sigma, epochs, 1e-5, DEFAULT_INTERVAL).unwrap();
        });
        report(
            &format!("balls in bins, upper bound, q={q:.4} T={steps}"),
            ms,
            w,
        );
        let poisson = sampler_epsilon(&s, Sampler::Poisson).unwrap();
        println!(
            "  ε ≤ {upper:.6} (Poisson band's upper {:.6})",
            poisson.headline()
        );
    }
    let s = SamplerSetting {
        q,
        sigma: abadi.sigma,
        replace_one: false,
        steps: t,
        delta: 1e-5,
        interval: DEFAULT_INTERVAL,
        n: 60_000,
        cap: (1.1 * q * 60_000.0).ceil() as u64,
    };
    let ms = median_ms(3, || {
        std::hint::black_box(sampler_sigma(&s, Sampler::Balls, 2.0).ok());
    });
    report("σ for ε = 2, balls in bins, Abadi MNIST", ms, w);
    // Truncated Poisson (cap 10% above the mean batch): the flagged pair's band.
    let mut band = None;
    let ms = median_ms(3, || {
        band = sampler_epsilon(&s, Sampler::Truncated).ok();
    });
    report("truncated Poisson band, Abadi MNIST, B = 282", ms, w);
    if let Some(e) = band {
        println!("  ε in [{:.6}, {:.6}]", e.lower, e.headline());
    }
}
