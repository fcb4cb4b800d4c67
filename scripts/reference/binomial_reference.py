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
# quantile at 1 - alpha and the Beta(k, n - k + 1) quantile at alpha (scipy.stats.beta.ppf, Boost's ibeta_inv).
print("    // Clopper-Pearson, scipy.stats.beta.ppf")
for n, k in ((1000, 500), (100_000, 1000), (1_000_000, 10), (1_000_000, 500_000), (100_000, 99_990)):
    for alpha in (0.05, 0.0125, 1e-6):
        up, lo = stats.beta.ppf(1 - alpha, k + 1, n - k), stats.beta.ppf(alpha, k, n - k + 1)
        print(f"    ({k}, {n}, {alpha!r}, {float(up)!r}, {float(lo)!r}),")
