//! The DP-SGD lab's schedules (`schedule=q:σ:T,…`) and hyperparameter tuning (`tuning=…`) in words; their
//! accountants are [`crate::accounting::training::phases`]'s, on the link's event.

use crate::accounting::rdp::tuning::Tuning;

/// What the tuning distribution is, in words.
pub fn describe_tuning(t: Tuning) -> String {
    match t {
        Tuning::Poisson { mean } => format!(
            "K ~ Poisson with mean {}",
            crate::link::query::fmt_f64(mean)
        ),
        Tuning::NegativeBinomial { shape, mean } => format!(
            "K ~ truncated negative binomial, shape η = {} ({}), mean {}",
            crate::link::query::fmt_f64(shape),
            if shape == 0.0 {
                "logarithmic"
            } else if shape == 1.0 {
                "geometric"
            } else {
                "negative binomial"
            },
            crate::link::query::fmt_f64(mean)
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::accounting::training::phases::schedule_report;
    use crate::labs::dpsgd::DpsgdParams;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn a_replace_one_schedule_is_bounded_as_one_phase_is() {
        // One phase written as a schedule gives the lab's own replace-one band; two phases stay
        // between pairs that happen (the add/remove schedule at σ) and the σ/2 schedule's guarantee.
        let report = |link: &str| {
            let p = DpsgdParams::from_query(&Query::parse(link)).0;
            schedule_report(&p.event(), p.delta, p.grid_width())
        };
        let one = report("schedule=0.01:2:500&neighbour=replace-one&delta=1e-5").unwrap();
        let plain_link = DpsgdParams::from_query(&Query::parse(
            "q=0.01&sigma=2&steps=500&neighbour=replace-one&delta=1e-5",
        ))
        .0;
        let plain = crate::accounting::training::pld_epsilon(
            &plain_link.event(),
            plain_link.delta,
            plain_link.grid_width(),
        )
        .unwrap();
        assert!(
            (one.band.upper - plain.upper).abs() < 1e-9
                && (one.band.lower - plain.lower).abs() < 1e-9,
            "{one:?} {plain:?}"
        );
        let band = |schedule: &str, neighbour: &str| {
            report(&format!(
                "schedule={schedule}&neighbour={neighbour}&delta=1e-5"
            ))
            .unwrap()
            .band
        };
        let replace = band("0.01:2:500,0.02:3:300", "replace-one");
        let half = band("0.01:1:500,0.02:1.5:300", "add-remove");
        let whole = band("0.01:2:500,0.02:3:300", "add-remove");
        assert!(
            replace.upper <= half.upper && replace.lower >= whole.lower * (1.0 - 1e-2),
            "{replace:?}"
        );
        assert!(
            replace.lower < half.lower && replace.lower <= replace.upper,
            "{replace:?} {half:?}"
        );
    }
}
