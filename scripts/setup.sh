#!/usr/bin/env bash
# Makes a fresh Debian 12 machine ready to build, run and test Loom:
# Debian packages (GTK + WebKitGTK 4.1 for the desktop shell, Xvfb and
# ImageMagick for the desktop smoke test, Chromium for the browser tests),
# the Wails CLI, the frontend's npm packages, the weights of the sentence
# encoder all-MiniLM-L6-v2 and the offline embedding table distilled from them,
# and Ollama built from source with a tiny model for the tests.
#
# Idempotent: it installs only what is missing, so a second run takes seconds.
# Uses sudo only when not run as root. Network: Debian's apt, the Go module
# proxy and the npm registry, nothing else; every Go module the builds and
# tests need is downloaded here, so nothing is fetched later.
#
# Quiet: one line per step; each tool's own output goes to a log under
# .cache/setup/, whose end is printed only when the step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

wails_version=v2.11.0
apt_packages=(
	build-essential pkg-config      # cgo for the Wails shell
	libgtk-3-dev libwebkit2gtk-4.1-dev # the window and the webview (build tag webkit2_41)
	xvfb xauth x11-utils xdotool    # a display for the smoke test, and finding its window
	imagemagick                     # screenshot (import) and blank-page check (identify)
	chromium                        # Debian's browser for the page tests; never downloaded by npm
)

as_root() {
	if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

step() { echo "setup: $*"; }

apt_install() {
	as_root apt-get update
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

logs=.cache/setup
mkdir -p "$logs"

# quietly LOG CMD...: runs CMD with its output in $logs/LOG.log.
quietly() {
	local log=$logs/$1.log
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "setup: failed: $* (whole log: $log)" >&2
		exit 1
	fi
}

# --- Debian packages -----------------------------------------------------
missing=()
for pkg in "${apt_packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$pkg")
	fi
done
if ((${#missing[@]})); then
	step "installing Debian packages: ${missing[*]} (log: $logs/apt.log)"
	quietly apt apt_install "${missing[@]}"
else
	step "Debian packages present"
fi

# --- Wails CLI -----------------------------------------------------------
gobin=$(go env GOBIN)
[[ -n $gobin ]] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"
if command -v wails >/dev/null && [[ $(wails version 2>/dev/null | head -n1) == "$wails_version" ]]; then
	step "wails $wails_version present"
else
	step "installing wails $wails_version into $gobin (log: $logs/wails.log)"
	quietly wails go install "github.com/wailsapp/wails/v2/cmd/wails@$wails_version"
fi

# --- Go modules ------------------------------------------------------------
# Everything go.mod requires (the desktop build, the WebAssembly build and
# the tests use no other module); silent and instant when all are cached.
step "Go modules (go mod download; log: $logs/go-mod-download.log)"
quietly go-mod-download go mod download

# --- frontend packages ---------------------------------------------------
# npm ci, only when node_modules does not match the lock file.
bash scripts/frontend-deps.sh

# --- sentence encoder weights (all-MiniLM-L6-v2; backend/embed/minilm) ----
bash scripts/minilm.sh

# --- offline embedding table (distilled from those weights) ---------------
bash scripts/embeddings.sh

# --- tree-sitter grammars for the web edition (web-tree-sitter) -----------
bash scripts/grammars.sh

# --- a real Ollama and a tiny model for the tests (backend/ollama/real) ----
bash scripts/ollama.sh

step "done"
