//! The DP-SGD lab's batch samplers (`sampler=`): what each sampler's accountant reads of the link, and
//! the words beside its number.

use super::DpsgdParams;
use crate::accounting::event::Neighbour;
use crate::accounting::samplers::{Kind, Sampler, SamplerEpsilon, SamplerSetting};

use crate::link::query::fmt_f64;

impl DpsgdParams {
    /// What every sampler's accountant reads: the run ([`DpsgdParams::event`]), δ and the grid.
    pub fn sampler_setting(&self) -> SamplerSetting {
        self.event().sampler_setting(self.delta, self.grid_width())
    }
}

/// Why the user-level band can stay wide on any grid (under replace-one its ends come from different
/// pairs), and what each number is then.
pub fn users_note(p: &DpsgdParams) -> Option<&'static str> {
    (p.neighbour == Neighbour::ReplaceOne).then_some(
        "Replace-one: a user's k records replaced by another user's k. The guarantee removes the \
         user, then adds the other (the two directions' ε added); the lower bound replaces the user \
         by k zero gradients, a pair that happens, and the exact ε lies between. The group lemma \
         runs over 2k records, and records sampled together are one record of sensitivity k \
         replaced. Where the first step's ε₁ is large, the second must hold at δ·e^(−ε₁), below \
         what the accountant resolves (10⁻¹⁰): then the guarantee is a far looser one, taken a step \
         at a time: a step that draws any of the user's records (at rate 1 − (1 − q)^k) is k \
         clipped gradients from one that draws none, and 2k from the other user's.",
    )
}

/// How the sampler draws batches, in a sentence.
pub fn describe(sampler: Sampler) -> &'static str {
    match sampler {
        Sampler::Poisson => "each record joins each batch independently with probability q, so batch sizes vary",
        Sampler::Shuffle => "the data are shuffled afresh each epoch and cut into b = 1/q batches (PyTorch's DataLoader with shuffle=True)",
        Sampler::ShuffleOnce => "the data are shuffled once and then visited in that same order every epoch",
        Sampler::Cyclic => "the data are visited in a fixed order, each record once per epoch at the same position",
        Sampler::Balls => "each record goes into exactly one uniformly random step of each epoch (balls in bins)",
        Sampler::Fixed => "each step draws a batch of exactly qn records without replacement",
        Sampler::Truncated => "each record joins the batch with probability q, and a batch above the cap B is cut to B records chosen at random (a fixed largest shape)",
    }
}

/// What kind of number the sampler's ε is, in words, under the link's relation (`replace_one`).
pub fn statement(e: &SamplerEpsilon, replace_one: bool) -> &'static str {
    match (e.kind, e.sampler, replace_one) {
        (Kind::Exact, _, _) => {
            "exact for zero-out neighbours (a removed record's slot stays, with a zero gradient): the record is seen once per epoch at a known step, so the run is the Gaussian mechanism with σ/√E"
        }
        (Kind::Upper, Sampler::Fixed, false) => {
            "certified upper bound (the Poisson pair with sensitivity 2: a removed record hands its slot to another), with a lower bound from a pair of data sets that attains it step by step"
        }
        (Kind::Upper, Sampler::Fixed, true) => {
            "certified upper bound (the subsampling amplification of Balle, Barthe & Gaboardi 2018 on the Gaussian, composed); the lower bound is a pair of data sets that happens (the other records' gradients −C), and no tight pair is known, so the true ε lies somewhere between"
        }
        (Kind::Upper, Sampler::Balls, false) => {
            "certified upper bound, tight to the grid: the exact law of one epoch's likelihood ratio (the pair of Chua et al. and Feldman & Shenfeld 2025), rounded so that δ can only grow, composed over ⌈T/b⌉ epochs; the lower bound beside it (the largest batch sum) is much weaker"
        }
        (Kind::Upper, Sampler::Balls, true) => {
            "certified upper bound, not tight: replacing a record is removing it, then adding another, so the two directions' certified ε add up (or, with few steps per epoch, the cyclic order's Gaussian with sensitivity 2, which it mixes); the lower bound beside it is the largest batch sum's"
        }
        (Kind::Upper, Sampler::Truncated, _) => {
            "certified upper bound: when the other records alone fill the cap, the record replaces one of them if it survives the cut, so that part of the step moves the sum by up to 2C (the Poisson pair at σ/2, at the rate it survives); the lower bound is the Poisson pair at the rate a record ends up in the batch, a pair that happens. No tight pair is known: the true ε lies between, and a lower cap widens the gap"
        }
        (Kind::Upper, _, _) => "certified upper bound, with a certified lower bound (the PLD band)",
        (Kind::Lower, Sampler::Balls, _) => {
            "lower bound only: the true ε is at least this. The upper bound needs a finer grid than this σ allows"
        }
        (Kind::Lower, _, _) => {
            "lower bound only: no upper bound is known for shuffled batches; the true ε is at least this"
        }
    }
}

/// The warning when the link's sampler shuffles and its ε is known to exceed the Poisson ε that
/// accountants usually print for the same settings.
pub fn shuffle_warning(chosen: &SamplerEpsilon, poisson: &SamplerEpsilon) -> Option<String> {
    let poisson_eps = poisson.upper?;
    let ratio = chosen.lower / poisson_eps;
    (matches!(chosen.sampler, Sampler::Shuffle | Sampler::ShuffleOnce) && ratio > 1.0).then(|| {
        format!(
            "Your data loader shuffles, but the usual accountants (Opacus, TensorFlow Privacy, this page's \
             headline) assume Poisson sampling and print ε = {}. For shuffled batches the true ε is at \
             least {}, {}× that (Chua et al., ICML 2024): reporting the Poisson number understates the \
             privacy loss. Sampling as the accountant assumes (Opacus' Poisson sampler) keeps the certified ε.",
            fmt_f64(round3(poisson_eps)),
            fmt_f64(round3(chosen.lower)),
            fmt_f64(round3(ratio)),
        )
    })
}

/// Three significant digits, for prose.
fn round3(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(2 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::samplers::sampler_epsilon;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn the_link_picks_the_sampler_and_the_warning_quotes_both_numbers() {
        let (p, notices) =
            DpsgdParams::from_query(&Query::parse("q=0.001&sigma=1&steps=1000&sampler=Shuffled"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(p.sampler, Sampler::Shuffle);
        assert!(p.to_query().to_query_string().contains("sampler=shuffle"));
        let s = p.sampler_setting();
        let chosen = sampler_epsilon(&s, p.sampler).unwrap();
        let poisson = sampler_epsilon(&s, Sampler::Poisson).unwrap();
        let text = shuffle_warning(&chosen, &poisson).unwrap();
        assert!(text.contains("0.149") && text.contains("2.88"), "{text}");
        assert!(shuffle_warning(&poisson, &poisson).is_none());
        let (p, notices) = DpsgdParams::from_query(&Query::parse("sampler=sometimes"));
        assert_eq!((p.sampler, notices.len()), (Sampler::Poisson, 1));
        assert!(!DpsgdParams::default()
            .to_query()
            .to_query_string()
            .contains("sampler"));
    }
}
