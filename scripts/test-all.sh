#!/usr/bin/env bash
# Runs every test of the product (npm test runs this; .ci/run runs npm test):
#   remix build -> vitest (unit + integration) -> playwright. Chromium is made present beside the
#   first two, SQLite's native module is built beside the build; format, typecheck and lint run from
#   the start, beside the SQLite build and vitest, at the lowest CPU priority (nice 19).
#   A background job's output is printed, and its result counted, when it is joined. (vitest
#   beside Playwright was measured too: both slowed so much that the total did not fall, and 20 s
#   tests timed out.)
# Stops at the first failing step and prints a summary of what ran, what passed and how long it took.
#
# Two lanes (tests/README.md, decision 0022): `npm test` is the fast lane (fixed seeds, the
# PostgreSQL runs that matter, every form in both browser projects); `npm run test:full` runs this
# with TEST_LANE=full: random seeds (printed), more fuzz runs, every PostgreSQL rerun, the 3-kill
# cluster soak, every page in both browser projects, and then the long soaks (`npm run soak`,
# `npm run soak:cluster`).
set -euo pipefail
cd "$(dirname "$0")/.."
LANE=${TEST_LANE:-fast}
if [ "$LANE" != "fast" ] && [ "$LANE" != "full" ]; then
  echo "TEST_LANE must be fast or full, not '$LANE'" >&2
  exit 2
fi
export TEST_LANE=$LANE
echo "test lane: $LANE"

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

# The failing step's key lines, printed again just above the summary: a CI page that shows only the
# end of a long run still says what failed and why. First the names of the failing tests (vitest's
# FAIL lines, Playwright's numbered failures), then the errors and where they were raised. The
# servers' own structured log lines (JSON, starting with '{') are left out: a test that makes a
# server log an error on purpose would otherwise push the failures out of the digest.
digest() {
  local log=$1
  [ -f "$log" ] || return 0
  echo
  echo "---------------------- what failed (from the step's output) -----------------------"
  sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s*(FAIL|×|✘) |^\s+[0-9]+\) ' | grep -vE '^\s*(✓|√) ' \
    | cut -c1-160 | awk '!seen[$0]++' | head -n 20 || true
  echo "- - -"
  sed -E 's/\x1b\[[0-9;]*m//g' "$log" \
    | grep -E 'Error:|Locator:|Expected|Received|Timeout|timed out|^\s*> [0-9]+ \||[a-z-]+\.(spec|test)\.ts:[0-9]+:[0-9]+' \
    | grep -vE '^\s*[{]|^\s*(✓|√) |node_modules|^\s+at (async )?[A-Za-z.<>]+ \(node:' | cut -c1-160 | head -n 16 \
    || true # head's early close (SIGPIPE upstream) must not end the run before its summary
}

# Records a finished step (name, seconds, exit code, its output's file); on a failure prints what
# failed and the summary, and exits.
record() {
  local name=$1 seconds=$2 rc=$3 log=${4:-}
  STEPS+=("$name"); TIMES+=("$seconds")
  if [ "$rc" -eq 0 ]; then
    RESULTS+=("PASS")
  else
    RESULTS+=("FAIL")
    digest "$log"
    summary "$rc"
    exit "$rc"
  fi
}

step() {
  local name=$1; shift
  echo
  echo "==> [$name] $*"
  local t0=$(date +%s) rc=0 log
  log=$(mktemp "$BG_DIR/step-XXXXXX")
  "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  record "$name" $(( $(date +%s) - t0 )) "$rc" "$log"
}

# Jobs in the background: each writes its output, exit code and duration (s) to BG_DIR/NAME.*;
# bg_step waits for one, prints its output and records it as a step with its own duration.
BG_DIR=$(mktemp -d)
declare -A BG_PIDS=()
# Every temporary file of the run (test stores, data folders, the PostgreSQL server, browser
# profiles) is made under one folder, removed at the end whatever the outcome: a run leaves nothing
# in /tmp behind it (a test killed mid-way cannot clean up after itself).
# Port reservations and the services' install lock stay in the machine's folder
# (TRADEPOST_MACHINE_TMP, scripts/services/ports.ts). The folder is open to all like /tmp: the
# PostgreSQL server runs as the postgres user.
export TRADEPOST_MACHINE_TMP=${TRADEPOST_MACHINE_TMP:-${TMPDIR:-/tmp}}
RUN_TMP=$(mktemp -d "$TRADEPOST_MACHINE_TMP/tradepost-run-XXXXXX")
chmod 1777 "$RUN_TMP"
export TMPDIR=$RUN_TMP
bg_start() {
  local name=$1; shift
  (
    t0=$(date +%s) rc=0
    "$@" >"$BG_DIR/$name.out" 2>&1 || rc=$?
    echo $(( $(date +%s) - t0 )) >"$BG_DIR/$name.time"
    echo "$rc" >"$BG_DIR/$name.rc"
  ) &
  BG_PIDS[$name]=$!
}
bg_step() {
  local name=$1 label=$2
  echo
  echo "==> [$label] (ran in the background; its output follows)"
  wait "${BG_PIDS[$name]}" || true
  unset "BG_PIDS[$name]"
  cat "$BG_DIR/$name.out"
  record "$label" "$(cat "$BG_DIR/$name.time")" "$(cat "$BG_DIR/$name.rc")" "$BG_DIR/$name.out"
}
stop_background() {
  local pid
  for pid in "${BG_PIDS[@]}"; do pkill -P "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  rm -rf "$BG_DIR" "$RUN_TMP"
}
trap stop_background EXIT

# The three static checks side by side, at the lowest CPU priority, each with its own output; fails
# when any failed.
static_checks() {
  local dir names=(format typecheck lint) cmds=("npm run format:check" "npm run typecheck" "npm run lint")
  dir=$(mktemp -d)
  local i pids=() failed=0
  for i in 0 1 2; do
    ( nice -n 19 ${cmds[$i]} >"$dir/$i.out" 2>&1; echo $? >"$dir/$i.rc" ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  for i in 0 1 2; do
    echo "--- ${names[$i]}: ${cmds[$i]}"
    cat "$dir/$i.out"
    if [ "$(cat "$dir/$i.rc")" -ne 0 ]; then failed=$(cat "$dir/$i.rc"); fi
  done
  rm -rf "$dir"
  return "$failed"
}

# Installing a missing Chromium is mostly a download: it runs beside the build and vitest, which
# do not use a browser, and Playwright waits for it. PostgreSQL, NATS and HAProxy (Debian's
# packages, for the PostgreSQL store tests and the cluster test) install beside the build too, and
# vitest waits for them. Both wait for each other's package lock (DPkg::Lock::Timeout).
bg_start services               bash scripts/ensure-services.sh
bg_start chromium               bash scripts/ensure-chromium.sh
# SQLite's native module, which `npm install` leaves to its first use (decision 0028): compiling
# SQLite takes about half a minute of one core, and vitest waits for it.
bg_start sqlite                 node upstream/platform/store/sqlite-native.mjs
# The static checks (about 65 CPU-seconds) start at once, at nice 19: the core the SQLite build
# leaves idle runs them, and what is left of them runs beside vitest. They are joined before
# Playwright, which then runs alone: beside Playwright they stretched it by 80 s (its pages are
# latency-bound, and every idle moment of a core went to the checks).
bg_start static                 static_checks
# One production build, before the tests: vitest's web tests and Playwright serve it (the web
# integration tests would build it themselves when it is missing or older than app/).
step "remix build"              env NODE_ENV=production npx remix build
bg_step services                "postgresql, nats, haproxy"
bg_step sqlite                  "sqlite native module"
step "vitest (unit+integration)" npx vitest run
bg_step static                  "format, typecheck, lint"
bg_step chromium                "chromium"
step "playwright (js + no-js)"  npx playwright test
if [ "$LANE" = "full" ]; then
  # The long soaks: the upstream killed 20 times under load (SQLite), then the cluster's leader.
  step "soak (20 kills)"            npm run soak
  step "cluster soak (20 kills)"    npm run soak:cluster
fi
summary 0
