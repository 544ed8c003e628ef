#!/usr/bin/env bash
# Sets up and runs the product. Until the server exists this tracks a sample video with the CLI and
# writes the tracks and an overlay video to ./out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
export ONNXRUNTIME_NODE_INSTALL=skip
# npm 11 writes no lock entries for other platforms' optional packages and `npm ci` then refuses the
# lock; `npm install` installs exactly the locked versions without that check.
npm install --no-audit --no-fund
mkdir -p out
SAMPLE="${1:-../shared/testdata/videos/sports2d_demo4_indoor_side_walk.mp4}"
npx mocap track "$SAMPLE" -o out/tracks.json --overlay out/overlay.mp4
echo "Wrote out/tracks.json and out/overlay.mp4"
