#!/usr/bin/env bash
# Builds the reference environment of the guarantee statement (issue 49) at
# ~/.cache/dp-playground/venv, if missing, and installs into it the pinned dev tools the statement is
# compared with: Google's dp_accounting, gdpnum (μ-GDP and its regret), riskcal (TPR at a FPR),
# Opacus' accountant and jax_privacy's, and numpy, scipy and mpmath. Dev tools only: nothing here is a
# runtime dependency of the playground, and the site never calls Python.
#
# The pins are the versions that wrote scripts/reference/statement_reference.json (its `versions`).
# torch (which Opacus imports) is several GB with its CUDA wheels, so CI does not build this
# environment: there the statement's reference tests compare with the checked-in JSON only, and the
# snippet test skips with a message ("SKIPPED the_snippets_reproduce_their_numbers: no … with
# dp_accounting"), not silently. To do without torch, install the same list without opacus and torch:
# the snippets then print "# opacus is not installed" and the test checks their other lines.
#
# Usage: bash scripts/reference/statement_env.sh   (PYTHON=python3.11 to choose the interpreter;
# the JSON was written with CPython 3.11.7)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

venv="${HOME}/.cache/dp-playground/venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  printf '\n==> Creating %s with %s\n' "$venv" "$("$python" --version 2>&1)"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
fi

printf '\n==> Installing the pinned reference tools into %s (already satisfied pins download nothing)\n' "$venv"
"$venv/bin/python" -m pip install \
  dp-accounting==0.6.0 \
  gdpnum==0.1.2 \
  riskcal==1.5.1 \
  opacus==1.6.0 \
  torch==2.15.0 \
  jax-privacy==2.0.0 \
  "jax[cpu]==0.10.2" \
  jaxlib==0.10.2 \
  numpy==2.4.6 \
  scipy==1.17.1 \
  mpmath==1.3.0

cat <<EOF

Reference environment ready: $venv
  Reference values (about 1 minute; rewrites scripts/reference/statement_reference.json):
    $venv/bin/python scripts/reference/statement_reference.py
  The statement's comparisons and the Python snippets run against this environment:
    cargo test --release --lib statement::reference
  (another interpreter: DP_REFERENCE_PYTHON=/path/to/python cargo test --release --lib statement::reference)
EOF
