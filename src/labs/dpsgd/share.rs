//! The DP-SGD lab's share texts: the key numbers as Markdown, and the Python that checks them. Every ε
//! row is a [`Guarantee`]'s, rounded outward, naming its accountant, side and sampler.

use super::claims::poisson_guarantee;
use super::DpsgdParams;
use crate::accounting::event::Neighbour;
use crate::accounting::guarantee::{sampler_assumption, Accountant, Guarantee, Side};
use crate::accounting::pld::EpsilonBand;
use crate::accounting::samplers::{Sampler, SamplerEpsilon};
use crate::accounting::training::RdpReport;
use crate::link::format::{sig6, sig_up};
use crate::link::query::fmt_f64;

/// Digits of the Markdown's numbers.
const DIGITS: usize = 6;

/// What the share panel reads: the link, the RDP report, and what the background jobs have found.
#[derive(Debug, Clone, Copy)]
pub struct ShareInputs<'a> {
    /// The link's parameters.
    pub params: &'a DpsgdParams,
    /// The RDP accountant's report.
    pub rdp: &'a RdpReport,
    /// The PLD's band, once composed.
    pub pld: Option<EpsilonBand>,
    /// σ for the target by RDP (dp_accounting's orders), once found.
    pub sigma_target: Option<f64>,
    /// σ for the target by the PLD, once found.
    pub sigma_target_pld: Option<f64>,
    /// The link's sampler's own ε, when it is not Poisson and has been computed.
    pub own: Option<&'a SamplerEpsilon>,
}

/// The key numbers as a Markdown table: the run, then each ε as its guarantee states it.
pub fn markdown(s: &ShareInputs) -> String {
    let p = s.params;
    let event = p.event();
    let computing = || "(computing)".to_string();
    let row = |g: Option<Guarantee>| {
        g.map_or_else(computing, |g| {
            let text = g.inequality(DIGITS);
            match g.condition() {
                Some(c) if g.side == Side::Upper => format!("{text}: {c}"),
                _ => text,
            }
        })
    };
    let poisson = |accountant, side, eps: Option<f64>| {
        eps.map(|e| Guarantee::poisson(&event, accountant, side, p.delta, e))
    };
    let mut rows = vec![
        (
            "n, batch, q".to_string(),
            format!("{}, {}, {}", p.n, p.batch, sig6(p.rate())),
        ),
        (
            "noise multiplier σ (noise std / clipping norm)".into(),
            fmt_f64(p.sigma),
        ),
        (
            "neighbouring relation".into(),
            p.neighbour.in_words().into(),
        ),
        ("batches".into(), sampler_assumption(p.sampler)),
        ("steps T".into(), p.total_steps().to_string()),
        ("δ".into(), fmt_f64(p.delta)),
    ];
    if p.sampler != Sampler::Poisson {
        rows.push((
            format!(
                "ε, {} (the sampler's own accountant)",
                sampler_assumption(p.sampler)
            ),
            s.own.map_or_else(computing, |o| {
                let g = Guarantee::from_sampler(&event, o, p.delta);
                match g.side {
                    Side::Upper => format!("{} (certified upper bound)", g.inequality(DIGITS)),
                    _ => format!(
                        "{} (lower bound; no certified upper bound is known)",
                        g.inequality(DIGITS)
                    ),
                }
            }),
        ));
    }
    rows.extend([
        (
            "ε, PLD accountant (certified upper bound, Poisson sampling)".to_string(),
            row(poisson(
                Accountant::Pld,
                Side::Upper,
                s.pld.map(|b| b.upper),
            )),
        ),
        (
            "ε, PLD accountant (lower bound, Poisson sampling)".into(),
            row(poisson(
                Accountant::Pld,
                Side::Lower,
                s.pld.map(|b| b.lower),
            )),
        ),
        (
            "ε, RDP on dp_accounting's orders (what the snippet prints)".into(),
            row(poisson(
                Accountant::RdpDpAccounting,
                Side::Upper,
                Some(s.rdp.eps_grid),
            )),
        ),
        (
            "ε, RDP over every real order (this playground's, tighter)".into(),
            row(poisson(
                Accountant::RdpEveryOrder,
                Side::Upper,
                Some(s.rdp.eps),
            )),
        ),
        (
            format!("σ for ε = {} (RDP, rounded up)", fmt_f64(p.target_eps)),
            s.sigma_target.map_or_else(computing, |x| sig_up(x, DIGITS)),
        ),
        (
            format!("σ for ε = {} (PLD, rounded up)", fmt_f64(p.target_eps)),
            s.sigma_target_pld
                .map_or_else(computing, |x| sig_up(x, DIGITS)),
        ),
    ]);
    crate::link::embed::markdown_table(("DP-SGD", "value"), &rows)
}

/// Python that recomputes both ε with Google's dp_accounting, and σ for the target with Opacus; each
/// line says which of the page's numbers it reproduces, and what it does not certify.
pub fn library_snippet(p: &DpsgdParams, rdp: Option<&RdpReport>) -> String {
    let (times_two, replace_note) = if p.neighbour == Neighbour::ReplaceOne {
        (
            " * 2",
            "  # replace-one: twice the add/remove σ\n# Under replace-one these use the σ/2 pair, \
             which dominates; the page also bounds removing,\n# then adding a record at σ, and \
             shows the smaller (tighter) ε and σ.",
        )
    } else {
        ("", "")
    };
    let pld = poisson_guarantee(p, rdp, None);
    let warning = match pld.as_ref().and_then(Guarantee::condition) {
        Some(c) => format!(
            "# These accountants assume Poisson sampling, one record per user, one phase, no tuning.\n\
             # Their ε {c}: it is NOT a guarantee for this run.\n"
        ),
        None => String::new(),
    };
    let rdp_line = rdp.map_or(String::new(), |r| {
        format!(
            "  # RdpAccountant prints the page's \"RDP on dp_accounting's orders\" ε ≈ {}",
            sig6(r.eps_grid)
        )
    });
    format!(
        "# pip install dp-accounting==0.6.0 opacus\n{warning}import dp_accounting\n\
         event = dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({s})), {t})\n\
         for acc in (dp_accounting.rdp.RdpAccountant(), dp_accounting.pld.PLDAccountant()):{rdp_line}\n    acc.compose(event)\n    print(type(acc).__name__, acc.get_epsilon({d}))  # PLDAccountant: within the page's PLD band\n\
         from opacus.accountants.utils import get_noise_multiplier\n\
         print(get_noise_multiplier(target_epsilon={e}, target_delta={d}, sample_rate={q}, steps={t}, accountant='rdp'){times_two}){replace_note}",
        q = fmt_f64(p.rate()),
        s = fmt_f64(p.sigma / p.neighbour.factor()),
        t = p.total_steps(),
        d = fmt_f64(p.delta),
        e = fmt_f64(p.target_eps),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::training::rdp_report;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn the_python_snippet_closes_every_bracket_outside_its_comments() {
        for link in ["", "neighbour=replace-one", "sampler=shuffle"] {
            let p = DpsgdParams::from_query(&Query::parse(link)).0;
            let rdp = rdp_report(&p.event(), p.delta).unwrap();
            let snippet = library_snippet(&p, Some(&rdp));
            let code: String = snippet
                .lines()
                .map(|l| l.split('#').next().unwrap_or(""))
                .collect();
            let depth = code.chars().try_fold(0i32, |d, c| match c {
                '(' => Some(d + 1),
                ')' => (d > 0).then(|| d - 1),
                _ => Some(d),
            });
            assert_eq!(depth, Some(0), "{link}: {snippet}");
        }
    }
}
