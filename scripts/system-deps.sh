#!/usr/bin/env bash
# Installs the Debian packages the project needs (idempotent). Run as root (or with sudo available).
set -euo pipefail
# fonts-wqy-microhei: the CJK font of the order PDF (server), also used by screenshots in tests.
PKGS=(ffmpeg fonts-wqy-microhei)
if [ "${1:-}" = "--test" ]; then
  PKGS+=(chromium blender python3-numpy assimp-utils)
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
