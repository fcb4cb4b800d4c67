//! The mechanisms lab's key numbers as Markdown, and a dp_accounting snippet that reproduces σ.

use super::{Calibration, ExponentialReport, MechParams, Mechanism};
use crate::link::embed::markdown_table;
use crate::link::format::sig6 as sig;

/// A scale, σ or δ offered for a target, rounded up: the shown digits still meet it.
fn up(x: f64) -> String {
    crate::link::format::sig_up(x, 6)
}
use crate::link::query::fmt_f64;

/// Parameters and the calibration table (and the exponential mechanism's probabilities).
pub fn markdown(p: &MechParams, cal: &Calibration, em: Option<&ExponentialReport>) -> String {
    let mut rows: Vec<(String, String)> = vec![
        ("mechanism".into(), p.mech.title().into()),
        ("ε".into(), fmt_f64(p.eps)),
        ("δ".into(), fmt_f64(p.delta)),
        ("sensitivity Δ".into(), fmt_f64(p.sens)),
        ("Laplace scale b = Δ/ε".into(), up(cal.laplace_scale)),
    ];
    if let Ok(tau) = cal.tlap_tau {
        rows.push(("truncated Laplace τ (units of Δ/ε)".into(), up(tau)));
    }
    for row in &cal.sigmas {
        rows.push((
            format!("Gaussian σ, {}", row.method),
            format!(
                "{} (exact δ at ε: {})",
                up(row.sigma),
                up(row.achieved_delta)
            ),
        ));
    }
    if let (Mechanism::Exponential, Some(em)) = (p.mech, em) {
        for (c, prob) in p.cands.iter().zip(&em.probs) {
            rows.push((
                format!("P[select {}] (score {})", c.name, fmt_f64(c.score)),
                sig(*prob),
            ));
        }
    }
    markdown_table(("mechanisms lab", "value"), &rows)
}

/// Python that recomputes the analytic σ with Google's dp_accounting.
pub fn dp_accounting_snippet(p: &MechParams, cal: &Calibration) -> String {
    format!(
        "# pip install dp-accounting==0.6.0\nfrom dp_accounting import gaussian_mechanism\n\
         sigma = {} * gaussian_mechanism.get_sigma_gaussian({}, {})  # analytic Gaussian (Balle & Wang 2018)\n\
         print(sigma)  # dp-playground: {}",
        fmt_f64(p.sens),
        fmt_f64(p.eps),
        fmt_f64(p.delta),
        fmt_f64(cal.sigma_analytic())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::mechanisms::{calibrate, exponential};

    #[test]
    fn markdown_and_snippet() {
        let p = MechParams {
            mech: Mechanism::Exponential,
            ..MechParams::default()
        };
        let cal = calibrate(&p).unwrap();
        let em = exponential(&p).unwrap();
        let md = markdown(&p, &cal, Some(&em));
        assert!(md.contains("| Gaussian σ, Analytic") && md.contains("P[select red]"));
        let py = dp_accounting_snippet(&p, &cal);
        assert!(py.contains("get_sigma_gaussian(1, 0.00001)"));
    }
}
