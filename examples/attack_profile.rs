//! Runs the attack lab's report for a link (default: the lab's default link) `reps` times, for a
//! profiler: `perf record cargo run --profile bench --example attack_profile -- '' 20`.
use dp_playground::labs::attack::params::AttackParams;
use dp_playground::link::query::{LinkParams, Query};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let link = args.first().map_or("", String::as_str);
    let reps: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(10);
    let (p, _) = AttackParams::from_query(&Query::parse(link));
    for _ in 0..reps {
        std::hint::black_box(dp_playground::labs::attack::report::report(&p).ok());
    }
}
