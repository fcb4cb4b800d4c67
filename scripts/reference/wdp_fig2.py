"""Independent reference implementation of "Figure 2" of the spec shared/specs/wdp-figures.md
(Yang, Qi, Zhou, "Wasserstein Differential Privacy", AAAI 2024): synthetic gradients, moments
accountant (DP) vs Bayesian accountant (BDP) vs Wasserstein accountant (WDP).

Written from the spec's "Figure 2" section only (spec steps 1-7 are cited inline). Dev tool:
    pip install --break-system-packages numpy scipy && python3 scripts/reference/wdp_fig2.py

It first asserts the spec's "Unit vector" and "Raw absolute moments" check values, then runs the
experiment: T = 100 steps of 50x1000 Weibull(0.5) gradients, p in {0.05, 0.5, 0.75, 0.99}, clipping
on/off, 20 seeds (0..19). For each seed one generator numpy.random.default_rng(seed) draws the T
matrices in step order; the same matrix is used for every quantile and clip mode within a step
(common random numbers). Prints mean and std (ddof = 0) across seeds of the final epsilon (after
T steps) and the mean final W = sum_t w_t (sum rule); writes the same to wdp_fig2.json next to
this file, with the mean epsilon curves.
"""
import json
import math
import os

import numpy as np
from scipy.spatial.distance import pdist
from scipy.special import gammaln, hyp1f1, logsumexp
from scipy.stats import t as student_t

# Spec constants (Figure 2).
T = 100
N_ROWS, DIM = 50, 1000
Q = 1e-3
SIGMA = 0.2
DELTA = 1e-5
LAM = 16      # order for DP and BDP
MU = 16.0     # order for WDP
BETA = 1.0
QUANTILES = (0.05, 0.5, 0.75, 0.99)
SEEDS = range(20)


# ---------------------------------------------------------------- shared: ln E_k[exp(k(k-1) x)]
def log_binom_pmf(n, q):
    k = np.arange(n + 1)
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1) + k * np.log(q) + (n - k) * np.log1p(-q)


def moment_c(x, q=Q, lam=LAM):
    """c = ln sum_{k=0}^{lam+1} Binom(k; lam+1, q) exp(k(k-1) x), vectorised over x (x = d^2/(2 s^2))."""
    x = np.asarray(x, dtype=float)
    k = np.arange(lam + 2)
    terms = log_binom_pmf(lam + 1, q) + k * (k - 1) * x[..., None]
    return logsumexp(terms, axis=-1)


# ---------------------------------------------------------------- step 5: DP (moments accountant)
def dp_step(q=Q, sigma=SIGMA, lam=LAM):
    """Data-independent: distance fixed at 2 C_t, so d^2/(2 sigma^2 C_t^2) = 4/(2 sigma^2) (= 50)."""
    return float(moment_c(4.0 / (2.0 * sigma ** 2), q, lam))


# ---------------------------------------------------------------- step 6: BDP (Triastcyn & Faltings)
TPPF_CACHE = {}


def bdp_step(d, C, q=Q, sigma=SIGMA, lam=LAM, T=T):
    c_ab = moment_c(np.asarray(d) ** 2 / (2.0 * sigma ** 2 * C ** 2), q, lam)
    L = T * c_ab
    n = L.size
    lmm = logsumexp(L) - math.log(n)
    if np.std(L) < np.finfo(float).eps:
        return lmm / T
    M = L.max()
    s = np.exp(2 * L - 2 * M).sum() - n * math.exp(2 * lmm - 2 * M)  # = sum_ab [e^{2L-2M} - e^{2 lmm-2M}]
    if not s > 0:  # rounding can make the spread vanish; then the penalty is -inf
        return lmm / T
    lsd = 0.5 * (2 * M - math.log(n) + math.log(s))
    if n not in TPPF_CACHE:
        TPPF_CACHE[n] = student_t.ppf(1 - 2.0 ** -53, n - 1)
    pen = math.log(TPPF_CACHE[n]) + lsd - 0.5 * math.log(n - 1)
    return float(np.logaddexp(lmm, pen)) / T


# ---------------------------------------------------------------- step 7: WDP
def log_hyp1f1_neg(a, b, x):
    """ln 1F1(a; b; -x) for x >= 0 via Kummer: 1F1(a; b; -x) = e^{-x} 1F1(b-a; b; x) (all-positive series
    when b - a > 0); for x where hyp1f1 overflows, the asymptotic Gamma(b)/Gamma(b-a) e^x x^{-a}."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore"):
        f = hyp1f1(b - a, b, x)
    out = np.where(np.isfinite(f) & (f > 0), np.log(np.where(np.isfinite(f) & (f > 0), f, 1.0)), np.nan)
    big = ~np.isfinite(out)
    if big.any():
        xb = x[big]
        out[big] = gammaln(b) - gammaln(b - a) + xb - a * np.log(xb)
    return out - x


def log_abs_moment(mu, m, s2):
    """ln E|Z|^mu, Z ~ N(m, s2): (2 s2)^{mu/2} Gamma((mu+1)/2)/sqrt(pi) 1F1(-mu/2; 1/2; -m^2/(2 s2))."""
    m = np.asarray(m, dtype=float)
    return (mu / 2) * np.log(2 * s2) + gammaln((mu + 1) / 2) - 0.5 * math.log(math.pi) \
        + log_hyp1f1_neg(-mu / 2, 0.5, m ** 2 / (2 * s2))


def wdp_log_moments(d, C, q=Q, sigma=SIGMA, mu=MU):
    var = (2 - 2 * q + 2 * q * q) * sigma ** 2 * C ** 2
    return log_abs_moment(mu, q * np.asarray(d, dtype=float), var)


def wdp_step(d, C, q=Q, sigma=SIGMA, mu=MU, rule="sum"):
    """w_t = (sum_pairs m_ab)^{1/mu} ("sum", what the published code does) or min_pairs m_ab^{1/mu} ("inf")."""
    lm = wdp_log_moments(d, C, q, sigma, mu)
    return float(np.exp((logsumexp(lm) if rule == "sum" else lm.min()) / mu))


def eps_rdp(total, delta=DELTA, lam=LAM):
    return (total - math.log(delta)) / lam


def eps_wdp(W, delta=DELTA, beta=BETA):
    return W - math.log(delta) / beta


# ---------------------------------------------------------------- spec check values
def check():
    def close(got, want, tol):
        assert abs(got - want) <= tol * max(1.0, abs(want)), (got, want)

    for (mu, m, s), want in [((1, 0, 1), 0.7978845608), ((2, 1, 1), 2), ((2.5, 0.3, 0.7), 0.6225557135),
                             ((4, 2, 0.5), 22.1875), ((7.3, 3, 1.5), 53395.55677), ((16, 1.0, 0.4), 2692.931538)]:
        close(float(np.exp(log_abs_moment(mu, m, s * s))), want, 1e-9)

    d = np.array([1.0, 1.5, 2.0, 0.5, 1.2, 1.8])
    c_ab = moment_c(d ** 2 / (2 * SIGMA ** 2))
    for got, want in zip(c_ab, [3282.568160, 7532.568160, 13482.568160, 732.568160, 4778.568160, 10898.568160]):
        close(float(got), want, 1e-9)
    c = dp_step()
    close(c, 13482.568160257, 1e-12)
    assert abs(TPPF_CACHE.setdefault(6, student_t.ppf(1 - 2.0 ** -53, 5)) - 2434.2914303699) < 1e-6
    assert abs(student_t.ppf(1 - 2.0 ** -53, 1224) - 8.325592199579301) < 1e-9
    b = bdp_step(d, 1.0)
    close(b, 13482.628220880, 1e-12)
    w = wdp_step(d, 1.0)
    close(w, 0.78369417265, 1e-10)
    close(eps_rdp(c), 843.38007, 1e-8)
    close(eps_rdp(b), 843.38382, 1e-8)
    close(eps_wdp(w), 12.29661964, 1e-9)
    close(wdp_step(d, 1.0, q=0.1, mu=2.5), 0.67828416, 1e-8)
    close(wdp_step(d, 1.0, q=0.5, mu=4.0), 1.35081278, 1e-8)
    close(wdp_step(d, 1.0, q=0.05, mu=16.0), 0.78783765, 1e-8)
    print("spec check values: OK")


# ---------------------------------------------------------------- experiment (steps 1-4)
MODES = [(p, clip) for p in QUANTILES for clip in (True, False)]


def run_seed(seed):
    """Per-step costs for every (p, clip): arrays of shape (T,) for bdp, wdp_sum, wdp_inf."""
    rng = np.random.default_rng(seed)
    out = {m: {"bdp": np.empty(T), "wsum": np.empty(T), "winf": np.empty(T)} for m in MODES}
    for t in range(T):
        G = rng.weibull(0.5, size=(N_ROWS, DIM))               # step 1
        norms = np.linalg.norm(G, axis=1)
        d_raw = None
        for p in QUANTILES:
            C = float(np.quantile(norms, p))                    # step 2 (numpy default: linear)
            for clip in (True, False):
                if clip:                                        # step 3
                    d = pdist(G / np.maximum(1.0, norms / C)[:, None])   # step 4
                else:
                    if d_raw is None:
                        d_raw = pdist(G)
                    d = d_raw
                r = out[(p, clip)]
                r["bdp"][t] = bdp_step(d, C)
                lm = wdp_log_moments(d, C)
                r["wsum"][t] = math.exp(logsumexp(lm) / MU)
                r["winf"][t] = math.exp(lm.min() / MU)
    return out


def main():
    check()
    dp_c = dp_step()
    steps = np.arange(1, T + 1)
    dp_curve = eps_rdp(steps * dp_c)
    runs = [run_seed(s) for s in SEEDS]

    results = []
    hdr = f"{'p':>5} {'clip':>4} | {'DP':>10} | {'BDP mean':>12} {'std':>9} | {'WDP(sum)':>10} {'std':>8} | " \
          f"{'WDP(inf)':>10} {'std':>8} | {'W(sum)':>9}"
    print(f"final epsilon after T = {T} steps, {len(runs)} seeds (mean, std across seeds, ddof=0)")
    print(hdr)
    print("-" * len(hdr))
    for p, clip in MODES:
        bdp = np.array([np.cumsum(r[(p, clip)]["bdp"]) for r in runs])
        wsum = np.array([np.cumsum(r[(p, clip)]["wsum"]) for r in runs])
        winf = np.array([np.cumsum(r[(p, clip)]["winf"]) for r in runs])
        e_bdp, e_ws, e_wi = eps_rdp(bdp), eps_wdp(wsum), eps_wdp(winf)
        row = {
            "p": p, "clip": clip,
            "dp": {"mean": float(dp_curve[-1]), "std": 0.0},
            "bdp": {"mean": float(e_bdp[:, -1].mean()), "std": float(e_bdp[:, -1].std())},
            "wdp_sum": {"mean": float(e_ws[:, -1].mean()), "std": float(e_ws[:, -1].std())},
            "wdp_inf": {"mean": float(e_wi[:, -1].mean()), "std": float(e_wi[:, -1].std())},
            "W_sum_mean": float(wsum[:, -1].mean()),
            "W_inf_mean": float(winf[:, -1].mean()),
            "final_per_seed": {"bdp": e_bdp[:, -1].tolist(), "wdp_sum": e_ws[:, -1].tolist(),
                               "wdp_inf": e_wi[:, -1].tolist()},
            "mean_curve": {"bdp": e_bdp.mean(0).tolist(), "wdp_sum": e_ws.mean(0).tolist(),
                           "wdp_inf": e_wi.mean(0).tolist()},
        }
        results.append(row)
        print(f"{p:5.2f} {'on' if clip else 'off':>4} | {row['dp']['mean']:10.3f} | "
              f"{row['bdp']['mean']:12.4f} {row['bdp']['std']:9.3g} | "
              f"{row['wdp_sum']['mean']:10.5f} {row['wdp_sum']['std']:8.2g} | "
              f"{row['wdp_inf']['mean']:10.5f} {row['wdp_inf']['std']:8.2g} | {row['W_sum_mean']:9.5f}")

    doc = {
        "spec": "/work/shared/specs/wdp-figures.md, Figure 2",
        "constants": {"T": T, "rows": N_ROWS, "dim": DIM, "q": Q, "sigma": SIGMA, "delta": DELTA,
                      "lambda": LAM, "mu": MU, "beta": BETA, "seeds": list(SEEDS)},
        "rng": "numpy.random.default_rng(seed).weibull(0.5, size=(50, 1000)) drawn once per step, in step order; "
               "same matrix for every quantile and clip mode",
        "std": "population std across seeds (ddof = 0)",
        "curve_index": "index s = epsilon after s+1 steps",
        "dp_step_c": dp_c,
        "dp_curve": dp_curve.tolist(),
        "results": results,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wdp_fig2.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
