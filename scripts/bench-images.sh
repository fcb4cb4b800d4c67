#!/usr/bin/env bash
# The image lab's speed in the page against native (issue 52): one epoch of the MNIST MLP (784-300-10,
# lot 600, the private model alone) in the page's worker (`tests/e2e/bench_images.mjs`, after
# `bash scripts/build.sh`), DP-SGD steps natively (`cargo run --profile bench --example mnist -- steps`,
# opt-level 3 as the worker), and their ratio. BENCH_MODEL picks another model (logreg, abadi).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${BENCH_MODEL:-mlp}
native=$(cargo run -q --profile bench --example mnist -- steps "$model" | tee /dev/stderr | sed -n 's/^native per-example gradients per second ([a-z]*, DP-SGD steps): //p')
page=$(BENCH_MODEL=$model node tests/e2e/bench_images.mjs | tee /dev/stderr | sed -n 's/^.*page per-example gradients per second (one worker) //p')
awk -v p="$page" -v n="$native" 'BEGIN { printf "page / native per-example gradients per second: %.0f / %.0f = %.2f\n", p, n, p / n }'
