//! What the DP-SGD lab says about its numbers: the headline, rendered from [`Guarantee`]s so that every
//! claim carries its side, its accountant and the sampler it assumes.

use super::DpsgdParams;
use crate::accounting::guarantee::{
    sampler_assumption, Accountant, Guarantee, Side, HEADLINE_DIGITS,
};
use crate::accounting::pld::EpsilonBand;
use crate::accounting::samplers::{Sampler, SamplerEpsilon};
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
    let event = &poisson.event;
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
            let g = Guarantee::from_sampler(event, o, p.delta);
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
