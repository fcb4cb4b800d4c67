//! The composition lab's results: the list, every accountant's ε at the link's δ beside the PLD's,
//! the PLD band, and ε against δ.

use crate::charts::specs::compose as specs;
use crate::format::{exact, sig};
use crate::labs::compose::use_compose;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::entry::format_list;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::pld::MIN_DELTA;
use dp_playground::labs::compose::Accountants;
use leptos::prelude::*;

/// Every accountant's ε, the band and the charts.
#[component]
pub fn ComposeResults() -> impl IntoView {
    let url = use_url();
    let lab = use_compose();
    let (params, acc, pld) = (lab.params, lab.acc, lab.pld);
    let pld_eps = Signal::derive(move || lab.link_band.get().map_or(f64::NAN, |b| b.upper));
    let pld_lower = Signal::derive(move || lab.link_band.get().map_or(f64::NAN, |b| b.lower));
    let band = Signal::derive(move || {
        lab.link_band
            .get()
            .filter(|b| b.upper.is_finite() || b.upper.is_infinite())
    });
    let pld_ms = Signal::derive(move || {
        pld.with(|p| {
            p.as_ref()
                .and_then(|r| r.as_ref().ok())
                .map_or(f64::NAN, |x| x.1)
        })
    });
    let chart = Memo::new(move |_| {
        let list = params.with(|p| p.list.clone());
        let delta = params.with(|p| p.delta);
        pld.with(|p| {
            let composed = p.as_ref().and_then(|r| r.as_ref().ok()).map(|(c, _)| c);
            Some(specs::eps_delta_chart(&list, composed, delta))
        })
    });
    let order_chart =
        Memo::new(move |_| acc.with(|a| specs::order_chart(a, params.with(|p| p.delta))));
    let value = move |f: fn(&Accountants) -> Option<f64>| {
        Signal::derive(move || acc.with(|a| f(a).unwrap_or(f64::NAN)))
    };
    let overshoot = move |v: f64| {
        let p = pld_eps.get();
        if v.is_finite() && p.is_finite() && p > 0.0 {
            let pct = 100.0 * (v / p - 1.0);
            let sign = if pct < 0.0 { "−" } else { "+" };
            format!("{sign}{}% vs PLD", sig(pct.abs(), 3))
        } else {
            String::new()
        }
    };
    let remove = move |i: usize| {
        let mut list = params.get_untracked().list;
        // A row's button may outlive its row by a frame (the list changed): never remove out of bounds.
        if list.len() > 1 && i < list.len() {
            list.remove(i);
            url.commit_set("list", format_list(&list));
        }
    };
    let rows: [(&str, &str, Signal<f64>, &str); 8] = [
        (
            "basic (sums)",
            "compose-eps-basic",
            value(|a| Some(a.basic)),
            "Dwork et al. 2006; each approximate mechanism gets an equal share of δ",
        ),
        (
            "advanced",
            "compose-eps-advanced",
            value(|a| a.advanced),
            "Dwork, Rothblum & Vadhan 2010; δ/2 for the mechanisms, δ/2 slack",
        ),
        (
            "optimal, k identical",
            "compose-eps-optimal",
            value(|a| a.optimal),
            "Kairouz, Oh & Viswanath 2015, Thm 3.3, exact for any k; one entry only",
        ),
        (
            "RDP (improved conversion)",
            "compose-eps-rdp",
            value(|a| a.rdp.map(|x| x.0)),
            "Mironov 2017; Canonne, Kamath & Steinke 2020; every real order, fractional subsampled-Gaussian orders by integration; n/a with δ > 0 entries",
        ),
        (
            "RDP, dp_accounting's orders",
            "compose-eps-rdp-grid",
            value(|a| a.rdp_grid.map(|x| x.0)),
            "the same on dp_accounting's grid (1.1 … 10.9, 11 … 63, 128 … 1024) with its fractional-order series",
        ),
        (
            "zCDP",
            "compose-eps-zcdp",
            value(|a| a.zcdp),
            "Bun & Steinke 2016; Gaussian and pure entries only",
        ),
        (
            "PLD, certified upper (tight reference)",
            "compose-eps-pld",
            pld_eps,
            "connect-the-dots PLD composed by FFT; never below the true ε",
        ),
        (
            "PLD, lower bound",
            "compose-eps-pld-lower",
            pld_lower,
            "chords lowered below the profile; the exact ε is at least this (to ~1e-8 relative)",
        ),
    ];
    view! {
    <div class="table-wrap" tabindex="0">
                <table class="results-table calibration" data-testid="compose-list">
                    <caption>"The list"</caption>
                    <thead><tr><th scope="col">"mechanism"</th><th scope="col">"times"</th><th scope="col"><span class="visually-hidden">"remove"</span></th></tr></thead>
                    <tbody>
                        {move || params.get().list.into_iter().enumerate().map(|(i, it)| view! {
                            <tr>
                                <th scope="row">{it.entry.describe()}</th>
                                <td>{it.times}</td>
                                <td><button type="button" class="small" aria-label=format!("Remove {} (×{})", it.entry.describe(), it.times) data-testid=format!("compose-remove-{i}")
                                    disabled=move || url.options.with(|o| o.locked) on:click=move |_| remove(i)>"×"</button></td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="table-wrap" tabindex="0">
                <table class="results-table calibration" data-testid="compose-table">
                    <caption>{move || format!("ε of the whole list at δ = {}", sig(params.with(|p| p.delta), 3))}</caption>
                    <thead><tr><th scope="col">"accountant"</th><th scope="col">"ε"</th><th scope="col">"overshoot"</th><th scope="col">"source"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(name, id, v, note)| view! {
                            <tr>
                                <th scope="row">{name}</th>
                                <td data-testid=id data-value=move || exact(v.get())>{move || if v.get().is_nan() { "n/a".to_string() } else { sig(v.get(), 5) }}</td>
                                <td>{move || overshoot(v.get())}</td>
                                <td>{note}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="stats">
                <Stat label="best RDP order" testid="compose-best-order" value=value(|a| a.rdp.map(|x| x.1)) />
                <Stat label="ε, RDP classical conversion" testid="compose-eps-rdp-classical" side=Side::Upper value=value(|a| a.rdp_classical) />
            </div>
            <Diagnostics>
                <Stat label="PLD computed in (ms)" testid="compose-pld-ms" value=pld_ms digits=3 />
            </Diagnostics>
            <crate::widgets::pld_band::PldBand band=band prefix="compose" look_for="Look at the band's width: when narrow, the certified ε is almost the exact one; when wide, a finer grid may tighten it." gap=Signal::derive(move || params.with(|p| p.band_gap())) />
            {move || (params.with(|p| p.delta) < MIN_DELTA).then(|| view! {
                <p class="notices" role="note" data-testid="compose-pld-floor">
                    "The PLD accountant reports no ε below δ = 1e-10: its FFT's rounding noise (about 1e-16 per grid point) could exceed δ there. The other accountants still apply."
                </p>
            })}
            <p class="status" role="status" data-testid="compose-status">{move || if pld.with(Option::is_none) { "PLD accountant: composing…" } else { "" }}</p>
            {move || pld.get().and_then(|r| r.err()).map(|e| view! { <p class="notices" role="alert">{e}</p> })}
            <p class="help">
                <a data-testid="compose-attack-link" target=url.other_lab_target() rel="noopener" href=move || url.href_to(&params.with(|p| dp_playground::link::handoff::attack_link_for_list(&p.list, p.delta).to_query_string()))>
                    "What does this mean for an attacker? →"
                </a>
            </p>
            // Below the fold: built once the first frame is painted.
            <AfterPaint>
                <XyCanvas testid="compose-chart" look_for="Compare the accountants at the marked δ: all give valid upper bounds, so the lowest curve is the ε to report, usually the PLD's." title="ε against δ, every accountant"
                    alt=Signal::derive(move || format!("At the link's δ the PLD gives ε = {} and basic composition {}.", sig(pld_eps.get(), 4), sig(value(|a| Some(a.basic)).get(), 4)))
                    chart=chart csv_name="compose-eps-by-delta.csv" height=340.0 />
                <XyCanvas testid="compose-chart-orders" look_for="Notice the trade-off: low orders pay a large ln(1/δ)/(α − 1) conversion term, high orders a larger Rényi divergence." title="RDP: which order gives the best ε"
                    alt=Signal::derive(move || format!("The RDP conversion is best at order {}.", sig(value(|a| a.rdp.map(|x| x.1)).get(), 3)))
                    chart=order_chart csv_name="compose-rdp-orders.csv" height=280.0 />
            </AfterPaint>
    }
}
