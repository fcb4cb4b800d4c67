//! Every lab's default link and the heavy links give the same numbers, bit for bit, as when this file's
//! record was written (`tests/golden/numbers.txt`). Written before the "One house" reorganisation so that
//! moving files, merging copies of a formula and replacing hand-written loops can be shown to change
//! nothing: each piece a page computes is printed with `{:?}` (shortest round-trip form of every f64),
//! the numbers are pulled out of the text (so renamed types and fields do not matter, only values and
//! their order), and their count and FNV-1a hash are compared with the record.
//!
//! `GOLDEN_RECORD=1 cargo test --test integration golden_numbers` rewrites the record; do that only
//! for a change that is meant to move numbers, and say so in its commit.
// An integration test crate: its helpers are test code too (clippy.toml covers only #[test] fns).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dp_playground::accounting::training::jobs::AccountingJob;
use dp_playground::jobs::{run, Job, Update};
use dp_playground::labs::attack::jobs::AttackJob;
use dp_playground::labs::compose::jobs::ComposeJob;
use dp_playground::labs::tangent::jobs::TangentJob;
use dp_playground::labs::train::jobs::TrainJob;
use dp_playground::labs::wdp::jobs::WdpJob;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Query;
use std::fmt::Debug;

/// Runs a job as a worker would and prints every update.
fn job(job: Job) -> String {
    let mut out = String::new();
    run(job, &mut |u: Update| out.push_str(&format!("{u:?}\n")));
    out
}

fn q(s: &str) -> Query {
    Query::parse(s)
}

fn show<T: Debug>(v: T) -> String {
    format!("{v:?}")
}

/// The numbers in a Debug text, in order (integers, decimals, exponents, inf, NaN).
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let c = b[i];
        if starts_word
            && (c.is_ascii_digit() || (c == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit()))
        {
            let start = i;
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || b[i] == b'.'
                    || b[i] == b'e'
                    || (b[i] == b'-' && b[i - 1] == b'e'))
            {
                i += 1;
            }
            out.push(text[start..i].to_owned());
        } else if starts_word && b[i..].starts_with(b"-inf") {
            out.push("-inf".to_owned());
            i += 4;
        } else if starts_word && (b[i..].starts_with(b"inf") || b[i..].starts_with(b"NaN")) {
            out.push(text[i..i + 3].to_owned());
            i += 3;
        } else {
            i += 1;
        }
    }
    out
}

fn fnv(parts: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for byte in p.bytes().chain([b' ']) {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// (name, Debug text) for every piece the labs compute for the recorded links.
fn pieces() -> Vec<(String, String)> {
    use dp_playground::labs::{
        compose as compose_lab, dpsgd as dpsgd_lab, mechanisms as mech_lab, mf as mf_lab, rr,
        tangent as tangent_lab, wdp as wdp_lab,
    };
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |name: &str, text: String| out.push((name.to_owned(), text));

    // Randomized response: the default link, a fixed population, and the heavy link.
    for link in [
        "",
        "eps=0.5&k=4&n=300&population=fixed&seed=9",
        "n=1e7&k=50&reps=1000",
    ] {
        let (p, notices) = rr::RrParams::from_query(&q(link));
        add(&format!("rr {link}"), show((rr::run(&p), notices)));
    }

    // Mechanisms: each mechanism's default link.
    for link in [
        "",
        "mech=laplace",
        "mech=tlap&eps=0.7&delta=1e-6",
        "mech=exponential",
        "mech=gaussian&eps=3&delta=1e-300&sens=2&kmax=1000",
    ] {
        let (p, notices) = mech_lab::MechParams::from_query(&q(link));
        let cal = mech_lab::calibrate(&p);
        add(&format!("mech {link} calibrate"), show((&cal, notices)));
        let Ok(cal) = cal else { continue };
        let noise = mech_lab::noise(&p, &cal);
        add(&format!("mech {link} noise"), show(&noise));
        if let Ok(Some(noise)) = noise {
            add(
                &format!("mech {link} pictures"),
                show(mech_lab::pictures(&p, &noise)),
            );
            add(
                &format!("mech {link} samples"),
                show(mech_lab::samples(&p, &noise)),
            );
            if let mech_lab::Noise::Gaussian(g) = noise {
                add(
                    &format!("mech {link} zcdp"),
                    show(mech_lab::zcdp_view(&g, p.delta)),
                );
            }
        }
        add(
            &format!("mech {link} exponential"),
            show(mech_lab::exponential(&p)),
        );
        if let Ok(sim) =
            dp_playground::mechanisms::many_queries::simulate_max_errors(p.kmax, p.seed)
        {
            add(
                &format!("mech {link} many"),
                show(mech_lab::many_queries(&p, &sim)),
            );
        }
    }

    // Composition: the default list, the README's list, every kind of entry, and the long Laplace run.
    for link in [
        "",
        "list=gauss:3*10,lap:0.2*5&delta=1e-5",
        "list=gauss:2*10,lap:0.5*1,rr:1*1,rr:1:4*10,sgauss:0.01:1*1000,dp:0.5:0.000001*1,wor:0.1:1:0*1,wor:0.1:gauss:1*10&delta=1e-6",
        "list=lap:0.01*100000",
    ] {
        let (p, notices) = compose_lab::ComposeParams::from_query(&q(link));
        add(&format!("compose {link} params"), show((&p, notices)));
        add(&format!("compose {link} accountants"), show(compose_lab::accountants(&p.list, p.delta)));
        add(&format!("compose {link} grid"), show(compose_lab::accountants_grid(&p.list, 1e-7)));
        add(&format!("compose {link} pld"), job(Job::Compose(ComposeJob::Pld(p.list.clone(), p.grid))));
    }

    // DP-SGD: the default (Abadi et al. MNIST), the long run, and the replace-one relation.
    for link in [
        "",
        "q=0.01&sigma=1&steps=100000&delta=1e-5",
        "n=1000&batch=100&sigma=2&epochs=5&neighbour=replace&target_eps=3",
    ] {
        let (p, notices) = dpsgd_lab::DpsgdParams::from_query(&q(link));
        add(&format!("dpsgd {link} params"), show((&p, notices)));
        add(
            &format!("dpsgd {link} rdp"),
            show(dp_playground::accounting::training::rdp_report(
                &p.event(),
                p.delta,
            )),
        );
        let sigma = dp_playground::accounting::training::sigma_for_target(&p.sigma_goal());
        add(&format!("dpsgd {link} sigma"), show(&sigma));
        add(
            &format!("dpsgd {link} scenarios"),
            show(dpsgd_lab::scenarios(&p, sigma.unwrap_or(f64::NAN))),
        );
        add(
            &format!("dpsgd {link} pld"),
            job(Job::Accounting(AccountingJob::Pld(
                dp_playground::accounting::training::jobs::PldJob::new(
                    &p.event(),
                    p.delta,
                    p.grid_width(),
                ),
            ))),
        );
        add(
            &format!("dpsgd {link} sigma job"),
            job(Job::Accounting(AccountingJob::Sigma(p.sigma_goal()))),
        );
    }

    // Attacks: the default link, a list, and an audit's counts.
    use dp_playground::labs::attack::jobs::Calibration;
    for link in [
        "",
        "source=list&list=gauss:2*3,lap:1&delta=1e-6",
        "q=0.01&sigma=0.8&steps=1000&tp=80&fp=5&fn=20&tn=95",
    ] {
        let (p, _) = dp_playground::labs::attack::params::AttackParams::from_query(&q(link));
        add(
            &format!("attack {link}"),
            job(Job::Attack(AttackJob::Report(p.clone()))),
        );
        add(
            &format!("attack {link} adv"),
            job(Job::Attack(AttackJob::Calibration(
                p.clone(),
                Calibration::Advantage,
            ))),
        );
        add(
            &format!("attack {link} tpr"),
            job(Job::Attack(AttackJob::Calibration(
                p.clone(),
                Calibration::Tpr,
            ))),
        );
    }

    // Wasserstein DP: Table 1, Figure 1's panels, Figure 2's run, Figure 3.
    let (p, _) = wdp_lab::WdpParams::from_query(&q(""));
    add("wdp table1", show(wdp_lab::table1(&p)));
    for panel in wdp_lab::Panel::ALL {
        add(
            &format!("wdp fig1 {panel:?}"),
            show(wdp_lab::fig1_curves(&p, panel)),
        );
    }
    add("wdp fig1 value", show(p.fig1_value()));
    add("wdp fig3 value", show(p.fig3_value()));
    add(
        "wdp fig3",
        show((wdp_lab::fig3_by_beta(10.0), wdp_lab::fig3_by_delta(10.0))),
    );
    add("wdp fig2", job(Job::Wdp(WdpJob::Fig2(1))));

    // Training: the default run, a 2-D MLP, and one σ of the default sweep (every update, as the worker
    // sends them).
    for link in ["", "data=xor&model=mlp&hidden=8&steps=200"] {
        let (p, _) = dp_playground::labs::train::TrainParams::from_query(&q(link));
        add(
            &format!("train {link}"),
            job(Job::Train(TrainJob::Run {
                params: Box::new(p.clone()),
                csv: None,
                from: None,
                noise: None,
                until: u64::MAX,
            })),
        );
    }
    let (p, _) = dp_playground::labs::train::TrainParams::from_query(&q("seeds=2"));
    add(
        "train sweep σ = 2",
        job(Job::Train(TrainJob::Sweep {
            params: Box::new(p),
            csv: None,
            sigma: 2.0,
        })),
    );

    // Correlated noise: the default link, four passes with wider bands, and a sampled stream, each
    // with the BLT its job optimises (and amplified BandMF's σ where the link samples).
    for link in [
        "",
        "steps=1000&epochs=4&bands=16&eps=3&delta=0.00001",
        "steps=1000&epochs=4&q=0.05&eps=2&delta=0.00001",
        "steps=512&epochs=2&rho=0.5",
    ] {
        let (p, _) = mf_lab::MfParams::from_query(&q(link));
        let blt = dp_playground::mechanisms::mf::optimise::best_blt(
            p.steps as usize,
            p.participation(),
            dp_playground::mechanisms::mf::optimise::ErrorMeasure::Mean,
            &mut |_, _, _| {},
        );
        let amplified = p
            .amplified_goal()
            .map(|g| mf_lab::jobs::amplified(&g).unwrap());
        add(
            &format!("mf {link}"),
            show(mf_lab::report(&p, Some(&blt), amplified.as_ref())),
        );
    }

    // Tangent DP: the default link and a 2-D model, with the work that follows the report.
    for link in ["", "model=linear2d&n=40&wgrid=-3:3:15&samples=200"] {
        let (p, _) = tangent_lab::TangentParams::from_query(&q(link));
        let report = tangent_lab::report(&p);
        add(&format!("tangent {link}"), show(&report));
        if let Ok(report) = report {
            add(
                &format!("tangent {link} sweeps"),
                job(Job::Tangent(TangentJob::Sweeps {
                    params: Box::new(p.clone()),
                    report: Box::new(report.clone()),
                })),
            );
            add(
                &format!("tangent {link} langevin"),
                job(Job::Tangent(TangentJob::Langevin {
                    params: Box::new(p.clone()),
                    report: Box::new(report),
                })),
            );
        }
    }
    out
}

const RECORD: &str = "tests/golden/numbers.txt";

#[test]
fn every_lab_gives_the_recorded_numbers() {
    let pieces = pieces();
    // GOLDEN_DUMP=<file> writes every number, to see which moved and by how much.
    if let Some(dump) = std::env::var_os("GOLDEN_DUMP") {
        let text: String = pieces
            .iter()
            .map(|(name, text)| format!("{name}\t{}\n", numbers(text).join(" ")))
            .collect();
        std::fs::write(dump, text).unwrap();
    }
    let lines: Vec<String> = pieces
        .iter()
        .map(|(name, text)| {
            let nums = numbers(text);
            format!("{:016x} {:>7} {name}", fnv(&nums), nums.len())
        })
        .collect();
    let now = lines.join("\n") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORD);
    if std::env::var_os("GOLDEN_RECORD").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    let changed: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("  recorded {a}\n  now      {b}"))
        .collect();
    assert!(
        changed.is_empty() && recorded.lines().count() == now.lines().count(),
        "numbers changed ({} pieces):\n{}",
        changed.len(),
        changed.join("\n")
    );
}

#[test]
fn numbers_reads_every_kind_of_float() {
    assert_eq!(
        numbers("A { x: 1.5e-7, y: -2.0, z: inf, w: NaN, u: -inf, v: [3, 4e300], name: \"k2\" }"),
        ["1.5e-7", "-2.0", "inf", "NaN", "-inf", "3", "4e300"]
    );
}
