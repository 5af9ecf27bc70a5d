#!/usr/bin/env bash
# End-to-end test of the web edition: builds it (make web), serves build/web
# on the loopback interface under a sub-path (frontend/e2e/serve.mjs: the
# site must work from any path) and drives it in Debian's Chromium through
# playwright-core: frontend/e2e/workbench.e2e.mjs (the sample library from
# the empty library and a question about it, ingest through the file input,
# progress, documents, graph nodes, query, budget view, manifest, budget
# slider, copy prompt), then frontend/e2e/web-extra.e2e.mjs (boot
# overlay, the workspace surviving a reload, the engine from the browser's
# cache, one tab per workspace, Ollama's CORS advice and URL field, export
# and import of the workspace file, light and dark screenshots), then
# frontend/e2e/web-pdf.e2e.mjs (the worker reading real PDFs through pdf.js:
# pages, runs in reading order, fonts, outline, the refusals; a PDF and a
# folder picked in the page reaching the engine),
# frontend/e2e/web-code.e2e.mjs (source code through web-tree-sitter: the
# grammars loaded one language at a time, the samples as definitions), and
# frontend/e2e/cite.e2e.mjs (citations in the results and in a chat answer
# from a fake Ollama open the source viewer at the cited passage), and
# frontend/e2e/mcp.e2e.mjs (an independent MCP client, the TypeScript SDK
# from npm, drives `loom mcp` over stdio and Streamable HTTP).
#
# Environment:
#   LOOM_E2E_OUT    screenshots (default build/bin/e2e-web)
#   LOOM_E2E_BUILD  0 to test build/web as it is (default 1: make web first)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${LOOM_E2E_OUT:-build/bin/e2e-web}
mkdir -p "$out"
out=$(cd "$out" && pwd)
command -v node >/dev/null || { echo "e2e-web: node is missing; run make setup" >&2; exit 1; }

if [[ ${LOOM_E2E_BUILD:-1} != 0 ]]; then
	make --no-print-directory web
fi
[[ -s build/web/loom.wasm && -s build/web/index.html ]] || { echo "e2e-web: build/web is incomplete; run make web" >&2; exit 1; }

server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# Port 0: any free port; the server prints its URL.
LOOM_SERVE_PREFIX=/loom-web/ node frontend/e2e/serve.mjs build/web 0 >"$out/serve.log" 2>&1 &
server_pid=$!
url=
for _ in $(seq 100); do
	url=$(sed -n 's/^serving .* at //p' "$out/serve.log")
	[[ -n $url ]] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$out/serve.log" >&2; exit 1; }
	sleep 0.1
done
[[ -n $url ]] || { echo "e2e-web: the static server did not start" >&2; exit 1; }
echo "e2e-web: serving build/web at $url"

status=0
LOOM_E2E_URL="$url" LOOM_E2E_OUT="$out" node frontend/e2e/workbench.e2e.mjs || status=1
LOOM_E2E_URL="$url" LOOM_E2E_OUT="$out" node frontend/e2e/web-extra.e2e.mjs || status=1
LOOM_E2E_URL="$url" LOOM_E2E_OUT="$out" node frontend/e2e/web-pdf.e2e.mjs || status=1
LOOM_E2E_URL="$url" LOOM_E2E_OUT="$out" node frontend/e2e/web-code.e2e.mjs || status=1
LOOM_E2E_URL="$url" LOOM_E2E_OUT="$out" node frontend/e2e/cite.e2e.mjs || status=1
go build -o build/bin/loom-mcp-e2e ./cmd/loom
node frontend/e2e/mcp.e2e.mjs "$PWD/build/bin/loom-mcp-e2e" || status=1
exit $status
