//! Links that carry a run or a list from one lab to another. The receiving labs read the same keys
//! for the same things (`q`, `sigma`, `steps`, `neighbour`, `sampler`, `cap`, `delta`; `list`), so a
//! lab links to another through these core types ([`TrainingEvent`], [`Item`]) and never through the
//! other lab's parameter type: no lab imports another lab.

use crate::accounting::entry::{format_list, Item};
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::samplers::Sampler;
use crate::link::format::rate_text;
use crate::link::query::{fmt_f64, Query};

/// The keys every training-run link shares: q (as a short exact ratio where one exists), σ (the noise
/// multiplier), T, the relation when it is not add/remove, δ.
fn run_keys(lab: &str, event: &TrainingEvent, delta: f64) -> Query {
    let mut q = Query::default()
        .with("lab", lab)
        .with("q", rate_text(event.rate))
        .with("sigma", fmt_f64(event.sigma))
        .with("steps", event.steps.to_string());
    if event.neighbour != Neighbour::AddRemove {
        q.set("neighbour", event.neighbour.key());
    }
    q.set("delta", fmt_f64(delta));
    q
}

/// The attack lab's link for a training run at δ: its trade-off curve and risks (the attack lab
/// accounts for Poisson batches; the link carries q, σ, T, the relation and δ).
pub fn attack_link_for_run(event: &TrainingEvent, delta: f64) -> Query {
    let mut q = run_keys("attack", event, delta);
    q.set("source", "dpsgd");
    q
}

/// The attack lab's link for a composition list at δ (from the composition lab).
pub fn attack_link_for_list(items: &[Item], delta: f64) -> Query {
    Query::default()
        .with("lab", "attack")
        .with("source", "list")
        .with("list", format_list(items))
        .with("delta", fmt_f64(delta))
}

/// The training lab's link for a run at δ (the DP-SGD lab's "train with these settings"): q, σ, T
/// and δ carry over, and the sampler when it is not Poisson; the data and the model stay the lab's
/// defaults. With the run's records n, also its batch size round(q·n), its epochs q·T and n itself
/// (`plan_n`), so that the training lab can say what its own data size changes and keep the batch
/// size instead of q where the user asks.
pub fn train_link_for_run(event: &TrainingEvent, delta: f64) -> Query {
    let mut q = run_keys("train", event, delta);
    if event.records > 0 {
        let n = event.records as f64;
        q.set(
            "batch",
            ((event.rate * n).round().max(1.0) as u64).to_string(),
        );
        q.set("epochs", fmt_f64(event.rate * event.steps as f64));
        q.set("plan_n", event.records.to_string());
    }
    // The training lab trains under add/remove only; it ignores the key, so say nothing.
    q.remove("neighbour");
    if event.sampler != Sampler::Poisson {
        q.set("sampler", event.sampler.key());
    }
    q
}

/// The DP-SGD lab's link for a run at δ (the training lab's "account for it"): q, σ, T, the relation,
/// the sampler (and truncated Poisson's cap) and δ.
pub fn dpsgd_link_for_run(event: &TrainingEvent, delta: f64) -> Query {
    let mut q = run_keys("dpsgd", event, delta);
    if event.sampler != Sampler::Poisson {
        q.set("sampler", event.sampler.key());
        if event.records > 0 {
            q.set("n", event.records.to_string());
        }
    }
    if event.sampler == Sampler::Truncated {
        q.set("cap", event.cap.to_string());
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::entry::parse_list;

    #[test]
    fn run_links_carry_the_event_and_nothing_else() {
        let mut e = TrainingEvent::poisson(256.0 / 60_000.0, 1.1, 14_063, Neighbour::ReplaceOne);
        let a = attack_link_for_run(&e, 1e-5).to_query_string();
        assert_eq!(
            a,
            "lab=attack&q=8/1875&sigma=1.1&steps=14063&neighbour=replace-one&delta=0.00001&source=dpsgd"
        );
        e.sampler = Sampler::Truncated;
        e.records = 60_000;
        e.cap = 282;
        let d = dpsgd_link_for_run(&e, 1e-5).to_query_string();
        assert!(
            d.contains("sampler=truncated") && d.contains("cap=282") && d.contains("n=60000"),
            "{d}"
        );
        let t = train_link_for_run(&e, 1e-5).to_query_string();
        assert!(
            !t.contains("neighbour") && t.contains("sampler=truncated"),
            "{t}"
        );
        let list = parse_list("lap:0.5*4").unwrap();
        assert_eq!(
            attack_link_for_list(&list, 1e-6).to_query_string(),
            "lab=attack&source=list&list=lap:0.5%2A4&delta=0.000001"
        );
    }
}
