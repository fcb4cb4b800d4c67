//! The DP-SGD lab's results: both accountants' ε, σ for the target, the ε-versus-steps and ε(α) charts,
//! and the lecture's three scenarios.

use crate::charts::specs::dpsgd as specs;
use crate::format::sig;
use crate::labs::dpsgd::use_dpsgd;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::slide_note::SlideNote;
use crate::widgets::stat::{Stat, StatGroup};
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::training::jobs::Background;
use dp_playground::labs::dpsgd::{scenario_links, scenarios};
use leptos::prelude::*;

/// Results of the lab.
#[component]
pub fn DpsgdResults() -> impl IntoView {
    let lab = use_dpsgd();
    let url = use_url();
    let rdp = move |f: fn(&dp_playground::accounting::training::RdpReport) -> f64| {
        Signal::derive(move || lab.rdp.with(|r| r.as_ref().map_or(f64::NAN, f)))
    };
    let bg = lab.background;
    let band = move || bg.with(Background::band);
    let pld = Signal::derive(move || band().map_or(f64::NAN, |b| b.upper));
    let pld_lower = Signal::derive(move || band().map_or(f64::NAN, |b| b.lower));
    let sigma_pld = Signal::derive(move || {
        bg.with(|b| {
            b.sigma_for_target_pld
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map_or(f64::NAN, |x| x.0)
        })
    });
    let sigma_pld_ms = Signal::derive(move || {
        bg.with(|b| {
            b.sigma_for_target_pld
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map_or(f64::NAN, |x| x.1)
        })
    });
    let pld_ms = Signal::derive(move || {
        bg.with(|b| {
            b.pld
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map_or(f64::NAN, |x| x.1)
        })
    });
    let sigma_target = Signal::derive(move || {
        bg.with(|b| {
            b.sigma_for_target
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .copied()
                .unwrap_or(f64::NAN)
        })
    });
    let errors = move || bg.with(Background::errors);
    let steps_chart = Memo::new(move |_| {
        lab.rdp.with(|r| {
            r.as_ref().ok().map(|r| {
                bg.with(|b| specs::steps_chart(r, &b.pld_points, lab.params.with(|p| p.delta)))
            })
        })
    });
    let order_chart = Memo::new(move |_| lab.rdp.with(|r| r.as_ref().ok().map(specs::order_chart)));
    // Scenario 3's σ is the worker's σ for the target (RDP), not searched again on the page's thread.
    let scen = Memo::new(move |_| scenarios(&lab.params.get(), sigma_target.get()).ok());
    let scen_value = move |f: fn(&dp_playground::labs::dpsgd::Scenarios) -> f64| {
        Signal::derive(move || scen.with(|s| s.as_ref().map_or(f64::NAN, f)))
    };
    view! {
        {move || lab.rdp.get().err().map(|e| view! { <p class="notices" role="alert">{e}</p> })}
        {move || errors().into_iter().map(|e| view! { <p class="notices" role="alert">{e}</p> }).collect_view()}
        <StatGroup title="Privacy spent: ε at the link's δ">
            <Stat label="ε, PLD accountant (certified upper bound, Poisson sampling)" testid="dpsgd-eps-pld" side=Side::Upper value=pld />
            <Stat label="ε, PLD lower bound (the exact ε is at least this; Poisson sampling)" testid="dpsgd-eps-pld-lower" side=Side::Lower value=pld_lower />
            <Stat label="ε, RDP accountant (Poisson sampling)" testid="dpsgd-eps-rdp" side=Side::Upper value=rdp(|r| r.eps) />
        </StatGroup>
        <StatGroup title="Noise for the target ε">
            <Stat label="σ for the target ε (PLD, certified)" testid="dpsgd-sigma-for-target-pld" side=Side::Upper value=sigma_pld />
            <Stat label="σ for the target ε (RDP, dp_accounting's orders; Opacus' under add/remove)" testid="dpsgd-sigma-for-target" side=Side::Upper value=sigma_target />
            <Stat label="less noise than RDP's σ (%)" testid="dpsgd-sigma-saving" value=Signal::derive(move || 100.0 * (1.0 - sigma_pld.get() / sigma_target.get())) digits=3 />
        </StatGroup>
        <StatGroup title="The run, and the RDP accountant's details">
            <Stat label="sampling rate q" testid="dpsgd-q" value=Signal::derive(move || lab.params.with(|p| p.rate())) />
            <Stat label="steps T" testid="dpsgd-steps" value=Signal::derive(move || lab.params.with(|p| p.total_steps() as f64)) digits=8 />
            <Stat label="best RDP order α (any real order)" testid="dpsgd-best-order" value=rdp(|r| r.best_order) />
            <Stat label="ε, RDP on dp_accounting's orders" testid="dpsgd-eps-rdp-grid" side=Side::Upper value=rdp(|r| r.eps_grid) />
            <Stat label="its best order" testid="dpsgd-best-order-grid" value=rdp(|r| r.best_order_grid) />
            <Stat label="ε, RDP with the classical conversion" testid="dpsgd-eps-rdp-classical" side=Side::Upper value=rdp(|r| r.eps_classical) />
        </StatGroup>
        <Diagnostics>
            <Stat label="RDP computed in (ms)" testid="dpsgd-rdp-ms" value=Signal::derive(move || lab.rdp_ms.get()) digits=3 />
            <Stat label="PLD computed in (ms)" testid="dpsgd-pld-ms" value=pld_ms digits=3 />
            <Stat label="σ by PLD computed in (ms)" testid="dpsgd-sigma-pld-ms" value=sigma_pld_ms digits=3 />
        </Diagnostics>
        <crate::widgets::pld_band::PldBand band=Signal::derive(band) prefix="dpsgd" look_for="Look at the band's width: when narrow, the certified ε is almost the exact one; when wide, a finer grid may tighten it." gap=Signal::derive(move || lab.params.with(|p| p.band_gap())) />
        <p class="status" role="status" data-testid="dpsgd-status">{move || bg.with(Background::status)}</p>
        <div class="presets" hidden=move || url.options.with(|o| o.locked)>
            <button type="button" class="small" data-testid="use-sigma-for-target"
                on:click=move |_| { let s = sigma_target.get_untracked(); if s.is_finite() { url.commit_set("sigma", crate::format::sig_up(s, 6)); } }>
                "Use σ for the target (RDP)"
            </button>
            <button type="button" class="small" data-testid="use-sigma-for-target-pld"
                on:click=move |_| { let s = sigma_pld.get_untracked(); if s.is_finite() { url.commit_set("sigma", crate::format::sig_up(s, 6)); } }>
                "Use σ for the target (PLD)"
            </button>
        </div>
        <p class="help">
            <a data-testid="dpsgd-attack-link" target=url.other_lab_target() rel="noopener" href=move || url.href_to(&lab.params.with(|p| p.attack_link().to_query_string()))>
                "What does this mean for an attacker? →"
            </a>
            " · "
            <a data-testid="dpsgd-train-link" target=url.other_lab_target() rel="noopener" href=move || url.href_to(&lab.params.with(|p| dp_playground::link::handoff::train_link_for_run(&p.event(), p.delta).to_query_string()))>
                "Train with these settings →"
            </a>
        </p>
        // Below the fold: built in stages once the first frames are painted.
        <AfterPaint>
            <crate::labs::dpsgd::samplers::DpsgdSamplers />
            <crate::labs::dpsgd::users::DpsgdUsers />
            <crate::labs::dpsgd::phases::DpsgdPhases />
            <div class="chart-grid">
                <XyCanvas testid="dpsgd-chart-steps" look_for="Watch ε grow ever more slowly with the steps (about like √T); the PLD points, the tighter accountant, usually sit below the RDP curve." title="ε as training goes on"
                    alt=Signal::derive(move || format!("After all steps, for Poisson sampling: ε ≤ {} (RDP), ≤ {} (PLD).", crate::format::sig_up(rdp(|r| r.eps).get(), 4), crate::format::sig_up(pld.get(), 4)))
                    chart=steps_chart csv_name="dpsgd-eps-by-steps.csv" />
                <XyCanvas testid="dpsgd-chart-orders" look_for="Notice the trade-off: T·ε_step(α) grows with the order α while −ln(δα)/(α − 1) shrinks; the marked order balances them." title="Which Rényi order gives the best ε"
                    alt=Signal::derive(move || format!("The conversion is best at order {}.", sig(rdp(|r| r.best_order).get(), 3)))
                    chart=order_chart csv_name="dpsgd-rdp-orders.csv" />
            </div>
        </AfterPaint>
        <AfterPaint frames=2>
            <section class="panel" aria-labelledby="scenarios-title" data-part="scenarios" hidden={let shown = crate::widgets::parts::use_part("scenarios", "The lecture's scenarios", true); move || !shown()}>
                <h3 id="scenarios-title">"The lecture's three scenarios at these settings (clipping norm B = 1)"</h3>
                <div class="stats">
                    <Stat label="1: Laplace scale, pure ε-DP, subsampling" testid="dpsgd-scenario1-laplace" value=scen_value(|s| s.laplace_scale) />
                    <Stat label="2: ρ for (ε, δ) (corrected)" testid="dpsgd-scenario2-rho" value=scen_value(|s| s.rho) />
                    <Stat label="2: σ without subsampling (corrected)" testid="dpsgd-scenario2-sigma" value=scen_value(|s| s.zcdp_sigma) />
                    <Stat label="3: σ on the mean gradient, RDP" testid="dpsgd-scenario3-sigma" value=scen_value(|s| s.rdp_sigma_mean) />
                </div>
                <p class="help">
                    {move || scen.with(|s| s.as_ref().map(|s| lab.params.with(|p| scenario_links(p, s)))).map(|(one, two)| view! {
                        "Check them in the composition lab: "
                        <a data-testid="scenario1-link" target=url.other_lab_target() rel="noopener" href=url.href_to(&one)>"scenario 1"</a>
                        " (Laplace on subsamples, pure DP), "
                        <a data-testid="scenario2-link" target=url.other_lab_target() rel="noopener" href=url.href_to(&two)>"scenario 2"</a>
                        " (Gaussian, no subsampling)."
                    })}
                </p>
                <SlideNote>
                    "Scenario 2 solves ε = ρ + 2√(ρ ln(1/δ)) for √ρ, so ρ = (√(ln(1/δ) + ε) − √ln(1/δ))² (the slide drops the square), "
                    "and the per-step noise is σ² = T·B²/(2n²ρ) (the slide has ρ² and, with its own zCDP slide, no 2). "
                    "In scenario 3 the ceiling belongs on the order: T·ε_γ(⌈α⌉), with ε(i) = i·B²/(2m²σ²) for noise σ on the mean of m clipped gradients. "
                    "Noise multiplier here = σ on the sum / B."
                </SlideNote>
            </section>
        </AfterPaint>
    }
}
