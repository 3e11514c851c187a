#!/usr/bin/env bash
# Runs every test of the product, in the order CI needs (npm test runs this; .ci/run runs npm test):
#   chromium present -> format, typecheck and lint (side by side) -> remix build -> vitest (unit + integration)
#   -> playwright.
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

# The three static checks side by side (each mostly waits on one core), each with its own output,
# printed in order once all three are done; the run stops when any failed.
static_checks() {
  local dir names=(format typecheck lint) cmds=("npm run format:check" "npm run typecheck" "npm run lint")
  dir=$(mktemp -d)
  local i pids=() rcs=() t0=$(date +%s)
  for i in 0 1 2; do
    ( ${cmds[$i]} >"$dir/$i.out" 2>&1; echo $? >"$dir/$i.rc" ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  local failed=0
  for i in 0 1 2; do
    echo "--- ${names[$i]}: ${cmds[$i]}"
    cat "$dir/$i.out"
    rcs[$i]=$(cat "$dir/$i.rc")
    if [ "${rcs[$i]}" -ne 0 ]; then failed=${rcs[$i]}; fi
  done
  rm -rf "$dir"
  return "$failed"
}

step "chromium"                 bash scripts/ensure-chromium.sh
step "format, typecheck, lint"  static_checks
# One production build, before vitest: its web integration tests serve it (they would build it
# themselves when it is missing or older than app/).
step "remix build"              env NODE_ENV=production npx remix build
step "vitest (unit+integration)" npx vitest run
step "playwright (js + no-js)"  npx playwright test
summary 0
