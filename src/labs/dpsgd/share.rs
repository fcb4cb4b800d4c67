//! The DP-SGD lab's share texts: the key numbers as Markdown, and the Python that checks them.

use super::{DpsgdParams, Neighbour, RdpReport};
use crate::accounting::pld::EpsilonBand;
use crate::link::query::fmt_f64;

/// The key numbers as a Markdown table.
pub fn markdown(
    p: &DpsgdParams,
    rdp: &RdpReport,
    pld: Option<EpsilonBand>,
    sigma_target: Option<f64>,
    sigma_target_pld: Option<f64>,
) -> String {
    let opt = |x: Option<f64>| x.map_or("(computing)".to_string(), crate::labs::rr::share::sig);
    let rows = vec![
        (
            "n, batch, q".to_string(),
            format!(
                "{}, {}, {}",
                p.n,
                p.batch,
                crate::labs::rr::share::sig(p.rate())
            ),
        ),
        (
            "noise multiplier σ (neighbours)".into(),
            format!("{} ({})", fmt_f64(p.sigma), p.neighbour.key()),
        ),
        ("steps T".into(), p.total_steps().to_string()),
        ("δ".into(), fmt_f64(p.delta)),
        (
            "ε, RDP accountant (improved conversion)".into(),
            format!(
                "{} (order {})",
                crate::labs::rr::share::sig(rdp.eps),
                crate::link::format::sig(rdp.best_order, 4)
            ),
        ),
        (
            "ε, PLD accountant (certified upper)".into(),
            opt(pld.map(|b| b.upper)),
        ),
        (
            "ε, PLD accountant (lower bound)".into(),
            opt(pld.map(|b| b.lower)),
        ),
        (
            format!("σ for ε = {} (RDP)", fmt_f64(p.target_eps)),
            opt(sigma_target),
        ),
        (
            format!("σ for ε = {} (PLD)", fmt_f64(p.target_eps)),
            opt(sigma_target_pld),
        ),
    ];
    crate::link::embed::markdown_table(("DP-SGD", "value"), &rows)
}

/// Python that recomputes both ε with Google's dp_accounting, and σ for the target with Opacus.
pub fn library_snippet(p: &DpsgdParams) -> String {
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
    format!(
        "# pip install dp-accounting==0.6.0 opacus\nimport dp_accounting\n\
         event = dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({s})), {t})\n\
         for acc in (dp_accounting.rdp.RdpAccountant(), dp_accounting.pld.PLDAccountant()):\n    acc.compose(event)\n    print(type(acc).__name__, acc.get_epsilon({d}))\n\
         from opacus.accountants.utils import get_noise_multiplier\n\
         print(get_noise_multiplier(target_epsilon={e}, target_delta={d}, sample_rate={q}, steps={t}, accountant='rdp'){times_two}){replace_note}",
        q = fmt_f64(p.rate()),
        s = fmt_f64(p.effective_sigma()),
        t = p.total_steps(),
        d = fmt_f64(p.delta),
        e = fmt_f64(p.target_eps),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn the_python_snippet_closes_every_bracket_outside_its_comments() {
        for link in ["", "neighbour=replace-one"] {
            let snippet = library_snippet(&DpsgdParams::from_query(&Query::parse(link)).0);
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
