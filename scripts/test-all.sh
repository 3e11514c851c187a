#!/usr/bin/env bash
# Runs every test of the product, in the order CI needs (npm test runs this; .ci/run runs npm test):
#   chromium present -> format -> typecheck -> lint -> remix build -> vitest (unit + integration) -> playwright.
# Stops at the first failing step and prints a summary of what ran, what passed and how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."

STEPS=()
RESULTS=()
TIMES=()
START_ALL=$(date +%s)

summary() {
  local status=$1
  local total=$(( $(date +%s) - START_ALL ))
  echo
  echo "================================ test summary ================================"
  local i
  for i in "${!STEPS[@]}"; do
    printf '  %-6s %-34s %5ss\n' "${RESULTS[$i]}" "${STEPS[$i]}" "${TIMES[$i]}"
  done
  echo "------------------------------------------------------------------------------"
  if [ "$status" -eq 0 ]; then
    printf '  ALL PASSED in %dm%02ds\n' $((total / 60)) $((total % 60))
  else
    printf '  FAILED (exit %d) after %dm%02ds; see the output of the failing step above.\n' \
      "$status" $((total / 60)) $((total % 60))
  fi
  echo "=============================================================================="
}

step() {
  local name=$1; shift
  echo
  echo "==> [$name] $*"
  local t0=$(date +%s) rc=0
  "$@" || rc=$?
  STEPS+=("$name"); TIMES+=($(( $(date +%s) - t0 )))
  if [ "$rc" -eq 0 ]; then
    RESULTS+=("PASS")
  else
    RESULTS+=("FAIL")
    summary "$rc"
    exit "$rc"
  fi
}

step "chromium"                 bash scripts/ensure-chromium.sh
step "format"                   npm run format:check
step "typecheck"                npm run typecheck
step "lint"                     npm run lint
# One production build, before vitest: its web integration tests serve it (they would build it
# themselves when it is missing or older than app/).
step "remix build"              env NODE_ENV=production npx remix build
step "vitest (unit+integration)" npx vitest run
step "playwright (js + no-js)"  npx playwright test
summary 0
