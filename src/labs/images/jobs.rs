//! The image lab's work in the worker pool: the run's certified ε (the PLD of the PCA's Gaussian
//! composed with T subsampled Gaussian steps), reading MNIST's files (and the PCA) before a run, and
//! the run's stretches, each step split over the workers ([`super::mesh`]). A checkpoint every few
//! steps reaches the page, so that a paused run resumes bit for bit.

use super::mesh::{Stepped, Stretch};
use super::prepared::keep;
use super::{check, ImageModel, ImagesParams, CLASSES};
use crate::accounting::composed::ComposedPld;
use crate::accounting::guarantee::{Accountant, Guarantee, Side};
use crate::accounting::samplers::Sampler;
use crate::error::Result;
use crate::jobs::{decode, encode};
use crate::learning::data::{Dataset, Examples};
use crate::learning::dpsgd::{stream, Checkpoint};
use crate::learning::images::{ImageRows, ImageSplit};
use crate::learning::pca::{principal_directions, Projection};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

/// The PCA's random stream (apart from the trainer's init and step streams).
const PCA_STREAM: u64 = 1 << 62;
/// Test images shown as samples, and most mistakes sent.
pub const SHOWN: usize = 24;

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
    /// Reading the files (and, for Abadi et al.'s network, the PCA) before a run's rounds: the first
    /// test images and the run's starting checkpoint.
    Prepare {
        /// The link's parameters.
        params: ImagesParams,
        /// The page's name for these files ([`Stretch::data`]).
        data: u64,
        /// MNIST's files.
        files: Box<ImageFiles>,
        /// A paused run's checkpoint (postcard bytes of an [`ImagesCheckpoint`]).
        from: Option<ByteBuf>,
    },
    /// One worker's part of a run's steps, as a member of a gang ([`super::mesh`]).
    Stretch(Box<Stretch>),
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
    /// The run's starting checkpoint (postcard bytes of an [`ImagesCheckpoint`]) and its step.
    Start {
        /// The checkpoint.
        at: ByteBuf,
        /// Its step.
        step: u64,
    },
    /// This worker does not hold the run's data: send it the files ([`ImageFiles`] as postcard
    /// bytes, on its gang's channel from the page).
    NeedFiles,
    /// A part's report after a step.
    Stepped(Box<Stepped>),
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
pub(super) enum Features {
    Pixels(ImageRows, ImageRows),
    Projected(Dataset, Dataset),
}

impl Features {
    pub(super) fn train(&self) -> &dyn Examples {
        match self {
            Features::Pixels(train, _) => train,
            Features::Projected(train, _) => train,
        }
    }
    pub(super) fn test(&self) -> &dyn Examples {
        match self {
            Features::Pixels(_, test) => test,
            Features::Projected(_, test) => test,
        }
    }
}

/// Reads the files and prepares the run's data in this worker (computing Abadi et al.'s PCA unless
/// `from` holds it), sending the first test images and the run's starting checkpoint.
///
/// # Errors
/// Malformed files or checkpoint, or parameters out of range.
pub fn prepare(
    p: &ImagesParams,
    data: u64,
    files: &ImageFiles,
    from: Option<&[u8]>,
    emit: &mut dyn FnMut(ImagesUpdate),
) -> Result<()> {
    check(p)?;
    let split = files.parse()?;
    emit(ImagesUpdate::Prepared(
        (0..SHOWN.min(split.test.rows()))
            .map(|i| digit(&split.test, i, split.test.labels[i]))
            .collect(),
    ));
    let arch = p.architecture();
    let mut c = match from {
        Some(bytes) => decode(bytes)?,
        None => {
            let mut at = Checkpoint::start(&arch, p.seed);
            // The private model alone trains: the other two starts would only weigh on every round.
            at.theta[1] = Vec::new();
            at.theta[2] = Vec::new();
            ImagesCheckpoint {
                at,
                projection: None,
            }
        }
    };
    let images = split.train.first(p.rows as usize);
    let fits = |proj: &Projection| proj.k() == p.pca && proj.dim == images.dim();
    if p.model == ImageModel::Abadi && !c.projection.as_ref().is_some_and(fits) {
        let rows: Vec<usize> = (0..images.rows()).collect();
        let mut rng = stream(p.seed, PCA_STREAM);
        c.projection = Some(principal_directions(
            &images,
            &rows,
            p.pca,
            p.pca_sigma,
            &mut rng,
        )?);
    }
    keep(p, data, &c, split);
    emit(ImagesUpdate::Start {
        step: c.at.step,
        at: ByteBuf::from(encode(&c)),
    });
    Ok(())
}

/// Test image `i` with the class `predicted`.
pub(super) fn digit(test: &ImageRows, i: usize, predicted: u8) -> Digit {
    Digit {
        index: i,
        pixels: test.images.image(i).to_vec(),
        label: test.labels[i],
        predicted,
    }
}

/// The first [`SHOWN`] test images the model gets wrong (`data` the test rows as it reads them,
/// `test` their pixels).
pub(super) fn mistakes(
    arch: &crate::learning::model::Architecture,
    theta: &[f64],
    data: &dyn Examples,
    test: &ImageRows,
) -> Vec<Digit> {
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
/// As [`prepare`] (the guarantee's failure is its update's); a stretch, which runs only as a gang
/// ([`crate::jobs::gang`]).
pub fn run(job: ImagesJob, emit: &mut dyn FnMut(ImagesUpdate)) -> Result<()> {
    match job {
        ImagesJob::Guarantee(p) => {
            emit(ImagesUpdate::Guarantee(guarantee(&p)));
            Ok(())
        }
        ImagesJob::Prepare {
            params,
            data,
            files,
            from,
        } => prepare(&params, data, &files, from.as_deref().map(|b| &b[..]), emit),
        ImagesJob::Stretch(_) => Err(crate::error::Error::Worker {
            reason: "a run's stretch runs as a gang of workers".into(),
        }),
    }
}
