//! What the DP-SGD lab says about its numbers: the headline, rendered from [`Guarantee`]s so that every
//! claim carries its side, its accountant and the sampler it assumes.

use super::DpsgdParams;
use crate::accounting::guarantee::{
    sampler_assumption, Accountant, Guarantee, Side, HEADLINE_DIGITS,
};
use crate::accounting::pld::EpsilonBand;
use crate::accounting::samplers::users::UserEpsilon;
use crate::accounting::samplers::{Sampler, SamplerEpsilon};
use crate::accounting::training::phases::{tuning_report, ScheduleReport};
use crate::accounting::training::RdpReport;
use crate::link::format::{count, sig, sig_up};

/// The Poisson accountants' best number so far: the PLD's certified upper end once finite, RDP's
/// (every real order) until then.
pub fn poisson_guarantee(
    p: &DpsgdParams,
    rdp: Option<&RdpReport>,
    band: Option<EpsilonBand>,
) -> Option<Guarantee> {
    let event = p.event();
    match (band, rdp) {
        (Some(b), _) if b.upper.is_finite() => Some(Guarantee::poisson(
            &event,
            Accountant::Pld,
            Side::Upper,
            p.delta,
            b.upper,
        )),
        (_, Some(r)) => Some(Guarantee::poisson(
            &event,
            Accountant::RdpEveryOrder,
            Side::Upper,
            p.delta,
            r.eps,
        )),
        _ => None,
    }
}

/// The guarantee a statement publishes for the link's run: the Poisson accountants' for a plain Poisson
/// run; for record-level Poisson runs, the tuning bound when tuned, the schedule's PLD (`schedule`,
/// once composed) when phased; the user-level accountant's for Poisson users of k records (`users`,
/// once computed: the smaller finite certified upper end of the mixture PLD and the group lemma); the
/// sampler's own for another sampler. Otherwise (another sampler or users with phases or tuning) the
/// Poisson number with its condition, which the statement then refuses to certify.
pub fn statement_guarantee(
    p: &DpsgdParams,
    rdp: Option<&RdpReport>,
    band: Option<EpsilonBand>,
    own: Option<&SamplerEpsilon>,
    users: Option<&UserEpsilon>,
    schedule: Option<&ScheduleReport>,
) -> Option<Guarantee> {
    let event = p.event();
    let single = event.schedule.is_none() && event.tuning.is_none();
    let poisson_records = p.sampler == Sampler::Poisson && p.users == 1;
    if poisson_records && event.tuning.is_some() {
        let tuned = tuning_report(&event, p.delta).ok()?.tuned;
        return tuned
            .is_finite()
            .then(|| Guarantee::poisson(&event, Accountant::Tuning, Side::Upper, p.delta, tuned));
    }
    if poisson_records && event.schedule.is_some() {
        let upper = schedule?.band.upper;
        return upper.is_finite().then(|| {
            Guarantee::poisson(&event, Accountant::Schedule, Side::Upper, p.delta, upper)
        });
    }
    if single && p.sampler == Sampler::Poisson && p.users > 1 {
        let u = users?;
        let eps = u.mixture.upper.min(u.group);
        return eps
            .is_finite()
            .then(|| Guarantee::poisson(&event, Accountant::UserLevel, Side::Upper, p.delta, eps));
    }
    if single && p.sampler != Sampler::Poisson && p.users == 1 {
        return own.map(|o| Guarantee::from_sampler(&event, o, p.delta));
    }
    poisson_guarantee(p, rdp, band)
}

/// What the DP-SGD lab knows of its run beyond the event, for a statement: n and the epochs (it has no
/// clipping norm: it accounts for σ, the noise over the clipping norm).
pub fn statement_facts(p: &DpsgdParams, link: &str) -> crate::statement::RunFacts {
    crate::statement::RunFacts {
        lab: "dpsgd".into(),
        link: link.into(),
        records: Some(p.n),
        epochs: Some(p.total_steps() as f64 * p.rate()),
        ..Default::default()
    }
}

/// The headline: σ and T, then the guarantee for the run as it is. A run that is not the Poisson
/// accountants' (another sampler, users, phases, tuning) never reads "certified" on their number
/// alone: the sampler's own statement leads (a lower bound says so, and that no upper bound is
/// known), and the Poisson number follows with its condition.
pub fn headline(
    p: &DpsgdParams,
    rdp: Option<&RdpReport>,
    band: Option<EpsilonBand>,
    own: Option<&SamplerEpsilon>,
) -> String {
    let lead = format!(
        "σ = {} over {} steps",
        sig_up(p.sigma, 4),
        count(p.total_steps())
    );
    let delta = sig(p.delta, 3);
    let Some(poisson) = poisson_guarantee(p, rdp, band) else {
        return format!("{lead}: the accountants are computing.");
    };
    let how = match poisson.accountant {
        Accountant::Pld => "certified by the PLD".to_string(),
        _ => "by RDP; the PLD is still composing".to_string(),
    };
    let event = p.event();
    if event.is_plain_poisson() {
        return format!(
            "{lead} gives {} at δ = {delta}, {how}.",
            poisson.inequality(HEADLINE_DIGITS)
        );
    }
    let poisson_part = format!(
        "The Poisson accountants' {} ({how}) holds only for Poisson sampling, one record per user, one phase and no tuning.",
        poisson.inequality(HEADLINE_DIGITS)
    );
    if p.sampler == Sampler::Poisson {
        return format!(
            "{lead}: {poisson_part} This run differs ({}): its own guarantee is in the sections below.",
            poisson
                .condition()
                .and_then(|c| c.split_once("; ").map(|(_, why)| why.to_string()))
                .unwrap_or_default()
        );
    }
    let batches = sampler_assumption(p.sampler);
    let own_part = match own {
        None => format!("the ε of {batches} is computing."),
        Some(o) => {
            let g = Guarantee::from_sampler(&event, o, p.delta);
            match g.side {
                Side::Upper => format!(
                    "{} at δ = {delta} for {batches} (its own certified upper bound).",
                    g.inequality(HEADLINE_DIGITS)
                ),
                _ => format!(
                    "{} at δ = {delta} for {batches}; no certified upper bound is known.",
                    g.inequality(HEADLINE_DIGITS)
                ),
            }
        }
    };
    format!("{lead}: {own_part} {poisson_part}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::samplers::sampler_epsilon;
    use crate::accounting::training::{
        pld_epsilon, rdp_report, sigma_for_target, sigma_for_target_pld,
    };
    use crate::labs::dpsgd::{library_snippet, markdown, ShareInputs};
    use crate::link::query::{LinkParams, Query};

    /// Every number a text states after `marker` (`ε ≤ `), as the page's reader reads it back.
    fn numbers_after(text: &str, marker: &str) -> Vec<f64> {
        text.match_indices(marker)
            .filter_map(|(i, _)| crate::link::format::read_shown(&text[i + marker.len()..]))
            .collect()
    }

    /// Every sampler under both relations: the headline's and the Markdown's upper bounds read back at
    /// or above the values they state, lower bounds at or below, and a run the Poisson accountants do
    /// not describe is named with the condition on their number in the headline, the Markdown and the
    /// snippet.
    #[test]
    fn every_claim_rounds_outward_and_names_its_sampler() {
        for relation in ["add-remove", "replace-one"] {
            for sampler in Sampler::ALL {
                let link = format!(
                    "n=60000&batch=600&epochs=2&sigma=0.9&neighbour={relation}&sampler={}",
                    sampler.key()
                );
                let p = DpsgdParams::from_query(&Query::parse(&link)).0;
                let rdp = rdp_report(&p.event(), p.delta).unwrap();
                let band = pld_epsilon(&p.event(), p.delta, p.grid_width()).unwrap();
                let own = (sampler != Sampler::Poisson)
                    .then(|| sampler_epsilon(&p.sampler_setting(), sampler).unwrap());
                let text = headline(&p, Some(&rdp), Some(band), own.as_ref());
                let md = markdown(&ShareInputs {
                    params: &p,
                    rdp: &rdp,
                    pld: Some(band),
                    sigma_target: None,
                    sigma_target_pld: None,
                    own: own.as_ref(),
                });
                let snippet = library_snippet(&p, Some(&rdp));
                // The smallest true value any "≤" may stand for, the largest any "≥" may.
                let uppers = [band.upper, rdp.eps, rdp.eps_grid]
                    .into_iter()
                    .chain(own.and_then(|o| o.upper));
                let least_upper = uppers.fold(f64::INFINITY, f64::min);
                let most_lower = own.map_or(band.lower, |o| o.lower.max(band.lower));
                for t in [&text, &md] {
                    for x in numbers_after(t, "ε ≤ ") {
                        assert!(x >= least_upper, "{link}: ≤ {x} below {least_upper}\n{t}");
                    }
                    for x in numbers_after(t, "ε ≥ ") {
                        assert!(x <= most_lower, "{link}: ≥ {x} above {most_lower}\n{t}");
                    }
                }
                if sampler == Sampler::Poisson {
                    assert!(text.contains("certified by the PLD"), "{text}");
                    assert!(!snippet.contains("NOT a guarantee"), "{snippet}");
                } else {
                    let named = sampler_assumption(sampler);
                    for t in [&text, &md] {
                        assert!(t.contains(&named), "{link}: {t}");
                        assert!(t.contains("holds only for Poisson sampling"), "{link}: {t}");
                    }
                    assert!(
                        snippet.contains("NOT a guarantee for this run"),
                        "{snippet}"
                    );
                    if own.is_some_and(|o| o.upper.is_none()) {
                        assert!(text.contains("no certified upper bound is known"), "{text}");
                    }
                }
            }
        }
    }

    /// σ offered for a target, as shown (rounded up), still meets the target when pasted back.
    #[test]
    fn sigma_shown_for_a_target_meets_it_when_pasted() {
        for link in [
            "",
            "target_eps=3&epochs=10",
            "neighbour=replace-one&target_eps=8&epochs=5",
            "q=0.01&steps=1000&target_eps=0.5",
        ] {
            let p = DpsgdParams::from_query(&Query::parse(link)).0;
            let goal = p.sigma_goal();
            let back = |s: f64| -> f64 { sig_up(s, 6).parse().unwrap() };
            let rdp_sigma = sigma_for_target(&goal).unwrap();
            let pasted = back(rdp_sigma);
            let at = rdp_report(&p.event().with_sigma(pasted), p.delta).unwrap();
            assert!(
                pasted >= rdp_sigma && at.eps_grid <= p.target_eps,
                "{link}: {pasted}"
            );
            let pld_sigma = sigma_for_target_pld(&goal, rdp_sigma).unwrap();
            let pasted = back(pld_sigma);
            let band = pld_epsilon(&p.event().with_sigma(pasted), p.delta, p.grid_width()).unwrap();
            assert!(
                band.upper <= p.target_eps,
                "{link}: σ {pasted} gives {}",
                band.upper
            );
        }
    }
}
