//! How much noise each mechanism needs for the target (ε, δ): one table, always shown, so that the
//! mechanisms can be compared at a glance.

use crate::format::{exact, sig};
use crate::labs::mechanisms::use_mech;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::stat::Stat;
use dp_playground::labs::mechanisms::{Mechanism, Noise};
use dp_playground::mechanisms::gaussian::Gaussian;
use leptos::prelude::*;

/// Test ids of the four σ rows, in the core's order.
const SIGMA_IDS: [&str; 4] = ["lecture", "classical", "zcdp", "analytic"];

/// The calibration table and the exact δ of the σ in use.
#[component]
pub fn MechCalibration() -> impl IntoView {
    let mech = use_mech();
    let cal = move || mech.calibration.get().ok();
    let laplace_scale =
        Signal::derive(
            move || match (mech.params.with(|p| p.mech), mech.noise.get()) {
                (Mechanism::Laplace, Some(Noise::Laplace(l))) => l.scale(),
                _ => cal().map_or(f64::NAN, |c| c.laplace_scale),
            },
        );
    let tau = Signal::derive(move || cal().and_then(|c| c.tlap_tau.ok()).unwrap_or(f64::NAN));
    let tau_error = move || cal().and_then(|c| c.tlap_tau.err());
    let sigma_in_use = Signal::derive(move || {
        let p = mech.params.get();
        p.sigma
            .unwrap_or_else(|| cal().map_or(f64::NAN, |c| c.sigma_analytic()))
    });
    let delta_in_use = Signal::derive(move || {
        let p = mech.params.get();
        Gaussian::new(sigma_in_use.get(), p.sens).map_or(f64::NAN, |g| g.delta(p.eps))
    });
    let eps = move || mech.params.with(|p| sig(p.eps, 4));
    let is_em = move || mech.params.with(|p| p.mech == Mechanism::Exponential);
    let delta = move || mech.params.with(|p| sig(p.delta, 3));
    view! {
        {move || mech.calibration.get().err().map(|e| view! { <p class="notices" role="alert">{e}</p> })}
        // The exponential mechanism adds no noise: the table folds away under a summary saying so.
        <details class="calibration" data-part="calibration" hidden={let shown = crate::widgets::parts::use_part("calibration", "Calibration table", false); move || !shown()} prop:open=move || !is_em() data-testid="mech-calibration-details">
        <summary hidden=move || !is_em()>"Noise calibration for a numeric query (the exponential mechanism adds no noise)"</summary>
        <div class="table-wrap" tabindex="0">
            <table class="results-table calibration" data-testid="mech-calibration">
                <caption>{move || format!("Noise for one query at ε = {}, δ = {}, Δ = {}", eps(), delta(), mech.params.with(|p| sig(p.sens, 4)))}</caption>
                <thead>
                    <tr>
                        <th scope="col">"mechanism and calibration"</th>
                        <th scope="col">"noise parameter"</th>
                        <th scope="col">"exact δ it achieves at ε"</th>
                        <th scope="col">"note"</th>
                    </tr>
                </thead>
                <tbody>
                    <tr>
                        <th scope="row">{move || if mech.params.with(|p| p.scale.is_some() && p.mech == Mechanism::Laplace) { "Laplace, b set by hand" } else { "Laplace, b = Δ/ε" }}</th>
                        <td data-testid="mech-laplace-scale" data-value=move || exact(laplace_scale.get())>{move || sig(laplace_scale.get(), 5)}</td>
                        <td>"0 (pure ε-DP)"</td>
                        <td>"scale b"</td>
                    </tr>
                    <tr>
                        <th scope="row">"Truncated Laplace, τ = ln(1 + (e^ε − 1)/(2δ))"</th>
                        <td data-testid="mech-tlap-tau" data-value=move || exact(tau.get())>{move || sig(tau.get(), 5)}</td>
                        <td>{move || sig(mech.params.with(|p| p.delta), 3)}" (exactly)"</td>
                        <td>{move || tau_error().unwrap_or_else(|| format!("support bound in units of Δ/ε; the noise never exceeds {}", sig(tau.get() * mech.params.with(|p| p.sens / p.eps), 4)))}</td>
                    </tr>
                    // Four fixed rows with reactive cells: a slider move changes text, not the table.
                    {SIGMA_IDS.into_iter().enumerate().map(|(i, id)| {
                        let row = move || cal().and_then(|c| c.sigmas.get(i).cloned());
                        let sigma = Signal::derive(move || row().map_or(f64::NAN, |r| r.sigma));
                        let achieved = Signal::derive(move || row().map_or(f64::NAN, |r| r.achieved_delta));
                        let over = move || achieved.get() > mech.params.with(|p| p.delta);
                        view! {
                            <tr class:over=over>
                                <th scope="row">"Gaussian, "{move || row().map_or("", |r| r.method)}</th>
                                <td data-testid=format!("mech-sigma-{id}") data-value=move || exact(sigma.get())>{move || sig(sigma.get(), 5)}</td>
                                <td data-testid=format!("mech-achieved-delta-{id}") data-value=move || exact(achieved.get())>
                                    {move || sig(achieved.get(), 3)}{move || over().then_some(" (above the target!)")}
                                </td>
                                <td>{move || row().and_then(|r| r.caveat).unwrap_or("σ")}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="stats">
            <Stat label="Gaussian σ in use (link or analytic)" testid="mech-sigma-in-use" value=sigma_in_use digits=5 />
            <Stat label="its exact δ at the target ε (Balle & Wang)" testid="mech-delta-analytic" value=delta_in_use digits=4 />
        </div>
        </details>
        <Diagnostics>
            <Stat label="computed in (ms)" testid="mech-compute-ms" value=Signal::derive(move || mech.compute_ms.get()) digits=3 />
        </Diagnostics>
    }
}
