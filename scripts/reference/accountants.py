"""Reference values for native Rust tests of the privacy accountants.

Writes tests/reference/accountants.rs (Rust `pub const` arrays) and
scripts/reference/accountants.json (the same numbers plus timings, error estimates
and cross-checks). Dev tool only, never a runtime dependency:

    pip install dp-accounting==0.6.0 mpmath scipy numpy
    python3 scripts/reference/accountants.py          # from the repository root, ~11 min on 2 cores
    python3 scripts/reference/accountants.py --rust-from-json   # only rewrite the .rs from the JSON

Each table carries #[rustfmt::skip], so cargo fmt leaves the generated layout alone and a
regeneration from unchanged numbers gives the same bytes.

Tools and versions: Google's dp_accounting 0.6.0 (PyPI), mpmath 1.3.0 at 50 significant
digits, scipy / numpy (only for float cross-checks). The versions actually used are
printed and written to both output files.

Tables (field order is the tuple order in the Rust file):

1. PLD_DP_ACCOUNTING (list, delta, eps_pessimistic, eps_optimistic): dp_accounting's
   dp_accounting.pld.privacy_loss_distribution with value_discretization_interval = 1e-4,
   each entry built by a from_*_mechanism constructor, k-fold by .self_compose(k), entries
   joined by .compose(), then .get_epsilon_for_delta(delta) (for asymmetric PLDs this is
   already the max over the remove and add directions).
     lap:e*k        from_laplace_mechanism(parameter = 1/e, sensitivity = 1)
     gauss:s*k      from_gaussian_mechanism(standard_deviation = s, sensitivity = 1)
     rr:e*k         from_randomized_response(noise_parameter = 2/(1+e^e), num_buckets = 2)
     rr:e:K*k       from_randomized_response(noise_parameter = K/(e^e+K-1), num_buckets = K)
                    (neighboring_relation = REPLACE_ONE, its default: x replaced by x')
     sgauss:q:s*k   from_gaussian_mechanism(standard_deviation = s, sampling_prob = q,
                    neighboring_relation = ADD_OR_REMOVE_ONE (default), log_mass_truncation_bound
                    = -50 (default)): PLD pair (remove, add); epsilon = max of the two.
   Pessimistic side: pessimistic_estimate = True with use_connect_dots = True (the default,
   "connect the dots"). Optimistic side: pessimistic_estimate = False with use_connect_dots =
   False ("privacy buckets"), because dp_accounting 0.6.0's connect-the-dots does not support
   optimistic rounding (it warns and falls back to privacy buckets; we ask for it explicitly).
   The optimistic value is a lower estimate of the PLD discretisation only: it is NOT a
   certified lower bound on the true epsilon (the Gaussian's truncated tail mass, 1e-50-ish,
   is dropped on that side). Cases slower than 180 s are skipped (none in the run recorded
   in the JSON; see `timings_s` there).

2. KOV_EXACT (eps0, k, delta, eps_exact): optimal composition of k eps0-DP mechanisms
   (Kairouz, Oh, Viswanath 2015) = privacy profile of the k-fold binary randomized
   response pair P = (p, 1-p), Q = (1-p, p), p = e^eps0/(1+e^eps0):
       delta(eps) = sum_l C(k,l) [p^(k-l)(1-p)^l - e^eps p^l (1-p)^(k-l)]_+ ,
   the smallest real eps with delta(eps) <= delta, by bisection in mpmath (50 digits) on
   [0, k*eps0] to an absolute width of 1e-30. Only the l with positive terms are summed,
   from the largest such l downwards, by the ratio recursion of the binomial pmf; the sum is
   stopped when a geometric bound on all remaining terms is below 1e-40 of the partial sum
   (terms below 1e-40 relative are dropped). Cross-checks: the closed form on the segment
   found (delta = A_j - e^eps B_j, eps = ln((A_j - delta)/B_j), KOV Thm 3.3) and a float
   scipy.stats.binom + brentq solve; both differences are in the JSON.

3. RDP_FRACTIONAL_EXACT (q, sigma, alpha, rdp) and RDP_FRACTIONAL_EXACT_REVERSE: exact
   Renyi divergences of one Poisson-subsampled Gaussian step, P = (1-q)N(0,s^2) + qN(1,s^2),
   Q = N(0,s^2): D_a(P||Q) = ln A_a/(a-1), A_a = int phi_s(z) ((1-q) + q e^((2z-1)/(2s^2)))^a dz,
   and D_a(Q||P) with exponent (1-a) in place of a. mpmath.quad (tanh-sinh) at 50 digits
   with the line split at the centres 0, 1/2, 1, z0 = s^2 ln((1-q)/q) + 1/2 and the
   integrand's peak (a, or 1-a for the reverse), each +-(3, 6, 12) s; checked against
   Gauss-Legendre on the same pieces each cut in 2. The larger of |difference| and
   mpmath's own error estimate, as a relative error of the divergence (floored at 1e-48, the
   working precision), is written per row (Rust comment and JSON `err_rel`). Rows whose value overflows or exceeds 1e3 would be
   skipped; none does at these settings.

4. RDP_DP_ACCOUNTING_FRACTIONAL (q, sigma, alpha, rdp): dp_accounting 0.6.0's own per-step RDP,
   dp_accounting.rdp.rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma,
   [alpha]), which for non-integer alpha sums the series of _compute_log_a_frac (Mironov,
   Talwar, Zhang 2019, arXiv:1908.10530 Sec. 3.3); inf (it gives up after 1000 terms) is
   written f64::INFINITY, nan f64::NAN. Its _log_comb takes log|C(alpha, i)| (scipy gammaln), so
   the alternating signs of C(alpha, i) for i > alpha are lost: it sums absolute values, an
   upper bound that is loose at small alpha (+27% at q = 0.1, sigma = 1.1, alpha = 1.5) and
   diverges to its inf (1000 terms) where q is large or sigma small; the signed series
   reproduces the quadrature. Where it is below the exact value it is by float rounding only
   (at most 3.4e-12 relative, q = 0.01, sigma = 2, alpha = 32.5).

5. DPSGD_SIGMA_FOR_EPS_PLD (q, steps, delta, target_eps, sigma):
   dp_accounting.calibrate_dp_mechanism(PLDAccountant (ADD_OR_REMOVE_ONE, interval 1e-4),
   lambda s: SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(s)), steps),
   target_eps, delta, ExplicitBracketInterval(0.3, 50), tol = 1e-4). Wall time, number of
   accountant evaluations and the PLD epsilon at the returned sigma are in comments / JSON.
   Abadi et al. 2016 MNIST: q = 256/60000, steps = 14063 (60 epochs of 234.375 batches,
   rounded up; scripts/reference/dpsgd.py uses 14062).

6. ZCDP_CONTINUOUS_ALPHA (rho, delta, eps_grid, eps_continuous): for the rho-zCDP curve
   eps(a) = rho a, the conversion eps = eps(a) + ln(1 - 1/a) - ln(delta a)/(a - 1)
   (Canonne, Kamath, Steinke 2020, Prop. 12, as in dp_accounting's compute_epsilon),
   minimised over dp_accounting's DEFAULT_RDP_ORDERS (1 + x/10 for x = 1..99, 11..63, 128,
   256, 512, 1024), evaluated in mpmath -> eps_grid, and over all real a > 1 -> eps_continuous.
   The derivative is rho + ln(delta a)/(a-1)^2, so the optimum is the unique root of
   rho (a-1)^2 + ln(delta a) = 0 (found by mpmath.findroot, bracketed, 50 digits).
   dp_accounting's float compute_epsilon on the grid is compared in the JSON.
"""
import json
import math
import os
import signal
import sys
import time
import warnings
from importlib.metadata import version

import mpmath as mp
import numpy as np
from scipy import optimize, stats

import dp_accounting
from dp_accounting import dp_event as E
from dp_accounting.pld import pld_privacy_accountant as pld_acc
from dp_accounting.pld import privacy_loss_distribution as pldlib
from dp_accounting.rdp import rdp_privacy_accountant as rdp

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RS_PATH = os.path.join(ROOT, "tests", "reference", "accountants.rs")
JSON_PATH = os.path.join(ROOT, "scripts", "reference", "accountants.json")
VERSIONS = {p: version(p) for p in ("dp-accounting", "mpmath", "scipy", "numpy")}
VERSIONS["python"] = sys.version.split()[0]
mp.mp.dps = 50
INTERVAL = 1e-4
SLOW_S = 180


def log(*a):
    print(*a, flush=True)


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


signal.signal(signal.SIGALRM, _alarm)


def timed(fn, limit=SLOW_S):
    """(result, seconds) or (None, seconds) when over the limit."""
    t0 = time.time()
    signal.alarm(limit)
    try:
        r = fn()
    except Slow:
        r = None
    finally:
        signal.alarm(0)
    return r, time.time() - t0


# ---------------------------------------------------------------- 1. PLD ----------
PLD_CASES = [
    ("lap:0.01*100000", [1e-5, 1e-8]),
    ("lap:0.1*10", [1e-5]),
    ("lap:1*10", [1e-5]),
    ("lap:0.3*1000", [1e-5]),
    ("gauss:3*10,lap:0.2*5", [1e-5]),
    ("rr:1*10", [1e-5]),
    ("rr:0.5*1000", [1e-5]),
    ("rr:1:4*20", [1e-5]),
    ("rr:2:10*5", [1e-5]),
    ("sgauss:0.01:1*10000", [1e-5]),
    ("sgauss:0.01:1*100000", [1e-5]),
    ("sgauss:0.004266666666666667:1.1*14063", [1e-5]),
    ("sgauss:0.1:0.6*10000", [1e-5]),
    ("gauss:1*1", [1e-5]),
    ("gauss:0.5*100", [1e-5]),
]


def entry_pld(entry, pess):
    body, k = entry.split("*")
    kind, *ps = body.split(":")
    common = dict(pessimistic_estimate=pess, value_discretization_interval=INTERVAL)
    if kind == "lap":
        d = pldlib.from_laplace_mechanism(1.0 / float(ps[0]), sensitivity=1, use_connect_dots=pess, **common)
    elif kind == "gauss":
        d = pldlib.from_gaussian_mechanism(float(ps[0]), sensitivity=1, use_connect_dots=pess, **common)
    elif kind == "rr":
        eps = float(ps[0])
        K = int(ps[1]) if len(ps) > 1 else 2
        p = K / (math.exp(eps) + K - 1)  # = 2/(1+e^eps) for K = 2
        d = pldlib.from_randomized_response(noise_parameter=p, num_buckets=K, **common)
    elif kind == "sgauss":
        q, s = float(ps[0]), float(ps[1])
        d = pldlib.from_gaussian_mechanism(s, sensitivity=1, sampling_prob=q, use_connect_dots=pess,
                                           neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE,
                                           **common)
    else:
        raise ValueError(entry)
    k = int(k)
    return d if k == 1 else d.self_compose(k)


def list_pld(spec, pess):
    out = None
    for entry in spec.split(","):
        d = entry_pld(entry, pess)
        out = d if out is None else out.compose(d)
    return out


def run_pld():
    rows, skipped = [], []
    for spec, deltas in PLD_CASES:
        res = {}
        for pess in (True, False):
            def one():
                composed = list_pld(spec, pess)
                return [composed.get_epsilon_for_delta(d) for d in deltas]

            r, dt = timed(one)
            res[pess] = (r, dt)
        if res[True][0] is None or res[False][0] is None:
            skipped.append(spec)
            log(f"PLD {spec}: SKIPPED (over {SLOW_S} s)")
            continue
        for i, d in enumerate(deltas):
            row = dict(list=spec, delta=d, eps_pessimistic=res[True][0][i], eps_optimistic=res[False][0][i],
                       seconds_pessimistic=res[True][1], seconds_optimistic=res[False][1])
            rows.append(row)
            log(f"PLD {spec} δ={d}: pess {row['eps_pessimistic']!r} ({res[True][1]:.2f} s), "
                f"opt {row['eps_optimistic']!r} ({res[False][1]:.2f} s)")
    return rows, skipped


# ---------------------------------------------------------------- 2. KOV ----------
KOV_CASES = [(0.1, 100), (0.01, 100000), (1.0, 10), (0.5, 1000), (0.01, 1000000), (0.001, 1000000), (2.0, 3)]
KOV_DELTAS = [1e-5, 1e-10]
DROP_REL = mp.mpf("1e-40")


class Kov:
    def __init__(self, eps0, k):
        self.k = k
        self.e0 = mp.mpf(eps0)
        self.p = mp.exp(self.e0) / (1 + mp.exp(self.e0))
        self.lp, self.l1p = mp.log(self.p), mp.log(1 - self.p)
        self.odds = self.p / (1 - self.p)  # C(k,l-1)/C(k,l) * p/(1-p) = P(l-1)/P(l) * (k-l+1)/l

    def logpmf(self, l):  # P-probability of l "flips": C(k,l) p^(k-l) (1-p)^l
        k = self.k
        return mp.loggamma(k + 1) - mp.loggamma(l + 1) - mp.loggamma(k - l + 1) + (k - l) * self.lp + l * self.l1p

    def top(self, eps):
        """Largest l with (k - 2l) eps0 > eps, or -1."""
        L = int(mp.ceil((self.k - eps / self.e0) / 2)) - 1
        while L >= 0 and (self.k - 2 * L) * self.e0 <= eps:
            L -= 1
        while L + 1 <= self.k and (self.k - 2 * (L + 1)) * self.e0 > eps:
            L += 1
        return min(L, self.k)

    def sums(self, L):
        """A = sum_{l<=L} P(l), B = sum_{l<=L} P(l) e^{-(k-2l) eps0} (= Q-probability), truncated."""
        if L < 0:
            return mp.mpf(0), mp.mpf(0), 0
        P = mp.exp(self.logpmf(L))
        w = mp.exp(-(self.k - 2 * L) * self.e0)
        w_step = mp.exp(2 * self.e0)  # going l -> l-1 multiplies e^{-(k-2l)e0} by e^{-2e0}
        A, B, n = mp.mpf(0), mp.mpf(0), 0
        l = L
        while l >= 0:
            A += P
            B += P * w
            n += 1
            if l == 0:
                break
            r = l * self.odds / (self.k - l + 1)  # P(l-1)/P(l); decreases as l decreases
            if r < 1 and P * r / (1 - r) < DROP_REL * A:
                break
            P *= r
            w /= w_step
            l -= 1
        return A, B, n

    def delta(self, eps):
        A, B, _ = self.sums(self.top(eps))
        return A - mp.exp(eps) * B

    def eps_for(self, delta):
        delta = mp.mpf(delta)
        lo, hi = mp.mpf(0), self.k * self.e0
        if self.delta(lo) <= delta:
            return lo, lo
        while hi - lo > mp.mpf("1e-30"):
            mid = (lo + hi) / 2
            if self.delta(mid) <= delta:
                hi = mid
            else:
                lo = mid
        eps = hi
        A, B, _ = self.sums(self.top(eps))
        closed = mp.log((A - delta) / B)
        return eps, closed


def kov_float(eps0, k, delta):
    p = math.exp(eps0) / (1 + math.exp(eps0))
    l = np.arange(k + 1)
    lp = stats.binom.logpmf(l, k, 1 - p)
    loss = (k - 2 * l) * eps0

    def f(e):
        m = loss > e
        return float(np.sum(np.exp(lp[m]) * -np.expm1(e - loss[m]))) - delta

    if f(0.0) <= 0:
        return 0.0
    return optimize.brentq(f, 0.0, k * eps0, xtol=1e-14, rtol=1e-15, maxiter=500)


def run_kov():
    rows = []
    for eps0, k in KOV_CASES:
        kv = Kov(eps0, k)
        for d in KOV_DELTAS:
            t0 = time.time()
            eps, closed = kv.eps_for(d)
            dt = time.time() - t0
            ef = kov_float(eps0, k, d)
            _, _, nterms = kv.sums(kv.top(eps))
            row = dict(eps0=eps0, k=k, delta=d, eps_exact=float(eps), eps_exact_50=mp.nstr(eps, 40),
                       closed_form_minus_bisection=float(closed - eps), scipy_float=ef,
                       scipy_minus_exact=ef - float(eps), terms_summed=nterms, seconds=dt)
            rows.append(row)
            log(f"KOV eps0={eps0} k={k} δ={d}: {float(eps)!r} (closed−bisect {float(closed - eps):.1e}, "
                f"scipy−exact {ef - float(eps):.1e}, {nterms} terms, {dt:.1f} s)")
    return rows


# ------------------------------------------------------- 3./4. fractional RDP ----------
RDP_Q = [0.1, 0.01, 0.004266666666666667, 0.5]
RDP_S = [0.6, 1.0, 1.1, 2.0]
RDP_A = [1.1, 1.25, 1.5, 1.6, 2.5, 3.7, 10.5, 32.5]
RDP_LIMIT = 1e3


def log_a_exact(q, s, a, reverse):
    q, s, a = mp.mpf(q), mp.mpf(s), mp.mpf(a)
    e = (1 - a) if reverse else a
    s2 = s * s

    def f(z):
        return mp.npdf(z, 0, s) * ((1 - q) + q * mp.exp((2 * z - 1) / (2 * s2))) ** e

    z0 = s2 * mp.log((1 - q) / q) + mp.mpf(1) / 2
    peak = e  # phi_s(z) e^{e (2z-1)/(2 s^2)} peaks at z = e
    centres = [mp.mpf(0), mp.mpf(1) / 2, mp.mpf(1), z0, peak]
    pts = sorted({c + m * s for c in centres for m in (-12, -6, -3, 0, 3, 6, 12)})
    ts, ts_err = mp.quad(f, [-mp.inf] + pts + [mp.inf], error=True)
    fine = []
    for x0, x1 in zip(pts[:-1], pts[1:]):
        fine += [x0, (x0 + x1) / 2]
    fine.append(pts[-1])
    gl = mp.quad(f, [-mp.inf] + fine + [mp.inf], method="gauss-legendre")
    div_ts = mp.log(ts) / (a - 1)
    div_gl = mp.log(gl) / (a - 1)
    # relative error of the divergence, floored at the working precision (50 digits)
    err = max(abs(div_ts - div_gl) / abs(div_ts), abs(ts_err / ts) / abs(mp.log(ts)), mp.mpf('1e-48'))
    return div_ts, err


def run_rdp():
    fwd, rev, acc, skipped = [], [], [], []
    for q in RDP_Q:
        for s in RDP_S:
            for a in RDP_A:
                t0 = time.time()
                rows = {}
                for reverse in (False, True):
                    try:
                        d, err = log_a_exact(q, s, a, reverse)
                        val = float(d)
                    except (OverflowError, ValueError, ZeroDivisionError):
                        val, err = math.inf, mp.mpf(0)
                    if not math.isfinite(val) or val > RDP_LIMIT:
                        skipped.append(dict(q=q, sigma=s, alpha=a, reverse=reverse, value=val))
                        rows[reverse] = None
                        continue
                    rows[reverse] = dict(q=q, sigma=s, alpha=a, rdp=val, rdp_50=mp.nstr(d, 30),
                                         err_rel=float(err))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        ours = float(rdp._compute_rdp_poisson_subsampled_gaussian(q, s, [a])[0])
                    except (OverflowError, ValueError, ZeroDivisionError):
                        ours = math.nan
                acc.append(dict(q=q, sigma=s, alpha=a, rdp=ours))
                if rows[False] is not None:
                    fwd.append(rows[False])
                if rows[True] is not None:
                    rev.append(rows[True])
                ex = rows[False]["rdp"] if rows[False] else math.nan
                rv = rows[True]["rdp"] if rows[True] else math.nan
                log(f"RDP q={q} σ={s} α={a}: exact {ex!r}, reverse {rv!r}, dp_accounting {ours!r} "
                    f"(rel {(ours - ex) / ex:+.2e}) [{time.time() - t0:.1f} s]")
    return fwd, rev, acc, skipped


# ---------------------------------------------------------- 5. σ for target ε ----------
CAL_CASES = [(256 / 60000, 14063, 1e-5, 1.0), (256 / 60000, 14063, 1e-5, 2.0), (256 / 60000, 14063, 1e-5, 8.0),
             (0.01, 10000, 1e-5, 1.0), (0.01, 10000, 1e-5, 4.0)]


def dpsgd_event(q, steps):
    return lambda s: E.SelfComposedDpEvent(E.PoissonSampledDpEvent(q, E.GaussianDpEvent(s)), steps)


def pld_eps(q, steps, s, delta):
    a = pld_acc.PLDAccountant()
    a.compose(dpsgd_event(q, steps)(s))
    return a.get_epsilon(delta)


def run_calibrate():
    rows = []
    for q, steps, d, target in CAL_CASES:
        calls = [0]
        make = dpsgd_event(q, steps)

        def counted(s):
            calls[0] += 1
            return make(s)

        t0 = time.time()
        s = dp_accounting.calibrate_dp_mechanism(
            pld_acc.PLDAccountant, counted, target, d,
            bracket_interval=dp_accounting.ExplicitBracketInterval(0.3, 50.0), tol=1e-4)
        dt = time.time() - t0
        achieved = pld_eps(q, steps, s, d)
        rows.append(dict(q=q, steps=steps, delta=d, target_eps=target, sigma=float(s), seconds=dt,
                         evaluations=calls[0], eps_at_sigma=achieved))
        log(f"calibrate q={q} steps={steps} δ={d} ε={target}: σ = {s!r} ({dt:.1f} s, {calls[0]} evaluations, "
            f"ε(σ) = {achieved!r})")
    return rows


# --------------------------------------------------------------------- 6. zCDP ----------
ZCDP_RHO = [0.001, 0.01, 0.1, 1.0, 10.0]
ZCDP_DELTAS = [1e-5, 1e-10]


def zcdp_eps(rho, delta, a):
    return rho * a + mp.log1p(-1 / a) - mp.log(delta * a) / (a - 1)


def run_zcdp():
    orders = rdp.DEFAULT_RDP_ORDERS
    rows = []
    for rho in ZCDP_RHO:
        for d in ZCDP_DELTAS:
            R, D = mp.mpf(rho), mp.mpf(d)
            grid = [(zcdp_eps(R, D, mp.mpf(a)), a) for a in orders]
            eg, ag = min(grid)
            dpa_eps, dpa_order = rdp.compute_epsilon(orders, [rho * a for a in orders], d)
            g = lambda a: R * (a - 1) ** 2 + mp.log(D * a)
            hi = 1 + mp.sqrt(-mp.log(D) / R) + 1
            astar = mp.findroot(g, (mp.mpf(1) + mp.mpf("1e-30"), hi), solver="anderson")
            ec = zcdp_eps(R, D, astar)
            # sanity: a continuous minimum is never above the grid one
            assert ec <= eg + mp.mpf("1e-40"), (rho, d)
            rows.append(dict(rho=rho, delta=d, eps_grid=float(eg), grid_order=ag, eps_continuous=float(ec),
                             alpha_star=float(astar), dp_accounting_compute_epsilon=float(dpa_eps),
                             dp_accounting_order=float(dpa_order)))
            log(f"zCDP ρ={rho} δ={d}: grid {float(eg)!r} (α={ag}), continuous {float(ec)!r} (α*={float(astar):.6g}), "
                f"dp_accounting {dpa_eps!r} (α={dpa_order})")
    return rows


# ------------------------------------------------------------------- output ----------
def lit(x):
    x = float(x)
    if math.isnan(x):
        return "f64::NAN"
    if math.isinf(x):
        return "f64::INFINITY" if x > 0 else "f64::NEG_INFINITY"
    return repr(x)


def jsonable(x):
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [jsonable(v) for v in x]
    return x


def rust_table(name, ty, doc, rows, fmt):
    out = [f"/// {line}" if line else "///" for line in doc]
    out.append("#[rustfmt::skip]")
    out.append(f"pub const {name}: &[{ty}] = &[")
    for r in rows:
        body, comment = fmt(r)
        out.append(f"    ({body}),{'  // ' + comment if comment else ''}")
    out.append("];")
    return "\n".join(out) + "\n"


def write_rust(pld_rows, kov_rows, fwd, rev, acc, cal, zc, versions):
    v = versions
    head = [
        "// generated by scripts/reference/accountants.py, do not edit.",
        f"// Sources: dp_accounting {v['dp-accounting']} (Google, PyPI) for PLD_DP_ACCOUNTING,",
        "// RDP_DP_ACCOUNTING_FRACTIONAL and DPSGD_SIGMA_FOR_EPS_PLD; mpmath "
        f"{v['mpmath']} at 50 digits for KOV_EXACT",
        "// (Kairouz-Oh-Viswanath 2015), RDP_FRACTIONAL_EXACT(_REVERSE) (quadrature) and ZCDP_CONTINUOUS_ALPHA",
        "// (Canonne-Kamath-Steinke 2020 Prop. 12). Python "
        f"{v['python']}, scipy {v['scipy']}, numpy {v['numpy']} for cross-checks only.",
        "// Method and caveats: the docstring of scripts/reference/accountants.py; the same numbers with",
        "// timings, error estimates and cross-checks: scripts/reference/accountants.json.",
        "",
    ]
    parts = ["\n".join(head)]
    parts.append(rust_table(
        "PLD_DP_ACCOUNTING", "(&str, f64, f64, f64)",
        ["(list, delta, eps_pessimistic, eps_optimistic): dp_accounting privacy_loss_distribution, interval 1e-4;",
         "pessimistic = connect-the-dots, optimistic = privacy buckets (not a certified lower bound).",
         "`lap:e*k` b = 1/e; `gauss:s*k`; `rr:e*k`, `rr:e:K*k` replace-one; `sgauss:q:s*k` add-or-remove (max of both)."],
        pld_rows,
        lambda r: (f"{json.dumps(r['list'])}, {lit(r['delta'])}, {lit(r['eps_pessimistic'])}, {lit(r['eps_optimistic'])}",
                   f"{r['seconds_pessimistic']:.2f} s + {r['seconds_optimistic']:.2f} s")))
    parts.append(rust_table(
        "KOV_EXACT", "(f64, u64, f64, f64)",
        ["(eps0, k, delta, eps_exact): optimal k-fold composition of pure eps0-DP (Kairouz-Oh-Viswanath 2015),",
         "smallest real eps with delta(eps) <= delta, mpmath 50 digits (terms below 1e-40 relative dropped)."],
        kov_rows,
        lambda r: (f"{lit(r['eps0'])}, {r['k']}, {lit(r['delta'])}, {lit(r['eps_exact'])}", None)))
    parts.append(rust_table(
        "RDP_FRACTIONAL_EXACT", "(f64, f64, f64, f64)",
        ["(q, sigma, alpha, rdp): exact D_alpha(P||Q), P = (1-q)N(0,s^2) + qN(1,s^2), Q = N(0,s^2), one step;",
         "mpmath.quad at 50 digits; comment = estimated relative error."],
        fwd, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {lit(r['alpha'])}, {lit(r['rdp'])}",
                        f"rel err {r['err_rel']:.0e}")))
    parts.append(rust_table(
        "RDP_FRACTIONAL_EXACT_REVERSE", "(f64, f64, f64, f64)",
        ["(q, sigma, alpha, rdp): exact D_alpha(Q||P), same P, Q and method as RDP_FRACTIONAL_EXACT."],
        rev, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {lit(r['alpha'])}, {lit(r['rdp'])}",
                        f"rel err {r['err_rel']:.0e}")))
    parts.append(rust_table(
        "RDP_DP_ACCOUNTING_FRACTIONAL", "(f64, f64, f64, f64)",
        [f"(q, sigma, alpha, rdp): dp_accounting {v['dp-accounting']} "
         "_compute_rdp_poisson_subsampled_gaussian at fractional alpha (series of arXiv:1908.10530 Sec. 3.3)."],
        acc, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {lit(r['alpha'])}, {lit(r['rdp'])}", None)))
    parts.append(rust_table(
        "DPSGD_SIGMA_FOR_EPS_PLD", "(f64, u64, f64, f64, f64)",
        ["(q, steps, delta, target_eps, sigma): dp_accounting.calibrate_dp_mechanism with PLDAccountant (1e-4),",
         "Poisson-sampled Gaussian self-composed `steps` times, bracket [0.3, 50], tol 1e-4."],
        cal, lambda r: (f"{lit(r['q'])}, {r['steps']}, {lit(r['delta'])}, {lit(r['target_eps'])}, {lit(r['sigma'])}",
                        f"{r['seconds']:.1f} s, {r['evaluations']} evaluations, eps at sigma {r['eps_at_sigma']!r}")))
    parts.append(rust_table(
        "ZCDP_CONTINUOUS_ALPHA", "(f64, f64, f64, f64)",
        ["(rho, delta, eps_grid, eps_continuous): min over alpha of rho*alpha + ln(1-1/alpha) - ln(delta*alpha)/(alpha-1)",
         "(Canonne-Kamath-Steinke 2020 Prop. 12) on dp_accounting's default orders and over all real alpha > 1."],
        zc, lambda r: (f"{lit(r['rho'])}, {lit(r['delta'])}, {lit(r['eps_grid'])}, {lit(r['eps_continuous'])}",
                       f"grid alpha {r['grid_order']}, alpha* {r['alpha_star']:.6g}")))
    text = "\n".join(parts)
    os.makedirs(os.path.dirname(RS_PATH), exist_ok=True)
    with open(RS_PATH, "w") as f:
        f.write(text)
    check_rust(text)


def check_rust(text):
    """Small syntax sanity check of the generated file (it is not compiled here)."""
    import re
    code = "\n".join(l.split("//")[0] if not l.lstrip().startswith("//") else "" for l in text.splitlines())
    # strings contain no brackets or '//' in our data; check balance
    for o, c in ("()", "[]", "{}"):
        assert code.count(o) == code.count(c), (o, c)
    num = r"(?:-?\d+(?:\.\d+(?:e[-+]?\d+)?|e[-+]?\d+)|f64::INFINITY|f64::NEG_INFINITY|f64::NAN)"  # f64: never a bare integer
    shapes = {
        "PLD_DP_ACCOUNTING": rf'"[a-z0-9:.*,]+", {num}, {num}, {num}',
        "KOV_EXACT": rf"{num}, \d+, {num}, {num}",
        "RDP_FRACTIONAL_EXACT": rf"{num}, {num}, {num}, {num}",
        "RDP_FRACTIONAL_EXACT_REVERSE": rf"{num}, {num}, {num}, {num}",
        "RDP_DP_ACCOUNTING_FRACTIONAL": rf"{num}, {num}, {num}, {num}",
        "DPSGD_SIGMA_FOR_EPS_PLD": rf"{num}, \d+, {num}, {num}, {num}",
        "ZCDP_CONTINUOUS_ALPHA": rf"{num}, {num}, {num}, {num}",
    }
    blocks = re.findall(r"pub const (\w+): &\[\(([^\]]*)\)\] = &\[\n(.*?)\n\];", code, re.S)
    assert [b[0] for b in blocks] == list(shapes), [b[0] for b in blocks]
    for name, _, body in blocks:
        lines = [l.strip() for l in body.splitlines() if l.strip()]
        assert lines, name
        for l in lines:
            assert re.fullmatch(rf"\({shapes[name]}\),", l), (name, l)
    log(f"syntax check of {os.path.relpath(RS_PATH, ROOT)}: {len(blocks)} tables, "
        f"{sum(len([x for x in b[2].splitlines() if x.strip()]) for b in blocks)} rows OK")


def rust_from_json():
    with open(JSON_PATH) as f:
        d = json.load(f)
    rows = [d[k]["rows"] for k in ("PLD_DP_ACCOUNTING", "KOV_EXACT", "RDP_FRACTIONAL_EXACT",
                                   "RDP_FRACTIONAL_EXACT_REVERSE", "RDP_DP_ACCOUNTING_FRACTIONAL",
                                   "DPSGD_SIGMA_FOR_EPS_PLD", "ZCDP_CONTINUOUS_ALPHA")]
    write_rust(*rows, d["versions"])  # lit() reads the JSON's "inf" / "nan" strings back as floats
    log(f"wrote {RS_PATH} from {JSON_PATH}")


def main():
    if "--rust-from-json" in sys.argv[1:]:
        return rust_from_json()
    log("versions:", VERSIONS)
    t_all = time.time()
    pld_rows, pld_skipped = run_pld()
    kov_rows = run_kov()
    fwd, rev, acc, rdp_skipped = run_rdp()
    cal = run_calibrate()
    zc = run_zcdp()
    data = {
        "generated_by": "scripts/reference/accountants.py",
        "versions": VERSIONS,
        "notes": "inf / nan are written as the strings \"inf\" / \"nan\"; field meanings and methods: the "
                 "script's docstring",
        "PLD_DP_ACCOUNTING": {"rows": pld_rows, "skipped_over_180_s": pld_skipped},
        "KOV_EXACT": {"rows": kov_rows},
        "RDP_FRACTIONAL_EXACT": {"rows": fwd, "skipped_overflow_or_over_1e3": rdp_skipped},
        "RDP_FRACTIONAL_EXACT_REVERSE": {"rows": rev},
        "RDP_DP_ACCOUNTING_FRACTIONAL": {"rows": acc},
        "DPSGD_SIGMA_FOR_EPS_PLD": {"rows": cal},
        "ZCDP_CONTINUOUS_ALPHA": {"rows": zc},
    }
    with open(JSON_PATH, "w") as f:
        json.dump(jsonable(data), f, indent=1, allow_nan=False)
        f.write("\n")
    write_rust(pld_rows, kov_rows, fwd, rev, acc, cal, zc, VERSIONS)
    log(f"wrote {RS_PATH} and {JSON_PATH} in {time.time() - t_all:.0f} s")


if __name__ == "__main__":
    main()
