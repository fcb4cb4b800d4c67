#!/usr/bin/env python3
"""Benchmark, jax_privacy's half: the compute time of jax_privacy 2.0.0's matrix-factorization code on
the settings `cargo bench --bench mf` times for our Rust core (scripts/bench-mf.sh joins the two).

    ~/.cache/dp-playground/venv/bin/python scripts/reference/bench_mf.py      # about 2 minutes

Prints one line per setting, `jax <key> <milliseconds>` (or `jax <key> skipped <reason>`), and for the
BLT optimisations `jax-loss <key> <loss>`; wall times and compile times go to stderr.
  eval-sqrt-T{256,2000,10000,100000}  Toeplitz square root (FHU23): strategy and noising coefficients,
                                      per-step error of the prefix sums, single-participation sensitivity
  eval-banded8-k4-T2000               the sqrt's first 8 coefficients as a banded Toeplitz C: per-step
                                      error, min-sep sensitivity (k = 4, b = 500)
  blt-opt3-*                          buffered_toeplitz.optimize_loss(LossFn.build_min_sep(...), 3 buffers)
Calls as in tests/refs/mf_jax_privacy.py. CPU, jax_enable_x64. Each setting runs once to warm up, then
3 times (median) or once if a run takes over 10 s. JIT compile is excluded by subtracting the durations
jax itself reports (trace, lowering, backend compile): one warm-up is not enough, because
optimization.optimize jits a fresh closure on every call, so every optimize_loss call compiles again
(about 2-3 s of a 3 s call at n = 64). Times are of jax's default multi-threaded CPU backend.
"""

import os
import statistics
import sys
import time

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
import jax  # noqa: E402

jax.config.update('jax_enable_x64', True)

import jax.numpy as jnp  # noqa: E402
from jax_privacy.matrix_factorization import buffered_toeplitz as bt  # noqa: E402
from jax_privacy.matrix_factorization import toeplitz  # noqa: E402

# Seconds jax spends compiling (its own monitoring events), subtracted from each run's wall time.
_compile = [0.0]


def _on_duration(event, secs, **_):
  if event.startswith('/jax/core/compile/'):
    _compile[0] += secs


jax.monitoring.register_event_duration_secs_listener(_on_duration)


def run(fn):
  """(compute seconds, wall seconds, result) of one call, waiting for jax's async dispatch."""
  c0, t0 = _compile[0], time.perf_counter()
  out = jax.block_until_ready(fn())
  wall = time.perf_counter() - t0
  return wall - (_compile[0] - c0), wall, out


def bench(key, fn, loss=False):
  try:
    warm, warm_wall, _ = run(fn)
  except Exception as e:  # out of memory (MemoryError, XlaRuntimeError RESOURCE_EXHAUSTED), ...
    print(f'jax {key} skipped {type(e).__name__}: {str(e).splitlines()[0][:80]}', flush=True)
    return
  if warm > 60:
    print(f'jax {key} skipped warm-up took {warm:.0f} s (> 60 s)', flush=True)
    return
  runs = [run(fn)]
  if runs[0][1] <= 10:
    runs += [run(fn), run(fn)]
  secs = statistics.median(r[0] for r in runs)
  print(f'jax {key} {secs * 1e3:.3f}', flush=True)
  if loss:
    print(f'jax-loss {key} {float(runs[-1][2])!r}', flush=True)
  print(f'  {key}: compute ms {[round(r[0] * 1e3, 3) for r in runs]}, wall ms '
        f'{[round(r[1] * 1e3, 3) for r in runs]} (warm-up wall {warm_wall * 1e3:.0f})',
        file=sys.stderr, flush=True)


def eval_sqrt(n):
  c = toeplitz.optimal_max_error_strategy_coefs(n)
  c_inv = toeplitz.optimal_max_error_noising_coefs(n)
  per_step = toeplitz.per_query_error(noising_coef=c_inv)
  sens = jnp.sqrt(toeplitz.sensitivity_squared(c, n))
  return per_step, sens


def eval_banded(n, bands, k, b):
  c = toeplitz.optimal_max_error_strategy_coefs(bands)  # the sqrt's first `bands` coefficients
  per_step = toeplitz.per_query_error(strategy_coef=c, n=n)  # B = A C^{-1} by a banded solve
  sens = jnp.sqrt(toeplitz.minsep_sensitivity_squared(c, min_sep=b, max_participations=k, n=n))
  return per_step, sens


def blt(n, error, min_sep, k):
  loss_fn = bt.LossFn.build_min_sep(n=n, error=error, min_sep=min_sep, max_participations=k)
  return bt.optimize_loss(loss_fn, num_buffers=3)[1]


def main():
  for n in (256, 2000, 10000, 100000):
    bench(f'eval-sqrt-T{n}', lambda n=n: eval_sqrt(n))
  bench('eval-banded8-k4-T2000', lambda: eval_banded(2000, 8, 4, 500))
  bench('blt-opt3-n64-single-mean', lambda: blt(64, 'mean', 1, 1), loss=True)
  bench('blt-opt3-n256-k4-b64-max', lambda: blt(256, 'max', 64, 4), loss=True)
  bench('blt-opt3-n2000-single-mean', lambda: blt(2000, 'mean', 1, 1), loss=True)


if __name__ == '__main__':
  main()
