#!/usr/bin/env bash
# Sets up whatever is missing, builds the playground (release, offline) and serves it at
# http://127.0.0.1:8080, rebuilding when a source file changes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
echo "==> Serving at http://127.0.0.1:8080 (first build takes a few minutes)"
exec trunk serve --release --offline
