//! The training lab's results: play, pause, one step and reset; the accuracies and ε; the curves, ε
//! against the step, the gradient norms, the decision regions of a 2-D model, and the sweep.

use crate::charts::specs::train as specs;
use crate::format::sig;
use crate::labs::train::use_train;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::heat_canvas::HeatCanvas;
use crate::widgets::stat::{Stat, StatGroup};
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::samplers::Sampler;
use dp_playground::accounting::training::jobs::Background;
use dp_playground::accounting::training::{running_epsilon, StepRdp};
use dp_playground::labs::train::jobs::summarise;
use dp_playground::labs::train::report::{decision_grid, guarantee, target_notice};
use dp_playground::labs::train::run::Point;
use dp_playground::labs::train::weights_json;
use dp_playground::learning::correlated::Mechanism;
use leptos::prelude::*;

/// Results of the lab.
#[component]
pub fn TrainResults() -> impl IntoView {
    let lab = use_train();
    let url = use_url();
    let run = lab.run;
    let point = move |f: fn(&Point) -> f64| {
        Signal::derive(move || run.with(|r| r.last().map_or(f64::NAN, f)))
    };
    let planned = move || lab.steps.get().unwrap_or(0);
    let step = Signal::derive(move || run.with(|r| r.step() as f64));
    let band = move || lab.pld.with(Background::band);
    let sampler_eps = move || {
        lab.pld
            .with(|b| b.sampler.as_ref().and_then(|r| r.as_ref().ok()).copied())
    };
    let eps_pld = Signal::derive(move || band().map_or(f64::NAN, |b| b.upper));
    let eps_rdp = Signal::derive(move || lab.rdp.with(|r| r.as_ref().map_or(f64::NAN, |r| r.eps)));
    // Recomputed when the step moves, not on every update.
    let step_now = Memo::new(move |_| run.with(|r| r.step()));
    // The run's own sampler's certified accountant (none for shuffled batches: NaN).
    let step_eps = Memo::new(move |_| lab.accounting.with(StepRdp::for_run));
    // A correlated-noise run's guarantee over the planned steps (`None` for DP-SGD).
    let correlated = Memo::new(move |_| {
        (lab.params.with(|p| p.mech) != Mechanism::DpSgd)
            .then(|| crate::labs::train::with_headline_inputs(&lab, guarantee))
            .flatten()
    });
    // Never above a certified bound at a later step: the PLD's curve for Poisson batches, the
    // sampler's own upper bound at T otherwise (RDP alone read above the planned total). Amplified
    // BandMF's accounted steps are rounds of b steps; the tree's and a BLT's ε is known only over
    // the planned steps, which bounds every prefix (the first t releases are post-processing of all).
    let eps_now_memo = Memo::new(move |_| {
        if lab.awaiting.get() {
            return f64::NAN;
        }
        let (delta, mech, per) = lab
            .params
            .with(|p| (p.delta, p.mech, p.steps_per_accounted_step()));
        if matches!(mech, Mechanism::Tree | Mechanism::Blt) {
            return correlated.with(|g| g.as_ref().map_or(f64::NAN, |g| g.eps));
        }
        let later: Vec<(f64, f64)> = if lab.accounting.with(|e| e.sampler) == Sampler::Poisson {
            lab.pld.with(|b| b.pld_points.clone())
        } else {
            let own = lab.pld.with(|b| {
                b.sampler
                    .as_ref()
                    .and_then(|r| r.as_ref().ok())
                    .and_then(|e| e.upper)
            });
            own.map(|u| (planned() as f64, u)).into_iter().collect()
        };
        let accounted = step_now.get().div_ceil(per);
        step_eps.with(|r| running_epsilon(r.as_ref(), &later, accounted, delta))
    });
    let eps_now = Signal::from(eps_now_memo);
    let norms = move |f: fn(&dp_playground::labs::train::run::Norms) -> f64| {
        Signal::derive(move || run.with(|r| r.norms.as_ref().map_or(f64::NAN, f)))
    };
    let rows = move || lab.csv_rows();
    let errors = move || {
        let mut out: Vec<String> = Vec::new();
        if let Err(e) = lab.steps.get() {
            out.push(e);
        }
        if let Some(e) = lab.failure.get() {
            out.push(e);
        }
        if let Some(e) = run.with(|r| r.stopped.as_ref().map(ToString::to_string)) {
            out.push(format!("Training stopped: {e}."));
        }
        out.extend(lab.pld.with(Background::errors));
        // Without a file the missing data is said once (by the steps' error).
        if let (Err(e), false) = (lab.rdp.get(), lab.awaiting.get()) {
            out.push(e);
        }
        out
    };
    let status = move || {
        let (t, total) = (run.with(|r| r.step()), planned());
        let training = if lab.playing.get() {
            format!("Training: step {t} of {total}…")
        } else {
            String::new()
        };
        let (left, failed) = lab.sweep_status.get();
        let sweep = if left > 0 {
            format!(" Sweep: {left} σ's to go…")
        } else {
            failed
                .map(|e| format!(" Sweep failed: {e}"))
                .unwrap_or_default()
        };
        let pld = lab.pld.with(Background::status);
        format!("{training}{sweep} {pld}").trim().to_owned()
    };
    let ms = Signal::derive(move || run.with(|r| r.evaluations.1));
    let rate = Signal::derive(move || run.with(|r| r.gradients_per_second()));
    let curves = Memo::new(move |_| {
        run.with(|r| (!r.points.is_empty()).then(|| specs::curves_chart(&r.points, false)))
    });
    let losses = Memo::new(move |_| {
        run.with(|r| (!r.points.is_empty()).then(|| specs::curves_chart(&r.points, true)))
    });
    let eps_chart = Memo::new(move |_| {
        lab.rdp.with(|r| {
            r.as_ref().ok().map(|r| {
                lab.pld.with(|b| {
                    let (mech, sampler, per) = lab
                        .params
                        .with(|p| (p.mech, p.sampler, p.steps_per_accounted_step()));
                    // The run's own ε at T when the curves are not its: another sampler's (NaN
                    // until computed), or the tree's and a BLT's exact one.
                    let own = match mech {
                        Mechanism::DpSgd if sampler == Sampler::Poisson => None,
                        Mechanism::DpSgd => {
                            let e = b.sampler.as_ref().and_then(|r| r.as_ref().ok());
                            Some((
                                planned() as f64,
                                e.map_or(f64::NAN, |e| e.headline()),
                                e.map_or("", |e| kind_words(e.kind)),
                            ))
                        }
                        Mechanism::BandMf { .. } => None,
                        Mechanism::Tree | Mechanism::Blt => Some((
                            planned() as f64,
                            correlated.with(|g| g.as_ref().map_or(f64::NAN, |g| g.eps)),
                            "correlated noise, exact",
                        )),
                    };
                    specs::eps_chart(
                        r,
                        &b.pld_points,
                        per as f64,
                        lab.params.with(|p| p.target_eps),
                        run.with(|x| x.step()),
                        own,
                        lab.params.with(|p| p.delta),
                    )
                })
            })
        })
    });
    let norms_chart = Memo::new(move |_| {
        run.with(|r| {
            r.norms
                .as_ref()
                .map(|n| specs::norms_chart(n, lab.params.with(|p| p.clip)))
        })
    });
    let is_2d = move || run.with(|r| r.prepared.as_ref().is_some_and(|d| d.dim == 2));
    let boundary = move |variant: usize| {
        Memo::new(move |_| {
            let theta = run.with(|r| {
                r.checkpoint
                    .as_ref()
                    .filter(|_| r.prepared.as_ref().is_some_and(|d| d.dim == 2))
                    .map(|c| c.theta[variant].clone())
            })?;
            let arch = lab.params.with(|p| p.architecture(2));
            let (c, v) = decision_grid(&arch, &theta, 3.0, 48);
            Some(specs::boundary_map(c, v))
        })
    };
    let (private_map, baseline_map) = (boundary(0), boundary(2));
    let utility = Memo::new(move |_| {
        lab.sweep.with(|s| {
            (!s.is_empty()).then(|| {
                let (curve, base) = summarise(s);
                let x_desc = match lab.params.with(|p| p.sampler) {
                    Sampler::Poisson => "ε (PLD, certified; log scale)",
                    _ => "ε for the run's sampler (its kind is above; log scale)",
                };
                specs::utility_chart(&curve, base, x_desc)
            })
        })
    });
    let weights_href = move || {
        run.with(|r| {
            let (Some(d), Some(c)) = (r.prepared.as_ref(), r.checkpoint.as_ref()) else {
                return String::new();
            };
            let json = lab.params.with(|p| weights_json(p, d, c.step, &c.theta[0]));
            format!(
                "data:application/json;charset=utf-8,{}",
                js_sys::encode_uri_component(&json)
            )
        })
    };
    let handoff = move |link: fn(
        &dp_playground::accounting::event::TrainingEvent,
        f64,
    ) -> dp_playground::link::query::Query| {
        let delta = lab.params.with(|p| p.delta);
        url.href_to(&lab.accounting.with(|a| link(a, delta)).to_query_string())
    };
    let dpsgd_link = move || handoff(dp_playground::link::handoff::dpsgd_link_for_run);
    let attack_link = move || handoff(dp_playground::link::handoff::attack_link_for_run);
    let passed_target = move || crate::labs::train::with_headline_inputs(&lab, target_notice);
    let locked = move || url.options.with(|o| o.locked);
    view! {
        {move || errors().into_iter().map(|e| view! { <p class="notices" role="alert">{e}</p> }).collect_view()}
        // A run planned in the DP-SGD lab for another data size: what that changes, and the batch size kept on request.
        {move || lab.params.with(|p| p.plan_note(rows())).map(|text| view! {
            <p class="notices" role="note" data-testid="train-plan-note">
                {text}" "
                <button type="button" class="small" data-testid="train-keep-batch" disabled=locked
                    hidden=move || lab.params.with(|p| p.q.is_none())
                    on:click=move |_| url.commit(|q| { q.remove("q"); q.remove("steps"); })>
                    {move || format!("Keep batch {} instead", lab.params.with(|p| p.batch))}
                </button>
            </p>
        })}
        <div class="presets" role="group" aria-label="Training">
            <button type="button" data-testid="train-play" disabled=locked
                on:click=move |_| if lab.playing.get_untracked() { lab.pause() } else { lab.train(run.with_untracked(|r| r.checkpoint.is_none()), planned()) }>
                {move || if lab.playing.get() { "Pause" } else { "Play" }}
            </button>
            <button type="button" data-testid="train-step" disabled=move || locked() || lab.playing.get()
                on:click=move |_| {
                    let (fresh, t) = run.with_untracked(|r| (r.checkpoint.is_none(), r.step()));
                    lab.train(fresh, (t + 1).min(planned()));
                }>
                "One step"
            </button>
            <button type="button" data-testid="train-reset" disabled=locked on:click=move |_| lab.train(true, 0)>"Reset"</button>
        </div>
        <p class="status" role="status" data-testid="train-status">{status}</p>
        {move || passed_target().map(|text| view! {
            <p class="notices" role="note" data-testid="train-target-passed">
                {text}" "
                <button type="button" class="small" data-testid="train-stop-at-target" hidden=move || locked() || !StepRdp::exists_for(lab.params.with(|p| p.sampler)) || lab.params.with(|p| p.mech != Mechanism::DpSgd)
                    on:click=move |_| url.commit_set("stop", "1")>"Stop at the target"</button>
            </p>
        })}
        <StatGroup title="What the model learned">
            <Stat label="test accuracy, DP-SGD" testid="train-acc-test" value=point(|p| p.test_acc[0]) />
            <Stat label="training accuracy, DP-SGD" testid="train-acc-train" value=point(|p| p.train_acc[0]) />
            <Stat label="test log-loss, DP-SGD" testid="train-loss-test" value=point(|p| p.test_loss[0]) />
            <Stat label="test accuracy, clipping only" testid="train-acc-clip-only" value=point(|p| p.test_acc[1]) />
            <Stat label="test accuracy, non-private" testid="train-acc-baseline" value=point(|p| p.test_acc[2]) />
            <Stat label="steps taken" testid="train-steps" value=step digits=8 />
        </StatGroup>
        <p class="notices" role="note" data-testid="train-no-data" hidden=move || !lab.awaiting.get()>{super::NO_DATA}</p>
        <StatGroup title="What it cost in privacy">
            <Stat label="ε after the planned steps, PLD (certified upper bound)" testid="train-eps" side=Side::Upper value=eps_pld />
            <Stat label="ε after the planned steps, RDP (certified, looser than the PLD)" testid="train-eps-rdp" side=Side::Upper value=eps_rdp />
            <Stat label="ε spent so far (certified upper bound, never above the planned total's)" testid="train-eps-now" side=Side::Upper value=eps_now />
            <Stat label="sampling rate q" testid="train-q" value=Signal::derive(move || if lab.awaiting.get() { f64::NAN } else { lab.params.with(|p| p.rate(rows())) }) />
            <Stat label="planned steps" testid="train-planned-steps" value=Signal::derive(move || lab.steps.get().map_or(f64::NAN, |t| t as f64)) digits=8 />
        </StatGroup>
        // The run's own sampler, when not Poisson: its ε (from the PLD job) and which kind it is.
        <div hidden=move || sampler_eps().is_none() data-testid="train-sampler">
            <p class="notices" role="note">
                "This run's batches are not Poisson samples: the PLD and RDP numbers above assume Poisson sampling and do not apply to it. "
                "Its own ε is below, with which kind of number it is (a lower bound only, for shuffled batches)."
            </p>
            <div class="stats">
                <Stat label="ε for this run's sampler" testid="train-eps-sampler" value=Signal::derive(move || sampler_eps().map_or(f64::NAN, |e| e.headline())) />
                <div class="stat"><span class="stat-label">"which kind of number"</span>
                    <span class="stat-value" data-testid="train-eps-sampler-side" data-value=move || sampler_eps().map_or("", |e| e.kind.key())>
                        {move || sampler_eps().map_or("", |e| e.kind.key())}</span></div>
            </div>
        </div>
        // A correlated-noise run: its own ε, and what the PLD and RDP cards above are about.
        <div hidden=move || lab.params.with(|p| p.mech == Mechanism::DpSgd) data-testid="train-correlated">
            <p class="notices" role="note">{move || correlated_note(lab.params.with(|p| p.mech), lab.accounting.with(|e| e.steps))}</p>
            <div class="stats">
                <Stat label="ε for this run's correlated noise (certified upper bound)" testid="train-eps-correlated" side=Side::Upper
                    value=Signal::derive(move || correlated.with(|g| g.as_ref().map_or(f64::NAN, |g| g.eps))) />
                // Amplified BandMF's accountant needs no Δ: the card is for the tree and a BLT.
                <div hidden=move || lab.params.with(|p| matches!(p.mech, Mechanism::BandMf { .. }))>
                    <Stat label="sensitivity Δ over the run's epochs (one participation = 1)" testid="train-mf-sensitivity"
                        value=Signal::derive(move || run.with(|r| r.prepared.as_ref().and_then(|d| d.noise.as_ref()).map_or(f64::NAN, |n| n.sensitivity))) />
                </div>
            </div>
        </div>
        <StatGroup title="Clipping">
            <Stat label="rows whose gradient is clipped (at the current model)" testid="train-clipped-fraction" value=norms(|n| n.clipped) />
            <Stat label="median gradient norm" testid="train-grad-norm-median" value=norms(|n| n.median) />
            <Stat label="clipped in the batches so far" testid="train-clipped-in-batches" value=Signal::derive(move || run.with(|r| r.clipped_fraction_in_batches())) />
        </StatGroup>
        <Diagnostics>
            <Stat label="last training job took (ms)" testid="train-ms" value=ms digits=3 />
            <Stat label="per-example gradients per second" testid="train-grad-rate" value=rate digits=3 />
        </Diagnostics>
        <p class="help">
            <a data-testid="train-dpsgd-link" target=url.other_lab_target() rel="noopener" href=dpsgd_link>"This configuration in the DP-SGD lab →"</a>
            " · "
            <a data-testid="train-attack-link" target=url.other_lab_target() rel="noopener" href=attack_link>"What can an attacker learn? →"</a>
            " · "
            <a data-testid="train-weights" download="dp-sgd-weights.json" href=weights_href>"The private model's weights (JSON)"</a>
        </p>
        <AfterPaint>
            <div class="chart-grid">
                <XyCanvas testid="train-chart-curves" look_for="Compare the test curves: the gap from non-private to clipping only is clipping's cost, from clipping only to DP-SGD the noise's." title="Accuracy as training goes on"
                    alt=Signal::derive(move || format!("Test accuracy: {} with DP-SGD, {} with clipping only, {} without privacy.",
                        sig(point(|p| p.test_acc[0]).get(), 3), sig(point(|p| p.test_acc[1]).get(), 3), sig(point(|p| p.test_acc[2]).get(), 3)))
                    chart=curves csv_name="train-accuracy.csv" />
                <XyCanvas testid="train-chart-eps" look_for="Watch ε grow with every step, ever more slowly; if it reaches the dashed target line, that step is where training should stop." title="ε as training goes on"
                    alt=Signal::derive(move || format!("After the planned steps ε ≤ {} (PLD), ≤ {} (RDP); spent so far ≤ {}.", crate::format::sig_up(eps_pld.get(), 4), crate::format::sig_up(eps_rdp.get(), 4), crate::format::sig_up(eps_now.get(), 4)))
                    chart=eps_chart csv_name="train-eps.csv" />
                <XyCanvas testid="train-chart-norms" look_for="Notice where C sits among the gradient norms: every row to its right is clipped, so a C below the median clips most rows." title="Per-example gradient norms and the clipping norm"
                    alt=Signal::derive(move || format!("Median norm {}; {} of rows clipped.", sig(norms(|n| n.median).get(), 3), sig(norms(|n| n.clipped).get(), 3)))
                    chart=norms_chart csv_name="train-gradient-norms.csv" />
                <XyCanvas testid="train-chart-loss" look_for="Watch each model's log-loss fall as it trains, and compare test (solid) with training (dashed): a widening gap means overfitting." title="Log-loss as training goes on"
                    alt=Signal::derive(move || format!("Test log-loss with DP-SGD: {}.", sig(point(|p| p.test_loss[0]).get(), 3)))
                    chart=losses csv_name="train-loss.csv" />
            </div>
        </AfterPaint>
        <p class="help" data-testid="train-norms-note">
            {move || run.with(|r| r.norms.as_ref().and_then(|n| n.in_words(lab.params.with(|p| p.clip))))}
        </p>
        <AfterPaint frames=2>
            <div class="chart-grid" hidden=move || !is_2d()>
                <HeatCanvas testid="train-chart-boundary" look_for="Look for the boundary where the colour flips (P(y = 1) = ½) and compare it with the non-private map: how far did noise and clipping move it?" title="Decision regions, DP-SGD"
                    alt=Signal::derive(|| "P(y = 1) − ½ of the private model over the standardised plane.".to_string())
                    map=private_map csv_name="train-boundary-private.csv" />
                <HeatCanvas testid="train-chart-boundary-baseline" look_for="Compare with the DP-SGD map: this model trains on the same batches with neither clipping nor noise, so the differences are privacy's price." title="Decision regions, non-private"
                    alt=Signal::derive(|| "P(y = 1) − ½ of the non-private model.".to_string())
                    map=baseline_map csv_name="train-boundary-non-private.csv" />
            </div>
            <section class="panel" aria-labelledby="utility-title" data-part="utility" hidden={let shown = crate::widgets::parts::use_part("utility", "Privacy–utility sweep", false); move || !shown()}>
                <h3 id="utility-title">"What privacy costs: test accuracy against ε"</h3>
                <p class="help">"Each σ of the sweep trained with every seed (data and split fixed by the link's seed) for the planned q, C, η and T, in the worker pool; ε is the PLD accountant's certified upper bound (with another sampler, that sampler's own statement: a lower bound for shuffled batches)."</p>
                <XyCanvas testid="train-chart-utility" look_for="Watch accuracy climb towards the non-private line as ε grows (less noise), with the ± 1 sd lines showing the spread over seeds." title="Test accuracy against ε"
                    alt=Signal::derive(move || format!("{} of {} σ's done.", lab.sweep.with(Vec::len), lab.params.with(|p| p.sweep.len())))
                    chart=utility csv_name="train-utility.csv" />
            </section>
            <p class="help" data-testid="train-data-note">
                {move || run.with(|r| r.prepared.as_ref().map(|d| format!(
                    "{} training rows, {} test rows, {} features, {} parameters.{}",
                    d.train_rows, d.test_rows, d.dim, d.params,
                    if d.constant.is_empty() { String::new() } else { format!(" Constant columns (centred only): {:?}.", d.constant) })))}
                " Data: Breast Cancer Wisconsin (Diagnostic), W. H. Wolberg, W. N. Street and O. L. Mangasarian; Adult, R. Kohavi and B. Becker (a sample of 8,000 complete rows); both UCI Machine Learning Repository, CC BY 4.0. "
                "Standardisation reads the training rows' mean and spread without privacy, as most DP-SGD tutorials do."
            </p>
        </AfterPaint>
    }
}

/// What the PLD and RDP cards mean for a correlated-noise run (`rounds`: the accounted event's steps).
fn correlated_note(mech: Mechanism, rounds: u64) -> String {
    match mech {
        Mechanism::DpSgd => String::new(),
        Mechanism::BandMf { bands } => format!(
            "This run adds BandMF's correlated noise and samples its {bands} groups of rows in turn: it is as private as DP-SGD \
             over ⌈T/{bands}⌉ = {rounds} rounds at rate q·{bands} (amplified BandMF, Choquette-Choo et al. 2023, Theorem 4), \
             which is what the PLD and RDP numbers above account for."
        ),
        _ => format!(
            "This run adds {}'s correlated noise to batches in a fixed order; no amplification by sampling is known for it, \
             so its ε is the Gaussian mechanism's at σ/Δ, exact. The PLD and RDP numbers above are DP-SGD's at the same σ \
             with Poisson batches, for comparison: they are not this run's.",
            mech.title()
        ),
    }
}

/// A sampler's kind of ε in the chart's legend.
fn kind_words(kind: dp_playground::accounting::samplers::Kind) -> &'static str {
    use dp_playground::accounting::samplers::Kind;
    match kind {
        Kind::Exact => "exact",
        Kind::Upper => "certified upper bound",
        Kind::Lower => "lower bound",
    }
}
