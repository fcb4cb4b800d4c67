//! Binary-tree aggregation (Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi & Song 2011): noise on
//! every dyadic block of the stream, each prefix sum decoded from its dyadic blocks. Not a Toeplitz
//! strategy and not in jax_privacy; `tests/refs/mf_jax_privacy.json` holds numpy's dense evaluation
//! of the same tree (its `binary_tree_plain`), which these closed forms reproduce.

/// Levels of the tree over `n` steps: ⌈log₂ n⌉ + 1, the blocks each step belongs to.
pub fn levels(n: usize) -> usize {
    n.max(1).next_power_of_two().trailing_zeros() as usize + 1
}

/// The per-step error under unit-variance noise: the prefix sum of steps 1..=t is the sum of
/// popcount(t) blocks (t's binary digits), each with its own noise.
pub fn per_step_error(n: usize) -> Vec<f64> {
    (1..=n).map(|t| f64::from(t.count_ones())).collect()
}

/// The sensitivity with at most `k` participations (`None`: as many as fit) at least `b` steps
/// apart, over `n` steps: √(Σ over levels of Σ over blocks of (participations in the block)²).
/// A block of 2^l steps holds at most m = min(k, ⌈2^l/b⌉) of them, and the sum of squares over a
/// level is largest when the k fill whole blocks: ⌊k/m⌋·m² + (k mod m)². Summed over the levels, an
/// upper bound, reached when b is a power of two (participations 0, b, 2b, … fill aligned blocks);
/// one participation gives √levels exactly.
pub fn sensitivity(n: usize, k: Option<usize>, b: usize) -> f64 {
    let b = b.max(1);
    let k = k.map_or(n.div_ceil(b), |k| k.min(n.div_ceil(b))).max(1);
    let squares: usize = (0..levels(n))
        .map(|l| {
            let m = k.min((1usize << l).div_ceil(b)).max(1);
            (k / m) * m * m + (k % m).pow(2)
        })
        .sum();
    (squares as f64).sqrt()
}
