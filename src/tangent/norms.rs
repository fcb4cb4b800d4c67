//! The tangent maps of A: p ↦ q and of log∘A, their operator norms, and the bounds 2βR of the paper's
//! Theorems 3.1–3.4 (Ying 2025, §3). Matrices are never stored whole: each column (a candidate point)
//! is computed, folded into the norms and dropped, so a 200 × 200 grid with 10⁴ points fits in memory.
//!
//! Kernels (§3, finite X and W): DA_p = −β(diag(q) − qqᵀ)r, entry −β q(w)(r(w,x) − r̄(x)); and
//! D(log∘A)_p = −β(I − 1qᵀ)r, entry −β(r(w,x) − r̄(x)), with r̄(x) = Σ_w q(w) r(w,x).

use super::gibbs::Instance;
use super::kernel::Kernel;

/// A certified range for a norm with no closed form (lower = upper when computed exactly).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// Attained by an explicit perturbation.
    pub lower: f64,
    /// Proved by an inequality.
    pub upper: f64,
}

/// Norms of the tangent maps and the R of each bound, for one instance.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Norms {
    /// ‖DA‖ over all signed ε with the L¹ norm (what Thm 3.1's proof bounds): β·max_x Σ_w q|r − r̄|.
    pub tv_all: f64,
    /// ‖DA‖ over mass-preserving ε (the tangent space): max_{i≠j} ‖DA(e_i − e_j)‖₁/2.
    pub tv_pairs: Interval,
    /// ‖D(log∘A)‖ L¹ → L^∞ over all signed ε: β·max_{w,x} |r − r̄|.
    pub log_all: f64,
    /// ‖D(log∘A)‖ over mass-preserving ε: β·max_w (max_x (r − r̄) − min_x (r − r̄))/2.
    pub log_pairs: f64,
    /// Thm 3.1's R = max_x Σ_w q(w) r(w,x) over the candidate set.
    pub r_thm31: f64,
    /// Remark 3.2(b)'s and Thm 3.2's R = max_{w,x} |r(w,x)| over W × X.
    pub r_max: f64,
    /// ‖D(A)‖ Ḣ⁻¹(p) → L¹ (Wasserstein case; a mixed 2→1 norm): certified range.
    pub w_tv: Interval,
    /// ‖D(log∘A)‖ Ḣ⁻¹(p) → L^∞ = β·max_w ‖∂ₓr(w,·) − ∂ₓr̄‖_{L²(p)} (closed form).
    pub w_log: f64,
    /// Thm 3.3's R as stated: ‖Σ_w q(w) r(w,·)‖_{Ḣ¹(p)}.
    pub r_thm33: f64,
    /// What Thm 3.3's proof needs: Σ_w q(w)‖r(w,·)‖_{Ḣ¹(p)} (≥ the stated R; see [`Norms::thm33_fails`]).
    pub r_thm33_fixed: f64,
    /// Thm 3.4's R (and Remark 3.4(a)'s): max_w ‖r(w,·)‖_{Ḣ¹(p)}.
    pub r_thm34: f64,
    /// Whether the mass-preserving TV norm was computed over every pair (else a range).
    pub pairs_exact: bool,
}

impl Norms {
    /// Thm 3.3 as stated fails on this instance: the attained norm exceeds 2βR. Its proof moves |·| inside
    /// an integral the wrong way (∫|⟨r(w,·), ε⟩|dw ≥ |⟨∫r(w,·)dw, ε⟩|), which is harmless in the TV case
    /// (r ≥ 0) but not here, where ∂ₓr changes sign across w.
    pub fn thm33_fails(&self, beta: f64) -> bool {
        self.w_tv.lower > 2.0 * beta * self.r_thm33 * (1.0 + 1e-12) + 1e-300
    }
}

/// Largest candidate-set work (columns × columns × parameters / 2) for which every pair is tried.
const PAIR_WORK: f64 = 2e8;
/// Largest matrix (entries) kept in memory for the pairs and the sign iteration.
const STORE: usize = 4_000_000;
/// Columns kept for the pairs when not all pairs are tried.
const TOP: usize = 24;

/// Whether every pair of the `k` candidates' columns (over `m` parameters) is tried.
fn pairs_exact(k: usize, m: usize) -> bool {
    k * m <= STORE && (k as f64) * (k as f64) * (m as f64) / 2.0 <= PAIR_WORK
}

/// Whether B (`m` parameters × `n` data points) is kept for the sign iteration.
fn keeps_b(m: usize, n: usize) -> bool {
    m * n <= STORE
}

/// Iterations of the sign iteration at most.
const SIGN_ITERATIONS: usize = 100;

/// An upper bound on [`NormsContext::finish`]'s work for `k` candidates, `m` parameters and `n` data
/// points, in loss evaluations (one exponential and a few multiply-adds, counted as 10 of the
/// multiply-adds the pairs and the sign iteration do): the kept columns recomputed, every pair of them
/// compared, and at most `SIGN_ITERATIONS` products with B and its transpose.
pub fn finish_work(k: usize, m: usize, n: usize) -> f64 {
    let (k, m, n) = (k as f64, m as f64, n as f64);
    let kept = if pairs_exact(k as usize, m as usize) {
        k
    } else {
        TOP.min(k as usize) as f64
    };
    let sign = if keeps_b(m as usize, n as usize) {
        SIGN_ITERATIONS as f64 * 2.0 * m * n
    } else {
        0.0
    };
    kept * m + (kept * kept * m / 2.0 + sign) / 10.0
}

/// Columns are processed in at most this many consecutive parts, however many workers there are: parts
/// are merged in order, so the sums (and so every norm) are the same bit for bit on 1 or 16 threads.
pub const PARTS: usize = 16;
/// Loss evaluations below which a pass is not split further: a part costs a round trip to a worker
/// (a few ms), so small instances go in one or two parts.
pub const PART_WORK: usize = 4_000_000;

/// How many parts a pass of `work` loss evaluations is split into: between 1 and [`PARTS`], from the
/// instance's size alone (never from the number of workers).
pub fn parts_for(work: usize) -> usize {
    work.div_ceil(PART_WORK).clamp(1, PARTS)
}

/// Computes every norm and R for `inst` at its Gibbs distribution `log_q` over `params`, part by part
/// in the same order as the parallel page does.
pub fn norms(inst: &Instance, params: &[(f64, f64)], log_q: &[f64]) -> Norms {
    let ctx = NormsContext::new(inst, params, log_q);
    let parts = ctx
        .parts()
        .into_iter()
        .map(|r| NormsPart::compute(&ctx, r, &mut |_| {}));
    ctx.finish(&NormsPart::merge(&ctx, parts.collect()))
}

/// What every part of the norms' pass shares; rebuilt from the instance and ln q wherever a part runs.
#[derive(Debug, Clone)]
pub struct NormsContext {
    inst: Instance,
    params: Vec<(f64, f64)>,
    cands: Vec<super::Point>,
    q: Vec<f64>,
    all_pairs: bool,
    store_b: bool,
    kernel: Kernel,
}

/// The norms' accumulators over a range of columns. Column c is candidate c's TV column and, for the
/// first N candidates (the data points), also data point c's Wasserstein column: both come from the
/// same margins, so the loss and its slope are evaluated together.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct NormsPart {
    tv_all: f64,
    log_all: f64,
    r_thm31: f64,
    r_max: f64,
    hi: Vec<f64>,
    lo: Vec<f64>,
    /// The L¹ norms of the columns q(w)(r(w,x) − r̄(x)) with their candidates (all of them, or the TOP
    /// largest); the columns themselves are recomputed by [`NormsContext::finish`], so that a part
    /// sent between threads stays small.
    kept: Vec<(f64, usize)>,
    /// r̄(x) at the part's candidates.
    rbar: Vec<f64>,
    /// Columns of B (data point, values over w) when B is kept.
    b_cols: Vec<(usize, Vec<f64>)>,
    acc_big_g: Vec<f64>,
    acc_g: Vec<f64>,
    r33: f64,
}

impl NormsContext {
    /// The shared data of the pass.
    pub fn new(inst: &Instance, params: &[(f64, f64)], log_q: &[f64]) -> Self {
        let (m, n) = (params.len(), inst.data.len());
        let cands = inst.candidates();
        let k = cands.len();
        NormsContext {
            inst: inst.clone(),
            params: params.to_vec(),
            q: log_q.iter().map(|l| l.exp()).collect(),
            all_pairs: pairs_exact(k, m),
            store_b: keeps_b(m, n),
            kernel: Kernel::new(inst, params),
            cands,
        }
    }

    /// Columns in all (one per candidate).
    pub fn columns(&self) -> usize {
        self.cands.len()
    }

    /// Loss evaluations per column (one per parameter).
    pub fn column_cost(&self) -> usize {
        self.params.len()
    }

    /// The consecutive column ranges ([`parts_for`] the pass's work).
    pub fn parts(&self) -> Vec<std::ops::Range<usize>> {
        let work = self.columns().saturating_mul(self.params.len());
        split(self.columns(), parts_for(work))
    }

    /// The norms from the merged accumulators. With B(w,i) = q(w)√p_i G(w,i) and u_i = √p_i f_i (a unit
    /// vector), ‖DA‖_{Ḣ⁻¹→L¹} = β·max_{‖u‖=1} ‖Bu‖₁: lower bound from alternating sign iterations
    /// s = sign(Bu), u = Bᵀs/‖Bᵀs‖ (no step decreases ‖Bu‖₁) started from the heaviest row, or that row
    /// alone when B is too large to keep; upper bound Σ_w ‖B(w,·)‖₂ (triangle inequality).
    pub fn finish(&self, acc: &NormsPart) -> Norms {
        let beta = self.inst.beta;
        let kept = self.kept_columns(acc);
        let mut best_pair = 0.0_f64;
        for i in 0..kept.len() {
            for j in i + 1..kept.len() {
                let d: f64 = kept[i]
                    .1
                    .iter()
                    .zip(&kept[j].1)
                    .map(|(a, b)| (a - b).abs())
                    .sum();
                best_pair = best_pair.max(d / 2.0);
            }
        }
        let mut sorted: Vec<f64> = kept.iter().map(|x| x.0).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let pair_upper = if self.all_pairs {
            best_pair
        } else {
            (sorted.first().copied().unwrap_or(0.0) + sorted.get(1).copied().unwrap_or(0.0)) / 2.0
        };
        let log_pairs = acc
            .hi
            .iter()
            .zip(&acc.lo)
            .map(|(h, l)| (h - l) / 2.0)
            .fold(0.0, f64::max);
        let q = &self.q;
        let (m, n) = (self.params.len(), self.inst.data.len());
        let row_norm: Vec<f64> = acc.acc_big_g.iter().map(|a| a.sqrt()).collect();
        let upper: f64 = row_norm.iter().zip(q).map(|(r, q)| q * r).sum();
        let heaviest =
            (0..m).max_by(|&a, &c| (q[a] * row_norm[a]).total_cmp(&(q[c] * row_norm[c])));
        let mut lower = heaviest.map_or(0.0, |w| q[w] * row_norm[w]);
        if let (true, Some(w0)) = (self.store_b && acc.b_cols.len() == n, heaviest) {
            let mut b = vec![0.0; m * n];
            for (i, col) in &acc.b_cols {
                for (w, v) in col.iter().enumerate() {
                    b[w * n + i] = *v;
                }
            }
            lower = lower.max(sign_iteration(&b, m, n, &b[w0 * n..(w0 + 1) * n]));
        }
        Norms {
            tv_all: beta * acc.tv_all,
            tv_pairs: Interval {
                lower: beta * best_pair,
                upper: beta * pair_upper,
            },
            log_all: beta * acc.log_all,
            log_pairs: beta * log_pairs,
            r_thm31: acc.r_thm31,
            r_max: acc.r_max,
            w_tv: Interval {
                lower: beta * lower,
                upper: beta * upper,
            },
            w_log: beta * row_norm.iter().copied().fold(0.0, f64::max),
            r_thm33: acc.r33.sqrt(),
            r_thm33_fixed: acc.acc_g.iter().zip(q).map(|(a, q)| q * a.sqrt()).sum(),
            r_thm34: acc.acc_g.iter().map(|a| a.sqrt()).fold(0.0, f64::max),
            pairs_exact: self.all_pairs,
        }
    }

    /// The kept columns q(w)(r(w,x) − r̄(x)), recomputed from their candidates, with their L¹ norms.
    fn kept_columns(&self, acc: &NormsPart) -> Vec<(f64, Vec<f64>)> {
        let mut col = Vec::new();
        acc.kept
            .iter()
            .map(|&(l1, c)| {
                let rbar = acc.rbar.get(c).copied().unwrap_or(f64::NAN);
                self.kernel
                    .values(self.cands[c], 0..self.params.len(), &mut col);
                (
                    l1,
                    col.iter()
                        .zip(&self.q)
                        .map(|(r, q)| q * (r - rbar))
                        .collect(),
                )
            })
            .collect()
    }

    /// Accumulators before any column.
    fn empty_part(&self) -> NormsPart {
        let m = self.params.len();
        NormsPart {
            hi: vec![f64::NEG_INFINITY; m],
            lo: vec![f64::INFINITY; m],
            acc_big_g: vec![0.0; m],
            acc_g: vec![0.0; m],
            ..NormsPart::default()
        }
    }
}

/// `len` items in at most `parts` consecutive non-empty ranges of nearly equal size.
pub fn split(len: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.clamp(1, len.max(1));
    (0..parts)
        .map(|i| (i * len / parts)..((i + 1) * len / parts))
        .filter(|r| !r.is_empty())
        .collect()
}

impl NormsPart {
    /// Folds the columns `range` into fresh accumulators, calling `progress` with the columns done
    /// after every few of them.
    pub fn compute(
        ctx: &NormsContext,
        range: std::ops::Range<usize>,
        progress: &mut dyn FnMut(usize),
    ) -> NormsPart {
        let mut part = ctx.empty_part();
        let every = (2_000_000 / ctx.params.len().max(1)).max(1);
        let start = range.start;
        for c in range {
            part.column(ctx, c);
            if (c + 1 - start).is_multiple_of(every) {
                progress(c + 1 - start);
            }
        }
        part
    }

    /// Parts over consecutive ranges, in order, merged into the accumulators of their union.
    pub fn merge(ctx: &NormsContext, parts: Vec<NormsPart>) -> NormsPart {
        let mut all = ctx.empty_part();
        for p in parts {
            all.tv_all = all.tv_all.max(p.tv_all);
            all.log_all = all.log_all.max(p.log_all);
            all.r_thm31 = all.r_thm31.max(p.r_thm31);
            all.r_max = all.r_max.max(p.r_max);
            for (a, b) in all.hi.iter_mut().zip(&p.hi) {
                *a = a.max(*b);
            }
            for (a, b) in all.lo.iter_mut().zip(&p.lo) {
                *a = a.min(*b);
            }
            for (a, b) in all.acc_big_g.iter_mut().zip(&p.acc_big_g) {
                *a += b;
            }
            for (a, b) in all.acc_g.iter_mut().zip(&p.acc_g) {
                *a += b;
            }
            all.r33 += p.r33;
            all.rbar.extend(p.rbar);
            all.b_cols.extend(p.b_cols);
            all.kept.extend(p.kept);
            if !ctx.all_pairs {
                all.kept.sort_by(|a, b| b.0.total_cmp(&a.0));
                all.kept.truncate(TOP);
            }
        }
        all
    }

    /// r̄(x) at every candidate of the part (all of them once merged).
    pub fn rbar(&self) -> &[f64] {
        &self.rbar
    }

    /// Candidate c's TV column and, for a data point, its Wasserstein column (Example 2.2):
    /// perturbations ε = −∇·(f p) move the data points with velocity f, ‖ε‖ = ‖f‖_{L²(p)}; then
    /// (D log∘A ε)(w) = −β Σ_i p_i G(w,i) f_i with G = ∂ₓr(w,x_i) − Σ_w' q ∂ₓr(w',x_i).
    fn column(&mut self, ctx: &NormsContext, c: usize) {
        let (inst, q) = (&ctx.inst, &ctx.q);
        let point = ctx.cands[c];
        let n = inst.data.len();
        let wasserstein = c < n;
        let (mut col, mut g) = (Vec::new(), Vec::new());
        let all = 0..ctx.params.len();
        if wasserstein {
            ctx.kernel.values_and_dx(point, all, &mut col, &mut g);
        } else {
            ctx.kernel.values(point, all, &mut col);
        }
        let rbar: f64 = col.iter().zip(q).map(|(r, q)| q * r).sum();
        let mut l1 = 0.0;
        for (i, &r) in col.iter().enumerate() {
            let d = r - rbar;
            l1 += q[i] * d.abs();
            self.log_all = self.log_all.max(d.abs());
            self.hi[i] = self.hi[i].max(d);
            self.lo[i] = self.lo[i].min(d);
            self.r_max = self.r_max.max(r);
        }
        self.tv_all = self.tv_all.max(l1);
        self.r_thm31 = self.r_thm31.max(rbar);
        self.rbar.push(rbar);
        let kept = &mut self.kept;
        if ctx.all_pairs || kept.len() < TOP || l1 > kept[kept.len() - 1].0 {
            kept.push((l1, c));
            if !ctx.all_pairs {
                kept.sort_by(|a, b| b.0.total_cmp(&a.0));
                kept.truncate(TOP);
            }
        }
        if !wasserstein {
            return;
        }
        let p = 1.0 / n as f64;
        let gbar: f64 = g.iter().zip(q).map(|(g, q)| q * g).sum();
        self.r33 += p * gbar * gbar;
        let mut b_col = Vec::with_capacity(if ctx.store_b { g.len() } else { 0 });
        for (w, &gw) in g.iter().enumerate() {
            let d = gw - gbar;
            self.acc_big_g[w] += p * d * d;
            self.acc_g[w] += p * gw * gw;
            if ctx.store_b {
                b_col.push(q[w] * p.sqrt() * d);
            }
        }
        if ctx.store_b {
            self.b_cols.push((c, b_col));
        }
    }
}

/// max ‖Bu‖₁ over unit u found by alternating s = sign(Bu), u = Bᵀs/‖Bᵀs‖ from `start` (B is m × n).
fn sign_iteration(b: &[f64], m: usize, n: usize, start: &[f64]) -> f64 {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let s0 = norm(start);
    if s0 == 0.0 {
        return 0.0;
    }
    let mut u: Vec<f64> = start.iter().map(|x| x / s0).collect();
    let mut best = 0.0_f64;
    for _ in 0..SIGN_ITERATIONS {
        let bu: Vec<f64> = (0..m)
            .map(|w| {
                b[w * n..(w + 1) * n]
                    .iter()
                    .zip(&u)
                    .map(|(a, c)| a * c)
                    .sum()
            })
            .collect();
        let value: f64 = bu.iter().map(|x| x.abs()).sum();
        if value <= best * (1.0 + 1e-13) {
            best = best.max(value);
            break;
        }
        best = value;
        let mut v = vec![0.0; n];
        for (w, x) in bu.iter().enumerate() {
            let s = if *x >= 0.0 { 1.0 } else { -1.0 };
            for (vi, a) in v.iter_mut().zip(&b[w * n..(w + 1) * n]) {
                *vi += s * a;
            }
        }
        let nv = norm(&v);
        if nv == 0.0 {
            break;
        }
        u = v.iter().map(|x| x / nv).collect();
    }
    best
}

/// The tangent maps' entries at chosen rows (parameters) and columns (candidates), for pictures and tests:
/// (DA, D log∘A), row-major.
pub fn tangent_entries(
    inst: &Instance,
    params: &[(f64, f64)],
    log_q: &[f64],
    rows: &[usize],
    cols: &[usize],
) -> (Vec<f64>, Vec<f64>) {
    let cands = inst.candidates();
    let rbar: Vec<f64> = cols
        .iter()
        .map(|&c| {
            params
                .iter()
                .zip(log_q)
                .map(|(&w, l)| l.exp() * inst.risk_at(w, cands[c]))
                .sum()
        })
        .collect();
    entries_with_rbar(inst, params, log_q, &rbar, rows, cols)
}

/// [`tangent_entries`] given r̄ at the chosen columns (`rbar[j]` for `cols[j]`), which the norms' pass
/// has already computed: one loss evaluation per entry.
pub fn entries_with_rbar(
    inst: &Instance,
    params: &[(f64, f64)],
    log_q: &[f64],
    rbar: &[f64],
    rows: &[usize],
    cols: &[usize],
) -> (Vec<f64>, Vec<f64>) {
    let cands = inst.candidates();
    let (mut da, mut dl) = (Vec::new(), Vec::new());
    for &w in rows {
        for (&c, rb) in cols.iter().zip(rbar) {
            let d = -inst.beta * (inst.risk_at(params[w], cands[c]) - rb);
            dl.push(d);
            da.push(log_q[w].exp() * d);
        }
    }
    (da, dl)
}

#[cfg(test)]
#[path = "norms_tests.rs"]
mod tests;
