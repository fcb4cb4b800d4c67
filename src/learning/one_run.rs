//! Auditing in one training run (Steinke, Nasr & Jagielski 2023): m canary records, each added to the
//! training rows with probability ½, one private training run over them all, and each canary's loss on
//! the final model as its score. [`crate::attacks::one_run`] turns the scores into ε.

use crate::accounting::samplers::Sampler;
use crate::error::{Error, Result};
use crate::learning::audit::{Bug, NoisyStep};
use crate::learning::batches::Batches;
use crate::learning::data::Dataset;
use crate::learning::dpsgd::{add_clipped, stream, Hyper, FIRST_STEP_STREAM, INIT_STREAM};
use crate::learning::model::{log_loss, Architecture};
use rand::Rng;

/// The random stream of the canaries and of which of them join (`seed`'s other streams are the run's).
pub const CANARY_STREAM: u64 = 8;

/// One one-run audit's setting: the model (taking the data's features plus one per canary), the
/// training rows, the hyperparameters, the steps, the sampler and the planted bug.
#[derive(Debug, Clone)]
pub struct OneRunSetup<'a> {
    /// The model; it must take the data's features plus m.
    pub arch: &'a Architecture,
    /// The training rows (without the canaries).
    pub data: &'a Dataset,
    /// DP-SGD's hyperparameters.
    pub hyper: Hyper,
    /// Steps of the run.
    pub steps: u64,
    /// How each step's batch is drawn (the trainer's sampler), over the rows and the canaries that
    /// joined.
    pub sampler: Sampler,
    /// Truncated Poisson's batch cap B (read by that sampler only).
    pub cap: u64,
    /// The planted bug.
    pub bug: Bug,
}

/// One run with `m` canaries, each in the training rows with probability ½. Canary i is a record the
/// model can memorise on its own: every row gains m features, 0 except canary i's own, which is 2, and
/// its label is 1 (so only canary i pulls the weight of feature i, as a Dirac canary does a
/// coordinate). Returns the scores (the negated log-loss on the final model) of the canaries that
/// were in and of those left out.
///
/// The run is the lab's DP-SGD over the rows and the canaries that joined: batches drawn by the
/// setup's sampler at `q` (Poisson: each record independently), clipping to C (not for canaries under
/// [`Bug::UnclippedCanary`]), noise σC on the sum, normaliser q·(rows in the run), each changed by its
/// `bug` as in [`crate::learning::audit`].
///
/// # Errors
/// m = 0, a model of the wrong width, or a run that diverges.
pub fn one_run_scores(s: &OneRunSetup, m: usize, seed: u64) -> Result<(Vec<f64>, Vec<f64>)> {
    let OneRunSetup {
        arch,
        data,
        hyper,
        steps,
        bug,
        ..
    } = *s;
    if m == 0 {
        return Err(Error::invalid("canaries", 0, "must be at least 1"));
    }
    let dim = data.dim + m;
    if arch.dim != dim {
        return Err(Error::invalid(
            "canaries",
            m,
            "needs a model with one more input per canary",
        ));
    }
    let mut rng = stream(seed, CANARY_STREAM);
    let joined: Vec<bool> = (0..m).map(|_| rng.random::<bool>()).collect();
    let canary = |i: usize| {
        let mut x = vec![0.0; dim];
        x[data.dim + i] = 2.0;
        x
    };
    // The run's rows: the data (with the canaries' columns at 0), then the canaries that joined.
    let mut rows = Dataset {
        x: Vec::with_capacity((data.rows() + m) * dim),
        y: data.y.clone(),
        dim,
        names: Vec::new(),
    };
    for r in 0..data.rows() {
        rows.x.extend_from_slice(data.row(r));
        rows.x.extend(std::iter::repeat_n(0.0, m));
    }
    for i in (0..m).filter(|&i| joined[i]) {
        rows.x.extend(canary(i));
        rows.y.push(1.0);
    }
    let first_canary = data.rows();
    let Hyper { q, clip, .. } = hyper;
    let mut theta = arch.init(&mut stream(seed, INIT_STREAM));
    let penalised = arch.penalised();
    let (mut ws, mut grad) = (arch.workspace(), vec![0.0; arch.params()]);
    let mut sum = vec![0.0; arch.params()];
    let mut batch = Vec::new();
    let mut batches = Batches::new(s.sampler).capped(s.cap);
    let fixed = q * rows.rows() as f64;
    let step = NoisyStep {
        penalised: &penalised,
        hyper,
        fixed,
        bug,
    };
    for t in 1..=steps {
        let mut rng = stream(seed, FIRST_STEP_STREAM + t);
        // Poisson draws exactly what `poisson_batch` always drew here.
        batches.draw(t, rows.rows(), q, seed, &mut rng, &mut batch);
        sum.fill(0.0);
        for &i in &batch {
            arch.gradient(&theta, rows.row(i), rows.y[i], &mut grad, &mut ws);
            let escapes = bug == Bug::UnclippedCanary && i >= first_canary;
            add_clipped(&mut sum, &grad, (!escapes).then_some(clip));
        }
        step.apply(&mut theta, &mut sum, batch.len(), &mut rng)?;
    }
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    for (i, j) in joined.iter().enumerate() {
        let score = -log_loss(arch.logit(&theta, &canary(i), &mut ws), 1.0);
        if *j {
            ins.push(score);
        } else {
            outs.push(score);
        }
    }
    Ok((ins, outs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::dpsgd::dpsgd_epsilon;
    use crate::accounting::pld::DEFAULT_INTERVAL;
    use crate::attacks::one_run::{epsilon_one_run, OneRunTest};
    use crate::attacks::scores::Sweep;
    use rand_distr::StandardNormal;

    fn blobs() -> Dataset {
        let mut rng = stream(3, 1);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for i in 0..200 {
            let label = (i % 2) as f64;
            for _ in 0..4 {
                x.push(label - 0.5 + rng.sample::<f64, _>(StandardNormal));
            }
            y.push(label);
        }
        Dataset {
            x,
            y,
            dim: 4,
            names: (0..4).map(|k| format!("f{k}")).collect(),
        }
    }

    #[test]
    fn one_run_proves_little_when_private_and_much_when_not() {
        let data = blobs();
        let arch = Architecture::logistic(4 + 400);
        let setup = |sigma: f64, steps: u64| OneRunSetup {
            arch: &arch,
            data: &data,
            hyper: Hyper {
                q: 0.1,
                sigma,
                clip: 1.0,
                lr: 1.0,
                lambda: 0.0,
            },
            steps,
            sampler: Sampler::Poisson,
            cap: u64::MAX,
            bug: Bug::None,
        };
        let run = |sigma: f64, bug: Bug| {
            let s = OneRunSetup {
                bug,
                ..setup(sigma, 200)
            };
            let (ins, outs) = one_run_scores(&s, 400, 5).unwrap();
            assert_eq!(ins.len() + outs.len(), 400);
            let s = Sweep::new(&ins, &outs).unwrap();
            epsilon_one_run(OneRunTest::Binomial, &s, 1e-5, 0.05).unwrap()
        };
        let certified = dpsgd_epsilon(0.1, 2.0, 200, 1e-5, DEFAULT_INTERVAL).unwrap();
        let private = run(2.0, Bug::None);
        assert!(
            private <= certified,
            "one run {private} vs certified {certified}"
        );
        // Without noise every canary is memorised: the scores separate and ε is far from zero.
        let leaky = run(0.0, Bug::None);
        assert!(
            leaky > private && leaky > 0.5,
            "σ = 0: {leaky}, σ = 2: {private}"
        );
        assert!(one_run_scores(&setup(1.0, 10), 0, 1).is_err());
    }
}
