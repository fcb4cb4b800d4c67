"""Reference values for native Rust tests of the attack lab (membership-inference risk from DP).

Writes tests/reference/attack.rs (Rust `pub const` arrays) and scripts/reference/attack.json
(the same numbers plus timings, cross-checks and diagnostics). Dev tool only, never a runtime
dependency:

    pip install riskcal==1.5.1 dp-accounting==0.6.0 mpmath scipy numpy
    python3 scripts/reference/attack.py                  # from the repository root, ~10 min on 2 cores
    python3 scripts/reference/attack.py --rust-from-json # only rewrite the .rs from the JSON

Each table carries #[rustfmt::skip], so cargo fmt leaves the generated layout alone.

Tools and versions: riskcal 1.5.1 (Kulynych, Gomez et al., PyPI; arXiv:2407.02191), which builds
on Google's dp_accounting 0.6.0 (PyPI); mpmath 1.3.0 at 50 significant digits; scipy / numpy for
cross-checks only. The versions actually used are printed and written to both output files.

What riskcal computes (read from its installed source, riskcal/calibration/dpsgd.py,
riskcal/analysis/conversions.py, riskcal/analysis/_plrv.py, riskcal/utils.py):

* The DP-SGD PLD. riskcal.calibration.dpsgd.get_beta_for_dpsgd / get_advantage_for_dpsgd /
  create_dpsgd_evaluator (and accountants.CTDAccountant.get_pld) all build
      dp_accounting.pld.privacy_loss_distribution.from_gaussian_mechanism(
          standard_deviation = sigma, sampling_prob = q, use_connect_dots = True,
          value_discretization_interval = grid_step).self_compose(steps)
  with riskcal's default grid_step = 1e-4 and dp_accounting's defaults for everything else:
  sensitivity 1, pessimistic_estimate = True, neighboring_relation = ADD_OR_REMOVE_ONE,
  log_mass_truncation_bound = -50, self_compose tail_mass_truncation = 1e-15. So: the
  PESSIMISTIC side, "connect the dots" discretisation, interval 1e-4, add/remove neighbours,
  Poisson subsampling. For q < 1 the PLD is asymmetric: a REMOVE pmf (loss ln(P/Q) under P,
  P = qN(-1, s^2) + (1-q)N(0, s^2), Q = N(0, s^2)) and an ADD pmf (loss ln(Q/P) under Q, up to a
  reflection); for q = 1 dp_accounting returns one symmetric pmf.

* beta(alpha) (FNR at FPR alpha), riskcal.analysis.get_beta_from_pld (= _plrv.get_beta on
  pld_to_plrvs(pld)): Neyman-Pearson on the discrete pair, Algorithm 1 of arXiv:2407.02191,
  with Y = the REMOVE pmf (loss under P) and X = minus the ADD pmf (loss ln(P/Q) under Q),
  negative entries clipped to 0 and each pmf renormalised to 1 - its infinity mass. For a
  threshold index t with coin gamma: alpha = Pr[X > x_t] + gamma Pr[X = x_t],
  beta = Pr[Y <= x_t] - gamma Pr[Y = x_t]. Asymmetric PLDs are symmetrised by Dong-Roth-Su
  (arXiv:1905.02383) Def. F.1: alpha_bar = Pr[X > 0], f(alpha_bar) = Pr[Y <= 0]; if
  alpha_bar <= f(alpha_bar) (true for every setting here), beta = f(alpha) below alpha_bar,
  alpha_bar + f(alpha_bar) - alpha in between, f^-1(alpha) above f(alpha_bar). All alphas used
  here (<= 0.1) are below alpha_bar (0.26 .. 0.45), so the tabled beta is riskcal's f(alpha)
  read from X (add pmf) and Y (remove pmf).

* advantage, riskcal.analysis.get_advantage_from_pld = pld.get_delta_for_epsilon(0)
  = max(delta_remove(0), delta_add(0)) = max over attacks of TPR - FPR (total variation),
  from the pessimistic PLD (an upper estimate).

* Bayes risk ("posterior" bound), riskcal.analysis.get_bayes_risk_from_pld(pld, prior)
  (Kulynych et al. 2025, arXiv:2507.06969, Prop. D.1 / Eq. 35):
      R(pi) = (1 - pi) * (1 - delta(ln(pi / (1 - pi)))),   delta = pld.get_delta_for_epsilon
  (max of the remove and add directions; negative epsilon for pi < 1/2). By convex duality
  (delta(eps) = 1 + f*(-e^eps)) this is  min over tests of  pi * alpha + (1 - pi) * beta  on
  the add/remove trade-off curve: the smallest error probability of ANY attacker that must
  tell the two worlds apart when the world "alpha is the error of" has prior pi. riskcal's
  docstring calls it "the maximum accuracy"; it is the minimum error: the maximum success
  (accuracy, = max posterior-guess success) of an attacker with prior pi is 1 - R(pi).
  For prior 1/2, R = (1 - advantage)/2. Baseline (no data): min(pi, 1 - pi). For a symmetric
  curve R(pi) = R(1 - pi); the Rust attack report's `posterior` ((1 - pi) + pi delta(ln((1-pi)/pi)))
  equals 1 - R(1 - pi) exactly, so both R(pi) and R(1 - pi) are in the JSON.

* Calibration, riskcal.calibration.dpsgd.find_noise_multiplier_for_advantage(advantage, q, steps)
  and find_noise_multiplier_for_err_rates(alpha, beta, q, steps), both with their defaults:
  grid_step 1e-4, noise bracket [0.1, 50], tolerance 1e-3 on the metric and 1e-3 on sigma
  (utils.inverse_monotone_function: plain bisection; its stop test re-evaluates the metric at
  a bracket end every iteration, so each iteration costs two PLD builds, plus an unused
  non-subsampled Gaussian PLD per evaluation in create_dpsgd_evaluator).
  Advantage: returns the UPPER bracket end, whose advantage is <= target (safe side).
  Err rates: target beta = 1 - target_tpr at alpha = fpr; beta increases with sigma
  (increasing = True) and it returns the LOWER bracket end, whose riskcal beta is <= target
  beta, i.e. TPR >= target (a hair on the unsafe side, within the 1e-3 tolerances). Its stop
  test evaluates the metric at the lower end, sigma = 0.1, on every iteration until the
  bracket moves: one such PLD (q = 256/60000, 14063 steps) is ~59 million points, ~40 s,
  ~4.5 GB, so the default call is run under a 180 s limit and, if skipped, re-run with
  noise_min = 0.5 (the only non-default; it moves the bisection's midpoints, not the method).

Tables (field order is the tuple order in the Rust file):

1. RISKCAL_DPSGD (q, sigma, steps, beta_at_0_001, beta_at_0_01, beta_at_0_1, advantage):
   get_beta_for_dpsgd(sigma, q, steps, alpha = [0.001, 0.01, 0.1]) and
   get_advantage_for_dpsgd(sigma, q, steps), defaults (grid_step 1e-4). Settings: Abadi et al.
   2016 MNIST (q = 256/60000, sigma 1.1, 14063 steps), (0.01, 1, 10000), (0.01, 1, 1000),
   (0.1, 2, 100), (1, 5, 10) (= Gaussian DP, mu = sqrt(10)/5, checked against the closed form),
   (0.004266666666666667, 2, 14063).

2. RISKCAL_SIGMA_FOR_ADVANTAGE (q, steps, target_advantage, sigma): find_noise_multiplier_for_
   advantage, defaults; wall time and evaluations in the comment / JSON.

3. RISKCAL_SIGMA_FOR_TPR (q, steps, fpr, target_tpr, sigma): find_noise_multiplier_for_err_rates
   (alpha = fpr, beta = 1 - target_tpr); see the calibration notes above for noise_min.

4. RISKCAL_POSTERIOR (q, sigma, steps, prior, bound): bound = get_bayes_risk_from_pld(pld, prior)
   = R(prior) above (minimum Bayes error; max attacker success = 1 - bound), on the PLD riskcal
   builds (defaults, as in 1.), priors 0.5 and 0.01, the first two settings of table 1.

5. GAUSSIAN_TRADEOFF (mu, alpha, beta): beta = Phi(Phi^-1(1 - alpha) - mu) (mu-GDP, Dong-Roth-Su
   2019 Eq. 6) in mpmath at 50 digits (Phi^-1(p) = sqrt(2) erfinv(2p - 1)), mu in {0.5, 1, 2, 4},
   alpha in {1e-6, 1e-3, 0.01, 0.1, 0.5}; scipy and riskcal.analysis.get_beta_from_gdp compared in
   the JSON.

6. PLD_TRADEOFF_CONJUGATE (q, sigma, steps, beta_at_0_001, beta_at_0_01, beta_at_0_1, advantage):
   NOT riskcal; a cross-check added because riskcal's small-alpha beta is not pessimistic (see
   below). The same dp_accounting PLD as riskcal (pessimistic, connect the dots, 1e-4), read
   only through its privacy profile delta(eps) = pld.get_delta_for_epsilon(eps) (max of remove
   and add):  beta(alpha) = max over eps in {-12, -12 + 1e-4, .., 12} of [1 - delta(eps) - e^eps alpha]_+,
   the convex conjugate (every eps gives a valid lower bound on the true add/remove trade-off
   min(f, f^-1)** when delta is an upper bound, so this is a lower estimate of beta = an upper
   estimate of attack power). advantage = delta(0) (same as riskcal's).

Why table 6 (checked in the JSON, `riskcal_vs_conjugate`): riskcal reads the attacker's FPR tail
Pr[X > x] from dp_accounting's ADD pmf. That pmf is pessimistic for delta_add(eps >= 0) but its far
lower tail (add losses below about -2, which no delta_add(eps >= 0) sees) carries spurious mass:
one step at q = 256/60000, sigma = 1.1 already has Pr_add[loss < -2] = 6.4e-9 at interval 1e-4
and 6.1e-7 at 1e-5 (true value ~1e-17; it grows like 1/interval^2, consistent with float
cancellation in the connect-the-dots weights), and sum p_add e^(-loss) exceeds 1 after
composition (1.002 at 1e-4, 1.24 at 1e-5 for MNIST). That inflates X's upper tail, pushes the
Neyman-Pearson threshold up and makes riskcal's beta at small alpha too LARGE (optimistic, attack
power understated): for MNIST, beta(0.001) = 0.99446 at 1e-4 and 0.9999999988 at 1e-5, while the
conjugate of the same PLDs gives 0.9939490 at 1e-4 and 0.9939494 at 1e-5. In the q = 1 (Gaussian DP)
row riskcal's beta(0.001) is 5e-8 above the closed form, the conjugate 2.5e-10 below it. The
Neyman-Pearson curve of the REMOVE pmf alone (Q mass = e^-loss P mass) reproduces the conjugate to
5e-10 for q < 1 (3e-8 for q = 1, whose symmetric pmf has sum p e^-loss = 1 + 1.5e-7).
The advantage uses delta(0) = max(remove, add) and is barely affected at 1e-4 (delta_add(0) -
delta_remove(0) = 1.3e-6 for MNIST; at 1e-5 it is 2.6e-4, the add side inflated).
The Bayes risk for prior 1/2 is (1 - advantage)/2. For prior 0.01 riskcal evaluates delta at
eps = -4.595, where the ADD side wins and is too large: for MNIST delta_add(-4.595) = 0.990060,
while the exact identity delta_add(eps) = 1 - e^eps + e^eps delta_remove(-eps) gives 0.989899, so
R(0.01) = 0.009841 whereas R(0.99) = 0.0099999999999952 and the remove-only form
min((1-pi)(1 - delta_R(eps)), pi (1 - delta_R(-eps))) = 0.00999999998 (true curve: R(pi) = R(1-pi)).
riskcal's prior-0.01 value is therefore too small (pessimistic, not tight); the JSON has R(1 - prior),
which is what the Rust report's `posterior` (evaluated at eps = ln((1-pi)/pi) > 0) corresponds to.
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
from scipy import stats

warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=RuntimeWarning)

from dp_accounting.pld import privacy_loss_distribution as pldlib  # noqa: E402
from riskcal import analysis as ra  # noqa: E402
from riskcal.calibration import dpsgd as rcd  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RS_PATH = os.path.join(ROOT, "tests", "reference", "attack.rs")
JSON_PATH = os.path.join(ROOT, "scripts", "reference", "attack.json")
VERSIONS = {p: version(p) for p in ("riskcal", "dp-accounting", "mpmath", "scipy", "numpy")}
VERSIONS["python"] = sys.version.split()[0]
mp.mp.dps = 50
GRID = 1e-4  # riskcal's default grid_step
FINE = 1e-5  # cross-check only
SLOW_S = 180
ALPHAS = [0.001, 0.01, 0.1]
MNIST_Q = 256 / 60000


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


def riskcal_pld(q, s, steps, grid=GRID, pessimistic=True):
    """The PLD exactly as riskcal builds it (get_beta_for_dpsgd, CTDAccountant.get_pld)."""
    if pessimistic:
        d = pldlib.from_gaussian_mechanism(standard_deviation=s, sampling_prob=q, use_connect_dots=True,
                                           value_discretization_interval=grid)
    else:  # privacy buckets, rounding down (dp_accounting's CTD has no optimistic mode)
        d = pldlib.from_gaussian_mechanism(standard_deviation=s, sampling_prob=q, use_connect_dots=False,
                                           pessimistic_estimate=False, value_discretization_interval=grid)
    return d if steps == 1 else d.self_compose(steps)


EPS_GRID = np.round(np.arange(-120000, 120001) * 1e-4, 10)  # -12 .. 12 step 1e-4 (on the loss grid)


def conjugate_beta(pld, alphas):
    d = np.asarray(pld.get_delta_for_epsilon(EPS_GRID))
    return [float(max(0.0, np.max(1.0 - d - np.exp(EPS_GRID) * a))) for a in alphas]


def dense(pmf):
    d = pmf.to_dense_pmf()
    p = np.asarray(d._probs, dtype=float)
    return p, (np.arange(len(p)) + d._lower_loss) * d._discretization, float(d._infinity_mass)


def remove_only_beta(pld, alphas):
    """f(alpha) of the REMOVE pmf's own pair (Q mass = e^-loss P mass), Neyman-Pearson with coin."""
    p, L, _ = dense(pld._pmf_remove)
    p = np.clip(p, 0.0, None)
    qm = p * np.exp(-L)
    ccq = np.concatenate([np.cumsum(qm[::-1])[::-1], [0.0]])  # Q(loss >= L_i)
    cp = np.concatenate([[0.0], np.cumsum(p)])  # P(loss < L_i)
    out = []
    for a in alphas:
        i = max(int(np.searchsorted(-ccq, -a, side="left")) - 1, 0)
        g = (a - ccq[i + 1]) / qm[i]
        out.append(float(cp[i] + (1.0 - g) * p[i]))
    return out


def tail_diagnostics(pld):
    pr, Lr, _ = dense(pld._pmf_remove)
    pa, La, _ = dense(pld._pmf_add)
    out = {"remove_points": len(pr), "add_points": len(pa),
           "sum_add_p_exp_minus_loss": float(np.sum(pa * np.exp(-La))),
           "sum_remove_p_exp_minus_loss": float(np.sum(pr * np.exp(-Lr)))}
    for x in (2.0, 4.0):
        out[f"Pr_X_gt_{x:g}_from_add_pmf"] = float(pa[-La > x].sum())
        out[f"Pr_X_gt_{x:g}_from_remove_tilt"] = float((pr * np.exp(-Lr))[Lr > x].sum())
    return out


def one_step_tails():
    """The add pmf's spurious lower tail already in one step (MNIST q, sigma = 1.1)."""
    out = {}
    for grid in (GRID, FINE):
        out[f"interval_{grid:g}"] = tail_diagnostics(riskcal_pld(MNIST_Q, 1.1, 1, grid))
    log(f"one step MNIST: {out}")
    return out


# ----------------------------------------------------------- 1. riskcal DP-SGD ----------
DPSGD_CASES = [(MNIST_Q, 1.1, 14063), (0.01, 1.0, 10000), (0.01, 1.0, 1000), (0.1, 2.0, 100),
               (1.0, 5.0, 10), (0.004266666666666667, 2.0, 14063)]


def gdp_beta_mp(mu, a):
    mu, a = mp.mpf(mu), mp.mpf(a)
    return mp.ncdf(mp.sqrt(2) * mp.erfinv(1 - 2 * a) - mu)  # Phi^-1(1-a) = sqrt2 erfinv(1-2a)


def run_dpsgd():
    rows, conj_rows = [], []
    for q, s, T in DPSGD_CASES:
        t0 = time.time()
        beta = [float(b) for b in rcd.get_beta_for_dpsgd(noise_multiplier=s, sample_rate=q, num_steps=T,
                                                         alpha=np.array(ALPHAS))]
        t1 = time.time()
        adv = float(rcd.get_advantage_for_dpsgd(noise_multiplier=s, sample_rate=q, num_steps=T))
        t2 = time.time()
        pld = riskcal_pld(q, s, T)
        same = [float(b) for b in ra.get_beta_from_pld(pld, alpha=np.array(ALPHAS))]
        assert same == beta, (same, beta)
        plrvs = ra.pld_to_plrvs(pld)
        if plrvs.is_symmetric:
            abar = fabar = None
        else:
            abar = float(np.sum(plrvs.pmf_X[-plrvs.x0 + 1:]))
            fabar = float(np.sum(plrvs.pmf_Y[:-plrvs.y0 + 1]))
        conj = conjugate_beta(pld, ALPHAS)
        rem = remove_only_beta(pld, ALPHAS)
        d_rem0 = float(pld._pmf_remove.get_delta_for_epsilon(0.0))
        d_add0 = float(pld._pmf_add.get_delta_for_epsilon(0.0))
        diag = tail_diagnostics(pld)
        t3 = time.time()
        fine = riskcal_pld(q, s, T, FINE)
        fine_beta = [float(b) for b in ra.get_beta_from_pld(fine, alpha=np.array(ALPHAS))]
        fine_conj = conjugate_beta(fine, ALPHAS)
        fine_adv = float(ra.get_advantage_from_pld(fine))
        fine_diag = tail_diagnostics(fine)
        del fine
        t4 = time.time()
        row = dict(q=q, sigma=s, steps=T, beta=beta, advantage=adv, tpr=[1 - b for b in beta],
                   seconds_beta=t1 - t0, seconds_advantage=t2 - t1,
                   alpha_bar=abar, f_alpha_bar=fabar, delta_remove_0=d_rem0, delta_add_0=d_add0,
                   riskcal_vs_conjugate={
                       "conjugate_beta": conj, "remove_only_beta": rem,
                       "riskcal_minus_conjugate": [b - c for b, c in zip(beta, conj)],
                       "tail_diagnostics_1e-4": diag,
                       "riskcal_beta_at_1e-5": fine_beta, "conjugate_beta_at_1e-5": fine_conj,
                       "advantage_at_1e-5": fine_adv, "tail_diagnostics_1e-5": fine_diag,
                       "seconds_1e-5": t4 - t3})
        if q == 1.0:
            mu = math.sqrt(T) / s
            row["gdp_mu"] = mu
            row["gdp_closed_form_beta"] = [float(gdp_beta_mp(mu, a)) for a in ALPHAS]
            row["gdp_closed_form_advantage"] = float(mp.ncdf(mu / 2) - mp.ncdf(-mu / 2))
        rows.append(row)
        conj_rows.append(dict(q=q, sigma=s, steps=T, beta=conj, advantage=adv))
        log(f"DPSGD q={q} σ={s} T={T}: riskcal β={beta} adv={adv!r} ({t1 - t0:.2f} s + {t2 - t1:.2f} s); "
            f"conjugate β={conj}; remove-only {rem}; ᾱ={abar} f(ᾱ)={fabar}; δ_R(0)={d_rem0!r} δ_A(0)={d_add0!r}; "
            f"at 1e-5: riskcal β={fine_beta} conj={fine_conj} adv={fine_adv!r} ({t4 - t3:.1f} s); "
            f"Σp_A e^-L = {diag['sum_add_p_exp_minus_loss']!r} / {fine_diag['sum_add_p_exp_minus_loss']!r}")
    return rows, conj_rows


# ------------------------------------------------- 2./3. riskcal calibration ----------
ADV_CASES = [(MNIST_Q, 14063, 0.1), (MNIST_Q, 14063, 0.3), (0.01, 1000, 0.1)]
TPR_CASES = [(MNIST_Q, 14063, 0.01, 0.05)]


class Counter:
    """Counts riskcal's evaluator calls by wrapping create_dpsgd_evaluator in its module."""

    def __init__(self):
        self.n = 0
        self.orig = rcd.create_dpsgd_evaluator

    def __enter__(self):
        orig = self.orig

        def make(*a, **k):
            ev = orig(*a, **k)

            def counted(x):
                self.n += 1
                return ev(x)

            return counted

        rcd.create_dpsgd_evaluator = make
        return self

    def __exit__(self, *exc):
        rcd.create_dpsgd_evaluator = self.orig


def run_sigma_advantage():
    rows = []
    for q, T, target in ADV_CASES:
        with Counter() as c:
            s, dt = timed(lambda: rcd.find_noise_multiplier_for_advantage(advantage=target, sample_rate=q,
                                                                          num_steps=T))
        if s is None:
            log(f"σ for advantage q={q} T={T} target={target}: SKIPPED (over {SLOW_S} s)")
            rows.append(dict(q=q, steps=T, target_advantage=target, skipped=True, seconds=dt, evaluations=c.n))
            continue
        adv = float(rcd.get_advantage_for_dpsgd(s, q, T))
        adv_below = float(rcd.get_advantage_for_dpsgd(s - 1e-3, q, T))
        rows.append({"q": q, "steps": T, "target_advantage": target, "sigma": float(s), "seconds": dt,
                     "evaluations": c.n, "advantage_at_sigma": adv, "advantage_at_sigma_minus_1e-3": adv_below})
        log(f"σ for advantage q={q} T={T} target={target}: σ = {s!r} ({dt:.1f} s, {c.n} evaluations; "
            f"adv(σ) = {adv!r}, adv(σ-1e-3) = {adv_below!r})")
    return rows


def conj_sigma_for_beta(q, T, a, b, lo=0.5, hi=5.0, tol=1e-5):
    """Cross-check: smallest sigma whose conjugate (pessimistic) beta(a) >= b, by bisection."""
    f = lambda s: conjugate_beta(riskcal_pld(q, s, T), [a])[0]
    assert f(lo) < b <= f(hi)
    while hi - lo > tol:
        m = (lo + hi) / 2
        if f(m) >= b:
            hi = m
        else:
            lo = m
    return hi


def run_sigma_tpr():
    rows = []
    for q, T, fpr, tpr in TPR_CASES:
        beta_t = 1.0 - tpr
        attempts = []
        for nmin in (0.1, 0.5):  # 0.1 = riskcal's default
            with Counter() as c:
                s, dt = timed(lambda: rcd.find_noise_multiplier_for_err_rates(alpha=fpr, beta=beta_t, sample_rate=q,
                                                                              num_steps=T, noise_min=nmin))
            attempts.append(dict(noise_min=nmin, sigma=None if s is None else float(s), seconds=dt,
                                 evaluations=c.n, skipped=s is None))
            log(f"σ for TPR q={q} T={T} fpr={fpr} tpr={tpr} noise_min={nmin}: "
                + (f"SKIPPED (over {SLOW_S} s, {c.n} evaluations started)" if s is None else
                   f"σ = {s!r} ({dt:.1f} s, {c.n} evaluations)"))
            if s is not None:
                break
        if s is None:
            rows.append(dict(q=q, steps=T, fpr=fpr, target_tpr=tpr, skipped=True, attempts=attempts))
            continue
        b = float(rcd.get_beta_for_dpsgd(s, q, T, alpha=fpr))
        b_above = float(rcd.get_beta_for_dpsgd(s + 1e-3, q, T, alpha=fpr))
        cb = conjugate_beta(riskcal_pld(q, s, T), [fpr])[0]
        t0 = time.time()
        cs = conj_sigma_for_beta(q, T, fpr, beta_t)
        rows.append({"q": q, "steps": T, "fpr": fpr, "target_tpr": tpr, "sigma": float(s),
                     "noise_min": attempts[-1]["noise_min"], "seconds": attempts[-1]["seconds"],
                     "evaluations": attempts[-1]["evaluations"], "attempts": attempts,
                     "riskcal_tpr_at_sigma": 1 - b, "riskcal_tpr_at_sigma_plus_1e-3": 1 - b_above,
                     "conjugate_tpr_at_sigma": 1 - cb, "conjugate_sigma_for_target": cs,
                     "seconds_conjugate_sigma": time.time() - t0})
        log(f"  riskcal TPR(σ) = {1 - b!r}, TPR(σ+1e-3) = {1 - b_above!r}; conjugate TPR(σ) = {1 - cb!r}; "
            f"conjugate σ for the target = {cs!r}")
    return rows


# ---------------------------------------------------------- 4. Bayes risk ----------
POST_PRIORS = [0.5, 0.01]


def run_posterior():
    rows = []
    for q, s, T in DPSGD_CASES[:2]:
        t0 = time.time()
        pld = riskcal_pld(q, s, T)
        tb = time.time() - t0
        for pi in POST_PRIORS:
            t1 = time.time()
            r = float(ra.get_bayes_risk_from_pld(pld, pi))
            dt = time.time() - t1
            r_swap = float(ra.get_bayes_risk_from_pld(pld, 1.0 - pi))
            eps = math.log(pi / (1 - pi))
            dR = lambda e: float(pld._pmf_remove.get_delta_for_epsilon(e))
            dA = lambda e: float(pld._pmf_add.get_delta_for_epsilon(e))
            rem_only = min((1 - pi) * (1 - dR(eps)), pi * (1 - dR(-eps)))
            rows.append(dict(q=q, sigma=s, steps=T, prior=pi, bound=r, max_success=1 - r,
                             bayes_risk_at_1_minus_prior=r_swap, epsilon=eps,
                             delta_remove_at_eps=dR(eps), delta_add_at_eps=dA(eps),
                             remove_only_bayes_risk=rem_only, baseline_risk=min(pi, 1 - pi),
                             seconds=dt, seconds_pld=tb))
            log(f"Bayes risk q={q} σ={s} T={T} prior={pi}: R = {r!r} (success {1 - r!r}); R(1-π) = {r_swap!r}; "
                f"remove-only {rem_only!r}; δ_R({eps:.4f}) = {dR(eps)!r}, δ_A = {dA(eps)!r}")
    return rows


# ------------------------------------------------------ 5. Gaussian trade-off ----------
GDP_MU = [0.5, 1.0, 2.0, 4.0]
GDP_ALPHA = [1e-6, 1e-3, 0.01, 0.1, 0.5]


def run_gdp():
    rows = []
    for mu in GDP_MU:
        for a in GDP_ALPHA:
            b = gdp_beta_mp(mu, a)
            bf = float(b)
            sp = float(stats.norm.cdf(stats.norm.isf(a) - mu))
            rc = float(ra.get_beta_from_gdp(mu, a))
            rows.append(dict(mu=mu, alpha=a, beta=bf, beta_50=mp.nstr(b, 40), scipy_rel=(sp - bf) / bf,
                             riskcal_get_beta_from_gdp_rel=(rc - bf) / bf))
            log(f"GDP μ={mu} α={a}: β = {mp.nstr(b, 20)} (scipy rel {(sp - bf) / bf:+.1e}, "
                f"riskcal rel {(rc - bf) / bf:+.1e})")
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


SHAPES = {}


def write_rust(d):
    v = d["versions"]
    num = r"(?:-?\d+(?:\.\d+(?:e[-+]?\d+)?|e[-+]?\d+)|f64::INFINITY|f64::NEG_INFINITY|f64::NAN)"
    head = [
        "// generated by scripts/reference/attack.py, do not edit.",
        f"// Sources: riskcal {v['riskcal']} (Kulynych, Gomez et al., PyPI) on dp_accounting {v['dp-accounting']} (Google,",
        "// PyPI) for RISKCAL_*; dp_accounting's privacy profile (convex conjugate) for PLD_TRADEOFF_CONJUGATE;",
        f"// mpmath {v['mpmath']} at 50 digits for GAUSSIAN_TRADEOFF. Python {v['python']}, scipy {v['scipy']},",
        f"// numpy {v['numpy']} for cross-checks only. PLDs: from_gaussian_mechanism(sigma, sampling_prob = q,",
        "// use_connect_dots = True, value_discretization_interval = 1e-4).self_compose(steps): pessimistic,",
        "// connect the dots, add/remove neighbours, Poisson subsampling (riskcal's defaults).",
        "// Definitions, method and caveats: the docstring of scripts/reference/attack.py; the same numbers with",
        "// timings and cross-checks: scripts/reference/attack.json.",
        "",
    ]
    parts = ["\n".join(head)]
    t1 = d["RISKCAL_DPSGD"]["rows"]
    parts.append(rust_table(
        "RISKCAL_DPSGD", "(f64, f64, u64, f64, f64, f64, f64)",
        ["(q, sigma, steps, beta_at_0_001, beta_at_0_01, beta_at_0_1, advantage): riskcal get_beta_for_dpsgd",
         "(FNR at FPR 0.001, 0.01, 0.1; add/remove, Dong-Roth-Su Def. F.1 symmetrised) and get_advantage_for_dpsgd",
         "(max TPR - FPR = delta(0)). Caution: beta at small alpha reads the attacker's FPR tail from dp_accounting's",
         "ADD pmf and comes out ABOVE the pessimistic value (PLD_TRADEOFF_CONJUGATE) for q < 1; see the docstring."],
        t1, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {r['steps']}, {lit(r['beta'][0])}, {lit(r['beta'][1])}, "
                       f"{lit(r['beta'][2])}, {lit(r['advantage'])}",
                       f"{r['seconds_beta']:.2f} s + {r['seconds_advantage']:.2f} s")))
    SHAPES["RISKCAL_DPSGD"] = rf"{num}, {num}, \d+, {num}, {num}, {num}, {num}"
    t2 = [r for r in d["RISKCAL_SIGMA_FOR_ADVANTAGE"]["rows"] if not r.get("skipped")]
    parts.append(rust_table(
        "RISKCAL_SIGMA_FOR_ADVANTAGE", "(f64, u64, f64, f64)",
        ["(q, steps, target_advantage, sigma): riskcal find_noise_multiplier_for_advantage, defaults",
         "(grid 1e-4, bisection on [0.1, 50], tol 1e-3 on advantage and on sigma; upper end: advantage <= target)."],
        t2, lambda r: (f"{lit(r['q'])}, {r['steps']}, {lit(r['target_advantage'])}, {lit(r['sigma'])}",
                       f"{r['seconds']:.1f} s, {r['evaluations']} evaluations, advantage at sigma "
                       f"{r['advantage_at_sigma']!r}")))
    SHAPES["RISKCAL_SIGMA_FOR_ADVANTAGE"] = rf"{num}, \d+, {num}, {num}"
    t3 = [r for r in d["RISKCAL_SIGMA_FOR_TPR"]["rows"] if not r.get("skipped")]
    parts.append(rust_table(
        "RISKCAL_SIGMA_FOR_TPR", "(f64, u64, f64, f64, f64)",
        ["(q, steps, fpr, target_tpr, sigma): riskcal find_noise_multiplier_for_err_rates(alpha = fpr,",
         "beta = 1 - target_tpr), grid 1e-4, bracket [noise_min, 50], tol 1e-3; returns the lower end, where",
         "riskcal's TPR is at or above the target. Its default noise_min = 0.1 costs a ~40 s, 4.5 GB PLD per",
         "iteration: see the comment."],
        t3, lambda r: (f"{lit(r['q'])}, {r['steps']}, {lit(r['fpr'])}, {lit(r['target_tpr'])}, {lit(r['sigma'])}",
                       "; ".join(f"noise_min {a['noise_min']}: "
                                 + (f"skipped after {a['seconds']:.0f} s" if a["skipped"] else
                                    f"{a['seconds']:.1f} s, {a['evaluations']} evaluations")
                                 for a in r["attempts"])
                       + f"; riskcal TPR at sigma {r['riskcal_tpr_at_sigma']:.6f}, pessimistic (conjugate) "
                         f"{r['conjugate_tpr_at_sigma']:.6f}")))
    SHAPES["RISKCAL_SIGMA_FOR_TPR"] = rf"{num}, \d+, {num}, {num}, {num}"
    t4 = d["RISKCAL_POSTERIOR"]["rows"]
    parts.append(rust_table(
        "RISKCAL_POSTERIOR", "(f64, f64, u64, f64, f64)",
        ["(q, sigma, steps, prior, bound): riskcal get_bayes_risk_from_pld(pld, prior) =",
         "(1 - prior) (1 - delta(ln(prior / (1 - prior)))): the minimum Bayes error prior*alpha + (1 - prior)*beta",
         "of any attacker; its maximum success (accuracy) is 1 - bound. Prior 1/2: bound = (1 - advantage)/2.",
         "Prior 0.01 reads delta at eps = -4.6 from the ADD pmf and comes out too small (docstring); the comment's",
         "bound at 1 - prior (eps = +4.6) is the value 1 - posterior of the Rust report's formula should match."],
        t4, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {r['steps']}, {lit(r['prior'])}, {lit(r['bound'])}",
                       f"success {r['max_success']!r}; bound at 1 - prior {r['bayes_risk_at_1_minus_prior']!r}")))
    SHAPES["RISKCAL_POSTERIOR"] = rf"{num}, {num}, \d+, {num}, {num}"
    t5 = d["GAUSSIAN_TRADEOFF"]["rows"]
    parts.append(rust_table(
        "GAUSSIAN_TRADEOFF", "(f64, f64, f64)",
        ["(mu, alpha, beta): mu-GDP trade-off beta = Phi(Phi^-1(1 - alpha) - mu), mpmath at 50 digits."],
        t5, lambda r: (f"{lit(r['mu'])}, {lit(r['alpha'])}, {lit(r['beta'])}", None)))
    SHAPES["GAUSSIAN_TRADEOFF"] = rf"{num}, {num}, {num}"
    t6 = d["PLD_TRADEOFF_CONJUGATE"]["rows"]
    parts.append(rust_table(
        "PLD_TRADEOFF_CONJUGATE", "(f64, f64, u64, f64, f64, f64, f64)",
        ["(q, sigma, steps, beta_at_0_001, beta_at_0_01, beta_at_0_1, advantage): NOT riskcal. The same PLD read",
         "through its privacy profile: beta(alpha) = max over eps in [-12, 12] (step 1e-4) of 1 - delta(eps) - e^eps alpha,",
         "delta = max(remove, add): a lower estimate of the true add/remove beta; advantage = delta(0) as in riskcal."],
        t6, lambda r: (f"{lit(r['q'])}, {lit(r['sigma'])}, {r['steps']}, {lit(r['beta'][0])}, {lit(r['beta'][1])}, "
                       f"{lit(r['beta'][2])}, {lit(r['advantage'])}", None)))
    SHAPES["PLD_TRADEOFF_CONJUGATE"] = rf"{num}, {num}, \d+, {num}, {num}, {num}, {num}"
    text = "\n".join(parts)
    os.makedirs(os.path.dirname(RS_PATH), exist_ok=True)
    with open(RS_PATH, "w") as f:
        f.write(text)
    check_rust(text)


def check_rust(text):
    """Small syntax sanity check of the generated file (it is not compiled here)."""
    import re
    code = "\n".join(l.split("//")[0] if not l.lstrip().startswith("//") else "" for l in text.splitlines())
    for o, c in ("()", "[]", "{}"):
        assert code.count(o) == code.count(c), (o, c)
    blocks = re.findall(r"#\[rustfmt::skip\]\npub const (\w+): &\[\(([^\]]*)\)\] = &\[\n(.*?)\n?\];", code, re.S)
    assert [b[0] for b in blocks] == list(SHAPES), [b[0] for b in blocks]
    assert len(re.findall(r"pub const", code)) == len(SHAPES)
    for name, ty, body in blocks:
        lines = [l.strip() for l in body.splitlines() if l.strip()]
        assert lines, name
        assert len(ty.split(",")) == len(SHAPES[name].split(", ")), name
        for l in lines:
            assert re.fullmatch(rf"\({SHAPES[name]}\),", l), (name, l)
    log(f"syntax check of {os.path.relpath(RS_PATH, ROOT)}: {len(blocks)} tables, "
        f"{sum(len([x for x in b[2].splitlines() if x.strip()]) for b in blocks)} rows OK")


def rust_from_json():
    with open(JSON_PATH) as f:
        write_rust(json.load(f))
    log(f"wrote {RS_PATH} from {JSON_PATH}")


def main():
    if "--rust-from-json" in sys.argv[1:]:
        return rust_from_json()
    log("versions:", VERSIONS)
    t_all = time.time()
    gdp = run_gdp()
    one = one_step_tails()
    dpsgd, conj = run_dpsgd()
    post = run_posterior()
    adv = run_sigma_advantage()
    tpr = run_sigma_tpr()
    data = {
        "generated_by": "scripts/reference/attack.py",
        "versions": VERSIONS,
        "notes": "inf / nan are written as the strings \"inf\" / \"nan\"; beta lists are at alpha = "
                 f"{ALPHAS}; field meanings, definitions and methods: the script's docstring",
        "RISKCAL_DPSGD": {"rows": dpsgd, "one_step_add_pmf_tail_mnist": one},
        "RISKCAL_SIGMA_FOR_ADVANTAGE": {"rows": adv},
        "RISKCAL_SIGMA_FOR_TPR": {"rows": tpr},
        "RISKCAL_POSTERIOR": {"rows": post},
        "GAUSSIAN_TRADEOFF": {"rows": gdp},
        "PLD_TRADEOFF_CONJUGATE": {"rows": conj},
        "seconds_total": time.time() - t_all,
    }
    with open(JSON_PATH, "w") as f:
        json.dump(jsonable(data), f, indent=1, allow_nan=False)
        f.write("\n")
    write_rust(data)
    log(f"wrote {RS_PATH} and {JSON_PATH} in {time.time() - t_all:.0f} s")


if __name__ == "__main__":
    main()
