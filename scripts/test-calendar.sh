#!/usr/bin/env bash
# `npm run test:calendar`: the whole vitest run (the fast lane of `npm test`) under four other
# clocks and time zones, to prove that no test depends on the wall-clock day, hour or zone:
#   1. a weekend night (Saturday 23:00 UTC: the forex week is closed),
#   2. a weekday morning (Wednesday 08:00 UTC),
#   3. the weekend clock in Pacific/Kiritimati (UTC+14: already Sunday afternoon there),
#   4. the weekday clock in America/Adak (UTC-10: still Tuesday evening there).
# The clock is Debian's libfaketime (package faketime, installed here when missing and running as
# root, as the suite does with Chromium). FAKETIME_DONT_RESET=1 keeps one clock across the processes
# a test starts (servers, PostgreSQL), which would otherwise each start at the given time;
# CLOCK_MONOTONIC stays real, so timers and bounds measure real time. With it real, libfaketime's
# fix for condition waits on a faked monotonic clock has nothing to fix, and it is off
# (FAKETIME_FORCE_MONOTONIC_FIX=0): left to detect itself, it reads the environment and parses
# glibc's version on every timed wait, which cost vitest about a third more CPU (6.7 s of user time
# against 10.0 s for one test file; the same as no faketime with it off).
# CALENDAR_RUNS=1,3 runs only those of the four. Stops at the first failing run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v faketime >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "calendar: installing Debian's faketime (apt-get, as root) ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends faketime >/dev/null 2>&1 ||
      { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null &&
        apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends faketime >/dev/null; }
  fi
  command -v faketime >/dev/null 2>&1 || {
    echo "calendar: needs Debian's faketime: sudo apt-get install -y faketime" >&2
    exit 1
  }
fi
bash scripts/ensure-services.sh
# One build first, as npm test does: the web tests serve it (they would build it themselves).
env NODE_ENV=production npx remix build >/dev/null

CLOCKS=("2026-11-28 23:00:00" "2026-11-25 08:00:00" "2026-11-28 23:00:00" "2026-11-25 08:00:00")
ZONES=("UTC" "UTC" "Pacific/Kiritimati" "America/Adak")
NAMES=("weekend night, UTC" "weekday morning, UTC" "weekend night, Pacific/Kiritimati" "weekday morning, America/Adak")
RUNS=${CALENDAR_RUNS:-1,2,3,4}
results=()
for i in 0 1 2 3; do
  case ",$RUNS," in *",$((i + 1)),"*) ;; *) continue ;; esac
  echo
  echo "==> calendar run $((i + 1)): ${NAMES[$i]} (faketime @${CLOCKS[$i]}, TZ=${ZONES[$i]})"
  t0=$(date +%s)
  rc=0
  FAKETIME_DONT_RESET=1 FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_FORCE_MONOTONIC_FIX=0 TZ="${ZONES[$i]}" \
    faketime -f "@${CLOCKS[$i]}" npx vitest run || rc=$?
  results+=("$(printf '%-6s %-40s %5ss' "$([ $rc -eq 0 ] && echo PASS || echo FAIL)" "${NAMES[$i]}" $(($(date +%s) - t0)))")
  if [ $rc -ne 0 ]; then
    printf '%s\n' "${results[@]}"
    exit $rc
  fi
done
echo
echo "================================ calendar summary ================================"
printf '  %s\n' "${results[@]}"
