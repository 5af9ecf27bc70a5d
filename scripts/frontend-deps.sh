#!/usr/bin/env bash
# Installs the frontend's npm packages (npm ci) when frontend/node_modules
# does not match frontend/package-lock.json, and does nothing when it does.
#
# Both scripts/setup.sh and Wails run it: wails.json's "frontend:install"
# names it, because `wails build` and `wails dev` run their install command
# whenever frontend/package.json.md5 (their own stamp) is missing or old, and
# a plain `npm ci` there would wipe node_modules, and the stamp below with it,
# so set-up would install everything a second time. Wails runs it from
# frontend/; it finds the repository itself.
#
# Quiet: npm's output goes to .cache/setup/npm-ci.log; on failure its end is
# printed.
set -euo pipefail
cd "$(dirname "$0")/.."

lock_sum=$(sha256sum frontend/package-lock.json | cut -d' ' -f1)
stamp=frontend/node_modules/.loom-lock.sha256
if [[ -f $stamp && $(cat "$stamp") == "$lock_sum" ]]; then
	echo "setup: frontend packages up to date"
	exit 0
fi

command -v npm >/dev/null || { echo "setup: npm is missing (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p .cache/setup
log=.cache/setup/npm-ci.log
echo "setup: installing frontend packages (npm ci; log: $log)"
if ! (cd frontend && npm ci --no-audit --no-fund) >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "setup: npm ci failed (whole log: $log)" >&2
	exit 1
fi
echo "$lock_sum" >"$stamp"
