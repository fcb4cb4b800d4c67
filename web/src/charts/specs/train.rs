//! The training lab's charts, from the run, the accountants and the sweep the core computed.

use crate::charts::{HeatMap, Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::accounting::training::RdpReport;
use dp_playground::attacks::audit_summary::AuditSummary;
use dp_playground::labs::train::correlated::CompareCurve;
use dp_playground::labs::train::mia::MiaReport;
use dp_playground::labs::train::run::{Norms, Point};
use dp_playground::learning::dpsgd::Variant;

/// The three models' colours: private, clipping only, non-private.
const COLOURS: [usize; 3] = [0, 1, 2];

/// Accuracy (or loss) against the step: test solid, training dashed, for the three models.
pub fn curves_chart(points: &[Point], loss: bool) -> XyChart {
    let mut series = Vec::new();
    for v in Variant::ALL {
        let i = v as usize;
        let pick = |p: &Point, test: bool| match (loss, test) {
            (false, true) => p.test_acc[i],
            (false, false) => p.train_acc[i],
            (true, true) => p.test_loss[i],
            (true, false) => p.train_loss[i],
        };
        series.push(Series::new(
            format!("{}, test", v.title()),
            PALETTE[COLOURS[i]],
            Kind::Line,
            points
                .iter()
                .map(|p| (p.step as f64, pick(p, true)))
                .collect(),
        ));
        series.push(Series::new(
            format!("{}, training", v.title()),
            PALETTE[COLOURS[i]],
            Kind::Dashed,
            points
                .iter()
                .map(|p| (p.step as f64, pick(p, false)))
                .collect(),
        ));
    }
    XyChart {
        x_desc: "Steps".into(),
        y_desc: if loss { "Mean log-loss" } else { "Accuracy" }.into(),
        // Accuracies crowd near 1: the axis starts a little below the lowest.
        y_range: (!loss).then(|| {
            let low = points
                .iter()
                .flat_map(|p| p.test_acc.iter().chain(&p.train_acc))
                .copied()
                .filter(|a| a.is_finite())
                .fold(1.0f64, f64::min);
            (((low - 0.02) * 20.0).floor().max(0.0) / 20.0, 1.0)
        }),
        legend: if loss {
            Legend::UpperRight
        } else {
            Legend::LowerRight
        },
        series,
        ..Default::default()
    }
}

/// ε against the step: the Poisson accountants' curves (RDP's line, the PLD's certified points) and
/// the target; with batches that are not Poisson samples (`own`: the run's sampler's ε at T and what
/// kind of number it is, `None` for Poisson) those curves are labelled as not this run's and the run's
/// own ε is a point at T. The accountants' steps are `per` of the run's (amplified BandMF accounts
/// rounds of b steps).
pub fn eps_chart(
    rdp: &RdpReport,
    pld: &[(f64, f64)],
    per: f64,
    target: f64,
    step: u64,
    own: Option<(f64, f64, &str)>,
    delta: f64,
) -> XyChart {
    // The accountants' steps are `per` of the run's (amplified BandMF's rounds of b steps).
    let scaled =
        |v: &[(f64, f64)]| -> Vec<(f64, f64)> { v.iter().map(|&(t, e)| (t * per, e)).collect() };
    let last = rdp.by_steps.last().map_or(1.0, |p| p.0 * per);
    let (rdp_name, pld_name) = if own.is_some() {
        (
            "RDP, Poisson sampling (not this run's)",
            "PLD, Poisson sampling (not this run's)",
        )
    } else {
        ("RDP accountant", "PLD accountant (certified)")
    };
    let mut series = vec![
        Series::new(rdp_name, PALETTE[1], Kind::Line, scaled(&rdp.by_steps)),
        Series::new(pld_name, PALETTE[0], Kind::Points, scaled(pld)),
        Series::new(
            "target ε",
            PALETTE[4],
            Kind::Dashed,
            vec![(0.0, target), (last, target)],
        ),
    ];
    if let Some((t, eps, kind)) = own.filter(|o| o.1.is_finite()) {
        series.push(Series::new(
            format!("this run's own ε ({kind})"),
            PALETTE[3],
            Kind::Points,
            vec![(t, eps)],
        ));
    }
    XyChart {
        x_desc: "Steps".into(),
        y_desc: crate::charts::eps_at(delta),
        legend: Legend::LowerRight,
        markers: vec![(step as f64, format!("step {step}"))],
        series,
        ..Default::default()
    }
}

/// The private model's per-example gradient norms over the training rows (log scale), with C and the
/// median.
pub fn norms_chart(n: &Norms, clip: f64) -> XyChart {
    let mut bars = Vec::new();
    for (w, &c) in n.edges.windows(2).zip(&n.counts) {
        bars.push((w[0].log10(), 0.0));
        bars.push((w[1].log10(), c as f64));
    }
    XyChart {
        x_desc: "‖per-example gradient‖₂ at the private model (log scale)".into(),
        y_desc: "Training rows".into(),
        x_log10: true,
        // The clipping norm's marker and label sit to the right, where the large norms are few.
        legend: Legend::UpperLeft,
        markers: vec![
            (clip.log10(), format!("C = {}", crate::format::sig(clip, 3))),
            (n.median.log10(), "median".into()),
        ],
        series: vec![Series::new(
            format!("step {}", n.step),
            PALETTE[0],
            Kind::Bars,
            bars,
        )],
        ..Default::default()
    }
}

/// A 2-D model's P(y = 1) − ½ over the standardised plane.
pub fn boundary_map(centres: Vec<f64>, values: Vec<f64>) -> HeatMap {
    HeatMap {
        x_desc: "x1 (standardised)".into(),
        y_desc: "x2 (standardised)".into(),
        xs: centres.clone(),
        ys: centres,
        values,
        diverging: true,
        value_desc: "P(y = 1) − ½".into(),
        rows_down: false,
    }
}

/// Test accuracy against the certified ε for each mechanism of the correlated-noise comparison
/// (`curves`: the core's `compare_curves`, (ε, mean, sd) points per mechanism), and the non-private
/// mean.
pub fn compare_chart(curves: &[CompareCurve], baseline: f64) -> XyChart {
    let mut series = Vec::new();
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for (k, (mech, pts)) in curves.iter().enumerate() {
        let xs: Vec<(f64, f64)> = pts
            .iter()
            .filter(|p| p.0 > 0.0 && p.0.is_finite() && p.1.is_finite())
            .map(|&(e, m, _)| (e.log10(), m))
            .collect();
        for p in &xs {
            (x0, x1) = (x0.min(p.0), x1.max(p.0));
        }
        let colour = PALETTE[if k >= 2 { k + 1 } else { k } % PALETTE.len()];
        series.push(Series::new(mech.title(), colour, Kind::Line, xs.clone()));
        series.push(Series::new("", colour, Kind::Points, xs));
    }
    if x0.is_finite() {
        series.push(Series::new(
            "non-private",
            PALETTE[2],
            Kind::Dashed,
            vec![(x0, baseline), (x1, baseline)],
        ));
    }
    // Mechanisms differ by a few points: the axis spans the data and the baseline, not [0, 1].
    let ys = curves
        .iter()
        .flat_map(|c| c.1.iter().map(|p| p.1))
        .chain([baseline])
        .filter(|y| y.is_finite());
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let pad = ((hi - lo) * 0.1).max(0.01);
    XyChart {
        x_desc: "certified ε (log scale)".into(),
        y_desc: "Test accuracy, mean over seeds".into(),
        x_log10: true,
        y_range: lo
            .is_finite()
            .then(|| ((lo - pad).max(0.0), (hi + pad).min(1.05))),
        legend: Legend::LowerRight,
        series,
        ..Default::default()
    }
}

/// Test accuracy against ε over the sweep: the mean over seeds, ± one standard deviation, and the
/// non-private models' mean.
/// `x_desc` names the ε on the x axis (the PLD's certified bound, or a sampler's own statement).
pub fn utility_chart(curve: &[(f64, f64, f64)], baseline: f64, x_desc: &str) -> XyChart {
    let pts = |k: f64| -> Vec<(f64, f64)> {
        curve
            .iter()
            .filter(|p| p.0 > 0.0 && p.0.is_finite())
            .map(|&(e, m, sd)| (e.log10(), m + k * if sd.is_finite() { sd } else { 0.0 }))
            .collect()
    };
    let xs = pts(0.0);
    let (x0, x1) = (
        xs.first().map_or(-1.0, |p| p.0),
        xs.last().map_or(1.0, |p| p.0),
    );
    XyChart {
        x_desc: x_desc.into(),
        y_desc: "Test accuracy".into(),
        x_log10: true,
        y_range: Some((0.0, 1.05)),
        legend: Legend::LowerRight,
        series: vec![
            Series::new(
                "DP-SGD, mean over seeds",
                PALETTE[0],
                Kind::Line,
                xs.clone(),
            ),
            Series::new("DP-SGD, each σ", PALETTE[0], Kind::Points, xs),
            Series::new("± 1 sd", PALETTE[0], Kind::Dashed, pts(1.0)),
            Series::new("", PALETTE[0], Kind::Dashed, pts(-1.0)),
            Series::new(
                "non-private",
                PALETTE[2],
                Kind::Dashed,
                vec![(x0, baseline), (x1, baseline)],
            ),
        ],
        ..Default::default()
    }
}

/// The audit's two score histograms (with the canary and without), as bars.
pub fn audit_histogram_chart(a: &AuditSummary) -> XyChart {
    let bars = |counts: &[u64]| -> Vec<(f64, f64)> {
        a.edges
            .windows(2)
            .zip(counts)
            .flat_map(|(e, &c)| [(e[0], 0.0), (e[1], c as f64)])
            .collect()
    };
    XyChart {
        x_desc: "The adversary's score (higher: \"the canary was in\")".into(),
        y_desc: "Runs".into(),
        series: vec![
            Series::new(
                "without the canary",
                PALETTE[6],
                Kind::Bars,
                bars(&a.hist_out),
            ),
            Series::new("with the canary", PALETTE[1], Kind::Bars, bars(&a.hist_in)),
        ],
        legend: Legend::UpperLeft,
        ..Default::default()
    }
}

/// The attack's ROC on log–log axes (where low false-positive rates show), beside chance.
pub fn audit_roc_chart(a: &AuditSummary) -> XyChart {
    let floor = 1.0 / (10.0 * a.runs.max(1) as f64);
    let roc = log_roc(&a.roc, floor);
    roc_frame(
        floor,
        vec![Series::new(
            "this attack (ROC hull)",
            PALETTE[0],
            Kind::Line,
            roc,
        )],
    )
}

/// Log–log ROC axes from FPR and TPR `floor` to 1, chance's diagonal, then `series`.
fn roc_frame(floor: f64, series: Vec<Series>) -> XyChart {
    let chance: Vec<(f64, f64)> = (0..=40)
        .map(|i| {
            let f = floor.log10() * (1.0 - i as f64 / 40.0);
            (f, f)
        })
        .collect();
    let mut all = vec![Series::new("chance", PALETTE[6], Kind::Dashed, chance)];
    all.extend(series);
    XyChart {
        x_desc: "False-positive rate (log scale)".into(),
        y_desc: "True-positive rate (log scale)".into(),
        x_log10: true,
        y_log10: true,
        x_range: Some((floor.log10(), 0.0)),
        y_range: Some((floor.log10(), 0.0)),
        series: all,
        legend: Legend::LowerRight,
        ..Default::default()
    }
}

/// An ROC (FPR, TPR) drawn on log–log axes from FPR `floor` up: a straight segment of the ROC (a
/// randomised threshold) bends on such axes, so each is sampled at ratios of at most 1.2 in FPR.
fn log_roc(roc: &[(f64, f64)], floor: f64) -> Vec<(f64, f64)> {
    let log = |v: f64| v.max(floor).log10();
    let mut out = Vec::new();
    for w in roc.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x1 < floor || x1 <= x0 {
            continue;
        }
        let start = x0.max(floor);
        let pieces = ((x1 / start).ln() / 1.2f64.ln()).ceil().clamp(1.0, 40.0) as usize;
        for k in 0..=pieces {
            let x = start * (x1 / start).powf(k as f64 / pieces as f64);
            out.push((log(x), log(y0 + (y1 - y0) * (x - x0) / (x1 - x0))));
        }
    }
    out
}

/// The membership attack's ROC on log–log axes: each trainer's models attacked (the headlined attack),
/// beside the cap the certified curve puts on the private models, and chance.
pub fn mia_roc_chart(r: &MiaReport, headline: usize) -> XyChart {
    let negatives = r.models as f64 * r.records as f64 / 2.0;
    let floor = 1.0 / negatives.max(1.0);
    let curve = |roc: &[(f64, f64)]| log_roc(roc, floor);
    let mut series = Vec::new();
    if let Some(cap) = &r.cap {
        series.push(Series::new(
            "certified cap on any attack",
            PALETTE[3],
            Kind::Dashed,
            curve(&cap.roc),
        ));
    }
    if let Some(a) = r.attacks.get(headline) {
        for v in Variant::ALL {
            let i = v as usize;
            series.push(Series::new(
                v.title(),
                PALETTE[COLOURS[i]],
                Kind::Line,
                curve(&a[i].roc),
            ));
        }
    }
    roc_frame(floor, series)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::accounting::training::rdp_report;
    use dp_playground::labs::train::report::decision_grid;
    use dp_playground::labs::train::run::{train, TrainUpdate};
    use dp_playground::labs::train::TrainParams;
    use dp_playground::learning::correlated::Mechanism;
    use dp_playground::link::query::{LinkParams, Query};

    #[test]
    fn the_default_links_charts_draw() {
        let p = TrainParams::from_query(&Query::parse("data=xor&model=mlp&steps=50")).0;
        let (mut points, mut norms, mut last) = (Vec::new(), None, None);
        train(&p, None, None, u64::MAX, &mut |u| {
            if let TrainUpdate::Report(r) = u {
                points.push(r.point);
                norms = Some(r.norms);
                last = Some(r.checkpoint);
            }
        })
        .unwrap();
        smoke(&curves_chart(&points, false));
        smoke(&curves_chart(&points, true));
        let rdp = rdp_report(&p.event(0, 50), p.delta).unwrap();
        smoke(&eps_chart(
            &rdp,
            &[(25.0, 0.5), (50.0, 1.0)],
            1.0,
            3.0,
            40,
            None,
            1e-5,
        ));
        smoke(&eps_chart(
            &rdp,
            &[(25.0, 0.5)],
            4.0,
            3.0,
            40,
            Some((50.0, 4.0, "lower bound")),
            1e-5,
        ));
        smoke(&norms_chart(&norms.unwrap(), p.clip));
        smoke(&compare_chart(
            &[
                (Mechanism::DpSgd, vec![(0.5, 0.8, 0.02), (2.0, 0.9, 0.01)]),
                (
                    Mechanism::Blt,
                    vec![(0.5, 0.85, 0.02), (2.0, 0.91, f64::NAN)],
                ),
            ],
            0.95,
        ));
        smoke(&utility_chart(
            &[(0.5, 0.8, 0.02), (2.0, 0.9, 0.01)],
            0.95,
            "ε",
        ));
        let ins: Vec<f64> = (0..200).map(|i| 1.0 + (i as f64 * 0.7).sin()).collect();
        let outs: Vec<f64> = (0..200).map(|i| (i as f64 * 0.3).cos()).collect();
        use dp_playground::attacks::audit_summary::{summarise, AccountantStatement};
        let audit = summarise(
            &ins,
            &outs,
            1e-5,
            0.95,
            AccountantStatement::poisson(2.0),
            1.0,
        )
        .unwrap();
        smoke(&audit_histogram_chart(&audit));
        smoke(&audit_roc_chart(&audit));
        let mia = TrainParams::from_query(&Query::parse("mia=lira&shadows=8&epochs=2")).0;
        let chunk = dp_playground::labs::train::mia::mia_chunk(&mia, None, 0, 8).unwrap();
        let report = dp_playground::labs::train::mia::mia_report(&mia, 0, &[chunk]).unwrap();
        smoke(&mia_roc_chart(&report, 2));
        let (c, v) = decision_grid(&p.architecture(2), &last.unwrap().theta[0], 3.0, 40);
        let map = boundary_map(c, v);
        let svg = crate::charts::svg_test::render(|root| {
            crate::charts::draw_heatmap(root, &map, 1.0, crate::charts::Cells::Rectangles).unwrap()
        });
        assert!(svg.len() > 1000);
    }
}
