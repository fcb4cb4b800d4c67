//! What the image lab's page says, written here so that the page only draws: the headline from the
//! run's guarantee and its accuracy, and what the projection's privacy is.

use super::jobs::EpochPoint;
use super::{ImageModel, ImagesParams};
use crate::accounting::guarantee::{Guarantee, HEADLINE_DIGITS};
use crate::link::format::{sig, sig_up};

/// The headline: the certified ε of the planned run (Poisson sampling, add/remove, the PCA's
/// Gaussian included when private), and the test accuracy reached so far.
pub fn headline(
    p: &ImagesParams,
    guarantee: Option<&Result<Guarantee, String>>,
    last: Option<&EpochPoint>,
) -> String {
    let eps = match guarantee {
        None => "ε: computing…".to_string(),
        Some(Err(e)) => format!("ε could not be computed: {e}"),
        Some(Ok(g)) if g.eps.is_infinite() => "σ = 0: this run is not private".to_string(),
        Some(Ok(g)) => format!(
            "{} at δ = {} over {} epochs ({}, Poisson sampling at q = {}, add/remove; {})",
            g.inequality(HEADLINE_DIGITS),
            sig(g.delta, 3),
            p.epochs,
            g.side.in_words(),
            sig(p.rate(), 4),
            pca_words(p)
        ),
    };
    match last {
        Some(e) => format!(
            "{eps}. Test accuracy {} after {} of {} epochs.",
            sig(e.accuracy, 4),
            e.epoch,
            p.epochs
        ),
        None => format!("{eps}."),
    }
}

/// What the projection costs, in words.
pub fn pca_words(p: &ImagesParams) -> String {
    match p.model {
        ImageModel::Abadi if p.pca_sigma > 0.0 => format!(
            "the PCA's Gaussian at σp = {} included",
            sig_up(p.pca_sigma, 4)
        ),
        ImageModel::Abadi => {
            "the PCA is computed without noise and is NOT covered: the guarantee is the training \
             run's alone"
                .into()
        }
        _ => "no projection: the model reads the pixels".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::guarantee::{Accountant, Side};
    use crate::accounting::samplers::Sampler;

    #[test]
    fn headline_states_the_bound_its_side_and_the_pca() {
        let p = ImagesParams::default();
        let g = Guarantee {
            event: p.event(p.epochs),
            accountant: Accountant::Pld,
            side: Side::Upper,
            assumes: Sampler::Poisson,
            delta: 1e-5,
            eps: 1.234_51,
        };
        let h = headline(&p, Some(&Ok(g)), None);
        assert!(h.starts_with("ε ≤ 1.235 at δ = 1×10⁻⁵"), "{h}");
        assert!(h.contains("σp = 7 included"), "{h}");
        let point = EpochPoint {
            epoch: 2,
            step: 200,
            accuracy: 0.91234,
            loss: 0.3,
        };
        assert!(headline(&p, None, Some(&point))
            .ends_with("Test accuracy 0.9123 after 2 of 10 epochs."));
        let open = ImagesParams {
            pca_sigma: 0.0,
            ..p
        };
        assert!(pca_words(&open).contains("NOT covered"));
    }
}
