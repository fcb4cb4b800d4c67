#!/usr/bin/env bash
# Installs what building the playground needs, if missing: the wasm32 target, trunk 0.21.x, and
# wasm-bindgen-cli at the exact version in Cargo.lock (both from source with cargo install), and the
# npm packages from package-lock.json (binaryen's wasm-opt 132, playwright-core). Nothing downloads a
# prebuilt binary. Sourced by serve.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Keep the (large) target directory outside the clone, so that a fresh clone builds warm.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/dp-playground/target}"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '\n==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "Adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q '^trunk 0\.21\.'; then
  say "Installing trunk 0.21.x from source (about 12 minutes on 2 cores)"
  cargo install trunk --version '~0.21' --locked
fi

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $bindgen_version"; then
  say "Installing wasm-bindgen-cli $bindgen_version from source (about 4 minutes)"
  # Not --locked: the CLI's own lockfile pins a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "=$bindgen_version"
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "Installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
fi
