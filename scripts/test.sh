#!/usr/bin/env bash
# Sets up everything and runs every test: system packages, npm packages, type check, lint, test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh --test
export ONNXRUNTIME_NODE_INSTALL=skip
npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npx vitest run
