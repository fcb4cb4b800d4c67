"""Reference values for the DP-SGD accountants (src/accounting/{rdp,pld}.rs tests).

Dev tool only: pip install dp-accounting==0.6.0. Prints Rust table rows and timings.
Each row: (q, sigma, steps, delta, eps_rdp, best_order, eps_pld) with dp_accounting 0.6.0's
RdpAccountant (default orders) and PLDAccountant (value_discretization_interval = 1e-4, default),
Poisson-sampled Gaussian, add-or-remove-one neighbours.
"""
import time
import dp_accounting
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp
from dp_accounting.pld import pld_privacy_accountant as pld

GRID = [
    (0.01, 1.0, 1000, 1e-5),
    (0.01, 1.0, 10000, 1e-5),
    (256 / 60000, 1.1, 14062, 1e-5),   # Abadi et al. 2016: n = 60000, m = 256, 60 epochs
    (0.1, 2.0, 100, 1e-6),
    (1.0, 5.0, 10, 1e-5),
    (0.05, 0.8, 500, 1e-7),
    (0.001, 3.0, 100000, 1e-9),
]
print("// (q, sigma, steps, delta, eps_rdp, best_order, eps_pld): dp_accounting 0.6.0")
for q, s, t, d in GRID:
    ev = dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(s)), t)
    ra = rdp.RdpAccountant(); ra.compose(ev)
    e_rdp, order = ra.get_epsilon_and_optimal_order(d)
    t0 = time.time(); pa = pld.PLDAccountant(); pa.compose(ev); e_pld = pa.get_epsilon(d); dt = time.time() - t0
    print(f"    ({q!r}, {s!r}, {t}, {d!r}, {e_rdp!r}, {order!r}, {e_pld!r}),  // PLD {dt*1000:.0f} ms")

# Composition lab: gauss:3*10,lap:0.2*5 at δ = 1e-5 (Laplace noise multiplier b/Δ = 1/ε = 5).
from dp_accounting import dp_event as e
mix = e.ComposedDpEvent([e.SelfComposedDpEvent(e.GaussianDpEvent(3.0), 10), e.SelfComposedDpEvent(e.LaplaceDpEvent(5.0), 5)])
ra = rdp.RdpAccountant(); ra.compose(mix)
pa = pld.PLDAccountant(); pa.compose(mix)
print(f"// compose gauss:3*10,lap:0.2*5, δ = 1e-5: RDP {ra.get_epsilon(1e-5)!r}, PLD {pa.get_epsilon(1e-5)!r}")
