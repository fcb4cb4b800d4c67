//! Prints the tangent lab's key numbers for a link's query (what the browser tests compare against):
//! `cargo run --release --example tangent_report -- 'model=linear2d&loss=tangent&beta=5'`.

use dp_playground::labs::tangent::{report, TangentParams};
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Query;
use std::time::Instant;

fn main() {
    let query = std::env::args().nth(1).unwrap_or_default();
    let (p, notices) = TangentParams::from_query(&Query::parse(&query));
    for n in notices {
        println!("notice {}: {}", n.key, n.message);
    }
    let start = Instant::now();
    let r = match report(&p) {
        Ok(r) => r,
        Err(e) => return println!("{e}"),
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let (s, b) = (&r.norms, r.instance.beta);
    println!(
        "report in {ms:.1} ms ({} parameters, {} candidates)",
        r.params.len(),
        r.instance.candidates().len()
    );
    for (name, v) in [
        ("tdp-norm-tv-all", s.tv_all),
        ("tdp-norm-tv", s.tv_pairs.lower),
        ("tdp-bound-tv", 2.0 * b * s.r_thm31),
        ("tdp-norm-log-all", s.log_all),
        ("tdp-norm-log", s.log_pairs),
        ("tdp-bound-log", 2.0 * b * s.r_max),
        ("tdp-norm-w-tv-lower", s.w_tv.lower),
        ("tdp-norm-w-tv-upper", s.w_tv.upper),
        ("tdp-bound-w-tv", 2.0 * b * s.r_thm33),
        ("tdp-norm-w-log", s.w_log),
        ("tdp-bound-w-log", 2.0 * b * s.r_thm34),
        ("tdp-actual-tv", r.removal.actual_tv),
        ("tdp-actual-log", r.removal.actual_log),
        ("tdp-linear-tv", r.removal.linear_tv),
        ("tdp-linear-log", r.removal.linear_log),
        ("tdp-dp-eps", r.dp_eps),
        ("tdp-r-exact", s.r_thm31),
    ] {
        println!("{name:<22} {v:?}");
    }
}
