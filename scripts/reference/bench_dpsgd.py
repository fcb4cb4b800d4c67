"""Benchmark: our DP-SGD accountants against Google's dp_accounting 0.6.0 on the same inputs, in one
script. Prints each time and the ratio (dp_accounting / ours). Dev tool:
    pip install dp-accounting==0.6.0 && python3 scripts/reference/bench_dpsgd.py
"""
import subprocess, time, statistics
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp
from dp_accounting.pld import pld_privacy_accountant as pld

ROWS = [(0.01, 1.0, 100000, 1e-5), (256 / 60000, 1.1, 14062, 1e-5), (0.01, 1.0, 1000, 1e-5), (0.05, 0.8, 500, 1e-7)]

def timed(f, runs=3):
    out = []
    for _ in range(runs):
        t = time.perf_counter(); v = f(); out.append(((time.perf_counter() - t) * 1e3, v))
    return sorted(out)[len(out) // 2]

ours = subprocess.run(["cargo", "run", "-q", "--release", "--example", "dpsgd_time", "--"] +
                      [f"{q!r},{s!r},{t},{d!r}" for q, s, t, d in ROWS], capture_output=True, text=True, check=True).stdout.split("\n")
print(f"{'q':>9} {'σ':>4} {'T':>7} {'δ':>6} | {'RDP ms: dp_acc':>14} {'ours':>7} {'ratio':>6} | {'PLD ms: dp_acc':>14} {'ours':>7} {'ratio':>6} | ε PLD dp_acc / ours")
for (q, s, t, d), line in zip(ROWS, ours):
    rdp_ms, pld_ms, e_rdp, e_pld = map(float, line.split())
    ev = dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(s)), t)
    def run_rdp():
        a = rdp.RdpAccountant(); a.compose(ev); return a.get_epsilon(d)
    def run_pld():
        a = pld.PLDAccountant(); a.compose(ev); return a.get_epsilon(d)
    r_ms, r_eps = timed(run_rdp)
    p_ms, p_eps = timed(run_pld, runs=1)
    print(f"{q:9.5f} {s:4} {t:7} {d:6.0e} | {r_ms:14.1f} {rdp_ms:7.2f} {r_ms / rdp_ms:6.1f} | {p_ms:14.1f} {pld_ms:7.1f} {p_ms / pld_ms:6.1f} | {p_eps:.6f} / {e_pld:.6f}")
