//! The tangent maps of A: p ↦ q and of log∘A, their operator norms, and the bounds 2βR of the paper's
//! Theorems 3.1–3.4 (Ying 2025, §3). Matrices are never stored whole: each column (a candidate point)
//! is computed, folded into the norms and dropped, so a 200 × 200 grid with 10⁴ points fits in memory.
//!
//! Kernels (§3, finite X and W): DA_p = −β(diag(q) − qqᵀ)r, entry −β q(w)(r(w,x) − r̄(x)); and
//! D(log∘A)_p = −β(I − 1qᵀ)r, entry −β(r(w,x) − r̄(x)), with r̄(x) = Σ_w q(w) r(w,x).

use super::gibbs::Instance;

/// A certified range for a norm with no closed form (lower = upper when computed exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Attained by an explicit perturbation.
    pub lower: f64,
    /// Proved by an inequality.
    pub upper: f64,
}

/// Norms of the tangent maps and the R of each bound, for one instance.
#[derive(Debug, Clone, PartialEq)]
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

/// Computes every norm and R for `inst` at its Gibbs distribution `log_q` over `params`.
pub fn norms(inst: &Instance, params: &[(f64, f64)], log_q: &[f64]) -> Norms {
    let mut acc = NormsInProgress::new(inst, params, log_q);
    while !acc.is_done() {
        acc.advance(usize::MAX);
    }
    acc.finish()
}

/// The norms computed a few columns at a time (for a page that must stay responsive): candidates'
/// columns first (TV case), then the data points' x-gradients (Wasserstein case).
#[derive(Debug, Clone)]
pub struct NormsInProgress {
    inst: Instance,
    params: Vec<(f64, f64)>,
    cands: Vec<super::Point>,
    q: Vec<f64>,
    all_pairs: bool,
    next: usize,
    tv_all: f64,
    log_all: f64,
    r_thm31: f64,
    r_max: f64,
    hi: Vec<f64>,
    lo: Vec<f64>,
    /// Stored columns q(w)(r(w,x) − r̄(x)) with their L¹ norms (all of them, or the TOP largest).
    kept: Vec<(f64, Vec<f64>)>,
    /// r̄(x) at every candidate done so far.
    rbar: Vec<f64>,
    store_b: bool,
    b: Vec<f64>,
    acc_big_g: Vec<f64>,
    acc_g: Vec<f64>,
    r33: f64,
}

impl NormsInProgress {
    /// Starts the computation.
    pub fn new(inst: &Instance, params: &[(f64, f64)], log_q: &[f64]) -> Self {
        let (m, n) = (params.len(), inst.data.len());
        let cands = inst.candidates();
        let k = cands.len();
        let store_b = m * n <= STORE;
        NormsInProgress {
            inst: inst.clone(),
            params: params.to_vec(),
            q: log_q.iter().map(|l| l.exp()).collect(),
            all_pairs: (k * m <= STORE) && (k as f64) * (k as f64) * (m as f64) / 2.0 <= PAIR_WORK,
            cands,
            next: 0,
            tv_all: 0.0,
            log_all: 0.0,
            r_thm31: 0.0,
            r_max: 0.0,
            hi: vec![f64::NEG_INFINITY; m],
            lo: vec![f64::INFINITY; m],
            kept: Vec::new(),
            rbar: Vec::with_capacity(k),
            store_b,
            b: if store_b {
                vec![0.0; m * n]
            } else {
                Vec::new()
            },
            acc_big_g: vec![0.0; m],
            acc_g: vec![0.0; m],
            r33: 0.0,
        }
    }

    /// Columns done and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.cands.len() + self.inst.data.len())
    }

    /// r̄(x) = Σ_w q(w) r(w,x) at the candidates done so far (all of them once the TV columns are done).
    pub fn rbar(&self) -> &[f64] {
        &self.rbar
    }

    /// Whether every column is done.
    pub fn is_done(&self) -> bool {
        self.next >= self.cands.len() + self.inst.data.len()
    }

    /// Processes up to `columns` more columns (each costs one loss evaluation per parameter).
    pub fn advance(&mut self, columns: usize) {
        let end = self
            .next
            .saturating_add(columns)
            .min(self.cands.len() + self.inst.data.len());
        while self.next < end {
            if self.next < self.cands.len() {
                self.tv_column(self.next);
            } else {
                self.wasserstein_column(self.next - self.cands.len());
            }
            self.next += 1;
        }
    }

    fn tv_column(&mut self, c: usize) {
        let (inst, q) = (&self.inst, &self.q);
        let col: Vec<f64> = self
            .params
            .iter()
            .map(|&w| inst.risk_at(w, self.cands[c]))
            .collect();
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
        if self.all_pairs || kept.len() < TOP || l1 > kept[kept.len() - 1].0 {
            kept.push((l1, col.iter().zip(q).map(|(r, q)| q * (r - rbar)).collect()));
            if !self.all_pairs {
                kept.sort_by(|a, b| b.0.total_cmp(&a.0));
                kept.truncate(TOP);
            }
        }
    }

    /// The Wasserstein case (Example 2.2): perturbations ε = −∇·(f p) move the data points with velocity
    /// f, ‖ε‖ = ‖f‖_{L²(p)}; then (D log∘A ε)(w) = −β Σ_i p_i G(w,i) f_i with
    /// G = ∂ₓr(w,x_i) − Σ_w' q ∂ₓr(w',x_i). One data point's column of G.
    fn wasserstein_column(&mut self, i: usize) {
        let n = self.inst.data.len();
        let p = 1.0 / n as f64;
        let x = self.inst.data[i];
        let g: Vec<f64> = self
            .params
            .iter()
            .map(|&w| self.inst.risk_dx(w, x))
            .collect();
        let gbar: f64 = g.iter().zip(&self.q).map(|(g, q)| q * g).sum();
        self.r33 += p * gbar * gbar;
        for (w, &gw) in g.iter().enumerate() {
            let d = gw - gbar;
            self.acc_big_g[w] += p * d * d;
            self.acc_g[w] += p * gw * gw;
            if self.store_b {
                self.b[w * n + i] = self.q[w] * p.sqrt() * d;
            }
        }
    }

    /// The norms (call when [`NormsInProgress::is_done`]). With B(w,i) = q(w)√p_i G(w,i) and u_i = √p_i f_i
    /// (a unit vector), ‖DA‖_{Ḣ⁻¹→L¹} = β·max_{‖u‖=1} ‖Bu‖₁: lower bound from alternating sign iterations
    /// s = sign(Bu), u = Bᵀs/‖Bᵀs‖ (no step decreases ‖Bu‖₁) started from the heaviest row, or that row
    /// alone when B is too large to keep; upper bound Σ_w ‖B(w,·)‖₂ (triangle inequality).
    pub fn finish(&self) -> Norms {
        let beta = self.inst.beta;
        let kept = &self.kept;
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
        let log_pairs = self
            .hi
            .iter()
            .zip(&self.lo)
            .map(|(h, l)| (h - l) / 2.0)
            .fold(0.0, f64::max);
        let q = &self.q;
        let (m, n) = (self.params.len(), self.inst.data.len());
        let row_norm: Vec<f64> = self.acc_big_g.iter().map(|a| a.sqrt()).collect();
        let upper: f64 = row_norm.iter().zip(q).map(|(r, q)| q * r).sum();
        let heaviest =
            (0..m).max_by(|&a, &c| (q[a] * row_norm[a]).total_cmp(&(q[c] * row_norm[c])));
        let mut lower = heaviest.map_or(0.0, |w| q[w] * row_norm[w]);
        if let (true, Some(w0)) = (self.store_b, heaviest) {
            lower = lower.max(sign_iteration(&self.b, m, n, &self.b[w0 * n..(w0 + 1) * n]));
        }
        Norms {
            tv_all: beta * self.tv_all,
            tv_pairs: Interval {
                lower: beta * best_pair,
                upper: beta * pair_upper,
            },
            log_all: beta * self.log_all,
            log_pairs: beta * log_pairs,
            r_thm31: self.r_thm31,
            r_max: self.r_max,
            w_tv: Interval {
                lower: beta * lower,
                upper: beta * upper,
            },
            w_log: beta * row_norm.iter().copied().fold(0.0, f64::max),
            r_thm33: self.r33.sqrt(),
            r_thm33_fixed: self.acc_g.iter().zip(q).map(|(a, q)| q * a.sqrt()).sum(),
            r_thm34: self.acc_g.iter().map(|a| a.sqrt()).fold(0.0, f64::max),
            pairs_exact: self.all_pairs,
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
    for _ in 0..100 {
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
