#!/usr/bin/env bash
# The suite as a new developer or CI meets it: clones the current commit (HEAD, committed work only)
# into a temporary folder, with ../shared beside it when this checkout has one (as CI lays it), and
# runs the README's test set-up there: `npm install && npm test`. Prints how long each step took.
# Run it with nothing else running on the machine: its times are what the suite costs.
#
#   npm run test:clean-clone            # keeps nothing: the folder is removed at the end
#   KEEP_CLONE=1 npm run test:clean-clone   # leaves the folder for a look after a failure
#   CLEAN_CLONE_RUNS=5 npm run test:clean-clone   # five runs one after the other, each on a new
#                                                 # clone; a table of their times at the end
#   CLEAN_CLONE_CLOCK='2026-11-28 23:00:00' npm run test:clean-clone
#       # `npm test` under that clock (Debian's libfaketime, as `npm run test:calendar` uses: the
#       # clock starts there and runs at the machine's pace; the browser keeps the machine's clock,
#       # playwright.config.ts), with the settings of test-calendar.sh; the times printed are the
#       # machine's
#   CLEAN_CLONE_WEEKEND=N   # with CLEAN_CLONE_RUNS: run N (1-based) under a Saturday night clock
set -euo pipefail
RUNS=${CLEAN_CLONE_RUNS:-1}
CLOCK=${CLEAN_CLONE_CLOCK:-}
# A Saturday night: the markets the simulator keeps real hours for are closed.
WEEKEND_CLOCK="2026-11-28 23:00:00"
if [ "$RUNS" -gt 1 ]; then
  failed=0
  lines=()
  for n in $(seq 1 "$RUNS"); do
    echo "==> clean-clone run $n of $RUNS ($(date -u '+%a %F %T UTC'))"
    out=$(mktemp)
    rc=0
    clock=${CLEAN_CLONE_CLOCK:-}
    [ "$n" = "${CLEAN_CLONE_WEEKEND:-0}" ] && clock=$WEEKEND_CLOCK
    CLEAN_CLONE_RUNS=1 CLEAN_CLONE_CLOCK=$clock bash "$0" 2>&1 | tee "$out" || rc=$?
    lines+=("run $n ($(date -u '+%a %T UTC')): $(grep -E '^test:clean-clone: npm install' "$out" | sed 's/^test:clean-clone: //' || echo "exit $rc")")
    [ "$rc" -eq 0 ] || failed=$((failed + 1))
    rm -f "$out"
  done
  echo
  printf 'test:clean-clone: %s\n' "${lines[@]}"
  echo "test:clean-clone: $((RUNS - failed)) of $RUNS runs passed"
  [ "$failed" -eq 0 ]
  exit
fi
if [ -n "$CLOCK" ] && ! command -v faketime >/dev/null 2>&1; then
  echo "test:clean-clone: CLEAN_CLONE_CLOCK needs Debian's faketime (npm run test:calendar installs it)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
ROOT=$(pwd)
COMMIT=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "test:clean-clone: note: uncommitted changes are not part of the run (it clones $COMMIT)"
fi

PARENT=$(mktemp -d "${TMPDIR:-/tmp}/tradepost-clean-XXXXXX")
cleanup() {
  if [ "${KEEP_CLONE:-0}" = "1" ]; then
    echo "test:clean-clone: kept $PARENT"
  else
    rm -rf "$PARENT"
  fi
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$ROOT" "$PARENT/main"
git -C "$PARENT/main" checkout --quiet "$COMMIT"
if [ -d "$ROOT/../shared" ]; then ln -s "$(cd "$ROOT/../shared" && pwd)" "$PARENT/shared"; fi

cd "$PARENT/main"
echo "test:clean-clone: $COMMIT in $PARENT/main"
# The machine's yardsticks, taken before anything else runs (scripts/yardstick.mjs): one core's
# speed, and what a system call and a wake-up of another process cost. Machines of one kind differ
# in both (the same commit took 8m40s on one and 15m35s on another, whose cpu figure was 2.5-2.9 s;
# 7m20s on one and 16m20s on another at the same cpu figure, 2.0-2.1 s, whose system calls cost
# several times as much), so a run's times are read beside them.
YARDSTICK=$(node scripts/yardstick.mjs)
echo "test:clean-clone: machine yardsticks: ${YARDSTICK} (lower is faster)"
T0=$(date +%s)
npm install --no-audit --no-fund
T1=$(date +%s)
rc=0
if [ -n "$CLOCK" ]; then
  echo "test:clean-clone: npm test under the clock @$CLOCK (faketime)"
  FAKETIME_DONT_RESET=1 FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_FORCE_MONOTONIC_FIX=0 faketime -f "@$CLOCK" npm test || rc=$?
else
  npm test || rc=$?
fi
T2=$(date +%s)
echo
echo "test:clean-clone: commit $COMMIT"
printf 'test:clean-clone: npm install %dm%02ds, npm test %dm%02ds, total %dm%02ds (yardsticks: %s%s): %s\n' \
  $(((T1 - T0) / 60)) $(((T1 - T0) % 60)) $(((T2 - T1) / 60)) $(((T2 - T1) % 60)) \
  $(((T2 - T0) / 60)) $(((T2 - T0) % 60)) "$YARDSTICK" "${CLOCK:+, npm test at @$CLOCK}" \
  "$([ "$rc" -eq 0 ] && echo PASSED || echo "FAILED (exit $rc)")"
exit "$rc"
