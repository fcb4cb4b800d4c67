//! Soundness of the training lab's audit on its default configuration (issue 28's quality bar): with
//! the DP-SGD the accountant accounts for, over 200 seeded audits the Clopper–Pearson lower bound
//! (confidence 95%) may exceed the certified ε in at most 5% of them. Each audit is 100 runs with the
//! white-box canary and 100 without, the adversary seeing every step (the strongest the page offers);
//! the audits use disjoint seeds, so they are independent and the count is fixed by the seeds. The
//! default lab but for its length (100 steps, not 427): its certified ε must lie within what 100
//! runs a side can prove at all, or the test could not fail.

use dp_playground::accounting::pld::dpsgd::dpsgd_epsilon;
use dp_playground::accounting::pld::DEFAULT_INTERVAL;
use dp_playground::attacks::estimators::epsilon_clopper_pearson;
use dp_playground::attacks::scores::Sweep;
use dp_playground::labs::train::audit::{audit_chunk, AuditMode};
use dp_playground::labs::train::TrainParams;

#[test]
fn the_default_audit_exceeds_the_guarantee_in_at_most_its_alpha_share() {
    let mut p = TrainParams {
        steps: Some(100),
        ..TrainParams::default()
    };
    p.audit.mode = AuditMode::Runs;
    let (audits, runs, alpha) = (200u64, 100u64, 0.05);
    let rows = p.rows(0);
    let steps = p.planned_steps(rows).unwrap();
    let certified = dpsgd_epsilon(p.rate(rows), p.sigma, steps, p.delta, DEFAULT_INTERVAL).unwrap();
    // A perfect attack's bound: the most these runs can prove.
    let (ins, outs): (Vec<f64>, Vec<f64>) = (
        (0..runs).map(|_| 1.0).collect(),
        (0..runs).map(|_| 0.0).collect(),
    );
    let most = epsilon_clopper_pearson(&Sweep::new(&ins, &outs).unwrap(), p.delta, alpha).unwrap();
    assert!(
        most > certified,
        "{runs} runs prove at most {most}, below ε = {certified}"
    );
    // Two threads (the audits are independent; each one's seeds are fixed).
    let bounds: Vec<f64> = std::thread::scope(|scope| {
        let half = |parity: u64| {
            let p = &p;
            scope.spawn(move || {
                (0..audits)
                    .filter(|a| a % 2 == parity)
                    .map(|a| {
                        let (ins, outs) = audit_chunk(p, None, a * runs, runs).unwrap();
                        let sweep = Sweep::new(&ins, &outs).unwrap();
                        epsilon_clopper_pearson(&sweep, p.delta, alpha).unwrap()
                    })
                    .collect::<Vec<f64>>()
            })
        };
        let (even, odd) = (half(0), half(1));
        let mut all = even.join().unwrap();
        all.extend(odd.join().unwrap());
        all
    });
    let largest = bounds.iter().copied().fold(0.0, f64::max);
    let exceeded = bounds.iter().filter(|&&cp| cp > certified).count();
    eprintln!("{audits} audits of {runs} + {runs} runs: largest CP {largest}, certified {certified}, at most {most}, exceeded {exceeded}");
    assert!(
        exceeded as f64 <= alpha * audits as f64,
        "{exceeded} of {audits} exceeded ε = {certified}"
    );
}
