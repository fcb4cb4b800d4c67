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

/// The per-step error under unit-variance noise with Honaker's estimator (Honaker 2015, "Efficient
/// use of differentially private binary trees", its bottom-up pass; Kairouz et al. 2021's DP-FTRL
/// "tree aggregation with the efficient estimator"): each complete block's sum is estimated from its
/// own noisy node and its two halves' estimates by inverse-variance weighting, so a block of 2^h
/// steps has variance v_h = 1/(1 + 1/(2v_{h−1})), v₀ = 1: v_h = 2^h/(2^(h+1) − 1) (by induction), a
/// half at the top against the plain tree's 1. The prefix sum of steps 1..=t adds t's blocks (its
/// binary digits), disjoint subtrees and so independent: e(t) = Σ over t's set bits h of v_h. This is
/// the best linear unbiased estimate from the nodes released by step t (a test solves the normal
/// equations), the same C, so the same sensitivity.
pub fn honaker_per_step_error(n: usize) -> Vec<f64> {
    (1..=n)
        .map(|t: usize| {
            (0..usize::BITS)
                .filter(|h| t >> h & 1 == 1)
                .map(|h| {
                    let p = 2f64.powi(h as i32);
                    p / (2.0 * p - 1.0)
                })
                .sum()
        })
        .collect()
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

/// The tree's nodes over `m` steps, level by level (the complete blocks \[j·2^h, (j+1)·2^h\) within m).
fn nodes(m: usize) -> Vec<(usize, usize)> {
    (0..levels(m))
        .flat_map(|h| {
            let w = 1usize << h;
            (0..m / w).map(move |j| (j * w, w))
        })
        .collect()
}

/// C over `m` steps, row-major (nodes × steps): each node sums its block. Returns (C, nodes).
pub fn matrix(m: usize) -> (Vec<f64>, usize) {
    let nodes = nodes(m);
    let mut c = vec![0.0; nodes.len() * m];
    for (r, &(start, w)) in nodes.iter().enumerate() {
        c[r * m + start..r * m + start + w].fill(1.0);
    }
    (c, nodes.len())
}

/// The plain decoder over `m` steps, row-major (steps × nodes): the prefix of t steps adds the
/// blocks of t's binary digits, largest first.
pub fn decoder(m: usize) -> Vec<f64> {
    let nodes = nodes(m);
    let mut b = vec![0.0; m * nodes.len()];
    for t in 1..=m {
        let mut start = 0;
        for h in (0..usize::BITS as usize).rev().filter(|h| t >> h & 1 == 1) {
            let w = 1usize << h;
            if let Some(r) = nodes.iter().position(|&n| n == (start, w)) {
                b[(t - 1) * nodes.len() + r] = 1.0;
            }
            start += w;
        }
    }
    b
}
