#!/usr/bin/env bash
# End-to-end test of the desktop workbench: runs the app with `wails dev`
# under Xvfb on a throw-away workspace and home, then drives its browser URL
# (http://localhost:34115, where the page talks to the same Go bindings as
# the window) with Debian's Chromium through playwright-core:
# frontend/e2e/workbench.e2e.mjs takes the sample library the empty library
# offers, ingests files, runs a query, checks the budget view and the
# manifest, moves the budget and copies the prompt.
#
# Environment:
#   LOOM_E2E_OUT   screenshots and logs (default build/bin/e2e)
#   LOOM_E2E_WAIT  seconds to wait for the app to come up (default 600:
#                  wails dev compiles the app first)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${LOOM_E2E_OUT:-build/bin/e2e}
wait_seconds=${LOOM_E2E_WAIT:-600}
port=34115
mkdir -p "$out"
out=$(cd "$out" && pwd)

gobin=$(go env GOBIN)
[[ -n $gobin ]] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"
for tool in wails Xvfb xvfb-run node; do
	command -v "$tool" >/dev/null || { echo "e2e: $tool is missing; run make setup" >&2; exit 1; }
done
if curl -s -o /dev/null -m 2 "http://localhost:$port"; then
	echo "e2e: something already listens on port $port; stop it first" >&2
	exit 1
fi

tmp=$(mktemp -d)
dev_pid=
cleanup() {
	if [[ -n $dev_pid ]]; then
		kill -- -"$dev_pid" 2>/dev/null || kill "$dev_pid" 2>/dev/null || true
		sleep 1
		kill -9 -- -"$dev_pid" 2>/dev/null || true
	fi
	# wails dev starts vite and the app as children; make sure none is left.
	pkill -f "$tmp/workspace" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp"/{home,data,config,cache,runtime,workspace}
chmod 700 "$tmp/runtime"
echo "e2e: starting wails dev (compiles the app; logs in $out/wails-dev.log)"
# setsid: its own process group, so cleanup stops vite and the app too.
# Ollama's URL points at a closed loopback port: the chat panel must say
# Ollama is down, and nothing leaves the machine.
setsid env HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
	XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" GOCACHE="$(go env GOCACHE)" GOPATH="$(go env GOPATH)" \
	LOOM_WORKSPACE="$tmp/workspace" LOOM_OLLAMA_URL=http://127.0.0.1:9 \
	xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" \
	wails dev -m -nosyncgomod -skipbindings -noreload -browser=false >"$out/wails-dev.log" 2>&1 &
dev_pid=$!

deadline=$((SECONDS + wait_seconds))
until curl -s -o /dev/null -m 2 "http://localhost:$port" && grep -q "opened workspace" "$out/wails-dev.log"; do
	if ! kill -0 "$dev_pid" 2>/dev/null; then
		tail -n 40 "$out/wails-dev.log" >&2
		echo "e2e: wails dev exited before serving the page" >&2
		exit 1
	fi
	if ((SECONDS > deadline)); then
		tail -n 40 "$out/wails-dev.log" >&2
		echo "e2e: the app did not serve http://localhost:$port within ${wait_seconds}s" >&2
		exit 1
	fi
	sleep 2
done
echo "e2e: app up at http://localhost:$port"
LOOM_E2E_URL="http://localhost:$port" LOOM_E2E_OUT="$out" node frontend/e2e/workbench.e2e.mjs
