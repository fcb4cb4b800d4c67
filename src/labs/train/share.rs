//! The training lab's share texts: the key numbers as Markdown, the same run as an Opacus snippet, and
//! the trained weights as JSON.

use super::params::{ModelKind, TrainParams};
use super::run::{Point, Prepared};
use crate::accounting::guarantee::Guarantee;
use crate::accounting::samplers::{Sampler, SamplerEpsilon};
use crate::learning::correlated::Mechanism;
use crate::link::query::fmt_f64;

/// The key numbers as a Markdown table (`eps_pld` while the accountant runs: `None`). With batches
/// that are not Poisson samples, the Poisson accountants' rows say they do not apply and the run's own
/// sampler's statement (`own`, `None` while computed) is its ε row, with its kind. With correlated
/// noise the run's guarantee (`correlated`, `None` while computed) is the one ε row.
pub fn markdown(
    p: &TrainParams,
    prepared: Option<&Prepared>,
    last: Option<&Point>,
    eps_pld: Option<f64>,
    eps_rdp: f64,
    own: Option<&SamplerEpsilon>,
    correlated: Option<&Guarantee>,
) -> String {
    let sig = crate::link::format::sig6;
    let rows = prepared.map_or(0, |d| d.train_rows + d.test_rows);
    let mut table = vec![
        (
            "data, model".to_string(),
            format!("{}, {}", p.data.key(), p.model.key()),
        ),
        (
            "q, σ, C, η, λ".into(),
            format!(
                "{}, {}, {}, {}, {}",
                sig(p.rate(rows)),
                fmt_f64(p.sigma),
                fmt_f64(p.clip),
                fmt_f64(p.lr),
                fmt_f64(p.lambda)
            ),
        ),
        (
            "steps".into(),
            last.map_or("(training)".into(), |pt| pt.step.to_string()),
        ),
        ("δ".into(), fmt_f64(p.delta)),
        (
            "neighbouring relation".into(),
            crate::accounting::event::Neighbour::AddRemove
                .in_words()
                .into(),
        ),
    ];
    if p.mech != Mechanism::DpSgd {
        table.push(("noise".into(), p.mech.title()));
        table.push(("batches".into(), p.mech.batches().into()));
        table.push((
            "ε (certified upper bound)".into(),
            correlated.map_or("(computing)".into(), |g| g.claim(6)),
        ));
    } else if p.sampler == Sampler::Poisson {
        table.push((
            "batches".into(),
            crate::accounting::guarantee::sampler_assumption(p.sampler),
        ));
        let up = |x: f64| crate::link::format::sig_up(x, 6);
        table.push((
            "ε, PLD accountant (certified upper bound, Poisson sampling)".into(),
            eps_pld.map_or("(computing)".to_string(), up),
        ));
        table.push((
            "ε, RDP accountant (certified upper bound, looser)".into(),
            up(eps_rdp),
        ));
    } else {
        table.push((
            "batches".into(),
            crate::accounting::guarantee::sampler_assumption(p.sampler),
        ));
        let (rel, eps, how) = super::report::epsilon_statement(p.sampler, own, (f64::NAN, false));
        table.push((
            format!("ε, {how}"),
            own.map_or("(computing)".into(), |_| {
                format!("{rel} {}", super::report::outward(rel, eps, 6))
            }),
        ));
        table.push((
            "ε under Poisson sampling (PLD, RDP; holds only for Poisson sampling, not for this run)"
                .into(),
            format!(
                "{}, {}",
                eps_pld.map_or("(computing)".to_string(), |x| crate::link::format::sig_up(x, 6)),
                crate::link::format::sig_up(eps_rdp, 6)
            ),
        ));
    }
    if let Some(pt) = last {
        for (v, name) in ["DP-SGD", "clipping only", "non-private"]
            .iter()
            .enumerate()
        {
            table.push((
                format!("test accuracy, {name}"),
                format!("{:.4}", pt.test_acc[v]),
            ));
        }
    }
    crate::link::embed::markdown_table(("training", "value"), &table)
}

/// The same configuration in Opacus (Poisson sampling, the expected batch size as the normaliser, as
/// Opacus' `DPOptimizer` does with `poisson_sampling=True`).
pub fn opacus_snippet(p: &TrainParams, dim: usize, rows: usize, steps: u64) -> String {
    let q = p.rate(rows);
    let model = match p.model {
        ModelKind::Logistic => format!("torch.nn.Linear({dim}, 1)"),
        ModelKind::Mlp => {
            let act = match p.act {
                crate::learning::model::Activation::Tanh => "torch.nn.Tanh()",
                crate::learning::model::Activation::Relu => "torch.nn.ReLU()",
            };
            let mut layers = Vec::new();
            let mut fan_in = dim;
            for &h in &p.hidden {
                layers.push(format!("torch.nn.Linear({fan_in}, {h}), {act}"));
                fan_in = h;
            }
            layers.push(format!("torch.nn.Linear({fan_in}, 1)"));
            format!("torch.nn.Sequential({})", layers.join(", "))
        }
    };
    let caveat = if p.mech == Mechanism::DpSgd {
        String::new()
    } else {
        format!(
            "# Opacus has no correlated noise (its issue #393): this is DP-SGD at the same σ, NOT this\n\
             # page's {} run, and its ε is not this run's. jax_privacy implements BandMF and BLTs.\n",
            p.mech.title()
        )
    };
    format!(
        "{caveat}# pip install opacus torch  (X: the standardised training rows, y: 0/1 labels as floats)\n\
         import torch\nfrom opacus import PrivacyEngine\n\
         model = {model}\n\
         # weight_decay applies λ to the biases too; the playground penalises weights only\n\
         optimizer = torch.optim.SGD(model.parameters(), lr={lr}, weight_decay={lam})\n\
         loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=round({q} * len(X)))\n\
         model, optimizer, loader = PrivacyEngine(accountant='prv').make_private(\n    module=model, optimizer=optimizer, data_loader=loader,\n    noise_multiplier={sigma}, max_grad_norm={clip}, poisson_sampling=True)\n\
         loss_fn, step = torch.nn.BCEWithLogitsLoss(), 0\n\
         while step < {steps}:\n    for xb, yb in loader:\n        if step == {steps}: break\n        optimizer.zero_grad(); loss_fn(model(xb).squeeze(-1), yb).backward(); optimizer.step(); step += 1\n",
        lr = fmt_f64(p.lr),
        lam = fmt_f64(p.lambda),
        sigma = fmt_f64(p.sigma),
        clip = fmt_f64(p.clip),
        q = fmt_f64(q),
    )
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_numbers(v: &[f64]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|x| {
            if x.is_finite() {
                fmt_f64(*x)
            } else {
                "null".into()
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// A model's parameters as JSON, with what is needed to use them: the standardisation (x ↦ (x −
/// mean)/scale), the layer shapes and the parameter layout (each layer's weights, outputs × inputs
/// row-major, then its biases).
pub fn weights_json(p: &TrainParams, prepared: &Prepared, step: u64, theta: &[f64]) -> String {
    let names: Vec<String> = prepared.names.iter().map(|n| json_string(n)).collect();
    let hidden: Vec<String> = match p.model {
        ModelKind::Logistic => Vec::new(),
        ModelKind::Mlp => p.hidden.iter().map(ToString::to_string).collect(),
    };
    format!(
        "{{\n  \"model\": \"{}\",\n  \"hidden\": [{}],\n  \"activation\": \"{}\",\n  \"step\": {step},\n  \"link\": {},\n  \"features\": [{}],\n  \"mean\": {},\n  \"scale\": {},\n  \"layout\": \"per layer: weights (outputs × inputs, row-major), then biases; logit = last layer's output; P(y = 1) = 1/(1 + e^-logit)\",\n  \"parameters\": {}\n}}\n",
        p.model.key(),
        hidden.join(", "),
        p.act.key(),
        json_string(&format!("?{}", crate::link::query::LinkParams::to_query(p).to_query_string())),
        names.join(", "),
        json_numbers(&prepared.mean),
        json_numbers(&prepared.scale),
        json_numbers(theta),
    )
}
