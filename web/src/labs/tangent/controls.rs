//! The tangent lab's controls: model, loss, β, the data and the grids, the removed point and the samples.

use crate::labs::tangent::use_tangent;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::SelectField;
use dp_playground::link::query::fmt_f64;
use dp_playground::tangent::{format_points, Loss};
use leptos::prelude::*;

/// Two clusters of points that a threshold can separate on the left or on the right: q has two modes with
/// a barrier between them, and the Langevin chain started in the middle stays in the one it falls into.
const METASTABLE: &str = "model=threshold&loss=savage&beta=200&data=-3:-1,-2.8:-1,-2.6:-1,-2:1,-1.8:1,1.8:-1,2:-1,2.6:1,2.8:1,3:1&wgrid=-4:4:161&remove=0";

/// The controls.
#[component]
pub fn TangentControls() -> impl IntoView {
    let url = use_url();
    let lab = use_tangent();
    let params = lab.params;
    let presets: [(&str, &str); 4] = [
        (
            "Default: threshold, Savage",
            "model=threshold&loss=savage&beta=20&n=200&seed=1",
        ),
        (
            "2-D model, tangent loss",
            "model=linear2d&loss=tangent&beta=5&n=300&seed=7&wgrid=-2:2:31",
        ),
        ("Metastable: two modes at β = 200", METASTABLE),
        (
            "Theorem 3.3 counterexample",
            "model=linear2d&loss=logistic&beta=1&data=0:1,0:-1&wgrid=-1:1:3&xgrid=-1:1:2",
        ),
    ];
    view! {
        <div class="presets" role="group" aria-label="Examples" hidden=move || url.options.with(|o| o.locked)>
            {presets.into_iter().map(|(label, query)| view! {
                <a class="small" href=move || url.href_with(|q| {
                    for key in ["model", "loss", "beta", "n", "seed", "data", "wgrid", "xgrid", "remove", "samples"] {
                        q.remove(key);
                    }
                    for (k, v) in dp_playground::link::query::Query::parse(query).pairs() {
                        q.set(k, v.clone());
                    }
                })>{label}</a>
            }).collect_view()}
        </div>
        <h3>"Model"</h3>
        <SelectField label="Model" key="model"
            options=vec![("threshold".into(), "threshold: f_w(x) = x − w".into()), ("linear2d".into(), "linear: f_w(x) = w₁x + w₂".into())]
            value=Signal::derive(move || params.with(|p| p.model.key().to_owned())) error=lab.error_for("model") />
        <SelectField label="Loss r(w, x) of the margin m = y·f_w(x)" key="loss"
            options=Loss::ALL.iter().map(|l| (l.key().to_owned(), match l {
                Loss::ZeroOne => "0/1: 1[m ≤ 0] (bounded)",
                Loss::Savage => "Savage: 1/(1+eᵐ)² (bounded)",
                Loss::Tangent => "tangent: (2·arctan m − 1)² (bounded)",
                Loss::Logistic => "logistic: ln(1+e⁻ᵐ) (unbounded)",
                Loss::Hinge => "hinge: max(0, 1 − m) (unbounded)",
            }.to_owned())).collect()
            value=Signal::derive(move || params.with(|p| p.loss.key().to_owned())) error=lab.error_for("loss") />
        <NumberField label="β (inverse temperature)" key="beta" value=url.raw_or("beta", move || fmt_f64(params.get().beta))
            error=lab.error_for("beta") slider=(0.5, 100.0, 0.5) />
        <h3>"Data"</h3>
        <NumberField label="Points N (two-class Gaussian mixture)" key="n" value=url.raw_or("n", move || params.get().n.to_string())
            error=lab.error_for("n") help="x ~ N(y, 1), y = ±1 with probability ½; up to 10 000." />
        <NumberField label="Seed" key="seed" value=url.raw_or("seed", move || params.get().seed.to_string())
            error=lab.error_for("seed") help="The data, the Monte Carlo draws and the Langevin chain." />
        <NumberField label="Points given directly (x:y, …)" key="data"
            value=url.raw_or("data", move || params.get().data.as_deref().map(format_points).unwrap_or_default())
            error=lab.error_for("data") help="Overrides N and the mixture, e.g. 0.5:1,-0.3:-1,1.2:1." />
        <h3>"Grids"</h3>
        <NumberField label="Parameter grid w (min:max:count, per axis)" key="wgrid" value=url.raw_or("wgrid", move || params.get().wgrid().to_string())
            error=lab.error_for("wgrid") help="Up to 20 000 points for the threshold, 200 × 200 for the linear model." />
        <NumberField label="Feature grid of the candidate set" key="xgrid" value=url.raw_or("xgrid", move || params.get().xgrid.to_string())
            error=lab.error_for("xgrid") help="Perturbations of p live on the data points plus these features with both labels." />
        <h3>"Experiments"</h3>
        <NumberField label="Point removed (index)" key="remove" value=url.raw_or("remove", move || params.get().remove.to_string())
            error=lab.error_for("remove") />
        <NumberField label="Monte Carlo draws" key="samples" value=url.raw_or("samples", move || params.get().samples.to_string())
            error=lab.error_for("samples") help="Exact draws on the grid; the Langevin chain runs 10× as many steps." />
    }
}
