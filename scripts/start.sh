#!/usr/bin/env bash
# Sets up and runs the product: system packages, npm packages, the web app build, then `npm start` — the server
# (API under /product, docs at /product/docs, web app under /capture) with the in-process capture worker, on
# SQLite and local disk under DATA_DIR (default ./data). The first start creates an administrator and prints it.
# Environment: PORT (default 8080), DATA_DIR, and for scale-out DATABASE_URL, REDIS_URL, S3_*, SMTP_* (see
# apps/server/src/config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
export ONNXRUNTIME_NODE_INSTALL=skip
# npm 11 writes no lock entries for other platforms' optional packages and `npm ci` then refuses the
# lock; `npm install` installs exactly the locked versions without that check.
npm install --no-audit --no-fund
# The tracking models converted to ONNX into the model cache now, not by the worker's start or first job.
npm run -s models -w @mocap/vision || echo "warning: the tracking models were not converted; the worker converts them at start" >&2
if [ -f apps/web/package.json ] && grep -q '"build"' apps/web/package.json; then
  echo "Building the web app (apps/web)..."
  npm run build -w @mocap/web || echo "warning: the web app did not build; the API still runs (see /product/docs)" >&2
fi
export DATA_DIR="${DATA_DIR:-$PWD/data}"
export PORT="${PORT:-8080}"
echo "Starting mocap on port $PORT (data in $DATA_DIR)..."
exec npm start
