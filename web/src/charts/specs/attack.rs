//! The attack lab's trade-off chart, from the core's report and the audit's point.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use crate::format::sig;
use dp_playground::attacks::audit::AuditPoint;
use dp_playground::labs::attack::report::AttackReport;
use dp_playground::mechanisms::gaussian::gdp_tradeoff;
use dp_playground::mechanisms::tradeoff_bound;

/// The trade-off curve β(α) (certified and optimistic), the (ε, δ) and Gaussian-DP curves beside it,
/// and the audit's point with its confidence box; on a log α axis when `log`.
pub fn tradeoff_chart(
    r: &AttackReport,
    delta: f64,
    alpha: f64,
    audit: Option<&AuditPoint>,
    log: bool,
) -> XyChart {
    let x = |a: f64| if log { a.log10() } else { a };
    let keep = |a: f64| !log || a > 0.0;
    let line = |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> {
        r.curve
            .iter()
            .filter(|c| keep(c.0))
            .map(|c| (x(c.0), f(c.0)))
            .collect()
    };
    let side = |pick: fn(&(f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
        r.curve
            .iter()
            .filter(|c| keep(c.0))
            .map(|c| (x(c.0), pick(c)))
            .collect()
    };
    let mut series = vec![
        Series::new(
            "certified (no attack does better)",
            PALETTE[0],
            Kind::Line,
            side(|c| c.1),
        ),
        Series::new("optimistic", PALETTE[0], Kind::Dashed, side(|c| c.2)),
        Series::new(
            format!("(ε, δ) = ({}, {})", sig(r.eps, 3), sig(delta, 2)),
            PALETTE[6],
            Kind::Dashed,
            line(&|a| tradeoff_bound(r.eps, delta, a)),
        ),
        Series::new(
            format!("best Gaussian-DP fit, μ = {}", sig(r.gdp_mu_fit, 3)),
            PALETTE[3],
            Kind::Line,
            line(&|a| gdp_tradeoff(r.gdp_mu_fit, a)),
        ),
    ];
    if let Some(mu) = r.gdp_mu_clt {
        series.push(Series::new(
            format!("CLT approximation, μ = {}", sig(mu, 3)),
            PALETTE[4],
            Kind::Dashed,
            line(&|a| gdp_tradeoff(mu, a)),
        ));
    }
    if let Some(pt) = audit {
        let ((a0, a1), (b0, b1)) = (pt.fpr_box, pt.fnr_box);
        let corners = [(a0, b0), (a1, b0), (a1, b1), (a0, b1), (a0, b0)];
        series.push(Series::new(
            "audit's confidence box",
            PALETTE[1],
            Kind::Line,
            corners
                .iter()
                .filter(|c| keep(c.0))
                .map(|c| (x(c.0), c.1))
                .collect(),
        ));
        series.push(Series::new(
            "audit (observed)",
            PALETTE[1],
            Kind::Points,
            if keep(pt.fpr) {
                vec![(x(pt.fpr), pt.fnr)]
            } else {
                vec![]
            },
        ));
    }
    XyChart {
        x_desc: if log {
            "False-positive rate α (log scale)".into()
        } else {
            "False-positive rate α".into()
        },
        y_desc: "Attacker's false-negative rate β".into(),
        x_log10: log,
        x_range: Some(if log { (-6.0, 0.0) } else { (0.0, 1.0) }),
        y_range: Some((0.0, 1.0)),
        legend: if log {
            Legend::LowerLeft
        } else {
            Legend::UpperRight
        },
        markers: vec![(x(alpha), format!("α = {}", sig(alpha, 3)))],
        series,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::attacks::audit::{audit_point, Counts};
    use dp_playground::labs::attack::params::AttackParams;
    use dp_playground::labs::attack::report::report;
    use dp_playground::link::query::{LinkParams, Query};

    #[test]
    fn the_tradeoff_chart_draws_on_both_axes_with_an_audit() {
        let p = AttackParams::from_query(&Query::parse("q=0.01&sigma=1&steps=100")).0;
        let r = report(&p).unwrap();
        let counts = Counts {
            tp: 80,
            fn_: 20,
            fp: 5,
            tn: 95,
        };
        let pt = audit_point(counts, 0.95);
        for log in [false, true] {
            smoke(&tradeoff_chart(&r, p.delta, p.alpha, pt.as_ref(), log));
        }
    }
}
