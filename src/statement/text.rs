//! The statement in words: the paragraph a practitioner pastes, the model-card fragment, and what the
//! guarantee covers and does not. Everything is read off a [`Statement`], so the words and the JSON
//! record cannot disagree.

use super::{Caveat, Mechanism, RunFacts, Statement, Unit};
use crate::accounting::guarantee::{Accountant, Event, Guarantee, Side};
use crate::link::format::{count, sig, sig_down, sig_up};

fn caveat(id: &str, text: &str) -> Caveat {
    Caveat {
        id: id.into(),
        text: text.into(),
    }
}

/// What `g` covers beyond the obvious, and what it does not, for the lab's `facts`.
pub(super) fn caveats(g: &Guarantee, facts: &RunFacts) -> (Vec<Caveat>, Vec<Caveat>) {
    let (mut covered, mut not) = (Vec::new(), Vec::new());
    match &g.event {
        Event::Training(e) => {
            covered.push(caveat(
                "checkpoints",
                "every intermediate model of the accounted steps: the accountant composes all of them, \
                 so releasing checkpoints along the way costs nothing more",
            ));
            if e.tuning.is_some() && g.accountant == Accountant::Tuning {
                covered.push(caveat(
                    "tuning",
                    "hyper-parameter tuning, as the random number of runs stated above",
                ));
            } else {
                not.push(caveat(
                    "tuning",
                    "hyper-parameter tuning: ε covers one run with fixed hyper-parameters; choosing \
                     them by training several times on the same records costs privacy not counted here \
                     (Papernot & Steinke 2022 show how to count it)",
                ));
            }
            not.push(caveat(
                "more-training",
                "training beyond the accounted steps, restarts, or other runs on the same records; \
                 choosing a checkpoint with private validation data",
            ));
            if facts.standardised_on_training_rows {
                not.push(caveat(
                    "standardisation",
                    "the standardisation of features: their means and deviations were computed from \
                     the training rows without noise, and the model depends on them",
                ));
            }
            if e.users <= 1 {
                not.push(caveat(
                    "several-records",
                    "people with several records: the unit is one record, so a person with k records \
                     is protected only at group privacy's weaker level unless accounted per user",
                ));
            }
            not.push(caveat(
                "public-choices",
                "choices made before training (the architecture, the data set's size behind q, \
                 preprocessing), which are treated as public",
            ));
        }
        Event::Correlated(_) => return caveats(&g.accounted(), facts),
        Event::List(_) => {
            not.push(caveat(
                "sensitivity",
                "the queries' sensitivity: each query is assumed to move by at most Δ when one \
                 person's data changes; bounding it (clipping, capping contributions) is the \
                 analyst's job and is not checked here",
            ));
        }
    }
    not.push(caveat(
        "floating-point",
        "the floating-point implementation: the bound is for exact real-valued noise; naive \
         floating-point samplers can leak more (Mironov 2012)",
    ));
    (covered, not)
}

/// The unit and the relation, one sentence.
fn unit_sentence(s: &Statement) -> String {
    let records = match &s.mechanism {
        Mechanism::DpSgd {
            records: Some(n), ..
        } => format!(" (of n = {} training records)", count(*n)),
        _ => String::new(),
    };
    match s.unit {
        Unit::Record => format!(
            "Unit of privacy: one record{records}; neighbouring data sets: {}.",
            s.relation_words
        ),
        Unit::User { records_per_user } => format!(
            "Unit of privacy: one user, who may hold up to {records_per_user} records{records}; \
             neighbouring data sets differ in all of one user's records."
        ),
    }
}

/// The mechanism, one or two sentences.
fn mechanism_sentence(s: &Statement) -> String {
    match &s.mechanism {
        Mechanism::DpSgd {
            sampler_words,
            sampling_rate,
            expected_batch,
            noise_multiplier,
            clipping_norm,
            steps,
            epochs,
            phases,
            tuning,
            ..
        } => {
            let epochs = epochs.map_or(String::new(), |e| format!(" ({} epochs)", sig(e, 4)));
            let batch =
                expected_batch.map_or(String::new(), |b| format!(", expected batch {}", sig(b, 4)));
            let clip = clipping_norm.map_or_else(
                || "to an L2 norm C".to_string(),
                |c| format!("to L2 norm C = {}", sig(c, 4)),
            );
            let mut out = format!(
                "Training ran DP-SGD for T = {} steps{epochs}: each step takes a batch ({sampler_words}, \
                 rate q = {}{batch}), clips each per-example gradient {clip} and adds Gaussian noise \
                 of standard deviation σ·C to their sum, with noise multiplier σ = {}.",
                count(*steps),
                sig(*sampling_rate, 4),
                sig(*noise_multiplier, 4),
            );
            if let Some(p) = phases {
                let list: Vec<String> = p
                    .iter()
                    .map(|(q, s, t)| {
                        format!(
                            "{} steps at q = {}, σ = {}",
                            count(*t),
                            sig(*q, 4),
                            sig(*s, 4)
                        )
                    })
                    .collect();
                out.push_str(&format!(" It trains in phases: {}.", list.join("; ")));
            }
            if let Some(t) = tuning {
                out.push_str(&format!(" It releases {t}."));
            }
            out
        }
        Mechanism::Composition {
            items, description, ..
        } => match description {
            Some(d) => format!("The release is {d}."),
            None => format!("The release composes {}.", items.join("; ")),
        },
    }
}

/// The ε sentence: the certified claim, or what is known and that no certified ε is stated.
fn epsilon_sentence(s: &Statement) -> String {
    let e = &s.epsilon;
    let delta = sig_up(s.delta.value, 3);
    if e.certified {
        let what = match s.mechanism {
            Mechanism::DpSgd { .. } => "The run",
            Mechanism::Composition { .. } => "The release",
        };
        return format!(
            "{what} satisfies (ε, δ)-differential privacy with ε ≤ {} at δ = {delta}: a certified \
             upper bound computed by {} assuming {}, rounded up.",
            e.shown, e.accountant_words, e.assumes
        );
    }
    match e.side {
        Side::Upper => format!(
            "{} gives ε ≤ {} at δ = {delta}, but that number {}. This statement therefore gives no \
             certified ε for the run.",
            capitalise(&e.accountant_words),
            e.shown,
            e.condition
                .as_deref()
                .unwrap_or("does not hold for the run as it is")
        ),
        side => format!(
            "No certified upper bound on ε is known for {}: the best known is a {} ε {} {} at \
             δ = {delta} ({}). This statement therefore gives no certified ε; the Poisson \
             accountants' smaller numbers hold only for Poisson sampling.",
            e.assumes,
            side.in_words(),
            side.symbol(),
            e.shown,
            e.accountant_words
        ),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// The scales sentence, once computed.
fn scales_sentence(s: &Statement) -> Option<String> {
    let sc = s.scales?;
    let pct = |x: f64| format!("{} %", sig_up(100.0 * x, 3));
    Some(format!(
        "On other scales, from the same certified trade-off curve{}: μ-GDP with μ ≤ {} (for false-positive \
         rates in [10⁻⁶, 1 − 10⁻⁶]; gdpnum's regret of that fit ≈ {}); a membership-inference \
         attacker's true-positive rate is at most {} at a false-positive rate of 1 % and at most {} at \
         0.1 %, and its advantage (TPR − FPR) at most {}.",
        if sc.one_step_only { " (the one-step route's)" } else { "" },
        sig_up(sc.mu, 3),
        sig(sc.regret, 2),
        pct(sc.tpr[0]),
        pct(sc.tpr[1]),
        sig_up(sc.advantage, 3),
    ))
}

/// The audit sentence, where one ran; a lower bound above the certified ε is called a contradiction.
fn audit_sentence(s: &Statement) -> Option<String> {
    let a = s.audit.as_ref()?;
    let contradicts = s.epsilon.certified && a.eps_lower > s.epsilon.value;
    Some(format!(
        "An audit in the page ({}) found ε ≥ {} with {} % confidence: a lower bound on the ε of the code \
         that ran{}.",
        a.threat_model,
        sig_down(a.eps_lower, 3),
        sig(100.0 * a.confidence, 3),
        if contradicts {
            ", ABOVE the certified bound: the code or the accounting is wrong"
        } else {
            ", consistent with the certified bound"
        }
    ))
}

/// The whole paragraph.
pub fn paragraph(s: &Statement) -> String {
    let mut parts = vec![
        unit_sentence(s),
        mechanism_sentence(s),
        epsilon_sentence(s),
        format!("{}.", s.delta.rule),
    ];
    parts.extend(scales_sentence(s));
    parts.extend(audit_sentence(s));
    if !s.covered.is_empty() {
        let list: Vec<&str> = s.covered.iter().map(|c| c.text.as_str()).collect();
        parts.push(format!("Covered: {}.", list.join("; ")));
    }
    let list: Vec<&str> = s.not_covered.iter().map(|c| c.text.as_str()).collect();
    parts.push(format!("Not covered: {}.", list.join("; ")));
    parts.push(format!(
        "Computed with {} {} (commit {}); the page that reproduces it: ?{}.",
        s.tool.name, s.tool.version, s.tool.commit, s.link
    ));
    parts.join(" ")
}

/// A model-card fragment in the Hugging Face model card's vocabulary: its `tags` metadata, and the
/// statement under Training Details → Training Procedure (the template's "Training regime" bullet
/// and a privacy subsection with the key numbers as a table).
pub fn model_card(s: &Statement) -> String {
    let mut rows: Vec<(String, String)> = vec![
        (
            "Unit of privacy".into(),
            match s.unit {
                Unit::Record => "one record".into(),
                Unit::User { records_per_user } => {
                    format!("one user (≤ {records_per_user} records)")
                }
            },
        ),
        ("Neighbouring relation".into(), s.relation_words.clone()),
    ];
    let regime = match &s.mechanism {
        Mechanism::DpSgd {
            sampler_words,
            sampling_rate,
            noise_multiplier,
            clipping_norm,
            steps,
            ..
        } => {
            rows.push((
                "Sampling".into(),
                format!("{sampler_words}, q = {}", sig(*sampling_rate, 6)),
            ));
            rows.push(("Noise multiplier σ".into(), sig(*noise_multiplier, 6)));
            if let Some(c) = clipping_norm {
                rows.push(("Clipping norm C".into(), sig(*c, 6)));
            }
            rows.push(("Steps".into(), count(*steps)));
            "DP-SGD (differentially private training)".to_string()
        }
        Mechanism::Composition { list, .. } => {
            rows.push(("Mechanisms".into(), format!("`{list}`")));
            "differentially private release".to_string()
        }
    };
    rows.push(("δ".into(), sig_up(s.delta.value, 3)));
    rows.push((
        "ε".into(),
        if s.epsilon.certified {
            format!(
                "≤ {} (certified, {})",
                s.epsilon.shown, s.epsilon.accountant_words
            )
        } else {
            "not certified for this run (see the statement)".into()
        },
    ));
    if let Some(sc) = s.scales {
        rows.push(("μ-GDP".into(), format!("μ ≤ {}", sig_up(sc.mu, 3))));
    }
    rows.push((
        "Computed with".into(),
        format!("{} {} ({})", s.tool.name, s.tool.version, s.tool.commit),
    ));
    let table = crate::link::embed::markdown_table(("Privacy", "Value"), &rows);
    format!(
        "---\ntags:\n- differential-privacy\n---\n\n## Training Details\n\n### Training Procedure\n\n\
         #### Training Hyperparameters\n\n- **Training regime:** {regime}; the privacy statement \
         below.\n\n#### Differential privacy\n\n{}\n\n{table}",
        paragraph(s)
    )
}

/// Every number the paragraph states for ε after `ε ≤ ` or `ε ≥ `, as a reader reads it back (tests).
#[cfg(test)]
pub(super) fn stated_eps(text: &str) -> Vec<f64> {
    ["ε ≤ ", "ε ≥ "]
        .iter()
        .flat_map(|m| {
            text.match_indices(m)
                .filter_map(|(i, _)| crate::link::format::read_shown(&text[i + m.len()..]))
                .collect::<Vec<_>>()
        })
        .collect()
}
