//! The pictures of the chosen noise: densities with the bad set, privacy loss, privacy profile,
//! trade-off curve and a sample histogram, with the key numbers above them.

use crate::charts::specs::mechanisms::{
    densities_chart, loss_chart, profile_chart, samples_chart, tradeoff_chart,
};
use crate::format::sig;
use crate::labs::mechanisms::use_mech;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::labs::mechanisms::{Mechanism, Noise, Pictures};
use leptos::prelude::*;

/// The five charts of a noise mechanism.
#[component]
pub fn MechPictures() -> impl IntoView {
    let mech = use_mech();
    let pic = mech.pictures;
    let value = move |f: fn(&Pictures) -> f64| {
        Signal::derive(move || pic.with(|p| p.as_ref().map_or(f64::NAN, f)))
    };
    let sens = move || mech.params.with(|p| p.sens);
    let delta = move || mech.params.with(|p| p.delta);
    let chart = |build: fn(&Pictures, f64, f64) -> crate::charts::XyChart| {
        Memo::new(move |_| pic.with(|p| p.as_ref().map(|p| build(p, sens(), delta()))))
    };
    let densities = chart(|p, sens, _| densities_chart(p, sens));
    let loss = chart(|p, _, _| loss_chart(p));
    let profile = chart(|p, _, delta| profile_chart(p, delta));
    let tradeoff = chart(|p, _, _| tradeoff_chart(p));
    let samples = Memo::new(move |_| mech.samples.with(|s| s.as_ref().map(samples_chart)));
    let sample_stat = move |f: fn(&dp_playground::labs::mechanisms::Samples) -> f64| {
        Signal::derive(move || mech.samples.with(|s| s.as_ref().map_or(f64::NAN, f)))
    };
    let bad_eps = move || pic.with(|p| p.as_ref().map_or(String::new(), |p| sig(p.bad_eps, 3)));
    let explain = move || {
        match mech.params.with(|p| p.mech) {
        Mechanism::Laplace => "Laplace noise is pure ε-DP at ε = Δ/b: the density ratio never exceeds e^ε, so the bad set is empty there and δ(ε) reaches 0. Below that ε the bad set is everything left of a point between the answers.",
        Mechanism::Gaussian => "Gaussian noise is never pure DP: far left, the ratio of the densities grows without bound. Lemma 1.4 bounds δ by the chance of landing there (the bad set); the exact δ(ε) of Balle & Wang is smaller.",
        _ => "Truncated Laplace noise cannot reach the outputs beyond the neighbour's support: there the privacy loss is infinite, and the chance of landing there is exactly δ (notes, eqs. 14–15). Everywhere else the ratio is at most e^ε.",
    }
    };
    let tlap_error = move || {
        (mech.params.with(|p| p.mech) == Mechanism::TruncatedLaplace && mech.noise.with(Option::is_none))
            .then(|| view! { <p class="notices" role="alert">"The truncated Laplace mechanism needs δ < 1/2; lower δ to see its pictures."</p> })
    };
    let is_gaussian = move || matches!(mech.noise.get(), Some(Noise::Gaussian(_)));
    view! {
        {tlap_error}
        <p class="explain">{explain}</p>
        <div class="stats">
            <Stat label="guarantee: ε" testid="mech-guarantee-eps" value=value(|p| p.guarantee.0) />
            <Stat label="guarantee: exact δ at that ε" testid="mech-guarantee-delta" value=value(|p| p.guarantee.1) />
            <Stat label="P[M(x) ∈ bad set]" testid="mech-bad-prob" value=value(|p| p.bad_probability) />
            <Stat label="exact δ at the bad set's ε" testid="mech-bad-delta" value=value(|p| p.bad_eps_delta) />
        </div>
        <div class="chart-grid">
            <XyCanvas
                testid="mech-chart-densities"
                look_for="Look for the shaded bad set, outputs M(x) makes over e^ε times likelier than M(x′) does: its probability under M(x) bounds δ."
                title=Signal::derive(move || format!("Output densities; bad set at ε = {}", bad_eps()))
                alt=Signal::derive(move || format!("Densities of M(x) and M(x′); the bad set has probability {} under x.", sig(value(|p| p.bad_probability).get(), 3)))
                chart=densities
                csv_name="mech-densities.csv"
            />
            <XyCanvas
                testid="mech-chart-loss"
                look_for="Look at how much of the loss lies right of the ε marker: δ(ε) is at most that mass, and any mass at +∞ counts in full."
                title="Privacy loss L = ln(p(Y)/q(Y)), Y ~ M(x)"
                alt=Signal::derive(move || if is_gaussian() { "The privacy loss is normal with mean ρ and variance 2ρ.".to_string() } else { "The privacy loss has point masses and a continuous part.".to_string() })
                chart=loss
                csv_name="mech-privacy-loss.csv"
            />
            <XyCanvas
                testid="mech-chart-profile"
                look_for="Watch δ(ε) fall as ε grows: Laplace's reaches 0 at ε = Δ/b, the Gaussian's never does, truncated Laplace's stops at its δ."
                title="Privacy profile: the smallest δ for each ε"
                alt=Signal::derive(move || format!("δ(ε) falls as ε grows; at ε = {} it is {}.", sig(value(|p| p.guarantee.0).get(), 3), sig(value(|p| p.guarantee.1).get(), 3)))
                chart=profile
                csv_name="mech-privacy-profile.csv"
            />
            <XyCanvas
                testid="mech-chart-tradeoff"
                look_for="Notice how close the curve comes to the diagonal β = 1 − α (perfect privacy), and that it never dips below the (ε, δ) boundary."
                title="Trade-off: telling x from x′ (f-DP)"
                alt="Type II against type I error of the best test; the closer to the diagonal, the more private."
                chart=tradeoff
                csv_name="mech-tradeoff.csv"
            />
        </div>
        <XyCanvas
            testid="mech-chart-samples"
            look_for="Check the draws against the expected curve: the bars follow the density, off only by sampling noise that shrinks with more draws."
            title=Signal::derive(move || format!("{} draws of M(x) against its density", mech.params.with(|p| p.draws)))
            alt=Signal::derive(move || format!("Sample standard deviation {} against {} in theory.", sig(sample_stat(|s| s.sd).get(), 4), sig(sample_stat(|s| s.sd_theory).get(), 4)))
            chart=samples
            csv_name="mech-samples.csv"
            height=260.0
        />
        <div class="stats">
            <Stat label="sample mean" testid="mech-sample-mean" value=sample_stat(|s| s.mean) />
            <Stat label="sample std. dev." testid="mech-sample-sd" value=sample_stat(|s| s.sd) />
            <Stat label="noise std. dev." testid="mech-noise-sd" value=sample_stat(|s| s.sd_theory) />
        </div>
    }
}
