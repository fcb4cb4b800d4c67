//! The training lab's controls: the data (and a CSV that stays in the page), the model, DP-SGD's knobs,
//! the accountant's δ and target, the seeds and the sweep.

use crate::labs::train::use_train;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use dp_playground::accounting::samplers::Sampler;
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::{DataKind, ModelKind, TrainParams};
use dp_playground::learning::correlated::Mechanism;
use dp_playground::learning::data::MAX_BYTES;
use dp_playground::learning::model::Activation;
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The noise choices: DP-SGD, BandMF at a few band counts (and the link's own), the tree and a BLT.
fn mech_options(current: Mechanism) -> Vec<(String, String)> {
    let mut all = vec![Mechanism::DpSgd];
    all.extend([2, 4, 8, 16].map(|bands| Mechanism::BandMf { bands }));
    if !all.contains(&current) {
        all.push(current);
    }
    all.extend([Mechanism::Tree, Mechanism::Blt]);
    all.into_iter().map(|m| (m.key(), m.title())).collect()
}

/// Presets: (label, keys to set; every other training key is removed).
const PRESETS: [(&str, &[(&str, &str)]); 4] = [
    ("Breast cancer (the default)", &[]),
    (
        "Adult: privacy costs little",
        &[
            ("data", "adult"),
            ("batch", "256"),
            ("epochs", "5"),
            ("sigma", "2"),
        ],
    ),
    (
        "Xor: a small MLP",
        &[
            ("data", "xor"),
            ("model", "mlp"),
            ("hidden", "8"),
            ("lr", "1"),
            ("epochs", "50"),
            ("sigma", "1.5"),
        ],
    ),
    (
        "300 dimensions, 320 rows: memorising",
        &[
            ("data", "highdim"),
            ("n", "400"),
            ("dim", "300"),
            ("epochs", "100"),
            ("lambda", "0"),
            ("sigma", "1"),
        ],
    ),
];

/// The pool's name for the CSV's parse.
const CSV_GROUP: &str = "train-csv";

/// Every training key a preset clears.
const KEYS: [&str; 22] = [
    "data",
    "n",
    "noise",
    "dim",
    "split",
    "model",
    "hidden",
    "act",
    "lambda",
    "lr",
    "batch",
    "q",
    "sigma",
    "clip",
    "epochs",
    "steps",
    "delta",
    "target_eps",
    "stop",
    "seed",
    "seeds",
    "sweep",
];

/// Every knob of the run.
#[component]
pub fn TrainControls() -> impl IntoView {
    let url = use_url();
    let lab = use_train();
    let shown = move |key: &'static str, in_use: fn(&TrainParams) -> String| {
        url.raw_or(key, move || lab.params.with(in_use))
    };
    let data = move || lab.params.with(|p| p.data);
    let is_2d = move || data().shape().is_some();
    // The file is read by the browser and parsed in a worker (a 16 MB file takes ~0.2 s natively):
    // the page's thread only checks its size and shows that it is being read.
    let reading = RwSignal::new(None::<String>);
    let csv_jobs = LabJobs::new(CSV_GROUP);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let current = csv_jobs.restart();
        lab.csv.set(None);
        let size = file.size();
        if size > MAX_BYTES as f64 {
            reading.set(None);
            lab.csv_error.set(Some(format!(
                "The file is {} MB: the page reads CSV files up to {} MB (and 1 million values, rows × features).",
                crate::format::sig(size / 1_048_576.0, 3),
                MAX_BYTES >> 20
            )));
            return;
        }
        lab.csv_error.set(None);
        reading.set(Some(format!(
            "Reading your file ({} KB)…",
            crate::format::count((size / 1024.0).ceil() as u64)
        )));
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            let got = match text {
                None => Some(Err(
                    "The browser could not read the file as text.".to_string()
                )),
                Some(text) => {
                    pool::outcome(CSV_GROUP, &TrainJob::ParseCsv(text), |u| match u {
                        TrainJobUpdate::Csv(r) => Some(r),
                        _ => None,
                    })
                    .await
                }
            };
            if !current() {
                return;
            }
            reading.set(None);
            match got {
                Some(Ok(d)) => {
                    lab.csv_error.set(None);
                    lab.csv.set(Some(*d));
                }
                Some(Err(e)) => {
                    lab.csv.set(None);
                    lab.csv_error.set(Some(e));
                }
                None => {}
            }
        });
    };
    let preset = move |keys: &'static [(&'static str, &'static str)]| {
        url.commit(|q| {
            for key in KEYS {
                q.remove(key);
            }
            for (k, v) in keys {
                q.set(k, *v);
            }
        })
    };
    view! {
        <div class="presets" role="group" aria-label="Presets" hidden=move || url.options.with(|o| o.locked || o.controls.is_some())>
            {PRESETS.into_iter().enumerate().map(|(i, (label, keys))| view! {
                <button type="button" class="small" data-testid=format!("train-preset-{i}") on:click=move |_| preset(keys)>{label}</button>
            }).collect_view()}
        </div>
        <h3>"Data"</h3>
        <SelectField label="Data set" key="data" options=choices(&DataKind::ALL, DataKind::key, DataKind::title)
            value=Signal::derive(move || data().key().to_owned()) error=lab.error_for("data")
            help="Everything stays in this page: nothing is fetched or sent." />
        <div class="field" hidden=move || data() != DataKind::Csv || !url.options.with(|o| o.shows("data"))>
            <label for="field-csv">"Your CSV file"</label>
            <input id="field-csv" type="file" accept=".csv,text/csv,text/plain" data-testid="input-csv" on:change=on_file />
            <p class="help">"Numbers only; the last column is the label (two values). The file is read here and never leaves the page; it is not put in the link, so a shared link asks for it again."</p>
            <p class="status" role="status" data-testid="csv-status" hidden=move || reading.with(Option::is_none)>
                {move || reading.get().unwrap_or_default()}
            </p>
            <p class="field-error" role="alert" data-testid="notice-csv" hidden=move || lab.csv_error.with(Option::is_none)>
                {move || lab.csv_error.get().unwrap_or_default()}
            </p>
        </div>
        <div hidden=move || !(is_2d() || data() == DataKind::HighDim)>
            <NumberField label="Rows n" key="n" value=shown("n", |p| p.n.to_string()) error=lab.error_for("n") help="Rows of the synthetic set (20–20,000)." />
        </div>
        <div hidden=move || !is_2d()>
            <NumberField label="Noise" key="noise" value=shown("noise", |p| fmt_f64(p.noise)) error=lab.error_for("noise") slider=(0.0, 0.5, 0.01) help="TensorFlow Playground's noise, 0–0.5." />
        </div>
        <div hidden=move || data() != DataKind::HighDim>
            <NumberField label="Features d" key="dim" value=shown("dim", |p| p.dim.to_string()) error=lab.error_for("dim") help="Up to 1,000: with d near n the model memorises its training rows." />
        </div>
        <NumberField label="Training fraction" key="split" value=shown("split", |p| fmt_f64(p.split)) error=lab.error_for("split") help="The rest is the test set. Features are standardised by the training rows' mean and spread: that step is not private." />
        <h3>"Model"</h3>
        <SelectField label="Model" key="model" options=choices(&ModelKind::ALL, ModelKind::key, ModelKind::title)
            value=Signal::derive(move || lab.params.with(|p| p.model.key().to_owned())) error=lab.error_for("model") />
        <div hidden=move || lab.params.with(|p| p.model != ModelKind::Mlp)>
            <NumberField label="Hidden units" key="hidden" value=shown("hidden", |p| p.hidden.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")) error=lab.error_for("hidden") help="One or two layers of up to 16 units: 8 or 8,8." />
            <SelectField label="Activation" key="act" options=choices(&Activation::ALL, Activation::key, Activation::title)
                value=Signal::derive(move || lab.params.with(|p| p.act.key().to_owned())) error=lab.error_for("act") />
        </div>
        <NumberField label="L2 term λ" key="lambda" value=shown("lambda", |p| fmt_f64(p.lambda)) error=lab.error_for("lambda") help="λ/2·‖w‖² on the weights (not the biases); it reads no data, so it costs no privacy." />
        <h3>"DP-SGD"</h3>
        <NumberField label="Noise multiplier σ" key="sigma" value=shown("sigma", |p| fmt_f64(p.sigma)) error=lab.error_for("sigma") slider=(0.1, 8.0, 0.05) help="Noise std on the clipped sum, over C." />
        <NumberField label="Clipping norm C" key="clip" value=shown("clip", |p| fmt_f64(p.clip)) error=lab.error_for("clip") slider=(0.05, 10.0, 0.05) help="Each row's gradient is scaled down to norm C at most. The median norm (right) is the usual first guess." />
        <NumberField label="Learning rate η" key="lr" value=shown("lr", |p| fmt_f64(p.lr)) error=lab.error_for("lr") slider=(0.01, 4.0, 0.01) />
        // With the link's q, the field shows the batch it makes here (q·n) and typing a batch replaces q.
        <NumberField label="Expected batch size m" key="batch"
            value=Signal::derive(move || match lab.params.with(|p| p.q) {
                Some(q) => dp_playground::link::format::sig(q * lab.params.with(|p| p.train_rows(lab.csv_rows())) as f64, 4),
                None => url.query.with(|q| q.get("batch").map(str::to_owned)).unwrap_or_else(|| lab.params.with(|p| p.batch.to_string())),
            })
            error=lab.error_for("batch") help="q = m/n; the sum is divided by m = q·n, fixed in advance."
            on_change=Callback::new(move |text: String| url.update(|q| { q.set("batch", text); q.remove("q"); })) />
        <NumberField label="Sampling rate q (optional)" key="q" value=shown("q", |p| p.q.map(fmt_f64).unwrap_or_default()) error=lab.error_for("q") help="Overrides m/n when set." />
        <SelectField label="Noise across steps" key="mech" options=mech_options(lab.params.with_untracked(|p| p.mech))
            value=Signal::derive(move || lab.params.with(|p| p.mech.key())) error=lab.error_for("mech")
            help="Independent noise (DP-SGD) or correlated noise (matrix factorization); each takes the batches its guarantee needs." />
        <div hidden=move || lab.params.with(|p| p.mech != Mechanism::DpSgd)>
            <SelectField label="Batch sampler" key="sampler" options=choices(&Sampler::ALL, Sampler::key, Sampler::title)
                value=Signal::derive(move || lab.params.with(|p| p.sampler.key().to_owned())) error=lab.error_for("sampler")
                help="How each step's batch is drawn; the accountants assume Poisson." />
        </div>
        <div hidden=move || lab.params.with(|p| p.sampler != Sampler::Truncated)>
            <NumberField label="Batch cap B (optional)" key="cap" value=shown("cap", |p| p.cap.map(|c| c.to_string()).unwrap_or_default()) error=lab.error_for("cap") help="Truncated Poisson cuts a larger batch to B random rows; empty: 10% above the mean batch." />
        </div>
        <NumberField label="Epochs" key="epochs" value=shown("epochs", |p| fmt_f64(p.epochs)) error=lab.error_for("epochs") help="T = ⌈epochs/q⌉ steps." />
        <NumberField label="Steps T (optional)" key="steps" value=shown("steps", |p| p.steps.map(|t| t.to_string()).unwrap_or_default()) error=lab.error_for("steps") help="Overrides epochs when set (up to 100,000)." />
        <NumberField label="Seed" key="seed" value=shown("seed", |p| p.seed.to_string()) error=lab.error_for("seed") help="Data, split, initial weights, batches and noise." />
        <h3>"Privacy"</h3>
        <NumberField label="δ" key="delta" value=shown("delta", |p| fmt_f64(p.delta)) error=lab.error_for("delta") help="Usually below 1/n." />
        <NumberField label="Target ε" key="target_eps" value=shown("target_eps", |p| fmt_f64(p.target_eps)) error=lab.error_for("target_eps") slider=(0.1, 10.0, 0.05) />
        <SelectField label="Stop at the target ε" key="stop" options=vec![("0".into(), "no: run every step".into()), ("1".into(), "yes: stop before ε passes the target".into())]
            value=Signal::derive(move || if lab.params.with(|p| p.stop) { "1" } else { "0" }.to_owned()) error=lab.error_for("stop") />
        <h3>"Sweep"</h3>
        <NumberField label="σ's to sweep" key="sweep" value=shown("sweep", |p| p.sweep.iter().map(|s| fmt_f64(*s)).collect::<Vec<_>>().join(",")) error=lab.error_for("sweep") help="Each trained with every seed at the link's q, C, η and T." />
        <NumberField label="Seeds per σ" key="seeds" value=shown("seeds", |p| p.seeds.to_string()) error=lab.error_for("seeds") help="1–20: the chart shows the mean and spread." />
    }
}
