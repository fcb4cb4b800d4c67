//! The mechanisms lab's charts, as [`XyChart`]s built from what the core computed.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::labs::mechanisms::{ExponentialReport, ManyQueries, Pictures, Samples};

const X: usize = 0;
const X_PRIME: usize = 1;
const BAD: usize = 1;

/// The two output densities, with the bad set shaded under p.
pub fn densities_chart(pic: &Pictures, sens: f64) -> XyChart {
    let p: Vec<(f64, f64)> = pic.densities.iter().map(|d| (d.0, d.1)).collect();
    let q: Vec<(f64, f64)> = pic.densities.iter().map(|d| (d.0, d.2)).collect();
    let mut series = Vec::new();
    for (i, &(lo, hi)) in pic.bad.iter().enumerate() {
        let area: Vec<(f64, f64)> = p
            .iter()
            .copied()
            .filter(|&(y, _)| y >= lo && y <= hi)
            .collect();
        let name = if i == 0 {
            format!(
                "Bad set at ε = {}: P = {}",
                crate::format::sig(pic.bad_eps, 3),
                crate::format::sig(pic.bad_probability, 3)
            )
        } else {
            String::new()
        };
        series.push(Series::new(name, PALETTE[BAD], Kind::Area, area));
    }
    series.push(Series::new("M(x): answer 0", PALETTE[X], Kind::Line, p));
    series.push(Series::new(
        format!("M(x′): answer Δ = {}", crate::format::sig(sens, 3)),
        PALETTE[X_PRIME + 2],
        Kind::Dashed,
        q,
    ));
    XyChart {
        x_desc: "Output y".into(),
        y_desc: "Density".into(),
        markers: pic
            .bad
            .iter()
            .filter(|b| b.1 > b.0)
            .map(|b| (b.1, "← bad set".to_string()))
            .take(1)
            .collect(),
        series,
        legend: Legend::UpperLeft,
        ..Default::default()
    }
}

/// The privacy-loss distribution: its density and its point masses (+∞ drawn at the right edge).
pub fn loss_chart(pic: &Pictures) -> XyChart {
    let loss = &pic.loss;
    let finite_atoms: Vec<(f64, f64)> = loss
        .atoms
        .iter()
        .copied()
        .filter(|a| a.0.is_finite())
        .collect();
    let xs = loss
        .density
        .iter()
        .map(|d| d.0)
        .chain(finite_atoms.iter().map(|a| a.0));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (-1.0, 1.0)
    };
    let pad = 0.12 * (hi - lo);
    let mut series = vec![Series::new(
        "Density of L",
        PALETTE[X],
        Kind::Line,
        loss.density.clone(),
    )];
    if !finite_atoms.is_empty() {
        series.push(Series::new(
            "Point mass P[L = ℓ]",
            PALETTE[4],
            Kind::Stems,
            finite_atoms,
        ));
    }
    let mut markers = vec![(pic.guarantee.0, "ε".to_string())];
    if let Some(&(_, mass)) = loss.atoms.iter().find(|a| a.0.is_infinite()) {
        series.push(Series::new(
            format!("P[L = +∞] = δ = {}", crate::format::sig(mass, 3)),
            PALETTE[BAD],
            Kind::Stems,
            vec![(hi + 0.9 * pad, mass)],
        ));
        markers.push((hi + 0.9 * pad, "+∞".into()));
    }
    XyChart {
        x_desc: "Privacy loss ℓ = ln(p(y)/q(y)), y ~ M(x)".into(),
        y_desc: "Density or mass".into(),
        x_range: Some((lo - pad, hi + pad)),
        markers,
        series,
        ..Default::default()
    }
}

/// The privacy profile δ(ε) on a log axis, the zCDP bound where it applies, and the guarantee.
pub fn profile_chart(pic: &Pictures, link_delta: f64) -> XyChart {
    let exact: Vec<(f64, f64)> = pic.profile.iter().map(|p| (p.0, p.2)).collect();
    let lowest = exact
        .iter()
        .map(|p| p.1)
        .fold(0.0f64, f64::min)
        .max(link_delta.log10() - 3.0)
        .max(-320.0);
    let floor = lowest.floor().min(-1.0);
    let mut series = vec![Series::new("Exact δ(ε)", PALETTE[X], Kind::Line, exact)];
    if !pic.profile_zcdp.is_empty() {
        series.push(Series::new(
            "zCDP bound e^(−(ε−ρ)²/4ρ)",
            PALETTE[3],
            Kind::Dashed,
            pic.profile_zcdp.clone(),
        ));
    }
    let g = pic.guarantee;
    if g.1 > 0.0 {
        series.push(Series::new(
            "(ε, δ) of this noise",
            PALETTE[BAD],
            Kind::Points,
            vec![(g.0, g.1.log10().max(floor))],
        ));
    }
    XyChart {
        x_desc: "ε".into(),
        y_desc: "δ(ε)".into(),
        y_log10: true,
        y_range: Some((floor, 0.0)),
        series,
        ..Default::default()
    }
}

/// The trade-off curve against the (ε, δ) boundary and perfect privacy.
pub fn tradeoff_chart(pic: &Pictures) -> XyChart {
    XyChart {
        x_desc: "Type I error α (wrongly reject x)".into(),
        y_desc: "Type II error β".into(),
        x_range: Some((0.0, 1.0)),
        y_range: Some((0.0, 1.0)),
        series: vec![
            Series::new(
                "Perfect privacy β = 1 − α",
                PALETTE[6],
                Kind::Dashed,
                vec![(0.0, 1.0), (1.0, 0.0)],
            ),
            Series::new(
                format!(
                    "(ε, δ) = ({}, {}) boundary",
                    crate::format::sig(pic.guarantee.0, 3),
                    crate::format::sig(pic.guarantee.1, 3)
                ),
                PALETTE[BAD],
                Kind::Dashed,
                pic.tradeoff_bound.clone(),
            ),
            Series::new(
                "This mechanism",
                PALETTE[X],
                Kind::Line,
                pic.tradeoff.clone(),
            ),
        ],
        ..Default::default()
    }
}

/// The sample histogram against the expected counts.
pub fn samples_chart(s: &Samples) -> XyChart {
    let bars = s
        .edges
        .windows(2)
        .zip(&s.counts)
        .flat_map(|(e, &c)| [(e[0], 0.0), (e[1], c as f64)])
        .collect();
    XyChart {
        x_desc: "Output y of M(x) (f(x) = 0)".into(),
        y_desc: "Draws per bin".into(),
        series: vec![
            Series::new("Draws", PALETTE[5], Kind::Bars, bars),
            Series::new(
                "Expected from the density",
                PALETTE[BAD],
                Kind::Line,
                s.curve.clone(),
            ),
        ],
        ..Default::default()
    }
}

/// Selection probabilities under x and under the worst neighbour, side by side per candidate.
pub fn em_bars_chart(em: &ExponentialReport, names: &[String]) -> XyChart {
    let bars = |probs: &[f64], offset: f64| -> Vec<(f64, f64)> {
        probs
            .iter()
            .enumerate()
            .flat_map(|(i, &p)| [(i as f64 + offset, 0.0), (i as f64 + offset + 0.38, p)])
            .collect()
    };
    XyChart {
        x_desc: "Candidate".into(),
        y_desc: "Selection probability".into(),
        x_range: Some((-0.6, names.len() as f64 - 0.4)),
        y_range: Some((0.0, 1.05)),
        x_names: names.to_vec(),
        series: vec![
            Series::new("Data set x", PALETTE[X], Kind::Bars, bars(&em.probs, -0.4)),
            Series::new(
                format!(
                    "Neighbour x′ worst for {}",
                    names.get(em.focus).cloned().unwrap_or_default()
                ),
                PALETTE[BAD],
                Kind::Bars,
                bars(&em.neighbour_probs, 0.02),
            ),
        ],
        ..Default::default()
    }
}

/// Each candidate's probability as ε grows.
pub fn em_eps_chart(em: &ExponentialReport, names: &[String], eps: f64) -> XyChart {
    let series = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let pts = em.by_eps.iter().map(|(e, p)| (*e, p[i])).collect();
            Series::new(name.clone(), PALETTE[i % PALETTE.len()], Kind::Line, pts)
        })
        .collect();
    XyChart {
        x_desc: "ε".into(),
        y_desc: "Selection probability".into(),
        y_range: Some((0.0, 1.05)),
        markers: vec![(eps, "ε of the link".into())],
        series,
        ..Default::default()
    }
}

/// Expected largest error over k queries, log–log, with the crossover marked.
pub fn queries_chart(mq: &ManyQueries) -> XyChart {
    let log = |ys: &[f64]| -> Vec<(f64, f64)> {
        mq.ks
            .iter()
            .zip(ys)
            .map(|(&k, &y)| ((k as f64).log10(), y.log10()))
            .collect()
    };
    let from2 =
        |v: Vec<(f64, f64)>| -> Vec<(f64, f64)> { v.into_iter().filter(|p| p.0 > 0.2).collect() };
    let mut markers = Vec::new();
    if let Some(k) = mq.crossover {
        markers.push(((k as f64).log10(), format!("Gaussian wins from k = {k}")));
    }
    XyChart {
        x_desc: "Number of queries k".into(),
        y_desc: "Expected largest error".into(),
        x_log10: true,
        y_log10: true,
        markers,
        series: vec![
            Series::new(
                "Laplace, Δ₁ = k: (k/ε)·H_k",
                PALETTE[BAD],
                Kind::Line,
                log(&mq.laplace_exact),
            ),
            Series::new(
                "Gaussian, Δ₂ = √k (analytic σ)",
                PALETTE[X],
                Kind::Line,
                log(&mq.gaussian_exact),
            ),
            Series::new(
                "Simulated Laplace",
                PALETTE[BAD],
                Kind::Points,
                log(&mq.laplace_simulated),
            ),
            Series::new(
                "Simulated Gaussian",
                PALETTE[X],
                Kind::Points,
                log(&mq.gaussian_simulated),
            ),
            Series::new(
                "Order k ln k / ε (scaled)",
                PALETTE[4],
                Kind::Dashed,
                from2(log(&mq.laplace_order)),
            ),
            Series::new(
                "Order √(k ln k ln(1/δ)) / ε (scaled)",
                PALETTE[3],
                Kind::Dashed,
                from2(log(&mq.gaussian_order)),
            ),
        ],
        legend: Legend::LowerRight,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::{draw_xy, svg_test::render};
    use dp_playground::labs::mechanisms::*;
    use dp_playground::mechanisms::many_queries::simulate_max_errors;

    #[test]
    fn every_mechanism_chart_draws() {
        for mech in Mechanism::ALL {
            let p = MechParams {
                mech,
                ..MechParams::default()
            };
            let cal = calibrate(&p).unwrap();
            let mut charts = Vec::new();
            if let Some(n) = noise(&p, &cal).unwrap() {
                let pic = pictures(&p, &n);
                charts.extend([
                    densities_chart(&pic, p.sens),
                    loss_chart(&pic),
                    profile_chart(&pic, p.delta),
                    tradeoff_chart(&pic),
                    samples_chart(&samples(&p, &n)),
                ]);
            } else {
                let em = exponential(&p).unwrap();
                let names: Vec<String> = p.cands.iter().map(|c| c.name.clone()).collect();
                charts.extend([em_bars_chart(&em, &names), em_eps_chart(&em, &names, p.eps)]);
            }
            let sim = simulate_max_errors(p.kmax, p.seed).unwrap();
            charts.push(queries_chart(&many_queries(&p, &sim).unwrap()));
            for chart in charts {
                let svg = render(|root| {
                    draw_xy(root, &chart, 1.0).unwrap_or_else(|e| panic!("{mech}: {e}"))
                });
                assert!(svg.len() > 1000, "{mech}: {}", chart.y_desc);
            }
        }
    }
}
