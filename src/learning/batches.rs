//! How a trainer draws each step's batch: the samplers the DP-SGD lab accounts for
//! ([`Sampler`]), each reproducible from the run's seed and the step (so a resumed run is the same
//! run, and the same numbers come out on any number of workers).

use super::dpsgd::{poisson_batch, stream};
use crate::accounting::samplers::Sampler;
use rand::seq::{index, SliceRandom};
use rand::Rng;

/// Streams at and above this one hold the epochs' orders (well above the steps' streams).
const EPOCH_STREAM: u64 = 1 << 62;

/// A sampler with the current epoch's order cached.
#[derive(Debug, Clone)]
pub struct Batches {
    sampler: Sampler,
    /// The epoch whose order `order` holds.
    epoch: Option<u64>,
    /// The epoch's order (a permutation).
    order: Vec<usize>,
    /// For balls in bins, each record's step in the epoch (u64: b can exceed usize on wasm32).
    slots: Vec<u64>,
    /// Truncated Poisson's batch cap B.
    cap: usize,
    /// A fixed-size batch's rows, when set apart from ⌊qn⌋.
    size: Option<usize>,
}

impl Batches {
    /// Batches drawn by `sampler`.
    pub fn new(sampler: Sampler) -> Batches {
        Batches {
            sampler,
            epoch: None,
            order: Vec::new(),
            slots: Vec::new(),
            cap: usize::MAX,
            size: None,
        }
    }

    /// The same sampler drawing fixed-size batches of `m` rows (at least 1, at most n) whatever the
    /// number of records: the audit's runs with the canary have one more record than those without,
    /// and the same public batch size.
    pub fn sized(mut self, m: usize) -> Batches {
        self.size = Some(m);
        self
    }

    /// The same sampler with truncated Poisson's batch cap B (read by that sampler only, at least 1).
    pub fn capped(mut self, cap: u64) -> Batches {
        self.cap = usize::try_from(cap).unwrap_or(usize::MAX).max(1);
        self
    }

    /// The sampler.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// Step t's batch (t from 1) of the rows 0..n at rate q, into `out`; `rng` is the step's own
    /// stream (Poisson and fixed size draw from it), `seed` the run's (the epochs' orders).
    ///
    /// - Poisson: each row independently with probability q.
    /// - Fixed size: ⌊qn⌋ rows (or [`Batches::sized`]'s m), at least 1, without replacement.
    /// - Shuffled, shuffled once, cyclic: b = round(1/q) batches per epoch, the epoch's order cut into
    ///   b nearly equal runs (row k of the order goes to batch ⌊kb/n⌋); the order is a fresh
    ///   permutation each epoch, one permutation for all epochs, or 0..n.
    /// - Balls in bins: each row in one uniformly random step of each epoch.
    /// - Truncated Poisson: Poisson, then a batch above the cap B cut to B of its rows, chosen
    ///   uniformly (from the same stream, after the Poisson draw).
    pub fn draw<R: Rng + ?Sized>(
        &mut self,
        t: u64,
        n: usize,
        q: f64,
        seed: u64,
        rng: &mut R,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        let b = (1.0 / q).round().max(1.0) as u64;
        let (epoch, position) = ((t - 1) / b, (t - 1) % b);
        match self.sampler {
            Sampler::Poisson => poisson_batch(n, q, rng, out),
            Sampler::Truncated => {
                poisson_batch(n, q, rng, out);
                if out.len() > self.cap {
                    let drawn = std::mem::take(out);
                    out.extend(
                        index::sample(rng, drawn.len(), self.cap)
                            .into_iter()
                            .map(|k| drawn[k]),
                    );
                    out.sort_unstable();
                }
            }
            Sampler::Fixed => {
                // ⌊qn⌋ rows, so that the rate γ = m/n the accountant reads (q) is never below the
                // batch's (the caller accounts for 1/n when qn < 1).
                let m = self
                    .size
                    .unwrap_or((q * n as f64).floor() as usize)
                    .clamp(1, n.max(1));
                out.extend(index::sample(rng, n, m.min(n)));
                out.sort_unstable();
            }
            Sampler::Shuffle | Sampler::ShuffleOnce | Sampler::Cyclic => {
                let key = match self.sampler {
                    Sampler::Shuffle => epoch,
                    _ => 0,
                };
                if self.epoch != Some(key) {
                    self.order = (0..n).collect();
                    if self.sampler != Sampler::Cyclic {
                        self.order.shuffle(&mut stream(seed, EPOCH_STREAM + key));
                    }
                    self.epoch = Some(key);
                }
                // In u64: b·n can exceed usize on wasm32.
                let cut = |k: u64| (k * n as u64 / b) as usize;
                out.extend_from_slice(&self.order[cut(position)..cut(position + 1)]);
            }
            Sampler::Balls => {
                if self.epoch != Some(epoch) {
                    let mut r = stream(seed, EPOCH_STREAM + epoch);
                    self.slots = (0..n).map(|_| r.random_range(0..b)).collect();
                    self.epoch = Some(epoch);
                }
                out.extend((0..n).filter(|&i| self.slots[i] == position));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_epoch_based_sampler_visits_each_row_once_per_epoch() {
        let (n, q) = (103, 0.1);
        for sampler in [
            Sampler::Shuffle,
            Sampler::ShuffleOnce,
            Sampler::Cyclic,
            Sampler::Balls,
        ] {
            let mut batches = Batches::new(sampler);
            let mut orders = Vec::new();
            for epoch in 0..3u64 {
                let mut seen = vec![0; n];
                let mut order = Vec::new();
                for t in epoch * 10 + 1..=epoch * 10 + 10 {
                    let mut out = Vec::new();
                    batches.draw(t, n, q, 7, &mut stream(7, t), &mut out);
                    if sampler != Sampler::Balls {
                        assert!(
                            out.len() == 10 || out.len() == 11,
                            "{sampler}: {}",
                            out.len()
                        );
                    }
                    for &i in &out {
                        seen[i] += 1;
                    }
                    order.extend(out);
                }
                assert!(seen.iter().all(|&c| c == 1), "{sampler} epoch {epoch}");
                orders.push(order);
            }
            let same = orders[0] == orders[1] && orders[1] == orders[2];
            assert_eq!(
                same,
                matches!(sampler, Sampler::ShuffleOnce | Sampler::Cyclic),
                "{sampler}"
            );
            if sampler == Sampler::Cyclic {
                assert_eq!(orders[0], (0..n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn truncated_batches_are_poisson_cut_to_the_cap() {
        // Uncapped, the same rows as Poisson from the same stream; capped at 8 of 200 at q = 0.05
        // (mean 10), no batch exceeds 8 and each is a subset of Poisson's.
        let (mut poisson, mut loose) = (
            Batches::new(Sampler::Poisson),
            Batches::new(Sampler::Truncated).capped(1000),
        );
        let mut capped = Batches::new(Sampler::Truncated).capped(8);
        let mut cut = 0;
        for t in 1..200 {
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            poisson.draw(t, 200, 0.05, 3, &mut stream(3, t), &mut a);
            loose.draw(t, 200, 0.05, 3, &mut stream(3, t), &mut b);
            capped.draw(t, 200, 0.05, 3, &mut stream(3, t), &mut c);
            assert_eq!(a, b);
            assert!(c.len() <= 8 && c.len() == a.len().min(8));
            assert!(c.windows(2).all(|w| w[0] < w[1]) && c.iter().all(|i| a.contains(i)));
            cut += usize::from(a.len() > 8);
        }
        assert!(cut > 20, "{cut}");
    }

    #[test]
    fn fixed_size_batches_have_their_size_and_no_repeats() {
        let mut batches = Batches::new(Sampler::Fixed);
        for t in 1..20 {
            let mut out = Vec::new();
            batches.draw(t, 200, 0.05, 3, &mut stream(3, t), &mut out);
            assert_eq!(out.len(), 10);
            assert!(out.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
