//! The zCDP view of the Gaussian mechanism, with the lecture slides' errata.

use crate::labs::mechanisms::use_mech;
use crate::widgets::glossary::Term;
use crate::widgets::slide_note::SlideNote;
use crate::widgets::stat::Stat;
use dp_playground::accounting::zcdp::SLIDE_ERRATA;
use dp_playground::labs::mechanisms::{zcdp_view, Noise};
use leptos::prelude::*;

/// ρ of the Gaussian in use and its conversion to (ε, δ).
#[component]
pub fn MechZcdp() -> impl IntoView {
    let mech = use_mech();
    let view_ = Memo::new(move |_| match mech.noise.get() {
        Some(Noise::Gaussian(g)) => zcdp_view(&g, mech.params.with(|p| p.delta)).ok(),
        _ => None,
    });
    let get = move |f: fn(&dp_playground::labs::mechanisms::ZcdpView) -> f64| {
        Signal::derive(move || view_.with(|v| v.as_ref().map_or(f64::NAN, f)))
    };
    let rho_target = Signal::derive(move || {
        mech.calibration
            .with(|c| c.as_ref().map_or(f64::NAN, |c| c.rho_for_target))
    });
    view! {
        <section class="panel" aria-labelledby="zcdp-title" data-part="zcdp" hidden={let shown = crate::widgets::parts::use_part("zcdp", "zCDP", false); move || !shown()}>
            <h3 id="zcdp-title">"The same noise as zero-concentrated DP"</h3>
            <p class="explain">
                "Gaussian noise is "<Term id="zcdp">"ρ-zCDP"</Term>" with ρ = Δ²/(2σ²) (Bun & Steinke 2016, Prop. 1.6), and ρ-zCDP implies "
                "(ρ + 2√(ρ ln(1/δ)), δ)-DP (Prop. 1.3). The conversion is simple but loose: the exact δ at that "
                "ε is far smaller."
            </p>
            <div class="stats">
                <Stat label="ρ of this σ" testid="mech-zcdp-rho" value=get(|v| v.rho) />
                <Stat label="ε from ρ at the target δ" testid="mech-zcdp-eps" value=get(|v| v.eps_from_rho) />
                <Stat label="exact δ at that ε" testid="mech-zcdp-exact-delta" value=get(|v| v.exact_delta_at_eps_from_rho) />
                <Stat label="ρ needed for the target (ε, δ)" testid="mech-zcdp-rho-target" value=rho_target />
            </div>
            <SlideNote testid="mech-zcdp-errata">
                <ul>{SLIDE_ERRATA.iter().map(|e| view! { <li>{*e}</li> }).collect_view()}</ul>
            </SlideNote>
        </section>
    }
}
