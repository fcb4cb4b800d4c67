"""Reference values for the Gaussian mechanism tests (src/mechanisms/gaussian_tests.rs).

Dev tool only: pip install mpmath dp-accounting==0.6.0. Prints Rust table rows.
- sigma_star: the exact smallest σ (Δ = 1) with δ(ε, σ) ≤ δ, by mpmath at 120 digits (Balle & Wang 2018, Thm 8).
- sigma_dp: dp_accounting 0.6.0 gaussian_mechanism.get_sigma_gaussian(ε, δ).
- delta rows: δ(ε; σ) by mpmath at 120 digits.
"""
from mpmath import mp, mpf, ncdf, exp, log, findroot
import dp_accounting.gaussian_mechanism as gm

mp.dps = 120

def ln_delta(s, eps):
    s, eps = mpf(s), mpf(eps)
    a = 1 / (2 * s) - eps * s
    b = -1 / (2 * s) - eps * s
    return log(ncdf(a) - exp(eps) * ncdf(b))

def sigma_star(eps, delta):
    target = log(mpf(delta))
    lo, hi = mpf("1e-4"), mpf("1e9")
    for _ in range(200):
        mid = (lo * hi) ** 0.5
        if ln_delta(mid, eps) > target:
            lo = mid
        else:
            hi = mid
    return hi

print("// (eps, delta, sigma_star [mpmath 120 digits], sigma_dp [dp_accounting 0.6.0])")
for eps in [1e-6, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 50.0]:
    for delta in [0.1, 1e-5, 1e-10, 1e-50, 1e-300]:
        s = sigma_star(eps, delta)
        try:
            d = gm.get_sigma_gaussian(eps, delta)
        except Exception as e:
            d = float('nan')
        print(f"    ({eps:e}, {delta:e}, {mp.nstr(s, 17)}, {d!r}),")

print("// (sigma, eps, delta [mpmath 120 digits])")
for s in [0.1, 0.5, 1.0, 3.0, 20.0]:
    for eps in [0.0, 0.5, 1.0, 4.0]:
        print(f"    ({s}, {eps}, {mp.nstr(exp(ln_delta(s, eps)), 17)}),")
