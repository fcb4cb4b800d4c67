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
    format!(
        "# pip install dp-accounting==0.6.0 opacus\nimport dp_accounting\n\
         event = dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({s})), {t})\n\
         for acc in (dp_accounting.rdp.RdpAccountant(), dp_accounting.pld.PLDAccountant()):\n    acc.compose(event)\n    print(type(acc).__name__, acc.get_epsilon({d}))\n\
         from opacus.accountants.utils import get_noise_multiplier\n\
         print(get_noise_multiplier(target_epsilon={e}, target_delta={d}, sample_rate={q}, steps={t}, accountant='rdp'){f})",
        q = fmt_f64(p.rate()),
        s = fmt_f64(p.effective_sigma()),
        t = p.total_steps(),
        d = fmt_f64(p.delta),
        e = fmt_f64(p.target_eps),
        f = if p.neighbour == Neighbour::ReplaceOne {
            " * 2  # replace-one: twice the add/remove σ\n# Under replace-one these use the σ/2 pair, which dominates; the page also bounds removing,\n# then adding a record at σ, and shows the smaller (tighter) ε and σ."
        } else {
            ""
        },
    )
}
