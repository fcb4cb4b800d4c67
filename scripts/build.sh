#!/usr/bin/env bash
# Builds the static site into dist/ (release, offline, wasm-opt from npm's binaryen). The result works
# from any static file server and any sub-path: copy dist/ anywhere.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
trunk build --release --offline "$@"
# Precompressed .gz and .br beside each asset, for servers that serve them.
node "$(dirname "${BASH_SOURCE[0]}")/compress.mjs"
# MNIST's files for the image lab (gzipped; fetched only by that lab).
node "$(dirname "${BASH_SOURCE[0]}")/data/mnist.mjs"
# The same site as one HTML file that opens from disk (dist-single/dp-playground.html), from the
# all-labs module (single.html, built into dist-all/).
trunk build single.html --dist dist-all --html-output single.html --release --offline
node "$(dirname "${BASH_SOURCE[0]}")/single-file.mjs"
