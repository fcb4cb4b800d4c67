//! The randomized-response lab's key numbers as a Markdown table, for slides and notes.

use super::{format_truth, RrParams, RrReport};
use crate::link::embed::markdown_table;
use crate::link::format::sig6 as sig;
use crate::link::query::fmt_f64;

/// Parameters, then p, q and each category's estimate with its standard error and interval.
pub fn markdown(p: &RrParams, r: &RrReport) -> String {
    let mut rows: Vec<(String, String)> = vec![
        ("ε".into(), fmt_f64(p.eps)),
        ("categories K".into(), p.k.to_string()),
        ("respondents n".into(), p.n.to_string()),
        ("respondents are".into(), p.population.title().into()),
        ("true proportions".into(), format_truth(&p.truth)),
        ("seed".into(), p.seed.to_string()),
        ("P[truthful report] p".into(), sig(r.p_truth)),
        ("P[each other report] q".into(), sig(r.p_other)),
    ];
    for (j, c) in r.categories.iter().enumerate() {
        rows.push((
            format!("category {j}: estimate ± SE (95% interval)"),
            format!(
                "{} ± {} ({}, {})",
                sig(c.estimate),
                sig(c.stderr),
                sig(c.ci.0),
                sig(c.ci.1)
            ),
        ));
    }
    markdown_table(("randomized response", "value"), &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::rr::run;

    #[test]
    fn table_has_parameters_and_every_category() {
        let p = RrParams::default();
        let r = run(&p).unwrap();
        let md = markdown(&p, &r);
        assert!(md.starts_with("| randomized response | value |\n|---|---|\n| ε | 1 |"));
        assert_eq!(md.lines().count(), 2 + 8 + p.k);
        assert_eq!(sig(0.731_058_578_6), "0.731059");
        assert_eq!(sig(1.5e-7), "1.5×10⁻⁷");
    }
}
