//! The statement's work, for the worker pool: the page hands over the guarantee and the lab's facts and
//! gets back the rendered texts (the paragraph, the JSON record, the model card, the Python) and then
//! the same with the other scales, once their PLD is composed; and the deployments on the same axes.
//! Rendering here keeps the texts' code (and serde_json) out of every lab's first download.

use super::reproduce::{snippet, Snippet};
use super::scales::{scales, Scales};
use super::{model_card, paragraph, RunFacts, Statement};
use crate::accounting::guarantee::Guarantee;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A statement job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementJob {
    /// Render the statement of a guarantee with the lab's facts (then again with its other scales).
    Render(Guarantee, RunFacts),
}

/// A statement, rendered: flat texts and the few numbers the page tags (decoding the whole record on
/// the page would cost its module the record's decoder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rendered {
    /// The schema name.
    pub schema: String,
    /// The guarantee's ε, full precision.
    pub eps: f64,
    /// Whether the statement certifies the run.
    pub certified: bool,
    /// The other scales, once computed.
    pub scales: Option<Scales>,
    /// The paragraph.
    pub text: String,
    /// The record as JSON.
    pub json: String,
    /// The model-card fragment.
    pub model_card: String,
    /// The Python that reproduces its numbers, where a library describes the event.
    pub snippet: Option<Snippet>,
    /// Whether the other scales are still being computed.
    pub scales_pending: bool,
    /// Why the other scales are missing, when they are.
    pub scales_missing: Option<String>,
}

/// What a statement job sends back: the panel's body as HTML ([`super::html::body`]), first without
/// the other scales while they are computed. (The page sets it; decoding a plain string keeps the
/// record's decoder out of the page's module.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementUpdate {
    /// The panel's body.
    Html(String),
    /// The deployments and this run on the μ–TPR axes, for the chart.
    Axes(Axes),
}

/// The deployments and this run on the μ–TPR axes: where a run sits among deployed systems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Axes {
    /// (μ, TPR at FPR 1 % in percent) of G_μ for μ from 0 to past the largest point: where every
    /// Gaussian (ρ-zCDP) release lies.
    pub gaussian: Vec<(f64, f64)>,
    /// (label, μ, TPR at FPR 1 % in percent) of each deployment with a curve.
    pub deployments: Vec<(String, f64, f64)>,
    /// This run's (μ, TPR at FPR 1 % in percent), when it has scales.
    pub own: Option<(f64, f64)>,
}

/// The chart's data for a run with scales `own`; `deployed` is
/// [`super::deployments::all_scales`].
pub fn axes(own: Option<&Scales>, deployed: &[std::result::Result<Scales, String>]) -> Axes {
    use crate::mechanisms::gaussian::gdp_tradeoff;
    let deployments: Vec<(String, f64, f64)> = super::deployments::DEPLOYMENTS
        .iter()
        .zip(deployed)
        .filter_map(|(d, s)| {
            s.as_ref()
                .ok()
                .map(|s| (d.label.to_string(), s.mu, 100.0 * s.tpr[0]))
        })
        .collect();
    let top = deployments
        .iter()
        .map(|d| d.1)
        .chain(own.map(|s| s.mu))
        .fold(1.0, f64::max)
        * 1.1;
    Axes {
        gaussian: (0..=100)
            .map(|i| {
                let mu = top * f64::from(i) / 100.0;
                (mu, 100.0 * (1.0 - gdp_tradeoff(mu, super::scales::FPRS[0])))
            })
            .collect(),
        deployments,
        own: own.map(|s| (s.mu, 100.0 * s.tpr[0])),
    }
}

/// The statement of `g` rendered with `facts` and, once computed, its scales.
pub fn render(
    g: &Guarantee,
    facts: &RunFacts,
    sc: Option<Scales>,
    pending: bool,
    missing: Option<String>,
) -> Rendered {
    let statement = Statement::new(g, facts, sc);
    Rendered {
        schema: statement.schema.clone(),
        eps: statement.epsilon.value,
        certified: statement.epsilon.certified,
        scales: statement.scales,
        text: paragraph(&statement),
        json: statement.json(),
        model_card: model_card(&statement),
        snippet: snippet(g, facts.records),
        scales_pending: pending,
        scales_missing: missing,
    }
}

/// Runs `job`, emitting each result as it is ready.
///
/// # Errors
/// None today (a guarantee whose curve cannot be composed is rendered without its scales).
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: StatementJob, emit: &mut dyn FnMut(StatementUpdate)) -> Result<()> {
    let StatementJob::Render(g, facts) = job;
    // The deployments' scales, once for the two renders and the chart.
    let deployed = super::deployments::all_scales();
    let html = |r: Rendered| StatementUpdate::Html(super::html::body(&r, &deployed));
    if !g.certifies_run() {
        let why = "no certified trade-off curve is known for this run as it is".to_string();
        emit(html(render(&g, &facts, None, false, Some(why))));
        emit(StatementUpdate::Axes(axes(None, &deployed)));
        return Ok(());
    }
    emit(html(render(&g, &facts, None, true, None)));
    let sc = scales(&g);
    emit(html(match &sc {
        Ok(s) => render(&g, &facts, Some(*s), false, None),
        Err(e) => render(&g, &facts, None, false, Some(e.to_string())),
    }));
    emit(StatementUpdate::Axes(axes(sc.as_ref().ok(), &deployed)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::event::{Neighbour, TrainingEvent};
    use crate::accounting::guarantee::{Accountant, Side};

    /// The job renders at once, then with the scales; it crosses the worker boundary bit for bit.
    #[test]
    fn a_render_job_sends_the_statement_then_its_scales() {
        let e = TrainingEvent::poisson(0.01, 4.0, 1000, Neighbour::AddRemove);
        let g = Guarantee::poisson(&e, Accountant::Pld, Side::Upper, 1e-5, 0.2722);
        let first = render(&g, &RunFacts::default(), None, true, None);
        assert!(first.scales_pending && first.scales.is_none());
        let mut got = Vec::new();
        run(StatementJob::Render(g, RunFacts::default()), &mut |u| {
            got.push(u)
        })
        .unwrap();
        let [StatementUpdate::Html(a), StatementUpdate::Html(b), StatementUpdate::Axes(axes)] =
            &got[..]
        else {
            panic!("{got:?}")
        };
        assert!(a.contains("data-scales=\"pending\"") && b.contains("data-scales=\"done\""));
        assert!(b.contains("μ-GDP with μ ≤") && b.contains("data-testid=\"statement-mu\""));
        // The chart's points are the table's: a ρ-zCDP deployment sits on the Gaussian curve.
        assert!(axes.own.is_some() && axes.deployments.len() >= 6);
        assert!(
            axes.gaussian.last().unwrap().0
                >= axes.deployments.iter().map(|d| d.1).fold(0.0, f64::max)
        );
        let wire = crate::jobs::encode(&crate::jobs::Update::Statement(got[1].clone()));
        let back: crate::jobs::Update = crate::jobs::decode(&wire).unwrap();
        assert_eq!(back, crate::jobs::Update::Statement(got[1].clone()));
        // The page's typed side reads the same bytes.
        let back = crate::jobs::decode_update::<StatementJob>(&wire).unwrap();
        assert_eq!(back, crate::jobs::Received::Update(got[1].clone()));
    }
}
