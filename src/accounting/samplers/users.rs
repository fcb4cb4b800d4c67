//! User-level privacy under Poisson subsampling: k records per user, each clipped and sampled
//! independently at rate q, and a user added or removed with all k.
//!
//! With the k gradients aligned (the worst case), one step's pair is the mixture of Gaussians
//! P = Σ_{i=0..k} Bin(i; k, q)·N(i, σ²) against Q = N(0, σ²) (remove; add is the reverse):
//! dp_accounting's `MixtureOfGaussiansDpEvent`. With k = 1 it is the record-level accountant's pair.
//! Beside it, two baselines: the group-privacy lemma on the record-level guarantee, and a user's
//! records always sampled together (one record of sensitivity k at rate q).

use crate::accounting::pld::dpsgd::{composed_from, worst_of};
use crate::accounting::pld::replace_one::replaced_composed;
use crate::accounting::pld::subsampled::check_rate_and_noise;
use crate::accounting::pld::{dpsgd_plds, Direction, EpsilonBand, Pld, Side};
use crate::error::{Error, Result};
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::{normal_cdf, normal_upper_quantile};

/// Most records per user.
pub const MAX_USERS: u32 = 1000;

/// One step's user-level pair.
#[derive(Debug, Clone, PartialEq)]
pub struct UserMixture {
    /// ln Bin(i; k, q), i = 0..=k.
    ln_weights: Vec<f64>,
    sigma: f64,
}

impl UserMixture {
    /// # Errors
    /// k outside 1..=[`MAX_USERS`], q outside (0, 1], σ not finite and positive.
    pub fn new(k: u32, q: f64, sigma: f64) -> Result<UserMixture> {
        if !(1..=MAX_USERS).contains(&k) {
            return Err(Error::invalid(
                "users",
                k,
                "must be a whole number from 1 to 1000",
            ));
        }
        check_rate_and_noise(q, sigma)?;
        let (ln_q, ln_r) = (q.ln(), (-q).ln_1p());
        let mut ln_choose = 0.0;
        let ln_weights = (0..=k)
            .map(|i| {
                if i > 0 {
                    ln_choose += f64::from(k - i + 1).ln() - f64::from(i).ln();
                }
                let fi = f64::from(i);
                // 0·ln 0 = 0 at q = 1.
                let rest = if i == k { 0.0 } else { f64::from(k - i) * ln_r };
                ln_choose + fi * ln_q + rest
            })
            .collect();
        Ok(UserMixture { ln_weights, sigma })
    }

    /// The loss ln(p(x)/q(x)) = ln Σ_i w_i e^{(2ix − i²)/(2σ²)} and its derivative in x: convex and
    /// increasing (a log-sum-exp of lines of slope i/σ² ≥ 0).
    fn loss(&self, x: f64) -> (f64, f64) {
        let s2 = self.sigma * self.sigma;
        let terms: Vec<f64> = self
            .ln_weights
            .iter()
            .enumerate()
            .map(|(i, lw)| {
                let i = i as f64;
                lw + (2.0 * i * x - i * i) / (2.0 * s2)
            })
            .collect();
        let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (mut sum, mut slope) = (0.0, 0.0);
        for (i, t) in terms.iter().enumerate() {
            let e = (t - top).exp();
            sum += e;
            slope += e * i as f64;
        }
        (top + sum.ln(), slope / sum / s2)
    }

    /// The least loss, ln w₀ = k ln(1 − q) (−∞ at q = 1).
    fn least_loss(&self) -> f64 {
        self.ln_weights[0]
    }

    /// The x with loss(x) = t, for t above the least loss: Newton from the right, which on a convex
    /// increasing function never overshoots the root (each step lands at or right of it), so the
    /// iterates fall monotonically to x*; stops when a step no longer moves x.
    fn threshold(&self, t: f64) -> f64 {
        // loss(x) ≥ ln w_j + (2jx − j²)/(2σ²) for the heaviest j ≥ 1, so x* ≤ σ²(t − ln w_j)/j + j/2.
        let s2 = self.sigma * self.sigma;
        let (j, lw) = self.ln_weights.iter().enumerate().skip(1).fold(
            (1, f64::NEG_INFINITY),
            |b, (i, &w)| {
                if w > b.1 {
                    (i, w)
                } else {
                    b
                }
            },
        );
        let j = j as f64;
        let mut x = s2 * (t - lw) / j + j / 2.0;
        for _ in 0..500 {
            let (value, slope) = self.loss(x);
            let step = (value - t) / slope;
            if !(step.is_finite() && step > 1e-13 * (1.0 + x.abs())) {
                break;
            }
            x -= step;
        }
        x
    }

    /// Exact δ(ε) of one step in `direction`, for every real ε.
    ///
    /// # Formula
    /// Remove: δ = Σ_i w_i Φ̄((x* − i)/σ) − e^ε Φ̄(x*/σ) with loss(x*) = ε, and 1 − e^ε for ε at or
    /// below the least loss. Add: δ = Φ(x*/σ) − e^ε Σ_i w_i Φ((x* − i)/σ) with loss(x*) = −ε, and 0
    /// where −ε is at or below the least loss. The likelihood ratio is monotone in x, so the best
    /// test is a threshold (Neyman–Pearson). Not rounded either way; the PLD's grid brackets it.
    pub fn delta(&self, eps: f64, direction: Direction) -> f64 {
        let sigma = self.sigma;
        let mixture_above = |x: f64| -> f64 {
            self.ln_weights
                .iter()
                .enumerate()
                .map(|(i, lw)| (lw.exp()) * normal_cdf((i as f64 - x) / sigma))
                .sum()
        };
        let delta = match direction {
            Direction::Remove => {
                if eps <= self.least_loss() {
                    return (-eps.exp_m1()).clamp(0.0, 1.0);
                }
                let x = self.threshold(eps);
                mixture_above(x) - (eps + normal_cdf(-x / sigma).ln()).exp()
            }
            Direction::Add => {
                if -eps <= self.least_loss() {
                    return 0.0;
                }
                let x = self.threshold(-eps);
                // P(X < x) = 1 − P(X > x), summed directly from the lower tails for accuracy.
                let below: f64 = self
                    .ln_weights
                    .iter()
                    .enumerate()
                    .map(|(i, lw)| lw.exp() * normal_cdf((x - i as f64) / sigma))
                    .sum();
                normal_cdf(x / sigma) - (eps + below.ln()).exp()
            }
        };
        if delta.is_nan() {
            return 0.0;
        }
        delta.clamp((-eps.exp_m1()).max(0.0), 1.0)
    }

    /// The PLD of one step in `direction` from `side`, truncating at most `tail` at either end.
    ///
    /// # Errors
    /// A grid too large.
    pub fn pld(&self, direction: Direction, interval: f64, tail: f64, side: Side) -> Result<Pld> {
        let delta = |e: f64| self.delta(e, direction);
        let mut hi = 1.0;
        while delta(hi) > tail && hi < 1e6 {
            hi *= 2.0;
        }
        // The loss below lo has at most `tail` of the mass: P(X < −zσ) ≤ Φ(−z) for remove (every
        // component sits at or right of 0), Q(X > zσ) = Φ̄(z) for add.
        let z = normal_upper_quantile(tail);
        let lo = match direction {
            Direction::Remove => self.loss(-z * self.sigma).0,
            Direction::Add => -self.loss(z * self.sigma).0,
        };
        Pld::from_profile(delta, lo.min(hi - interval), hi, interval, side, 0.0)
    }
}

/// User-level ε at δ after T steps: the mixture's band, the group lemma's ε, and the records sampled
/// together.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UserEpsilon {
    /// Records per user.
    pub k: u32,
    /// The mixture-of-Gaussians PLD, both sides (upper: the larger direction, or under replace-one
    /// removing then adding; lower: that direction's, a pair that happens).
    pub mixture: EpsilonBand,
    /// The group-privacy lemma on the record-level PLD: the least g·ε₁ with g·e^{(g−1)ε₁}·δ₁(ε₁) ≤ δ
    /// for a group of g = k records (2k under replace-one) (Dwork & Roth 2014, Theorem 2.2 extended to
    /// (ε, δ); certified, ∞ when none is found).
    pub group: f64,
    /// A user's records always sampled together: the Poisson pair with sensitivity k (σ/k), under
    /// replace-one the record-level replace-one band at σ/k.
    pub together: EpsilonBand,
}

/// The group lemma's ε at δ for groups of k, on the record-level upper PLDs (both directions).
fn group_epsilon(record: &[Pld], k: u32, delta: f64) -> f64 {
    let kf = f64::from(k);
    let d1 = |e: f64| {
        record
            .iter()
            .map(|p| p.delta_for_epsilon(e))
            .fold(0.0, f64::max)
    };
    // Whether ε₁ certifies the group: k·e^{(k−1)ε₁}·δ₁(ε₁) ≤ δ, in logs.
    let meets = |e: f64| kf.ln() + (kf - 1.0) * e + d1(e).ln() <= delta.ln();
    // The first ε₁ that meets it, scanning up by 1% from the record-level ε at δ/k (below it δ₁ alone
    // is too large), then bisecting the last step.
    let start = record
        .iter()
        .map(|p| p.epsilon_for_delta(delta / kf))
        .fold(0.0, f64::max);
    if !start.is_finite() {
        return f64::INFINITY;
    }
    let mut lo = start.max(1e-6);
    let mut hi = lo;
    while !meets(hi) {
        lo = hi;
        hi *= 1.01;
        if hi * kf > 1e3 {
            return f64::INFINITY;
        }
    }
    if hi > lo {
        // hi: the end that met the target, so the ε returned is certified.
        hi = bisect(lo, hi, Split::Middle, Until::Steps(30), meets).hi;
    }
    kf * hi
}

/// The mixture's T-step PLD in a direction, from one side ([`composed_from`]).
fn composed_mixture(
    mixture: &UserMixture,
    steps: u64,
    delta: f64,
    direction: Direction,
    width: f64,
    side: Side,
) -> Result<Pld> {
    composed_from(steps, delta, width, side, |step_tail| {
        move |w, s| mixture.pld(direction, w, step_tail, s)
    })
}

/// Both directions' upper PLDs after T steps (remove, add), and of the two the larger ε at δ, its
/// direction and the grid it used ([`worst_of`]).
fn mixture_uppers(
    mixture: &UserMixture,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<(Vec<Pld>, (f64, Direction, f64))> {
    let uppers = [Direction::Remove, Direction::Add]
        .into_iter()
        .map(|direction| composed_mixture(mixture, steps, delta, direction, interval, Side::Upper))
        .collect::<Result<Vec<_>>>()?;
    let worst = worst_of(&uppers, delta);
    Ok((uppers, worst))
}

/// User-level ε for k records per user at rate q, noise σ (add/remove users), T steps, δ.
///
/// # Errors
/// k, q, σ, δ or T out of domain, or a grid too large.
pub fn user_epsilon(
    k: u32,
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<UserEpsilon> {
    user_epsilon_under(k, q, sigma, steps, delta, interval, false)
}

/// User-level ε under replace-one (a user's k records replaced by another user's k), σ the link's:
///
/// - the mixture's certified ε: the smaller of removing the user, then adding the other
///   ([`crate::accounting::pld::remove_then_add`] on the mixture's two directions), and the
///   counterpart of record-level replace-one's one-step route (`spread_route`: any of the user's
///   records drawn), which is looser but stays finite at large ε;
/// - its lower bound: a replacement by k zero gradients, which is the add/remove mixture pair itself
///   (a pair that happens);
/// - the group lemma over 2k record-level add/remove steps;
/// - records sampled together: one record of sensitivity k replaced, the record-level replace-one
///   band at σ/k ([`crate::accounting::pld::dpsgd_replace_one_band`]).
///
/// # Errors
/// k, q, σ, δ or T out of domain, or a grid too large.
pub fn user_epsilon_replace_one(
    k: u32,
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
) -> Result<UserEpsilon> {
    user_epsilon_under(k, q, sigma, steps, delta, interval, true)
}

/// A user's replacement bounded one step at a time at the rate any of its records is drawn,
/// 1 − (1 − q)^k (rounded up): drawn, the user is k clipped gradients from not drawn and 2k from its
/// replacement, so record-level replace-one's one-step pair at that rate and σ/k, composed
/// ([`crate::accounting::pld::replace_one::replaced_step_delta`], whose comment has the proof). Looser
/// than removing then adding where both exist (k = 4, q = 0.01, σ = 1, T = 1000: 520 against 18.0),
/// but finite where that needs δ below the PLD's floor (large ε). ∞ where its grid does not fit.
fn spread_route(k: u32, q: f64, sigma: f64, steps: u64, delta: f64, interval: f64) -> f64 {
    let rate = (-(f64::from(k) * (-q).ln_1p()).exp_m1() * (1.0 + 4.0 * f64::EPSILON)).min(1.0);
    replaced_composed(rate, sigma / f64::from(k), steps, delta, interval)
        .map_or(f64::INFINITY, |(_, all)| all.epsilon_for_delta(delta))
}

/// [`user_epsilon`] or, with `replace_one`, [`user_epsilon_replace_one`].
fn user_epsilon_under(
    k: u32,
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    interval: f64,
    replace_one: bool,
) -> Result<UserEpsilon> {
    use crate::accounting::pld::{dpsgd_epsilon_band, dpsgd_replace_one_band, remove_then_add};
    let mixture = UserMixture::new(k, q, sigma)?;
    let (uppers, (worst, direction, used)) = mixture_uppers(&mixture, steps, delta, interval)?;
    let upper = match replace_one {
        true => match remove_then_add(&uppers[0], &uppers[1], delta) {
            // The spread route costs as much again as the mixture (σ/k is a wide grid) and is far
            // looser wherever removing then adding gives a bound: it is only built where that gives none.
            through if through.is_finite() => through,
            _ => spread_route(k, q, sigma, steps, delta, interval),
        },
        false => worst,
    };
    let lower = composed_mixture(&mixture, steps, delta, direction, used, Side::Lower)?
        .epsilon_for_delta(delta)
        .min(upper);
    let (record, _) = dpsgd_plds(q, sigma, steps, delta, interval)?;
    let (group_size, together) = match replace_one {
        true => (
            2 * k,
            dpsgd_replace_one_band(q, sigma / f64::from(k), steps, delta, interval)?,
        ),
        false => (
            k,
            dpsgd_epsilon_band(q, sigma / f64::from(k), steps, delta, interval)?,
        ),
    };
    Ok(UserEpsilon {
        k,
        mixture: EpsilonBand {
            upper,
            lower,
            interval: used,
        },
        group: group_epsilon(&record, group_size, delta),
        together,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::subsampled_gaussian_delta;

    #[test]
    fn one_record_per_user_is_the_record_level_pair() {
        let m = UserMixture::new(1, 0.05, 0.9).unwrap();
        for direction in [Direction::Remove, Direction::Add] {
            for eps in [-2.0, -0.1, 0.0, 0.01, 0.3, 1.0, 3.0] {
                let (ours, exact) = (
                    m.delta(eps, direction),
                    subsampled_gaussian_delta(0.05, 0.9, eps, direction),
                );
                assert!(
                    (ours - exact).abs() <= 1e-12 + 1e-9 * exact,
                    "{direction:?} ε {eps}: {ours} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn replacing_a_user_is_bounded_between_a_zero_gradient_user_and_two_steps() {
        use crate::accounting::pld::dpsgd_replace_one_band;
        let (q, sigma, steps, delta, h) = (0.01, 1.0, 1000, 1e-5, 1e-4);
        // k = 1: the record-level replace-one band's removing-then-adding route and its zero-gradient
        // lower end (the spread route, the one-step route's counterpart, is only taken where removing then
        // adding gives no bound, so the upper end can only be higher).
        let one = user_epsilon_replace_one(1, q, sigma, steps, delta, h).unwrap();
        let record = dpsgd_replace_one_band(q, sigma, steps, delta, h).unwrap();
        assert!(
            one.mixture.upper >= record.upper - 1e-9 && one.mixture.lower <= record.lower + 1e-9,
            "{one:?} {record:?}"
        );
        // k = 4: every number at least add/remove's, the band ordered.
        let (replace, add_remove) = (
            user_epsilon_replace_one(4, q, sigma, steps, delta, h).unwrap(),
            user_epsilon(4, q, sigma, steps, delta, h).unwrap(),
        );
        assert!(
            replace.mixture.lower <= replace.mixture.upper && replace.mixture.upper.is_finite(),
            "{replace:?}"
        );
        assert!(
            (replace.mixture.lower - add_remove.mixture.lower).abs() < 1e-12
                && replace.mixture.upper > add_remove.mixture.upper
                && replace.group >= add_remove.group
                && replace.together.upper > add_remove.together.upper,
            "{replace:?} {add_remove:?}"
        );
        // The group lemma over 2k records: finite here, and above k records' (∞ at k = 4 above).
        let group = |f: fn(u32, f64, f64, u64, f64, f64) -> Result<UserEpsilon>| {
            f(2, q, 2.0, steps, delta, h).unwrap().group
        };
        let (g2, g1) = (group(user_epsilon_replace_one), group(user_epsilon));
        assert!(g2.is_finite() && g2 > g1, "{g2} {g1}");
        // q = 1: k = 3 records replaced is the Gaussian of sensitivity 2k = 6, exactly (Balle & Wang
        // 2018), which lies in the band.
        let full = user_epsilon_replace_one(3, 1.0, 8.0, 1, 1e-5, h).unwrap();
        let exact = crate::mechanisms::gaussian::Gaussian::new(8.0, 6.0).unwrap();
        let band = full.mixture;
        assert!(
            exact.delta(band.upper) <= 1e-5 && exact.delta(band.lower) >= 1e-5,
            "{full:?}: δ {} and {}",
            exact.delta(band.upper),
            exact.delta(band.lower)
        );
    }

    #[test]
    fn all_records_always_sampled_is_the_gaussian_of_sensitivity_k() {
        // q = 1: P = N(k, σ²), the Gaussian mechanism with Δ = k (Balle & Wang 2018).
        let m = UserMixture::new(3, 1.0, 2.0).unwrap();
        let g = crate::mechanisms::gaussian::Gaussian::new(2.0, 3.0).unwrap();
        for eps in [0.0, 0.5, 2.0, 5.0] {
            for direction in [Direction::Remove, Direction::Add] {
                let (ours, exact) = (m.delta(eps, direction), g.delta(eps));
                assert!(
                    (ours / exact - 1.0).abs() < 1e-9,
                    "{direction:?} ε {eps}: {ours} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn the_spread_route_bounds_a_user_where_removing_then_adding_cannot() {
        use crate::accounting::pld::{dpsgd_plds_replace_one, remove_then_add};
        let (q, sigma, steps, delta, h) = (0.01, 1.0, 1000, 1e-5, 1e-4);
        // k = 1 it is record-level replace-one's one-step route itself.
        let route = dpsgd_plds_replace_one(q, sigma, steps, delta, h)
            .unwrap()
            .one_step[0]
            .epsilon_for_delta(delta);
        let one = spread_route(1, q, sigma, steps, delta, h);
        assert!((one - route).abs() <= 1e-9 * route, "{one} vs {route}");
        // k = 4: looser than removing then adding, above the mixture's lower end.
        let four = spread_route(4, q, sigma, steps, delta, h);
        let user = user_epsilon_replace_one(4, q, sigma, steps, delta, h).unwrap();
        assert!(
            four > user.mixture.upper && four > user.mixture.lower,
            "{four} {user:?}"
        );
        // k = 10: removing then adding needs δ below the PLD's floor (∞); the route gives a bound,
        // above the pair that happens.
        let mixture = UserMixture::new(10, q, sigma).unwrap();
        let (uppers, _) = mixture_uppers(&mixture, steps, delta, h).unwrap();
        assert_eq!(
            remove_then_add(&uppers[0], &uppers[1], delta),
            f64::INFINITY
        );
        let ten = user_epsilon_replace_one(10, q, sigma, steps, delta, h).unwrap();
        assert!(
            ten.mixture.upper.is_finite() && ten.mixture.upper >= ten.mixture.lower,
            "{ten:?}"
        );
    }
}
