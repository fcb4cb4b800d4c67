//! The mechanisms lab (`?lab=mechanisms`): parameters from the link, the core's results as memos split
//! by what they depend on, and the lab's parts laid out around them.

mod calibration;
mod controls;
mod em;
mod pictures;
mod queries;
mod zcdp;

use crate::labs::mechanisms::calibration::MechCalibration;
use crate::labs::mechanisms::controls::MechControls;
use crate::labs::mechanisms::em::MechEm;
use crate::labs::mechanisms::pictures::MechPictures;
use crate::labs::mechanisms::queries::MechQueries;
use crate::labs::mechanisms::zcdp::MechZcdp;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::glossary::Term;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::statement_panel::StatementPanel;
use dp_playground::labs::mechanisms::claims::headline;
use dp_playground::labs::mechanisms::claims::{statement_facts, statement_guarantee};
use dp_playground::labs::mechanisms::jobs::{MechJob, MechUpdate};
use dp_playground::labs::mechanisms::share::{dp_accounting_snippet, markdown};
use dp_playground::labs::mechanisms::{
    calibrate, exponential, many_queries, noise, pictures, samples, Calibration, ExponentialReport,
    ManyQueries, MechParams, Mechanism, Noise, Pictures, Samples,
};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
use dp_playground::mechanisms::many_queries::MaxErrorSimulation;
use leptos::prelude::*;

/// The pool's name for this lab's jobs.
const SIM_GROUP: &str = "mech-queries";

/// The lab's derived state, shared by its parts.
#[derive(Clone, Copy)]
pub struct MechState {
    /// The parameters in use (bad link values replaced by defaults).
    pub params: Memo<MechParams>,
    /// What the link asked for that was refused.
    pub notices: Memo<Vec<Notice>>,
    /// Every calibration for the link's (ε, δ, Δ), or why not.
    pub calibration: Memo<Result<Calibration, String>>,
    /// The noise in use (none for the exponential mechanism).
    pub noise: Memo<Option<Noise>>,
    /// Its curves.
    pub pictures: Memo<Option<Pictures>>,
    /// Its seeded sample.
    pub samples: Memo<Option<Samples>>,
    /// The exponential mechanism's numbers.
    pub em: Memo<Result<ExponentialReport, String>>,
    /// The many-queries comparison.
    pub queries: Memo<Option<ManyQueries>>,
    /// Time of the last calibration + pictures, in ms.
    pub compute_ms: Memo<f64>,
}

impl MechState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }

    /// Whether the lab shows `mech`.
    pub fn is(&self, mech: Mechanism) -> Signal<bool> {
        let params = self.params;
        Signal::derive(move || params.with(|p| p.mech == mech))
    }
}

/// The mechanisms lab.
#[component]
pub fn MechLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| MechParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let timed = Memo::new(move |_| {
        let start = now_ms();
        let p = params.get();
        let cal = calibrate(&p).map_err(|e| e.to_string());
        let noise = cal.as_ref().ok().and_then(|c| noise(&p, c).ok().flatten());
        let pics = noise.as_ref().map(|n| pictures(&p, n));
        (cal, noise, pics, now_ms() - start)
    });
    let noise = Memo::new(move |_| timed.with(|t| t.1));
    let sample_inputs = Memo::new(move |_| params.with(|p| (p.draws, p.seed, p.sens, p.mech)));
    let sim_inputs = Memo::new(move |_| params.with(|p| (p.kmax, p.seed)));
    // The many-queries simulation (0.8–4 million draws: 75–400 ms) runs in a worker; moving ε or Δ
    // only rescales it, so it runs again only when k_max or the seed changes.
    let sim = RwSignal::new(None::<MaxErrorSimulation>);
    let sim_jobs = LabJobs::new(SIM_GROUP);
    Effect::new(move |_| {
        let (kmax, seed) = sim_inputs.get();
        let current = sim_jobs.restart();
        sim.set(None);
        leptos::task::spawn_local(async move {
            let mut out = None;
            let job = MechJob::ManyQueries(kmax, seed);
            let ended = pool::run(SIM_GROUP, &job, |MechUpdate::ManyQueries(r)| out = r.ok()).await;
            if ended.is_ok() && current() {
                sim.set(out);
            }
        });
    });
    let state = MechState {
        params,
        notices,
        calibration: Memo::new(move |_| timed.with(|t| t.0.clone())),
        noise,
        pictures: Memo::new(move |_| timed.with(|t| t.2.clone())),
        samples: Memo::new(move |_| {
            sample_inputs.track();
            noise.get().map(|n| samples(&params.get_untracked(), &n))
        }),
        em: Memo::new(move |_| {
            let p = params.get();
            if p.mech == Mechanism::Exponential {
                exponential(&p).map_err(|e| e.to_string())
            } else {
                Err(String::new())
            }
        }),
        queries: Memo::new(move |_| {
            let p = params.get();
            sim.with(|s| s.as_ref().and_then(|s| many_queries(&p, s).ok()))
        }),
        compute_ms: Memo::new(move |_| timed.with(|t| t.3)),
    };
    provide_context(state);
    let share_markdown = Signal::derive(move || {
        state.calibration.with(|c| {
            c.as_ref()
                .map(|c| markdown(&params.get(), c, state.em.get().ok().as_ref()))
                .unwrap_or_default()
        })
    });
    let share_snippet = Signal::derive(move || {
        let code = state.calibration.with(|c| {
            c.as_ref()
                .map(|c| dp_accounting_snippet(&params.get(), c))
                .unwrap_or_default()
        });
        (
            "Check the analytic σ with Google's dp_accounting (Python)".to_string(),
            code,
        )
    });
    let is_em = state.is(Mechanism::Exponential);
    view! {
        <LabPage heading_id="mech-title" title="Mechanisms and their privacy loss"
            headline=Signal::derive(move || mech_headline(&state))
            intro=|| view! {
                <p class="plain" data-testid="mech-plain">
                    "Differential privacy promises that what anyone sees hardly depends on whether your record is in the data. "
                    <Term id="epsilon">"ε"</Term>" says how much it may depend: every outcome is at most e"<sup>"ε"</sup>
                    " times more likely with your record than without (ε = 1: at most 2.7 times). "
                    <Term id="delta">"δ"</Term>" is the small chance that this promise fails, and should be far below one over the number of people."
                </p>
                <p>
                    "One query with sensitivity Δ: on data set x it answers 0, on a "<Term id="neighbours">"neighbour"</Term>" x′ it answers Δ. "
                    "A mechanism adds noise so that the two output distributions are hard to tell apart. "
                    "See how much noise each mechanism needs for a target (ε, δ), and what the guarantee "
                    "means: the densities, the "<Term id="bad-set">"bad set"</Term>", the "<Term id="privacy-loss">"privacy loss"</Term>
                    ", the "<Term id="privacy-profile">"privacy profile"</Term>" δ(ε) and the "
                    <Term id="f-dp">"trade-off"</Term>" between the two errors of anyone trying to tell x from x′."
                </p>
            }
            controls=move || view! {
                <MechControls />
            }
        >
            <MechCalibration />
            // Below the fold, in stages: built once the first frames are painted.
            <AfterPaint>
                <Show when=move || !is_em.get() fallback=|| view! { <MechEm /> }>
                    <MechPictures />
                </Show>
            </AfterPaint>
            <AfterPaint frames=2>
                <Show when=move || state.is(Mechanism::Gaussian).get()>
                    <MechZcdp />
                </Show>
            </AfterPaint>
            <AfterPaint frames=3>
                <MechQueries />
            </AfterPaint>
            <AfterPaint frames=4>
                <StatementPanel guarantee=Signal::derive(move || {
                    let n = state.noise.get();
                    state.params.with(|p| statement_guarantee(p, n.as_ref()))
                }) facts=Signal::derive(move || {
                    let n = state.noise.get();
                    let link = url.query.with(|q| q.to_query_string());
                    state.params.with(|p| statement_facts(p, n.as_ref(), &link))
                }) />
                <SharePanel lab=Lab::Mechanisms markdown=share_markdown snippet=share_snippet />
            </AfterPaint>
        </LabPage>
    }
}

/// The lab's headline: the noise in use and the guarantee it gives ([`headline`]).
fn mech_headline(state: &MechState) -> String {
    let p = state.params.get();
    let noise = state.noise.get();
    let em = (p.mech == Mechanism::Exponential).then(|| state.em.get());
    let error = state.calibration.with(|c| c.as_ref().err().cloned());
    headline(&p, noise.as_ref(), em.as_ref(), error.as_deref())
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_mech() -> MechState {
    expect_context::<MechState>()
}
