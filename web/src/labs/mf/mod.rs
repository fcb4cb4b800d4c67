//! The correlated-noise lab (`?lab=mf`): each factorization's noise multiplier for a target (ε, δ)
//! or ρ and the error of the stream's released prefix sums at it, side by side. The page computes the
//! core's `labs::mf::report` itself up to T = 2 000 (O(T·bands) per strategy, within a frame); the
//! BLT's optimisation, amplified BandMF's σ and longer streams are worker jobs (`labs::mf::jobs`).

mod background;

use crate::charts::specs::mf as specs;
use crate::format::{exact, sig, sig_up};
use crate::platform::url::use_url;
use crate::widgets::heat_canvas::HeatCanvas;
use crate::widgets::lab_page::LabPage;
use crate::widgets::number_field::NumberField;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::stat::{Stat, StatGroup};
use crate::widgets::xy_canvas::XyCanvas;
use background::{use_background, Background};
use dp_playground::accounting::guarantee::Side;
use dp_playground::labs::mf::report::Amplification;
use dp_playground::labs::mf::{heat_maps, Kind, MfParams, MfReport};
use dp_playground::labs::Lab;
use dp_playground::link::query::{fmt_f64, LinkParams};
use leptos::prelude::*;

type Shown = Memo<Option<Result<MfReport, String>>>;

/// The correlated-noise lab.
#[component]
pub fn MfLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| MfParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let error_for = move |key| crate::widgets::notices::notice_for(notices, key);
    let bg = use_background(params);
    let result = bg.report;
    let shown = move |key: &'static str, in_use: fn(&MfParams) -> String| {
        url.raw_or(key, move || params.with(in_use))
    };
    let markdown = Signal::derive(move || {
        let mut rows = vec![
            ("steps T".to_string(), params.with(|p| p.steps.to_string())),
            ("passes k".into(), params.with(|p| p.epochs.to_string())),
            ("target".into(), params.with(target_words)),
        ];
        if let Some(Ok(r)) = result.get() {
            for row in &r.rows {
                rows.push((
                    format!("{}: σ (meets the target) / RMSE / max error", row.name),
                    format!(
                        "{} / {} / {}",
                        sig_up(row.sigma, 6),
                        sig(row.rmse, 4),
                        sig(row.max_error, 4)
                    ),
                ));
                rows.push((format!("{}: guarantee", row.name), row.guarantee.claim(4)));
            }
        }
        dp_playground::link::embed::markdown_table(("correlated noise", "value"), &rows)
    });
    view! {
        <LabPage heading_id="mf-title" title="Correlated noise: the same ε, less error"
            headline=Signal::derive(move || headline(&params.get(), &result.get()))
            intro=|| view! {
                <p>
                    "A stream of T steps (a model's gradients, say) is released as running sums. Independent "
                    "noise on each step (DP-SGD) makes the sums' error grow like √t. Matrix-factorization "
                    "mechanisms (DP-FTRL, BandMF, BLT) add noise correlated across steps, chosen so that it "
                    "cancels in the sums: at the same ε the error grows far slower. Each strategy below is "
                    "calibrated to the same target; the BLT is optimised for this stream as you watch."
                </p>
            }
            controls=move || view! {
                <h3>"Parameters"</h3>
                <NumberField label="Steps T" key="steps" value=shown("steps", |p| p.steps.to_string())
                    error=error_for("steps") slider=(16.0, 4096.0, 16.0)
                    help="Up to 100 000 (beyond 2 000 in the background)." />
                <NumberField label="Passes over the data k" key="epochs" value=shown("epochs", |p| p.epochs.to_string())
                    error=error_for("epochs") slider=(1.0, 16.0, 1.0)
                    help="Each record takes part k times, T/k steps apart." />
                <NumberField label="Bands b (BandMF)" key="bands" value=shown("bands", |p| p.bands.to_string())
                    error=error_for("bands") slider=(1.0, 64.0, 1.0)
                    help="The banded strategy keeps the square root's first b coefficients. b = 1 is independent noise." />
                <NumberField label="Target ε" key="eps" value=shown("eps", |p| fmt_f64(p.eps))
                    error=error_for("eps") slider=(0.1, 10.0, 0.1) help="The whole stream's ε." />
                <NumberField label="δ" key="delta" value=shown("delta", |p| fmt_f64(p.delta))
                    error=error_for("delta") help="Below 1." />
                <NumberField label="Target ρ (zCDP) instead" key="rho" value=shown("rho", |p| p.rho.map_or(String::new(), fmt_f64))
                    error=error_for("rho") help="Empty: target (ε, δ). Gboard's reports use ρ between 0.2 and 2." />
                <NumberField label="Sampling q (cyclic Poisson)" key="q" value=shown("q", |p| if p.q > 0.0 { fmt_f64(p.q) } else { String::new() })
                    error=error_for("q") help="Empty: no sampling. Records split into T/k groups; each step takes its group's records with probability q." />
                <label class="field">
                    <span>"Heat maps of "</span>
                    <select data-testid="mf-matrix" disabled=move || url.options.with(|o| o.locked) on:change=move |ev| url.commit_set("matrix", event_target_value(&ev))
                        prop:value=move || params.with(|p| p.matrix.key().to_string())>
                        {Kind::ALL.into_iter().map(|k| view! { <option value=k.key()>{k.name()}</option> }).collect_view()}
                    </select>
                </label>
            }
        >
            <MfResults result=result bg=bg params=params />
            <SharePanel lab=Lab::Mf markdown=markdown />
        </LabPage>
    }
}

/// The target in words: `(ε, δ) = (1, 1e-6)` or `ρ = 0.5 (δ = 1e-6 for ε)`.
fn target_words(p: &MfParams) -> String {
    match p.rho {
        Some(rho) => format!("ρ = {} (ε at δ = {})", exact(rho), exact(p.delta)),
        None => format!("(ε, δ) = ({}, {})", exact(p.eps), exact(p.delta)),
    }
}

/// How sampling enters a row, in words.
fn amplification_words(a: Amplification) -> &'static str {
    match a {
        Amplification::Unsampled => "no sampling",
        Amplification::Applied => "amplified BandMF: DP-SGD over ⌈T/b⌉ rounds (PLD)",
        Amplification::Pending => "amplified σ: computing…",
        Amplification::NotKnown => "not known: unamplified σ",
    }
}

/// The table, the Gaussian mechanism's σ and ρ, the error chart and the heat maps.
#[component]
fn MfResults(result: Shown, bg: Background, params: Memo<MfParams>) -> impl IntoView {
    let ok = move || result.get().and_then(Result::ok);
    let value = move |f: fn(&MfReport) -> f64| {
        Signal::derive(move || {
            result.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map_or(f64::NAN, f))
        })
    };
    let chart = Memo::new(move |_| ok().map(|r| specs::error_chart(&r)));
    let rows = move || {
        ok().map(|r| {
            r.rows
                .into_iter()
                .map(|row| {
                    let key = row.kind.key();
                    let cell = |what: &str, x: f64, text: String| {
                        view! { <td data-testid=format!("mf-{what}-{key}") data-value=exact(x)>{text}</td> }
                    };
                    let eps_text = match row.lower {
                        Some(l) => format!("{} (≥ {})", row.guarantee.inequality(4), Side::Lower.digits(l, 4)),
                        None => row.guarantee.inequality(4),
                    };
                    view! {
                        <tr>
                            <th scope="row">{row.name.clone()}</th>
                            {cell("sens", row.sensitivity, sig_up(row.sensitivity, 4))}
                            {cell("sigma", row.sigma, sig_up(row.sigma, 4))}
                            <td data-testid=format!("mf-eps-{key}") data-value=exact(row.guarantee.eps)
                                title=row.guarantee.claim(4)>{eps_text}</td>
                            {cell("rmse", row.rmse, sig(row.rmse, 4))}
                            {cell("max", row.max_error, sig(row.max_error, 4))}
                            <td data-testid=format!("mf-amp-{key}")>{amplification_words(row.amplification)}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let blt_line = move || {
        let status = bg.blt_status.get();
        match bg.blt.get() {
            Some(Err(e)) => format!("The BLT could not be optimised: {e}"),
            Some(Ok(b)) => format!(
                "BLT: {} buffers, decays {}, loss {} (Δ² × mean error, unit σ).",
                b.blt.decay.len(),
                b.blt
                    .decay
                    .iter()
                    .map(|t| sig(*t, 4))
                    .collect::<Vec<_>>()
                    .join(", "),
                sig(b.loss, 6)
            ),
            None => status,
        }
    };
    let maps = Memo::new(move |_| {
        let found = bg
            .blt
            .with(|b| b.as_ref().and_then(|r| r.as_ref().ok().cloned()));
        params.with(|p| heat_maps(p, found.as_ref()))
    });
    let c_map = Memo::new(move |_| maps.get().map(|h| specs::strategy_map(&h)));
    let b_map = Memo::new(move |_| maps.get().and_then(|h| specs::decoder_map(&h)));
    let map_title = move |what: &str| {
        let what = what.to_string();
        Signal::derive(move || {
            maps.get().map_or(String::new(), |h| {
                format!("{what}, {}: first {} steps", h.name, h.steps)
            })
        })
    };
    view! {
        <p class="notices" role="alert" data-testid="mf-error" hidden=move || !matches!(result.get(), Some(Err(_)))>
            {move || result.get().and_then(Result::err)}
        </p>
        <p class="help" role="status" hidden=move || result.with(Option::is_some)>"Computing the report in the background…"</p>
        <StatGroup title="The target, as a Gaussian mechanism">
            <Stat label="noise multiplier σ_G for the target (rounded up)" testid="mf-sigma-gaussian"
                value=value(|r| r.sigma_gaussian) side=Side::Upper />
            <Stat label="its ρ-zCDP" testid="mf-rho" value=value(|r| r.rho) />
        </StatGroup>
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="mf-table">
                <caption>"Each strategy at the σ that makes the whole stream meet the target; neighbours differ by one record (added or removed)"</caption>
                <thead><tr>
                    <th scope="col">"strategy"</th>
                    <th scope="col">"sensitivity (× one pass)"</th>
                    <th scope="col">"σ for the target"</th>
                    <th scope="col">"ε at δ (certified)"</th>
                    <th scope="col">"RMSE of the sums"</th>
                    <th scope="col">"max error"</th>
                    <th scope="col">"sampling"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="help" data-testid="mf-blt-status" role="status">{blt_line}</p>
        <p class="notices" role="alert" hidden=move || !matches!(bg.amplified.get(), Some(Err(_)))>
            {move || bg.amplified.get().and_then(Result::err).map(|e| format!("Amplified BandMF's σ could not be found: {e}"))}
        </p>
        <p class="help">
            "σ is the noise multiplier of the strategy scaled to column norm 1 (noise std over the clipping norm, "
            "as in DP-SGD); errors are in clipping norms. Without sampling each ε is the Gaussian mechanism's at "
            "σ/Δ. With sampling (q), BandMF with b ≤ T/k bands and independent noise are as private as DP-SGD over "
            "⌈T/b⌉ rounds (Choquette-Choo et al. 2023, Theorem 4), accounted by the PLD from both sides; no such "
            "result is known for the tree, the square root or a BLT, so they keep their unamplified σ."
        </p>
        <XyCanvas testid="mf-error-chart" title=Signal::stored("Error of the released prefix sums, step by step".to_string())
            look_for="Independent noise climbs like √t; the square root and the BLT stay nearly flat, and the bands sit between."
            alt=Signal::derive(move || ok().map_or(String::new(), |r| {
                let first = &r.rows[0];
                let best = r.rows.iter().min_by(|a, b| a.rmse.total_cmp(&b.rmse)).unwrap_or(first);
                format!("RMSE: {} for independent noise, {} for {}.", sig(first.rmse, 3), sig(best.rmse, 3), best.name)
            }))
            chart=chart csv_name="mf-error.csv" />
        <div class="chart-grid">
            <HeatCanvas testid="mf-chart-c" title=map_title("The strategy C")
                look_for="Noise is added to C·x: a Toeplitz C repeats its first column down each diagonal, the tree's rows are its blocks."
                alt=Signal::derive(move || maps.get().map_or("The BLT is still being optimised.".to_string(), |h| format!("C of the {}, {} × {}.", h.name, h.c_rows, h.steps)))
                map=c_map csv_name="mf-strategy.csv" />
            <HeatCanvas testid="mf-chart-b" title=map_title("The decoder B = A·C⁻¹")
                look_for="The released sums are B(Cx + z): B's rows weigh the noisy values; for the square root, B is C itself."
                alt=Signal::derive(move || maps.get().map_or(String::new(), |h| if h.b.is_some() { format!("B of the {}.", h.name) } else { "Honaker's decoder is a least-squares fit, not drawn.".into() }))
                map=b_map csv_name="mf-decoder.csv" />
        </div>
    }
}

/// One sentence: the best strategy's error against independent noise's at the target.
fn headline(p: &MfParams, r: &Option<Result<MfReport, String>>) -> String {
    match r {
        None => "Computing the report in the background…".into(),
        Some(Err(e)) => e.clone(),
        Some(Ok(r)) => {
            let Some(first) = r.rows.first() else {
                return String::new();
            };
            let best = r
                .rows
                .iter()
                .min_by(|a, b| a.rmse.total_cmp(&b.rmse))
                .unwrap_or(first);
            format!(
                "At {} over {} steps ({} pass{}), the running sums carry an RMSE of {} clipping norms with the {}, against {} with independent noise: {}× less.",
                target_words(p),
                p.steps,
                p.epochs,
                if p.epochs == 1 { "" } else { "es" },
                sig(best.rmse, 3),
                best.name,
                sig(first.rmse, 3),
                sig(first.rmse / best.rmse, 3)
            )
        }
    }
}
