#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed (Playwright drives it; it cannot download its own
# browsers here):
# - /usr/bin/chromium (package chromium), required: the benchmarks measure it, and the tests fall
#   back to it;
# - /usr/bin/chromium-headless-shell (package chromium-headless-shell), the same engine without the
#   browser's UI layers, which the Playwright tests run on when present: a test run then takes about
#   half the time. Wanted, not required: when it cannot be installed the tests run on chromium.
# Installs what is missing with apt-get when running as root; otherwise explains how.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
SHELL_BIN=/usr/bin/chromium-headless-shell

version() { "$1" --version 2>/dev/null | head -n1 || echo 'version unknown'; }

missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
[ -x "$SHELL_BIN" ] || missing+=(chromium-headless-shell)

if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium: installing Debian's ${missing[*]} (apt-get, as root) ..."
  export DEBIAN_FRONTEND=noninteractive
  # The package lists are refreshed only when the install cannot find the packages without it.
  apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}"; } ||
    echo "chromium: apt-get could not install ${missing[*]}." >&2
fi

if [ -x "$CHROMIUM" ]; then
  echo "chromium: found $CHROMIUM ($(version "$CHROMIUM"))"
  if [ -x "$SHELL_BIN" ]; then
    echo "chromium: the tests run on $SHELL_BIN ($(version "$SHELL_BIN"))"
  else
    echo "chromium: $SHELL_BIN is missing; the tests run on $CHROMIUM (about twice as slow)."
  fi
  exit 0
fi

cat >&2 <<MSG

  The end-to-end tests need Debian's Chromium at $CHROMIUM, and it is not installed.
  This script installs it only when it runs as root. Install it yourself, then run npm test again:

      sudo apt-get update && sudo apt-get install -y chromium chromium-headless-shell

  (On a distribution without apt, install Chromium by its package manager and make sure it is
   reachable at $CHROMIUM, e.g. with a symbolic link; CHROMIUM_PATH names another binary.)

MSG
exit 1
