#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (Playwright drives it; it cannot download
# its own browsers here). Installs it with apt-get when running as root; otherwise explains how.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "chromium: found $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null | head -n1 || echo 'version unknown'))"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium: $CHROMIUM is missing; installing Debian's chromium package (apt-get, as root) ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y chromium
  if [ -x "$CHROMIUM" ]; then
    echo "chromium: installed $("$CHROMIUM" --version 2>/dev/null | head -n1 || true)"
    exit 0
  fi
  echo "chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi

cat >&2 <<MSG

  The end-to-end tests need Debian's Chromium at $CHROMIUM, and it is not installed.
  This script installs it only when it runs as root. Install it yourself, then run npm test again:

      sudo apt-get update && sudo apt-get install -y chromium

  (On a distribution without apt, install Chromium by its package manager and make sure it is
   reachable at $CHROMIUM, e.g. with a symbolic link.)

MSG
exit 1
