#!/usr/bin/env bash
# The training lab's speed in the page against native: `cargo bench --bench train` (native gradients
# per second), then the browser bench's training lines (after `bash scripts/build.sh`), then the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
native=$(cargo bench --bench train 2>/dev/null | tee /dev/stderr | sed -n 's/^native per-example gradients per second (default run): //p')
wasm=$(BENCH_CASES='^train' node tests/e2e/bench.mjs | tee /dev/stderr | sed -n 's/^training lab: wasm per-example gradients per second (warm run, one worker) //p')
awk -v w="$wasm" -v n="$native" 'BEGIN { printf "wasm / native per-example gradients per second: %.0f / %.0f = %.2f\n", w, n, w / n }'
