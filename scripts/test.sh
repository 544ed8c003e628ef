#!/usr/bin/env bash
# Sets up everything and runs every test: system packages, npm packages, type check, lint, dependency rule,
# test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh --test
export ONNXRUNTIME_NODE_INSTALL=skip
# npm 11 writes no lock entries for other platforms' optional packages and `npm ci` then refuses the
# lock; `npm install` installs exactly the locked versions without that check.
npm install --no-audit --no-fund
npm run typecheck
npm run lint
# The dependency rule (.dependency-cruiser.cjs): no cycles, no import from a lower layer to a higher one.
npm run deps
npx vitest run
