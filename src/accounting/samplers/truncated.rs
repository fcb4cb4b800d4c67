//! Truncated Poisson sampling (`sampler=truncated`, the batch cap B in `cap`): each record joins the
//! batch with probability q, and a batch larger than B is cut to a uniformly random B of its records,
//! so that the training step has a fixed largest shape (dp_accounting's
//! `TruncatedSubsampledGaussianDpEvent`, arXiv 2508.15089).
//!
//! # The pair, derived here
//! Fix the differing record x and let m be how many of the *other* records the Poisson draw takes
//! (m ~ Bin(N, q), N the others' count: n − 1 when x is removed from the n records, n when it is
//! added to them). m does not depend on x, so it splits the output into two parts with the same
//! weights under both data sets, and by joint convexity of the hockey-stick divergence the step is
//! dominated by the flagged pair (the part revealed), whose profile is the weighted sum
//! δ(ε) = (1 − t)·δ₁(ε) + t·δ₂(ε), t = P(m ≥ B) = P(Bin(N, q) ≥ B):
//! - m < B: nothing is cut, x is in the batch with probability q, and the sum moves by g(x): the
//!   Poisson pair ((1 − q)N(0, σ²) + qN(1, σ²), N(0, σ²)), δ₁.
//! - m ≥ B: the batch is cut. Without x it is a uniform B-subset F of the sample; with x drawn, x
//!   survives the cut with probability B/(m + 1) and then the batch is x and a uniform (B − 1)-subset
//!   R. Writing F = R ∪ {y} (y uniform in F) couples the two: the sum moves by g(x) − g(y), norm at
//!   most 2C. F (and R) are uniform whatever m is (C(N, m)·C(m, B) = C(N, B)·C(N − B, m − B)), so
//!   given m ≥ B, x is in the batch with the same probability q′ for every (R, y):
//!   q′ = E[q·B/(m + 1) | m ≥ B] = B/(N + 1) · P(Bin(N + 1, q) ≥ B + 1) / t. Joint convexity over
//!   (R, y) leaves ((1 − q′)N(0, σ²) + q′N(Δ, σ²), N(0, σ²)) with |Δ| ≤ 2: the Poisson pair at σ/2
//!   and rate q′, δ₂. The add direction is the reverse of each pair, with N = n.
//!
//! A data set of n records meets two kinds of neighbours: x among the n (N = n − 1 others, removed or
//! put back) and x added to them (N = n); each order (remove, add) is bounded at both counts, by the
//! pointwise larger profile (itself a valid profile, so a pair with it dominates both).
//!
//! dp_accounting (0.6.0) takes the replace-one pair at σ/2 for the cut part, whose components sit at
//! ±2 (4 apart, against our 2): looser, so its ε is at or above ours (checked in the tests against a
//! run of its own primitives with our pair, and against its event); it counts N = n − 1 only.
//! Under replace-one neighbours (x and its replacement share a slot, N = n − 1) a step's parts can
//! take either orientation, so each part is a symmetric pair that dominates both: the cut part the
//! Poisson pair at σ/2 mirrored ([`either_way_delta`]), the uncut part a Poisson step's one-step
//! replace-one bound ([`replaced_step_delta`]: the record not drawn is shared by both sides). The
//! band takes the smaller of their composition and removing x then adding its replacement, each leg
//! the add/remove pairs above (as for Poisson batches).
//!
//! The lower end is a pair that happens: every other gradient zero, x's +C (against nothing, or a
//! zero-gradient replacement). x is in the batch with probability q_eff = (1 − t)q + tq′, so the run
//! is the Poisson pair at rate q_eff and σ; its PLD's certified lower side bounds the exact ε below.

use crate::accounting::pld::dpsgd::{composed_from, tails, worst_of};
use crate::accounting::pld::replace_one::replaced_step_delta;
use crate::accounting::pld::subsampled::{
    check_rate_and_noise, either_way_delta, loss_floor, top_for_tail,
};
use crate::accounting::pld::{
    remove_then_add, subsampled_gaussian_delta, Direction, EpsilonBand, Pld, Side,
};
use crate::accounting::rdp::step_rdp;
use crate::error::{Error, Result};
use crate::numerics::binomial::{lower_tail, upper_tail};
use crate::numerics::special::ln_add_exp;

/// One step of truncated Poisson sampling: data set size n, rate q, batch cap B, noise σ as the link
/// gives it, and the relation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Truncated {
    n: u64,
    q: f64,
    cap: u64,
    sigma: f64,
    replace_one: bool,
    /// The splits at N = n − 1 and N = n others, computed once: their binomial tails cost O(√(nq))
    /// terms each, and a profile is read thousands of times.
    cuts: [Cut; 2],
}

/// How the others' draw splits one step when the record x has N others: the probability t that the
/// batch is cut whatever x does, and the probability q′ that x is in the batch when it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    /// t = P(Bin(N, q) ≥ B), rounded down.
    pub chance_lo: f64,
    /// The same, rounded up (δ is linear in t, so the larger of the two ends bounds it).
    pub chance_hi: f64,
    /// P(m ≥ B and x in the batch) = q·E[B/(m + 1); m ≥ B] = B/(N + 1) · P(Bin(N + 1, q) ≥ B + 1), as
    /// computed (the lower end's rate adds it to the uncut part's).
    pub kept: f64,
    /// q′ = B/(N + 1) · P(Bin(N + 1, q) ≥ B + 1) / t, rounded up (q where t is 0 or the ratio is lost;
    /// δ increases with the rate).
    pub rate: f64,
}

/// Relative headroom for the binomial tails' rounding (within 1e-11 of exact).
const HEADROOM: f64 = 1e-9;

/// The split of one step when x has `others` others, at rate `q` and cap `cap` (module comment).
fn split(q: f64, cap: u64, others: u64) -> Cut {
    let chance = upper_tail(others, q, cap as i64);
    let kept = upper_tail(others + 1, q, cap as i64 + 1) * cap as f64 / (others + 1) as f64;
    if chance <= 0.0 {
        return Cut {
            chance_lo: 0.0,
            chance_hi: 0.0,
            kept,
            rate: q,
        };
    }
    let rate = kept / chance * (1.0 + 2.0 * HEADROOM);
    Cut {
        chance_lo: chance * (1.0 - HEADROOM),
        chance_hi: (chance * (1.0 + HEADROOM)).min(1.0),
        kept,
        rate: if rate > 0.0 && rate.is_finite() {
            rate.min(q)
        } else {
            q
        },
    }
}

impl Truncated {
    /// Checks the setting.
    ///
    /// # Errors
    /// n or B of 0, q outside (0, 1], or σ not finite and positive.
    pub fn new(n: u64, q: f64, cap: u64, sigma: f64, replace_one: bool) -> Result<Truncated> {
        if n == 0 {
            return Err(Error::invalid("n", 0, "must be at least 1"));
        }
        if cap == 0 {
            return Err(Error::invalid("cap", 0, "must be at least 1 record"));
        }
        check_rate_and_noise(q, sigma)?;
        Ok(Truncated {
            n,
            q,
            cap,
            sigma,
            replace_one,
            cuts: [split(q, cap, n - 1), split(q, cap, n)],
        })
    }

    /// The split of one step when x has `others` others (see the module comment).
    pub fn cut(&self, others: u64) -> Cut {
        split(self.q, self.cap, others)
    }

    /// The splits of the others' counts N a neighbouring pair can have, in either order: x in the n
    /// records (N = n − 1, removed or put back) or added to them (N = n); under replace-one both data
    /// sets hold n, so N = n − 1 only.
    fn cuts(&self) -> &[Cut] {
        if self.replace_one {
            &self.cuts[..1]
        } else {
            &self.cuts
        }
    }

    /// The largest probability x is in the batch, q_eff = (1 − t)q + tq′, over the others' counts
    /// (rounded down: the lower end's rate; each count's pair happens).
    pub fn effective_rate(&self) -> f64 {
        let most = self
            .cuts()
            .iter()
            .zip([self.n - 1, self.n])
            .map(|(cut, others)| {
                lower_tail(others, self.q, self.cap as i64 - 1) * self.q + cut.kept
            })
            .fold(0.0, f64::max);
        (most * (1.0 - HEADROOM)).clamp(f64::MIN_POSITIVE, self.q)
    }

    /// σ of the uncut part's RDP curve (σ/2 under replace-one).
    fn uncut_sigma(&self) -> f64 {
        if self.replace_one {
            self.sigma / 2.0
        } else {
            self.sigma
        }
    }

    /// The cut part's profile: the Poisson pair at `rate` and `sigma` in `direction`; under replace-one
    /// the remove profile for ε ≥ 0 mirrored below 0 ([`either_way_delta`]), because a replaced
    /// record's step can take either orientation, and only a pair that dominates both at every ε
    /// composes.
    fn part(&self, rate: f64, sigma: f64, eps: f64, direction: Direction) -> f64 {
        if !self.replace_one {
            return subsampled_gaussian_delta(rate, sigma, eps, direction);
        }
        either_way_delta(rate, sigma, eps)
    }

    /// δ(ε) of the flagged pairs in `direction` (module comment), the largest over the others' counts
    /// and the ends of t, for every real ε: an upper bound on every step's profile, itself a valid
    /// profile (the maximum of convex profiles), so a pair with it dominates every step.
    pub fn delta(&self, eps: f64, direction: Direction) -> f64 {
        self.delta_with(self.cuts(), eps, direction)
    }

    fn delta_with(&self, cuts: &[Cut], eps: f64, direction: Direction) -> f64 {
        // Under replace-one the uncut part is a Poisson step with its replacement, whose one-step
        // bound is tighter than the σ/2 pair's (the record not drawn is shared by both sides).
        let uncut = if self.replace_one {
            replaced_step_delta(self.q, self.sigma, eps)
        } else {
            subsampled_gaussian_delta(self.q, self.sigma, eps, direction)
        };
        cuts.iter()
            .map(|cut| {
                if cut.chance_hi <= 0.0 {
                    return uncut;
                }
                let cut_part = self.part(cut.rate, self.sigma / 2.0, eps, direction);
                let mixed = |t: f64| (1.0 - t) * uncut + t * cut_part;
                mixed(cut.chance_lo).max(mixed(cut.chance_hi))
            })
            .fold(0.0, f64::max)
            .clamp(0.0, 1.0)
    }

    /// The flagged pairs' PLD in `direction` from `side`, truncating at most `tail` at either end.
    ///
    /// # Errors
    /// A grid too large.
    pub fn pld(&self, direction: Direction, interval: f64, tail: f64, side: Side) -> Result<Pld> {
        let cuts = self.cuts();
        let delta = |e: f64| self.delta_with(cuts, e, direction);
        let hi = top_for_tail(delta, tail);
        let lo = if self.replace_one {
            // A symmetric pair: its loss is as far below 0 as above.
            -hi
        } else {
            // Each part's loss is bounded below by its own floor (at most `tail` of its mass below).
            cuts.iter()
                .filter(|cut| cut.chance_hi > 0.0)
                .map(|cut| loss_floor(cut.rate, self.sigma / 2.0, direction, tail))
                .fold(loss_floor(self.q, self.sigma, direction, tail), f64::min)
        };
        Pld::from_profile(delta, lo.min(hi - interval), hi, interval, side, 0.0)
    }

    /// One step's RDP at order α > 1: ln((1 − t)·e^{(α−1)ε₁(α)} + t·e^{(α−1)ε₂(α)})/(α − 1), the
    /// largest over the others' counts and the ends of t, with ε₁ the Poisson curve at q and σ (σ/2
    /// under replace-one) and ε₂ the one at q′ and σ/2 ([`step_rdp`], dp_accounting's, which bounds
    /// both orientations: Mironov, Talwar & Zhang 2019). E_Q[(P/Q)^α] is jointly convex like the
    /// hockey-stick divergence, so the module comment's conditioning bounds it by the flagged
    /// pair's, whose moment is the weighted sum of its parts' (disjoint flags). A certified upper
    /// bound; ∞ where a part's series does not converge.
    pub fn step_rdp(&self, alpha: f64) -> f64 {
        let uncut = step_rdp(self.q, self.uncut_sigma(), alpha);
        let order = alpha - 1.0;
        self.cuts()
            .iter()
            .map(|cut| {
                if cut.chance_hi <= 0.0 {
                    return uncut;
                }
                let part = step_rdp(cut.rate, self.sigma / 2.0, alpha);
                if !(uncut.is_finite() && part.is_finite()) {
                    return f64::INFINITY;
                }
                let mixed = |t: f64| {
                    ln_add_exp((-t).ln_1p() + order * uncut, t.ln() + order * part) / order
                };
                mixed(cut.chance_lo).max(mixed(cut.chance_hi))
            })
            .fold(0.0, f64::max)
    }

    /// ε at δ after T steps: the certified upper bound and the certified lower bound (the Poisson pair
    /// at q_eff and σ in the direction that decides the upper bound). Add/remove: the larger
    /// direction's flagged pairs, composed. Replace-one: the smaller of two certified bounds, as for
    /// Poisson batches ([`crate::accounting::pld::replace_one`]): the symmetric σ/2 pairs composed, and
    /// removing the record then adding its replacement, each leg the add/remove pairs at σ
    /// ([`remove_then_add`]).
    ///
    /// # Errors
    /// δ or T out of the accountants' domain, or a grid too large.
    pub fn band(&self, steps: u64, delta: f64, interval: f64) -> Result<EpsilonBand> {
        tails(steps, delta)?;
        let composed = |step: Truncated, direction: Direction| {
            composed_from(steps, delta, interval, Side::Upper, |step_tail| {
                move |w, s| step.pld(direction, w, step_tail, s)
            })
        };
        let added_removed = Truncated {
            replace_one: false,
            ..*self
        };
        let uppers = [Direction::Remove, Direction::Add]
            .into_iter()
            .map(|direction| composed(added_removed, direction))
            .collect::<Result<Vec<_>>>()?;
        let (mut upper, direction, used) = worst_of(&uppers, delta);
        if self.replace_one {
            let symmetric = composed(*self, Direction::Remove)?.epsilon_for_delta(delta);
            upper = symmetric.min(remove_then_add(&uppers[0], &uppers[1], delta));
        }
        let rate = self.effective_rate();
        let lower = composed_from(steps, delta, used, Side::Lower, |step_tail| {
            move |w, s| Pld::subsampled_gaussian(rate, self.sigma, direction, w, step_tail, s)
        })?
        .epsilon_for_delta(delta)
        .min(upper);
        Ok(EpsilonBand {
            upper,
            lower,
            interval: used,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::dpsgd_epsilon_band;

    #[test]
    fn a_cap_no_batch_reaches_is_poisson() {
        // B above every possible batch: t = 0, the uncut pair alone, bit for bit Poisson's band.
        let t = Truncated::new(1000, 0.01, 1001, 1.0, false).unwrap();
        assert_eq!(t.cut(1000).chance_hi, 0.0);
        let ours = t.band(100, 1e-5, 1e-3).unwrap();
        let poisson = dpsgd_epsilon_band(0.01, 1.0, 100, 1e-5, 1e-3).unwrap();
        assert_eq!(ours.upper, poisson.upper);
    }

    #[test]
    fn the_cut_matches_its_sums() {
        // t and q′ by direct sums over m of the binomial pmf (N = 59,999, q = 256/60,000, B = 282).
        use crate::numerics::binomial::pmf;
        let (n, q, cap) = (60_000u64, 256.0 / 60_000.0, 282u64);
        let t = Truncated::new(n, q, cap, 1.0, false).unwrap();
        let others = n - 1;
        let cut = t.cut(others);
        let (mut chance, mut kept) = (0.0, 0.0);
        for m in cap..=others.min(2000) {
            let w = pmf(others, q, m as i64);
            chance += w;
            kept += w * q * cap as f64 / (m + 1) as f64;
        }
        assert!(
            (cut.chance_hi / chance - 1.0).abs() < 1e-8,
            "{cut:?} {chance}"
        );
        assert!(cut.chance_lo <= chance && cut.chance_hi >= chance);
        assert!((cut.rate / (kept / chance) - 1.0).abs() < 1e-8);
        assert!(cut.rate >= kept / chance && cut.rate < q);
        // q_eff = P(x in the batch) = q·E[min(1, B/(m + 1))], the larger over N = n − 1 and n.
        let eff = |others: u64| {
            (0..=others.min(2000))
                .map(|m| pmf(others, q, m as i64) * q * (cap as f64 / (m + 1) as f64).min(1.0))
                .sum::<f64>()
        };
        let most = eff(n - 1).max(eff(n));
        let ours = t.effective_rate();
        assert!(
            ours <= most && (ours / most - 1.0).abs() < 1e-8,
            "{ours} {most}"
        );
    }

    #[test]
    fn the_band_sits_above_poisson_at_the_kept_rate_and_below_at_half_sigma() {
        // Abadi et al.'s MNIST step with a cap 10% above the mean batch: the exact ε is at least the
        // Poisson pair's at q_eff (it happens) and at most the flagged pair's, which lies between
        // Poisson at σ and Poisson at σ/2 (both at rate q).
        let (n, q, sigma, steps) = (60_000, 256.0 / 60_000.0, 1.1, 2000);
        let t = Truncated::new(n, q, 282, sigma, false).unwrap();
        let band = t.band(steps, 1e-5, 1e-4).unwrap();
        let at_sigma = dpsgd_epsilon_band(q, sigma, steps, 1e-5, 1e-4).unwrap();
        let at_half = dpsgd_epsilon_band(q, sigma / 2.0, steps, 1e-5, 1e-4).unwrap();
        assert!(band.lower <= band.upper);
        assert!(band.upper >= at_sigma.lower, "{band:?} {at_sigma:?}");
        assert!(band.upper < at_half.upper, "{band:?} {at_half:?}");
        assert!(band.lower <= at_sigma.upper);
    }

    #[test]
    fn the_rdp_curve_is_poissons_without_a_cut_and_bounds_the_pld_from_above() {
        use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
        let loose = Truncated::new(1000, 0.01, 1001, 1.0, false).unwrap();
        for alpha in [1.5, 2.0, 8.0, 64.0] {
            assert_eq!(loose.step_rdp(alpha), step_rdp(0.01, 1.0, alpha));
        }
        // Abadi et al.'s step with B = 282: the RDP conversion of the same flagged pair lies above
        // its PLD's certified upper end (5.2518), as a looser bound of the same pair must.
        let (q, steps) = (256.0 / 60_000.0, 14_063u64);
        let t = Truncated::new(60_000, q, 282, 1.1, false).unwrap();
        let orders = default_orders();
        let total: Vec<f64> = orders
            .iter()
            .map(|&a| steps as f64 * t.step_rdp(a))
            .collect();
        let (eps, _) = rdp_to_approx_dp(&orders, &total, 1e-5, Conversion::Improved).unwrap();
        let pld = t.band(steps, 1e-5, 1e-4).unwrap().upper;
        assert!(eps > pld && eps < 1.5 * pld, "RDP {eps} PLD {pld}");
    }

    #[test]
    fn ugly_settings_are_refused_or_bounded() {
        assert!(Truncated::new(0, 0.1, 5, 1.0, false).is_err());
        assert!(Truncated::new(10, 0.1, 0, 1.0, false).is_err());
        assert!(Truncated::new(10, f64::NAN, 5, 1.0, false).is_err());
        assert!(Truncated::new(10, 0.1, 5, 0.0, false).is_err());
        assert!(Truncated::new(10, 0.1, 5, f64::INFINITY, false).is_err());
        // One record, a cap of one, q = 1: never cut when removing, always when adding.
        let t = Truncated::new(1, 1.0, 1, 1.0, false).unwrap();
        assert_eq!(t.cut(0).chance_hi, 0.0);
        let add = t.cut(1);
        assert!(
            add.chance_hi >= 1.0 - 1e-12 && (add.rate - 0.5).abs() < 1e-8,
            "{add:?}"
        );
        let band = t.band(10, 1e-5, 1e-3).unwrap();
        assert!(band.upper.is_finite() && band.lower <= band.upper);
        // Tiny rates and huge data sets.
        let t = Truncated::new(u64::MAX / 4, 1e-12, 3, 1.0, false).unwrap();
        assert!(t.cut(u64::MAX / 4).rate <= 1e-12);
    }
}
