//! The composition workbench (`?lab=compose`): a list of mechanisms from the link, every accountant's ε
//! at the link's δ side by side (the PLD accountant in the background), and ε against δ.

use crate::charts::specs::compose as specs;
use crate::format::{exact, sig};
use crate::platform::browser::now_ms;
use crate::platform::pool::LabJobs;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::lab_page::LabPage;
use crate::widgets::number_field::NumberField;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::entry::{format_list, parse_list};
use dp_playground::accounting::pld::MIN_DELTA;
use dp_playground::jobs::{Job, Update as JobUpdate};
use dp_playground::labs::compose::{accountants, Accountants, ComposeParams, ComposedPld};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use leptos::prelude::*;

/// Entries the "add" buttons append.
const ADD: [(&str, &str); 8] = [
    ("Gaussian σ = 2, ×10", "gauss:2*10"),
    ("Laplace ε = 0.5", "lap:0.5*1"),
    ("Randomized response ε = 1", "rr:1*1"),
    ("4-ary randomized response ε = 1, ×10", "rr:1:4*10"),
    (
        "Subsampled Gaussian q = 0.01, σ = 1, ×1000",
        "sgauss:0.01:1*1000",
    ),
    ("(ε, δ) = (0.5, 1e-6)", "dp:0.5:0.000001*1"),
    (
        "ε = 1 on a 10% subsample (without replacement)",
        "wor:0.1:1:0*1",
    ),
    (
        "Gaussian σ = 1 on a 10% subsample, ×10",
        "wor:0.1:gauss:1*10",
    ),
];

/// The pool's name for this lab's jobs.
const GROUP: &str = "compose";

/// The composition lab.
#[component]
pub fn ComposeLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| ComposeParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let error_for = move |key: &'static str| crate::widgets::notices::notice_for(notices, key);
    let acc = Memo::new(move |_| params.with(|p| accountants(&p.list, p.delta)));
    let list_only = Memo::new(move |_| params.with(|p| (p.list.clone(), p.grid)));
    let pld = RwSignal::new(None::<Result<(ComposedPld, f64), String>>);
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let (list, grid) = list_only.get();
        let start = now_ms();
        jobs.show_latest(Some(Job::ComposePld(list, grid)), pld, move |u| match u {
            JobUpdate::ComposedPld(r) => {
                Some(r.map(|c| (*c, now_ms() - start)).map_err(|e| e.to_string()))
            }
            _ => None,
        });
    });
    // Both sides at the link's δ, once per change (each side is a walk down every PLD).
    let link_band = Memo::new(move |_| {
        pld.with(|p| match p {
            Some(Ok((c, _))) => Some(c.band(params.with(|p| p.delta))),
            _ => None,
        })
    });
    let pld_eps = Signal::derive(move || link_band.get().map_or(f64::NAN, |b| b.upper));
    let pld_lower = Signal::derive(move || link_band.get().map_or(f64::NAN, |b| b.lower));
    let band = Signal::derive(move || {
        link_band
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
        let list = list_only.get().0;
        let delta = params.with(|p| p.delta);
        pld.with(|p| {
            let composed = p.as_ref().and_then(|r| r.as_ref().ok()).map(|(c, _)| c);
            Some(specs::eps_delta_chart(&list, composed, delta))
        })
    });
    let order_chart = Memo::new(move |_| acc.with(specs::order_chart));
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
        if list.len() > 1 {
            list.remove(i);
            url.set("list", format_list(&list));
        }
    };
    let add = move |entry: &'static str| {
        let mut text = format_list(&params.get_untracked().list);
        if parse_list(&format!("{text},{entry}")).is_ok() {
            text = format!("{text},{entry}");
            url.set("list", text);
        }
    };
    let markdown = Signal::derive(move || {
        let a = acc.get();
        let rows = vec![
            ("mechanisms".to_string(), format_list(&params.get().list)),
            ("δ".into(), exact(params.get().delta)),
            ("ε basic".into(), sig(a.basic, 6)),
            (
                "ε advanced".into(),
                a.advanced.map_or("n/a".into(), |e| sig(e, 6)),
            ),
            (
                "ε optimal (homogeneous)".into(),
                a.optimal.map_or("n/a".into(), |e| sig(e, 6)),
            ),
            ("ε RDP".into(), a.rdp.map_or("n/a".into(), |e| sig(e.0, 6))),
            ("ε zCDP".into(), a.zcdp.map_or("n/a".into(), |e| sig(e, 6))),
            ("ε PLD (certified upper)".into(), sig(pld_eps.get(), 6)),
            ("ε PLD (lower bound)".into(), sig(pld_lower.get(), 6)),
        ];
        dp_playground::link::embed::markdown_table(("composition", "ε"), &rows)
    });
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
        <LabPage heading_id="compose-title" title="Composition: what does running them all cost?"
            intro=|| view! {
                <p>
                    "Build a list of mechanisms, each repeated. Every accountant bounds the privacy of the whole "
                    "list at the same δ; the privacy loss distribution (PLD) is the tight reference, and the "
                    "table shows how far the others overshoot it."
                </p>
            }
            controls=move || view! {
                <h3>"Mechanisms"</h3>
                <NumberField label="List" key="list" value=url.raw_or("list", move || format_list(&params.get().list))
                    error=error_for("list") help="kind:parameters*times, comma-separated: lap:ε, gauss:σ, rr:ε (rr:ε:K for K answers), sgauss:q:σ, dp:ε:δ; wor:rate:ε:δ or wor:rate:lap:ε, wor:rate:gauss:σ to subsample without replacement." />
                <div class="presets" role="group" aria-label="Add a mechanism" hidden=move || url.options.with(|o| o.locked || !o.shows("list"))>
                    {ADD.into_iter().map(|(label, entry)| view! { <button type="button" class="small" on:click=move |_| add(entry)>"+ "{label}</button> }).collect_view()}
                </div>
                <NumberField label="δ" key="delta" value=url.raw_or("delta", move || exact(params.get().delta))
                    error=error_for("delta") help="Every accountant reports ε at this δ." />
            }
        >
            <div class="table-wrap">
                <table class="results-table calibration" data-testid="compose-list">
                    <caption>"The list"</caption>
                    <thead><tr><th scope="col">"mechanism"</th><th scope="col">"times"</th><th scope="col">""</th></tr></thead>
                    <tbody>
                        {move || params.get().list.into_iter().enumerate().map(|(i, it)| view! {
                            <tr>
                                <th scope="row">{it.entry.describe()}</th>
                                <td>{it.times}</td>
                                <td><button type="button" class="small" aria-label="Remove" data-testid=format!("compose-remove-{i}")
                                    disabled=move || url.options.with(|o| o.locked) on:click=move |_| remove(i)>"×"</button></td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="table-wrap">
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
                <Stat label="ε, RDP classical conversion" testid="compose-eps-rdp-classical" value=value(|a| a.rdp_classical) />
                <Stat label="PLD computed in (ms)" testid="compose-pld-ms" value=pld_ms digits=3 />
            </div>
            <crate::widgets::pld_band::PldBand band=band prefix="compose" />
            {move || (params.with(|p| p.delta) < MIN_DELTA).then(|| view! {
                <p class="notices" role="note" data-testid="compose-pld-floor">
                    "The PLD accountant reports no ε below δ = 1e-10: its FFT's rounding noise (about 1e-16 per grid point) could exceed δ there. The other accountants still apply."
                </p>
            })}
            <p class="status" role="status" data-testid="compose-status">{move || if pld.with(Option::is_none) { "PLD accountant: composing…" } else { "" }}</p>
            {move || pld.get().and_then(|r| r.err()).map(|e| view! { <p class="notices" role="alert">{e}</p> })}
            <p class="help">
                <a data-testid="compose-attack-link" href=move || format!("?{}", params.with(|p| dp_playground::labs::attack::params::link_for_list(&p.list, p.delta)))>
                    "What does this mean for an attacker? →"
                </a>
            </p>
            // Below the fold: built once the first frame is painted.
            <AfterPaint>
                <XyCanvas testid="compose-chart" title="ε against δ, every accountant"
                    alt=Signal::derive(move || format!("At the link's δ the PLD gives ε = {} and basic composition {}.", sig(pld_eps.get(), 4), sig(value(|a| Some(a.basic)).get(), 4)))
                    chart=chart csv_name="compose-eps-by-delta.csv" height=340.0 />
                <XyCanvas testid="compose-chart-orders" title="RDP: which order gives the best ε"
                    alt=Signal::derive(move || format!("The RDP conversion is best at order {}.", sig(value(|a| a.rdp.map(|x| x.1)).get(), 3)))
                    chart=order_chart csv_name="compose-rdp-orders.csv" height=280.0 />
            </AfterPaint>
            <AfterPaint frames=2>
                <SharePanel lab=Lab::Compose markdown=markdown />
            </AfterPaint>
        </LabPage>
    }
}
