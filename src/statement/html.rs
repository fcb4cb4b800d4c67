//! The statement panel's body as HTML, written in the worker: the page sets it as the panel's content,
//! so the texts, the tables and their decoders stay out of each lab's first download (they cost the
//! training lab's module 28 KB gzip as page views). Every text is escaped; the copy buttons name the
//! element they copy (`data-copy`), and the page handles them with one listener.

use super::deployments::{Published, DEPLOYMENTS};
use super::jobs::Rendered;
use super::scales::Scales;
use crate::link::format::{sig, sig_up};

/// `s` with `&`, `<`, `>` and `"` escaped, for text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn copy_button(target: &str) -> String {
    format!(
        "<div class=\"copy-row\"><button type=\"button\" class=\"small\" data-copy=\"{target}\" \
         data-testid=\"{target}-copy\">Copy</button><span role=\"status\"></span></div>"
    )
}

fn pct_up(x: f64) -> String {
    // A no-break space: a table cell never splits "4.07 %".
    format!("{}\u{a0}%", sig_up(100.0 * x, 3))
}

fn scales_table(s: &Scales) -> String {
    let row = |id: &str, name: &str, value: f64, shown: String, side: &str| {
        format!(
            "<tr><th scope=\"row\">{name}</th><td data-testid=\"{id}\" data-value=\"{value}\">{}</td><td>{side}</td></tr>",
            escape(&shown)
        )
    };
    let up = "certified upper bound";
    [
        "<table class=\"scales\" data-testid=\"statement-scales\"><caption>The same guarantee on other scales \
         (from its certified trade-off curve)</caption><thead><tr><th scope=\"col\">Scale</th>\
         <th scope=\"col\">Value</th><th scope=\"col\">Side</th></tr></thead><tbody>"
            .to_string(),
        row("statement-mu", "μ-GDP (FPR in [10⁻⁶, 1 − 10⁻⁶])", s.mu, format!("μ ≤ {}", sig_up(s.mu, 3)), up),
        row("statement-regret", "Fit of μ-GDP (gdpnum's regret)", s.regret, sig(s.regret, 2), "estimate (0: exactly Gaussian)"),
        row("statement-tpr-1", "Attacker's TPR at FPR 1 %", s.tpr[0], format!("≤ {}", pct_up(s.tpr[0])), up),
        row("statement-tpr-01", "Attacker's TPR at FPR 0.1 %", s.tpr[1], format!("≤ {}", pct_up(s.tpr[1])), up),
        row("statement-advantage", "Advantage (TPR − FPR)", s.advantage, format!("≤ {}", sig_up(s.advantage, 3)), up),
        "</tbody></table>".into(),
    ]
    .concat()
}

fn cells(s: &Scales) -> String {
    format!(
        "<td data-value=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
        s.mu,
        sig_up(s.mu, 3),
        pct_up(s.tpr[0]),
        pct_up(s.tpr[1]),
        sig_up(s.advantage, 3)
    )
}

/// The deployments table (compact rows, by μ, this run among them when it has scales), then a note per
/// deployment: what was reported, the conversion's assumptions and its dated sources.
fn deployments(own: Option<&Scales>, deployed: &[Result<Scales, String>]) -> String {
    // Rows sorted by μ, this run among them at its rank; deployments with no curve last.
    let mut rows: Vec<(f64, String)> = Vec::new();
    let mut notes = String::new();
    if let Some(s) = own {
        rows.push((
            s.mu,
            format!(
                "<tr class=\"own\" data-testid=\"deployment-own\"><th scope=\"row\">This run</th>{}<td>as stated above</td><td>—</td></tr>",
                cells(s)
            ),
        ));
    }
    for (i, (d, scales)) in DEPLOYMENTS.iter().zip(deployed).enumerate() {
        let values = match scales {
            Ok(s) => cells(s),
            Err(why) => format!("<td colspan=\"4\">Not converted: {}</td>", escape(why)),
        };
        let form = match d.published {
            Published::ZCdp { rho } => format!("ρ = {} zCDP", sig(rho, 4)),
            Published::PureDp { eps } => format!("ε = {}", sig(eps, 4)),
            Published::ApproxDp { eps, delta } => {
                format!("(ε, δ) = ({}, {})", sig(eps, 4), sig(delta, 3))
            }
            Published::PoissonDpsgd {
                q, sigma, steps, ..
            } => {
                format!(
                    "DP-SGD q = {}, σ = {}, T = {steps}",
                    sig(q, 4),
                    sig(sigma, 4)
                )
            }
            Published::Undetermined { .. } => "not determined".into(),
        };
        let sources: String = d
            .sources
            .iter()
            .map(|s| {
                format!(
                    "<a href=\"{}\" rel=\"noopener\" target=\"_blank\">{}</a> ({}; {}). ",
                    escape(s.url),
                    escape(s.title),
                    escape(s.date),
                    escape(s.locator)
                )
            })
            .collect();
        rows.push((
            scales.as_ref().map_or(f64::INFINITY, |s| s.mu),
            format!(
                "<tr data-testid=\"deployment-{}\"><th scope=\"row\">{} ({}, {}) <sup>[{}]</sup></th>{values}<td>{}</td><td>{}</td></tr>",
                escape(d.id),
                escape(d.name),
                escape(d.organisation),
                d.year,
                i + 1,
                escape(d.unit_short),
                escape(&form),
            ),
        ));
        notes.push_str(&format!(
            "<li><strong>{}.</strong> Unit of privacy: {} Reported: {} Conversion: {} Sources: {sources}</li>",
            escape(d.name),
            escape(d.unit),
            escape(d.reported),
            escape(d.assumptions),
        ));
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let rows: String = rows.into_iter().map(|r| r.1).collect();
    format!(
        "<details class=\"statement-part\" data-testid=\"statement-deployments\"><summary>Deployed systems on \
         the same axes</summary><p class=\"help\">Each deployment reports on its own scale; converted where its \
         published parameters determine a curve, with the conversion's assumption (notes below); rows by μ, this run among them. Units differ \
         (a record, a person, a device-day): compare with care.</p><div class=\"table-scroll\" tabindex=\"0\" \
         role=\"region\" aria-label=\"Deployments\"><table class=\"deployments\"><thead><tr>\
         <th scope=\"col\">System</th><th scope=\"col\">μ</th><th scope=\"col\">TPR @ 1 %</th>\
         <th scope=\"col\">TPR @ 0.1 %</th><th scope=\"col\">Advantage</th><th scope=\"col\">Unit</th>\
         <th scope=\"col\">Read as</th></tr></thead><tbody>{rows}</tbody></table></div>\
         <ol class=\"deployment-notes\">{notes}</ol></details>"
    )
}

/// The panel's body for a rendered statement.
/// `deployed` is [`super::deployments::all_scales`].
pub fn body(r: &Rendered, deployed: &[Result<Scales, String>]) -> String {
    let scales_attr = if r.scales_pending {
        "pending"
    } else if r.scales.is_some() {
        "done"
    } else {
        "none"
    };
    let status = if r.scales_pending {
        Some("Composing the trade-off curve for the other scales…".to_string())
    } else {
        r.scales_missing
            .as_ref()
            .map(|w| format!("No other scales: {w}."))
    };
    let mut out = format!(
        "<p class=\"statement-text\" id=\"statement-text\" data-testid=\"statement-text\" data-value=\"{}\" \
         data-certified=\"{}\" data-scales=\"{scales_attr}\">{}</p>{}",
        r.eps,
        r.certified,
        escape(&r.text),
        copy_button("statement-text")
    );
    if let Some(m) = status {
        out.push_str(&format!(
            "<p class=\"status\" role=\"status\" data-testid=\"statement-scales-status\">{}</p>",
            escape(&m)
        ));
    }
    if let Some(s) = &r.scales {
        out.push_str(&scales_table(s));
    }
    let part = |summary: &str, id: &str, text: &str| {
        format!(
            "<details class=\"statement-part\"><summary>{}</summary><pre tabindex=\"0\" id=\"{id}\" \
             data-testid=\"{id}\">{}</pre>{}</details>",
            escape(summary),
            escape(text),
            copy_button(id)
        )
    };
    out.push_str(&part(
        &format!("The record (JSON, schema {})", r.schema),
        "statement-json",
        &r.json,
    ));
    out.push_str(&part(
        "Model card fragment (Hugging Face)",
        "statement-model-card",
        &r.model_card,
    ));
    match &r.snippet {
        Some(c) => {
            let lines: String = c
                .lines
                .iter()
                .map(|l| {
                    format!(
                        "<li data-testid=\"statement-repro-{}\" data-value=\"{}\"><code>{}</code> ({}): {}</li>",
                        escape(&l.key),
                        l.expected,
                        escape(&l.key),
                        escape(&l.library),
                        escape(&l.reproduces)
                    )
                })
                .collect();
            out.push_str(&format!(
                "<details class=\"statement-part\"><summary>Reproduce it (Python)</summary><ul class=\"repro-lines\">{lines}</ul>\
                 <pre tabindex=\"0\" id=\"statement-python\" data-testid=\"statement-python\">{}</pre>{}</details>",
                escape(&c.code),
                copy_button("statement-python")
            ));
        }
        None => out.push_str(
            "<details class=\"statement-part\"><summary>Reproduce it (Python)</summary><p class=\"help\">No library \
             accounts for this release as it is (another sampler, users, phases or tuning, or a mechanism \
             dp_accounting has no event for): their numbers would not be its guarantee.</p></details>",
        ),
    }
    out.push_str(&deployments(r.scales.as_ref(), deployed));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_every_deployment_has_a_row() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
        let html = deployments(None, &super::super::deployments::all_scales());
        for d in DEPLOYMENTS {
            assert!(
                html.contains(&format!("data-testid=\"deployment-{}\"", d.id)),
                "{}",
                d.id
            );
        }
        // Tags balance (a cheap well-formedness check of the table).
        assert_eq!(html.matches("<tr").count(), html.matches("</tr>").count());
    }
}
