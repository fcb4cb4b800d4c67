"""Benchmark: our DP-SGD accountants against Google's dp_accounting 0.6.0 on the same inputs, in one
script. Prints each time and the ratio (dp_accounting / ours). Dev tool:
    pip install dp-accounting==0.6.0 && python3 scripts/reference/bench_dpsgd.py
With --page (after a build: scripts/build.sh), the page's own read-outs instead (tests/e2e/bench_pld.mjs,
headless Chromium, cold first load and warm after a change) beside dp_accounting's PLDAccountant on the
same mechanism: issue 26's table.
"""
import json, os, subprocess, sys, time, statistics
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp
from dp_accounting.pld import pld_privacy_accountant as pld

ROWS = [(0.01, 1.0, 100000, 1e-5), (256 / 60000, 1.1, 14062, 1e-5), (0.01, 1.0, 1000, 1e-5), (0.05, 0.8, 500, 1e-7)]

def timed(f, runs=3):
    out = []
    for _ in range(runs):
        t = time.perf_counter(); v = f(); out.append(((time.perf_counter() - t) * 1e3, v))
    return sorted(out)[len(out) // 2]

ours = [] if "--page" in sys.argv else subprocess.run(["cargo", "run", "-q", "--release", "--example", "dpsgd_time", "--"] +
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


def page_rows():
    """Issue 26's rows: the page's PLD band and σ search against dp_accounting's, same (q, σ, T, δ)."""
    from dp_accounting import mechanism_calibration as cal
    out = subprocess.run(["node", "tests/e2e/bench_pld.mjs"], env={**os.environ, "BENCH_JSON": "1"},
                         capture_output=True, text=True, check=True).stdout.strip().splitlines()
    print("\n".join(out[:-1]))
    page = {r["name"]: r for r in json.loads(out[-1])}
    abadi = (256 / 60000, 1.1, 14063, 1e-5)
    def pld_eps(q, s, t, d):
        a = pld.PLDAccountant(); a.compose(dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(s)), t)); return a.get_epsilon(d)
    def sigma_for(q, t, d, target):
        make = lambda s: dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(s)), t)
        return cal.calibrate_dp_mechanism(pld.PLDAccountant, make, target, d, cal.LowerEndpointAndGuess(0.1, 1.0))
    rows = [("PLD band, q=0.01 σ=1 T=1e5", lambda: pld_eps(0.01, 1.0, 100000, 1e-5)),
            ("PLD band, Abadi et al. MNIST", lambda: pld_eps(*abadi)),
            ("σ for ε = 2 by the PLD, Abadi", lambda: sigma_for(abadi[0], abadi[2], abadi[3], 2.0))]
    print(f"\n{'row':38} | {'dp_accounting ms':>16} {'value':>10} | {'page cold ms':>12} {'ratio':>6} | {'page warm ms':>12} {'ratio':>6}")
    for name, run in rows:
        ms, value = timed(run, runs=1)
        r = page[name]
        print(f"{name:38} | {ms:16.0f} {value:10.6f} | {r['cold']:12.1f} {ms / r['cold']:6.1f} | {r['warm']:12.1f} {ms / r['warm']:6.1f}")


if "--page" in sys.argv:
    page_rows()
