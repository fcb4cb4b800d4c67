#!/usr/bin/env python3
"""Reference values for the balls-in-bins (random allocation) upper bound (tests/allocation.rs).

1. Exact one-epoch ε for t = 2 steps, both directions, by quadrature in mpmath (30 digits): with
   Λ = (Y1 + Y2)/2 and Y log-normal of mean 1 and log-variance 1/σ² under Q,
     remove: δ(ε) = E[(Λ − e^ε)₊] = ½ E_{Y1}[C(2e^ε − Y1)],  C(c) = E[(Y − c)₊] (Black–Scholes' call),
     add:    δ(ε) = E[(1 − e^ε Λ)₊] = (e^ε/2) E_{Y1}[P(2e^{−ε} − Y1)],  P(c) = E[(c − Y)₊] (the put).
   An independent computation of the definitions (no FFT, no rounding).
2. Feldman & Shenfeld's own upper bounds from their `random-allocation` package (1.0.5, PyPI, with
   dp-accounting 0.6.0): the "decomposition" method (one epoch) and the "recursive" method (several
   epochs). Ours must stay below them (ours is the tighter method).
3. Their numerical PLD accountant (`PLD_accounting` 2.0, PyPI; Feldman & Shenfeld, "Efficient privacy
   loss accounting for subsampling and random allocation", ICML 2026): `gaussian_allocation_epsilon_range`
   brackets the exact ε from both sides; ours, an upper bound, must lie inside the bracket.

Usage: python3 scripts/reference/allocation_reference.py > scripts/reference/allocation_reference.json
(pip install mpmath random-allocation==1.0.5 PLD_accounting==2.0 dp-accounting==0.6.0 pandas matplotlib:
dev tools only).
"""
import json
import sys

import mpmath as mp

mp.mp.dps = 30


def t2_deltas(sigma):
    s = mp.mpf(1) / sigma
    mu = -s * s / 2

    def cdf(c, shift):  # P(ln Y ≤ ln c) with the mean shifted by `shift` (shift = s² gives G)
        return mp.ncdf((mp.log(c) - mu - shift) / s)

    def call(c):
        if c <= 0:
            return 1 - c
        return (1 - cdf(c, s * s)) - c * (1 - cdf(c, 0))

    def put(c):
        if c <= 0:
            return mp.mpf(0)
        return c * cdf(c, 0) - cdf(c, s * s)

    def expect(f, kink):
        dens = lambda u: mp.npdf(u, mu, s) * f(mp.e ** u)
        lo, hi = mu - 40 * s, mu + 40 * s
        pts = [lo] + ([kink] if kink is not None and lo < kink < hi else []) + [hi]
        return mp.quad(dens, pts)

    def remove(eps):
        x = mp.e ** eps
        return expect(lambda y: call(2 * x - y) / 2, mp.log(2 * x))

    def add(eps):
        x = mp.e ** eps
        return expect(lambda y: x / 2 * put(2 / x - y), mp.log(2 / x))

    return remove, add


def eps_for(delta_fn, delta):
    lo, hi = mp.mpf(0), mp.mpf(60)
    if delta_fn(lo) <= delta:
        return mp.mpf(0)
    for _ in range(60):
        mid = (lo + hi) / 2
        if delta_fn(mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def main():
    out = {"t2_exact": [], "fs_decomposition": [], "fs_recursive": [], "pld_accounting": []}
    for sigma in [0.8, 1.0, 2.0]:
        for delta in [1e-5]:
            remove, add = t2_deltas(mp.mpf(sigma))
            er, ea = eps_for(remove, delta), eps_for(add, delta)
            out["t2_exact"].append(
                {"sigma": sigma, "delta": delta, "remove": float(er), "add": float(ea)}
            )
            print(f"t=2 σ={sigma}: remove {float(er):.6f} add {float(ea):.6f}", file=sys.stderr)
    try:
        from random_allocation.comparisons.definitions import (
            PrivacyParams,
            SchemeConfig,
            Direction,
        )
        from random_allocation.random_allocation_scheme.decomposition import (
            allocation_epsilon_decomposition,
        )
        from random_allocation.random_allocation_scheme.recursive import (
            allocation_epsilon_recursive,
        )
    except ImportError as e:  # pragma: no cover
        print(f"random-allocation not installed: {e}", file=sys.stderr)
        json.dump(out, sys.stdout, indent=1)
        return
    config = SchemeConfig()
    for (t, sigma) in [(10, 1.0), (100, 1.0), (234, 1.1), (100, 2.0)]:
        p = PrivacyParams(sigma=sigma, num_steps=t, num_selected=1, num_epochs=1, delta=1e-5)
        e = allocation_epsilon_decomposition(p, config, Direction.BOTH)
        out["fs_decomposition"].append({"steps": t, "sigma": sigma, "epochs": 1, "delta": 1e-5, "eps": e})
        print(f"decomposition t={t} σ={sigma}: {e}", file=sys.stderr)
    for (t, sigma, epochs) in [(234, 1.1, 60), (100, 1.0, 10)]:
        p = PrivacyParams(sigma=sigma, num_steps=t, num_selected=1, num_epochs=epochs, delta=1e-5)
        e = allocation_epsilon_recursive(p, config, Direction.BOTH)
        out["fs_recursive"].append({"steps": t, "sigma": sigma, "epochs": epochs, "delta": 1e-5, "eps": e})
        print(f"recursive t={t} σ={sigma} E={epochs}: {e}", file=sys.stderr)
    from PLD_accounting import gaussian_allocation_epsilon_range

    for (t, sigma, epochs) in [(2, 1.0, 1), (10, 1.0, 1), (100, 0.8, 1), (100, 1.0, 10)]:
        upper, lower = gaussian_allocation_epsilon_range(
            delta=1e-5, sigma=sigma, num_steps=t, num_selected=1, num_epochs=epochs
        )
        out["pld_accounting"].append(
            {"steps": t, "sigma": sigma, "epochs": epochs, "delta": 1e-5, "lower": lower, "upper": upper}
        )
        print(f"PLD_accounting t={t} σ={sigma} E={epochs}: [{lower}, {upper}]", file=sys.stderr)
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
