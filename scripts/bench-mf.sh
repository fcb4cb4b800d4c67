#!/usr/bin/env bash
# Matrix-factorization compute times, our Rust core against jax_privacy 2.0.0 on the same settings:
# `cargo bench --bench mf` (lines `ours <key> <ms>`, `ours-loss <key> <loss>`), then
# scripts/reference/bench_mf.py in the reference venv (`jax ...`, `jax-loss ...`), joined into one
# table: ours ms, jax ms, jax / ours (above 1: we are faster) and, for the BLT optimisations, our loss
# over jax_privacy's (below 1: ours is lower).
# OURS_FILE=path (or JAX_FILE=path) reads that side's lines from a file instead of running it, so the
# join can be tested without a build.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${HOME}/.cache/dp-playground/venv"
# Check the venv first, so a missing one does not cost a cargo build.
if [ -z "${JAX_FILE:-}" ] && [ ! -x "$venv/bin/python" ]; then
  cat >&2 <<EOF
No reference venv at $venv. Make it (with jax_privacy 2.0.0 and dp_accounting 0.6.0) with
    bash scripts/reference/statement_env.sh
or, without torch and opacus:
    python3 -m venv $venv && $venv/bin/pip install jax-privacy==2.0.0 "jax[cpu]==0.10.2" dp-accounting==0.6.0
EOF
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${OURS_FILE:-}" ]; then cp "$OURS_FILE" "$tmp/ours"; else
  # cargo's progress goes to /dev/null; say so if it fails, rather than stop silently.
  cargo bench --bench mf 2>/dev/null | tee "$tmp/ours" \
    || { echo 'cargo bench --bench mf failed: run it without 2>/dev/null to see why' >&2; exit 1; }
fi
if [ -n "${JAX_FILE:-}" ]; then cp "$JAX_FILE" "$tmp/jax"; else "$venv/bin/python" scripts/reference/bench_mf.py | tee "$tmp/jax"; fi

python3 - "$tmp/ours" "$tmp/jax" <<'EOF'
import sys
# {kind: {key: value string}} from lines `<kind> <key> <value...>`; other lines (cargo's own) are ignored.
rows, order = {}, []
for path in sys.argv[1:]:
    for line in open(path):
        f = line.split(maxsplit=2)
        if len(f) == 3 and f[0] in ('ours', 'ours-loss', 'jax', 'jax-loss'):
            rows.setdefault(f[0], {})[f[1]] = f[2].strip()
            if f[0] in ('ours', 'jax') and f[1] not in order:
                order.append(f[1])

def num(kind, key):
    try:
        return float(rows.get(kind, {})[key])
    except (KeyError, ValueError):  # missing, or "skipped <reason>"
        return None

def cell(kind, key, v, fmt, width):
    """v formatted, else the line's first word ("skipped") or "missing"."""
    return format(v, fmt) if v is not None else rows.get(kind, {}).get(key, 'missing').split()[0].rjust(width)

print(f"\n{'setting':28} {'ours ms':>10} {'jax ms':>10} {'jax/ours':>9} {'loss ours/jax':>14}")
for key in order:
    ours, jax = num('ours', key), num('jax', key)
    lo, lj = num('ours-loss', key), num('jax-loss', key)
    ratio = jax / ours if ours and jax is not None else None
    loss = lo / lj if lo is not None and lj else None
    loss_cell = cell('ours-loss', key, loss, '14.8f', 14) if key in rows.get('jax-loss', {}) else '-'.rjust(14)
    print(f"{key:28} {cell('ours', key, ours, '10.3f', 10)} {cell('jax', key, jax, '10.3f', 10)} "
          f"{format(ratio, '9.1f') if ratio is not None else '-'.rjust(9)} {loss_cell}")
EOF
