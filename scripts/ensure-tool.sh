#!/usr/bin/env bash
# Installs one of the project's optional tools (tools/NAME: its package.json and lock) when it is
# missing or its lock changed since it was installed: Lighthouse for `npm run bench:lighthouse`,
# StrykerJS for `npm run mutation`. They are not in the project's own dependencies because
# `npm install` would then unpack some 250 packages that neither `npm start` nor `npm test` uses
# (decision 0028).
#
#   bash scripts/ensure-tool.sh lighthouse
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: ensure-tool.sh NAME (a folder of tools/)}
dir=tools/$name
[ -f "$dir/package-lock.json" ] || { echo "ensure-tool: no tool '$name' (no $dir/package-lock.json)" >&2; exit 2; }
# npm writes node_modules/.package-lock.json last: present and newer than the lock means done.
installed=$dir/node_modules/.package-lock.json
if [ -f "$installed" ] && [ "$installed" -nt "$dir/package-lock.json" ]; then exit 0; fi
echo "Installing $name for this command (once)…" >&2
npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error >&2
