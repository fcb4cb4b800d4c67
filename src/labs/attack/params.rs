//! The attack lab's link (`?lab=attack&source=dpsgd&q=…`): what the mechanism is, where to read the
//! curve, the calibration targets and an audit's counts. Bad values fall back with a notice.

use crate::accounting::entry::{format_list, parse_list, Item};
use crate::accounting::event::{Neighbour, TrainingEvent, MAX_STEPS};
use crate::link::query::{fmt_f64, LinkParams, Notice, Query, Reader, Within};

/// Where the privacy loss comes from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Source {
    /// A composition list, in the composition lab's syntax.
    List(Vec<Item>),
    /// A DP-SGD run with Poisson batches (rate q, noise multiplier σ, T steps, the relation).
    Dpsgd(TrainingEvent),
}

/// An audit's confusion counts, when the link gives all four.
pub use crate::attacks::audit::Counts;

/// Everything an attack link holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AttackParams {
    /// The mechanism.
    pub source: Source,
    /// δ for the (ε, δ) read-out and the audit.
    pub delta: f64,
    /// The false-positive rate the risk numbers are read at (`alpha`).
    pub alpha: f64,
    /// The prior probability of membership (`prior`).
    pub prior: f64,
    /// Calibration target for the advantage (`target_adv`).
    pub target_adv: f64,
    /// Calibration target for the TPR at `alpha` (`target_tpr`).
    pub target_tpr: f64,
    /// An audit's counts (`tp`, `fn`, `fp`, `tn`), if all four are given.
    pub counts: Option<Counts>,
    /// The audit's confidence (`conf`).
    pub conf: f64,
}

/// The largest audit count a link may give (`tp`, `fn`, `fp`, `tn`).
pub const MAX_AUDIT_COUNT: u64 = 100_000_000;

/// Abadi et al.'s MNIST DP-SGD: q = 256/60000, σ = 1.1, 60 epochs (14 063 steps), add/remove.
const ABADI: (f64, f64, u64, Neighbour) = (256.0 / 60_000.0, 1.1, 14_063, Neighbour::AddRemove);

impl Default for AttackParams {
    /// Abadi et al.'s MNIST DP-SGD.
    fn default() -> Self {
        let (q, sigma, steps, neighbour) = ABADI;
        AttackParams {
            source: Source::Dpsgd(TrainingEvent::poisson(q, sigma, steps, neighbour)),
            delta: 1e-5,
            alpha: 0.01,
            prior: 0.5,
            target_adv: 0.1,
            target_tpr: 0.05,
            counts: None,
            conf: 0.95,
        }
    }
}

impl AttackParams {
    /// What the curves come from when that is not one pair (replace-one), for a note beside them.
    pub fn relation_note(&self) -> Option<&'static str> {
        match &self.source {
            Source::Dpsgd(e) if e.neighbour == Neighbour::ReplaceOne => Some(
                "Replace-one has no proven tight pair. The certified curve is the higher of two \
                 bounds: one step at a time (the record drawn is one clipped gradient from the record \
                 not drawn and two from its replacement, either way round), and two add/remove steps \
                 at σ, \
                 removing the record then adding its replacement: β ≥ f(1 − f(α)) with f the \
                 add/remove curve (group privacy, Dong, Roth & Su 2022). The optimistic curve comes \
                 from pairs that happen (a zero-gradient replacement, the record's gradient +C \
                 replaced by −C). The σ calibrations below read the certified curve.",
            ),
            _ => None,
        }
    }
}

impl LinkParams for AttackParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = AttackParams::default();
        let mut r = Reader::new(query);
        let (dq, ds, dt, dn) = ABADI;
        let kind = r.parse_with("source", "dpsgd".to_string(), String::clone, |s| {
            match s.trim().to_ascii_lowercase().as_str() {
                "dpsgd" => Ok("dpsgd".to_string()),
                "list" => Ok("list".to_string()),
                _ => Err(crate::error::Error::invalid(
                    "source",
                    s,
                    "must be list or dpsgd",
                )),
            }
        });
        let source = if kind == "list" {
            let default = parse_list("gauss:3*10,lap:0.2*5").unwrap_or_default();
            let list = r.parse_with("list", default, |l| format_list(l), parse_list);
            Source::List(list)
        } else {
            Source::Dpsgd(TrainingEvent::poisson(
                r.number("q", dq, Within::up_to(0.0, 1.0)),
                r.number("sigma", ds, Within::below(0.0, 1e4)),
                r.whole("steps", dt, 1, MAX_STEPS),
                r.parse("neighbour", dn, Neighbour::parse),
            ))
        };
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let alpha = r.number("alpha", d.alpha, Within::below(0.0, 1.0));
        let prior = r.number("prior", d.prior, Within::below(0.0, 1.0));
        let target_adv = r.number("target_adv", d.target_adv, Within::below(0.0, 1.0));
        let target_tpr = r.number("target_tpr", d.target_tpr, Within::below(0.0, 1.0));
        let conf = r.number("conf", d.conf, Within::below(0.0, 1.0));
        let mut count = |key: &'static str| {
            // Up to 10⁸ each: the exact Clopper–Pearson interval sums ~7 standard deviations of
            // binomial terms per tail on the page's thread (5 ms natively at n = 2·10⁸).
            r.optional_whole(key, 0, MAX_AUDIT_COUNT, "leaving the audit out")
        };
        let (tp, fn_, fp, tn) = (count("tp"), count("fn"), count("fp"), count("tn"));
        let counts = match (tp, fn_, fp, tn) {
            (Some(tp), Some(fn_), Some(fp), Some(tn)) if tp + fn_ > 0 && fp + tn > 0 => {
                Some(Counts { tp, fn_, fp, tn })
            }
            (None, None, None, None) => None,
            _ => {
                r.notice("tp", "An audit needs tp, fn, fp and tn, with at least one member and one non-member; leaving it out.".into());
                None
            }
        };
        r.finish(AttackParams {
            source,
            delta,
            alpha,
            prior,
            target_adv,
            target_tpr,
            counts,
            conf,
        })
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default().with("lab", "attack");
        match &self.source {
            Source::List(items) => {
                q.set("source", "list");
                q.set("list", format_list(items));
            }
            Source::Dpsgd(e) => {
                q.set("source", "dpsgd");
                q.set("q", crate::link::format::rate_text(e.rate));
                q.set("sigma", fmt_f64(e.sigma));
                q.set("steps", e.steps.to_string());
                q.set("neighbour", e.neighbour.key());
            }
        }
        for (key, v) in [
            ("delta", self.delta),
            ("alpha", self.alpha),
            ("prior", self.prior),
            ("target_adv", self.target_adv),
            ("target_tpr", self.target_tpr),
            ("conf", self.conf),
        ] {
            q.set(key, fmt_f64(v));
        }
        if let Some(c) = self.counts {
            for (key, v) in [("tp", c.tp), ("fn", c.fn_), ("fp", c.fp), ("tn", c.tn)] {
                q.set(key, v.to_string());
            }
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_handed_over_reads_back_as_the_same_floats() {
        use crate::accounting::event::TrainingEvent;
        let e = TrainingEvent::poisson(256.0 / 60_000.0, 1.1, 14_063, Neighbour::AddRemove);
        let mut link = crate::link::handoff::attack_link_for_run(&e, 1e-5);
        link.set("q", "256/60000");
        let (back, notices) = AttackParams::from_query(&link);
        assert!(notices.is_empty(), "{notices:?}");
        match back.source {
            Source::Dpsgd(back) => assert_eq!(back, e, "the same floats"),
            other => panic!("{other:?}"),
        }
        // Ugly ratios are refused with a message.
        for bad in ["1/0", "1/", "/2", "a/b", "1/2/3"] {
            let (_, notices) = AttackParams::from_query(&Query::parse(&format!("q={bad}")));
            assert_eq!(notices.len(), 1, "{bad}");
        }
    }

    #[test]
    fn links_round_trip_and_bad_values_fall_back() {
        let (p, n) = AttackParams::from_query(&Query::parse(
            "source=list&list=lap:0.5*4&alpha=0.001&tp=80&fn=920&fp=10&tn=990&conf=0.9",
        ));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(AttackParams::from_query(&p.to_query()).0, p);
        assert_eq!(
            p.counts,
            Some(Counts {
                tp: 80,
                fn_: 920,
                fp: 10,
                tn: 990
            })
        );
        let d = AttackParams::default();
        assert_eq!(AttackParams::from_query(&d.to_query()), (d.clone(), vec![]));
        let (bad, n) = AttackParams::from_query(&Query::parse(
            "source=x&alpha=2&prior=nan&tp=5&conf=1&sigma=-1",
        ));
        assert_eq!(bad.alpha, d.alpha);
        let keys: Vec<&str> = n.iter().map(|x| x.key.as_str()).collect();
        for k in ["source", "alpha", "prior", "tp", "conf"] {
            assert!(keys.contains(&k), "{k}: {keys:?}");
        }
    }
}
