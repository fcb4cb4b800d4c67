//! The correlated-noise lab (`?lab=mf`): each factorization's noise multiplier for a target (ε, δ)
//! and the error of the stream's released prefix sums at it, side by side, computed on the page (the
//! core's `labs::mf::report`, O(T·bands) per strategy).

use crate::charts::specs::mf as specs;
use crate::format::{exact, sig, sig_up};
use crate::platform::url::use_url;
use crate::widgets::lab_page::LabPage;
use crate::widgets::number_field::NumberField;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::stat::{Stat, StatGroup};
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::labs::mf::{report, MfParams, MfReport};
use dp_playground::labs::Lab;
use dp_playground::link::query::{fmt_f64, LinkParams};
use leptos::prelude::*;

/// The correlated-noise lab.
#[component]
pub fn MfLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| MfParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let error_for = move |key| crate::widgets::notices::notice_for(notices, key);
    let result = Memo::new(move |_| params.with(report).map_err(|e| e.to_string()));
    let shown = move |key: &'static str, in_use: fn(&MfParams) -> String| {
        url.raw_or(key, move || params.with(in_use))
    };
    let markdown = Signal::derive(move || {
        let mut rows = vec![
            ("steps T".to_string(), params.with(|p| p.steps.to_string())),
            ("passes k".into(), params.with(|p| p.epochs.to_string())),
            (
                "target (ε, δ)".into(),
                params.with(|p| format!("({}, {})", exact(p.eps), exact(p.delta))),
            ),
        ];
        if let Ok(r) = result.get() {
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
                    "calibrated to the same target, without sampling."
                </p>
            }
            controls=move || view! {
                <h3>"Parameters"</h3>
                <NumberField label="Steps T" key="steps" value=shown("steps", |p| p.steps.to_string())
                    error=error_for("steps") slider=(16.0, 4096.0, 16.0)
                    help="Up to 100 000." />
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
            }
        >
            <MfResults result=result />
            <SharePanel lab=Lab::Mf markdown=markdown />
        </LabPage>
    }
}

/// The table, the Gaussian mechanism's σ and ρ, and the error chart.
#[component]
fn MfResults(result: Memo<Result<MfReport, String>>) -> impl IntoView {
    let ok = move || result.get().ok();
    let value = move |f: fn(&MfReport) -> f64| {
        Signal::derive(move || result.with(|r| r.as_ref().map_or(f64::NAN, f)))
    };
    let chart = Memo::new(move |_| ok().map(|r| specs::error_chart(&r)));
    let rows = move || {
        ok().map(|r| {
            r.rows
                .into_iter()
                .map(|row| {
                    let cell = |what: &str, x: f64, text: String| {
                        view! { <td data-testid=format!("mf-{what}-{}", row.key) data-value=exact(x)>{text}</td> }
                    };
                    view! {
                        <tr>
                            <th scope="row">{row.name}</th>
                            {cell("sens", row.sensitivity, sig_up(row.sensitivity, 4))}
                            {cell("sigma", row.sigma, sig_up(row.sigma, 4))}
                            {cell("rmse", row.rmse, sig(row.rmse, 4))}
                            {cell("max", row.max_error, sig(row.max_error, 4))}
                            <td>{if row.amplifiable { "known: DP-SGD over ⌈T/b⌉ rounds" } else { "not known" }}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <p class="notices" role="alert" data-testid="mf-error" hidden=move || result.with(Result::is_ok)>
            {move || result.get().err()}
        </p>
        <StatGroup title="The target, as a Gaussian mechanism">
            <Stat label="noise multiplier σ_G for (ε, δ) (rounded up)" testid="mf-sigma-gaussian"
                value=value(|r| r.sigma_gaussian) side=Side::Upper />
            <Stat label="its ρ-zCDP" testid="mf-rho" value=value(|r| r.rho) />
        </StatGroup>
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="mf-table">
                <caption>"Each strategy at the σ that makes the whole stream (ε, δ)-DP: no sampling, neighbours differ by one record (added or removed)"</caption>
                <thead><tr>
                    <th scope="col">"strategy"</th>
                    <th scope="col">"sensitivity (× one pass)"</th>
                    <th scope="col">"σ for the target"</th>
                    <th scope="col">"RMSE of the sums"</th>
                    <th scope="col">"max error"</th>
                    <th scope="col">"amplification by sampling"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="help">
            "σ is the noise multiplier of the strategy scaled to column norm 1 (noise std over the clipping norm, "
            "as in DP-SGD); errors are in clipping norms. The BLT is the 3-buffer one jax_privacy's optimiser "
            "starts from, not yet optimised for this T. Where amplification is known (BandMF with b groups of "
            "records, cyclic Poisson sampling), the sampled run's ε is DP-SGD's over ⌈T/b⌉ rounds: the DP-SGD lab "
            "accounts for it."
        </p>
        <XyCanvas testid="mf-error-chart" title=Signal::stored("Error of the released prefix sums, step by step".to_string())
            look_for="Independent noise climbs like √t; the square root and the BLT stay nearly flat, and the bands sit between."
            alt=Signal::derive(move || ok().map_or(String::new(), |r| {
                let first = &r.rows[0];
                let best = r.rows.iter().min_by(|a, b| a.rmse.total_cmp(&b.rmse)).unwrap_or(first);
                format!("RMSE: {} for independent noise, {} for {}.", sig(first.rmse, 3), sig(best.rmse, 3), best.name)
            }))
            chart=chart csv_name="mf-error.csv" />
    }
}

/// One sentence: the best strategy's error against independent noise's at the target.
fn headline(p: &MfParams, r: &Result<MfReport, String>) -> String {
    match r {
        Err(e) => e.clone(),
        Ok(r) => {
            let Some(first) = r.rows.first() else {
                return String::new();
            };
            let best = r
                .rows
                .iter()
                .min_by(|a, b| a.rmse.total_cmp(&b.rmse))
                .unwrap_or(first);
            format!(
                "At (ε, δ) = ({}, {}) over {} steps ({} pass{}), the running sums carry an RMSE of {} clipping norms with the {}, against {} with independent noise: {}× less.",
                sig(p.eps, 4),
                sig(p.delta, 3),
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
