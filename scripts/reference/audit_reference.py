"""Reference values for the privacy-auditing estimators (src/attacks/audit.rs and what follows it).

Dev tool only, never a runtime dependency. From the repository root (about 1-2 min on one core):

    ~/.cache/dp-playground/venv/bin/pip install jax_privacy==2.0.0   # brings jax; scipy, mpmath
    ~/.cache/dp-playground/venv/bin/python scripts/reference/audit_reference.py

Writes scripts/reference/audit_reference.json. Every entry names its inputs, its output and a
"source"; "computed_by" says whether the output comes from an installed package ("package:
jax_privacy 2.0.0 ...") or from this script's own code written from the papers' formulas
("independent"). Where both exist, the other one is recorded under "check". The one-run algorithm
(item 1) is spelled out in ONE_RUN_NOTES below and in the JSON.
"""

import importlib.metadata as md
import json
import math
import platform
from pathlib import Path

import dp_accounting
import mpmath as mp
import numpy as np
from dp_accounting.pld import privacy_loss_distribution as pld_lib
from jax_privacy import auditing
from scipy import optimize, special, stats

mp.mp.dps = 40
ALPHA = 0.05
OUT = Path(__file__).with_name("audit_reference.json")
TEST_FILE = "google-deepmind/jax_privacy tests/auditing_test.py @ 8967688c26d46f3b74bfdfe61ef1f984b887abab"

ONE_RUN_NOTES = """\
jax_privacy 2.0.0 CanaryScoreAuditor(in_scores, out_scores).epsilon_one_run(significance=0.05,
delta=1e-6) and .epsilon_one_run_fdp(0.05, 1e-6), default one_sided=True and
threshold_strategy=Bonferroni(). Precisely:
(a) Candidate thresholds: t in sorted(unique(in U out)) + [+inf]. At t: FN = #{in < t},
    TN = #{out < t}; the rule guesses IN for every score >= t and abstains on the rest (k- = 0):
    r = TP + FP guesses, v = TP correct, where TP = n_in - FN, FP = n_out - TN.
(b) Keep only the Pareto frontier of the points (FN, TN) (sorted by FN, ties by increasing TN):
    the vertices of their upper concave hull, strictly convex turns only (a point on a straight
    segment between two others is dropped; first and last points always kept). N = number kept,
    including the lowest threshold (r = m, v = n_in) and +inf (r = 0).
(c) Bonferroni: alpha' = 0.05 / N (N = 386, 374, 140 for shift 1, 2, 4).
(d) m = n_in + n_out = 20000 (all canaries). For each kept threshold with r > 0 and v/r > 1/2,
    eps_t = the largest eps that (r, v) falsifies at level alpha'; result = max_t eps_t (0 if none).
    jax visits thresholds in decreasing order of the Clopper-Pearson precision lower bound and
    skips any with v/r <= logistic(best so far); that is only a speed-up: this script checks that
    no frontier threshold falsifies (result + 1e-5) with either test.
(e) One-run test (Steinke, Nasr & Jagielski 2023, arXiv:2305.08846, Thm 3.1 / Prop. 5.7):
    p = logistic(eps) = e^eps/(1+e^eps); beta = P[Bin(r,p) >= v];
    a* = max_{i=1..v} P[v-i <= Bin(r,p) <= v-1] / i; pval = min(1, beta + 2*m*delta*a*);
    falsified iff pval <= alpha'.
(f) f-DP test (Mahloujifar, Melis & Chaudhuri, arXiv:2410.22235, 'audit_rh_with_cap'):
    sigma = analytic-Gaussian sigma(eps, delta) for sensitivity 1 (Balle & Wang 2018: delta =
    Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)); g(x) = Phi(Phi^-1(x) - 1/sigma).
    R = alpha' v/m, H = alpha' (r - v)/m; for i = v-1 down to 0: H2 = max(H, g(R)); stop if
    H2 == H; R = min(R + i/(r - i) (H2 - H), 1); H = H2. Falsified iff R + H > r/m.
(g) eps_t is found by brentq on [eps_lo, eps_hi] with xtol = 1e-6 (jax: eps_lo = best so far,
    eps_hi = max(1, 2 eps_lo) doubled until not falsified), so jax's last digits carry ~1e-6 of
    root-finding error; the test compares at rtol 1e-5. 'exact' below is the same max to 1e-12."""


def f(x):
    """numpy / mpmath scalars and arrays -> plain JSON values."""
    if isinstance(x, (list, tuple, np.ndarray)):
        return [f(y) for y in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    x = float(x)
    return "inf" if x == math.inf else x


# ---------------------------------------------------------------- independent implementations
def cp_upper(k, n, a):
    """Clopper-Pearson one-sided upper limit at level 1 - a: Beta(k+1, n-k) quantile (1 if k = n)."""
    return 1.0 if k >= n else float(stats.beta.ppf(1 - a, k + 1, n - k))


def cp_upper_mp(k, n, a):
    if k >= n:
        return mp.mpf(1)
    g = lambda x: mp.betainc(k + 1, n - k, 0, x, regularized=True) - (1 - mp.mpf(a))
    return bisect(g, mp.mpf(0), mp.mpf(1))


def bisect(g, lo, hi, tol=mp.mpf("1e-25")):
    """Root of g on [lo, hi], g(lo) and g(hi) of opposite signs (mpmath)."""
    glo = g(lo)
    while hi - lo > tol * max(1, abs(lo)):
        mid = (lo + hi) / 2
        if (g(mid) > 0) == (glo > 0):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def gdp_epsilon(mu, delta):
    """eps of mu-GDP at delta (Dong, Roth & Su 2019, Cor. 2.13), by bisection in mpmath."""
    mu, delta = mp.mpf(mu), mp.mpf(delta)
    if mu <= 0:
        return mp.mpf(0)
    d = lambda e: mp.ncdf(-e / mu + mu / 2) - mp.exp(e) * mp.ncdf(-e / mu - mu / 2) - delta
    return mp.mpf(0) if d(0) <= 0 else bisect(d, mp.mpf(0), mp.mpf(200))


def analytic_sigma(eps, delta):
    """Balle & Wang (2018) analytic-Gaussian sigma for sensitivity 1, by brentq in the log domain."""
    def log_gap(log_s):
        s = math.exp(log_s)
        x, y = special.log_ndtr(0.5 / s - eps * s), eps + special.log_ndtr(-0.5 / s - eps * s)
        return (x + math.log1p(-math.exp(y - x)) if y < x else -math.inf) - math.log(delta)
    return math.exp(optimize.brentq(log_gap, math.log(1e-4), math.log(1e9), xtol=1e-15))


def one_run_pvalue(m, r, v, eps, delta):
    p = special.expit(eps)
    beta = stats.binom.sf(v - 1, r, p)
    window = np.cumsum(stats.binom.pmf(np.arange(v - 1, -1, -1), r, p))  # P[v-i <= X <= v-1]
    return min(1.0, beta + 2 * m * delta * np.max(window / np.arange(1, v + 1)))


def fdp_falsifies(m, r, v, eps, delta, alpha):
    c = 1 / analytic_sigma(eps, delta)
    R, H = alpha * v / m, alpha * (r - v) / m
    for i in range(v - 1, -1, -1):
        H2 = max(H, float(special.ndtr(special.ndtri(R) - c)))
        if H2 == H:
            break
        R, H = min(R + i / (r - i) * (H2 - H), 1.0), H2
    return R + H > r / m


def frontier_counts(ins, outs):
    """Thresholds, FN, TN on the upper concave hull of (FN, TN), strict turns (monotone chain)."""
    ins, outs = np.sort(ins), np.sort(outs)
    t = np.append(np.union1d(ins, outs), np.inf)
    fn, tn = np.searchsorted(ins, t, "left"), np.searchsorted(outs, t, "left")
    hull = []
    for j in range(len(t)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            turn = (fn[b] - fn[a]) * (tn[j] - tn[a]) - (tn[b] - tn[a]) * (fn[j] - fn[a])
            if turn < 0:  # strict right (concave) turn: keep b
                break
            hull.pop()
        hull.append(j)
    return t[hull], fn[hull], tn[hull]


def one_run_max(ins, outs, alpha, delta, fdp):
    """Independent item-1 pipeline: bisection on eps over 'some frontier threshold falsifies'."""
    t, fn, tn = frontier_counts(ins, outs)
    n_thr, m = len(t), len(ins) + len(outs)
    a = alpha / n_thr
    tp, fp = len(ins) - fn, len(outs) - tn
    cand = [j for j in range(n_thr) if tp[j] + fp[j] > 0 and 2 * tp[j] > tp[j] + fp[j]]
    test = (lambda j, e: fdp_falsifies(m, tp[j] + fp[j], tp[j], e, delta, a)) if fdp else (
        lambda j, e: one_run_pvalue(m, tp[j] + fp[j], tp[j], e, delta) <= a)
    lo, hi = 0.0, 64.0
    cand = [j for j in cand if test(j, lo)]
    while cand and hi - lo > 1e-12:  # monotone: a threshold that fails at lo fails above it
        mid = (lo + hi) / 2
        keep = [j for j in cand if test(j, mid)]
        lo, hi, cand = (mid, hi, keep) if keep else (lo, mid, cand)
    j = cand[0] if cand else None
    best = None if j is None else {"threshold": f(t[j]), "r": f(tp[j] + fp[j]), "v": f(tp[j]),
                                   "tp": f(tp[j]), "fp": f(fp[j])}
    return (lo if cand else 0.0), n_thr, a, best, (lambda e: any(test(k, e) for k in range(n_thr)
                                                                 if tp[k] + fp[k] > 0))


def last_iterate_epsilon(q, sigma, T, delta):
    """eps between P = N(0, s^2) and Q = sum_k Bin(k; T, q) N(k, s^2), s^2 = T sigma^2, both ways.

    L(x) = Q/P(x) = sum_k b_k exp((k x - k^2/2)/s^2) is increasing, so for Q||P the region
    {Q > e^eps P} is x > x* with eps = ln L(x*) and delta = sum_k b_k Phibar((x*-k)/s) - e^eps Phibar(x*/s);
    for P||Q it is y < y* with eps = -ln L(y*) and delta = Phi(y*/s) - e^eps sum_k b_k Phi((y*-k)/s).
    Solve delta(x) = target for the crossing point (bisection, 40 digits), then verify the
    hockey-stick divergence by direct numerical integration (mpmath.quad)."""
    s, delta = mp.sqrt(T) * sigma, mp.mpf(delta)
    ks = [k for k in range(T + 1) if stats.binom.pmf(k, T, q) > 1e-40]
    b = [mp.binomial(T, k) * mp.mpf(q) ** k * (1 - mp.mpf(q)) ** (T - k) for k in ks]
    L = lambda x: mp.fsum(bk * mp.exp((k * x - k * k / 2) / s**2) for bk, k in zip(b, ks))
    dens_p = lambda x: mp.npdf(x, 0, s)
    dens_q = lambda x: mp.fsum(bk * mp.npdf(x, k, s) for bk, k in zip(b, ks))
    out = {}
    d_qp = lambda x: mp.fsum(bk * mp.ncdf(-(x - k) / s) for bk, k in zip(b, ks)) - L(x) * mp.ncdf(-x / s) - delta
    x = bisect(d_qp, -20 * s, T + 20 * s)
    e_qp = mp.log(L(x))
    integral = mp.quad(lambda u: dens_q(u) - mp.exp(e_qp) * dens_p(u), [x, x + 10 * s, mp.inf])
    out["Q_vs_P"] = {"epsilon": f(max(e_qp, 0)), "crossing_x": f(x), "delta_by_quadrature": f(integral)}
    d_pq = lambda y: mp.ncdf(y / s) - mp.fsum(bk * mp.ncdf((y - k) / s) for bk, k in zip(b, ks)) / L(y) - delta
    y = bisect(d_pq, -60 * s, mp.findroot(lambda u: L(u) - 1, 0))
    e_pq = -mp.log(L(y))
    integral = mp.quad(lambda u: dens_p(u) - mp.exp(e_pq) * dens_q(u), [-mp.inf, y - 10 * s, y])
    out["P_vs_Q"] = {"epsilon": f(max(e_pq, 0)), "crossing_x": f(y), "delta_by_quadrature": f(integral),
                     "supremum_over_delta": f(-T * mp.log(1 - mp.mpf(q)))}
    return max(out["Q_vs_P"]["epsilon"], out["P_vs_Q"]["epsilon"]), out


# ---------------------------------------------------------------- the items
def item1():
    n, delta = 10_000, 1e-6
    base = stats.norm.ppf((np.arange(n) + 0.5) / n)
    published = {1: (1.13346, 2.164749, 4.8866), 2: (2.311945, 4.7218075, 10.9972),
                 4: (4.395568, 9.133752, 26.3570)}
    rows = []
    for shift, (want, want_fdp, want_true) in published.items():
        aud = auditing.CanaryScoreAuditor(base + shift, base)
        for fdp, expected in ((False, want), (True, want_fdp)):
            name = "epsilon_one_run_fdp" if fdp else "epsilon_one_run"
            got = getattr(aud, name)(ALPHA, delta)
            exact, n_thr, a, best, any_falsifies = one_run_max(base + shift, base, ALPHA, delta, fdp)
            rows.append({
                "inputs": {"n_in": n, "n_out": n, "in_scores": f"Phi^-1((k+0.5)/{n}) + {shift}, k=0..{n - 1}",
                           "out_scores": f"Phi^-1((k+0.5)/{n}), k=0..{n - 1}", "shift": shift,
                           "significance": ALPHA, "delta": delta, "m": 2 * n},
                "method": "f-DP one run" if fdp else "one run",
                "output": f(got), "expected_published": expected,
                "rel_err_vs_published": f(abs(got - expected) / expected),
                "computed_by": f"package: jax_privacy 2.0.0 CanaryScoreAuditor.{name}(0.05, 1e-6)",
                "source": ("Mahloujifar, Melis & Chaudhuri 2024 (arXiv:2410.22235)" if fdp else
                           "Steinke, Nasr & Jagielski 2023 (arXiv:2305.08846)") + f"; vector from {TEST_FILE}",
                "check": {"computed_by": "independent (this script, ONE_RUN_NOTES a-f, bisection to 1e-12)",
                          "exact": f(exact), "frontier_thresholds_N": n_thr, "bonferroni_alpha": f(a),
                          "best_threshold": best,
                          "jax_frontier_N": len(aud._fn_counts),
                          "no_threshold_falsifies_output_plus_1e-5": not any_falsifies(got + 1e-5)},
            })
        rows.append({"inputs": {"mu": shift, "delta": delta}, "method": "true eps of shift-GDP",
                     "output": f(gdp_epsilon(shift, delta)), "expected_published": want_true,
                     "computed_by": "independent (mpmath, Dong-Roth-Su Cor. 2.13)",
                     "source": "docs spec table; Dong, Roth & Su 2019",
                     "check": {"dp_accounting.get_epsilon_gaussian(1/mu, delta)":
                               f(dp_accounting.get_epsilon_gaussian(1 / shift, delta))}})
    # Steinke et al. 2023's own numbers (m = 500, delta = 1e-5), counts given directly.
    counts = [(100, 100, 0.05, 3.4791953936), (100, 100, 0.01, 3.0231975541),
              (35, 23, 0.05, 0.01454872), (100, 60, 0.05, 0.05073561)]
    for r, v, a, want in counts:
        got = auditing._epsilon_one_run(0, 500, r, v, a, 1e-5)
        exact = optimize.brentq(lambda e: a - one_run_pvalue(500, r, v, e, 1e-5), 0, 20, xtol=1e-13)
        rows.append({"inputs": {"m": 500, "r": r, "v": v, "significance": a, "delta": 1e-5},
                     "method": "one run from counts", "output": f(got), "expected_published": want,
                     "computed_by": "package: jax_privacy 2.0.0 auditing._epsilon_one_run(0, m, r, v, alpha, delta) (brentq xtol 1e-6)",
                     "source": "Steinke, Nasr & Jagielski 2023 (arXiv:2305.08846); values from the shared spec",
                     "check": {"computed_by": "independent (ONE_RUN_NOTES e, brentq xtol 1e-13)", "exact": f(exact)}})
    return rows


def item2():
    a = auditing
    cases = []
    for ins, outs, exp in [
        ([1.5, 2.5, 0.5, 3.5], [0, 3, 2, 1], ([0, 0.5, 3.5, "inf"], [0, 1, 4, 4], [0, 0, 3, 4])),
        ([0, 1, 1, 2], [0, 0, 1, 1], ([0, 1, 2, "inf"], [0, 2, 4, 4], [0, 1, 3, 4])),
        ([0, 0, 1, 2], [0, 1, 1, 1], ([0, 2, "inf"], [0, 4, 4], [0, 3, 4])),
        ([0, 0, 0, 0], [0, 0, 0, 0], ([0, "inf"], [0, 4], [0, 4])),
    ]:
        got = [f(x) for x in a._get_tn_fn_counts(ins, outs)]
        mine = frontier_counts(np.array(ins, float), np.array(outs, float))
        cases.append({"function": "_get_tn_fn_counts(in, out) -> (thresholds, TN, FN) on the frontier",
                      "inputs": {"in": ins, "out": outs},
                      "expected": dict(zip(["thresholds", "tn", "fn"], exp)),
                      "output": dict(zip(["thresholds", "tn", "fn"], got)),
                      "check_independent": dict(zip(["thresholds", "fn", "tn"], [f(x) for x in mine]))})
    for pts, exp in [([[0, 0], [0, 2], [3, 2], [3, 5], [5, 5]], [0, 1, 3, 4]),
                     ([[0, 0], [0, 2], [2, 2], [2, 3], [3, 3], [3, 5], [5, 5]], [0, 1, 5, 6]),
                     ([[0, 0], [0, 2], [1, 2], [1, 4], [3, 4], [3, 5], [5, 5]], [0, 1, 3, 5, 6]),
                     ([[0, 0], [0, 2], [1, 2], [1, 3], [2, 3], [2, 4], [4, 4]], [0, 1, 5, 6])]:
        cases.append({"function": "_pareto_frontier(points (x, y) sorted by x) -> kept indices",
                      "inputs": {"points": pts}, "expected": exp,
                      "output": f(a._pareto_frontier(np.array(pts)))})
    aud = a.CanaryScoreAuditor([1, 3], [0, 2])
    fprs = [0, 0.25, 0.5, 0.75, 1.0]
    cases.append({"function": "tpr_at_given_fpr (randomised between thresholds)",
                  "inputs": {"in": [1, 3], "out": [0, 2], "fpr": fprs},
                  "expected": [0.5, 0.75, 1.0, 1.0, 1.0], "output": f(aud.tpr_at_given_fpr(fprs))})
    for ins, outs, exp, note in [([0, 4, 6, 7], [1, 2, 3, 5], 13 / 16, "exact"),
                                 ([1.0] * 30, [0.0] * 30, 1.0, "best case, also n_out 15 or 45"),
                                 ([0.0] * 30, [1.0] * 30, 0.5, "worst case: the hull is the diagonal")]:
        cases.append({"function": "attack_auroc (area under the frontier, trapezoids)",
                      "inputs": {"in": ins, "out": outs}, "expected": exp, "note": note,
                      "output": f(a.CanaryScoreAuditor(ins, outs).attack_auroc())})
    n_in = 10_000
    ins, outs = np.sqrt(1 - np.linspace(0, 1, n_in) ** 2), np.linspace(0, 1, n_in)
    cases.append({"function": "attack_auroc, circular ROC", "expected": math.pi / 4, "tolerance": "3 decimals",
                  "inputs": {"in": "sqrt(1 - linspace(0,1,10000)^2)", "out": "linspace(0,1,10000)"},
                  "output": f(a.CanaryScoreAuditor(ins, outs).attack_auroc())})
    for mc in (1, 2):
        for d in (0, 1 / 8, 1 / 4, 3 / 8, 1 / 2):
            slope = {0: 3 if mc == 1 else 2, 1 / 8: 2 if mc == 1 else 1.5, 1 / 4: 1, 3 / 8: 0.75, 1 / 2: 0.5}[d]
            cases.append({"function": "_epsilon_raw_counts_helper(tp_counts, fp_counts, min_count, delta)",
                          "inputs": {"tp_counts": [0, 2, 6, 8], "fp_counts": [0, 0, 4, 8], "min_count": mc, "delta": d},
                          "expected": max(math.log(slope), 0.0),
                          "output": f(a._epsilon_raw_counts_helper(np.array([0, 2, 6, 8]), np.array([0, 0, 4, 8]), mc, d))})
    return {"test_file": TEST_FILE, "computed_by": "package: jax_privacy 2.0.0 (output); expected copied from the test file",
            "cases": cases}


# (tp, fn, fp, tn). (990, 10, 300, 700): the swapped side wins the two-sided bound. (3, 2, 2, 3): no
# evidence, but FPR_ub + FNR_ub > 1 makes mu < 0, which jax_privacy 2.0.0's |mu| turns into an eps > 0.
COUNTS = [(900, 100, 50, 950), (500, 500, 100, 900), (990, 10, 10, 990), (1000, 0, 0, 1000),
          (100, 900, 500, 500), (990, 10, 300, 700), (3, 2, 2, 3)]


def two_level_scores(tp, fn, fp, tn):
    return [1.0] * tp + [0.0] * fn, [1.0] * fp + [0.0] * tn


def item3():
    rows = []
    for tp, fn, fp, tn in COUNTS:
        fpr, fnr = cp_upper(fp, fp + tn, ALPHA / 2), cp_upper(fn, tp + fn, ALPHA / 2)
        aud = auditing.CanaryScoreAuditor(*two_level_scores(tp, fn, fp, tn))
        for delta in (0.0, 1e-5):
            side = lambda x, y: math.log((1 - delta - y) / x) if 1 - delta - y > 0 else 0.0
            one, two = max(0.0, side(fpr, fnr)), max(0.0, side(fpr, fnr), side(fnr, fpr))
            jax = [aud.epsilon_clopper_pearson(ALPHA, delta, s, threshold_strategy=auditing.Explicit(0.5))
                   for s in (True, False)]
            rows.append({"inputs": {"tp": tp, "fn": fn, "fp": fp, "tn": tn, "alpha": ALPHA, "delta": delta},
                         "fpr_ub": f(fpr), "fnr_ub": f(fnr),
                         "epsilon_two_sided": f(two), "epsilon_one_sided": f(one),
                         "computed_by": "independent (scipy.stats.beta.ppf)",
                         "source": "CP_up(k,n,a) = BetaInv(1-a; k+1, n-k), 1 if k = n; each bound at alpha/2; "
                                   "eps = max(0, ln((1-delta-FNR_ub)/FPR_ub), ln((1-delta-FPR_ub)/FNR_ub)) "
                                   "(two-sided; one-sided keeps the first); Jagielski et al. 2020, Nasr et al. 2021",
                         "check": {"mpmath_fpr_ub": f(cp_upper_mp(fp, fp + tn, ALPHA / 2)),
                                   "mpmath_fnr_ub": f(cp_upper_mp(fn, tp + fn, ALPHA / 2)),
                                   "jax_privacy epsilon_clopper_pearson(0.05, delta, one_sided, Explicit(0.5)) on 0/1 scores":
                                   {"one_sided": f(jax[0]), "two_sided": f(jax[1])}}})
    return rows


def item4(delta=1e-5):
    rows = [{"inputs": {"mu": 1.0, "delta": 1e-2}, "epsilon": f(gdp_epsilon(1, 1e-2)), "expected": 2.317789,
             "computed_by": "independent (mpmath bisection)", "source": "Dong, Roth & Su 2019 Cor. 2.13",
             "check": {"dp_accounting.get_epsilon_gaussian(1, 1e-2)": f(dp_accounting.get_epsilon_gaussian(1, 1e-2))}}]
    for tp, fn, fp, tn in COUNTS:
        fpr, fnr = cp_upper(fp, fp + tn, ALPHA / 2), cp_upper(fn, tp + fn, ALPHA / 2)
        mu = stats.norm.isf(fpr) - stats.norm.ppf(fnr) if max(fpr, fnr) < 1 - delta else 0.0
        aud = auditing.CanaryScoreAuditor(*two_level_scores(tp, fn, fp, tn))
        n_thr = len(aud._fn_counts)
        _, fr_fn, fr_tn = frontier_counts(*map(np.array, two_level_scores(tp, fn, fp, tn)))
        mus, lvl = [], ALPHA / (2 * n_thr)
        for fn_k, tn_k in zip(fr_fn, fr_tn):
            fpr_k, fnr_k = cp_upper(fp + tn - tn_k, fp + tn, lvl), cp_upper(fn_k, tp + fn, lvl)
            if max(fpr_k, fnr_k) < 1 - delta:
                mus.append(stats.norm.isf(fpr_k) - stats.norm.ppf(fnr_k))
        mu_b = max(mus, default=0.0)
        rows.append({"inputs": {"tp": tp, "fn": fn, "fp": fp, "tn": tn, "alpha": ALPHA, "delta": delta},
                     "single_threshold": {"fpr_ub": f(fpr), "fnr_ub": f(fnr), "mu": f(mu),
                                          "epsilon": f(gdp_epsilon(mu, delta)),
                                          "note": "one pre-chosen threshold: each CP bound at alpha/2; mu <= 0 gives 0"},
                     "jax_style_bonferroni": {"frontier_thresholds_N": n_thr, "cp_level": f(lvl),
                                              "mu": f(mu_b), "epsilon": f(gdp_epsilon(mu_b, delta)),
                                              "jax_privacy_2.0.0_epsilon_from_gdp": f(aud.epsilon_from_gdp(ALPHA, delta))},
                     "computed_by": "independent (scipy CP bounds, mpmath GDP->eps); jax_privacy on 0/1 scores as check",
                     "source": "Nasr et al. 2023 (arXiv:2302.07956) mu = Phi^-1(1-FPR_ub) - Phi^-1(FNR_ub); "
                               "Dong, Roth & Su 2019 Cor. 2.13 for eps(mu, delta)"})
    return rows


def item5(delta=1e-5):
    rows = []
    for q, sigma, T in [(0.01, 1.0, 100), (0.1, 1.0, 10), (0.004, 1.1, 1000)]:
        eps, detail = last_iterate_epsilon(q, sigma, T, delta)
        k = np.arange(T + 1)
        b = stats.binom.pmf(k, T, q)
        keep = b > 1e-30
        mix = pld_lib.from_mixture_gaussian_mechanism(math.sqrt(T) * sigma, list(k[keep].astype(float)),
                                                      list(b[keep] / b[keep].sum()))
        dpsgd = pld_lib.from_gaussian_mechanism(sigma, sampling_prob=q).self_compose(T)
        rows.append({"inputs": {"q": q, "sigma": sigma, "T": T, "delta": delta},
                     "epsilon": eps, "directions": detail,
                     "computed_by": "independent (mpmath, 40 digits: exact hockey-stick via the crossing point, "
                                    "verified by mpmath.quad)",
                     "source": "Steinke et al., ICLR 2025 (last-iterate heuristic): P = N(0, T sigma^2), "
                               "Q = sum_k Bin(k;T,q) N(k, T sigma^2); eps = max of both directions",
                     "check": {"dp_accounting 0.6.0 from_mixture_gaussian_mechanism(sqrt(T) sigma, k, Bin pmf > 1e-30) "
                               "pessimistic, interval 1e-4 .get_epsilon_for_delta": f(mix.get_epsilon_for_delta(delta)),
                               "for_comparison_dpsgd_accountant_eps (from_gaussian_mechanism(sigma, q).self_compose(T))":
                               f(dpsgd.get_epsilon_for_delta(delta))}})
    return rows


def main():
    versions = {p: md.version(p) for p in ("jax_privacy", "dp-accounting", "scipy", "numpy", "mpmath")}
    versions["python"] = platform.python_version()
    result = {
        "generated_by": "scripts/reference/audit_reference.py", "versions": versions,
        "notes": {"one_run": ONE_RUN_NOTES,
                  "gdp_abs_mu": "jax_privacy 2.0.0 (PyPI) epsilon_from_gdp takes max |mu|; upstream fixed this in "
                                "commit aab3e1c ('Fix epsilon_from_gdp lower-bound estimation'): mu <= 0 gives 0. "
                                "The independent values here never take |mu|.",
                  "format": "inf is written as the string \"inf\""},
        "one_run": item1(), "jax_privacy_tests": item2(), "clopper_pearson": item3(),
        "gdp": item4(), "last_iterate": item5(),
    }
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
