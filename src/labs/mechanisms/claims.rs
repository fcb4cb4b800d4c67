//! What the mechanisms lab says about its numbers: the headline, each privacy number rounded outward
//! for its side (a pure ε and an exact δ up: the shown digits never understate the privacy loss).

use super::{ExponentialReport, MechParams, Mechanism, Noise};
use crate::accounting::entry::{Entry, Item};
use crate::accounting::guarantee::{Accountant, Event, Guarantee, Side};
use crate::accounting::samplers::Sampler;
use crate::link::format::sig;
use crate::statement::RunFacts;

/// The headline: the noise in use and the guarantee it gives; `calibration_error` when no noise fits.
pub fn headline(
    p: &MechParams,
    noise: Option<&Noise>,
    em: Option<&Result<ExponentialReport, String>>,
    calibration_error: Option<&str>,
) -> String {
    let up = |x: f64, digits: usize| Side::Upper.digits(x, digits);
    if p.mech == Mechanism::Exponential {
        return match em {
            Some(Ok(r)) => format!(
                "At ε = {}, the exponential mechanism picks candidate {} with probability {} (on the neighbouring data set, {}).",
                sig(p.eps, 4),
                r.focus,
                sig(r.probs.get(r.focus).copied().unwrap_or(f64::NAN), 3),
                sig(r.neighbour_probs.get(r.focus).copied().unwrap_or(f64::NAN), 3),
            ),
            Some(Err(e)) => e.clone(),
            None => String::new(),
        };
    }
    match noise {
        Some(Noise::Laplace(l)) => format!(
            "Laplace noise of scale {} makes the answer {}-DP: pure, δ = 0.",
            sig(l.scale(), 4),
            up(p.sens / l.scale(), 4)
        ),
        Some(Noise::Gaussian(g)) => format!(
            "Gaussian noise of σ = {} makes the answer (ε = {}, δ = {})-DP, δ exact.",
            sig(g.sigma(), 4),
            sig(p.eps, 4),
            up(g.delta(p.eps), 3)
        ),
        Some(Noise::TruncatedLaplace(t)) => format!(
            "Truncated Laplace noise, never beyond ±{}, makes the answer (ε = {}, δ = {})-DP, δ exact.",
            sig(t.bound(), 4),
            sig(p.eps, 4),
            up(t.delta(p.eps), 3)
        ),
        None => calibration_error.map_or_else(
            || "No noise fits these settings; see the messages beside the controls.".to_string(),
            str::to_string,
        ),
    }
}

/// The guarantee a statement publishes for the mechanism in use: its exact privacy profile, as a list
/// of one (so that its curve and the Python that checks it are the composition list's). Laplace is
/// ε-DP with δ = 0; Gaussian and truncated Laplace are (ε, δ(ε))-DP with δ exact. `None` for the
/// exponential mechanism (a selection, whose ε the lab states as it draws) and where no noise fits.
pub fn statement_guarantee(p: &MechParams, noise: Option<&Noise>) -> Option<Guarantee> {
    let (entry, eps, delta) = match noise? {
        Noise::Laplace(l) => {
            let eps = p.sens / l.scale();
            (Entry::Laplace { eps }, eps, 0.0)
        }
        Noise::Gaussian(g) => (
            Entry::Gaussian {
                sigma: g.sigma() / p.sens,
            },
            p.eps,
            g.delta(p.eps),
        ),
        Noise::TruncatedLaplace(t) => {
            let delta = t.delta(p.eps);
            (Entry::Raw { eps: p.eps, delta }, p.eps, delta)
        }
    };
    (p.mech != Mechanism::Exponential).then(|| Guarantee {
        event: Event::List(vec![Item { entry, times: 1 }]),
        accountant: Accountant::ExactProfile,
        side: Side::Upper,
        assumes: Sampler::Poisson,
        delta,
        eps,
    })
}

/// The mechanism in words, for a statement.
pub fn statement_facts(p: &MechParams, noise: Option<&Noise>, link: &str) -> RunFacts {
    let sens = sig(p.sens, 4);
    RunFacts {
        lab: "mechanisms".into(),
        link: link.into(),
        mechanism: noise.map(|n| match n {
            Noise::Laplace(l) => format!(
                "one answer to a query of sensitivity Δ = {sens} with Laplace noise of scale {}",
                sig(l.scale(), 6)
            ),
            Noise::Gaussian(g) => format!(
                "one answer to a query of L2 sensitivity Δ = {sens} with Gaussian noise of standard \
                 deviation {} (noise multiplier σ/Δ = {})",
                sig(g.sigma(), 6),
                sig(g.sigma() / p.sens, 6)
            ),
            Noise::TruncatedLaplace(t) => format!(
                "one answer to a query of sensitivity Δ = {sens} with truncated Laplace noise, never \
                 beyond ±{}",
                sig(t.bound(), 6)
            ),
        }),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::mechanisms::{calibrate, noise};
    use crate::link::query::{LinkParams, Query};

    /// The number after `marker` as the page's reader reads it (`1.5×10⁻⁷` included).
    fn after(text: &str, marker: &str) -> f64 {
        text.split(marker)
            .nth(1)
            .and_then(crate::link::format::read_shown)
            .unwrap_or(f64::NAN)
    }

    /// Each mechanism's default and a few heavy links: the stated ε or δ reads back at or above its
    /// value.
    #[test]
    fn the_headline_never_understates_the_privacy_loss() {
        for link in [
            "mech=laplace",
            "mech=laplace&eps=0.3&sens=7",
            "mech=gaussian",
            "mech=gaussian&eps=0.1&delta=1e-12&sigma=3.3",
            "mech=tlap&eps=2&delta=1e-7",
        ] {
            let p = MechParams::from_query(&Query::parse(link)).0;
            let cal = calibrate(&p).unwrap();
            let n = noise(&p, &cal).unwrap();
            let text = headline(&p, n.as_ref(), None, None);
            let (shown, value) = match n.as_ref().unwrap() {
                Noise::Laplace(l) => (after(&text, "makes the answer "), p.sens / l.scale()),
                Noise::Gaussian(g) => (after(&text, "δ = "), g.delta(p.eps)),
                Noise::TruncatedLaplace(t) => (after(&text, "δ = "), t.delta(p.eps)),
            };
            assert!(shown >= value, "{link}: {shown} below {value} in {text}");
        }
    }
}
