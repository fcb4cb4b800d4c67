//! What the composition lab says about its numbers: the headline, rendered from a [`Guarantee`] on the
//! list, rounded outward.

use crate::accounting::composed::Accountants;
use crate::accounting::entry::Item;
use crate::accounting::guarantee::{Accountant, Event, Guarantee, Side, HEADLINE_DIGITS};
use crate::accounting::pld::EpsilonBand;
use crate::link::format::sig;

/// Where the composed PLD is: still composing (`None`), composed (with why it gives no finite ε at
/// the link's δ, when it gives none), or failed.
pub type PldState = Option<Result<Option<String>, String>>;

/// The list's best certified ε at `delta`: the PLD's upper end once finite, else the tightest
/// closed-form accountant's; `None` when no accountant gives a finite ε.
pub fn guarantee(
    items: &[Item],
    acc: &Accountants,
    band: Option<EpsilonBand>,
    delta: f64,
) -> Option<Guarantee> {
    let (accountant, eps) = match band {
        Some(b) if b.upper.is_finite() => (Accountant::Pld, b.upper),
        _ => (
            Accountant::BestClosedForm,
            [
                Some(acc.basic),
                acc.advanced,
                acc.optimal,
                acc.rdp.map(|r| r.0),
                acc.zcdp,
            ]
            .into_iter()
            .flatten()
            .filter(|e| e.is_finite())
            .fold(f64::INFINITY, f64::min),
        ),
    };
    eps.is_finite().then(|| Guarantee {
        event: Event::List(items.to_vec()),
        accountant,
        side: Side::Upper,
        assumes: crate::accounting::samplers::Sampler::Poisson,
        delta,
        eps,
    })
}

/// What the composition lab knows beyond the list, for a statement: only its link.
pub fn statement_facts(link: &str) -> crate::statement::RunFacts {
    crate::statement::RunFacts {
        lab: "compose".into(),
        link: link.into(),
        ..Default::default()
    }
}

/// The headline: the list's certified ε at δ and which accountant gave it, or why there is none.
pub fn headline(
    items: &[Item],
    acc: &Accountants,
    band: Option<EpsilonBand>,
    pld: &PldState,
    delta: f64,
) -> String {
    let pld_words = match pld {
        None => "the PLD is still composing".to_string(),
        Some(Ok(Some(why))) => why.clone(),
        Some(Ok(None)) => "the PLD's bound is not finite".to_string(),
        Some(Err(e)) => format!("the PLD failed: {e}"),
    };
    match guarantee(items, acc, band, delta) {
        Some(g) => {
            let how = match g.accountant {
                Accountant::Pld => "the PLD's certified upper bound".to_string(),
                _ => format!("the best closed-form accountant; {pld_words}"),
            };
            format!(
                "The whole list costs {} at δ = {} ({how}).",
                g.inequality(HEADLINE_DIGITS),
                sig(delta, 3)
            )
        }
        // No accountant has a finite ε: the headline says why rather than "ε ≤ ∞".
        None => match pld {
            Some(Ok(Some(why))) => format!("The whole list has no finite ε: {why}."),
            _ => format!(
                "The whole list has no finite ε at δ = {} ({pld_words}).",
                sig(delta, 3)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::composed::{accountants, ComposedPld};
    use crate::accounting::entry::parse_list;

    /// The default and heavy links: the shown ε reads back at or above the value it states, before
    /// and after the PLD composes.
    #[test]
    fn the_headline_rounds_up_and_names_its_accountant() {
        for (list, delta) in [
            ("gauss:3*10,lap:0.2*5", 1e-5),
            ("lap:0.01*100000", 1e-5),
            ("gauss:1.3*7,rr:0.9:3*4", 1e-7),
        ] {
            let items = parse_list(list).unwrap();
            let acc = accountants(&items, delta);
            let band = ComposedPld::new(&items).unwrap().band(delta);
            for (b, state) in [(None, None), (Some(band), Some(Ok(None)))] {
                let text = headline(&items, &acc, b, &state, delta);
                let g = guarantee(&items, &acc, b, delta).unwrap();
                let shown: f64 = text
                    .split("ε ≤ ")
                    .nth(1)
                    .and_then(crate::link::format::read_shown)
                    .unwrap_or(f64::NAN);
                assert!(shown >= g.eps, "{list}: {shown} below {}: {text}", g.eps);
                let named = if b.is_some() { "PLD" } else { "closed-form" };
                assert!(text.contains(named), "{text}");
            }
        }
        let items = parse_list("dp:1:0.001*20").unwrap();
        let acc = accountants(&items, 1e-5);
        let why = Some(Ok(Some(
            "the dp: entries' δ compose to more than δ".to_string(),
        )));
        assert!(
            headline(&items, &acc, None, &why, 1e-5).starts_with("The whole list has no finite ε")
        );
    }
}
