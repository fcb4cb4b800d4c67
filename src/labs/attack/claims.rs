//! What the attack lab says about its numbers: the headline, its certified TPR and advantage rounded up
//! (the shown digits never understate what an attacker can do), and the batches a DP-SGD run assumes.

use super::params::{AttackParams, Source};
use super::report::AttackReport;
use crate::accounting::guarantee::Side;
use crate::link::format::sig;

/// The headline for a computed report.
pub fn headline(p: &AttackParams, r: &AttackReport) -> String {
    let up = |x: f64| Side::Upper.digits(x, 3);
    let assumes = match &p.source {
        Source::Dpsgd(_) => ", for DP-SGD with Poisson sampling",
        Source::List(_) => "",
    };
    format!(
        "No attack that wrongly accuses at most {}% of non-members catches more than {}% of members, and no attack's advantage TPR − FPR exceeds {} (certified{assumes}).",
        sig(100.0 * p.alpha, 3),
        up(100.0 * r.tpr_at_fpr),
        up(r.advantage)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::attack::report::report;
    use crate::link::query::{LinkParams, Query};

    fn after(text: &str, marker: &str) -> f64 {
        text.split(marker)
            .nth(1)
            .and_then(|t| t.split(['%', ' ']).next())
            .and_then(|t| t.parse().ok())
            .unwrap_or(f64::NAN)
    }

    /// The default link, a list and a replace-one run: the shown TPR and advantage read back at or
    /// above the certified values.
    #[test]
    fn the_headline_never_understates_the_attacker() {
        for link in [
            "",
            "source=list&list=gauss:2*3,lap:1&delta=1e-6",
            "q=0.01&sigma=0.8&steps=1000&neighbour=replace-one&alpha=0.001",
        ] {
            let p = AttackParams::from_query(&Query::parse(link)).0;
            let r = report(&p).unwrap();
            let text = headline(&p, &r);
            assert!(
                after(&text, "catches more than ") >= 100.0 * r.tpr_at_fpr,
                "{text}"
            );
            assert!(after(&text, "TPR − FPR exceeds ") >= r.advantage, "{text}");
            assert_eq!(
                text.contains("Poisson sampling"),
                !link.contains("list"),
                "{text}"
            );
        }
    }
}
