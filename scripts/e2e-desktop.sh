#!/usr/bin/env bash
# End-to-end test of the desktop workbench: runs the app with `wails dev`
# under Xvfb on a throw-away workspace and home, then drives its browser URL
# (http://localhost:34115, where the page talks to the same Go bindings as
# the window) with Debian's Chromium through playwright-core, in three
# phases:
#   1. another Loom process (tools/holdworkspace) holds the workspace while
#      the app starts: frontend/e2e/workspace.e2e.mjs read-only checks the
#      banner and the disabled writes, lets the holder go and presses Try
#      again; then frontend/e2e/workbench.e2e.mjs takes the sample library
#      the empty library offers, ingests files, runs a query, checks the
#      budget view and the manifest, moves the budget and copies the prompt;
#   2. the app is stopped and the workspace's graph store overwritten;
#   3. the app starts on it again: workspace.e2e.mjs damaged checks the
#      panel, Check workspace and Repair, and the repaired library.
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
holder_pid=
status=0
cleanup() {
	stop_app
	if [[ -n $holder_pid ]]; then kill "$holder_pid" 2>/dev/null || true; fi
	# wails dev starts vite and the app as children; make sure none is left.
	pkill -f "$tmp/workspace" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "e2e: FAIL $*"
	echo "e2e: 0 passed, 1 failed"
	exit 1
}

# start_app LOG: wails dev on the throw-away workspace and home, in a
# process group of its own (setsid) so stop_app stops vite and the app too.
# Ollama's URL points at a closed loopback port: the chat panel must say
# Ollama is down, and nothing leaves the machine. Descriptors 5 and 6 (the
# holder's pipes) are not passed on: only the test may keep the holder.
start_app() {
	setsid env HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
		XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" GOCACHE="$(go env GOCACHE)" GOPATH="$(go env GOPATH)" \
		LOOM_WORKSPACE="$tmp/workspace" LOOM_OLLAMA_URL=http://127.0.0.1:9 \
		xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" \
		wails dev -m -nosyncgomod -skipbindings -noreload -browser=false >"$out/$1" 2>&1 5>&- 6<&- &
	dev_pid=$!
}

# wait_app LOG: until the page is served and the app has tried to open the
# workspace (it logs "opened workspace", or why it did not open it).
wait_app() {
	local deadline=$((SECONDS + wait_seconds))
	until curl -s -o /dev/null -m 2 "http://localhost:$port" && grep -qE "opened workspace|did not open it" "$out/$1"; do
		if ! kill -0 "$dev_pid" 2>/dev/null; then
			tail -n 40 "$out/$1" >&2
			fail "wails dev exited before serving the page (log: $out/$1)"
		fi
		if ((SECONDS > deadline)); then
			tail -n 40 "$out/$1" >&2
			fail "the app did not serve http://localhost:$port within ${wait_seconds}s (log: $out/$1)"
		fi
		sleep 1
	done
	echo "e2e: app up at http://localhost:$port"
}

# stop_app: stops wails dev, vite and the app, and waits until none of them
# is left (the app holds the workspace until it exits).
stop_app() {
	[[ -n $dev_pid ]] || return 0
	kill -- -"$dev_pid" 2>/dev/null || kill "$dev_pid" 2>/dev/null || true
	local deadline=$((SECONDS + 30))
	while kill -0 -- -"$dev_pid" 2>/dev/null && ((SECONDS < deadline)); do
		sleep 0.2
	done
	kill -9 -- -"$dev_pid" 2>/dev/null || true
	wait "$dev_pid" 2>/dev/null || true
	dev_pid=
}

mkdir -p "$tmp"/{home,data,config,cache,runtime,workspace}
chmod 700 "$tmp/runtime"
rm -f "$out"/*.png "$out/holder.log"
go build -o "$tmp/holdworkspace" ./tools/holdworkspace

# Phase 1: another Loom process holds the workspace while the app starts.
# It had used the workspace before (opened and closed once, so an index is
# saved, which a reader beside it uses); now it holds it again. Its stdin
# and stdout are FIFOs the test gets: closing the one lets the holder go,
# the end of the other says it has.
"$tmp/holdworkspace" "$tmp/workspace" </dev/null >/dev/null 2>>"$out/holder.log" || fail "holdworkspace could not make the workspace (see $out/holder.log)"
mkfifo "$tmp/hold.in" "$tmp/hold.out"
"$tmp/holdworkspace" "$tmp/workspace" <"$tmp/hold.in" >"$tmp/hold.out" 2>>"$out/holder.log" &
holder_pid=$!
exec 5>"$tmp/hold.in" 6<"$tmp/hold.out"
read -r -u 6 ready || true
[[ $ready == ready ]] || fail "holdworkspace did not get hold of the workspace (see $out/holder.log)"
echo "e2e: another Loom process holds the workspace; starting wails dev (compiles the app; logs in $out/wails-dev.log)"
start_app wails-dev.log
wait_app wails-dev.log
LOOM_E2E_URL="http://localhost:$port" LOOM_E2E_OUT="$out" node frontend/e2e/workspace.e2e.mjs read-only 3>&5 4<&6 5>&- 6<&- &
node_pid=$!
exec 5>&- 6<&- # the test alone holds the holder now
wait "$node_pid" || status=1
wait "$holder_pid" 2>/dev/null || true
holder_pid=
LOOM_E2E_URL="http://localhost:$port" LOOM_E2E_OUT="$out" node frontend/e2e/workbench.e2e.mjs || status=1

# Phase 2: the app stops and the workspace's graph store is damaged.
stop_app
graph="$tmp/workspace/graph/indexes.bolt"
[[ -s $graph ]] || fail "no graph store at $graph to damage"
printf 'not a database at all, sorry' >"$graph"

# Phase 3: the app starts on the damaged workspace.
echo "e2e: starting wails dev on the damaged workspace (log: $out/wails-dev-damaged.log)"
start_app wails-dev-damaged.log
wait_app wails-dev-damaged.log
LOOM_E2E_URL="http://localhost:$port" LOOM_E2E_OUT="$out" node frontend/e2e/workspace.e2e.mjs damaged || status=1
exit $status
