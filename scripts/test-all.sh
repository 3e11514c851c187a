#!/usr/bin/env bash
# Runs every test of the product (npm test runs this; .ci/run runs npm test):
#   chromium present -> remix build -> vitest (unit + integration) -> playwright, one after the other,
#   with format, typecheck and lint running beside them at the lowest CPU priority (nice 19): the
#   tests wait on their servers and browsers often enough for the checks to finish in those gaps,
#   at almost no cost to the tests. Their output is printed, and their result counted, at the end.
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

# The three static checks side by side, in the background at nice 19, each with its own output in
# STATIC_DIR; static_checks_result waits for them and prints their output in order.
STATIC_DIR=$(mktemp -d)
STATIC_PIDS=()
STATIC_T0=0
static_checks_start() {
  local i cmds=("npm run format:check" "npm run typecheck" "npm run lint")
  STATIC_T0=$(date +%s)
  for i in 0 1 2; do
    ( nice -n 19 ${cmds[$i]} >"$STATIC_DIR/$i.out" 2>&1; echo $? >"$STATIC_DIR/$i.rc" ) &
    STATIC_PIDS+=($!)
  done
}
static_checks_result() {
  local names=(format typecheck lint) cmds=("npm run format:check" "npm run typecheck" "npm run lint")
  wait "${STATIC_PIDS[@]}"
  local i failed=0 rc
  for i in 0 1 2; do
    echo "--- ${names[$i]}: ${cmds[$i]}"
    cat "$STATIC_DIR/$i.out"
    rc=$(cat "$STATIC_DIR/$i.rc")
    if [ "$rc" -ne 0 ]; then failed=$rc; fi
  done
  return "$failed"
}
stop_static_checks() {
  local pid
  for pid in "${STATIC_PIDS[@]}"; do pkill -P "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  rm -rf "$STATIC_DIR"
}
trap stop_static_checks EXIT

step "chromium"                 bash scripts/ensure-chromium.sh
static_checks_start
# One production build, before vitest: its web integration tests serve it (they would build it
# themselves when it is missing or older than app/).
step "remix build"              env NODE_ENV=production npx remix build
step "vitest (unit+integration)" npx vitest run
step "playwright (js + no-js)"  npx playwright test
step "format, typecheck, lint (beside)" static_checks_result
summary 0
