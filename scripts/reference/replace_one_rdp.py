"""Reference values for RDP under replace-one neighbours (src/accounting/rdp/replace_one.rs tests).

Dev tool only: pip install dp-accounting==0.6.0. dp_accounting's RdpAccountant refuses Poisson
sampling under REPLACE_ONE, so the bound is built here from its own per-order curve of the
Poisson-subsampled Gaussian (add/remove, `_compute_rdp_poisson_subsampled_gaussian`):

  replace-one RDP(α) = min( RDP_{σ/2}(α),  (α − 1/p)/(α − 1) · RDP_σ(pα) + RDP_σ(p'(α − 1) + 1) )

(Mironov 2017, Proposition 11; p' = p/(p − 1)), then dp_accounting's own conversion
(`compute_epsilon`) on its default orders. p = 2 is what the playground uses; the other p are printed
to show why. Prints Rust table rows (q, σ, T, δ, ε RDP at σ/2, ε replace-one, best order).
"""
import numpy as np
from dp_accounting.rdp import rdp_privacy_accountant as r

ORDERS = np.array([1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024],
                  dtype=float)


def curve(q, sigma, orders):
    return np.array(r._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders), dtype=float)


def replace_one(q, sigma, t, p=2.0):
    pp = p / (p - 1.0)
    half = curve(q, sigma / 2.0, ORDERS)
    tri = (ORDERS - 1.0 / p) / (ORDERS - 1.0) * curve(q, sigma, p * ORDERS) \
        + curve(q, sigma, pp * (ORDERS - 1.0) + 1.0)
    return t * half, t * np.minimum(half, tri)


GRID = [
    (256 / 60000, 1.1, 14063, 1e-5),  # Abadi et al. 2016, MNIST, 60 epochs
    (0.1, 2.0, 50, 1e-5),             # golden link n=1000&batch=100&sigma=2&epochs=5
    (0.01, 1.0, 1000, 1e-5),
    (0.01, 2.0, 1000, 1e-5),
    (0.05, 0.8, 500, 1e-7),
    (0.5, 1.5, 20, 1e-6),
    (1.0, 5.0, 10, 1e-5),
]
if __name__ == "__main__":
    print("// (q, σ, T, δ, ε σ/2, ε replace-one, best order): dp_accounting 0.6.0 curves, p = 2")
    for q, s, t, d in GRID:
        half, ro = replace_one(q, s, t)
        e_half, _ = r.compute_epsilon(ORDERS, half, d)
        e_ro, order = r.compute_epsilon(ORDERS, ro, d)
        others = [r.compute_epsilon(ORDERS, replace_one(q, s, t, p)[1], d)[0] for p in (1.5, 3.0)]
        print(f"    ({q!r}, {s!r}, {t}, {d!r}, {e_half!r}, {e_ro!r}, {order!r}),"
              f"  // p = 1.5: {others[0]:.4f}, p = 3: {others[1]:.4f}")
