#!/usr/bin/env bash
# Makes sure the cluster's services are installed from Debian's packages: PostgreSQL (postgresql),
# NATS (nats-server) and HAProxy (haproxy). `npm run cluster` and `npm test` (the PostgreSQL store
# tests and the cluster test) run it first. Installs what is missing with apt-get when running as
# root; otherwise explains how.
set -euo pipefail

have_postgres() { [ -n "${PG_BIN:-}" ] || compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; }

missing=()
have_postgres || missing+=(postgresql)
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)

if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "services: installing Debian's ${missing[*]} (apt-get, as root) ..."
  export DEBIAN_FRONTEND=noninteractive
  # The packages' own services are not started: the cluster and the tests run their own servers.
  own_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null; } ||
    echo "services: apt-get could not install ${missing[*]}." >&2
  [ "$own_policy" -eq 1 ] && rm -f /usr/sbin/policy-rc.d
fi

still=()
have_postgres || still+=(postgresql)
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || still+=(nats-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || still+=(haproxy)
if [ ${#still[@]} -eq 0 ]; then
  echo "services: PostgreSQL, nats-server and haproxy are installed."
  exit 0
fi
cat >&2 <<MSG

  The cluster and its tests need Debian's ${still[*]}, and this script installs them only when it
  runs as root. Install them yourself, then run the command again:

      sudo apt-get update && sudo apt-get install -y postgresql nats-server haproxy

MSG
exit 1
