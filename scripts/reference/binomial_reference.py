"""Reference binomial probabilities and tails for src/numerics/binomial.rs's tests.

Dev tool only, never a runtime dependency. From the repository root:

    ~/.cache/dp-playground/venv/bin/python scripts/reference/binomial_reference.py

Prints Rust rows (n, p, k, P(X = k), P(X >= k), P(X <= k)) from scipy.stats.binom (pmf, sf, cdf:
Boost's binomial pmf and incomplete beta), at sizes up to the randomized-response lab's 10^7 and
at k from six standard deviations below the mean to six above.
"""
import math

import scipy
from scipy import stats

print(f"    // scipy {scipy.__version__}")
for n in (10, 1000, 100_000, 5_000_000, 9_999_999):
    for p in (0.5, 1 / (math.e + 1), 1e-3, 0.999):
        mean, sd = n * p, math.sqrt(n * p * (1 - p))
        ks = sorted({min(n, max(0, round(mean + z * sd))) for z in (-6, -2, 0, 2, 6)})
        for k in ks:
            pmf, sf, cdf = stats.binom.pmf(k, n, p), stats.binom.sf(k - 1, n, p), stats.binom.cdf(k, n, p)
            print(f"    ({n}, {p!r}, {k}, {float(pmf)!r}, {float(sf)!r}, {float(cdf)!r}),")

# Clopper-Pearson ends for src/attacks/audit.rs's tests: (k, n, alpha, upper, lower), the Beta(k + 1, n - k)
# quantile at 1 - alpha and the Beta(k, n - k + 1) quantile at alpha, solved in mpmath at 50 digits
# (findroot on the regularized incomplete beta function, started from scipy.stats.beta.ppf, which is
# itself up to ~1e-9 off at n = 2e8). Only where mpmath's betainc is quick: min(k, n - k) small or n small.
import mpmath as mp

mp.mp.dps = 50
print("    // Clopper-Pearson, mpmath findroot on betainc (50 digits)")
for n, k in ((1000, 500), (1000, 1), (100_000, 1000), (1_000_000, 10), (100_000, 99_990)):
    for alpha in (0.05, 0.0125, 1e-6, 0.7):
        def end(a, b, level):
            f = lambda p: mp.betainc(a, b, 0, p, regularized=True) - level
            return float(mp.findroot(f, mp.mpf(stats.beta.ppf(float(level), a, b)), tol=mp.mpf('1e-60')))
        if n - k < k:  # near p = 1 betainc has no digits left: mirror the failures' interval
            m = n - k
            up, lo = 1 - end(m, n - m + 1, mp.mpf(alpha)), 1 - end(m + 1, n - m, 1 - mp.mpf(alpha))
        else:
            up, lo = end(k + 1, n - k, 1 - mp.mpf(alpha)), end(k, n - k + 1, mp.mpf(alpha))
        print(f"    ({k}, {n}, {alpha!r}, {up!r}, {lo!r}),")
