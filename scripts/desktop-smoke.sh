#!/usr/bin/env bash
# Desktop smoke test: builds loom-desktop with `wails build`, starts it under
# Xvfb (1280x800) on a throw-away workspace and home, waits for a window
# titled "Loom", takes a screenshot and checks that Loom's page was painted
# in it: not blank, not a WebKit or Wails error page. It checks that the page
# rendered, not that the workspace opened: an engine error is shown by the
# page itself and still passes.
#
# Environment:
#   LOOM_SMOKE_OUT         where the screenshot and logs go (default build/bin/smoke)
#   LOOM_SMOKE_SKIP_BUILD  1 to test the existing build/bin/loom-desktop (or LOOM_SMOKE_APP)
#   LOOM_SMOKE_WAIT        seconds to wait for the window and the page (default 60)
#   LOOM_SMOKE_WORKSPACE   a workspace to show instead of a new empty one
#                          (e.g. one made with `loom ingest`, for docs/desktop.png)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${LOOM_SMOKE_OUT:-build/bin/smoke}
wait_seconds=${LOOM_SMOKE_WAIT:-60}
app=${LOOM_SMOKE_APP:-build/bin/loom-desktop} # another binary only with LOOM_SMOKE_SKIP_BUILD=1
# --accent in frontend/src/app.css (light, dark): the "Loom" heading is drawn
# in it, so finding it tells Loom's page from an error page.
accent_colours=('#3b3f9e' '#a9adff')
min_accent_pixels=100
min_colours=32
min_stddev=0.02

fail() {
	echo "desktop smoke: FAIL: $*" >&2
	echo "desktop smoke: logs and last screenshot in $out" >&2
	echo "desktop smoke: 0 passed, 1 failed"
	exit 1
}

gobin=$(go env GOBIN)
[[ -n $gobin ]] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"
for tool in Xvfb xdotool import identify convert compare; do
	command -v "$tool" >/dev/null || fail "$tool is missing; run make setup"
done

mkdir -p "$out"
rm -f "$out"/desktop.png "$out"/*.log

if [[ ${LOOM_SMOKE_SKIP_BUILD:-0} != 1 ]]; then
	command -v wails >/dev/null || fail "wails is missing; run make setup"
	echo "desktop smoke: building $app"
	# -m -nosyncgomod: never let the build rewrite go.mod (wails would tidy it).
	timeout 1200 wails build -m -nosyncgomod >"$out/build.log" 2>&1 || {
		tail -n 40 "$out/build.log" >&2
		fail "wails build failed (full log: $out/build.log)"
	}
fi
[[ -x $app ]] || fail "$app was not built"

tmp=$(mktemp -d)
xvfb_pid=
app_pid=
# shellcheck disable=SC2317 # called by the trap below
cleanup() {
	# Both were started under `timeout`, which passes the TERM on to them.
	for pid in $app_pid $xvfb_pid; do
		kill "$pid" 2>/dev/null || true
	done
	sleep 0.5
	for pid in $app_pid $xvfb_pid; do
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# Xvfb picks a free display itself and writes its number to fd 3.
timeout $((wait_seconds + 120)) Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp \
	3>"$tmp/display" >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 100); do
	[[ -s $tmp/display ]] && break
	sleep 0.1
done
[[ -s $tmp/display ]] || fail "Xvfb did not start (see $out/xvfb.log)"
DISPLAY=":$(tr -d '[:space:]' <"$tmp/display")"
export DISPLAY

# A home, XDG dirs and a workspace of its own, so the test touches nothing
# of the person running it.
mkdir -p "$tmp"/{home,data,config,cache,runtime,workspace}
chmod 700 "$tmp/runtime"
HOME=$tmp/home XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config \
	XDG_CACHE_HOME=$tmp/cache XDG_RUNTIME_DIR=$tmp/runtime \
	LOOM_WORKSPACE=${LOOM_SMOKE_WORKSPACE:-$tmp/workspace} \
	timeout $((wait_seconds + 60)) "$app" >"$out/app.log" 2>&1 &
app_pid=$!

deadline=$((SECONDS + wait_seconds))
window=
while ((SECONDS < deadline)); do
	kill -0 "$app_pid" 2>/dev/null || fail "loom-desktop exited before its window appeared (see $out/app.log)"
	window=$(xdotool search --onlyvisible --name '^Loom$' 2>/dev/null | head -n1 || true)
	[[ -n $window ]] && break
	sleep 0.5
done
[[ -n $window ]] || fail "no window titled Loom within ${wait_seconds}s"
echo "desktop smoke: window $window is up on $DISPLAY"

# The window maps before the page paints: screenshot until the page shows.
eval "$(xdotool getwindowgeometry --shell "$window")" # sets X Y WIDTH HEIGHT
crop="${WIDTH}x${HEIGHT}+${X}+${Y}"
verdict="no screenshot taken"
while ((SECONDS < deadline)); do
	kill -0 "$app_pid" 2>/dev/null || fail "loom-desktop died after its window appeared (see $out/app.log)"
	import -window root "$tmp/root.png"
	convert "$tmp/root.png" -crop "$crop" +repage "$tmp/window.png"
	colours=$(identify -format '%k' "$tmp/window.png")
	stddev=$(identify -format '%[fx:standard_deviation]' "$tmp/window.png")
	accent=0
	for colour in "${accent_colours[@]}"; do
		n=$(convert "$tmp/window.png" -fuzz 8% -fill black +opaque "$colour" -fill white -opaque "$colour" \
			-colorspace gray -format '%[fx:round(mean*w*h)]' info:)
		((n > accent)) && accent=$n
	done
	verdict="colours=$colours stddev=$stddev accent_pixels=$accent"
	if ((colours >= min_colours && accent >= min_accent_pixels)) &&
		awk -v s="$stddev" -v m="$min_stddev" 'BEGIN { exit !(s >= m) }'; then
		# Rendered. For a screenshot worth keeping, let the page settle
		# (the workspace may still be opening): wait, bounded, until two
		# shots in a row are the same.
		for _ in $(seq 1 10); do
			sleep 0.5
			import -window root "$tmp/next.png"
			same=$(compare -metric AE "$tmp/root.png" "$tmp/next.png" null: 2>&1 || true)
			mv "$tmp/next.png" "$tmp/root.png"
			[[ $same == 0 ]] && break
		done
		cp "$tmp/root.png" "$out/desktop.png"
		kill -0 "$app_pid" 2>/dev/null || fail "loom-desktop died while being photographed"
		echo "desktop smoke: page rendered ($verdict); screenshot $out/desktop.png"
		echo "desktop smoke: 1 passed, 0 failed"
		exit 0
	fi
	sleep 1
done
cp "$tmp/root.png" "$out/desktop.png" 2>/dev/null || true
fail "the window never showed Loom's page ($verdict; needs colours>=$min_colours, stddev>=$min_stddev, accent_pixels>=$min_accent_pixels)"
