//! The image lab's work in the worker pool: the run's certified ε (the PLD of the PCA's Gaussian
//! composed with T subsampled Gaussian steps), and training on MNIST's files, epoch by epoch, with a
//! checkpoint after each so that a paused run resumes bit for bit.

use super::{check, ImageModel, ImagesParams, CLASSES};
use crate::accounting::composed::ComposedPld;
use crate::accounting::guarantee::{Accountant, Guarantee, Side};
use crate::accounting::samplers::Sampler;
use crate::error::Result;
use crate::learning::data::{Dataset, Examples};
use crate::learning::dpsgd::{evaluate, stream, Checkpoint, Trainer};
use crate::learning::images::{ImageRows, ImageSplit};
use crate::learning::pca::{principal_directions, Projection};
use serde::{Deserialize, Serialize};

/// The PCA's random stream (apart from the trainer's init and step streams).
const PCA_STREAM: u64 = 1 << 62;
/// Test images shown as samples, and most mistakes sent.
pub const SHOWN: usize = 24;
/// Progress is sent every this many steps.
const PROGRESS_EVERY: u64 = 10;

/// MNIST's four IDX files, as the page fetched them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageFiles {
    /// Training images.
    #[serde(with = "serde_bytes")]
    pub train_images: Vec<u8>,
    /// Training labels.
    #[serde(with = "serde_bytes")]
    pub train_labels: Vec<u8>,
    /// Test images.
    #[serde(with = "serde_bytes")]
    pub test_images: Vec<u8>,
    /// Test labels.
    #[serde(with = "serde_bytes")]
    pub test_labels: Vec<u8>,
}

impl ImageFiles {
    /// The files parsed.
    ///
    /// # Errors
    /// A malformed file.
    pub fn parse(&self) -> Result<ImageSplit> {
        ImageSplit::parse(
            [
                &self.train_images,
                &self.train_labels,
                &self.test_images,
                &self.test_labels,
            ],
            CLASSES,
        )
    }
}

/// Where a run stands: the DP-SGD checkpoint and the projection it trains on (so that a resumed run
/// need not compute it again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImagesCheckpoint {
    /// The trainer's checkpoint (the private model is `theta[0]`).
    pub at: Checkpoint,
    /// Abadi et al.'s projection, for their network.
    pub projection: Option<Projection>,
}

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ImagesJob {
    /// The run's certified ε.
    Guarantee(ImagesParams),
    /// Training from `from` (or the start) to the end of epoch `until`.
    Train {
        /// The link's parameters.
        params: ImagesParams,
        /// MNIST's files.
        files: Box<ImageFiles>,
        /// A paused run's checkpoint.
        from: Option<Box<ImagesCheckpoint>>,
        /// The epoch to stop after (at most the link's epochs).
        until: u64,
    },
}

/// One epoch's end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EpochPoint {
    /// Epochs done.
    pub epoch: u64,
    /// Steps done.
    pub step: u64,
    /// Test accuracy of the private model.
    pub accuracy: f64,
    /// Its mean test cross-entropy.
    pub loss: f64,
}

/// A test image with its label and, for a mistake, what the model said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Digit {
    /// Its index among the test images.
    pub index: usize,
    /// Its pixels (28 × 28).
    #[serde(with = "serde_bytes")]
    pub pixels: Vec<u8>,
    /// Its label.
    pub label: u8,
    /// The model's class (its label for a sample).
    pub predicted: u8,
}

/// What an [`ImagesJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ImagesUpdate {
    /// The run's guarantee.
    Guarantee(Result<Guarantee>),
    /// The data is read (and projected): the first test images.
    Prepared(Vec<Digit>),
    /// Steps done so far.
    Progress(u64),
    /// An epoch ended.
    Epoch(EpochPoint),
    /// The run's checkpoint after the last epoch sent.
    Checkpoint(Box<ImagesCheckpoint>),
    /// The first test images the model gets wrong, at the end of the job.
    Mistakes(Vec<Digit>),
}

/// The run's certified ε at δ after `epochs` epochs: the PLD's upper side for the link's event
/// ([`ImagesParams::items`]); ∞ without noise.
///
/// # Errors
/// Parameters the accountant refuses.
pub fn epsilon_after(p: &ImagesParams, epochs: u64) -> Result<f64> {
    if p.sigma == 0.0 {
        return Ok(f64::INFINITY);
    }
    Ok(ComposedPld::new(&p.items(epochs))?.epsilon(p.delta))
}

/// The run's guarantee: its certified ε after the link's epochs, for Poisson sampling.
///
/// # Errors
/// Parameters the accountant refuses.
pub fn guarantee(p: &ImagesParams) -> Result<Guarantee> {
    Ok(Guarantee {
        event: p.event(p.epochs),
        accountant: Accountant::Pld,
        side: Side::Upper,
        assumes: Sampler::Poisson,
        delta: p.delta,
        eps: epsilon_after(p, p.epochs)?,
    })
}

/// The training rows as the model reads them.
enum Features {
    Pixels(ImageRows, ImageRows),
    Projected(Dataset, Dataset),
}

impl Features {
    fn train(&self) -> &dyn Examples {
        match self {
            Features::Pixels(train, _) => train,
            Features::Projected(train, _) => train,
        }
    }
    fn test(&self) -> &dyn Examples {
        match self {
            Features::Pixels(_, test) => test,
            Features::Projected(_, test) => test,
        }
    }
}

/// Trains the link's model from `from` to the end of epoch `until`, sending each epoch's test
/// accuracy and checkpoint.
///
/// # Errors
/// Malformed files, parameters out of range, or a model that diverged.
pub fn train(
    p: &ImagesParams,
    files: &ImageFiles,
    from: Option<ImagesCheckpoint>,
    until: u64,
    emit: &mut dyn FnMut(ImagesUpdate),
) -> Result<()> {
    check(p)?;
    let split = files.parse()?;
    let images = split.train.first(p.rows as usize);
    let samples = (0..SHOWN.min(split.test.rows()))
        .map(|i| digit(&split.test, i, split.test.labels[i]))
        .collect();
    let (saved, at) = match from {
        Some(c) => (c.projection, Some(c.at)),
        None => (None, None),
    };
    let mut projection = None;
    let features = if p.model == ImageModel::Abadi {
        let proj = match saved {
            Some(proj) if proj.k() == p.pca && proj.dim == images.dim() => proj,
            _ => {
                let rows: Vec<usize> = (0..images.rows()).collect();
                let mut rng = stream(p.seed, PCA_STREAM);
                principal_directions(&images, &rows, p.pca, p.pca_sigma, &mut rng)?
            }
        };
        let f = Features::Projected(proj.project(&images), proj.project(&split.test));
        projection = Some(proj);
        f
    } else {
        Features::Pixels(images, split.test.clone())
    };
    emit(ImagesUpdate::Prepared(samples));
    let arch = p.architecture();
    let mut trainer = Trainer::new(&arch, features.train(), p.hyper(), p.seed)?.exact();
    let mut at = at.unwrap_or_else(|| Checkpoint::start(&arch, p.seed));
    let per_epoch = p.steps_per_epoch();
    let last = until.min(p.epochs) * per_epoch;
    let mut clipped = (0, 0);
    while at.step < last {
        trainer.set_lr(p.learning_rate(at.step as f64 / per_epoch as f64))?;
        trainer.step(&mut at, &mut clipped)?;
        if at.step % PROGRESS_EVERY == 0 {
            emit(ImagesUpdate::Progress(at.step));
        }
        if at.step % per_epoch == 0 {
            let (loss, accuracy) = evaluate(&arch, &at.theta[0], features.test());
            emit(ImagesUpdate::Epoch(EpochPoint {
                epoch: at.step / per_epoch,
                step: at.step,
                accuracy,
                loss,
            }));
            emit(ImagesUpdate::Checkpoint(Box::new(ImagesCheckpoint {
                at: at.clone(),
                projection: projection.clone(),
            })));
        }
    }
    emit(ImagesUpdate::Mistakes(mistakes(
        &arch,
        &at.theta[0],
        &features,
        &split.test,
    )));
    Ok(())
}

/// Test image `i` with the class `predicted`.
fn digit(test: &ImageRows, i: usize, predicted: u8) -> Digit {
    Digit {
        index: i,
        pixels: test.images.image(i).to_vec(),
        label: test.labels[i],
        predicted,
    }
}

/// The first [`SHOWN`] test images the model gets wrong.
fn mistakes(
    arch: &crate::learning::model::Architecture,
    theta: &[f64],
    features: &Features,
    test: &ImageRows,
) -> Vec<Digit> {
    let data = features.test();
    let (mut ws, mut buf) = (arch.workspace(), Vec::new());
    let mut out = Vec::new();
    for i in 0..data.rows() {
        let y = data.label(i);
        let (_, class) = arch.loss_and_class(theta, data.features(i, &mut buf), y, &mut ws);
        if class as f64 != y {
            out.push(digit(test, i, class as u8));
            if out.len() == SHOWN {
                break;
            }
        }
    }
    out
}

/// Runs `job`, sending its updates.
///
/// # Errors
/// As [`train`] (the guarantee's failure is its update's).
pub fn run(job: ImagesJob, emit: &mut dyn FnMut(ImagesUpdate)) -> Result<()> {
    match job {
        ImagesJob::Guarantee(p) => {
            emit(ImagesUpdate::Guarantee(guarantee(&p)));
            Ok(())
        }
        ImagesJob::Train {
            params,
            files,
            from,
            until,
        } => train(&params, &files, from.map(|c| *c), until, emit),
    }
}
