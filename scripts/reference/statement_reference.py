"""Reference values for the "guarantee statement" feature: one Poisson-subsampled Gaussian
DP-SGD run (add/remove neighbours, sampling rate q, noise multiplier sigma, T steps, target
delta) read by every public accountant we can install, side by side.

Writes scripts/reference/statement_reference.json (and prints the same JSON). Dev tool only,
never a runtime dependency. Environment (CPython 3.11):

    python3 -m venv /root/.cache/dp-playground/venv
    /root/.cache/dp-playground/venv/bin/pip install dp-accounting==0.6.0 gdpnum riskcal numpy scipy
    /root/.cache/dp-playground/venv/bin/pip install opacus          # pulls torch (+ CUDA wheels)
    /root/.cache/dp-playground/venv/bin/pip install jax-privacy "jax[cpu]"
    /root/.cache/dp-playground/venv/bin/python scripts/reference/statement_reference.py   # ~1 min

Versions that produced the checked-in JSON: dp-accounting 0.6.0, gdpnum 0.1.2, riskcal 1.5.1,
opacus 1.6.0 (torch 2.15.0), jax-privacy 2.0.0 (jax 0.10.2), numpy 2.4.6, scipy 1.17.1; the
versions actually used are written to the JSON (`versions`).

What each column is (read from the installed sources):

* gdpnum (gdpnum/dpsgd.py, gdpnum/converter.py):
  get_mu_and_regret_for_dpsgd(sigma, q, T, grid_step=1e-4, err=1e-10) builds
  dp_accounting.pld.privacy_loss_distribution.from_gaussian_mechanism(standard_deviation=sigma,
  sampling_prob=q, use_connect_dots=True, value_discretization_interval=grid_step)
  .self_compose(T) (pessimistic estimate, add/remove, log_mass_truncation_bound -50) and hands it
  to PLDConverter, which turns the remove pmf (Y) and the reflected add pmf (X) into the
  breakpoints (Pr[X > x_i], Pr[Y <= x_i]) of the piecewise-linear trade-off curve f, then
  symmetrises it (Dong-Roth-Su Def. F.1) when the PLD is not symmetric (q < 1).
  mu = max over symmetrised breakpoints with err < alpha, beta < 1 - err and beta <= 1 - alpha - err
  of Phi^-1(1 - alpha) + Phi^-1(1 - beta): the smallest mu with G_mu <= f at every (kept)
  breakpoint, hence everywhere (G_mu convex, f linear between breakpoints).
  regret = the smallest Delta (bisection on [0, 1] to tol err, the LOWER end returned) such that
  f(x + Delta) - Delta <= G_mu(x) at x = linspace(0, 1, 10000) (f = np.interp on the symmetrised
  breakpoints, x + Delta clipped to 1): how far f sticks out above G_mu along the diagonal.
  beta(alpha): PLDConverter(pld).get_beta(alpha) = np.interp on the symmetrised breakpoints;
  TPR = 1 - beta. advantage: PLDConverter.get_advantage() = pld.get_delta_for_epsilon(0).
  tpr_from_mu: 1 - G_mu(alpha) = 1 - Phi(Phi^-1(1 - alpha) - mu) with gdpnum's mu (the GDP
  statement's TPR bound; above the PLD's TPR by construction).
* riskcal (riskcal/calibration/dpsgd.py, riskcal/analysis/conversions.py, riskcal/analysis/_plrv.py):
  get_beta_for_dpsgd(sigma, q, T, alpha, grid_step=1e-4) builds the same PLD and calls
  riskcal.analysis.get_beta_from_pld: Neyman-Pearson test with randomisation (Kulynych et al.
  2024, Alg. 1) on the discrete X/Y pmfs, symmetrised by Def. F.1 for alpha in each region;
  TPR = 1 - beta. get_advantage_for_dpsgd(sigma, q, T, grid_step=1e-4) = pld.get_delta_for_epsilon(0).
* dp_accounting: PLDAccountant() (default value_discretization_interval, which is 1e-4 in 0.6.0)
  and PLDAccountant(value_discretization_interval=1e-4), .compose(PoissonSampledDpEvent(q,
  GaussianDpEvent(sigma)), T).get_epsilon(delta); RdpAccountant() (DEFAULT_RDP_ORDERS) the same,
  plus get_epsilon_and_optimal_order.
* Opacus: opacus.accountants.RDPAccountant, .step(noise_multiplier=sigma, sample_rate=q) T times,
  .get_privacy_spent(delta=delta) -> (eps, best alpha) with DEFAULT_ALPHAS (1.1..10.9, 12..63).
  If torch cannot be imported, opacus/accountants/analysis/rdp.py (numpy + scipy only) is loaded
  by file path with importlib and compute_rdp/get_privacy_spent are called with the same alphas.
  Also Opacus' PrivacyEngine default accountant, PRVAccountant().get_epsilon(delta) (eps_error
  0.01, delta_error delta/1000; the returned value is the PRV upper estimate).
* jax_privacy: jax_privacy.accounting.DpsgdTrainingAccountant(dp_accountant_config=
  RdpAccountantConfig() | PldAccountantConfig()).compute_epsilon(num_updates=T, dp_params=
  DpParams(noise_multipliers=sigma, num_samples=n, batch_size=b, delta=delta,
  sampling_method=SamplingMethod.POISSON)), with q = b / n (integers chosen so b / n == q as
  floats). Its RDP orders are its own (linspace(1.01, 8, 50), 8..63, linspace(65, 512, 10)); its
  PLD interval is 1e-4.
* gdpnum_grid_check: PLDConverter on the same PLD built at grid_step 3e-5 (mu, regret, TPR).
* pld_conjugate (NOT a library API; a cross-check): the same gdpnum/riskcal PLD (1e-4) read only
  through its privacy profile delta(eps) = pld.get_delta_for_epsilon(eps) (max of remove and
  add): TPR(alpha) = min over eps in arange(-12, 12, 1e-3) of delta(eps) + e^eps alpha (i.e.
  beta >= 1 - delta(eps) - e^eps alpha for every eps). delta(eps) is an upper bound, so this TPR
  is an UPPER bound on the power of any attack (pessimistic). implied_mu(alpha) =
  Phi^-1(1 - alpha) + Phi^-1(TPR): the mu whose G_mu passes through that point (same for
  gdpnum's interpolated curve in gdpnum_converter.implied_mu).
* closed_form (q = 1 only, plain Gaussian): mu = sqrt(T) / sigma, TPR(alpha) =
  1 - Phi(Phi^-1(1 - alpha) - mu), advantage = 2 Phi(mu / 2) - 1, eps(delta) the root of
  Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) = delta (Balle-Wang 2018).

Findings (from the JSON, plus checks made while writing this script):
* gdpnum's and riskcal's beta/TPR and advantage are the same numbers (to 1e-16): the
  interpolated breakpoint curve and the randomised Neyman-Pearson test are the same curve.
* That curve is NOT pessimistic at small FPR: it reads the attacker's FPR tail from
  dp_accounting's ADD pmf, whose spurious lower-loss tail blows up under composition (E:
  sum p_add e^-loss = 365 at grid 1e-4 and 2.1e7 at 3e-5, where it should be <= 1; the remove
  pmf gives 1 + 5e-9). For small q and many steps (A, B, E) its TPR is below the conjugate bound
  (E, alpha = 0.001: 0.00321 vs 0.00440; alpha = 1e-4: 1e-12 vs 6.9e-4, i.e. below the
  diagonal) and gets WORSE with a finer grid (E at 3e-5: TPR(0.001) ~ 1e-12). So gdpnum's mu
  falls as the grid is refined (E 0.419 -> 0.374, A 0.4285 -> 0.4077) and is below the
  conjugate's implied mu (E: 0.43 at 1e-2, 0.47 at 1e-3, 0.52 at 1e-4, 0.64 at 1e-6; B: 1.307 ..
  1.337 vs 1.304): 1 - G_mu(alpha) with gdpnum's mu is not an upper bound on attack TPR there
  (only within gdpnum's regret, itself measured on that curve). For q = 1 (D, G) and for C the
  curves agree with the closed form / conjugate to ~1e-7 absolute or better; F is off by ~2e-5.
* dp_accounting PLDAccountant() default interval is 1e-4, so "default" and "1e-4" coincide; the
  jax_privacy PLD epsilon is bit-identical to it. The RDP epsilons differ in the 3rd-5th
  significant digit through their order grids (dp_accounting, Opacus, jax_privacy each have
  their own). Opacus PRV is about +0.01 above the PLD epsilon everywhere (its eps_error 0.01).

Each library call has a 120 s alarm; a call that runs out is recorded as {"timeout": true}.
"""

import importlib.util
import json
import math
import os
import signal
import sys
import time
import warnings
from importlib.metadata import PackageNotFoundError, version

import numpy as np
from scipy import optimize, stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "statement_reference.json")
LIMIT = 120  # seconds per library call
GRID = 1e-4  # gdpnum / riskcal grid_step (their default)
ERR = 1e-10  # gdpnum err (its default)
ALPHAS = (0.01, 0.001, 1e-4, 1e-6)  # FPRs; 0.01 and 0.001 requested, 1e-4 and 1e-6 added
GRID_CHECK = 3e-5  # gdpnum again at a finer grid: its mu / TPR are not stable under refinement

# name: (q, sigma, T, delta, batch_size, num_samples) with batch_size / num_samples == q
SETTINGS = {
    "A": (256 / 60000, 0.8, 2344, 1e-5, 256, 60000),
    "B": (0.01, 1.0, 10000, 1e-5, 600, 60000),
    "C": (0.01, 4.0, 1000, 1e-5, 600, 60000),
    "D": (1.0, 2.0, 1, 1e-5, 60000, 60000),
    "E": (0.001, 0.6, 10000, 1e-6, 60, 60000),
    "F": (0.05, 1.5, 500, 1e-5, 3000, 60000),
    "G": (1.0, 10.0, 100, 1e-5, 60000, 60000),
    "H": (0.1, 2.0, 100, 1e-5, 6000, 60000),
    "I": (0.25, 3.0, 20, 1e-5, 15000, 60000),
    "J": (1.0, 1.0, 1, 1e-5, 60000, 60000),
    "K": (1.0, 3.0, 9, 1e-5, 60000, 60000),
    "L": (0.02, 6.0, 200, 1e-5, 1200, 60000),
    "M": (0.05, 5.0, 100, 1e-5, 3000, 60000),
}
NOTES = {
    "A": "MNIST-like, 10 epochs of 256/60000",
    "B": "Abadi-like",
    "D": "plain Gaussian, mu = 1/2",
    "G": "plain Gaussian, mu = sqrt(100)/10 = 1",
}


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGALRM, _alarm)


def timed(fn):
    """Runs fn() under a LIMIT-second alarm; returns a dict with the result or the failure."""
    t0 = time.time()
    signal.alarm(LIMIT)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn()
        rec = dict(out)
        msgs = sorted({str(w.message) for w in caught if not issubclass(w.category, DeprecationWarning)})
        if msgs:
            rec["warnings"] = msgs
    except Timeout:
        rec = {"timeout": True, "note": f"dropped: over {LIMIT} s"}
    except Exception as e:  # recorded, not fatal
        rec = {"error": f"{type(e).__name__}: {e}"}
    finally:
        signal.alarm(0)
    rec["seconds"] = round(time.time() - t0, 3)
    return rec


def ver(p):
    try:
        return version(p)
    except PackageNotFoundError:
        return None


# ------------------------------------------------------------------ imports ---------------
import dp_accounting  # noqa: E402
from dp_accounting import dp_event  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402
from dp_accounting.pld import privacy_loss_distribution as pld_lib  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant  # noqa: E402

import gdpnum  # noqa: E402
from gdpnum.converter import PLDConverter  # noqa: E402
from gdpnum.dpsgd import get_mu_and_regret_for_dpsgd  # noqa: E402

from riskcal.calibration.dpsgd import get_advantage_for_dpsgd, get_beta_for_dpsgd  # noqa: E402

OPACUS_ROUTE = None
try:
    from opacus.accountants import PRVAccountant, RDPAccountant  # imports torch

    OPACUS_ROUTE = "opacus.accountants.RDPAccountant (torch imported)"
except Exception as e:  # torch missing or broken: load the numpy-only analysis file directly
    _spec = importlib.util.find_spec("opacus")  # does not execute opacus/__init__.py
    if _spec is not None and _spec.submodule_search_locations:
        _path = os.path.join(list(_spec.submodule_search_locations)[0], "accountants", "analysis", "rdp.py")
        _s = importlib.util.spec_from_file_location("opacus_rdp_analysis", _path)
        opacus_rdp = importlib.util.module_from_spec(_s)
        _s.loader.exec_module(opacus_rdp)
        OPACUS_ROUTE = f"importlib on {_path} ({type(e).__name__}: {e})"
    RDPAccountant = PRVAccountant = None
OPACUS_DEFAULT_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))

try:
    import jax_privacy.accounting as jpa

    JAXP = True
except Exception as e:
    JAXP = f"{type(e).__name__}: {e}"


# ------------------------------------------------------------------ per library -----------
from gdpnum.converter import get_worst_case_regret


def gdpnum_row(q, s, T):
    mu, regret = get_mu_and_regret_for_dpsgd(s, q, T, grid_step=GRID)
    return {"mu": float(mu), "regret": float(regret), "grid_step": GRID, "err": ERR}


def gdpnum_converter_row(q, s, T):
    # the PLD exactly as gdpnum.dpsgd.get_mu_and_regret_for_dpsgd builds it
    pld = pld_lib.from_gaussian_mechanism(
        standard_deviation=s, sampling_prob=q, use_connect_dots=True, value_discretization_interval=GRID
    ).self_compose(T)
    conv = PLDConverter(pld)
    betas = conv.get_beta(np.array(ALPHAS))
    mu, regret = conv.get_mu_and_regret(ERR)
    a_bar = b_bar = None
    if not conv.is_symmetric:
        from gdpnum.converter import _compute_breakpoints

        _, _, a_bar, b_bar = _compute_breakpoints(pld)
    return {
        "beta": {str(a): float(b) for a, b in zip(ALPHAS, betas)},
        "tpr": {str(a): float(1 - b) for a, b in zip(ALPHAS, betas)},
        "advantage": float(conv.get_advantage()),
        "tpr_from_mu": {str(a): float(stats.norm.sf(stats.norm.isf(a) - mu)) for a in ALPHAS},
        "implied_mu": {str(a): implied_mu(a, float(1 - b)) for a, b in zip(ALPHAS, betas)},
        "mu_same_pld": float(mu),
        # The playground states mu-GDP on FPRs in [1e-6, 1 - 1e-6] (its PLD's corners are exact only
        # to ~1e-10): gdpnum's mu on that window, and gdpnum's regret for that mu.
        "mu_window_1e-6": float(conv.get_mu(1e-6)),
        "regret_window_1e-6": float(get_worst_case_regret(conv.alphas_symm, conv.betas_symm, conv.get_mu(1e-6), tol=ERR)),
        "regret_same_pld": float(regret),
        "is_symmetric": bool(conv.is_symmetric),
        "alpha_bar": None if a_bar is None else float(a_bar),
        "beta_bar": None if b_bar is None else float(b_bar),
        "symmetrisation": (
            "none (symmetric PLD)" if conv.is_symmetric
            else ("Def. F.1 linear bridge" if a_bar <= b_bar else "max(f, f^-1)")
        ),
        "breakpoints": int(len(conv.alphas_symm)),
    }


def conjugate_row(q, s, T):
    """Not a library API: the same PLD read only through delta(eps) (max of remove and add)."""
    pld = pld_lib.from_gaussian_mechanism(
        standard_deviation=s, sampling_prob=q, use_connect_dots=True, value_discretization_interval=GRID
    ).self_compose(T)
    eps = np.arange(-12.0, 12.0, 1e-3)
    d = np.asarray(pld.get_delta_for_epsilon(eps), dtype=float)
    # TPR(alpha) <= delta(eps) + e^eps alpha for every eps (beta >= 1 - delta(eps) - e^eps alpha)
    tprs = [float(min(1.0, np.min(d + np.exp(eps) * a))) for a in ALPHAS]
    return {
        "tpr": {str(a): t for a, t in zip(ALPHAS, tprs)},
        "implied_mu": {str(a): implied_mu(a, t) for a, t in zip(ALPHAS, tprs)},
        "eps_grid": "arange(-12, 12, 1e-3)",
    }


def implied_mu(alpha, tpr):
    """The mu whose Gaussian trade-off curve passes through (alpha, 1 - tpr)."""
    return float(stats.norm.isf(alpha) + stats.norm.ppf(tpr))


def gdpnum_grid_row(q, s, T, grid):
    pld = pld_lib.from_gaussian_mechanism(
        standard_deviation=s, sampling_prob=q, use_connect_dots=True, value_discretization_interval=grid
    ).self_compose(T)
    conv = PLDConverter(pld)
    mu, regret = conv.get_mu_and_regret(ERR)
    betas = conv.get_beta(np.array(ALPHAS))
    return {"grid_step": grid, "mu": float(mu), "regret": float(regret),
            "tpr": {str(a): float(1 - b) for a, b in zip(ALPHAS, betas)}}


def riskcal_row(q, s, T):
    betas = get_beta_for_dpsgd(s, q, T, alpha=np.array(ALPHAS), grid_step=GRID)
    adv = get_advantage_for_dpsgd(s, q, T, grid_step=GRID)
    return {
        "beta": {str(a): float(b) for a, b in zip(ALPHAS, betas)},
        "tpr": {str(a): float(1 - b) for a, b in zip(ALPHAS, betas)},
        "advantage": float(adv),
        "grid_step": GRID,
    }


def event(q, s):
    return dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(s))


def pld_row(q, s, T, delta, interval=None):
    acc = (pld_privacy_accountant.PLDAccountant() if interval is None
           else pld_privacy_accountant.PLDAccountant(value_discretization_interval=interval))
    acc.compose(event(q, s), T)
    return {"epsilon": float(acc.get_epsilon(delta)),
            "value_discretization_interval": interval if interval is not None else acc._value_discretization_interval}


def rdp_row(q, s, T, delta):
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(event(q, s), T)
    eps, order = acc.get_epsilon_and_optimal_order(delta)
    return {"epsilon": float(eps), "optimal_order": float(order),
            "orders": "DEFAULT_RDP_ORDERS (1.1..10.9, 11..63, 128, 256, 512, 1024)"}


def opacus_rdp_row(q, s, T, delta):
    if RDPAccountant is not None:
        acc = RDPAccountant()
        for _ in range(T):
            acc.step(noise_multiplier=s, sample_rate=q)
        eps, alpha = acc.get_privacy_spent(delta=delta)
    else:
        rdp = opacus_rdp.compute_rdp(q=q, noise_multiplier=s, steps=T, orders=OPACUS_DEFAULT_ALPHAS)
        eps, alpha = opacus_rdp.get_privacy_spent(orders=OPACUS_DEFAULT_ALPHAS, rdp=rdp, delta=delta)
    return {"epsilon": float(eps), "optimal_alpha": float(alpha), "route": OPACUS_ROUTE}


def opacus_prv_row(q, s, T, delta):
    if PRVAccountant is None:
        return {"error": "torch not importable; PRVAccountant skipped"}
    acc = PRVAccountant()
    for _ in range(T):
        acc.step(noise_multiplier=s, sample_rate=q)
    return {"epsilon": float(acc.get_epsilon(delta=delta)), "eps_error": 0.01, "delta_error": delta / 1000}


def jaxp_row(s, T, delta, b, n, cfg):
    params = jpa.DpParams(noise_multipliers=s, num_samples=n, batch_size=b, delta=delta,
                          sampling_method=jpa.SamplingMethod.POISSON)
    acc = jpa.DpsgdTrainingAccountant(dp_accountant_config=cfg)
    return {"epsilon": float(acc.compute_epsilon(num_updates=T, dp_params=params)),
            "batch_size": b, "num_samples": n}


def gaussian_eps(mu, delta):
    def d(eps):
        return stats.norm.cdf(mu / 2 - eps / mu) - math.exp(eps) * stats.norm.cdf(-mu / 2 - eps / mu) - delta
    return optimize.brentq(d, 0.0, 100.0, xtol=1e-14, rtol=1e-14)


def closed_form(s, T, delta):
    mu = math.sqrt(T) / s
    return {
        "mu": mu,
        "tpr": {str(a): float(stats.norm.sf(stats.norm.isf(a) - mu)) for a in ALPHAS},
        "advantage": float(2 * stats.norm.cdf(mu / 2) - 1),
        "epsilon": gaussian_eps(mu, delta),
    }


# ------------------------------------------------------------------ main ------------------
def main():
    t_all = time.time()
    versions = {p: ver(p) for p in ("dp-accounting", "gdpnum", "riskcal", "opacus", "torch",
                                    "jax-privacy", "jax", "jaxlib", "numpy", "scipy")}
    versions["python"] = sys.version.split()[0]
    out = {
        "what": "Poisson-subsampled Gaussian DP-SGD, add/remove neighbours: gdpnum mu/regret, "
                "TPR at FPR and advantage (gdpnum, riskcal), epsilon at delta (dp_accounting "
                "PLD/RDP, Opacus RDP/PRV, jax_privacy RDP/PLD)",
        "generator": "scripts/reference/statement_reference.py",
        "versions": versions,
        "opacus_route": OPACUS_ROUTE,
        "jax_privacy_available": JAXP,
        "alphas": list(ALPHAS),
        "time_limit_seconds_per_call": LIMIT,
        "settings": {},
    }
    for name, (q, s, T, delta, b, n) in SETTINGS.items():
        assert b / n == q, name
        print(f"[{name}] q={q} sigma={s} T={T} delta={delta}", file=sys.stderr, flush=True)
        row = {"q": q, "sigma": s, "T": T, "delta": delta}
        if name in NOTES:
            row["note"] = NOTES[name]
        row["gdpnum"] = timed(lambda: gdpnum_row(q, s, T))
        row["gdpnum_converter"] = timed(lambda: gdpnum_converter_row(q, s, T))
        row["gdpnum_grid_check"] = timed(lambda: gdpnum_grid_row(q, s, T, GRID_CHECK))
        row["pld_conjugate"] = timed(lambda: conjugate_row(q, s, T))
        row["riskcal"] = timed(lambda: riskcal_row(q, s, T))
        row["dp_accounting_pld_default"] = timed(lambda: pld_row(q, s, T, delta))
        row["dp_accounting_pld_1e-4"] = timed(lambda: pld_row(q, s, T, delta, 1e-4))
        row["dp_accounting_rdp"] = timed(lambda: rdp_row(q, s, T, delta))
        row["opacus_rdp"] = timed(lambda: opacus_rdp_row(q, s, T, delta))
        row["opacus_prv"] = timed(lambda: opacus_prv_row(q, s, T, delta))
        if JAXP is True:
            row["jax_privacy_rdp"] = timed(lambda: jaxp_row(s, T, delta, b, n, jpa.RdpAccountantConfig()))
            row["jax_privacy_pld"] = timed(lambda: jaxp_row(s, T, delta, b, n, jpa.PldAccountantConfig()))
        if q == 1.0:
            row["closed_form"] = closed_form(s, T, delta)
        out["settings"][name] = row
    out["total_seconds"] = round(time.time() - t_all, 1)
    text = json.dumps(out, indent=1)
    with open(OUT, "w") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
