//! Every lab's keys with their defaults, as `tests/e2e/lab-keys.json` for the browser fuzzer
//! (`tests/e2e/fuzz.test.mjs`), printed by each lab's own parameters type so that a new key is fuzzed
//! the day it lands. `LABS_RECORD=1 cargo test --test lab_keys` rewrites the file.
use dp_playground::labs::attack::params::AttackParams;
use dp_playground::labs::compose::ComposeParams;
use dp_playground::labs::dpsgd::DpsgdParams;
use dp_playground::labs::mechanisms::MechParams;
use dp_playground::labs::rr::RrParams;
use dp_playground::labs::tangent::TangentParams;
use dp_playground::labs::train::TrainParams;
use dp_playground::labs::wdp::WdpParams;
use dp_playground::link::query::{LinkParams, Query};

/// A lab's default link, every key printed.
fn defaults<P: LinkParams>() -> String {
    P::from_query(&Query::parse(""))
        .0
        .to_query()
        .to_query_string()
}

fn manifest() -> String {
    let labs = [
        ("rr", defaults::<RrParams>()),
        ("mechanisms", defaults::<MechParams>()),
        ("compose", defaults::<ComposeParams>()),
        ("dpsgd", defaults::<DpsgdParams>()),
        ("attack", defaults::<AttackParams>()),
        ("wdp", defaults::<WdpParams>()),
        ("tangent", defaults::<TangentParams>()),
        ("train", defaults::<TrainParams>()),
    ];
    let lines: Vec<String> = labs
        .iter()
        .map(|(lab, query)| {
            let pairs: Vec<String> = query
                .split('&')
                .filter_map(|kv| kv.split_once('='))
                .filter(|(k, _)| *k != "lab")
                .map(|(k, v)| {
                    format!(
                        "\"{k}\": \"{}\"",
                        v.replace('\\', "\\\\").replace('"', "\\\"")
                    )
                })
                .collect();
            format!("  \"{lab}\": {{{}}}", pairs.join(", "))
        })
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

#[test]
fn the_fuzzers_key_list_matches_the_labs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/lab-keys.json");
    if std::env::var_os("LABS_RECORD").is_some() {
        std::fs::write(&path, manifest()).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        written,
        manifest(),
        "tests/e2e/lab-keys.json is stale: run LABS_RECORD=1 cargo test --test lab_keys"
    );
}
