"""Reference values for privacy amplification by shuffling of K-ary randomized response (K-RR).

Dev tool only, never a runtime dependency. From the repository root (~75 s on one core):

    ~/.cache/dp-playground/venv/bin/pip install mpmath        # numpy, scipy are already there
    ~/.cache/dp-playground/venv/bin/python scripts/reference/shuffle_reference.py

Writes scripts/reference/shuffle_reference.json. Every number is computed by this script's own code
from the formulas below ("independent"); no shuffle-accounting package is used. p = e^eps0 throughout.

1. Upper bounds: the two-count pair. Each of the other n-1 users is independently a "0-clone" w.p. r,
   a "1-clone" w.p. r, else a blanket; user 1 outputs (0, 1, blanket) w.p. (p a, a, 1 - a - p a) under
   P and (a, p a, 1 - a - p a) under Q. Observation (N0, N1) = counts of 0s and 1s.
   delta(eps) = max(D(P||Q), D(Q||P)), D(P||Q) = sum_{N0,N1} [P - e^eps Q]_+. Pairs (each an upper
   bound on the shuffled K-RR's delta):
     fmt2021: a = 1/(p+1), r = e^-eps0/2 (the pair apple/ml-shuffling-amplification's numericalanalysis
              evaluates: clone count C ~ Bin(n-1, e^-eps0)); fmt2023: a = r = 1/(p+1) (= krr at K = 2);
     krr: a = r = 1/(p+K-1). Papers: SOURCES below, also written into every JSON row.
   Two ways: "brute" = the double sum over every (N0, N1), N0 + N1 <= n, in mpmath at 40 digits (n <= 200);
   "fast" = for fixed m = N0 + N1, P(N0 = k) = w B_m b_m(k) + p a B'_m b_{m-1}(k-1) + a B'_m b_{m-1}(k),
   w = 1 - a - p a, B_m = Bin(m; n-1, 2r), B'_m = B_{m-1}, b_m = Bin(.; m, 1/2); P - e^eps Q is linear
   and increasing in k, so D(P||Q) (resp. D(Q||P)) is a sum over m of upper (lower) binomial tails,
   scipy.stats.binom.sf/cdf in float64; clone counts outside mean +- 15 sd + 10 are dropped (their
   mass, an upper bound on the error, is recorded as "dropped_mass"). At n = 1000 the eps bracket ends
   are re-checked by a float64 double sum with log-multinomial pmfs ("brute_np_delta_at_bracket_*").
2. Lower bound (K = 2): the exact delta of ONE neighbouring pair of binary RR, x1 in {0,1}, every other
   user's true bit 0; count of ones = Bern(s) (P) or Bern(1-s) (Q) + Bin(n-1, 1/(p+1)), s = p/(p+1).
   delta(eps) = max of both directions of sum_k [P(k) - e^eps Q(k)]_+. brute: direct sum over k (mpmath
   for n <= 200, float64 scipy logpmf otherwise); fast: tails (the ratio is monotone in k).
3. closed: FMT 2021 Thm 3.1 as apple/ml-shuffling-amplification closedformanalysis evaluates it:
   A = 8 sqrt(p ln(4/delta)/n), c = 8p/n, e' = ln(1+A+c), eps = ln(1 + (1-1/p)/(1+e^(-eps0-e')) (A+c)),
   valid only for eps0 <= ln(n/(16 ln(4/delta))), otherwise eps0 (field "valid").
Small-n rows: "delta" = the brute value (max of both directions), except 0.0 where eps >= eps0 (every pair here
has likelihood ratio <= e^eps0, so delta(eps0) = 0 exactly; brute/fast then show only rounding noise, 1e-48 / 1e-22).
eps at delta: bisection on [0, eps0] with the fast delta until hi - lo <= 1e-10 hi. Upper bounds report
eps = hi (delta(hi) <= delta < delta(lo)); the lower bound reports eps = lo (delta(lo) >= delta > delta(hi)).
"""

import importlib.metadata as md
import itertools
import json
import math
import platform
import sys
import time
from pathlib import Path

import mpmath as mp
import numpy as np
from scipy import special, stats

mp.mp.dps = 40
RUST = Path(__file__).resolve().parents[2] / 'tests' / 'reference' / 'shuffle.rs'
OUT = Path(__file__).with_name("shuffle_reference.json")
SOURCES = {"fmt2021": "Feldman, McMillan & Talwar, FOCS 2021, 'Hiding among the clones' (arXiv:2012.12803)",
           "fmt2023": "Feldman, McMillan & Talwar, SODA 2023, 'Stronger privacy amplification by shuffling' "
                      "(arXiv:2208.04591)",
           "krr": "S. Wang et al., VLDB 2024, 'Privacy amplification via shuffling: unified, simplified, and "
                  "tightened' (arXiv:2304.05007), variation-ratio pair of K-RR",
           "lower": "exact delta of one binary-RR neighbouring pair (x1 in {0,1}, others 0); a lower bound, K = 2",
           "closed": "FMT 2021 Thm 3.1, apple/ml-shuffling-amplification computeamplification.py closedformanalysis"}


def pair(bound, eps0, K, exp=math.exp):
    """(a, r, w): w = 1 - a - p a written exactly (0 for fmt*), so delta(eps0) = 0 holds without rounding noise."""
    p = exp(eps0)
    return {"fmt2021": (1 / (p + 1), 1 / (2 * p), 0), "fmt2023": (1 / (p + 1), 1 / (p + 1), 0),
            "krr": (1 / (p + K - 1), 1 / (p + K - 1), (K - 2) / (p + K - 1))}[bound]


def brute_upper(n, eps0, bound, K, eps_list):
    """mpmath double sum over all (N0, N1); returns {eps: (D(P||Q), D(Q||P))} and sum P - 1."""
    p = mp.exp(eps0)
    a, r, w = pair(bound, mp.mpf(eps0), K, mp.exp)
    N = n - 1
    M = [[mp.binomial(N, i) * mp.binomial(N - i, j) * r ** (i + j) * (1 - 2 * r) ** (N - i - j)
          for j in range(N + 1 - i)] for i in range(N + 1)]
    get = lambda i, j: M[i][j] if i >= 0 and j >= 0 and i + j <= N else 0
    P = [w * get(i, j) + p * a * get(i - 1, j) + a * get(i, j - 1) for i in range(n + 1) for j in range(n + 1 - i)]
    Q = [w * get(i, j) + a * get(i - 1, j) + p * a * get(i, j - 1) for i in range(n + 1) for j in range(n + 1 - i)]
    res = {e: (mp.fsum(max(0, x - mp.exp(e) * y) for x, y in zip(P, Q)),
               mp.fsum(max(0, y - mp.exp(e) * x) for x, y in zip(P, Q))) for e in eps_list}
    return res, float(mp.fsum(P) - 1)


class FastUpper:
    """Two-count pair by binomial tails over m = N0 + N1 (float64, scipy)."""

    def __init__(self, n, eps0, a, r, w):
        self.p, self.a, self.w = math.exp(eps0), a, w
        q, N = 2 * r, n - 1
        mu, sd = N * q, math.sqrt(N * q * (1 - q))
        clo, chi = max(0, math.floor(mu - 15 * sd - 10)), min(N, math.ceil(mu + 15 * sd + 10))
        self.m = m = np.arange(max(clo, 1), chi + 2, dtype=float)
        self.B = np.where(m <= chi, stats.binom.pmf(m, N, q), 0.0)
        self.Bp = np.where(m - 1 >= clo, stats.binom.pmf(m - 1, N, q), 0.0)
        self.dropped = float(stats.binom.cdf(clo - 1, N, q) + stats.binom.sf(chi, N, q))

    def delta(self, eps):
        t, p, a, w, m, B, Bp = math.exp(eps), self.p, self.a, self.w, self.m, self.B, self.Bp
        beta = 2 * Bp / m * a * (p - 1) * (1 + t)          # slope in k = N0 of (P - tQ), and of -(Q - tP)
        with np.errstate(divide="ignore", invalid="ignore"):
            ks = np.where(beta > 0, np.ceil(-((1 - t) * w * B + 2 * Bp * (a - t * p * a)) / beta), m + 1)
            kq = np.where(beta > 0, np.floor(((1 - t) * w * B + 2 * Bp * (p * a - t * a)) / beta), -1)
        ks, kq = np.clip(ks, 0, m + 1), np.clip(kq, -1, m)
        s0, s1, s2 = (stats.binom.sf(ks - 1, m, .5), stats.binom.sf(ks - 2, m - 1, .5),
                      stats.binom.sf(ks - 1, m - 1, .5))
        d_pq = np.sum(w * B * s0 * (1 - t) + Bp * (p * a * s1 + a * s2) - t * Bp * (a * s1 + p * a * s2))
        c0, c1, c2 = (stats.binom.cdf(kq, m, .5), stats.binom.cdf(kq - 1, m - 1, .5),
                      stats.binom.cdf(kq, m - 1, .5))
        d_qp = np.sum(w * B * c0 * (1 - t) + Bp * (a * c1 + p * a * c2) - t * Bp * (p * a * c1 + a * c2))
        return float(d_pq), float(d_qp)


def brute_upper_np(n, eps0, a, r, w, eps):
    """float64 double sum over all (N0, N1) with log-multinomial pmfs (the n = 1000 bracket check)."""
    p, N, t = math.exp(eps0), n - 1, math.exp(eps)
    i, j = np.ogrid[0:n + 1, 0:n + 1]

    def M(i, j):
        ok, i, j = (i >= 0) & (j >= 0) & (i + j <= N), np.clip(i, 0, N), np.clip(j, 0, N)
        rest = np.clip(N - i - j, 0, N)
        lm = (special.gammaln(N + 1) - special.gammaln(i + 1) - special.gammaln(j + 1) - special.gammaln(rest + 1)
              + (i + j) * math.log(r) + rest * math.log1p(-2 * r))
        return np.where(ok, np.exp(lm), 0.0)
    m0, m1, m2 = M(i, j), M(i - 1, j), M(i, j - 1)
    P, Q = w * m0 + p * a * m1 + a * m2, w * m0 + a * m1 + p * a * m2
    return float(np.maximum(P - t * Q, 0).sum()), float(np.maximum(Q - t * P, 0).sum())


def lower_terms(n, eps0, exp, pmf):
    p = exp(eps0)
    s, q = p / (p + 1), 1 / (p + 1)
    b = [pmf(k, n - 1, q) for k in range(n + 1)]
    P = [s * (b[k - 1] if k else 0) + (1 - s) * b[k] for k in range(n + 1)]
    Q = [(1 - s) * (b[k - 1] if k else 0) + s * b[k] for k in range(n + 1)]
    return P, Q


def brute_lower_mp(n, eps0, eps_list):
    pmf = lambda k, N, q: mp.binomial(N, k) * q ** k * (1 - q) ** (N - k) if k <= N else mp.mpf(0)
    P, Q = lower_terms(n, mp.mpf(eps0), mp.exp, pmf)
    return {e: (mp.fsum(max(0, x - mp.exp(e) * y) for x, y in zip(P, Q)),
                mp.fsum(max(0, y - mp.exp(e) * x) for x, y in zip(P, Q))) for e in eps_list}


def brute_lower_np(n, eps0, eps):
    p = math.exp(eps0)
    s, k = p / (p + 1), np.arange(n + 1)
    b0, b1 = stats.binom.pmf(k, n - 1, 1 / (p + 1)), stats.binom.pmf(k - 1, n - 1, 1 / (p + 1))
    P, Q, t = s * b1 + (1 - s) * b0, (1 - s) * b1 + s * b0, math.exp(eps)
    return float(np.maximum(P - t * Q, 0).sum()), float(np.maximum(Q - t * P, 0).sum())


def fast_lower(n, eps0, eps):
    p, t = math.exp(eps0), math.exp(eps)
    s, q, N = p / (p + 1), 1 / (p + 1), n - 1
    d_pq = d_qp = 0.0
    if s - t * (1 - s) > 0:   # P - tQ >= 0  <=>  T_k = b(k-1)/b(k) = k(1-q)/((n-k)q) >= Ts
        Ts = (t * s - (1 - s)) / (s - t * (1 - s))
        ks = math.ceil(Ts * q * n / ((1 - q) + Ts * q))
        sa, sb = stats.binom.sf(ks - 2, N, q), stats.binom.sf(ks - 1, N, q)
        d_pq = s * sa + (1 - s) * sb - t * ((1 - s) * sa + s * sb)
        Tq = 1 / Ts               # Q - tP >= 0  <=>  T_k <= Tq
        kq = math.floor(Tq * q * n / ((1 - q) + Tq * q))
        ca, cb = stats.binom.cdf(kq - 1, N, q), stats.binom.cdf(kq, N, q)
        d_qp = (1 - s) * ca + s * cb - t * (s * ca + (1 - s) * cb)
    return float(d_pq), float(d_qp)


def closed(n, eps0, delta):
    if eps0 > math.log(n / (16 * math.log(4 / delta))):
        return eps0, False
    A, c = 8 * math.sqrt(math.exp(eps0) * math.log(4 / delta) / n), 8 * math.exp(eps0) / n
    e = math.log(1 + A + c)
    return math.log(1 + (1 - math.exp(-eps0)) / (1 + math.exp(-eps0 - e)) * (A + c)), True


def bisect(f, delta, hi, upper):
    lo = 0.0
    if f(0.0) <= delta:
        return 0.0, [0.0, 0.0]
    while hi - lo > 1e-10 * hi:
        mid = (lo + hi) / 2
        if (f(mid) > delta) if upper else (f(mid) >= delta):
            lo = mid
        else:
            hi = mid
    return (hi if upper else lo), [lo, hi]


def small_n():
    rows, cache = [], {}
    worst = {"brute_vs_fast": 0.0, "pq_vs_qp": 0.0, "fast_pq_vs_qp": 0.0, "sum_P_minus_1": 0.0}
    for n, eps0, K, bound in itertools.product((50, 200), (1.0, 3.0), (2, 5), ("fmt2021", "fmt2023", "krr", "lower")):
        if bound == "lower" and K != 2:
            continue
        key = (n, eps0, bound if bound != "krr" else f"krr{K}")
        if key not in cache and bound == "lower":
            cache[key] = (brute_lower_mp(n, eps0, (0.5, 1.0)), lambda e, n=n, eps0=eps0: fast_lower(n, eps0, e), 0.0)
        elif key not in cache:
            br, sum_err = brute_upper(n, eps0, bound, K, (0.5, 1.0))
            worst["sum_P_minus_1"] = max(worst["sum_P_minus_1"], abs(sum_err))
            fu = FastUpper(n, eps0, *pair(bound, eps0, K))
            cache[key] = (br, fu.delta, fu.dropped)
        br, fast, dropped = cache[key]
        for e in (0.5, 1.0):
            b, f = [float(x) for x in br[e]], fast(e)
            diff = max(abs(b[0] - f[0]), abs(b[1] - f[1]))
            worst["brute_vs_fast"] = max(worst["brute_vs_fast"], diff)
            if bound != "lower":
                worst["pq_vs_qp"] = max(worst["pq_vs_qp"], abs(b[0] - b[1]))
                worst["fast_pq_vs_qp"] = max(worst["fast_pq_vs_qp"], abs(f[0] - f[1]))
            rows.append({"n": n, "eps0": eps0, "K": K, "bound": bound, "source": SOURCES[bound], "eps": e,
                         "delta": 0.0 if e >= eps0 else max(b), "delta_brute_pq_qp": b, "delta_fast_pq_qp": list(f),
                         "brute_mp40": mp.nstr(max(br[e]), 25), "abs_diff_brute_fast": diff, "dropped_mass": dropped})
    return rows, worst


def eps_table():
    rows, cache = [], {}
    settings = ([(100000, 4.0, 2)] + [(n, 2.0, K) for n in (1000, 10000, 10**6) for K in (2, 10)]
                + [(10**7, 1.0, 2), (10**7, 2.0, 10)])
    for (n, eps0, K), bound in itertools.product(settings, ("fmt2021", "fmt2023", "krr", "closed", "lower")):
        if bound == "lower" and K != 2:
            continue
        delta, up = 1e-6, bound != "lower"
        row = {"n": n, "eps0": eps0, "delta": delta, "K": K, "bound": bound, "source": SOURCES[bound]}
        key = (n, eps0, bound) if bound in ("lower", "closed") else (n, eps0) + pair(bound, eps0, K)
        if key not in cache and bound == "closed":
            eps, valid = closed(n, eps0, delta)
            cache[key] = (eps, {"valid": valid})
        elif key not in cache:
            t0 = time.time()
            fu = FastUpper(n, eps0, *pair(bound, eps0, K)) if up else None
            f2 = fu.delta if up else (lambda e: fast_lower(n, eps0, e))
            eps, br = bisect(lambda e: max(f2(e)), delta, eps0, up)
            extra = {"bracket": br, "delta_at_bracket_lo_pq_qp": list(f2(br[0])),
                     "delta_at_bracket_hi_pq_qp": list(f2(br[1]))}
            if not up:
                extra["brute_delta_at_eps_pq_qp"] = list(brute_lower_np(n, eps0, eps))
            else:
                extra["dropped_mass"] = fu.dropped
            if up and n <= 1000:
                extra.update({f"brute_np_delta_at_bracket_{s}_pq_qp": list(brute_upper_np(
                    n, eps0, *pair(bound, eps0, K), br[i])) for i, s in ((0, "lo"), (1, "hi"))})
            extra["seconds"] = round(time.time() - t0, 2)
            cache[key] = (eps, extra)
        row["eps"], extra = cache[key]
        row.update(extra)
        rows.append(row)
        print(f"n={n} eps0={eps0} K={K} {bound:8s} eps={row['eps']!r}")
    return rows


def main():
    t0 = time.time()
    small, worst = small_n()
    print(f"small-n table: {time.time() - t0:.1f} s, worst {worst}")
    big = eps_table()
    apple = {"published_closed_form": 0.5378040242374512, "this_script": closed(100000, 4.0, 1e-6)[0],
             "apple_numerical_bracket": [0.16754, 0.17279],
             "note": "apple's numericalanalysis uses C ~ Bin(n-1, e^-eps0), i.e. the fmt2021 pair, 10 bisection "
                     "steps on [0, closed form], step = 100; its bracket should contain fmt2021"}
    for r in big:
        if r["n"] == 100000 and r["bound"] in ("fmt2021", "fmt2023"):
            apple[r["bound"] + "_inside_bracket"] = 0.16754 <= r["eps"] <= 0.17279
    versions = {p: md.version(p) for p in ("scipy", "numpy", "mpmath")}
    versions["python"] = platform.python_version()
    OUT.write_text(json.dumps({"generated_by": "scripts/reference/shuffle_reference.py", "versions": versions,
                               "computed_by": "independent (this script, from the formulas in its docstring)",
                               "sources": SOURCES, "notes": __doc__, "small_n_delta": small,
                               "small_n_checks": worst, "eps_at_delta": big, "apple_check": apple,
                               "seconds": round(time.time() - t0, 1)}, indent=1) + "\n")
    print(json.dumps(apple, indent=1))
    print(f"wrote {OUT} in {time.time() - t0:.1f} s")


def write_rust(data):
    """The values as Rust constants for tests/shuffle_reference.rs (tests/reference/shuffle.rs)."""
    def bound(r):
        return {"fmt2021": "Fmt2021", "fmt2023": "Fmt2023", "krr": "Krr", "lower": "Lower", "closed": "Closed"}[r["bound"]]
    lines = ["// Generated by scripts/reference/shuffle_reference.py from shuffle_reference.json: do not edit.",
             "use super::Bound;",
             "// (n, ε0, K, bound, ε, δ(ε)) from the 40-digit double sum over every (N0, N1).",
             "pub const SMALL_N_DELTA: &[(u64, f64, u64, Bound, f64, f64)] = &["]
    for r in data["small_n_delta"]:
        lines.append(f"    ({r['n']}, {r['eps0']!r}, {r['K']}, Bound::{bound(r)}, {r['eps']!r}, {float(r['brute_mp40'])!r}),")
    lines += ["];", "// (n, ε0, K, δ, bound, bracket lo, bracket hi) of ε at δ.",
              "pub const EPS_AT_DELTA: &[(u64, f64, u64, f64, Bound, f64, f64)] = &["]
    for r in data["eps_at_delta"]:
        lo, hi = r.get("bracket", [r["eps"], r["eps"]])
        lines.append(f"    ({r['n']}, {r['eps0']!r}, {r['K']}, {r['delta']!r}, Bound::{bound(r)}, {lo!r}, {hi!r}),")
    lines.append("];")
    RUST.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    if "--rust-only" not in sys.argv:
        main()
    write_rust(json.loads(OUT.read_text()))
