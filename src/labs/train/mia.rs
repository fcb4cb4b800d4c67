//! The training lab's membership inference (`mia=loss|lira`): `shadows` models, each trained by the
//! lab's three trainers (DP-SGD, clipping only, non-private) on a random half of the training rows, in
//! chunks for the worker pool; then every model in turn is the target of the loss-threshold attack and
//! of LiRA with the others as its shadows ([`crate::attacks::membership`]), and the ROC beside the cap
//! the accountant's certified trade-off curve puts on it.

use super::params::TrainParams;
use super::run::{prepare_data, Plan};
use crate::attacks::membership::{certified_cap, Cap, Lira, Observations};
use crate::attacks::scores::Sweep;
use crate::error::{Error, Result};
use crate::learning::data::Dataset;
use crate::learning::dpsgd::{stream, Checkpoint, Trainer, Variant};
use crate::link::query::{Query, Reader};
use rand::Rng;
use serde::{Deserialize, Serialize};

crate::choice! {
    /// Which membership attack the lab headlines.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum MiaMode {
        /// None.
        Off = "off" | "0" | "no" => "Off",
        /// The loss threshold (Yeom et al. 2018).
        Loss = "loss" | "yeom" => "Loss threshold (Yeom et al. 2018)",
        /// LiRA (Carlini et al. 2022), online.
        Lira = "lira" | "on" | "1" => "LiRA with shadow models (Carlini et al. 2022)",
    }
}

/// The membership attack's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MiaParams {
    /// The headlined attack (`mia`).
    pub mode: MiaMode,
    /// Models trained, each the target once and a shadow of the others (`shadows`, 8 to 256).
    pub shadows: u64,
}

impl Default for MiaParams {
    fn default() -> Self {
        MiaParams {
            mode: MiaMode::Off,
            shadows: 64,
        }
    }
}

/// Models per worker job.
pub const CHUNK: u64 = 8;

/// The stream of a model's seed that draws which rows it trains on.
const MEMBER_STREAM: u64 = 3;

impl MiaParams {
    /// Reads the attack's keys.
    pub fn read(r: &mut Reader) -> MiaParams {
        let d = MiaParams::default();
        let mode = r.parse_with(
            "mia",
            d.mode,
            |m| m.key().into(),
            |s| {
                MiaMode::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("mia", s, "must be off, loss or lira"))
            },
        );
        let shadows = r.whole("shadows", d.shadows, 8, 256);
        MiaParams { mode, shadows }
    }

    /// Prints the attack's keys when it is on.
    pub fn write(&self, q: &mut Query) {
        if self.mode != MiaMode::Off {
            q.set("mia", self.mode.key());
            q.set("shadows", self.shadows.to_string());
        }
    }

    /// The chunks of models, as (first, count).
    pub fn chunks(&self) -> Vec<(u64, u64)> {
        (0..self.shadows.div_ceil(CHUNK))
            .map(|k| (k * CHUNK, CHUNK.min(self.shadows - k * CHUNK)))
            .collect()
    }
}

/// Model k's seed: its initial parameters, batches and noise, and which rows it trains on.
fn model_seed(p: &TrainParams, k: u64) -> u64 {
    p.seed.wrapping_mul(1_000_000).wrapping_add(500_000 + k)
}

/// Which of `rows` training rows model k trains on: each with probability ½.
fn members(p: &TrainParams, k: u64, rows: usize) -> Vec<bool> {
    let mut rng = stream(model_seed(p, k), MEMBER_STREAM);
    (0..rows).map(|_| rng.random::<bool>()).collect()
}

/// Models `first .. first + count`, each trained on its half of the training rows for the lab's T
/// steps at its q, σ, C, η and λ (the same mechanism, so the same certified ε): each model's φ on
/// every training row, per trainer in [`Variant`] order, model-major.
///
/// # Errors
/// Data or parameters the trainer refuses, or a run that diverges.
pub fn mia_chunk(
    p: &TrainParams,
    csv: Option<&Dataset>,
    first: u64,
    count: u64,
) -> Result<[Vec<f64>; 3]> {
    let split = prepare_data(p, csv)?;
    let plan = Plan::new(p, &split)?;
    let pool = &split.train;
    let mut phi: [Vec<f64>; 3] = Default::default();
    let mut ws = plan.arch.workspace();
    for k in first..first + count {
        let seed = model_seed(p, k);
        let mask = members(p, k, pool.rows());
        let idx: Vec<usize> = (0..pool.rows()).filter(|&i| mask[i]).collect();
        let half = pool.select(&idx);
        // The normaliser is the expected half's q·n/2, the same with or without any one record.
        let mut trainer = Trainer::new(&plan.arch, &half, plan.hyper, seed)?
            .with_normaliser(plan.hyper.q * pool.rows() as f64 / 2.0);
        let mut at = Checkpoint::start(&plan.arch, seed);
        let mut clipped = (0, 0);
        while at.step < plan.steps {
            trainer.step(&mut at, &mut clipped)?;
        }
        for (v, out) in phi.iter_mut().enumerate() {
            for i in 0..pool.rows() {
                let z = plan.arch.logit(&at.theta[v], pool.row(i), &mut ws);
                out.push(if pool.y[i] == 1.0 { z } else { -z });
            }
        }
    }
    Ok(phi)
}

/// One attack on one trainer's models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackResult {
    /// TPR at FPR 0.1% and 1% (on the ROC hull): an estimate from the pairs.
    pub tpr_low_fpr: (f64, f64),
    /// Area under the ROC hull.
    pub auc: f64,
    /// The ROC hull's points (FPR, TPR).
    pub roc: Vec<(f64, f64)>,
}

impl AttackResult {
    fn of((ins, outs): (Vec<f64>, Vec<f64>)) -> Result<AttackResult> {
        let s = Sweep::new(&ins, &outs)?;
        Ok(AttackResult {
            tpr_low_fpr: (s.tpr_at_fpr(0.001), s.tpr_at_fpr(0.01)),
            auc: s.auc(),
            roc: s.roc(),
        })
    }
}

/// The three attacks, in [`MiaReport::attacks`] order.
pub const ATTACKS: [&str; 3] = ["loss threshold", "LiRA offline", "LiRA online"];

/// The membership attacks' numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MiaReport {
    /// Models, and records in the pool.
    pub models: u64,
    /// See [`MiaReport::models`].
    pub records: u64,
    /// `attacks[a][v]`: attack a ([`ATTACKS`]) on trainer v's models ([`Variant`] order).
    pub attacks: Vec<[AttackResult; 3]>,
    /// The certified cap on the private models, `None` when σ = 0 (no guarantee).
    pub cap: Option<Cap>,
}

impl MiaReport {
    /// The headlined attack's index in [`MiaReport::attacks`].
    pub fn headline(mode: MiaMode) -> usize {
        match mode {
            MiaMode::Loss => 0,
            _ => 2,
        }
    }
}

/// The attacks' numbers from every chunk's φ (in chunk order), beside the certified cap.
///
/// # Errors
/// Chunks that do not match the link's models or rows, or a scoring error.
pub fn mia_report(p: &TrainParams, csv_rows: usize, chunks: &[[Vec<f64>; 3]]) -> Result<MiaReport> {
    let models = p.mia.shadows as usize;
    let records = p.train_rows(csv_rows);
    let member: Vec<bool> = (0..models as u64)
        .flat_map(|k| members(p, k, records))
        .collect();
    let observations = |v: usize| Observations {
        models,
        records,
        phi: chunks.iter().flat_map(|c| c[v].iter().copied()).collect(),
        member: member.clone(),
    };
    let per_variant: Vec<Observations> = Variant::ALL
        .iter()
        .map(|&v| observations(v as usize))
        .collect();
    let mut attacks = Vec::new();
    for a in 0..ATTACKS.len() {
        let mut row = Vec::new();
        for o in &per_variant {
            row.push(AttackResult::of(match a {
                0 => o.loss_scores()?,
                1 => o.lira_scores(Lira::Offline)?,
                _ => o.lira_scores(Lira::Online)?,
            })?);
        }
        let row: [AttackResult; 3] = row
            .try_into()
            .map_err(|_| Error::invalid("shadows", models, "needs three trainers"))?;
        attacks.push(row);
    }
    let steps = p.planned_steps(csv_rows)?;
    Ok(MiaReport {
        models: models as u64,
        records: records as u64,
        attacks,
        cap: (p.sigma > 0.0)
            .then(|| certified_cap(p.rate(csv_rows), p.sigma, steps, p.delta))
            .flatten(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;

    #[test]
    fn keys_round_trip_and_bad_values_fall_back() {
        let (p, notices) = TrainParams::from_query(&Query::parse("mia=lira&shadows=16"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!((p.mia.mode, p.mia.shadows), (MiaMode::Lira, 16));
        assert_eq!(TrainParams::from_query(&p.to_query()).0, p);
        assert!(!TrainParams::default()
            .to_query()
            .to_query_string()
            .contains("mia"));
        let (p, notices) = TrainParams::from_query(&Query::parse("mia=x&shadows=2"));
        assert_eq!((notices.len(), p.mia), (2, MiaParams::default()));
        let p = MiaParams {
            shadows: 20,
            ..MiaParams::default()
        };
        assert_eq!(p.chunks(), vec![(0, 8), (8, 8), (16, 4)]);
    }

    #[test]
    fn chunks_agree_and_the_private_models_stay_under_the_cap() {
        let p = TrainParams {
            epochs: 5.0,
            mia: MiaParams {
                mode: MiaMode::Lira,
                shadows: 16,
            },
            ..TrainParams::default()
        };
        let whole = mia_chunk(&p, None, 0, 16).unwrap();
        let parts: Vec<[Vec<f64>; 3]> = p
            .mia
            .chunks()
            .iter()
            .map(|&(f, c)| mia_chunk(&p, None, f, c).unwrap())
            .collect();
        for v in 0..3 {
            let joined: Vec<f64> = parts.iter().flat_map(|c| c[v].iter().copied()).collect();
            assert_eq!(joined, whole[v]);
        }
        let r = mia_report(&p, 0, &parts).unwrap();
        assert_eq!((r.models, r.records, r.attacks.len()), (16, 455, 3));
        let cap = r.cap.clone().unwrap();
        assert!(
            cap.auc > 0.5 && cap.auc < 1.0 && cap.tpr_low_fpr.0 >= 0.001,
            "{cap:?}"
        );
        for a in &r.attacks {
            // 16 × 455 pairs: the private models' AUC is within sampling noise of ½ and under the cap.
            assert!(
                a[0].auc < cap.auc.max(0.5) + 0.03,
                "{:?} vs {}",
                a[0].auc,
                cap.auc
            );
        }
        // σ = 0 has no guarantee, so no cap; a chunk missing is refused.
        let open = TrainParams {
            sigma: 0.0,
            ..p.clone()
        };
        assert!(mia_report(&open, 0, &parts).unwrap().cap.is_none());
        assert!(mia_report(&p, 0, &parts[..1]).is_err());
    }
}
