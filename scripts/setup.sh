#!/usr/bin/env bash
# Makes a fresh Debian 12 machine ready to build, run and test Loom:
# Debian packages (GTK + WebKitGTK 4.1 for the desktop shell, Xvfb and
# ImageMagick for the desktop smoke test, Chromium for the browser tests),
# the Wails CLI, the frontend's npm packages and the offline embedding table.
#
# Idempotent: it installs only what is missing, so a second run takes seconds.
# Uses sudo only when not run as root. Network: Debian's apt, the Go module
# proxy and the npm registry, nothing else.
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

# --- Debian packages -----------------------------------------------------
missing=()
for pkg in "${apt_packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$pkg")
	fi
done
if ((${#missing[@]})); then
	step "installing Debian packages: ${missing[*]}"
	as_root apt-get update
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
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
	step "installing wails $wails_version into $gobin"
	go install "github.com/wailsapp/wails/v2/cmd/wails@$wails_version"
fi

# --- frontend packages ---------------------------------------------------
# npm ci wipes node_modules every time; a stamp of the lock file makes the
# second run instant.
lock_sum=$(sha256sum frontend/package-lock.json | cut -d' ' -f1)
stamp=frontend/node_modules/.loom-lock.sha256
if [[ -f $stamp && $(cat "$stamp") == "$lock_sum" ]]; then
	step "frontend packages up to date"
else
	step "installing frontend packages (npm ci)"
	(cd frontend && npm ci --no-audit --no-fund)
	echo "$lock_sum" >"$stamp"
fi

# --- offline embedding table ---------------------------------------------
if [[ -f scripts/embeddings.sh ]]; then
	bash scripts/embeddings.sh
else
	step "scripts/embeddings.sh is not there yet; skipping the offline embedding table"
fi

step "done"
