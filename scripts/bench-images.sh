#!/usr/bin/env bash
# The image lab's speed in the page against native (issue 52): one epoch of the MNIST MLP (784-300-10,
# lot 600) in the page on 1 worker and on 2 (`tests/e2e/bench_images.mjs`, after
# `bash scripts/build.sh`), DP-SGD steps natively on one core (`cargo run --profile bench --example
# mnist -- steps`, opt-level 3 as the worker), and the ratios: per core (page rate / workers / native)
# and the speed-up from 1 to 2 workers, also against the control: two pages training on 1 worker each
# at once (what two workers give on this machine without the exchange), and first what the two cores
# give to arithmetic alone, natively (`mnist -- cores`: no memory, no exchange). BENCH_MODEL picks
# another model (logreg, abadi).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${BENCH_MODEL:-mlp}
cargo run -q --profile bench --example mnist -- cores 3
# Each run's lines are printed as they are and read afterwards (`tee /dev/stderr` would reopen a
# redirected stderr and truncate the file it goes to).
steps=$(cargo run -q --profile bench --example mnist -- steps "$model")
echo "$steps"
native=$(sed -n 's/^native per-example gradients per second ([a-z]*, DP-SGD steps): //p' <<<"$steps")
page=$(BENCH_MODEL=$model node tests/e2e/bench_images.mjs)
echo "$page"
one=$(sed -n 's/^.*page per-example gradients per second (1 workers) //p' <<<"$page")
two=$(sed -n 's/^.*page per-example gradients per second (2 workers) //p' <<<"$page")
control=$(sed -n 's/^.*page per-example gradients per second (1+1: 2 pages at once) //p' <<<"$page")
awk -v a="$one" -v b="$two" -v c="$control" -v n="$native" 'BEGIN {
  printf "per core, page / native: 1 worker %.0f / %.0f = %.2f; 2 workers %.0f / 2 / %.0f = %.2f\n", a, n, a / n, b, n, b / 2 / n
  printf "2 workers against 1: %.2f times as fast\n", b / a
  if (c > 0) printf "two pages of 1 worker each at once: %.0f, %.2f times one; the gang of 2 reaches %.2f of it\n", c, c / a, b / c }'
