//! The figures' data: Figure 1's curves and Table 1, Figure 3's curves, and the share panel's Markdown.

use super::{clip_key, pairs_key, Figure, Panel, WdpParams, ORDER_POINTS};
use crate::link::embed::markdown_table;
use crate::link::format::sig6 as sig;
use crate::link::query::fmt_f64;
use crate::wdp::mechanisms::{dp_laplace, rdp_gauss, rdp_laplace, wdp_gauss, wdp_laplace};
use crate::wdp::synthetic::QUANTILES;
use crate::wdp::tail;

/// Figure 1's order grid: [`ORDER_POINTS`] evenly spaced real orders from `lo` to `hi` inclusive.
pub fn order_grid(lo: f64, hi: f64) -> Vec<f64> {
    let n = ORDER_POINTS - 1;
    (0..=n)
        .map(|i| lo + (hi - lo) * i as f64 / n as f64)
        .collect()
}

/// One panel of Figure 1: for each scale, (order, ε) on the grid.
pub fn fig1_curves(p: &WdpParams, panel: Panel) -> Vec<(f64, Vec<(f64, f64)>)> {
    let grid = order_grid(p.order_min, p.order_max);
    p.scales
        .iter()
        .map(|&s| {
            (
                s,
                grid.iter()
                    .map(|&o| (o, panel.value(o, s, p.sens)))
                    .collect(),
            )
        })
        .collect()
}

/// Table 1 for the chosen scale, sensitivity and order: (row, Laplace, Gaussian).
pub fn table1(p: &WdpParams) -> Vec<(String, String, String)> {
    let (s, d, o) = (p.scale, p.sens, p.order);
    vec![
        ("DP (ε)".into(), sig(dp_laplace(s, d)), "∞".into()),
        (
            format!("RDP, α = {}", fmt_f64(o)),
            sig(rdp_laplace(o, s, d)),
            sig(rdp_gauss(o, s, d)),
        ),
        (
            format!("WDP, μ = {} (as stated in the paper)", fmt_f64(o)),
            sig(wdp_laplace(o, s, d)),
            sig(wdp_gauss(o, s, d)),
        ),
        (
            "W_μ(M(D), M(D′)) exactly: a shift by Δ".into(),
            sig(d),
            sig(d),
        ),
    ]
}

/// Figure 3(a): for each δ in {1e-10, 1e-8, 1e-5, 1e-3}, (β, ε) for β = 1, …, 50.
pub fn fig3_by_beta(w: f64) -> Vec<(f64, Vec<(f64, f64)>)> {
    [1e-10, 1e-8, 1e-5, 1e-3]
        .into_iter()
        .map(|delta| {
            (
                delta,
                (1..=50)
                    .map(|b| (b as f64, tail::epsilon(w, b as f64, delta)))
                    .collect(),
            )
        })
        .collect()
}

/// Figure 3(b): for each β in {1, 2, 5, 10}, (δ, ε) on 101 log-spaced δ from 1e-10 to 1e-5.
pub fn fig3_by_delta(w: f64) -> Vec<(f64, Vec<(f64, f64)>)> {
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|beta| {
            let pts = (0..=100)
                .map(|i| {
                    let delta = 10f64.powf(-10.0 + 5.0 * i as f64 / 100.0);
                    (delta, tail::epsilon(w, beta, delta))
                })
                .collect();
            (beta, pts)
        })
        .collect()
}

/// The share panel's Markdown for the figure shown; `fig2` is (DP, BDP, WDP) final ε when a run is done.
pub fn markdown(p: &WdpParams, fig2: Option<(f64, f64, f64)>) -> String {
    let mut rows = vec![("figure".to_string(), p.fig.title().to_string())];
    match p.fig {
        Figure::Mechanisms => {
            rows.push(("Δ".into(), fmt_f64(p.sens)));
            for (name, lap, gauss) in table1(p) {
                rows.push((
                    format!("{name}, λ = σ = {}", fmt_f64(p.scale)),
                    format!("Laplace {lap}; Gaussian {gauss}"),
                ));
            }
        }
        Figure::Accountants => {
            rows.push(("seed".into(), p.seed.to_string()));
            rows.push(("clipping quantile".into(), fmt_f64(QUANTILES[p.quantile])));
            rows.push(("gradients clipped".into(), clip_key(p.clip).into()));
            rows.push(("WDP pair rule".into(), pairs_key(p.pairs).into()));
            let (dp, bdp, wdp) = match fig2 {
                Some((a, b, c)) => (sig(a), sig(b), sig(c)),
                None => (
                    "(computing)".into(),
                    "(computing)".into(),
                    "(computing)".into(),
                ),
            };
            rows.push(("ε after 100 steps, moments accountant (DP)".into(), dp));
            rows.push(("ε after 100 steps, Bayesian accountant (BDP)".into(), bdp));
            rows.push((
                "ε after 100 steps, Wasserstein accountant (WDP)".into(),
                wdp,
            ));
        }
        Figure::BetaDelta => {
            rows.push((
                "W, β, δ".into(),
                format!(
                    "{}, {}, {}",
                    fmt_f64(p.w),
                    fmt_f64(p.beta),
                    fmt_f64(p.delta)
                ),
            ));
            rows.push(("ε = W − (ln δ)/β".into(), sig(p.fig3_value())));
        }
    }
    markdown_table(
        ("Wasserstein DP (Yang, Qi & Zhou, AAAI 2024)", "value"),
        &rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_and_figure_three() {
        let g = order_grid(1.0, 10.0);
        assert_eq!((g.len(), g[0], g[99]), (100, 1.0, 10.0));
        let p = WdpParams::default();
        let curves = fig1_curves(&p, Panel::RdpLaplace);
        assert_eq!(curves.len(), 4);
        assert!(curves
            .iter()
            .all(|(_, pts)| pts.iter().all(|(_, e)| e.is_finite())));
        let a = fig3_by_beta(10.0);
        assert!((a[0].1[0].1 - 33.025851).abs() < 5e-7);
        let b = fig3_by_delta(10.0);
        assert!((b[0].1[100].1 - 21.512925).abs() < 5e-7);
        assert!((p.fig3_value() - 21.512925).abs() < 5e-7);
        assert!(markdown(&p, None).contains("Figure 1"));
    }
}
