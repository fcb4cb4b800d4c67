#!/usr/bin/env bash
# Sets up whatever is missing (also Debian's chromium and chromium-driver) and runs every test: format,
# lints (natively and for wasm32) and docs with warnings denied, the core and chart tests, the release
# build of the site, and the browser tests against the built dist/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "Installing Debian's chromium and chromium-driver"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium chromium-driver
fi

say "Formatting, lints and docs (cargo fmt --check, clippy natively and for wasm32, cargo doc)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --workspace --target wasm32-unknown-unknown --lib --bins -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

say "Core and chart tests (cargo test)"
cargo test --workspace

say "Release build of the site (scripts/build.sh: trunk build --release --offline)"
"$(dirname "${BASH_SOURCE[0]}")/build.sh"

say "Browser tests (playwright-core + Debian chromium, headless)"
node --test --test-concurrency=1 tests/e2e/
