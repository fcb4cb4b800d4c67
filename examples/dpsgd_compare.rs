//! Prints our DP-SGD ε (RDP and PLD) beside dp_accounting's reference values and times the PLD
//! accountant: `cargo run --release --example dpsgd_compare`.
use dp_playground::accounting::pld::{dpsgd_epsilon, DEFAULT_INTERVAL};
use dp_playground::accounting::rdp::{default_orders, dpsgd_rdp, rdp_to_approx_dp, Conversion};
use std::time::Instant;

fn main() {
    let rows = [
        (
            0.01,
            1.0,
            1000u64,
            1e-5,
            2.101366525420273,
            1.8282436455855091,
            794.0,
        ),
        (
            0.01,
            1.0,
            10000,
            1e-5,
            6.712756664482653,
            6.187744975808358,
            857.0,
        ),
        (
            0.004266666666666667,
            1.1,
            14062,
            1e-5,
            2.5965558697943036,
            2.381686002234784,
            536.0,
        ),
        (
            0.1,
            2.0,
            100,
            1e-6,
            2.9141737620582155,
            2.6750357412999692,
            398.0,
        ),
        (
            1.0,
            5.0,
            10,
            1e-5,
            2.8136532471298397,
            2.594383440464893,
            132.0,
        ),
        (
            0.05,
            0.8,
            500,
            1e-7,
            16.354518771660018,
            14.994058434959626,
            1451.0,
        ),
        (
            0.001,
            3.0,
            100000,
            1e-9,
            0.6163809692634927,
            0.5881511629254745,
            95.0,
        ),
    ];
    let orders = default_orders();
    println!("q        σ    T       δ      | RDP ours   rel.diff  | PLD ours   rel.diff  ms (dp_accounting ms, ratio)");
    for (q, s, t, d, rdp_ref, pld_ref, ms_ref) in rows {
        let start = Instant::now();
        let (rdp, _) = rdp_to_approx_dp(
            &orders,
            &dpsgd_rdp(q, s, t as f64, &orders),
            d,
            Conversion::Improved,
        )
        .unwrap_or((f64::NAN, 0.0));
        let rdp_ms = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let pld = dpsgd_epsilon(q, s, t, d, DEFAULT_INTERVAL).unwrap_or(f64::NAN);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!("{q:<8.5} {s:<4} {t:<7} {d:<6e} | {rdp:<10.6} {:+.2e} | {pld:<10.6} {:+.2e} {ms:7.1} ({ms_ref:.0}, {:.2}x)  rdp {rdp_ms:.2} ms",
            rdp / rdp_ref - 1.0, pld / pld_ref - 1.0, ms_ref / ms);
    }
    let start = Instant::now();
    let eps = dpsgd_epsilon(0.01, 1.0, 100_000, 1e-5, DEFAULT_INTERVAL).unwrap_or(f64::NAN);
    println!(
        "q = 0.01, σ = 1, T = 1e5, δ = 1e-5: PLD ε = {eps:.4} in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
}
