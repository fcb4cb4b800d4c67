#!/usr/bin/env python3
"""Reference values for matrix-factorization (correlated-noise) mechanisms from jax_privacy.

Writes the JSON object to stdout (redirect it to tests/refs/mf_jax_privacy.json):

    ~/.cache/dp-playground/venv/bin/python tests/refs/mf_jax_privacy.py > tests/refs/mf_jax_privacy.json

Dev tool only (jax-privacy==2.0.0, dp-accounting==0.6.0, jax[cpu]==0.10.2 in the reference venv,
see scripts/reference/statement_env.sh). jax runs with jax_enable_x64 so every value is float64;
floats are written with Python's repr (shortest round-trip), so they are exact float64 values.

Conventions (jax_privacy.matrix_factorization, see its README.md):
  * workload A = prefix sums = lower-triangular ones (jnp.tri(n)); factorization A = B C.
  * C is the strategy ("encoder"), C^{-1} the noising matrix, B = A C^{-1} the decoder.
  * per_query_error[i] = ||B[i, :]||_2^2 (variance of the i-th prefix sum under unit iid noise,
    *without* sensitivity). error = reduction(per_query_error) with reduction mean or max.
  * loss = sens(C)^2 * error (squared; "rmse" in papers is sqrt of the mean-loss).
  * sensitivity: max over participation patterns of ||C u||_2, u the 0/1 participation vector
    (for C^T C >= 0 entrywise; otherwise |C^T C| is used, giving an upper bound).

Sections whose value is *not* computed by jax_privacy say so in their "source" field
(the binary tree strategy and brute-force sensitivity cross-checks are built here in numpy).
Optimiser outputs (optimize_banded_toeplitz, BLT optimize) depend on L-BFGS path and float
rounding; to test Rust to 1e-6, evaluate the *recorded parameters* with the closed forms and
compare to the recorded losses, rather than re-running an optimiser.
"""

import itertools
import json
import math
import platform
import sys
import time
from fractions import Fraction
from importlib import metadata

import jax

jax.config.update('jax_enable_x64', True)

import dp_accounting  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_privacy import accounting as jp_accounting  # noqa: E402
from jax_privacy.experimental import accounting as jp_exp_accounting  # noqa: E402
from jax_privacy.matrix_factorization import banded  # noqa: E402
from jax_privacy.matrix_factorization import buffered_toeplitz as bt  # noqa: E402
from jax_privacy.matrix_factorization import dense  # noqa: E402
from jax_privacy.matrix_factorization import sensitivity  # noqa: E402
from jax_privacy.matrix_factorization import toeplitz  # noqa: E402

MF = 'jax_privacy.matrix_factorization'


def f(x):
  """A Python float (full float64 precision) from a jax / numpy scalar."""
  return float(np.asarray(x, dtype=np.float64))


def finite(o):
  """JSON has no inf / nan: write them as the strings 'inf', '-inf', 'nan'."""
  if isinstance(o, float) and not math.isfinite(o):
    return repr(o)
  if isinstance(o, dict):
    return {k: finite(v) for k, v in o.items()}
  if isinstance(o, (list, tuple)):
    return [finite(v) for v in o]
  return o


def fl(xs):
  return [f(x) for x in np.asarray(xs, dtype=np.float64).ravel()]


# --------------------------------------------------------------------------------------------
# 1. Toeplitz square-root coefficients (Fichtenberger, Henzinger & Upadhyay 2023)
# --------------------------------------------------------------------------------------------
def exact_sqrt_coefs(n):
  """c_k = binom(2k, k) / 4^k, the coefficients of (1 - x)^(-1/2), as exact fractions."""
  return [Fraction(math.comb(2 * k, k), 4**k) for k in range(n)]


def section_sqrt_coefs():
  n = 16
  c = toeplitz.optimal_max_error_strategy_coefs(n)
  cinv = toeplitz.optimal_max_error_noising_coefs(n)
  exact = [float(x) for x in exact_sqrt_coefs(n)]
  # (1 - x)^{1/2} coefficients: 1, -1/2, -1/8, -1/16, ... = c_k - c_{k-1}.
  exact_inv = [float(x) for x in (
      [Fraction(1)] + [a - b for a, b in zip(exact_sqrt_coefs(n)[1:],
                                              exact_sqrt_coefs(n)[:-1])])]
  rel = max(abs(a - b) / abs(b) for a, b in zip(fl(c), exact))
  rel_inv = max(abs(a - b) / abs(b) for a, b in zip(fl(cinv), exact_inv))
  # A = C C check (materialized).
  C = toeplitz.materialize_lower_triangular(c)
  a_err = f(jnp.max(jnp.abs(C @ C - jnp.tri(n))))
  return {
      'function': f'{MF}.toeplitz.optimal_max_error_strategy_coefs(n)',
      'formula': 'cumprod(((2k-1)/(2k)).at[0].set(1)), k = 0..n-1  ==  binom(2k,k)/4^k',
      'inputs': {'n': n},
      'strategy_coefs': fl(c),
      'exact_binom_2k_k_over_4k': exact,
      'max_rel_diff_vs_exact': rel,
      'noising_coefs_function': f'{MF}.toeplitz.optimal_max_error_noising_coefs(n)',
      'noising_coefs_formula': 'c_k - c_{k-1} (coefficients of (1-x)^{1/2}); C^{-1} = A^{-1} C',
      'noising_coefs': fl(cinv),
      'noising_exact': exact_inv,
      'noising_max_rel_diff_vs_exact': rel_inv,
      'max_abs_entry_of_C_at_C_minus_A': a_err,
  }


# --------------------------------------------------------------------------------------------
# 2. Strategies, their error on the prefix workload and single-participation sensitivity
# --------------------------------------------------------------------------------------------
def binary_tree_strategy(n):
  """Binary-tree (dyadic) strategy for n a power of two, built here (not in jax_privacy).

  Rows of C: every dyadic interval [j 2^l, (j+1) 2^l) for l = 0..log2 n (2n-1 rows, levels from
  leaves to root). Returns (C, Cinv_plain, Cinv_honaker): Cinv_plain decodes prefix sum i from the
  <= log2(n)+1 dyadic nodes of [0, i] (B = A Cinv is 0/1); Cinv_honaker = pinv(C) (least squares,
  Honaker 2015 style full-tree estimator).
  """
  L = int(round(math.log2(n)))
  assert 2**L == n
  rows, nodes = [], {}
  for lvl in range(L + 1):
    w = 2**lvl
    for j in range(n // w):
      r = np.zeros(n)
      r[j * w:(j + 1) * w] = 1.0
      nodes[(lvl, j)] = len(rows)
      rows.append(r)
  C = np.array(rows)
  m = C.shape[0]
  B = np.zeros((n, m))
  for i in range(n):
    # prefix [0, i]: binary decomposition of i+1 from the largest level down.
    start, rem = 0, i + 1
    for lvl in range(L, -1, -1):
      w = 2**lvl
      if rem >= w:
        B[i, nodes[(lvl, start // w)]] = 1.0
        start += w
        rem -= w
  A = np.tri(n)
  assert np.allclose(B @ C, A)
  Cinv_plain = np.linalg.solve(A, B)  # so that A @ Cinv_plain = B
  Cinv_honaker = np.linalg.pinv(C)
  return C, Cinv_plain, Cinv_honaker


def toeplitz_entry(name, coef, n, description, function, keep_vector):
  coef = jnp.asarray(coef, dtype=jnp.float64)
  pqe = toeplitz.per_query_error(strategy_coef=coef, n=n)
  C = toeplitz.materialize_lower_triangular(coef, n)
  pqe_dense = dense.per_query_error(strategy_matrix=C)
  sens2 = toeplitz.sensitivity_squared(coef, n)
  out = {
      'strategy': name,
      'description': description,
      'construction': function,
      'toeplitz_coefs': fl(coef[:n]),
      'mean_error': f(jnp.mean(pqe)),
      'max_error': f(jnp.max(pqe)),
      'last_iterate_error': f(pqe[-1]),
      'sens_single': f(jnp.sqrt(sens2)),
      'sens_single_squared': f(sens2),
      'sens_single_dense': f(sensitivity.single_participation_sensitivity(C)),
      'loss_mean': f(toeplitz.loss(coef, n, jnp.mean)),
      'loss_max': f(toeplitz.loss(coef, n, jnp.max)),
      'max_rel_diff_toeplitz_vs_dense_per_query_error': f(
          jnp.max(jnp.abs(pqe - pqe_dense) / pqe_dense)),
  }
  out['rmse_derived_sqrt_loss_mean'] = math.sqrt(out['loss_mean'])
  if keep_vector:
    out['per_query_error'] = fl(pqe)
  return out, C


def dense_entry(name, C, n, description, function, keep_vector, noising=None):
  C = jnp.asarray(C, dtype=jnp.float64)
  if noising is None:
    pqe = dense.per_query_error(strategy_matrix=C)
  else:
    pqe = dense.per_query_error(noising_matrix=jnp.asarray(noising))
  sens = f(sensitivity.single_participation_sensitivity(C))
  out = {
      'strategy': name,
      'description': description,
      'construction': function,
      'mean_error': f(jnp.mean(pqe)),
      'max_error': f(jnp.max(pqe)),
      'last_iterate_error': f(pqe[-1]),
      'sens_single': sens,
      'sens_single_squared': sens * sens,
      'loss_mean': f(jnp.mean(pqe)) * sens * sens,
      'loss_max': f(jnp.max(pqe)) * sens * sens,
  }
  out['rmse_derived_sqrt_loss_mean'] = math.sqrt(out['loss_mean'])
  if keep_vector:
    out['per_query_error'] = fl(pqe)
  return out


def brute_force_minsep_sens(C, k, b):
  """Exact max_u ||C u||, u = 0/1 vector with <= k ones pairwise >= b apart (numpy, not jax_privacy).

  Uses |C^T C| (exact when C^T C >= 0 entrywise, an upper bound otherwise)."""
  X = np.abs(np.asarray(C).T @ np.asarray(C))
  n = X.shape[0]
  best = 0.0

  def rec(start, chosen):
    nonlocal best
    if chosen:
      idx = np.array(chosen)
      best = max(best, X[np.ix_(idx, idx)].sum())
    if len(chosen) == k:
      return
    for i in range(start, n):
      rec(i + b, chosen + [i])

  rec(0, [])
  return math.sqrt(best)


def multi_sens(C, k, b, coef=None, bands=None, brute=False):
  """Sensitivities of C under k participations separated by >= b (and fixed-epoch (k, n/k))."""
  C = jnp.asarray(C, dtype=jnp.float64)
  n = C.shape[1]
  out = {}
  if coef is not None:
    try:
      out['toeplitz_minsep'] = f(jnp.sqrt(toeplitz.minsep_sensitivity_squared(
          jnp.asarray(coef), min_sep=b, max_participations=k, n=n)))
    except ValueError as e:
      out['toeplitz_minsep'] = None
      out['toeplitz_minsep_error'] = str(e).split(',')[0]
  out['minsep_upper_bound'] = sensitivity.get_min_sep_sensitivity_upper_bound(
      C, min_sep=b, max_participations=k)
  if bands is not None and bands <= b:
    out['banded_exact'] = sensitivity.get_sensitivity_banded(
        C, min_sep=b, max_participations=k)
  if n % k == 0:
    out['fixed_epoch'] = sensitivity.fixed_epoch_sensitivity(C, epochs=k)
  if brute:
    out['brute_force_minsep_numpy'] = brute_force_minsep_sens(np.asarray(C), k, b)
  return out


MULTI = {16: (2, 8), 64: (4, 16), 256: (8, 32)}
BANDS = (2, 4, 8)


def section_strategies(timings):
  res = {}
  for n in (16, 64, 256, 2000):
    t0 = time.time()
    keep = n <= 64
    entries = []
    mats = {}  # name -> (C, coef or None, bands or None, noising or None)

    e, C = toeplitz_entry('identity', [1.0], n, 'C = I (independent noise, DP-SGD-like)',
                          f'{MF}.toeplitz with coef [1.0]', keep)
    entries.append(e); mats['identity'] = (C, jnp.array([1.0]), 1)
    e, C = toeplitz_entry('toeplitz_sqrt', toeplitz.optimal_max_error_strategy_coefs(n), n,
                          'C = B = A^{1/2}, full Toeplitz sqrt (FHU23)',
                          f'{MF}.toeplitz.optimal_max_error_strategy_coefs(n)', keep)
    entries.append(e); mats['toeplitz_sqrt'] = (C, toeplitz.optimal_max_error_strategy_coefs(n), n)

    if n & (n - 1) == 0:
      Ct, Cp, Ch = binary_tree_strategy(n)
      entries.append(dense_entry(
          'binary_tree_plain', Ct, n,
          'NOT IN jax_privacy: dyadic tree C ((2n-1) x n), prefix decoded from its <= log2(n)+1'
          ' dyadic nodes; evaluated with dense.per_query_error(noising_matrix=A^{-1} B)',
          'numpy (this script) + jax_privacy.matrix_factorization.dense', keep, noising=Cp))
      entries.append(dense_entry(
          'binary_tree_honaker', Ct, n,
          'NOT IN jax_privacy: same tree, Cinv = pinv(C) (least-squares decoding)',
          'numpy (this script) + jax_privacy.matrix_factorization.dense', keep, noising=Ch))
      mats['binary_tree'] = (jnp.asarray(Ct), None, None)

    for b in BANDS:
      if b > n:
        continue
      # (i) truncated sqrt, plain banded Toeplitz (not normalised): the initialiser of
      #     optimize_banded_toeplitz and the "banded sqrt" of Kalinin & Lampert 2024.
      coef = toeplitz.optimal_max_error_strategy_coefs(b)
      e, C = toeplitz_entry(f'banded_sqrt_toeplitz_b{b}', coef, n,
                            f'first {b} sqrt coefficients, zero beyond (banded Toeplitz)',
                            f'{MF}.toeplitz.optimal_max_error_strategy_coefs({b})', keep)
      entries.append(e); mats[f'banded_sqrt_toeplitz_b{b}'] = (C, coef, b)
      # (ii) the same, column-normalised (jax_privacy's BandMF default initialiser).
      cnb = banded.ColumnNormalizedBanded.default(n, b)
      Cn = cnb.materialize()
      pqe = banded.per_query_error(cnb)
      e = dense_entry(f'bandmf_colnorm_sqrt_b{b}', Cn, n,
                      f'truncated sqrt, {b} bands, each column scaled to L2 norm 1',
                      f'{MF}.banded.ColumnNormalizedBanded.default(n, {b}); '
                      f'error by {MF}.banded.per_query_error', keep)
      e['max_rel_diff_banded_vs_dense_per_query_error'] = f(jnp.max(jnp.abs(
          pqe - dense.per_query_error(strategy_matrix=Cn)) / pqe))
      e['mean_error'] = f(jnp.mean(pqe)); e['max_error'] = f(jnp.max(pqe))
      e['loss_mean'] = e['mean_error'] * e['sens_single_squared']
      e['loss_max'] = e['max_error'] * e['sens_single_squared']
      e['rmse_derived_sqrt_loss_mean'] = math.sqrt(e['loss_mean'])
      if keep:
        e['per_query_error'] = fl(pqe)
      entries.append(e); mats[f'bandmf_colnorm_sqrt_b{b}'] = (Cn, None, b)
      # (iii) optimised banded Toeplitz (BandMF24), for mean and for max error.
      for red_name, red in (('mean', jnp.mean), ('max', jnp.max)):
        t1 = time.time()
        coef = toeplitz.optimize_banded_toeplitz(n, b, reduction_fn=red)
        dt = time.time() - t1
        e, C = toeplitz_entry(
            f'bandmf_opt_toeplitz_{red_name}_b{b}', coef, n,
            f'optimised {b}-banded Toeplitz for {red_name} loss, normalised to ||coef||=1',
            f'{MF}.toeplitz.optimize_banded_toeplitz(n, {b}, '
            f'reduction_fn=jnp.{red_name}) [L-BFGS memory 1, backtracking 128, 250 steps, '
            'init = truncated sqrt]', keep)
        e['optimizer_seconds'] = dt
        entries.append(e); mats[f'bandmf_opt_toeplitz_{red_name}_b{b}'] = (C, coef, b)

    if n <= 64:
      t1 = time.time()
      Cd = dense.optimize(n)
      dt = time.time() - t1
      e = dense_entry('dense_opt_mean_single', Cd, n,
                      'optimal dense lower-triangular C for mean error, single participation'
                      ' (Denisov et al. 2022); column norms all 1',
                      f'{MF}.dense.optimize(n) [L-BFGS on X = C^T C, <=10000 steps, stop at'
                      ' max|projected grad| <= 1e-3]', keep)
      e['optimizer_seconds'] = dt
      entries.append(e)
      if n in MULTI:
        k, b = MULTI[n]
        t1 = time.time()
        Ce = dense.optimize(n, epochs=k)
        dt = time.time() - t1
        e = dense_entry(f'dense_opt_mean_fixed_epoch_k{k}', Ce, n,
                        f'optimal dense C for mean error under fixed-epoch ({k}, {n // k})'
                        ' participation (Choquette-Choo et al. 2023)',
                        f'{MF}.dense.optimize(n, epochs={k})', keep)
        e['optimizer_seconds'] = dt
        e['sens_fixed_epoch'] = sensitivity.fixed_epoch_sensitivity(Ce, epochs=k)
        e['loss_mean_fixed_epoch'] = e['mean_error'] * e['sens_fixed_epoch'] ** 2
        entries.append(e)

    # Multi-participation sensitivities.
    multi = None
    if n in MULTI:
      k, b = MULTI[n]
      multi = {'k_max_participations': k, 'b_min_sep': b, 'per_strategy': {}}
      for name, (C, coef, bands) in mats.items():
        s = multi_sens(C, k, b, coef=coef, bands=bands, brute=(n <= 64))
        multi['per_strategy'][name] = s
    res[str(n)] = {'n': n, 'strategies': entries, 'multi_participation_sensitivity': multi}
    timings[f'strategies_n{n}'] = time.time() - t0
  return res


# --------------------------------------------------------------------------------------------
# 3. Stand-alone sensitivity cases (toeplitz.minsep_sensitivity_squared is the (k, b) formula)
# --------------------------------------------------------------------------------------------
def section_minsep_formula():
  cases = []
  for n, k, b in ((16, 2, 8), (64, 4, 16), (256, 8, 32), (16, 3, 5), (10, None, 3),
                  (17, 2, 8), (64, 1, 1)):
    c = toeplitz.optimal_max_error_strategy_coefs(n)
    s2 = toeplitz.minsep_sensitivity_squared(c, min_sep=b, max_participations=k, n=n)
    # The same by hand: columns 0, b, ..., (k'-1)b summed, k' = min(k, ceil(n/b)).
    kk = sensitivity.minsep_true_max_participations(n, b, k)
    C = np.asarray(toeplitz.materialize_lower_triangular(c))
    u = np.zeros(n); u[[j * b for j in range(kk)]] = 1.0
    cases.append({'n': n, 'k': k, 'b': b, 'k_effective': kk,
                  'sens_squared': f(s2), 'sens': math.sqrt(f(s2)),
                  'by_hand_columns_0_b_2b_sum_norm_squared': float(np.sum((C @ u) ** 2))})
  return {
      'function': f'{MF}.toeplitz.minsep_sensitivity_squared(strategy_coef, min_sep=b, '
                  'max_participations=k, n=n)',
      'strategy': 'full Toeplitz sqrt, coefs optimal_max_error_strategy_coefs(n)',
      'formula': 'k_eff = min(k, ceil(n/b)) (k=None -> ceil(n/b)); '
                 'v[t] = sum_{j=0}^{k_eff-1} coef[t - j b] (coef[<0] = 0); sens^2 = sum_t v[t]^2,'
                 ' i.e. ||C (e_0 + e_b + ... + e_{(k_eff-1)b})||^2. Requires coef >= 0 and '
                 'non-increasing (checked, raises ValueError otherwise).',
      'cases': cases,
  }


# --------------------------------------------------------------------------------------------
# 4. BLT (buffered linear Toeplitz)
# --------------------------------------------------------------------------------------------
def blt_record(blt, n, min_sep=1, k=1, mean_too=True):
  inv = blt.inverse()
  coefs = blt.toeplitz_coefs(n)
  inv_coefs = inv.toeplitz_coefs(n)
  rec = {
      'buf_decay': fl(blt.buf_decay),
      'output_scale': fl(blt.output_scale),
      'inverse_buf_decay': fl(inv.buf_decay),
      'inverse_output_scale': fl(inv.output_scale),
      'pillutla_score': f(blt.pillutla_score()),
      'toeplitz_coefs_first16': fl(coefs[:16]),
      'inverse_toeplitz_coefs_first16': fl(inv_coefs[:16]),
      'n': n,
      'sens_squared_single_closed_form': f(bt.sensitivity_squared(blt, n)),
      'max_error_closed_form': f(bt.max_error(inv, n)),
      'max_loss_closed_form': f(bt.max_loss(blt, n)),
      'limit_max_loss_over_n': f(bt.limit_max_loss(blt)),
      'sens_squared_single_from_coefs': f(toeplitz.sensitivity_squared(coefs, n)),
      'max_error_from_inverse_coefs': f(jnp.max(toeplitz.per_query_error(noising_coef=inv_coefs))),
      'mean_error_from_inverse_coefs': f(jnp.mean(
          toeplitz.per_query_error(noising_coef=inv_coefs))),
      'mean_error_from_strategy_coefs': f(jnp.mean(
          toeplitz.per_query_error(strategy_coef=coefs))),
  }
  if n <= 64:
    rec['per_query_error'] = fl(toeplitz.per_query_error(noising_coef=inv_coefs))
  if k > 1 or min_sep > 1:
    rec['min_sep'] = min_sep
    rec['max_participations'] = k
    s2 = toeplitz.minsep_sensitivity_squared(coefs, min_sep=min_sep, max_participations=k)
    rec['sens_squared_minsep'] = f(s2)
    rec['loss_max_minsep'] = f(bt.LossFn.build_min_sep(
        n=n, error='max', min_sep=min_sep, max_participations=k).loss(blt))
    rec['loss_mean_minsep'] = f(bt.LossFn.build_min_sep(
        n=n, error='mean', min_sep=min_sep, max_participations=k).loss(blt))
  else:
    rec['loss_mean_single'] = rec['mean_error_from_inverse_coefs'] * rec[
        'sens_squared_single_from_coefs']
  return rec


def section_blt(timings):
  out = {
      'module': f'{MF}.buffered_toeplitz',
      'parametrisation': 'C lower-triangular Toeplitz with c_0 = 1, c_i = sum_j output_scale[j] *'
                         ' buf_decay[j]^(i-1) for i >= 1 (BufferedToeplitz.toeplitz_coefs). '
                         'C^{-1} is again a BLT (BufferedToeplitz.inverse): same form with '
                         'inverse_buf_decay / inverse_output_scale (eigen-decomposition of '
                         'diag(theta) - omega 1^T).',
      'closed_forms': {
          'sensitivity_squared(blt, n)': '1 + sum_{i,j} w_i w_j (1 - (t_i t_j)^(n-1)) / (1 - '
                                         't_i t_j)  [Dvijotham et al. 2024 (2404.16706) Lemma 5.3;'
                                         ' = ||coefs||^2, the max column norm^2]',
          'max_error(inv_blt, n)': 'n (1 + 2 sum_j G_j + sum_{j,k} G_jk), G_j = w_j/(1-t_j) (1 -'
                                   ' S(t_j, n)/n), G_jk = w_j w_k /((1-t_j)(1-t_k)) (n - S(t_j,n)'
                                   ' - S(t_k,n) + S(t_j t_k,n))/n, S(r,n) = (1-r^n)/(1-r); '
                                   '(w, t) = inverse BLT params; = last-row ||B_{n-1}||^2 '
                                   '[2404.16706 Lemma 5.4]; Taylor series near t=1',
          'max_loss(blt, n)': 'sensitivity_squared(blt, n) * max_error(blt.inverse(), n)',
          'limit_max_loss(blt)': 'lim (1/n) max_loss: (1 + 2 sum w/(1-t) + (sum w/(1-t))^2) *'
                                 ' (1 + sum w_i w_j/(1 - t_i t_j))',
          'min-sep loss (LossFn.build_min_sep)': 'error = mean or max of toeplitz.per_query_error('
                                                 'noising_coef=inv.toeplitz_coefs(n)); sens^2 = '
                                                 'toeplitz.minsep_sensitivity_squared(coefs, b, k)',
      },
      'optimizer': 'buffered_toeplitz.optimize_loss(loss_fn, num_buffers): parameters = '
                   '(buf_decay of C, buf_decay of C^{-1}) (Parameterization.buf_decay_pair, '
                   'output scales from Lemma 5.2 / blt_pair_from_theta_pair); init '
                   'from_rational_approx_to_sqrt_x(nbuf, max_buf_decay=1-1e-6, '
                   'max_pillutla_score=1-1e-6); optax.lbfgs(memory_size=15, zoom linesearch '
                   'max 100 steps, curv_rtol 0.5, max_learning_rate 1, stepsize_precision 1e-20),'
                   ' 600 steps; objective loss / (k + (1 + ln(n)/pi)^2) + 1e-8 * log-barrier '
                   'penalties (0<buf_decay<1, output_scale>0, 0<inv_buf_decay<1, '
                   'inv_output_scale<0, theta gaps > 1e-12, sum(output_scale) < 1, pillutla score'
                   ' sum(output_scale/buf_decay) < 1). buffered_toeplitz.optimize(...) wraps it, '
                   'trying 0..10 buffers until improvement < rtol=1.01.',
      'fixed_examples': {},
      'optimised': [],
  }
  # Deterministic BLTs (evaluate their closed forms in Rust without any optimiser).
  hand = bt.BufferedToeplitz.build(buf_decay=[0.9, 0.5], output_scale=[0.3, 0.1])
  out['fixed_examples']['hand_2buf_n64'] = {
      'construction': 'BufferedToeplitz.build(buf_decay=[0.9, 0.5], output_scale=[0.3, 0.1])',
      **blt_record(hand, 64)}
  out['fixed_examples']['hand_2buf_n256_k4_b64'] = {
      'construction': 'BufferedToeplitz.build(buf_decay=[0.9, 0.5], output_scale=[0.3, 0.1])',
      **blt_record(hand, 256, min_sep=64, k=4)}
  ra = bt.get_init_blt(num_buffers=3)
  out['fixed_examples']['rational_approx_3buf_n64'] = {
      'construction': 'buffered_toeplitz.get_init_blt(num_buffers=3) = BufferedToeplitz.'
                      'from_rational_approx_to_sqrt_x(3, max_buf_decay=1-1e-6, '
                      'max_pillutla_score=1-1e-6) (RA-BLT, 2404.16706 Prop 4.5, buf_decay_scale='
                      '1.6, buf_decay_shift=-1; the optimiser init). Without max_buf_decay the '
                      'largest buf_decay comes out as exactly 1.0 in float64.',
      **blt_record(ra, 64)}

  settings = []
  for nb in (2, 3, 4):
    settings.append(('single_max', 64, 1, 1, nb,
                     lambda: bt.LossFn.build_closed_form_single_participation(64),
                     'LossFn.build_closed_form_single_participation(n=64)'))
  for nb in (2, 3):
    settings.append(('single_mean', 64, 1, 1, nb,
                     lambda: bt.LossFn.build_min_sep(n=64, error='mean', min_sep=1,
                                                     max_participations=1),
                     "LossFn.build_min_sep(n=64, error='mean', min_sep=1, max_participations=1)"))
  for nb in (2, 3, 4):
    settings.append(('minsep_max', 256, 64, 4, nb,
                     lambda: bt.LossFn.build_min_sep(n=256, error='max', min_sep=64,
                                                     max_participations=4),
                     "LossFn.build_min_sep(n=256, error='max', min_sep=64, max_participations=4)"))
  for nb in (3,):
    settings.append(('minsep_mean', 256, 64, 4, nb,
                     lambda: bt.LossFn.build_min_sep(n=256, error='mean', min_sep=64,
                                                     max_participations=4),
                     "LossFn.build_min_sep(n=256, error='mean', min_sep=64, max_participations=4)"))
  t_all = time.time()
  for tag, n, b, k, nb, mk, desc in settings:
    t0 = time.time()
    blt, loss = bt.optimize_loss(mk(), num_buffers=nb)
    dt = time.time() - t0
    rec = {'setting': tag, 'num_buffers': nb, 'loss_fn': desc,
           'call': f'{MF}.buffered_toeplitz.optimize_loss(loss_fn, num_buffers={nb})',
           'optimizer_seconds': dt, 'returned_loss': f(loss),
           **blt_record(blt, n, min_sep=b, k=k)}
    out['optimised'].append(rec)
  t0 = time.time()
  auto = bt.optimize(n=64)
  out['optimize_auto_n64_single_max'] = {
      'call': f'{MF}.buffered_toeplitz.optimize(n=64)  (min_sep=1, max_participations=1, '
              "error='max', 0..10 buffers, rtol=1.01)",
      'optimizer_seconds': time.time() - t0, **blt_record(auto, 64)}
  timings['blt'] = time.time() - t_all
  return out


# --------------------------------------------------------------------------------------------
# 5. Amplified BandMF accounting and calibration
# --------------------------------------------------------------------------------------------
def pld():
  return dp_accounting.pld.PLDAccountant(
      neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE,
      value_discretization_interval=1e-4)


def rdp_default():
  return dp_accounting.rdp.RdpAccountant()


def rdp_jp():
  return jp_accounting.RdpAccountantConfig().create_accountant()


def eps_of(make_acc, event, delta):
  return float(make_acc().compose(event).get_epsilon(delta))


def section_amplified(timings):
  t_all = time.time()
  out = {
      'event_function': 'jax_privacy.experimental.accounting.amplified_bandmf_event('
                        'noise_multiplier, iterations, num_bands=b, sampling_prob=q)',
      'event': 'SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), '
               'count=ceil(iterations / b)); q is the Poisson probability *within one of the b '
               'groups* (= batch_size / (num_samples // b) in DpsgdTrainingAccountant). '
               'sigma = noise multiplier for a strategy with max column norm 1 '
               '(noise stddev = sigma * clip * sens_single(C)).',
      'theorem': 'Choquette-Choo et al. 2023 (2306.08153) Thm 4: b-banded C with column norms '
                 '<= 1 under cyclic Poisson sampling (b groups, round i uses group i mod b) is as '
                 'private as DP-SGD with ceil(T/b) steps at sampling prob q.',
      'accountants': {
          'pld': 'dp_accounting.pld.PLDAccountant(ADD_OR_REMOVE_ONE, '
                 'value_discretization_interval=1e-4) (jax_privacy PldAccountantConfig default)',
          'rdp_dp_accounting_default': 'dp_accounting.rdp.RdpAccountant() (DEFAULT_RDP_ORDERS: '
                                       '1.1..10.9 step 0.1, 11..63, 128, 256, 512, 1024)',
          'rdp_jax_privacy_default': 'jax_privacy.accounting.RdpAccountantConfig() orders: '
                                     'linspace(1.01, 8, 50) ++ arange(8, 64) ++ '
                                     'linspace(65, 512, 10, dtype=int)',
          'rdp_to_dp': 'eps = min_a r_a + log1p(-1/a) - log(delta a)/(a-1) (a > 1.01) '
                       '[Canonne-Kamath-Steinke 2020 / Asoodeh et al.]',
      },
      'rdp_jax_privacy_orders': fl(jp_accounting.RdpAccountantConfig().orders),
      'epsilon_cases': [],
      'calibration_cases': [],
  }
  cases = [
      # sigma, T steps, bands, num_samples N, batch B, delta
      (1.0, 2000, 8, 60000, 100, 1e-5),
      (1.0, 2000, 8, 60000, 100, 1e-6),
      (0.8, 1000, 4, 10000, 50, 1e-5),
      (2.0, 512, 16, 50000, 500, 1e-6),
      (1.1, 1000, 1, 60000, 256, 1e-5),
      (4.0, 100, 10, 1000, 10, 1e-6),
  ]
  for sigma, T, b, N, B, delta in cases:
    q = B / (N // b)
    ev = jp_exp_accounting.amplified_bandmf_event(sigma, T, num_bands=b, sampling_prob=q)
    rec = {'noise_multiplier': sigma, 'iterations': T, 'num_bands': b, 'num_samples': N,
           'batch_size': B, 'delta': delta, 'sampling_prob': q,
           'composed_rounds': math.ceil(T / b), 'event_repr': repr(ev),
           'eps_pld': eps_of(pld, ev, delta),
           'eps_rdp_dp_accounting_orders': eps_of(rdp_default, ev, delta),
           'eps_rdp_jax_privacy_orders': eps_of(rdp_jp, ev, delta)}
    params = jp_accounting.DpParams(noise_multipliers=sigma, num_samples=N, delta=delta,
                                    batch_size=B, cycle_length=b)
    rec['eps_DpsgdTrainingAccountant_pld'] = jp_accounting.DpsgdTrainingAccountant(
        jp_accounting.PldAccountantConfig()).compute_epsilon(T, params)
    rec['eps_DpsgdTrainingAccountant_rdp'] = jp_accounting.DpsgdTrainingAccountant(
        jp_accounting.RdpAccountantConfig()).compute_epsilon(T, params)
    out['epsilon_cases'].append(rec)

  # Calibration of sigma for (eps, delta) targets.
  T, b, N, B = 2000, 8, 60000, 100
  q = B / (N // b)
  make = lambda s: jp_exp_accounting.amplified_bandmf_event(s, T, num_bands=b, sampling_prob=q)
  for delta in (1e-6, 1e-5):
    for eps in (1.0, 3.0, 8.0):
      rec = {'target_epsilon': eps, 'target_delta': delta, 'iterations': T, 'num_bands': b,
             'num_samples': N, 'batch_size': B, 'sampling_prob': q,
             'composed_rounds': math.ceil(T / b)}
      for name, acc in (('pld', pld), ('rdp_dp_accounting_orders', rdp_default)):
        s = dp_accounting.calibrate_dp_mechanism(acc, make, eps, delta)
        s_tight = dp_accounting.calibrate_dp_mechanism(acc, make, eps, delta, tol=1e-12)
        rec[f'sigma_{name}'] = float(s)
        rec[f'sigma_{name}_tol1e-12'] = float(s_tight)
        rec[f'eps_at_sigma_{name}_tol1e-12'] = eps_of(acc, make(s_tight), delta)
      rec['sigma_jax_privacy_calibrate_noise_multiplier_rdp'] = \
          jp_accounting.calibrate_noise_multiplier(
              target_epsilon=eps, accountant=jp_accounting.DpsgdTrainingAccountant(
                  jp_accounting.RdpAccountantConfig()),
              batch_sizes=B, num_updates=T, num_samples=N, target_delta=delta, cycle_length=b)
      out['calibration_cases'].append(rec)
  out['calibration_function'] = (
      'dp_accounting.calibrate_dp_mechanism(make_fresh_accountant, make_event, target_epsilon, '
      'target_delta) [Brent on sigma, bracket from [0,1] doubling; default tol 1e-6 absolute, '
      'returns the smallest sigma (within tol) with eps(sigma) <= target]; '
      'jax_privacy.accounting.calibrate_noise_multiplier(...) uses scipy brentq with tol=0.01 '
      '(coarse), bracket [0, 1] doubling, also on the eps <= target side.')

  # The helper used by toeplitz.optimize_coefs_for_amplifications.
  helper = toeplitz._AmplifiedBandMFHelper(n=64, dataset_size=1024, batch_size=64, epsilon=3.0,
                                           delta=1e-6)
  tnm = {str(bb): float(helper.total_noise_multiplier(bb)) for bb in (1, 2, 4, 8, 16)}
  t0 = time.time()
  coef, stddev = toeplitz.optimize_coefs_for_amplifications(
      64, dataset_size=1024, expected_batch_size=64, epsilon=3.0, delta=1e-6)
  out['optimize_coefs_for_amplifications'] = {
      'call': f'{MF}.toeplitz.optimize_coefs_for_amplifications(64, dataset_size=1024, '
              'expected_batch_size=64, epsilon=3.0, delta=1e-6)  (reduction_fn=jnp.mean)',
      'total_noise_multiplier_by_bands': tnm,
      'total_noise_multiplier_definition': '_AmplifiedBandMFHelper.total_noise_multiplier(b): '
          'calibrate_dp_mechanism(RdpAccountant (dp_accounting default orders), '
          'sigma -> SelfComposed(PoissonSampled(q = batch/(dataset_size//b), Gaussian(sigma)), '
          'ceil(n/b)), eps, delta, bracket ExplicitBracketInterval(0.01, int(100*sqrt(batch))))',
      'loss_definition': 'amplified_bandmf_loss = sqrt(toeplitz.loss(coef, n, reduction)) * '
                         'total_noise_multiplier(b) / batch_size; bands tried: factors of '
                         'dataset_size <= dataset_size // batch_size',
      'chosen_bands': int(len(coef)),
      'coef': fl(coef),
      'stddev': float(stddev),
      'stddev_definition': 'total_noise_multiplier(b) * ||coef||_2 (||coef|| = 1 after '
                           'optimize_banded_toeplitz normalisation)',
      'seconds': time.time() - t0,
  }
  timings['amplified'] = time.time() - t_all
  return out


def main():
  timings = {}
  t0 = time.time()
  result = {
      'version': {
          'jax_privacy': metadata.version('jax_privacy'),
          'dp_accounting': metadata.version('dp_accounting'),
          'jax': metadata.version('jax'),
          'jaxlib': metadata.version('jaxlib'),
          'optax': metadata.version('optax'),
          'numpy': np.__version__,
          'python': platform.python_version(),
          'jax_enable_x64': bool(jax.config.read('jax_enable_x64')),
          'platform': platform.platform(),
      },
      'conventions': {
          'workload': 'A = jnp.tri(n) (prefix sums); A = B C; B = A C^{-1}',
          'per_query_error': 'vector e[i] = ||B[i,:]||_2^2 (unit-variance noise, no '
                             'sensitivity)  [toeplitz.per_query_error / dense.per_query_error /'
                             ' banded.per_query_error]',
          'mean_error': 'mean_i e[i] = ||B||_F^2 / n',
          'max_error': 'max_i e[i] (= e[n-1] for Toeplitz C with Toeplitz B)',
          'loss_mean': 'sens^2 * ||B||_F^2 / n  (toeplitz.loss(coef, n, jnp.mean)); squared, '
                       'NOT rmse',
          'loss_max': 'sens^2 * max_i ||B[i,:]||^2 (toeplitz.loss(coef, n, jnp.max))',
          'rmse_derived_sqrt_loss_mean': 'sqrt(loss_mean); computed here, jax_privacy only '
                                         'mentions it in README',
          'sens_single': 'max_j ||C[:, j]||_2 (sensitivity.single_participation_sensitivity; '
                         'for Toeplitz = ||coef[:n]||_2, toeplitz.sensitivity_squared)',
      },
  }
  result['toeplitz_sqrt_coefficients'] = section_sqrt_coefs()
  result['strategies_by_n'] = section_strategies(timings)
  result['minsep_sensitivity_formula'] = section_minsep_formula()
  result['multi_participation_functions'] = {
      'toeplitz_minsep': f'{MF}.toeplitz.minsep_sensitivity_squared (sqrt taken); needs '
                         'coef >= 0 non-increasing; None when the check fails',
      'minsep_upper_bound': f'{MF}.sensitivity.get_min_sep_sensitivity_upper_bound(C, b, k): '
                            'sqrt(VecSens(row-wise VecSens(|C^T C|))) (2306.08153 Alg. 4); any '
                            'C; exact for b-banded C',
      'banded_exact': f'{MF}.sensitivity.get_sensitivity_banded(C, b, k): '
                      'sqrt(max_u sum_{i in u} (C^T C)_{ii}) requiring (C^T C)_{ij} = 0 for '
                      '|i-j| >= b (C with <= b bands)',
      'fixed_epoch': f'{MF}.sensitivity.fixed_epoch_sensitivity(C, epochs=k): '
                     'max_{i < n/k} sqrt(sum |X[P_i, P_i]|), P_i = {i, i + n/k, ...}, X = C^T C',
      'brute_force_minsep_numpy': 'NOT jax_privacy: exhaustive max over 0/1 u with <= k ones '
                                  'pairwise >= b apart of sqrt(sum |X[u,u]|) (n <= 64 only)',
  }
  result['blt'] = section_blt(timings)
  result['amplified_bandmf'] = section_amplified(timings)
  timings['total'] = time.time() - t0
  result['timings_seconds'] = timings
  json.dump(finite(result), sys.stdout, indent=1, allow_nan=False)
  sys.stdout.write('\n')


if __name__ == '__main__':
  main()
